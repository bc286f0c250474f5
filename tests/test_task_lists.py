"""Task lists come from data (issue 45, req 4): from the role and input level each task declares
(:func:`mteb_evalrank.integration.task_lookup.plugin_task_names`), or, for the few choices no role decides (which
tasks a figure shows), from the one data file ``integration/task_selections.json``
(:func:`~mteb_evalrank.integration.task_lookup.task_selection`).

The guard reads the package's syntax trees: a list, tuple or set literal holding two or more of the plugin's task
names fails it.  Not counted: ``__all__`` (class names that happen to be task names) and the keys of a dict (a
table of text per task, such as the reasons a task is not exported, is not a task list).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_FOLDERS = ("mteb_evalrank", "tasks", "hub_datasets")


@pytest.fixture(scope="module")
def task_names() -> frozenset[str]:
    import mteb  # noqa: F401  (the start-up hook registers the plugin's tasks)

    from mteb_evalrank.integration.task_lookup import plugin_task_names

    return frozenset(plugin_task_names())


def literal_task_lists(source: str, names: frozenset[str]) -> list[tuple[int, list[str]]]:
    """``(line, task names)`` of every list, tuple or set literal in ``source`` holding two or more of ``names``
    (outside ``__all__``)."""
    tree = ast.parse(source)
    skip = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and id(node) not in skip:
            hits = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in names]
            if len(hits) >= 2:
                found.append((node.lineno, hits))
    return found


def test_no_literal_task_list_in_the_package(task_names):
    offenders = {}
    for folder in PACKAGE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, hits in literal_task_lists(path.read_text(encoding="utf-8"), task_names):
                offenders[f"{path.relative_to(ROOT).as_posix()}:{line}"] = hits
    assert not offenders, (
        f"task lists kept by hand: {offenders}; derive them from the tasks' roles "
        "(task_lookup.plugin_task_names) or add the choice to integration/task_selections.json (task_selection)"
    )


def test_the_guard_sees_a_literal_list():
    names = frozenset({"EvalRankSent", "EvalRankWord", "STR"})
    source = 'A = ("EvalRankSent", "STR")\nB = ["EvalRankWord"]\n__all__ = ["EvalRankSent", "STR"]\nC = {"STR": 1, "EvalRankWord": 2}\n'
    assert literal_task_lists(source, names) == [(1, ["EvalRankSent", "STR"])]


def test_every_selection_names_registered_tasks(task_names):
    from mteb_evalrank.integration.task_lookup import TASK_SELECTIONS_FILE, task_selection

    data = json.loads((ROOT / "mteb_evalrank" / "integration" / TASK_SELECTIONS_FILE).read_text(encoding="utf-8"))
    selections = [(name, key) for name, entry in data.items() if name != "about" for key in entry if key != "about"]
    assert selections
    for name, key in selections:
        chosen = task_selection(name, key)
        assert chosen and set(chosen) <= task_names, (name, key, chosen)


def test_study_levels_take_their_lists_from_roles_and_the_selection_file():
    from mteb_evalrank.integration.task_lookup import plugin_task_names, task_selection
    from mteb_evalrank.reports.study_analysis import SENTENCE, WORD

    intrinsic_word = plugin_task_names(role="intrinsic", input_level="word")
    intrinsic_sentence = plugin_task_names(role="intrinsic", input_level="sentence")
    assert SENTENCE.evalrank == (*intrinsic_sentence, *intrinsic_word)  # this level's own EvalRank first
    assert WORD.evalrank == intrinsic_word
    assert SENTENCE.rank_cols == task_selection("study_rank_panels", "sentence")
    assert WORD.rank_cols == task_selection("study_rank_panels", "word")
