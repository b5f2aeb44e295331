"""dedup: near-duplicate rows in relational tables, by 64-bit SimHash over CityHash64.

Python use mirrors the command line::

    from dedup import load_config, run_full, run_incremental
    result = run_full(load_config("dedup.yaml"), "petitions")
    nightly = run_incremental(load_config("dedup.yaml"), "petitions")

The names below are imported on first use, so ``import dedup`` (and the command line's start-up,
where Ctrl-C must stay catchable) does not load the whole pipeline.
"""

from importlib import import_module

__version__ = "0.1.0"

_LAZY = {
    "Config": ".config", "load_config": ".config",
    "ConfigError": ".errors", "DedupError": ".errors", "LockedError": ".errors", "SourceError": ".errors",
    "StoreError": ".errors",
    "run_eval": ".eval.sweep",
    "FullResult": ".runs.full", "run_full": ".runs.full",
    "IncrementalResult": ".runs.incremental", "run_incremental": ".runs.incremental",
    "Recipe": ".runs.recipe",
}
__all__ = [*_LAZY, "__version__"]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'dedup' has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
