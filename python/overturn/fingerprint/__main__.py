"""``python -m overturn.fingerprint``: the command line (see ``_cli.py``; the twin of ``overturn-fingerprint``).

``run`` is also the ``overturn-fingerprint`` console script of the wheel.
"""
import os
import sys

from . import _cli


def run() -> None:
    # Help, usage and --version name the program as the user typed it.
    if os.path.basename(sys.argv[0]).split(".")[0] == "overturn-fingerprint":
        _cli.PROG = "overturn-fingerprint"
    try:
        code = _cli.main(sys.argv[1:])
    except KeyboardInterrupt:
        # Ctrl-C: the shell's status for it (128 + SIGINT), without a traceback.
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    run()
