"""Row keys: the key column's values as strings, and the one order every result is listed in."""

from operator import itemgetter


def key_sort(key: str) -> tuple:
    """Order keys naturally: integer keys by value, before any other keys in string order."""
    try:
        return (0, int(key), key)
    except ValueError:
        return (1, 0, key)


def picked(values: list, order) -> list:
    """``values`` (row keys, block names...) in ``order`` (positions), gathered by one C call:
    building them one by one in Python cost seconds for the millions of block entries of a full run."""
    order = order.tolist() if hasattr(order, "tolist") else list(order)
    return list(itemgetter(*order)(values)) if len(order) > 1 else [values[i] for i in order]
