"""Encode a list of unique texts with any MTEB encoder, once, and check what comes back.

Every task of the plugin funnels its model calls through :func:`encode_texts`: one ``model.encode``
call over deduplicated texts, the same prompt type for every text (EvalRank, HEROS and N2O are
symmetric), batch size and progress bar taken from MTEB's ``encode_kwargs``.  The result is checked
(row count, finiteness, zero rows) so that a broken model fails with a message naming the model and
the task instead of producing silently wrong scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError


def model_label(model: Any) -> str:
    """Best-effort human name of an MTEB model (for error messages)."""
    meta = getattr(model, "mteb_model_meta", None)
    name = getattr(meta, "name", None)
    return str(name) if name else type(model).__name__


def encode_texts(
    model: Any,
    texts: Sequence[str],
    *,
    task_metadata: Any,
    hf_split: str = "test",
    hf_subset: str = "default",
    encode_kwargs: Mapping[str, Any] | None = None,
    prompt_type: Any = None,
    num_proc: int | None = None,
    allow_zero_rows: bool = True,
) -> np.ndarray:
    """Return a ``(len(texts), d)`` float32 array of embeddings from one ``model.encode`` call.

    Raises :class:`InputError` if texts contain duplicates (callers must deduplicate: each text is
    encoded exactly once), if the model returns the wrong number of rows, a non-2-D array, NaN/inf
    values, or (with ``allow_zero_rows=False``) all-zero rows.
    """
    from mteb._create_dataloaders import _create_dataloader_from_texts

    texts = list(texts)
    if not texts:
        raise InputError(f"{task_metadata.name}: nothing to encode (empty dataset).")
    if len(set(texts)) != len(texts):
        raise InputError(f"{task_metadata.name}: texts passed to encode_texts must be unique.")
    kwargs = dict(encode_kwargs or {})
    batch_size = 32 if kwargs.get("batch_size") is None else int(kwargs["batch_size"])
    if batch_size < 1:
        raise InputError(f"batch size must be ≥ 1, got {batch_size}.")
    loader = _create_dataloader_from_texts(texts, batch_size=batch_size, num_proc=num_proc)
    emb = model.encode(
        loader,
        task_metadata=task_metadata,
        hf_split=hf_split,
        hf_subset=hf_subset,
        prompt_type=prompt_type,
        **kwargs,
    )
    return check_embeddings(
        emb,
        n_rows=len(texts),
        source=f"model {model_label(model)} on task {task_metadata.name}",
        allow_zero_rows=allow_zero_rows,
        texts=texts,
    )


def to_numpy(emb: Any) -> np.ndarray:
    """Convert a torch tensor / list / array of embeddings to a float32 numpy array."""
    if hasattr(emb, "detach"):  # torch tensor (possibly on GPU, possibly bf16)
        emb = emb.detach().float().cpu().numpy()
    return np.asarray(emb, dtype=np.float32)


def check_embeddings(
    emb: Any,
    *,
    n_rows: int | None = None,
    source: str = "embeddings",
    allow_zero_rows: bool = True,
    texts: Sequence[str] | None = None,
) -> np.ndarray:
    """Validate an embedding matrix and return it as C-contiguous float32.

    Checks: 2-D, ``n_rows`` rows (when given), at least one dimension, all values finite and, unless
    ``allow_zero_rows``, no all-zero row (cosine would be undefined).  Messages name up to three
    offending rows (and their texts, when given).
    """
    arr = to_numpy(emb)
    if arr.ndim != 2:
        raise InputError(f"{source}: expected a 2-D embedding matrix, got shape {arr.shape}.")
    if n_rows is not None and arr.shape[0] != n_rows:
        raise InputError(
            f"{source}: returned {arr.shape[0]} embeddings for {n_rows} inputs (one row per input text is required)."
        )
    if arr.shape[1] == 0:
        raise InputError(f"{source}: embeddings have dimension 0.")

    def _rows(mask: Any) -> str:
        idx = np.flatnonzero(mask)[:3]
        if texts is not None:
            return ", ".join(f"row {i} ({texts[i][:60]!r})" for i in idx)
        return ", ".join(f"row {i}" for i in idx)

    bad = ~np.isfinite(arr).all(axis=1)
    if bad.any():
        raise InputError(f"{source}: {int(bad.sum())} embeddings contain NaN or inf: {_rows(bad)}.")
    if not allow_zero_rows:
        zero = ~arr.any(axis=1)
        if zero.any():
            raise InputError(
                f"{source}: {int(zero.sum())} embeddings are all-zero vectors (cosine is undefined): {_rows(zero)}."
            )
    return np.ascontiguousarray(arr)
