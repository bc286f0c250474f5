"""The one name normaliser: when two spellings of a name are one name.

Text may spell one word in several ways that print identically: ``é`` as one code point (NFC) or as ``e`` and a
combining accent (NFD), as macOS file names and some editors write it.  :func:`name_key` is the key under which
the plugin compares names (model names, table rows, vocabulary words, subsets): Unicode NFC, and case-folded where
names are already case-insensitive (Hub model names).  :func:`twin_note` says how two spellings of one key differ,
for the one line that refuses them.  Standard library only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

#: characters that print as nothing and join nothing (zero-width space, word joiner, zero-width no-break space or
#: byte-order mark, soft hyphen): ``m\u200b3`` prints as ``m3``, so the two are one name (ZWJ and ZWNJ, which
#: change how some scripts are written, are kept)
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u2060\ufeff\u00ad"))


def name_key(name: str, *, casefold: bool = True) -> str:
    """``name`` under Unicode NFC, without :data:`INVISIBLE` characters (and :meth:`str.casefold` with
    ``casefold``): equal keys name one thing."""
    text = name if name.isascii() else unicodedata.normalize("NFC", name).translate(INVISIBLE)
    return text.casefold() if casefold else text


def first_twin(names: Iterable[str], *, casefold: bool = True) -> tuple[str, str] | None:
    """The first two of ``names`` (in order) that differ but have one :func:`name_key`: ``(earlier, later)``, or
    ``None`` when every name is its own (a name repeated exactly is not a twin)."""
    first: dict[str, str] = {}
    for name in names:
        earlier = first.setdefault(name_key(name, casefold=casefold), name)
        if earlier != name:
            return earlier, name
    return None


def spelled(name: str) -> str:
    """``repr(name)``, with the code points escaped when ``name`` is not in NFC: two twins print differently
    (``'café'`` and ``'cafe\\u0301'``)."""
    return repr(name) if unicodedata.is_normalized("NFC", name) else ascii(name)


def twin_note(name: str, first: str) -> str:
    """How ``name`` differs from ``first`` when both have one :func:`name_key`: ``""`` when they are equal."""
    if name == first:
        return ""
    if name.translate(INVISIBLE) != name or first.translate(INVISIBLE) != first:
        hidden = sorted({f"U+{ord(ch):04X}" for ch in name + first if ord(ch) in INVISIBLE})
        return f"one name printed alike, but for the invisible character {', '.join(hidden)}"
    nfc = unicodedata.normalize("NFC", name) == unicodedata.normalize("NFC", first)
    if nfc:
        return "one name under Unicode normalisation (NFC), spelled with and without combining characters"
    same_nfc_folded = name_key(name) == name_key(first)
    if same_nfc_folded and name.casefold() == first.casefold():
        return "differing only in case"
    return "differing only in case and Unicode normalisation (NFC)"
