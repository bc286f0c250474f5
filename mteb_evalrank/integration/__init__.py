"""Layer 3 — everything that touches MTEB's internals.

What belongs here: registration of the plugin's tasks and model loaders with MTEB's registries, task
lookup by name with helpful errors, the adapter that calls a model's ``encode`` and checks its output,
MTEB's result cache with atomic, locked saves (``result_cache``), the plugin's MTEB benchmarks
(``benchmarks``) and ``mteb.run`` (``run``).
MTEB offers plugins no public hook for these, so they are kept in one place.

May import: ``mteb_evalrank.errors``, :mod:`mteb_evalrank.metrics`, :mod:`mteb_evalrank.models`,
:mod:`mteb_evalrank.data` (same layer) and MTEB.  Never tasks, reports or the CLI: the task package
hands its classes to :func:`mteb_evalrank.integration.registry.register`.
"""

# MTEB first: importing it runs the plugin's registration (the start-up hook), which imports modules of
# this package (registry, benchmarks, zoo, ...).  Done here, before any module of the package starts, no
# module is half-initialised when that happens (``import mteb_evalrank.zoo.adapter`` as the first
# import used to warn "the model zoo could not be registered: ... partially initialized module").
import mteb  # noqa: F401
