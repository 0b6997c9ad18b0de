"""``python -m remikit``: the ``remi`` command."""

import sys

from remikit.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
