"""Reviewers' actions as the stores keep them: the parts of an Action that have no column of their
own (keys, groups, the decisions replaced) as one JSON-able ``detail`` dict, and back."""

from __future__ import annotations

import datetime as _dt

from ..index.decisions import Action, Decision


def action_detail(action: Action) -> dict:
    return {"keys": list(action.keys), "groups": [int(g) for g in action.groups],
            "pairs": [list(p) for p in action.pairs],
            "replaced": [_decision_doc(d) for d in action.replaced]}


def action_of(action_id: str, kind: str, at: _dt.datetime, reviewer: str | None, note: str | None, detail: dict,
              undone_at: _dt.datetime | None = None, undone_by: str | None = None) -> Action:
    return Action(action_id, kind, at, reviewer, tuple(detail.get("keys", ())), tuple(detail.get("groups", ())),
                  tuple(tuple(p) for p in detail.get("pairs", ())), note, tuple(_decision_of(d) for d in detail.get("replaced", ())), undone_at, undone_by)


def _decision_doc(d: Decision) -> dict:
    return {"a": d.a, "b": d.b, "verdict": d.verdict, "at": d.decided_at.isoformat() if d.decided_at else None,
            "source": d.source, "similarity": d.similarity, "reviewer": d.reviewer, "note": d.note,
            "action": d.action}


def _decision_of(doc: dict) -> Decision:
    at = _dt.datetime.fromisoformat(doc["at"]) if doc.get("at") else None
    return Decision(doc["a"], doc["b"], doc["verdict"], at, doc.get("source") or "decide", doc.get("similarity"),
                    None, doc.get("reviewer"), doc.get("note"), doc.get("action"))
