"""``python -m overturn.fingerprint``: the command line (see ``_cli.py``; the twin of ``overturn-fingerprint``).

``run`` is also the ``overturn-fingerprint`` console script of the wheel.
"""
import sys

from ._cli import main


def run() -> None:
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    run()
