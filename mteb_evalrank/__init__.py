"""mteb-evalrank: EvalRank, HEROS, N2O and RankEncoder for MTEB.

Importing this package is cheap: it only makes sure the plugin's tasks are registered with MTEB when
(or if) ``mteb`` is imported.  The code is laid out by layer; imports point down only
(``tests/test_layers.py``):

- :mod:`mteb_evalrank.cli` — argument parsing only (nothing imports it)
- :mod:`mteb_evalrank.reports` and :mod:`mteb_evalrank.tasks` — results → tables/plots; thin MTEB task classes
- :mod:`mteb_evalrank.data`, :mod:`mteb_evalrank.integration`, :mod:`mteb_evalrank.hub_datasets` — where
  data comes from; what touches MTEB internals; dataset builders
- :mod:`mteb_evalrank.models` — model specs → MTEB encoders
- :mod:`mteb_evalrank.metrics` — pure functions over arrays (EvalRank, HEROS, N2O, ...)
- :mod:`mteb_evalrank.errors` — the exception classes every layer may use
"""

from mteb_evalrank import _autoload  # noqa: F401  (installs the registration hook)

__version__ = "0.2.0"


def __getattr__(name: str):
    """``mteb_evalrank.run`` without importing mteb at ``import mteb_evalrank`` (see integration/run.py)."""
    if name == "run":
        from mteb_evalrank.integration.run import run

        return run
    if name == "correlate":  # the correlation study's table (reports/correlation_study.py), pandas/mteb on use only
        from mteb_evalrank.reports.correlation_study import correlate

        return correlate
    if (
        name == "RankEncoder"
    ):  # models/rank_encoder.py with the corpus in the disk cache (integration/rank_encoder_cache.py)
        from mteb_evalrank.integration.rank_encoder_cache import RankEncoder

        return RankEncoder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
