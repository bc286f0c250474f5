"""The bad-input sweeps of ``tests/sweeps/`` as tests: one test per case, in the ``slow`` tier.

Each case runs ``mteb_evalrank.cli.main`` in this process (a case marked ``subprocess=True`` in a fresh
interpreter) inside a fresh copy of its sweep's seeded working folder (``tests/sweeps/harness.py``), and must have
the right outcome: refused in one line with exit code 2 (bad input), worked (``ok``), warned (``warns``) or partial
(``partial``); never a hang, a traceback, a changed or left-over file, silence or an unclear error.  A case that
still fails is listed in ``tests/sweeps/known_failures.yaml`` with its reason: a strict xfail, so that a fix
shows as XPASS and the entry must go.

``python -m pytest -m slow tests/test_sweeps.py`` runs them (CI: ``python -m pytest -q -m slow``); the default
run leaves the ``slow`` tier out (pyproject's ``addopts``).
"""

from __future__ import annotations

import atexit
import importlib
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

SWEEPS_DIR = Path(__file__).parent / "sweeps"
sys.path.insert(0, str(SWEEPS_DIR))
sys.path.insert(0, str(Path(__file__).parent))

import harness  # noqa: E402

pytestmark = pytest.mark.slow

#: every sweep, in the order they were written; a held-out sweep joins after its one recorded run
SWEEPS = sorted(path.stem for path in SWEEPS_DIR.glob("sweep_*.py"))
GOOD = ("refused", "worked", "warned", "partial")
KNOWN_FAILURES = SWEEPS_DIR / "known_failures.yaml"


def known_failures() -> dict[str, str]:
    """``sweep::case`` -> the reason it still fails (tests/sweeps/known_failures.yaml)."""
    import yaml

    data = yaml.safe_load(KNOWN_FAILURES.read_text(encoding="utf-8")) or {}
    return {f"{entry['sweep']}::{entry['case']}": entry["reason"] for entry in data.get("failures") or []}


def _params():
    known = known_failures()
    for sweep in SWEEPS:
        module = importlib.import_module(sweep)
        for case in module.CASES:
            key = f"{sweep}::{case.name}"
            marks = [pytest.mark.xfail(strict=True, reason=known[key])] if key in known else []
            yield pytest.param(sweep, case, id=key, marks=marks)


PARAMS = list(_params())

#: one seeded working folder per sweep and worker, made on first use (a module-wide fixture would put every
#: case of this file on one xdist worker), and its working copy, reused while cases leave it as it was
_WORKSPACES: dict[str, harness.Workspace] = {}


def template(sweep: str) -> harness.Workspace:
    if sweep not in _WORKSPACES:
        root = Path(tempfile.mkdtemp(prefix=f"{sweep}-template-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        made = harness.make_template(root / "t", getattr(importlib.import_module(sweep), "prepare", None))
        _WORKSPACES[sweep] = workspace = harness.Workspace(made)
        atexit.register(workspace.discard)
    return _WORKSPACES[sweep]


@pytest.mark.parametrize(("sweep", "case"), PARAMS)
def test_sweep_case(sweep, case):
    outcome, line, seconds = harness.run_case(case, template(sweep))
    assert outcome in GOOD, f"{outcome} after {seconds:.1f} s: {line}"


def test_known_failures_name_cases_that_exist():
    """Every entry of known_failures.yaml names a case of a sweep (a renamed or fixed case drops its entry)."""
    names = {param.id for param in PARAMS}
    assert set(known_failures()) <= names, sorted(set(known_failures()) - names)


def test_case_names_are_unique_within_each_sweep():
    ids = [param.id for param in PARAMS]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
