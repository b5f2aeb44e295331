"""``python -m dedup.cli`` runs the command line, as the console script does."""

from ..console import main

main()
