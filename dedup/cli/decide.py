"""`dedup decide`: a reviewer's actions on pairs and groups (dedup.runs.actions), each under the
table's lock, and how their regrouping reads in one line."""

from __future__ import annotations

import getpass
import json

import click

from ..errors import ConfigError
from ..index.decisions import DIFFERENT, SAME
from ..report.cells import visible
from .base import Context, handle_errors
from .options import format_option, output_option, table_option
from .output import check_output, emit


def login_name() -> str | None:
    """The reviewer when --reviewer is not given: the login name (None where there is none)."""
    try:
        return getpass.getuser() or None
    except (OSError, KeyError, ImportError):
        return None


def regrouped(result) -> str:
    """The regrouping in one line: ``result`` an IncrementalResult, its summary() (an action's
    ``changed``), or None / {} (no groups yet)."""
    s = result if isinstance(result, dict) or result is None else result.summary()
    if not s:
        return "no groups yet: the decisions apply from the first full run"
    return (f"groups: {s['new_groups']} new, {s['grown_groups']} grown, {s['shrunk_groups']} shrunk, "
            f"{s['merged_groups']} merged, {s['dissolved_groups']} dissolved")


def parse_parts(text: str) -> list[list[str]]:
    """``"k1,k2|k3,k4"`` as [["k1", "k2"], ["k3", "k4"]] (blanks around keys dropped)."""
    parts = [[k.strip() for k in part.split(",") if k.strip()] for part in text.split("|")]
    if sum(1 for p in parts if p) < 2:
        raise ConfigError(f"--split {text!r}: give two or more parts of keys, the parts split by | "
                          "(\"k1,k2|k3,k4\")")
    return parts


_ACTIONS = "--same, --different, --forget, --take-out, --split, --merge, --group, --undo or --history"


@click.command()
@click.argument("key1", required=False, help="A row's key (the key column's value): with --same, --different, --forget.")
@click.argument("key2", required=False, help="The other row's key.")
@table_option
@click.option("--same", "verdict", flag_value=SAME, help="The two rows are one matter: join their groups.")
@click.option("--different", "verdict", flag_value=DIFFERENT, help="Not the same matter: cut their link.")
@click.option("--forget", "verdict", flag_value="forget",
              help="Remove the decision on this pair and regroup the two rows (--undo puts it back).")
@click.option("--take-out", metavar="KEY", help="Take this row out of its group: different from every other member.")
@click.option("--split", "split_parts", metavar='"K1,K2|K3,K4"',
              help="Split a group into parts (keys of one group, parts split by |): different across the parts.")
@click.option("--merge", nargs=2, type=int, metavar="G1 G2", help="Merge two groups (ids as the report shows them).")
@click.option("--group", "group_id", type=int, metavar="G",
              help="With --note: keep the note on group G (no decision); alone: list G's notes.")
@click.option("--undo", is_flag=True, help="Undo the last action (the reviewer's last with --reviewer) and regroup.")
@click.option("--history", is_flag=True, help="List the last actions, newest first; changes nothing.")
@click.option("--note", metavar="TEXT", help="A note kept with the decisions of this action (with --group: on the group).")
@click.option("--reviewer", metavar="NAME", help="Who decides (default: the login name).")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1), help="--history: how many actions.")
@format_option(("text", "json"), "--history: one line an action, or a JSON list.", json_alias="As `--format json`.")
@output_option("--history: write to FILE instead of stdout.")
@click.pass_obj
@handle_errors
def decide(obj: Context, key1: str | None, key2: str | None, table: str | None, verdict: str | None,
           take_out: str | None, split_parts: str | None, merge: tuple[int, int] | None, group_id: int | None,
           undo: bool, history: bool, note: str | None, reviewer: str | None, limit: int, fmt: str,
           output: str | None) -> None:
    """Record a reviewer's action on rows or groups and regroup now.

    --different cuts two rows' link: their group splits unless other pairs still join it.
    --same joins the two rows' groups. --take-out and --split cut every link between a row (or
    part) and the rest of its group, so the cut holds whatever else links them; --merge joins two
    groups. Each action is recorded with the reviewer, the time and --note; --undo removes the last
    one. --group G --note TEXT keeps a note on a group. Decisions are kept in the store and every later full and incremental run applies them.
    Every action is a run of kind `decide` and takes the table's lock.
    """
    from ..runs import actions

    chosen = [name for name, on in (("pair", verdict is not None), ("--take-out", take_out is not None),
                                    ("--split", split_parts is not None), ("--merge", bool(merge)),
                                    ("--group", group_id is not None), ("--undo", undo),
                                    ("--history", history)) if on]
    if len(chosen) != 1:
        raise ConfigError(f"say one of {_ACTIONS}" + (f" (not {' and '.join(chosen)} together)" if chosen else ""))
    if (key1 is not None or key2 is not None) != (verdict is not None):
        raise ConfigError("two keys go with --same, --different or --forget" if verdict is None else "give two keys")
    if note is not None and (undo or history or verdict == "forget"):
        raise ConfigError("--note goes with an action that decides, or with --group")
    check_output(output)
    config = obj.config()
    if history:
        emit(history_text(actions.history(config, table, limit=limit), fmt), output)
    elif group_id is not None:
        click.echo(_on_group(actions, config, table, group_id, note, reviewer or login_name()), nl=False)
    elif undo:
        r = actions.undo_last(config, table, reviewer=reviewer)
        kind = next((a.kind for a in actions.history(config, table, limit=limit) if a.id == r.action), "action")
        click.echo(f"undid {kind} {r.action}: {r.decisions} decisions removed; {regrouped(r.changed)}")
    else:
        click.echo(_act(actions, config, table, reviewer or login_name(), note, key1=key1, key2=key2, verdict=verdict,
                        take_out=take_out, split_parts=split_parts, merge=merge))


def _on_group(actions, config, table: str | None, group_id: int, note: str | None, who: str | None) -> str:
    """--group G: its notes listed, or (with --note) a note kept on it."""
    if note is None:
        return "".join(f"{n.at.isoformat(sep=' ')}  {visible(n.reviewer or '-')}  {visible(n.text)}\n"
                       for n in actions.group_notes(config, table, group_id))
    actions.note_group(config, table, group_id, note, reviewer=who)
    return f"noted on group {group_id}\n"


def _act(actions, config, table: str | None, who: str | None, note: str | None, *, key1, key2, verdict, take_out,
         split_parts, merge) -> str:
    """One action that decides (or forgets), done under the table's lock; its line."""
    if verdict == "forget":
        r = actions.forget(config, table, key1, key2, reviewer=who)
        if not r.decisions:
            return f"no decision on {visible(key1)} and {visible(key2)} to forget"
        return f"forgot the decision on {visible(key1)} and {visible(key2)}; {regrouped(r.changed)}"
    if verdict is not None:
        r = actions.mark(config, table, key1, key2, verdict, reviewer=who, note=note)
        return f"decided: {visible(key1)} and {visible(key2)} are {verdict}; {regrouped(r.changed)}"
    if take_out is not None:
        r = actions.take_out(config, table, take_out, reviewer=who, note=note)
        return f"took {visible(take_out)} out of group {r.groups[0]}: {r.decisions} decisions; {regrouped(r.changed)}"
    if split_parts is not None:
        parts = parse_parts(split_parts)
        r = actions.split(config, table, parts, reviewer=who, note=note)
        return f"split into {len(parts)} parts: {r.decisions} decisions; {regrouped(r.changed)}"
    r = actions.merge(config, table, merge[0], merge[1], reviewer=who, note=note)
    return f"merged groups {merge[0]} and {merge[1]}: {r.decisions} decisions; {regrouped(r.changed)}"


def history_text(found, fmt: str) -> str:
    """`decide --history`: one line an action, newest first, or (json) a list of them."""
    rows = [{"id": a.id, "kind": a.kind, "reviewer": a.reviewer, "at": a.at.isoformat(sep=" "), "keys": list(a.keys),
             "groups": list(a.groups), "decisions": len(a.pairs), "note": a.note,
             "undone_at": a.undone_at.isoformat(sep=" ") if a.undone_at else None} for a in found]
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    if not rows:
        return "no actions yet\n"
    lines = []
    for r in rows:
        what = " ".join(map(visible, r["keys"])) or " ".join(f"group {g}" for g in r["groups"])
        undone = f"  (undone {r['undone_at']})" if r["undone_at"] else ""
        note = f"  \u2014 {visible(r['note'])}" if r["note"] else ""
        lines.append(f"{r['at']}  {r['kind']:<8}  {visible(r['reviewer'] or '-')}  {what}{note}{undone}\n")
    return "".join(lines)
