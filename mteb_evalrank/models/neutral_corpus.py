"""A neutral English corpus for fitting and training the zoo's built models: WordNet 3.0 glosses and examples.

"Neutral" means that no study task scores it: the built bases of :mod:`mteb_evalrank.zoo.builds`
(TF-IDF, LSA, the SimCSE checkpoints) are fitted or trained on it, never on task data.

Source: the WordNet 3.0 database as Debian's ``wordnet-base`` package installs it
(``/usr/share/wordnet/data.{noun,verb,adj,adv}``; ``apt-get install wordnet-base``), licence "WordNet 3.0"
(permission to use, copy, modify and distribute for any purpose, with the copyright notice).  Each
synset line ends with ``| gloss``; a gloss is one or more definitions separated by ``;`` followed by
quoted usage examples (``"the dog barked all night"``).  The corpus is every definition segment and
every example, stripped, at least three words long, deduplicated in file order (noun, verb, adj,
adv).  ``WORDNET_DIR`` (environment) points at another folder with the same four files.

Import cost: standard library only.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mteb_evalrank.errors import InputError

DEFAULT_WORDNET_DIR = Path("/usr/share/wordnet")
WORDNET_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")
CORPUS_NAME = "wordnet-3.0-glosses"
INSTALL_HINT = (
    "apt-get install wordnet-base (Debian/Ubuntu; or set WORDNET_DIR to a folder with WordNet 3.0's data.* files)"
)
_QUOTED = re.compile(r'"([^"]+)"')


@dataclass(frozen=True)
class NeutralCorpus:
    """A fixed corpus that fit-on-corpus variants are fitted on: its texts, the SHA-256 of its sources and where they are."""

    name: str
    texts: tuple[str, ...]
    sha256: str  # of the source files, in order
    source: str

    def describe(self) -> str:
        return f"{self.name}@{self.sha256[:12]} ({len(self.texts):,} texts from {self.source})"


def wordnet_dir() -> Path:
    """The WordNet database folder: `$WORDNET_DIR`, else Debian's `wordnet-base` location."""
    return Path(os.environ.get("WORDNET_DIR") or DEFAULT_WORDNET_DIR)


def wordnet_available() -> bool:
    """True when every WordNet file the neutral corpus reads is in `wordnet_dir()`."""
    folder = wordnet_dir()
    return all((folder / f).is_file() for f in WORDNET_FILES)


def _gloss_texts(gloss: str) -> list[str]:
    examples = [e.strip() for e in _QUOTED.findall(gloss)]
    definitions = _QUOTED.sub("", gloss)
    parts = [p.strip(" ;,.") for p in definitions.split(";")]
    return [t for t in parts + examples if len(t.split()) >= 3]


def wordnet_synsets(path: Path) -> Iterator[tuple[list[str], str]]:
    """``(words, gloss)`` of each synset line of a WordNet ``data.*`` file, streamed: its words (underscores as
    spaces) and the text after ``" | "``; the licence header (lines starting with two spaces) is skipped.  The
    one WordNet reader of the package (the neutral corpus and the word corpus use it)."""
    if not path.is_file():
        raise InputError(f"{path}: not found: {INSTALL_HINT}.")
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.startswith("  "):  # the licence header
                continue
            head, sep, gloss = line.rstrip("\r\n").partition(" | ")
            fields = head.split()
            if not sep or len(fields) < 4:
                continue
            n_words = int(fields[3], 16)
            yield [fields[4 + 2 * i].replace("_", " ") for i in range(n_words)], gloss


def load_wordnet_corpus(limit: int | None = None) -> NeutralCorpus:
    """The WordNet 3.0 gloss corpus (see the module docstring); ``limit`` keeps the first texts only."""
    from mteb_evalrank.hashing import update_with_file

    folder = wordnet_dir()
    if not wordnet_available():
        raise InputError(f"the neutral corpus needs WordNet 3.0's data files in {folder}: {INSTALL_HINT}.")
    digest = hashlib.sha256()
    seen: dict[str, None] = {}
    for name in WORDNET_FILES:
        update_with_file(digest, folder / name)
        for _words, gloss in wordnet_synsets(folder / name):
            for text in _gloss_texts(gloss):
                seen.setdefault(text, None)
    texts = tuple(seen)
    if limit is not None:
        texts = texts[: int(limit)]
    return NeutralCorpus(CORPUS_NAME, texts, digest.hexdigest(), f"WordNet 3.0 ({folder})")
