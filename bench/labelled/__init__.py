"""Labelled benchmark tables (synthetic rows with known duplicate clusters and hard negatives)."""

from .petitions import generate_petitions
from .persons import generate_persons
