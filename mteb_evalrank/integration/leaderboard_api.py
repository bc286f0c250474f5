"""MTEB's leaderboard API backend (``mteb.api``, extra ``mteb[api]``) on a local results folder, offline, with the
plugin's tasks and benchmarks and every model of the folder.

MTEB 2.26 ships a FastAPI backend, ``uvicorn mteb.api.app:app``, that its maintainers are moving the public
leaderboard to.  Its JSON endpoints live under ``/v1``: ``/v1/benchmarks``, ``/v1/benchmarks/{name}/scores``,
``/v1/models``, ``/v1/models/{name}/scores`` (and ``/v1/tasks``, ``/v1/benchmarks/menu``; ``/health``,
``/docs``).  Four facts about mteb 2.26.24's backend shape this module; the backend itself is used unchanged:

- **Settings** come from the environment (``mteb.api.settings.Settings``): ``CACHE_REPO`` is the Hub dataset
  of all results (default ``mteb/results``; empty: no Hub), ``MTEB_CACHE`` the results folder
  (``mteb.ResultCache``).
- **Results.** ``mteb.api.frames._load_per_benchmark_frames`` reads the Hub dataset, and without one (or
  offline) ``ResultCache()._load_from_cache(rebuild=True)``: a ``git clone`` of the public results repository
  into ``MTEB_CACHE/remote``, then the results of MTEB's registry models only.  Offline the clone fails
  (the app starts with empty frames and every score endpoint is empty); online a local folder's own results
  are never read.
- **Models.** Every endpoint looks a model up in MTEB's model registry: ``/v1/models/{name}/scores`` answers
  404 and the summary rows skip any other name (``aggregators._build_summary_rows``).
- **Menu.** ``/v1/benchmarks`` lists only benchmarks of ``HOME_BENCHMARK_ENTRIES``
  (``Benchmark.display_on_leaderboard``); the plugin adds its menu entry there too
  (:func:`~.leaderboard_app.add_menu_entry`).

**Local mode.**  When ``CACHE_REPO`` is empty and the results folder has no clone of the public repository
(``FOLDER/remote``) — or when ``MTEB_EVALRANK_API_FOLDER`` names the folder, as ``mteb-evalrank leaderboard
FOLDER --api`` does — the plugin's start-up hook runs :func:`patch_frames_module` right after MTEB executes
``mteb.api.frames``, before the app exists:

1. it reads the folder (:func:`~.leaderboard_app.load_folder_results`): its own result files only, every model
   under the name the Gradio app shows it (its own name, also for unregistered ones, whose metas are
   added to MTEB's registry now, before the app's warm-up threads read the registry); a folder it cannot serve
   (no result file, a malformed file) stops the process with one line on stderr, exit status 2;
2. it replaces ``_load_per_benchmark_frames`` by :func:`folder_frames`, which builds the same two frames from
   those results as MTEB builds them from the clone (``BenchmarkResults._to_results_df``,
   ``split_leaderboard_frame``, ``_dedupe_unified``), so nothing is cloned or downloaded.

Otherwise (``CACHE_REPO`` set, or a folder with a clone) MTEB's own loading runs as it is.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

#: set by ``mteb-evalrank leaderboard FOLDER --api``: serve that folder's own results, whatever it holds
FOLDER_ENV = "MTEB_EVALRANK_API_FOLDER"
#: the module of MTEB's backend the plugin patches
FRAMES_MODULE = "mteb.api.frames"
#: the JSON endpoints' prefix in mteb 2.26.24 (``app.include_router(router, prefix="/v1")``)
API_PREFIX = "/v1"

#: folder -> what :func:`load_folder_results` read (the CLI reads the folder once, before the server starts)
_LOADED: dict[Path, Any] = {}


def _loaded(folder: Path):
    from mteb_evalrank.integration.leaderboard_app import load_folder_results

    key = Path(folder).resolve()
    if key not in _LOADED:
        _LOADED[key] = load_folder_results(key)
    return _LOADED[key]


def local_folder(settings, cache) -> Path | None:
    """The folder to serve in local mode (see the module docstring), or ``None`` to leave MTEB's loading alone."""
    forced = os.environ.get(FOLDER_ENV)
    if forced:
        return Path(forced)
    if settings.cache_repo or cache.has_remote:
        return None
    return Path(cache.cache_path)


def folder_frames(folder: Path, frames_module) -> tuple[dict[str, Any], Any]:
    """``(per-benchmark frames, unified frame)`` of ``folder``'s own results, built as
    ``mteb.api.frames._load_per_benchmark_frames`` builds them from the public repository's clone: the long
    results frame (one row per model, task, split and subset; main scores), split per benchmark on the
    (task, split, subset) triples each benchmark expects, an empty frame for every benchmark without results,
    and one row per (model, task, split, subset) with the highest score across revisions."""
    import mteb
    import polars as pl
    from mteb.results import BenchmarkResults

    combined = _loaded(folder).results._to_results_df()
    per_benchmark = BenchmarkResults.split_leaderboard_frame(combined)
    empty = pl.DataFrame(schema=dict(combined.schema))
    for bench in mteb.get_benchmarks():
        per_benchmark.setdefault(bench.name, empty)
    return per_benchmark, frames_module._dedupe_unified(combined)


def patch_frames_module(frames_module) -> None:
    """Local mode for ``mteb.api.frames`` (idempotent; see the module docstring).  Exits with status 2 and one
    line on stderr when the folder cannot be served."""
    original = getattr(frames_module, "_load_per_benchmark_frames", None)
    if original is None or getattr(original, "__mteb_evalrank__", False):
        return
    folder = local_folder(frames_module.get_settings(), frames_module.get_cache())
    if folder is None:
        return
    try:
        loaded = _loaded(folder)
    except InputError as exc:
        print(
            f"mteb-evalrank: error: {exc} (MTEB's API backend on {folder}, CACHE_REPO empty: the folder's own "
            "results only)",
            file=sys.stderr,
            flush=True,
        )
        raise SystemExit(2) from None

    @functools.cache
    def _load_per_benchmark_frames():
        return folder_frames(loaded.folder, frames_module)

    _load_per_benchmark_frames.__mteb_evalrank__ = True  # type: ignore[attr-defined]
    _load_per_benchmark_frames.__wrapped__ = original
    frames_module._load_per_benchmark_frames = _load_per_benchmark_frames


def register_api_hook() -> None:
    """Run :func:`patch_frames_module` right after MTEB executes ``mteb.api.frames`` (now, if it already has), through
    the after-import finder of :mod:`~.leaderboard_app` (called when ``mteb`` is imported; idempotent)."""
    from mteb_evalrank.integration import leaderboard_app

    leaderboard_app._AFTER_IMPORT.setdefault(FRAMES_MODULE, patch_frames_module)
    leaderboard_app.register_leaderboard_menu()


def api_app(folder: str | Path):
    """MTEB's FastAPI app (``mteb.api.app.app``) on ``folder``'s own results, offline; returns ``(app, loaded)``.

    Sets ``MTEB_CACHE``, ``CACHE_REPO`` (empty) and :data:`FOLDER_ENV` in this process's environment before
    MTEB's backend reads its settings, so it must be the first import of ``mteb.api`` in the process.
    """
    loaded = _loaded(Path(folder))  # before the app is imported: bad input fails fast, in one line
    if "mteb.api.app" in sys.modules:
        raise RuntimeError("mteb.api.app is already imported: its settings cannot change any more")
    os.environ["MTEB_CACHE"] = str(loaded.folder.resolve())
    os.environ["CACHE_REPO"] = ""
    os.environ[FOLDER_ENV] = str(loaded.folder.resolve())
    try:
        import mteb.api.app as app_module
    except ImportError as exc:
        raise InputError(
            f"MTEB's API backend needs mteb[api]: pip install 'mteb-evalrank[leaderboard]' ({exc})"
        ) from None
    return app_module.app, loaded


def serve_api(folder: str | Path, host: str = "127.0.0.1", port: int = 8000, on_ready=print) -> None:
    """Serve :func:`api_app` on ``host:port`` with uvicorn until interrupted.  ``on_ready`` gets each line to show
    the user (notes, then the addresses)."""
    from urllib.parse import quote

    from mteb_evalrank.integration.benchmarks import EVALRANK_NAME
    from mteb_evalrank.integration.leaderboard_app import check_port
    from mteb_evalrank.integration.leaderboard_models import NOT_IN_REGISTRY

    check_port(host, port)  # before the results are read: a taken port fails at once
    app, loaded = api_app(folder)
    import uvicorn  # installed with mteb[api]

    unregistered = [m for m in loaded.models if not m.registered]
    if unregistered:
        on_ready(
            f"{len(unregistered)} model(s) {NOT_IN_REGISTRY}, listed under their own names: "
            + ", ".join(sorted(m.name for m in unregistered))
        )
    base = f"http://{host}:{port}"
    on_ready(
        f"MTEB's API backend on {loaded.folder}: {base}{API_PREFIX}/benchmarks/{quote(EVALRANK_NAME)}/scores "
        f"(all endpoints: {base}/docs)"
    )
    uvicorn.run(app, host=host, port=port, log_level="info")
