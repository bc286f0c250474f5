"""The plugin's entry points, for an MTEB that finds plugins through them.

``pyproject.toml`` declares the groups ``mteb.tasks``, ``mteb.benchmarks`` and ``mteb.models``, pointing here.
Released MTEBs (2.x up to now) read no entry points: for them the start-up hook (:mod:`mteb_evalrank._autoload`)
registers the plugin by patching MTEB's registries, and this module is never called.  The patch that
``mteb-evalrank export-upstream --plugin-entry-points`` writes (:mod:`mteb_evalrank.reports.upstream_plugins`)
makes MTEB call it: then the tasks, benchmarks and zoo models reach MTEB with the hook off
(``MTEB_EVALRANK_NO_AUTOLOAD=1``), and with the hook on nothing is registered twice (the hook skips what MTEB
already has).

Like the hook, this module stands outside the package's layers: it is MTEB's door into the plugin.
"""

from __future__ import annotations

import functools
import sys


def tasks() -> tuple[type, ...]:
    """Every task class of the plugin, for MTEB to register (MTEB's own task names win).

    While MTEB registers them, the task package does not patch MTEB's task registry itself
    (:func:`mteb_evalrank.integration.registry.registered_by_mteb`).  When the task package is the one importing
    ``mteb`` (``import mteb_evalrank.tasks`` before ``mteb``), its classes do not exist yet: nothing is returned,
    and the package registers itself as it does on a released MTEB."""
    package = sys.modules.get("mteb_evalrank.tasks")
    if package is not None and not hasattr(package, "ALL_TASKS"):
        return ()
    from mteb_evalrank.integration import registry

    with registry.registered_by_mteb():
        from mteb_evalrank.tasks import ALL_TASKS
    return tuple(ALL_TASKS)


def benchmarks() -> tuple[object, ...]:
    """The plugin's benchmarks (``EvalRank``, ``EvalRank(study)``, ``WordSim``): the same objects the hook adds."""
    from mteb_evalrank.integration.benchmarks import plugin_benchmarks

    return tuple(plugin_benchmarks().values())


@functools.cache
def models() -> tuple[object, ...]:
    """The ``ModelMeta`` of every zoo variant (``zoo/<base>__<variant>``), each with its loader; no weights load.
    Built once: MTEB skips an object it already has, and warns about another object under a name it has."""
    from mteb_evalrank.zoo.adapter import VARIANTS, variant_meta

    return tuple(variant_meta(variant) for variant in VARIANTS.values())
