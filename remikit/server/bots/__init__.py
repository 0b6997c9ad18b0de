"""The bots of live tables: the driver that asks for their moves and the worker processes
that think, scheduled fairly."""
