"""dedup: near-duplicate rows in relational tables, by 64-bit SimHash over CityHash64.

Python use mirrors the command line::

    from dedup import load_config, run_full
    result = run_full(load_config("dedup.yaml"), "petitions")
"""

__version__ = "0.1.0"

from .config import Config, load_config  # noqa: E402
from .errors import ConfigError, DedupError, LockedError, SourceError, StoreError  # noqa: E402
from .pipeline import FullResult, run_full  # noqa: E402


__all__ = ["Config", "FullResult", "load_config", "run_full", "ConfigError", "DedupError", "LockedError",
           "SourceError", "StoreError", "__version__"]
