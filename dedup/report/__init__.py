"""The report of duplicate groups: built from the store (build) and rendered (render)."""

from .build import build_report
from .render import FORMATS, render

__all__ = ["FORMATS", "build_report", "render"]
