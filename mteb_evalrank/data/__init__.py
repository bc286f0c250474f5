"""Layer 3 — where data comes from and how it is cached.

What belongs here: resolving a dataset (local built folder, raw sources built on demand, the pinned
Hub copy, the original public sources), the EvalRank pairs/background container, on-disk embedding
caches, the plugin's cache folder, and checked reading/writing of files users name (``files``).

May import: ``mteb_evalrank.errors``, :mod:`mteb_evalrank.metrics`, :mod:`mteb_evalrank.models`,
:mod:`mteb_evalrank.integration` and the dataset builders in :mod:`mteb_evalrank.hub_datasets` (same
layer).  Never tasks, reports or the CLI.
"""
