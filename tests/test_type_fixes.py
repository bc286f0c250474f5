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
