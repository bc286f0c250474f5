"""The corpora the word level trains its sets on (``corpora`` of ``zoo/catalogue.json``), assembled from
Debian packages into the plugin cache (``mteb-evalrank build-word-models``).

:func:`corpus_file` checks that the Debian packages are installed at the pinned versions, reads each part with
its ``reader`` (:data:`READERS`), lowercases and tokenises every line (:data:`TOKEN`; lines of fewer than
:data:`MIN_LINE_TOKENS` tokens dropped) and writes one line per entry, with the corpus's SHA-256.  Readers:

- ``dictd``: GCIDE as dictd text (:func:`mteb_evalrank.data.doc_corpora.dictd_blocks` after its licence header),
  ``[1913 Webster]``-style tags and ``{}`` braces removed;
- ``wordnet``: per synset of WordNet's ``data.*`` files its words, then its gloss and examples
  (:func:`mteb_evalrank.models.neutral_corpus.wordnet_synsets`);
- ``kjv``: the King James Bible as the ``bible-kjv`` command prints it, verse references removed;
- the documentation corpora's readers (:mod:`mteb_evalrank.data.doc_corpora`).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mteb_evalrank.atomic_files import move_file
from mteb_evalrank.data import doc_corpora
from mteb_evalrank.data.files import atomic_write_text
from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo import word_zoo

TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
MIN_LINE_TOKENS = 3


def _dpkg_version(package: str) -> str | None:
    try:
        done = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def corpus_file(name: str) -> tuple[Path, dict[str, Any]]:
    """The tokenised corpus ``name`` (one line per entry), built once into the cache; ``(path, info)``.

    Checks that the Debian packages are installed at the versions the catalogue pins, so the corpus is
    the same text everywhere; ``info`` has the versions and the corpus's SHA-256.
    """
    entry = word_zoo.corpus_entry(name)
    versions = {}
    for part in entry["parts"]:
        for pkg in [part["debian_package"], *part.get("also", [])]:
            have = _dpkg_version(pkg)
            if have is None:
                raise InputError(f"corpus {name}: Debian package {pkg} is not installed: {entry['install']}")
            if pkg == part["debian_package"] and have != part["version"]:
                raise InputError(
                    f"corpus {name}: {pkg} {have} is installed, the recipe pins {part['version']} "
                    "(another text): install that version or update the pin in catalogue.json"
                )
            versions[pkg] = have
    digest = hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()[:12]
    folder = word_zoo.word_models_root() / "corpora" / name / digest
    path, info_path = folder / "corpus.txt", folder / "corpus.json"
    if path.is_file() and info_path.is_file():
        return path, json.loads(info_path.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    counts: dict[str, dict[str, int]] = {}
    digest_all = hashlib.sha256()
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        for part in entry["parts"]:
            n_lines = n_tokens = 0
            for line in _read_part(part):
                toks = TOKEN.findall(line.lower())
                if len(toks) < MIN_LINE_TOKENS:
                    continue
                text = " ".join(toks) + "\n"
                out.write(text)
                digest_all.update(text.encode())
                n_lines += 1
                n_tokens += len(toks)
            counts[part["name"]] = {"lines": n_lines, "tokens": n_tokens}
    move_file(tmp, path)
    info = {"name": name, "debian_versions": versions, "parts": counts, "sha256": digest_all.hexdigest()}
    atomic_write_text(info_path, json.dumps(info, indent=1))  # corpus.txt and corpus.json: never half a file
    return path, info


_MARKUP = re.compile(r"\[[^\]]*\]|[{}]")


def read_gcide(part: dict[str, Any]) -> Iterator[str]:
    """GCIDE as dictd text: entries separated by blank lines; ``[1913 Webster]``-style tags removed."""
    path = Path(part["files"][0])
    if not path.is_file():
        raise InputError(f"{path}: not found (apt-get install dict-gcide)")
    for block in doc_corpora.dictd_blocks(path, after="Begin file 1 of"):
        yield _MARKUP.sub(" ", " ".join(block))


def read_wordnet(part: dict[str, Any]) -> Iterator[str]:
    """WordNet ``data.*`` files: per synset its words (underscores as spaces), then gloss and examples."""
    from mteb_evalrank.models.neutral_corpus import wordnet_synsets

    for f in part["files"]:
        for words, gloss in wordnet_synsets(Path(f)):
            yield " ".join(words) + " " + gloss


def read_kjv(part: dict[str, Any]) -> Iterator[str]:
    """Yield the verses of the King James Bible as the `bible-kjv` command prints it, without their references."""
    command = part["command"]
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, check=False, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"cannot run {' '.join(command)} ({exc}): apt-get install bible-kjv") from None
    if done.returncode != 0 or not done.stdout.strip():
        raise InputError(f"{' '.join(command)} failed: {(done.stderr or 'no output').strip()[:200]}")
    for line in done.stdout.splitlines():
        yield re.sub(r"^\S+\d+:\d+\s+", "", line)


#: a corpus part's ``reader`` → the function that yields its lines
READERS: dict[str, Callable[[dict[str, Any]], Iterator[str]]] = {
    "dictd": read_gcide,
    "wordnet": read_wordnet,
    "kjv": read_kjv,
    **dict.fromkeys(doc_corpora.READERS, doc_corpora.read_sentences),
}


def _read_part(part: dict[str, Any]) -> Iterator[str]:
    reader = READERS.get(part["reader"])
    if reader is None:
        raise InputError(f"unknown corpus reader {part['reader']!r}; known: {', '.join(sorted(READERS))}.")
    yield from reader(part)
