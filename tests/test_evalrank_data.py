"""EvalRankData: indexing pairs into the background, and the errors for inconsistent data."""

import pytest

from mteb_evalrank.data.evalrank import EvalRankData
from mteb_evalrank.errors import InputError


def test_indexes_pairs_and_subsets():
    d = EvalRankData.from_texts(["a", "b", "c"], ["a", "b", "c"], ["b", "a", "c"], ["x", "x", "y"])
    assert d.query_idx.tolist() == [0, 1, 2]
    assert d.positive_idx.tolist() == [1, 0, 2]
    assert d.subset_rows("x").tolist() == [0, 1]
    assert d.subset_rows("all").tolist() == [0, 1, 2]


@pytest.mark.parametrize(
    "background, queries, positives, message",
    [
        (["a", "b"], ["a"], ["z"], "positive of pair 0 ('z') is not in the background"),
        (["a", "b"], ["z"], ["a"], "query of pair 0 ('z') is not in the background"),
        ([], ["a"], ["b"], "background is empty"),
        (["a", "b"], [], [], "no (query, positive) pairs"),
        (["a", "b", "a"], ["a"], ["b"], "unique items; 1 duplicates"),
        (["a", ""], ["a"], ["a"], "empty or not text"),
        (["a", "b"], ["a", "b"], ["b"], "2 queries but 1 positives"),
    ],
)
def test_inconsistent_data_is_rejected_with_a_clear_message(background, queries, positives, message):
    with pytest.raises(InputError, match=None) as err:
        EvalRankData.from_texts(background, queries, positives, name="toy")
    assert message in str(err.value)
    assert str(err.value).startswith("toy:")
