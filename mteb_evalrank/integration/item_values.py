"""Per-item values of a task run, kept beside the result file as ``<Task>.items.npz``.

``mteb-evalrank compare`` tests two models on the *same items*, so it needs each model's value per item
(EvalRank: the cos and l2 rank of every directed pair; HEROS: the raw and normalised cosine of every
sentence pair; N2O: the rank of every needle), which an MTEB score dict does not hold.

How they reach the disk: MTEB does not tell a task where its result is written.  The tasks
(:class:`~mteb_evalrank.tasks._base.EncodeOnceTask`) therefore :func:`record` their per-item values in this
process, keyed by task, model name and revision, split and subset; the plugin's result cache
(:class:`~mteb_evalrank.integration.result_cache.SafeResultCache`, used by ``mteb-evalrank run``,
``mteb_evalrank.run`` / ``mteb.run`` and the study) writes them with every save of ``<Task>.json`` to
``<Task>.items.npz`` in the same folder (:func:`flush`).  A run through MTEB's own cache (``mteb run``)
writes no items file; ``compare`` then says to re-run the task with ``mteb-evalrank run``.  The file is
not a JSON file, so MTEB's ``ResultCache`` and the results repository never try to read it as a result.

File layout (``numpy.savez_compressed``, no pickles): one array per ``<split>/<subset>/<name>`` (``name`` a
value such as ``cos_rank``; ``__groups__``: the cluster of each item, e.g. the unordered pair of EvalRank's
two directions; ``__strata__``: the stratum of each item, e.g. SentEval's outer fold or an STS sub-dataset,
resampled within itself) and ``__meta__``, a JSON string: ``{"format": 1, "task": ..., "entries": {"<split>/<subset>":
{"digest": <sha256 of the item identities in order>, "scores": {<score key>: <value the result file
holds>}}}}``.  The digest tells whether two models saw the same items; the scores tell whether the items
file still belongs to the ``<Task>.json`` beside it.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.data.files import ITEMS_SUFFIX
from mteb_evalrank.errors import InputError

SUFFIX = ITEMS_SUFFIX
FORMAT = 1
_META = "__meta__"
GROUPS = "__groups__"
STRATA = "__strata__"


@dataclass
class SubsetItems:
    """Per-item values of one (split, subset): ``values`` name -> array, ``groups`` (clusters, or ``None``), the
    item-set ``digest``, the ``scores`` of the result file they belong to and ``strata`` (or ``None``)."""

    values: dict[str, np.ndarray]
    digest: str
    groups: np.ndarray | None = None
    scores: dict[str, float | None] = field(default_factory=dict)  # None: not known yet
    strata: np.ndarray | None = None


#: (task, model name, revision) -> {(split, subset): SubsetItems}
_PENDING: dict[tuple[str, str, str], dict[tuple[str, str], SubsetItems]] = {}


def items_digest(identities: Iterable[Any]) -> str:
    """sha256 over the items' identities (e.g. ``(query, positive)`` texts), in order."""
    h = hashlib.sha256()
    for item in identities:
        h.update(json.dumps(item, ensure_ascii=False).encode("utf-8"))
        h.update(b"\x1e")
    return h.hexdigest()


def items_path(result_path: Path | str) -> Path:
    """``<Task>.items.npz`` beside ``<Task>.json``."""
    p = Path(result_path)
    return p.with_name(p.name.removesuffix(".json") + SUFFIX)


def _model_key(model: Any) -> tuple[str, str]:
    meta = getattr(model, "mteb_model_meta", None)
    name = getattr(meta, "name", None) or type(model).__name__
    return str(name), str(getattr(meta, "revision", None) or "no_revision_available")


def record(task: str, model: Any, split: str, subset: str, items: SubsetItems) -> None:
    """Keep ``items`` of a subset until the result cache saves the task's result (:func:`flush`).  Items of
    the same task for another model are dropped (models are evaluated one after the other), so a long
    study holds at most one model's values per task."""
    name, revision = _model_key(model)
    key = (task, name, revision)
    for other in [k for k in _PENDING if k[0] == task and k != key]:  # another model's run of the task is over
        del _PENDING[other]
    _PENDING.setdefault(key, {})[(split, subset)] = items


def flush(task: str, model_name: str, revision: str | None, result_path: Path) -> Path | None:
    """Write what was recorded for ``task`` and this model into ``<Task>.items.npz`` beside ``result_path``
    (merged with the subsets the file already holds), atomically; ``None`` when nothing was recorded."""
    pending = _PENDING.get((task, str(model_name), str(revision or "no_revision_available")))
    if not pending:
        return None
    path = items_path(result_path)
    entries = {}
    if path.is_file():
        try:
            entries = read_items(path)
        except InputError:
            entries = {}
    entries.update(pending)
    return write_items(path, task, entries)


def write_items(path: Path, task: str, entries: Mapping[tuple[str, str], SubsetItems]) -> Path:
    """Write ``entries`` ((split, subset) -> :class:`SubsetItems`) as the items file ``path`` of ``task``,
    atomically (a temporary file renamed over it)."""
    arrays: dict[str, Any] = {}
    meta: dict[str, Any] = {"format": FORMAT, "task": task, "entries": {}}
    for (split, subset), item in entries.items():
        key = f"{split}/{subset}"
        for name, arr in item.values.items():
            arrays[f"{key}/{name}"] = np.asarray(arr)
        if item.groups is not None:
            arrays[f"{key}/{GROUPS}"] = np.asarray(item.groups, dtype=np.int64)
        if item.strata is not None:
            arrays[f"{key}/{STRATA}"] = np.asarray(item.strata, dtype=np.int64)
        meta["entries"][key] = {"digest": item.digest, "scores": item.scores}
    arrays[_META] = np.array(json.dumps(meta))
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    from mteb_evalrank.atomic_files import replace_file

    replace_file(path, buffer.getvalue())  # a full disk: no temporary file is left behind
    return path


def forget(task: str | None = None) -> None:
    """Drop recorded items (all, or one task's)."""
    for key in [k for k in _PENDING if task is None or k[0] == task]:
        del _PENDING[key]


def read_items(path: Path | str) -> dict[tuple[str, str], SubsetItems]:
    """(split, subset) -> :class:`SubsetItems` of an items file; a damaged file (not a regular file, not a
    readable ``.npz``, a ``__meta__`` of another shape, arrays that are not one value per item) raises
    ``InputError`` naming the file and what is wrong."""
    import zipfile

    from mteb_evalrank.data.files import check_regular_file

    path = check_regular_file(Path(path), what="items file")  # a FIFO would block np.load forever

    def damaged(problem: str) -> InputError:
        return InputError(f"{path}: not a readable items file ({problem}); re-run the task.")

    try:
        with path.open("rb") as fh:  # closed also when it is not a zip
            data = np.load(fh, allow_pickle=False)
            if not hasattr(data, "files"):
                raise damaged("a single array, not an .npz archive")
            with data:
                meta = json.loads(str(data[_META]))
                arrays = {k: data[k] for k in data.files if k != _META}
    except InputError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        raise damaged(type(exc).__name__) from None
    if not isinstance(meta, dict):
        raise damaged(f"{_META} is a JSON {type(meta).__name__}, not an object")
    if meta.get("format") != FORMAT:
        raise InputError(f"{path}: items file format {meta.get('format')!r}, expected {FORMAT}; re-run the task.")
    entries = meta.get("entries", {})
    if not isinstance(entries, dict):
        raise damaged(f"{_META}.entries is a JSON {type(entries).__name__}, not an object")
    out: dict[tuple[str, str], SubsetItems] = {}
    for key, entry in entries.items():
        if "/" not in key or not isinstance(entry, dict) or not isinstance(entry.get("digest"), str):
            raise damaged(f"{_META}.entries[{key!r}] needs a 'split/subset' key and a string 'digest'")
        scores = entry.get("scores", {})
        if not isinstance(scores, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in scores.values()
        ):
            raise damaged(f"{_META}.entries[{key!r}].scores must map names to numbers")
        split, subset = key.split("/", 1)
        prefix = f"{key}/"
        values = {
            k[len(prefix) :]: v
            for k, v in arrays.items()
            if k.startswith(prefix) and k[len(prefix) :] not in (GROUPS, STRATA)
        }
        groups = arrays.get(f"{key}/{GROUPS}")
        strata = arrays.get(f"{key}/{STRATA}")
        labels = [(n, a) for n, a in ((GROUPS, groups), (STRATA, strata)) if a is not None]
        shapes = {name: a.shape for name, a in (*values.items(), *labels)}
        if any(len(s) != 1 for s in shapes.values()) or len(set(shapes.values())) > 1:
            shown = ", ".join(f"{name} {s}" for name, s in shapes.items())
            raise damaged(f"the arrays of {key} must be one value per item, of one length: {shown}")
        if any(a.dtype.kind not in "biuf" for a in values.values()):
            raise damaged(f"the arrays of {key} must hold numbers")
        out[(split, subset)] = SubsetItems(
            values=values,
            digest=entry["digest"],
            groups=groups,
            scores={k: float(v) for k, v in scores.items()},
            strata=strata,
        )
    return out


def scores_of(scores: Mapping[str, Any], keys: Iterable[str]) -> dict[str, float]:
    """The plain float scores among ``keys`` (what :attr:`SubsetItems.scores` keeps)."""
    return {
        k: float(scores[k])
        for k in keys
        if isinstance(scores.get(k), (int, float)) and not isinstance(scores.get(k), bool)
    }


__all__ = [
    "GROUPS",
    "STRATA",
    "SUFFIX",
    "SubsetItems",
    "flush",
    "forget",
    "items_digest",
    "items_path",
    "read_items",
    "record",
    "scores_of",
    "write_items",
]
