"""Row keys: the key column's values as strings, and the one order every result is listed in."""


def key_sort(key: str) -> tuple:
    """Order keys naturally: integer keys by value, before any other keys in string order."""
    try:
        return (0, int(key), key)
    except ValueError:
        return (1, 0, key)
