"""The configuration: typed objects (model) and the YAML that becomes them, checked whole (parse)."""

from .model import (DEFAULT_MAX_DISTANCE, DEFAULT_MIN_FIELD_SIMILARITY, DEFAULT_MIN_SIMILARITY, DEFAULT_SKETCH_BITS,
                    KEYS, PAPER_RECIPE, Config, FieldSpec, TableConfig, TextConfig)
from .environ import expand_env
from .parse import default_config_path, load_config, parse_config

__all__ = ["Config", "FieldSpec", "TableConfig", "TextConfig", "KEYS", "PAPER_RECIPE", "DEFAULT_MAX_DISTANCE",
           "DEFAULT_MIN_FIELD_SIMILARITY", "DEFAULT_MIN_SIMILARITY", "DEFAULT_SKETCH_BITS", "default_config_path",
           "expand_env", "load_config", "parse_config"]
