"""The documentation site builds with ``mkdocs build --strict``: no broken link, anchor, snippet or API reference.

mkdocs comes with the ``docs`` extra (``pip install -e ".[docs]"``, which ``.ci/run`` installs).  Without
it the test is skipped; with ``CI`` set it fails instead, so CI never silently skips the site.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: the tier (tests/conftest.py): every test here needs a subprocess, a model, a browser or server, an extra or real data
pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path):
    try:
        import material  # noqa: F401  (the theme)
        import mkdocs  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError as exc:
        reason = f"the docs extra is not installed ({exc.name}); pip install -e '.[docs]'"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set: the site must be built; see .ci/run)")
        pytest.skip(reason)
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    # the pages that are generated or included, not only written: the study, the bad-input table, the API
    assert (site / "study" / "study" / "index.html").is_file()
    assert "SafeResultCache" in (site / "troubleshooting" / "index.html").read_text(encoding="utf-8")
    assert "evalrank_ranks" in (site / "api" / "metrics" / "index.html").read_text(encoding="utf-8")
    assert not (site / "study" / "results").exists()  # the raw result files stay out of the site
    shutil.rmtree(site)
