"""EvalRank dataset rules and table format shared by the word- and sentence-level builders.

EvalRank (Wang et al., ACL 2022, §4.2-4.3) evaluates an embedding by ranking, for each positive pair
(x, y), the positive y among all background items C.  Its datasets are built the same way at both
levels:

- positives are the top 25% pairs of each similarity dataset: stable sort by score, descending, keep
  the first ``int(0.25 * n)`` rows (:func:`top_fraction`; ties keep the file order, as Python's stable
  ``sorted(..., reverse=True)`` in the reference toolkit does);
- "if positive pair (c_x, c_y) exists, the reversed pair (c_y, c_x) is also added" (§4.3): every pair
  is emitted in both directions and a directed pair already emitted is skipped
  (:class:`DirectedPairs`; the first occurrence keeps its ``source``).  A pair whose two items are equal
  therefore yields a single directed pair;
- the background holds every item once, in first-occurrence order (:func:`unique_in_order`).

Two configs, split ``test`` (:func:`make_tables`, :func:`check_tables`):

- ``pairs``: ``query``, ``positive``, ``source``, ``query_id``, ``positive_id``;
- ``background``: ``text``, ``id`` (unique ids and unique texts; every pair item is a background row,
  and ``query_id``/``positive_id`` are that row's ``id``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from mteb_evalrank.errors import InputError

T = TypeVar("T")

POSITIVE_FRACTION = 0.25
PAIRS = "pairs"
BACKGROUND = "background"
PAIRS_COLUMNS = ("query", "positive", "source", "query_id", "positive_id")
BACKGROUND_COLUMNS = ("text", "id")
#: Optional background column of published copies whose text was blanked (see evalrank_sent).
TEXT_SHA1 = "text_sha1"

EVALRANK_CITATION = r"""@inproceedings{wang-etal-2022-just,
  author = {Wang, Bin and Kuo, C.-C. Jay and Li, Haizhou},
  booktitle = {Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)},
  pages = {6060--6077},
  title = {Just Rank: Rethinking Evaluation with Word and Sentence Similarities},
  url = {https://aclanthology.org/2022.acl-long.419},
  year = {2022},
}"""


def top_fraction(rows: Sequence[T], score: Callable[[T], float], fraction: float = POSITIVE_FRACTION) -> list[T]:
    """The first ``int(fraction * len(rows))`` rows after a stable sort by ``score``, descending."""
    return sorted(rows, key=score, reverse=True)[: int(len(rows) * fraction)]


def unique_in_order(*groups: Iterable[str]) -> list[str]:
    """Items of all groups, each once, in order of first occurrence."""
    return list(dict.fromkeys(item for group in groups for item in group))


@dataclass
class DirectedPairs:
    """Collects positive pairs in both directions, skipping directed pairs already present."""

    rows: list[tuple[str, str, str]] = field(default_factory=list)  # (query, positive, source)
    self_pairs: int = 0  # pairs (x, x): one directed pair each
    duplicates: int = 0  # directed pairs skipped because an earlier pair already emitted them
    _seen: set[tuple[str, str]] = field(default_factory=set, repr=False)

    def add(self, a: str, b: str, source: str) -> None:
        """Emit (a, b) then (b, a), each unless already emitted."""
        if a == b:
            self.self_pairs += 1
        for directed in ((a, b),) if a == b else ((a, b), (b, a)):
            if directed in self._seen:
                self.duplicates += 1
                continue
            self._seen.add(directed)
            self.rows.append((directed[0], directed[1], source))

    def __len__(self) -> int:
        return len(self.rows)

    def items(self) -> list[str]:
        """Query and positive of every pair, in pair order (the start of the background)."""
        return [text for q, p, _ in self.rows for text in (q, p)]

    def per_source(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for _, _, source in self.rows:
            counts[source] = counts.get(source, 0) + 1
        return counts


def make_tables(pairs: DirectedPairs, background: Sequence[str], ids: Mapping[str, str]):
    """``(pairs_table, background_table)`` as ``pyarrow.Table``; raise :class:`InputError` if inconsistent."""
    import pyarrow as pa

    background_table = pa.table(
        {"text": pa.array(list(background), pa.string()), "id": pa.array([ids[t] for t in background], pa.string())}
    )
    q, p, s = (list(col) for col in zip(*pairs.rows)) if pairs.rows else ([], [], [])
    pairs_table = pa.table(
        {
            "query": pa.array(q, pa.string()),
            "positive": pa.array(p, pa.string()),
            "source": pa.array(s, pa.string()),
            "query_id": pa.array([ids[t] for t in q], pa.string()),
            "positive_id": pa.array([ids[t] for t in p], pa.string()),
        }
    )
    problems = check_tables(pairs_table, background_table)
    if problems:
        raise InputError("inconsistent EvalRank tables: " + "; ".join(problems))
    return pairs_table, background_table


def check_tables(pairs: Any, background: Any, *, allow_blank_text: bool = False) -> list[str]:
    """Problems with an EvalRank ``pairs``/``background`` pair of tables (pyarrow or pandas); [] if fine.

    ``allow_blank_text``: published copies may hold ``""`` for text that must not be redistributed;
    such rows are then checked through their ids only.
    """
    pairs_cols = _columns(pairs)
    background_cols = _columns(background)
    problems = [f"pairs: missing column {c!r}" for c in PAIRS_COLUMNS if c not in pairs_cols]
    problems += [f"background: missing column {c!r}" for c in BACKGROUND_COLUMNS if c not in background_cols]
    if problems:
        return problems
    texts, ids = _col(background, "text"), _col(background, "id")
    if not texts:
        problems.append("background: the table is empty")
    if not _col(pairs, "query"):
        problems.append("pairs: the table is empty")
    if any(not isinstance(i, str) or not i for i in ids):
        problems.append("background: ids must be non-empty strings")
    if len(set(ids)) != len(ids):
        problems.append(f"background: {len(ids) - len(set(ids))} duplicated ids, e.g. {_dupes(ids)}")
    blank = [i for i, t in zip(ids, texts) if not isinstance(t, str) or not t]
    if blank and not allow_blank_text:
        problems.append(f"background: {len(blank)} rows with empty text, e.g. ids {blank[:3]}")
    filled = [t for t in texts if isinstance(t, str) and t]
    if len(set(filled)) != len(filled):
        problems.append(f"background: {len(filled) - len(set(filled))} duplicated texts, e.g. {_dupes(filled)}")
    text_of = dict(zip(ids, texts))
    pair_ids = list(zip(_col(pairs, "query_id"), _col(pairs, "positive_id")))
    for role, text_col, id_col in (("query", "query", "query_id"), ("positive", "positive", "positive_id")):
        missing, mismatched = [], []
        for text, item_id in zip(_col(pairs, text_col), _col(pairs, id_col)):
            if item_id not in text_of:
                missing.append(item_id)
            elif text != text_of[item_id]:
                mismatched.append(item_id)
        if missing:
            problems.append(f"pairs: {len(missing)} {role} ids not in the background, e.g. {missing[:3]}")
        if mismatched:
            problems.append(
                f"pairs: {len(mismatched)} {role} texts differ from the background text of their id, "
                f"e.g. {mismatched[:3]}"
            )
    if len(set(pair_ids)) != len(pair_ids):
        problems.append(f"pairs: {len(pair_ids) - len(set(pair_ids))} duplicated (query_id, positive_id) pairs")
    directed = set(pair_ids)
    one_way = [p for p in pair_ids if (p[1], p[0]) not in directed]
    if one_way:
        problems.append(f"pairs: {len(one_way)} pairs lack their reverse direction, e.g. {one_way[:3]}")
    return problems


def source_counts_markdown(per_source: Mapping[str, int], label: str = "source") -> str:
    """A markdown table ``| source | directed pairs |`` (for the dataset cards)."""
    lines = [f"| {label} | directed pairs |", "|---|---:|"]
    lines += [f"| `{name}` | {count:,} |" for name, count in per_source.items()]
    return "\n".join(lines)


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket for ``n`` rows."""
    for bound, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < bound:
            return name
    return "n>1M"


def _columns(table: Any) -> list[str]:
    return list(table.column_names) if hasattr(table, "column_names") else list(table.columns)


def _col(table: Any, name: str) -> list:
    column = table[name]
    return column.to_pylist() if hasattr(column, "to_pylist") else column.tolist()


def _dupes(values: list) -> list:
    seen, out = set(), []
    for v in values:
        if v in seen and v not in out:
            out.append(v)
            if len(out) == 3:
                break
        seen.add(v)
    return out


def validate_dataset(folder) -> list[str]:
    """Content problems of a built EvalRank dataset folder (see :func:`check_tables`); [] if fine.

    Blank texts are allowed only in a published copy, recognised by its ``text_sha1`` column.
    """
    from mteb_evalrank.hub_datasets import layout

    try:
        pairs = layout.read_config(folder, PAIRS)
        background = layout.read_config(folder, BACKGROUND)
    except Exception as exc:  # report, do not raise: the caller collects problems
        return [f"cannot read the EvalRank tables ({type(exc).__name__}: {exc})"]
    return check_tables(pairs, background, allow_blank_text=TEXT_SHA1 in background.column_names)


def write_evalrank_dataset(
    out_dir,
    *,
    name: str,
    level: str,
    pairs_table,
    background_table,
    task_categories: list[str],
    tag: str,
    body: str,
) -> None:
    """Write an EvalRank dataset folder: ``pairs`` and ``background`` configs plus the card.

    The card's YAML is the same for both levels apart from ``name`` (e.g. ``evalrank-word``), the
    ``level`` in the pretty name, the Hub task categories and one tag.
    """
    from mteb_evalrank.hub_datasets import layout

    metadata = {
        "pretty_name": f"EvalRank ({level} level)",
        "language": ["en"],
        "license": "other",
        "license_name": f"{name}-sources",
        "task_categories": task_categories,
        "size_categories": [size_category(background_table.num_rows)],
        "tags": ["mteb", "evalrank", tag, "embedding-evaluation"],
        "configs": layout.configs_metadata([PAIRS, BACKGROUND], default=PAIRS),
        layout.CARD_DATASET_KEY: name,
    }
    layout.write_dataset(out_dir, {PAIRS: pairs_table, BACKGROUND: background_table}, metadata, body)
