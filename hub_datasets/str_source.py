"""STR (Abdalla et al., EACL 2023): where its csv is published, and the hash that checks restored text.

Shared by the two datasets that hold STR rows (``evalrank-sent`` and ``sts-senteval``): their builders
name the URL in the dataset cards, and :mod:`.str_licence` blanks STR text for publication (hashing it
with :func:`hashes_for_blanking`) and restores it at load time (:func:`verified_texts`).  A leaf module,
so that a builder and the licence module never import each other.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from mteb_evalrank.errors import InputError, SourceFormatError

#: Where the STR authors publish the csv (the plugin downloads it; it never hosts it).
STR_SOURCE_URL = (
    "https://raw.githubusercontent.com/Priya22/semantic-textual-relatedness/"
    "961f9a9be535f3299e4c0a7b0f656d583ba911ff/sem_text_rel_ranked.csv"
)


def text_sha1(text: str) -> str:
    """Hex sha1 of the UTF-8 encoding of ``text`` (what the ``*_sha1`` columns of a published dataset hold)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def hashes_for_blanking(ids: Sequence, texts: Sequence, previous: Sequence | None, what: str) -> list[str]:
    """The sha1 column stored next to blanked text: each text's :func:`text_sha1`.

    A row whose text is already blank keeps its ``previous`` hash, so blanking a published copy again
    changes nothing; a blank row without one raises :class:`InputError` (``what`` names the row kind and
    the missing columns, e.g. ``"STR row 'x' has no text1 and no text1_sha1"``).
    """
    previous = previous if previous is not None else [None] * len(ids)
    hashes = []
    for item_id, text, old in zip(ids, texts, previous):
        if text:
            hashes.append(text_sha1(text))
        elif old:
            hashes.append(old)
        else:
            raise InputError(what.format(id=item_id))
    return hashes


def verified_texts(
    wanted: Sequence, source: Mapping, expected_sha1: Sequence[str], str_csv_path: Path, what: str
) -> list[str]:
    """The texts of the ids ``wanted`` from ``source`` (id -> text, read from ``str_csv_path``), each checked
    against its published sha1.

    Raises :class:`SourceFormatError` naming the file when an id is not in it or a text differs: either
    way the file is not the STR release the dataset was built from.  ``what`` names the items in the
    message (``"STR sentences"``, ``"STR text1 texts"``).
    """
    missing = [i for i in wanted if i not in source]
    if missing:
        raise SourceFormatError(
            str_csv_path,
            f"{len(missing)} {what} of the dataset are not in this file, e.g. ids {missing[:3]}; "
            "it is not the STR release the dataset was built from.",
        )
    restored = [source[i] for i in wanted]
    wrong = [i for i, text, sha in zip(wanted, restored, expected_sha1) if text_sha1(text) != sha]
    if wrong:
        raise SourceFormatError(
            str_csv_path,
            f"{len(wrong)} {what} differ from the published dataset (sha1 mismatch), e.g. ids "
            f"{wrong[:3]}; it is not the STR release the dataset was built from.",
        )
    return restored
