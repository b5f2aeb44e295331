"""``python -m dedup`` runs the command line."""

from .cli import main

main(prog_name="dedup")
