"""Each task declares whether it is word-level (``input_level``) and downstream (``downstream``) on its
class; the task lists of the study and the word-input list of word-vector models are derived from that
one declaration (issue 30, item 3)."""

from __future__ import annotations

import mteb
import pytest

from mteb_evalrank.integration import study
from mteb_evalrank.integration.registry import plugin_tasks
from mteb_evalrank.integration.task_lookup import plugin_task_names

#: what EvalRank's study uses: Table 6 columns + MRPC, SICK-E (Table 3) + SciCite, in this order
PAPER_DOWNSTREAM = (
    "SentEvalMR",
    "SentEvalCR",
    "SentEvalSUBJ",
    "SentEvalMPQA",
    "SentEvalSST2",
    "SentEvalSST5",
    "SentEvalTREC",
    "SentEvalMRPC",
    "SentEvalSICKE",
    "SciCite",
)


def test_every_task_declares_its_kind():
    for cls in plugin_tasks():
        assert cls.input_level in ("word", "sentence"), cls
        assert isinstance(cls.downstream, bool), cls
        assert cls.metadata.input_level == cls.input_level  # what an encoder sees (task_metadata)
        assert "input_level" not in cls.metadata.model_dump()  # not a metadata field: MTEB forbids unknown ones


def test_study_lists_are_derived_from_the_declarations():
    assert study.DOWNSTREAM_TASKS == PAPER_DOWNSTREAM
    assert tuple(c.metadata.name for c in plugin_tasks() if c.downstream) == study.DOWNSTREAM_TASKS
    assert study.STUDY_TASKS == study.INTRINSIC_TASKS + PAPER_DOWNSTREAM
    assert (
        "EvalRankWord",
        *study.WORD_SIMILARITY_TASKS,
        *study.OTHER_WORD_SIMILARITY_TASKS,
        *PAPER_DOWNSTREAM,
    ) == study.WORD_STUDY_TASKS
    assert not hasattr(study, "WORD_LEVEL_TASKS")  # renamed: it meant two different things
    with pytest.raises(AttributeError):
        study.NO_SUCH_LIST  # noqa: B018


def test_word_input_tasks_are_evalrankword_and_the_word_similarity_sets():
    from mteb_evalrank import models
    from mteb_evalrank.hub_datasets.word_similarity import TASK_NAMES
    from mteb_evalrank.models.static_vectors import task_input_level

    words = plugin_task_names(input_level="word")
    assert words == ("EvalRankWord", *TASK_NAMES)
    # word-vector models decide word-level input by the same declaration, not a list of their own
    assert not hasattr(models, "WORD_LEVEL_TASKS")
    assert [c.metadata.name for c in plugin_tasks() if task_input_level(c.metadata) == "word"] == list(words)
    assert mteb.get_task("WS-353-All").metadata.input_level == "word"
    assert mteb.get_task("SentEvalSTSB").metadata.input_level == "sentence"
    assert set(plugin_task_names(downstream=True)).isdisjoint(words)


def test_a_task_with_an_unknown_input_level_is_refused():
    from mteb_evalrank.tasks._base import EncodeOnceTask

    with pytest.raises(TypeError, match="input_level"):
        type("Bad", (EncodeOnceTask,), {"input_level": "paragraph"})
