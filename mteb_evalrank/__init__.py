"""mteb-evalrank: EvalRank, HEROS, N2O and RankEncoder for MTEB.

Importing this package is cheap: it only makes sure the plugin's tasks are registered with MTEB when
(or if) ``mteb`` is imported.  The numeric core lives in submodules that import numpy on demand:

- :mod:`mteb_evalrank.ranking` — EvalRank ranks, MRR, Hits@k (exact, chunked)
- :mod:`mteb_evalrank.data_resolution` — where task data comes from (Hub, local folder, raw sources)
- :mod:`mteb_evalrank.models` — model specs → MTEB encoders (MTEB names, SentenceTransformer folders,
  static word vectors)
- :mod:`mteb_evalrank.registry` — registration with MTEB's task and model registries
"""

from mteb_evalrank import _autoload  # noqa: F401  (installs the registration hook)

__version__ = "0.1.0"
