"""MTEB task classes of the plugin (thin adapters: load data, encode once, call the core)."""

from mteb_evalrank.tasks.evalrank import EvalRankSent, EvalRankWord
from mteb_evalrank.tasks.heros import HEROS
from mteb_evalrank.tasks.n2o import N2O
from mteb_evalrank.tasks.senteval import SENTEVAL_TASKS
from mteb_evalrank.tasks.sts import SIMILARITY_TASKS
from mteb_evalrank.tasks.word_similarity import WORD_SIMILARITY_TASKS

ALL_TASKS: list[type] = [EvalRankWord, EvalRankSent, N2O, HEROS]
ALL_TASKS += SENTEVAL_TASKS  # SentEvalMR ... SentEvalSICKE, SciCite (the downstream tasks)
ALL_TASKS += SIMILARITY_TASKS  # SentEvalSTS12..16, SentEvalSTSB, SentEvalSICKR, STR
ALL_TASKS += WORD_SIMILARITY_TASKS  # WS-353-All ... VERB-143 (the 13 word-similarity sets)

__all__ = ["ALL_TASKS", "HEROS", "N2O", "EvalRankSent", "EvalRankWord"]

# If these modules were imported before `mteb`, importing them is what imported mteb, and the
# autoload hook deferred registration until the task list above existed: register now (idempotent).
from mteb_evalrank.integration.registry import register as _register  # noqa: E402

_register(ALL_TASKS)
