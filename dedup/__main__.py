"""``python -m dedup`` runs the command line."""

from .console import main

main()
