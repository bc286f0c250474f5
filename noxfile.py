"""nox sessions (``pip install -e ".[dev]"`` brings nox).

``nox -s newest``: what a plain ``pip install mteb-evalrank`` gets today.  A fresh virtual environment, torch
pinned as CI pins it, then the package with the newest release of every dependency its requirements admit
(``--upgrade-strategy eager``) and *without* the ``leaderboard`` extra, whose Gradio pin holds pandas < 3 and
huggingface-hub < 2 back; then the unit tier (``pytest -m unit``, tests/conftest.py).  .ci/run runs it after
the README's test command.  Arguments after ``--`` go to pytest (``nox -s newest -- -x``).
"""

from __future__ import annotations

import nox

nox.options.reuse_existing_virtualenvs = False
nox.options.error_on_missing_interpreters = True

#: the torch CI installs (the README's install command); the rest is as new as the requirements allow
TORCH = "torch==2.13.0"
#: the packages whose versions the session prints (what "newest" turned out to be)
SHOWN = ("mteb", "pandas", "huggingface-hub", "transformers", "sentence-transformers", "datasets", "numpy", "polars")


@nox.session(python="3.11")
def newest(session: nox.Session) -> None:
    """The unit tier on the newest release of every dependency, without the pinned extras."""
    session.env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    # no extras here, on purpose: a test that needs one skips.  Under CI=1 (.ci/run exports it for the full suite)
    # tests/conftest.py turns such a skip into a failure, so the session clears it
    session.env["CI"] = ""
    session.install(TORCH)
    session.install("--upgrade", "--upgrade-strategy", "eager", "-e", ".[test-core]")
    session.run("pip", "check")
    session.run(
        "python",
        "-c",
        "import importlib.metadata as m, sys; "
        f"print('newest:', ', '.join(f'{{n}} {{m.version(n)}}' for n in {SHOWN!r})); "
        "sys.exit(0)",
    )
    session.run("python", "-m", "pytest", "-q", "-m", "unit", "-p", "no:cacheprovider", *session.posargs)
