"""Every MTEB internal the plugin touches, named in one place, and the check that runs before registration.

MTEB 2.x has no plugin mechanism: the plugin reaches its tasks, models and benchmarks into MTEB through module
globals and private functions (:data:`INTERNALS`).  None of them is a promise of MTEB's, so each release may
change one.  The compatibility policy (docs/troubleshooting.md, "Which MTEB releases work"):

- the requirement admits every later 2.x release (:data:`MTEB_REQUIREMENT`); :data:`TESTED_MTEB` is the newest
  release the test suite ran on;
- before the plugin patches anything (:func:`mteb_evalrank.integration.registry.register`), :func:`check` verifies
  that every internal read or patched at registration (and every private name the plugin imports from a module
  ``import mteb`` loads) exists with the expected shape.  If one changed, the plugin registers **nothing** (never
  a half-registered state) and the user gets one line (:func:`incompatibility_line`) naming what changed and
  what to do;
- the internals of MTEB's leaderboard app and API backend are checked when MTEB imports those modules, before the
  plugin's addition to each (:func:`check_module`): a change there leaves that module as MTEB made it, with the
  same one line; the tasks keep working.

This module is layer 0 (standard library only; ``mteb`` is imported inside functions), so that every layer can
name the internals it reads through it.  ``tests/test_mteb_internals.py`` reads the package's sources and fails
when a private MTEB name is used without an entry here.
"""

from __future__ import annotations

import importlib
import inspect
import warnings
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

#: the MTEB releases the plugin admits (pyproject.toml's dependency and its ``leaderboard`` extra say the same)
MTEB_REQUIREMENT = ">=2.26,<3"
#: the newest MTEB release the whole test suite ran on
TESTED_MTEB = "2.26.24"
#: the oldest minor release the plugin supports
OLDEST_MINOR = (2, 26)
#: where to report a changed internal
REPORT_TO = "mteb-evalrank's issue tracker"

#: checked at registration (modules that ``import mteb`` loads)
AT_REGISTRATION = "registration"


@dataclass(frozen=True)
class Internal:
    """One MTEB internal: ``module:attribute`` (the attribute may be dotted: ``Class.method``), the shape the
    plugin relies on (a key of :data:`SHAPES`), what the plugin does with it, and when it is checked
    (:data:`AT_REGISTRATION`, or when MTEB imports ``module``)."""

    path: str
    shape: str
    use: str
    when: str = AT_REGISTRATION

    @property
    def module(self) -> str:
        return self.path.split(":", 1)[0]

    @property
    def attribute(self) -> str:
        return self.path.split(":", 1)[1]

    @property
    def name(self) -> str:
        """The dotted name a user recognises (``mteb.get_tasks._TASKS_REGISTRY``)."""
        return self.path.replace(":", ".")


_LEADERBOARD = "leaderboard"  # checked when MTEB imports the internal's module (extra mteb[leaderboard,api])

INTERNALS: tuple[Internal, ...] = (
    # --- task registry: patched at registration (mteb_evalrank.integration.registry)
    Internal("mteb.get_tasks:_TASKS_REGISTRY", "task dict", "the plugin's task classes are added by name"),
    Internal("mteb.get_tasks:TASK_LIST", "sequence", "replaced by a tuple with the plugin's task classes appended"),
    # --- model registry: entries added (zoo, leaderboard folders) and loaders switched (packaged weights)
    Internal("mteb:get_model", "model loader", "wrapped: word vectors, local folders, zoo: and rankencoder: specs"),
    Internal("mteb:run", "callable or absent", "set to mteb_evalrank.run when MTEB has no run of its own"),
    Internal(
        "mteb.models.model_implementations:MODEL_REGISTRY",
        "model dict",
        "zoo variants and folder models added; packaged weights' loaders switched",
    ),
    Internal("mteb.models.get_model_meta:_MODEL_RENAMES", "dict", "old model names resolved as MTEB resolves them"),
    Internal("mteb.models:ModelMeta", "model meta class", "registry entries built and copied with a new loader"),
    # --- benchmark registry: wrapped at registration (mteb_evalrank.integration.benchmarks)
    Internal("mteb.benchmarks.get_benchmark:_build_registry", "callable", "wrapped: the plugin's benchmarks added"),
    Internal("mteb.benchmarks.get_benchmark:_build_aliases_registry", "callable", "wrapped with _build_registry"),
    # --- private helpers the plugin calls (imported where used; modules that `import mteb` loads)
    Internal("mteb._create_dataloaders:_create_dataloader_from_texts", "callable", "texts -> MTEB's dataloader"),
    Internal("mteb._content_hashes:hash_item", "callable", "the embedding store's keys, as MTEB's cache keys them"),
    Internal(
        "mteb.abstasks._statistics_calculation:calculate_pair_modality_statistics",
        "callable",
        "descriptive statistics of the similarity tasks",
    ),
    Internal(
        "mteb.abstasks._statistics_calculation:calculate_score_statistics",
        "callable",
        "descriptive statistics of the similarity tasks",
    ),
    Internal("mteb.abstasks.abstask:AbsTask._evaluate_subset", "callable", "overridden by the plugin's tasks"),
    Internal(
        "mteb.abstasks.abstask:AbsTask._calculate_descriptive_statistics_from_split",
        "callable",
        "overridden by the plugin's tasks (nothing written into the installed mteb)",
    ),
    Internal(
        "mteb.results.task_result:_expand_run_settings_entry", "callable", "run settings of a submission's results"
    ),
    Internal("mteb.results.benchmark_results:_BENCHMARK_COLUMN", "str", "the benchmark column of results frames"),
    Internal(
        "mteb.results.benchmark_results:_get_cached_model_metas",
        "cached callable or absent",
        "emptied when model metas are added",
    ),
    # --- MTEB's leaderboard app and API backend: checked when MTEB imports the module, before the plugin's addition
    Internal(
        "mteb.benchmarks._leaderboard_menu:GP_BENCHMARK_ENTRIES",
        "list",
        "the plugin's menu entry appended",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.benchmarks._leaderboard_menu:HOME_BENCHMARK_ENTRIES",
        "list",
        "the plugin's menu entry appended",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.benchmarks._leaderboard_menu:R_BENCHMARK_ENTRIES",
        "list",
        "read: every benchmark of the menu",
        _LEADERBOARD,
    ),
    Internal("mteb.benchmarks._leaderboard_menu:MenuEntry", "class", "the plugin's menu entry", _LEADERBOARD),
    Internal(
        "mteb.benchmarks._create_table:_static_model_meta",
        "cached callable or absent",
        "emptied when model metas are added",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.benchmarks._create_table:_meta_df_no_zs",
        "cached callable or absent",
        "emptied when model metas are added",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.benchmarks._create_table:_meta_df_with_zs",
        "cached callable or absent",
        "emptied when model metas are added",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.benchmarks._create_table:_training_datasets_cached",
        "cached callable or absent",
        "emptied when model metas are added",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.benchmarks._create_table:_zero_shot_pct_cached",
        "cached callable or absent",
        "emptied when model metas are added",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.leaderboard.table:_apply_summary_table_styling",
        "callable",
        "wrapped (empty _experiment_id column)",
        _LEADERBOARD,
    ),
    Internal(
        "mteb.leaderboard.table:_apply_per_task_table_styling",
        "callable",
        "wrapped (empty _experiment_id column)",
        _LEADERBOARD,
    ),
    Internal("mteb.leaderboard.app:get_leaderboard_app", "callable", "wrapped: a local results folder", _LEADERBOARD),
    Internal(
        "mteb.cli.build_cli:_leaderboard", "callable", "wrapped: `mteb leaderboard` on a local folder", _LEADERBOARD
    ),
    Internal(
        "mteb.api.frames:_load_per_benchmark_frames", "callable", "replaced: a local folder's results", _LEADERBOARD
    ),
    Internal("mteb.api.frames:_dedupe_unified", "callable", "the unified frame of a local folder", _LEADERBOARD),
    Internal("mteb.api.frames:get_settings", "callable", "CACHE_REPO: local mode or not", _LEADERBOARD),
    Internal("mteb.api.frames:get_cache", "callable", "the results folder of MTEB's API backend", _LEADERBOARD),
)

BY_NAME: dict[str, Internal] = {internal.name: internal for internal in INTERNALS}


def _is_cached(value: Any) -> bool:
    return callable(getattr(value, "cache_clear", None))


def _takes_model_args(value: Any) -> bool:
    if not callable(value):
        return False
    try:
        inspect.signature(value).bind("model", None, None)
    except (TypeError, ValueError):
        return False
    return True


def _task_dict(value: Any) -> bool:
    return isinstance(value, MutableMapping) and all(isinstance(cls, type) for cls in list(value.values())[:20])


def _model_dict(value: Any) -> bool:
    return isinstance(value, MutableMapping) and all(
        hasattr(meta, "loader") and hasattr(meta, "model_copy") for meta in list(value.values())[:20]
    )


def _model_meta_class(value: Any) -> bool:
    fields = getattr(value, "model_fields", None)
    return isinstance(value, type) and hasattr(value, "model_copy") and isinstance(fields, dict) and "loader" in fields


#: shape -> (what it must be, in words; the test)
SHAPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "dict": ("a dict", lambda v: isinstance(v, MutableMapping)),
    "task dict": ("a dict of task name -> task class", _task_dict),
    "model dict": ("a dict of model name -> ModelMeta", _model_dict),
    "sequence": ("a tuple or list", lambda v: isinstance(v, (tuple, list))),
    "list": ("a list", lambda v: isinstance(v, list)),
    "str": ("a str", lambda v: isinstance(v, str)),
    "class": ("a class", lambda v: isinstance(v, type)),
    "callable": ("a function", callable),
    "model loader": ("a function of (model_name, revision, device)", _takes_model_args),
    "callable or absent": ("a function (or absent)", callable),
    "cached callable or absent": ("a cached function (or absent)", _is_cached),
    "model meta class": ("a pydantic class with a loader field", _model_meta_class),
}

_MISSING = object()


def _found(value: Any) -> str:
    if value is _MISSING:
        return "missing"
    if isinstance(value, type):
        return f"found the class {value.__name__}"
    return f"found a {type(value).__name__}"


def _lookup(internal: Internal, module: Any = None) -> Any:
    if module is None:
        try:
            module = importlib.import_module(internal.module)
        except ImportError:
            return _MISSING
    value = module
    for part in internal.attribute.split("."):
        value = getattr(value, part, _MISSING)
        if value is _MISSING:
            return _MISSING
    return value


def problem(internal: Internal, module: Any = None) -> str | None:
    """``None`` when ``internal`` has its expected shape, else what changed (``"X is missing"``, ``"X is not a
    dict (found a tuple)"``).  ``module``: the module object, when it is being imported (not yet importable)."""
    expected, test = SHAPES[internal.shape]
    value = _lookup(internal, module)
    if value is _MISSING:
        return None if internal.shape.endswith("or absent") else f"{internal.name} is missing"
    if test(value):
        return None
    return f"{internal.name} is not {expected} ({_found(value)})"


def problems(when: str = AT_REGISTRATION, module_name: str | None = None, module: Any = None) -> list[str]:
    """What changed among the internals checked ``when`` (or those of ``module_name``), in :data:`INTERNALS`' order."""
    out = []
    for internal in INTERNALS:
        if module_name is not None and internal.module != module_name:
            continue
        if module_name is None and internal.when != when:
            continue
        found = problem(internal, module)
        if found is not None:
            out.append(found)
    return out


def mteb_version() -> str:
    """The installed mteb's version, or "?" when it cannot be read."""
    try:
        from importlib.metadata import version

        return version("mteb")
    except Exception:
        return "?"


def advice(installed: str | None = None) -> str:
    """What to install instead of the MTEB ``installed``: the 2.x releases before it, or the tested one."""
    installed = installed or mteb_version()
    try:
        major, minor = (int(part) for part in installed.split(".")[:2])
    except ValueError:
        major, minor = 0, 0
    if (major, minor) > OLDEST_MINOR and major == OLDEST_MINOR[0]:
        wanted = f"mteb>={OLDEST_MINOR[0]}.{OLDEST_MINOR[1]},<{major}.{minor}"
    else:
        wanted = f"mteb=={TESTED_MTEB}"
    return f"install '{wanted}' (tested: {TESTED_MTEB}) or report it to {REPORT_TO}"


def incompatibility_line(found: list[str], what: str = "registered nothing", installed: str | None = None) -> str:
    """One line: which internals changed in the installed MTEB, what the plugin did, what to do."""
    installed = installed or mteb_version()
    some = "an internal" if len(found) == 1 else f"{len(found)} internals"
    return (
        f"mteb {installed} changed {some} the plugin needs: {'; '.join(found)}; "
        f"mteb-evalrank {what}; {advice(installed)}"
    )


class MtebChangedWarning(RuntimeWarning):
    """An MTEB internal the plugin needs changed; the message is one line (:func:`incompatibility_line`)."""


#: the line of the last failed registration check (``None``: none failed); error messages of the plugin repeat it
last_problem: str | None = None


def warn(line: str) -> None:
    """Show ``line`` as a warning the user sees as exactly one line, ``mteb-evalrank:0: MtebChangedWarning: LINE``
    (no source line under it)."""
    warnings.warn_explicit(line, MtebChangedWarning, filename="mteb-evalrank", lineno=0, module="mteb_evalrank")


REGISTERED_NOTHING = "registered nothing (its tasks, models and benchmarks are not in mteb)"


def check() -> str | None:
    """Check every internal of :data:`AT_REGISTRATION`; the one line to show when one changed (also kept in
    :data:`last_problem`), else ``None``."""
    global last_problem
    found = problems(AT_REGISTRATION)
    last_problem = incompatibility_line(found, REGISTERED_NOTHING) if found else None
    return last_problem


def check_module(module_name: str, module: Any) -> str | None:
    """Check the internals of ``module_name`` (``module`` is the module object MTEB just executed) before the plugin
    adds to it; the one line to show when one changed, else ``None``."""
    found = problems(module_name=module_name, module=module)
    return incompatibility_line(found, what=f"left {module_name} unchanged") if found else None


# --- the internals the plugin reads, by name ---------------------------------------------------------------


def task_registry() -> dict[str, Any]:
    """``mteb.get_tasks._TASKS_REGISTRY`` (task name -> class; importing ``mteb`` registers the plugin's tasks).
    ``mteb.get_tasks`` the attribute is the function: the module is fetched by name."""
    return importlib.import_module("mteb.get_tasks")._TASKS_REGISTRY


def model_registry() -> MutableMapping[str, Any]:
    """``mteb.models.model_implementations.MODEL_REGISTRY`` (model name -> ``ModelMeta``)."""
    return importlib.import_module("mteb.models.model_implementations").MODEL_REGISTRY


def model_renames() -> MutableMapping[str, str]:
    """``mteb.models.get_model_meta._MODEL_RENAMES`` (old model name -> current name)."""
    return importlib.import_module("mteb.models.get_model_meta")._MODEL_RENAMES
