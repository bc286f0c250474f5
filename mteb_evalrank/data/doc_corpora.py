"""Clean English sentences from Debian documentation and text packages: corpora for word models trained here
that share no text with the WordNet glosses, GCIDE or the KJV (issue 31: new lineages need new corpora).

Each reader takes one corpus *part* of ``zoo/catalogue.json`` (``files``: glob patterns of the installed
package, ``exclude``: path fragments to skip) and yields **sentences**: its markup turned into paragraphs, the
paragraphs split at sentence ends, and only sentences that read as English prose kept
(:func:`clean_sentences`: 5-60 whitespace tokens, at least 70 % of them words, starting upper-case and ending
with ``.``, ``!`` or ``?``), each once per part.  Code, commands, tables and titles are dropped by the markup
rules, which is what keeps technical documentation usable as prose:

- ``sphinx-sources``: reStructuredText sources (Sphinx ``_sources/*.txt``): directives, literal blocks
  (``::``), tables, titles and comments dropped; roles and links reduced to their text;
- ``pod``: Perl's POD: verbatim (indented) blocks and ``=`` commands dropped; formatting codes ``X<...>``
  reduced to their text;
- ``html-paragraphs``: the text of ``<p>`` elements, without ``<pre>``, ``<code>``, ``<table>``, scripts
  and styles;
- ``fortunes``: the fortune files of a folder (``%``-separated; attribution lines starting ``--`` dropped);
- ``dictd-text``: a dictd database (``.dict.dz``): one paragraph per blank-line-separated block (the headword
  opens its entry's first sentence), ``{}`` cross-reference braces removed.

The corpus builder (:func:`mteb_evalrank.zoo.word_corpora.corpus_file`) then lowercases and tokenises
each sentence as it does every corpus.
"""

from __future__ import annotations

import glob
import gzip
import html
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z\"(\[])")
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
MIN_TOKENS, MAX_TOKENS, MIN_WORD_SHARE = 5, 60, 0.7


def clean_sentences(paragraphs: Iterable[str]) -> Iterator[str]:
    """The sentences of ``paragraphs`` that read as English prose (see the module docstring)."""
    for paragraph in paragraphs:
        paragraph = re.sub(r"\s+", " ", paragraph).strip()
        if not paragraph:
            continue
        for sentence in _SENTENCE_END.split(paragraph):
            sentence = sentence.strip()
            tokens = sentence.split()
            if not MIN_TOKENS <= len(tokens) <= MAX_TOKENS:
                continue
            words = sum(1 for t in tokens if _WORD.fullmatch(t.strip(".,;:!?\"()'")))
            if words / len(tokens) >= MIN_WORD_SHARE and sentence[0].isupper() and sentence[-1] in ".!?":
                yield sentence


def rst_paragraphs(text: str) -> list[str]:
    """Paragraphs of reStructuredText: directives, literal blocks, tables, titles and comments dropped."""
    out: list[str] = []
    paragraph: list[str] = []
    in_literal, literal_indent = False, 0
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if in_literal:
            if line.strip() and indent <= literal_indent:
                in_literal = False
            else:
                continue
        stripped = line.strip()
        if (
            not stripped
            or stripped.startswith(("..", "|", "+-", "=", "-", "*", "#", "~", "^", ":"))
            or re.fullmatch(r"[=\-~^\"*#+`]{3,}", stripped)
        ):
            if paragraph:
                out.append(" ".join(paragraph))
                paragraph = []
            if stripped.endswith("::"):
                in_literal, literal_indent = True, indent
            continue
        opens_literal = stripped.endswith("::")
        if opens_literal:
            in_literal, literal_indent = True, indent
            stripped = stripped[:-1]
        stripped = re.sub(r":[a-z:]+:`([^`<]*?)(?:\s*<[^>]*>)?`", r"\1", stripped)  # :role:`text <target>`
        stripped = re.sub(r"`([^`<]*?)(?:\s*<[^>]*>)?`_*", r"\1", stripped)  # `link <url>`_
        paragraph.append(stripped.replace("**", "").replace("``", ""))
        if opens_literal:  # the paragraph ends where its literal block starts
            out.append(" ".join(paragraph))
            paragraph = []
    if paragraph:
        out.append(" ".join(paragraph))
    return out


def pod_paragraphs(text: str) -> list[str]:
    """Paragraphs of POD: verbatim blocks and commands dropped, formatting codes reduced to their text."""
    out = []
    for block in re.split(r"\n\s*\n", text):
        if not block.strip() or block.startswith((" ", "\t", "=")):
            continue
        block = re.sub(r"[A-Z]<<+\s*(.*?)\s*>>+", r"\1", block)
        for _ in range(3):  # nested codes
            block = re.sub(r"[A-Z]<([^<>]*)>", lambda m: m.group(1).split("|")[0], block)
        out.append(block)
    return out


def html_paragraphs(text: str) -> list[str]:
    """The text of the ``<p>`` elements outside ``<pre>``, ``<code>``, ``<table>``, scripts and styles."""
    text = re.sub(r"(?is)<(script|style|pre|code|table)[^>]*>.*?</\1>", " ", text)
    return [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in re.findall(r"(?is)<p[^>]*>(.*?)</p>", text)]


def fortune_paragraphs(folder: Path) -> list[str]:
    """One paragraph per fortune of every fortune file in ``folder`` (index ``.dat`` files and links skipped)."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix in (".dat", ".u8") or path.is_symlink() or path.is_dir():
            continue
        for fortune in path.read_text(encoding="latin-1").split("\n%\n"):
            lines = [ln.strip() for ln in fortune.splitlines() if ln.strip() and not ln.strip().startswith("--")]
            out.append(" ".join(lines))
    return out


def dictd_blocks(path: Path, *, after: str | None = None) -> Iterator[list[str]]:
    """The blocks of a dictd database (``.dict.dz``, gzip text) separated by blank lines, streamed: each block
    the list of its stripped, non-blank lines.  ``after``: skip everything up to and including the first line
    that starts with it (GCIDE's licence header ends with ``Begin file 1 of``).  The one dictd reader of the
    package (the documentation corpora and the GCIDE part of the word corpus use it)."""
    if not path.is_file():
        raise InputError(f"{path}: not found (apt-get install the dict-* package that carries it)")
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
        block: list[str] = []
        started = after is None
        for raw in fh:
            line = raw.strip()
            if not started:
                started = after is not None and line.startswith(after)
                continue
            if line:
                block.append(line)
            elif block:
                yield block
                block = []
        if block:
            yield block


def dictd_paragraphs(path: Path) -> Iterator[str]:
    """One paragraph per blank-line-separated block of a dictd database, ``{}`` braces removed."""
    for block in dictd_blocks(path):
        yield re.sub(r"[{}]", "", "\n".join(block))


_READERS = {
    "sphinx-sources": lambda p: rst_paragraphs(p.read_text(encoding="utf-8", errors="replace")),
    "pod": lambda p: pod_paragraphs(p.read_text(encoding="utf-8", errors="replace")),
    "html-paragraphs": lambda p: html_paragraphs(p.read_text(encoding="utf-8", errors="replace")),
    "fortunes": fortune_paragraphs,
    "dictd-text": dictd_paragraphs,
}
READERS = frozenset(_READERS)


def part_files(part: dict[str, Any]) -> list[Path]:
    """The files (or, for ``fortunes``, folders) of a corpus part: its ``files`` globs, minus ``exclude``."""
    exclude = part.get("exclude", [])
    found = sorted({Path(p) for pattern in part["files"] for p in glob.glob(pattern, recursive=True)})
    found = [p for p in found if not any(x in str(p) for x in exclude)]
    if not found:
        raise InputError(
            f"corpus part {part['name']}: no file matches {', '.join(part['files'])} "
            f"(apt-get install {part['debian_package']})"
        )
    return found


def read_sentences(part: dict[str, Any]) -> Iterator[str]:
    """The clean sentences of one corpus part, each once, in file order."""
    reader = _READERS.get(part["reader"])
    if reader is None:
        raise InputError(f"unknown corpus reader {part['reader']!r}; known: {', '.join(sorted(_READERS))}.")
    seen: set[str] = set()
    for path in part_files(part):
        for sentence in clean_sentences(reader(path)):
            if sentence not in seen:
                seen.add(sentence)
                yield sentence
