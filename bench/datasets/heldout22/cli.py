"""The command line every issue-22 generator shares (bench/datasets/heldout/common.run_cli with its own table)."""

from __future__ import annotations

from bench.datasets.heldout.common import run_cli, write_all


def generator_main(doc: str, table: str, generate, fields: dict, kinds: tuple[str, ...], length_of: str | None):
    """``main(argv)`` for a generator: --rows, --seed, --out; writes ``table``.db, truth.csv, dedup.yaml."""

    def main(argv: list[str] | None = None) -> None:
        run_cli(doc, table, generate, lambda data, out, args: write_all(data, out, table, fields), kinds, length_of,
                argv)

    return main
