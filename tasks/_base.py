"""Shared plumbing of the plugin's MTEB tasks: shipped descriptive statistics, encode-once state.

MTEB's ``evaluate`` calls ``task.evaluate`` once per subset (so that finished subsets are saved to
the result cache before the next one starts).  The plugin's tasks share one set of embeddings
across all subsets, so :class:`EncodeOnceTask` computes a per-model *state* (embeddings and anything
derived from them, e.g. EvalRank ranks) on the first subset and reuses it for the others; the state
is dropped by ``unload_data`` at the end of the task.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from mteb.abstasks.abstask import AbsTask
from mteb.abstasks.task_metadata import TaskMetadata

from mteb_evalrank.integration.descriptive_stats import (
    PROVISIONAL_KEY,
    stats_dir_override,
    stats_written_to,
    user_stats_dir,
)
from mteb_evalrank.integration.task_lookup import ROLES  # the values of EncodeOnceTask.role

logger = logging.getLogger(__name__)

#: the values of :attr:`EncodeOnceTask.input_level`
INPUT_LEVELS = ("sentence", "word")

#: The descriptive statistics shipped with the package, one ``<TaskName>.json`` per task (MTEB
#: format), computed from the real built datasets by ``mteb-evalrank descriptive-stats``.
SHIPPED_STATS_DIR = Path(__file__).resolve().parent / "descriptive_stats"


class PluginTaskMetadata(TaskMetadata):
    """TaskMetadata whose descriptive statistics are the plugin's package data, not mteb's.

    ``metadata.descriptive_stats`` (which MTEB's own tests require for every task) reads
    ``descriptive_stat_path``: ``SHIPPED_STATS_DIR/<TaskName>.json``, or the folder given to
    :func:`~mteb_evalrank.integration.descriptive_stats.stats_written_to` while that is active.
    The stock path is inside the installed ``mteb`` package.
    """

    #: the task's :attr:`EncodeOnceTask.input_level`, copied here when the task class is created: an encoder
    #: sees only the metadata (MTEB passes ``task_metadata`` to ``encode``).  A private attribute, so
    #: it is neither a metadata field (MTEB forbids unknown ones) nor in any dump of the metadata.
    _input_level: str = "sentence"

    @property
    def input_level(self) -> str:
        """``"word"`` or ``"sentence"``: what one input text of the task is (see :class:`EncodeOnceTask`)."""
        return self._input_level

    @property
    def descriptive_stat_path(self) -> Path:
        return (stats_dir_override() or SHIPPED_STATS_DIR) / f"{self.name}.json"

    @property
    def is_multilingual(self) -> bool:
        """Whether the task covers several languages: its subsets span more than one language.

        MTEB calls every task with named subsets (``eval_langs`` a dict) multilingual, so
        ``mteb available-tasks`` listed EvalRankWord, EvalRankSent, HEROS and SentEvalSTS12-16, whose
        subsets are data sources or edit types of English text, as "multilingual".  MTEB's code that
        uses this flag to mean "has named subsets" (per-subset descriptive statistics, the languages of a
        dataset card) runs inside :func:`subsets_as_languages` and sees MTEB's answer.
        """
        if _SUBSETS_AS_LANGUAGES.get():
            return super().is_multilingual
        return len(self.languages) > 1

    def _hf_languages(self) -> list[str]:
        with subsets_as_languages():
            return super()._hf_languages()


_SUBSETS_AS_LANGUAGES: contextvars.ContextVar[bool] = contextvars.ContextVar("subsets_as_languages", default=False)


@contextlib.contextmanager
def subsets_as_languages() -> Iterator[None]:
    """Inside: :attr:`PluginTaskMetadata.is_multilingual` is MTEB's "has named subsets"."""
    token = _SUBSETS_AS_LANGUAGES.set(True)
    try:
        yield
    finally:
        _SUBSETS_AS_LANGUAGES.reset(token)


class ShippedStatsMixin:
    """Put first in the bases of every plugin task (``class T(ShippedStatsMixin, AbsTask...)``).

    MTEB's ``calculate_descriptive_statistics`` writes to ``metadata.descriptive_stat_path``, which
    for the plugin is its package data.  This returns the shipped statistics unless
    ``overwrite_results`` (or they are marked provisional: not computed from the data); statistics it
    computes are written to the plugin cache
    (:func:`~mteb_evalrank.integration.descriptive_stats.user_stats_dir`), never into the installed
    package.  Only ``mteb-evalrank descriptive-stats`` rewrites the shipped files.
    """

    metadata: Any  # the task's, as the MTEB task class after this mixin in the bases defines it

    def calculate_descriptive_statistics(self, overwrite_results: bool = False, num_proc=None):
        if stats_dir_override() is not None:  # an explicit destination: regeneration, or a caller's choice
            with subsets_as_languages():  # statistics per named subset, as MTEB computes them
                return super().calculate_descriptive_statistics(  # type: ignore[misc]  # MTEB's, after the mixin
                    overwrite_results=overwrite_results, num_proc=num_proc
                )
        if not overwrite_results:
            shipped = self.metadata.descriptive_stats
            if shipped is not None and not any(PROVISIONAL_KEY in entry for entry in shipped.values()):
                return shipped
        with stats_written_to(user_stats_dir()), subsets_as_languages():
            return super().calculate_descriptive_statistics(  # type: ignore[misc]
                overwrite_results=overwrite_results, num_proc=num_proc
            )


class EncodeOnceTask(ShippedStatsMixin, AbsTask):
    """Base class: custom data loading, one model state per run shared by every subset.

    Subclasses implement:

    - ``_load(num_proc) -> dict[subset, dict[split, Any]]`` — the data of each subset;
    - ``_compute_state(model, *, hf_split, encode_kwargs, num_proc, timer) -> Any`` — encode once and
      derive whatever the subsets need;
    - ``_score_subset(state, data_split, hf_subset) -> dict`` — the scores of one subset (or, for a task
      with a :attr:`breakdown_key`, of the whole under ``default`` and of each of its :attr:`parts`).

    and declare what kind of task they are (class attributes, the one source of the task lists derived
    from them, e.g. :func:`mteb_evalrank.integration.task_lookup.plugin_task_names`):

    - :attr:`input_level` — ``"word"`` when each input text is a single word (EvalRankWord, the
      word-similarity sets: word-vector models look each input up as one word), else ``"sentence"``;
      also readable as ``task.metadata.input_level`` (what an encoder is given);
    - :attr:`role` — what the task is for (:data:`ROLES`): ``intrinsic`` (EvalRank: the scores the study
      puts to the test), ``baseline`` (the similarity scores EvalRank is compared with, named in advance:
      STS12-16, STS-B, SICK-R, STR and the 9 word-similarity sets of EvalRank Table 3), ``similarity`` (other
      similarity sets, shown but never compared), ``diagnostic`` (HEROS: a per-model reading the study shows),
      ``comparison`` (N2O: a comparison of embedders, not a per-model score the study correlates) or
      ``downstream`` (a classifier trained on the embeddings: what the intrinsic scores should predict).  The
      study's task lists, the benchmarks' order and groups and the reports' sections derive from it;
    - :attr:`downstream` — ``role == "downstream"`` (kept for callers that ask this one question).
    """

    input_level: ClassVar[str] = "sentence"
    role: ClassVar[str] = ""
    downstream: ClassVar[bool] = False  # role == "downstream", set for each subclass

    #: the nested key of the headline entry that holds the task's parts
    #: (:data:`~mteb_evalrank.data.result_layout.BREAKDOWN_KEYS`), or ``None``: a task with parts has the single
    #: subset ``default`` (MTEB averages subsets, and a whole must not be averaged with its parts), and
    #: :meth:`_load` sets :attr:`parts` (part -> split -> data), scored by :meth:`_score_subset` like the whole
    breakdown_key: ClassVar[str | None] = None
    #: the options that change the task's scores, as ``{score key: attribute}`` (EvalRank: ``{"centered": "center",
    #: "ties": "ties"}``): each subset's scores record them under that key, and a stored result recording other
    #: values answers another question (:meth:`score_options`; ``run`` recomputes it)
    score_option_attributes: ClassVar[dict[str, str]] = {}
    #: whether a subset with per-item values also records ``encode_batch_size`` (EvalRank, HEROS, N2O: their ranks
    #: and ties may depend on it); the similarity and downstream tasks keep their scores as before (issue 46)
    records_batch_size: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.input_level not in INPUT_LEVELS:
            raise TypeError(f"{cls.__name__}.input_level must be one of {INPUT_LEVELS}, got {cls.input_level!r}")
        if cls.role and cls.role not in ROLES:
            raise TypeError(f"{cls.__name__}.role must be one of {', '.join(ROLES)}, got {cls.role!r}")
        cls.downstream = cls.role == "downstream"
        metadata = cls.__dict__.get("metadata")
        if isinstance(metadata, PluginTaskMetadata):
            metadata._input_level = cls.input_level

    def __init__(self, seed: int = 42, **kwargs: Any) -> None:
        super().__init__(seed=seed, **kwargs)
        self._state_key: tuple[Any, str] | None = None
        self._state: Any = None
        self.parts: dict[str, dict[str, Any]] = {}

    def score_options(self) -> dict[str, Any]:
        """The options this task object scores under, by the key its scores record them under (part of a stored
        result's identity besides model, revision and task: see :func:`~mteb_evalrank.integration.result_cache.option_conflict`)."""
        return {key: getattr(self, attribute) for key, attribute in self.score_option_attributes.items()}

    # --- data --------------------------------------------------------------------------------
    def load_data(self, num_proc: int | None = None, *, timer=None, **kwargs: Any) -> None:
        if self.data_loaded:
            return
        from mteb.timing import TimingStack

        timer = timer or TimingStack()
        with timer("Data loading", log_message=f"Loading dataset {self.metadata.name}..."):
            self.dataset = self._load(num_proc=num_proc)
        self.data_loaded = True

    def unload_data(self) -> None:
        self._state_key, self._state = None, None
        super().unload_data()

    def _load(self, num_proc: int | None = None) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    # --- evaluation --------------------------------------------------------------------------
    def _model_state(self, model: Any, *, hf_split: str, encode_kwargs, num_proc, timer) -> Any:
        key = (weakref.ref(model) if _weakrefable(model) else id(model), hf_split)
        if self._state_key is not None and _same_key(self._state_key, key):
            return self._state
        self._state_key, self._state = None, None  # free the previous model's arrays first
        state = self._compute_state(
            model, hf_split=hf_split, encode_kwargs=encode_kwargs or {}, num_proc=num_proc, timer=timer
        )
        self._state_key, self._state = key, state
        return state

    def _evaluate_subset(
        self,
        model,
        data_split,
        *,
        hf_split: str,
        hf_subset: str,
        encode_kwargs,
        prediction_folder=None,
        num_proc=None,
        timer=None,
        **kwargs: Any,
    ):
        from mteb.timing import TimingStack

        timer = timer or TimingStack()
        state = self._model_state(model, hf_split=hf_split, encode_kwargs=encode_kwargs, num_proc=num_proc, timer=timer)
        with timer("Scoring", split=hf_split, subset=hf_subset):
            scores = self._score_subset(state, data_split, hf_subset)
            if self.breakdown_key is not None:
                scores[self.breakdown_key] = self._score_parts(state, hf_split)
            items = self._item_values(state, data_split, hf_subset)
        if items is not None:  # the batch size that produced the vectors, and the per-item values for `compare`
            from mteb_evalrank.integration import item_values

            batch_size = (encode_kwargs or {}).get("batch_size")
            if self.records_batch_size:
                scores["encode_batch_size"] = int(batch_size) if batch_size is not None else None
            items.scores = item_values.scores_of(scores, items.scores or scores)
            item_values.record(self.metadata.name, model, hf_split, hf_subset, items)
        if prediction_folder is not None:
            self._save_task_predictions(
                self._predictions(state, data_split, hf_subset), model, prediction_folder, hf_split, hf_subset
            )
        return scores

    def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer) -> Any:
        raise NotImplementedError

    def _score_parts(self, state: Any, hf_split: str) -> dict[str, dict[str, Any]]:
        """The breakdown: each part's scores (:meth:`_score_subset` on the part's data), without the keys
        that belong to the whole run (:func:`~mteb_evalrank.data.result_layout.part_scores`), with its own
        ``main_score`` (the task's main metric over the part; MTEB never reads it)."""
        from mteb_evalrank.data.result_layout import part_scores

        main = self.metadata.main_score
        out = {}
        for part, data in self.parts.items():
            if hf_split not in data:
                continue
            scores = part_scores(self._score_subset(state, data[hf_split], part))
            if "main_score" not in scores and main in scores:  # each part's own figure of the task's metric
                scores["main_score"] = scores[main]
            out[part] = scores
        return out

    def _score_subset(self, state: Any, data_split: Any, hf_subset: str) -> dict[str, Any]:
        raise NotImplementedError

    def _predictions(self, state: Any, data_split: Any, hf_subset: str) -> Any:
        """What ``--prediction-folder`` stores for a subset (JSON-serialisable)."""
        return {}

    def _item_values(self, state: Any, data_split: Any, hf_subset: str) -> Any:
        """The subset's per-item values (:class:`~mteb_evalrank.integration.item_values.SubsetItems`, written
        beside the result as ``<Task>.items.npz`` for ``mteb-evalrank compare``), or ``None``.  Its ``scores``
        name the score keys the items reproduce (checked by ``compare``)."""
        return None


def _weakrefable(obj: Any) -> bool:
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True


def _same_key(a: tuple[Any, str], b: tuple[Any, str]) -> bool:
    ra, rb = a[0], b[0]
    if isinstance(ra, weakref.ref) and isinstance(rb, weakref.ref):
        return ra() is not None and ra() is rb() and a[1] == b[1]
    return ra == rb and a[1] == b[1]
