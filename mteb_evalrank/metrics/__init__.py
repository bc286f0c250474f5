"""Layer 1 — pure functions over arrays: the numeric cores of the plugin's evaluations.

What belongs here: functions that take numpy/scipy/torch arrays and plain Python values and return
arrays, numbers or dicts (EvalRank ranks, HEROS pair scores, N2O neighbour overlap, the SentEval
classifier protocol, ...).  Each module states its formula and cites the paper section.

May import: the standard library, numpy/scipy/torch/scikit-learn/faiss, and ``mteb_evalrank.errors``.
Nothing else from the package — no MTEB, no files, no printing (``tests/test_layers.py`` enforces it).
"""
