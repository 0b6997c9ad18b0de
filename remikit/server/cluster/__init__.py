"""One site of several ``remi serve`` processes over one PostgreSQL and one Redis
(docs/deploy.md, docs/design.md decision 12): each table owned by one process at a time
(:mod:`.node`), a table's requests and sockets forwarded to its owner (:mod:`.forward`),
one lobby for every process (:mod:`.lobby`)."""
