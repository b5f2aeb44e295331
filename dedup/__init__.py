"""dedup: near-duplicate rows in relational tables, by 64-bit SimHash over CityHash64.

Python use mirrors the command line::

    from dedup import load_config, run_full, run_incremental
    result = run_full(load_config("dedup.yaml"), "petitions")
    nightly = run_incremental(load_config("dedup.yaml"), "petitions")
"""

__version__ = "0.1.0"

from .config import Config, load_config  # noqa: E402
from .errors import ConfigError, DedupError, LockedError, SourceError, StoreError  # noqa: E402
from .eval.sweep import run_eval  # noqa: E402
from .runs.full import FullResult, run_full  # noqa: E402
from .runs.incremental import IncrementalResult, run_incremental  # noqa: E402
from .runs.recipe import Recipe  # noqa: E402

__all__ = ["Config", "FullResult", "IncrementalResult", "Recipe", "load_config", "run_eval", "run_full",
           "run_incremental", "ConfigError", "DedupError", "LockedError", "SourceError", "StoreError", "__version__"]
