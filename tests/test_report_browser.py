"""The HTML report in a real headless browser: Debian's Chromium driven by Playwright.

Opens the report of a fake three-model results folder, clicks a task column header to sort and reads
the values back.  Locally the test is skipped (with the reason) when Chromium or Playwright is missing;
with ``CI`` set it fails instead (``.ci/run`` installs Chromium; ``playwright`` is in the test extra).
A screenshot goes to ``$MTEB_EVALRANK_SCREENSHOT`` (default ``/tmp/report_screenshot.png``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from results_fixture import MODELS, task_score, write_results

#: the tier (tests/conftest.py): every test here needs a subprocess, a model, a browser or server, an extra or real data
pytestmark = pytest.mark.integration

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
SCREENSHOT = Path(os.environ.get("MTEB_EVALRANK_SCREENSHOT", "/tmp/report_screenshot.png"))


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the browser test must run; see .ci/run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium() -> str:
    path = next((p for p in CHROMIUM_CANDIDATES if Path(p).exists()), None) or shutil.which("chromium")
    if path is None:
        _unavailable("Chromium is not installed (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("playwright is not installed (pip install playwright; no `playwright install` needed)")
    return path


def _column(page, table: str, index: int) -> list[str]:
    return page.eval_on_selector_all(
        f"#{table} tbody tr", f"rows => rows.map(r => r.cells[{index}].textContent.trim())"
    )


def test_report_sorts_in_a_real_browser(chromium, tmp_path):
    from playwright.sync_api import sync_playwright

    from mteb_evalrank.reports.leaderboard import write_report

    written = write_results(tmp_path / "res")
    out, _ = write_report(tmp_path / "res", tmp_path / "report.html")
    task = "EvalRankSent"
    expected = {name: f"{task_score(written[(name, rev)][task]):.4f}" for name, rev in MODELS}

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(out.resolve().as_uri())
            headers = page.eval_on_selector_all("#leaderboard thead th", "hs => hs.map(h => h.textContent.trim())")
            col = headers.index(task)
            model_col = headers.index("Model")

            page.click(f"#leaderboard thead th:nth-child({col + 1})")  # numbers: first click = descending
            values = _column(page, "leaderboard", col)
            models = _column(page, "leaderboard", model_col)
            assert dict(zip(models, values, strict=True)) == expected
            assert [float(v) for v in values] == sorted((float(v) for v in expected.values()), reverse=True)
            assert page.get_attribute(f"#leaderboard thead th:nth-child({col + 1})", "aria-sort") == "descending"
            SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOT), full_page=False)  # sorted by the task column

            page.click(f"#leaderboard thead th:nth-child({col + 1})")  # second click = ascending
            values = _column(page, "leaderboard", col)
            assert [float(v) for v in values] == sorted(float(v) for v in expected.values())

            page.click(f"#leaderboard thead th:nth-child({model_col + 1})")  # text column: A→Z
            assert _column(page, "leaderboard", model_col) == sorted(expected, key=str.lower)

            # images are embedded (no network): the HEROS chart decodes in the page
            width = page.eval_on_selector('img[alt="HEROS chart"]', "img => img.naturalWidth")
            assert width > 100
        finally:
            browser.close()
