"""Shared pytest helpers (generic; append new ones, do not rewrite)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

#: one BLAS / OpenMP thread per parallel worker (pytest-xdist sets PYTEST_XDIST_WORKER in each): ``-n auto`` already
#: runs a worker per core, and each worker's OpenBLAS and torch would otherwise start a thread per core as well, so
#: that two workers on two cores ran four busy threads and waited on each other (the lineage check of
#: tests/test_study.py: 9-11 s alone, 48-53 s in the parallel run).  Set before numpy or torch is imported here
#: (they read it when loaded); subprocesses inherit it.  A variable set by the user wins.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_variable, "1")

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


# --- test tiers (issues 40, 45): `pytest -m unit` is the contributor's fast loop -----------------------------
#: A test declares what makes it slow, never found by reading its source: ``@pytest.mark.integration`` on the test
#: (or ``pytestmark = pytest.mark.integration`` on its module) when it needs a subprocess (a fresh interpreter
#: imports mteb and torch: seconds each), a model run (weights loaded, texts encoded), a browser or a server, an
#: optional extra (it fails instead of skipping when the environment variable CI is set, see require_extra), real
#: source data or the committed study; ``@pytest.mark.slow`` for the slow tier, which the default run leaves out.
#: A test that uses one of these fixtures is not a unit test either: they run models, build datasets or start
#: processes.
SLOW_FIXTURES = frozenset(
    {
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
)
#: the marks that take a test out of the unit tier
TIER_MARKS = ("integration", "slow")


def test_needs(item) -> list[str]:
    """What takes ``item`` out of the unit tier: its tier marks and its fixtures of :data:`SLOW_FIXTURES` (empty for a
    unit test)."""
    needs = [name for name in TIER_MARKS if item.get_closest_marker(name) is not None]
    needs += sorted(set(getattr(item, "fixturenames", ())) & SLOW_FIXTURES)
    return needs


test_needs.__test__ = False  # a helper, not a test


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "unit: neither integration nor slow, and no fixture of SLOW_FIXTURES "
        "(applied by tests/conftest.py; `pytest -m unit` is the fast tier)",
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
