"""The one JSON reader for users' files that may be nested without limit: depth checked.

Python's ``json`` parser recurses once per level: a file nested a few thousand levels deep ends in a
``RecursionError`` (or in one later, in code that walks what was parsed).  :func:`loads_json` turns the first
into one line naming the file, and refuses what parsed but nests deeper than :data:`MAX_JSON_DEPTH`
(:func:`deeper_than` measures it with a loop).  No file the plugin reads needs more than a few levels
(a catalogue, a result file, SentEval's results and parameters: under 10).  A key given twice in one object is
refused too (``json`` keeps the last silently, so which of the two values the file meant cannot be told; no file
MTEB or the plugin writes has one).  Standard library only.
"""

from __future__ import annotations

import json
from typing import Any

from mteb_evalrank.errors import InputError

#: deepest nesting of objects and lists accepted (the files the plugin reads need fewer than 10 levels)
MAX_JSON_DEPTH = 100


def deeper_than(value: Any, limit: int) -> bool:
    """Whether parsed JSON ``value`` nests objects and lists more than ``limit`` levels deep (a loop, not
    recursion: any depth is measured)."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class DuplicateKeyError(ValueError):
    """A JSON object names one key twice (``json`` would keep the last silently); ``key`` is that key."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} appears twice in one object")
        self.key = key


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads` that raises :class:`DuplicateKeyError` on a repeated key (the
    one such hook: :func:`loads_json`, the result-file check and the SentEval import use it)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKeyError(key)
        out[key] = value
    return out


def loads_json(text: str | bytes, *, source: str, limit: int = MAX_JSON_DEPTH, **kwargs: Any) -> Any:
    """``json.loads(text, **kwargs)`` for a user's file ``source``: nesting deeper than ``limit``, or a key given
    twice in one object, is one :class:`InputError` naming the file, never a ``RecursionError`` (in the parser, or
    later in code that walks what was parsed); other malformed JSON raises ``ValueError`` as ``json.loads`` does."""
    if "object_hook" not in kwargs:
        kwargs.setdefault("object_pairs_hook", no_duplicate_keys)
    try:
        value = json.loads(text, **kwargs)
    except DuplicateKeyError as exc:
        raise InputError(f"{source}: key {exc.key!r} appears twice in one JSON object; keep one of the two.") from None
    except RecursionError:
        value = None
    else:
        if not deeper_than(value, limit):
            return value
    raise InputError(f"{source}: JSON nested more than {limit} levels deep (the plugin's JSON inputs need a few).")
