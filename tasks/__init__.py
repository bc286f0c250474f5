"""MTEB task classes of the plugin (thin adapters: load data, encode once, call the core)."""

from mteb_evalrank.tasks.evalrank import EvalRankSent, EvalRankWord
from mteb_evalrank.tasks.n2o import N2O

ALL_TASKS: list[type] = [EvalRankWord, EvalRankSent, N2O]

__all__ = ["ALL_TASKS", "EvalRankSent", "EvalRankWord", "N2O"]
