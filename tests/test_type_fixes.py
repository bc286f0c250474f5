"""Bugs that mypy (``check_untyped_defs`` on the whole package, issue 45) found, each with the input that hit it."""

from __future__ import annotations

from mteb_evalrank.reports.upstream_export import MENU_ANCHOR, _edit_menu


def test_menu_anchor_on_the_first_line_gets_the_entry():
    # the indentation was read with a regex that needs a line break before the anchor: None.group -> AttributeError
    text = f"{MENU_ANCHOR}\n    'Other',\n"
    assert _edit_menu(text) == f"{MENU_ANCHOR}\n\"EvalRank\",\n    'Other',\n"


def test_menu_anchor_keeps_its_indentation():
    text = f"MENU = [\n        {MENU_ANCHOR}\n]\n"
    assert _edit_menu(text) == f'MENU = [\n        {MENU_ANCHOR}\n        "EvalRank",\n]\n'


def test_mypy_checks_the_whole_package_in_ci():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert set(config["files"]) == {"mteb_evalrank", "tasks", "hub_datasets"}
    assert config["check_untyped_defs"] is True
    ci = (root / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "mypy" in ci  # CI runs it as a step of its own, on the files above
    hooks = (root / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "files: ^(mteb_evalrank|tasks|hub_datasets)/" in hooks
