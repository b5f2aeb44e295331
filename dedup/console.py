"""The `dedup` console script. It imports the command line (the package dedup.cli) itself, so that
Ctrl-C at any moment, even while dedup is still being imported, is one line and exit 130, never a
traceback; that is why it sits outside dedup.cli, whose import it guards."""

import sys

INTERRUPTED = "Error: interrupted; nothing was written for the unfinished run"


def main() -> None:
    try:
        from .cli import entry
    except KeyboardInterrupt:
        sys.stderr.write(f"\n{INTERRUPTED}\n")
        sys.exit(130)
    entry()
