"""The `dedup` console script. It imports the command line itself, so that Ctrl-C at any moment,
even while dedup is still being imported, is one line and exit 130, never a traceback."""

import sys

INTERRUPTED = "Error: interrupted; nothing was written for the unfinished run"


def main() -> None:
    try:
        from .cli import entry
    except KeyboardInterrupt:
        sys.stderr.write(f"\n{INTERRUPTED}\n")
        sys.exit(130)
    entry()
