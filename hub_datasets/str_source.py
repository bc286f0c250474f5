"""STR (Abdalla et al., EACL 2023): where its csv is published, and the hash that checks restored text.

Shared by the two datasets that hold STR rows (``evalrank-sent`` and ``sts-senteval``): their builders
name the URL in the dataset cards, and their ``str_licence`` modules blank STR text for publication and
restore it at load time, verified with :func:`text_sha1`.  A leaf module, so that a builder and its
licence module never import each other.
"""

from __future__ import annotations

import hashlib

#: Where the STR authors publish the csv (the plugin downloads it; it never hosts it).
STR_SOURCE_URL = (
    "https://raw.githubusercontent.com/Priya22/semantic-textual-relatedness/"
    "961f9a9be535f3299e4c0a7b0f656d583ba911ff/sem_text_rel_ranked.csv"
)


def text_sha1(text: str) -> str:
    """Hex sha1 of the UTF-8 encoding of ``text`` (what the ``*_sha1`` columns of a published dataset hold)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()
