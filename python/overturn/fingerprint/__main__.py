"""``python -m overturn.fingerprint``: the command line (see ``_cli.py``; the twin of ``overturn-fingerprint``)."""
import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
