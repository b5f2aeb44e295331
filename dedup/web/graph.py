"""A group's links as a small graph: rows on a circle, each link a line labelled with its
similarity, the weakest drawn apart. Plain coordinates; the template draws the SVG (escaped)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..report.labels import percent

SIZE = 320  # the drawing's width and height
RADIUS = 115
MAX_NODES = 40  # a larger group is listed, not drawn


@dataclass
class Node:
    key: str
    x: float
    y: float


@dataclass
class Edge:
    a: Node
    b: Node
    similarity: float | None
    rule: str | None
    bar: float | None
    weakest: bool
    decision: str | None

    @property
    def mid(self) -> tuple[float, float]:
        return (self.a.x + self.b.x) / 2, (self.a.y + self.b.y) / 2

    @property
    def label(self) -> str:
        return "?" if self.similarity is None else percent(self.similarity)


def layout(keys: list[str], links: list[dict]) -> tuple[list[Node], list[Edge]] | None:
    """Nodes on a circle and the edges between them (``links``: a, b, similarity, rule, weakest,
    decision); None when the group is too large to draw."""
    if len(keys) > MAX_NODES:
        return None
    c = SIZE / 2
    nodes = {}
    for n, k in enumerate(keys):
        angle = 2 * math.pi * n / max(len(keys), 1) - math.pi / 2
        nodes[k] = Node(k, round(c + RADIUS * math.cos(angle), 1), round(c + RADIUS * math.sin(angle), 1))
    edges = [Edge(nodes[x["a"]], nodes[x["b"]], x.get("similarity"), x.get("rule"), x.get("bar"),
                  bool(x.get("weakest")),
                  x.get("decision")) for x in links if x["a"] in nodes and x["b"] in nodes]
    return list(nodes.values()), edges
