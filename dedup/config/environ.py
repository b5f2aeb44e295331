"""``${VAR}`` and ``${VAR:-default}`` in the config file, filled in after the YAML is parsed.

A value from the environment is data, never YAML: a password holding ``"``, ``\\``, ``#``, ``: ``
or a space stays exactly what it is. Before parsing, each reference becomes a placeholder word that
YAML reads as plain text in any position (quoted or not, in block or flow style); after parsing,
the placeholders in string values (and keys) are replaced by the variables' values. A reference
left in a comment is ignored, and only a variable that a value really uses must be set.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

import yaml

from ..errors import ConfigError

_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


@dataclass
class EnvReferences:
    """The config text with its ``${...}`` references swapped for placeholders, and what each one names."""

    text: str
    refs: list[tuple[str, str | None]] = field(default_factory=list)  # (variable, default) by placeholder number
    prefix: str = "_dedup_env_"
    bare: set[int] = field(default_factory=set)  # references written unquoted as a whole value (`batch_size: ${N}`)

    @classmethod
    def of(cls, raw: str) -> "EnvReferences":
        prefix, n = "_dedup_env_", 0
        while prefix in raw:  # a placeholder must not occur in the file itself
            n += 1
            prefix = f"_dedup_env{n}_"
        refs: list[tuple[str, str | None]] = []
        bare: set[int] = set()

        def placeholder(m: re.Match) -> str:
            refs.append((m.group(1), m.group(2)))
            before, after = raw[m.start() - 1:m.start()], raw[m.end():m.end() + 1]
            if before not in ("'", '"') and after not in ("'", '"'):
                bare.add(len(refs) - 1)
            return f"{prefix}{len(refs) - 1}_"

        return cls(_REFERENCE.sub(placeholder, raw), refs, prefix, bare)

    def fill(self, data: Any, environ: Mapping[str, str] | None = None) -> Any:
        """``data`` (parsed YAML) with every placeholder in its strings replaced by its variable's value."""
        if not self.refs:
            return data
        env = os.environ if environ is None else environ
        pattern = re.compile(re.escape(self.prefix) + r"(\d+)_")
        missing: set[str] = set()

        def value(m: re.Match) -> str:
            name, default = self.refs[int(m.group(1))]
            if name in env:
                return env[name]
            if default is None:
                missing.add(name)
            return default or ""

        seen: set[int] = set()

        def walk(node: Any) -> Any:  # in place, each node once: a YAML alias may make the data recursive
            if isinstance(node, str):
                whole = pattern.fullmatch(node)
                if whole and int(whole.group(1)) in self.bare:
                    return _scalar(value(whole))
                return pattern.sub(value, node)
            if id(node) in seen:
                return node
            seen.add(id(node))
            if isinstance(node, dict):
                items = list(node.items())
                node.clear()
                node.update((walk(k), walk(v)) for k, v in items)
            elif isinstance(node, list):
                node[:] = [walk(v) for v in node]
            return node

        filled = walk(data)
        if missing:
            raise unset(missing)
        return filled


_NUMBER_OR_FLAG = re.compile(r"[-+]?(\d+|\d*\.\d+([eE][-+]?\d+)?)|true|false|True|False")


def _scalar(text: str) -> Any:
    """An unquoted whole-value reference that reads as a number or true/false is one
    (`batch_size: ${N}`, as before values were filled after parsing); anything else stays text."""
    if _NUMBER_OR_FLAG.fullmatch(text.strip()):
        return yaml.safe_load(text)
    return text


def expand_env(text: str, environ: Mapping[str, str] | None = None) -> str:
    """One string with ``${VAR}`` and ``${VAR:-default}`` replaced; an unset variable without default is an error."""
    refs = EnvReferences.of(text)
    return refs.fill(refs.text, environ)


def unset(names: set[str]) -> ConfigError:
    return ConfigError("environment variable(s) used in the config are not set: " + ", ".join(sorted(names)))
