"""ONNX Runtime for a torch zoo base: the same hidden states as :class:`TorchHiddenStates`, exported once.

:func:`export_hidden_states` exports a transformers folder (BERT-style: ``input_ids``,
``attention_mask``, ``token_type_ids`` when the tokenizer makes them, ``position_ids``) with *every* hidden-state layer as an
output (opset 17, TorchScript exporter, dynamic batch and sequence axes) to
``$MTEB_EVALRANK_CACHE/models/onnx/<base>-<revision>.onnx``.  Position ids are an explicit input:
the traced graph otherwise bakes in the trace's sequence length.  The model is put back in
``eval()`` after the export, which leaves it in training mode (dropout on) in torch 2.13.

:class:`OnnxAllLayers` runs that file with the folder's own tokenizer and max length, and has the
zoo's forward interface (``hidden_states(texts) -> (layers, mask)``).  :func:`compare_with_torch`
measures the agreement that decides whether it may stand in for the torch forward (same cached
vectors, same revision): the minimum cosine between the two pooled vectors of each text over every
requested layer and the CLS vector (:data:`COSINE_TOLERANCE` = 1e-5).

Import cost: standard library and numpy; torch, transformers, onnx and onnxruntime load on use.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.atomic_files import move_file, replace_file
from mteb_evalrank.errors import InputError

COSINE_TOLERANCE = 1e-5


def onnx_folder(cache: str | os.PathLike | None = None) -> Path:
    """The folder of exported ONNX models: `<cache>/models/onnx` (the zoo's cache root by default)."""
    from mteb_evalrank.zoo.builds import cache_root

    return (Path(cache).expanduser() if cache is not None else cache_root()) / "models" / "onnx"


def export_hidden_states(folder: str | os.PathLike, out: str | os.PathLike) -> Path:
    """Export the transformers model in ``folder`` to ``out`` (all hidden states as outputs); idempotent."""
    out = Path(out)
    if out.is_file():
        return out
    try:
        import onnx  # noqa: F401  (the exporter needs it)
        import torch
        from transformers import AutoModel, AutoTokenizer
    except ImportError as exc:
        raise InputError(f"the ONNX export needs torch, transformers and onnx: pip install onnx ({exc})") from None
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    n_layers = int(model.config.num_hidden_layers)

    class _AllLayers(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids, position_ids):
            extra = {} if token_type_ids is None else {"token_type_ids": token_type_ids}
            states = self.inner(
                input_ids=input_ids,
                attention_mask=attention_mask,
                position_ids=position_ids,
                output_hidden_states=True,
                **extra,
            ).hidden_states
            return tuple(states)

    class _NoTypes(torch.nn.Module):  # models without token types (MPNet): three inputs
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, position_ids):
            return self.inner(input_ids, attention_mask, None, position_ids)

    sample = tokenizer(["a short one", "a somewhat longer sentence for the trace"], padding=True, return_tensors="pt")
    spec: dict[str, Any] = {
        "positions": "padding-offset" if model.config.model_type in _PADDING_OFFSET_MODELS else "arange",
        "padding_idx": int(model.config.pad_token_id or 0),
        "token_type_ids": "token_type_ids" in sample,
    }
    position_ids = torch.from_numpy(_positions(sample["input_ids"].numpy(), spec))
    token_type_ids = sample["token_type_ids"] if spec["token_type_ids"] else None
    names = ["input_ids", "attention_mask"] + ["token_type_ids"] * spec["token_type_ids"] + ["position_ids"]
    args = (
        sample["input_ids"],
        sample["attention_mask"],
        *([token_type_ids] if spec["token_type_ids"] else []),
        position_ids,
    )
    outputs = [f"hidden_{i}" for i in range(n_layers + 1)]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    wrapper = _AllLayers(model) if spec["token_type_ids"] else _NoTypes(_AllLayers(model))
    torch.onnx.export(
        wrapper,
        args,
        str(tmp),
        input_names=names,
        output_names=outputs,
        opset_version=17,
        dynamo=False,
        dynamic_axes={k: {0: "batch", 1: "seq"} for k in names + outputs},
    )
    model.eval()
    replace_file(out.with_suffix(".json"), json.dumps(spec))
    move_file(tmp, out)
    return out


#: models whose position ids start after the padding index and skip padding (RoBERTa-style, MPNet)
_PADDING_OFFSET_MODELS = ("mpnet", "roberta", "xlm-roberta", "camembert")


def _positions(ids: np.ndarray, spec: dict | None = None) -> np.ndarray:
    """Position ids as the model computes them: ``0..n-1`` (BERT), or, for RoBERTa-style models and MPNet,
    ``padding_idx + 1 + rank among non-padding tokens`` with ``padding_idx`` on padding."""
    if spec is None or spec.get("positions") == "arange":
        return np.broadcast_to(np.arange(ids.shape[1], dtype=np.int64), ids.shape).copy()
    pad = int(spec["padding_idx"])
    keep = (ids != pad).astype(np.int64)
    return np.cumsum(keep, axis=1) * keep + pad


class OnnxAllLayers:
    """The zoo's forward interface over an exported file (:func:`export_hidden_states`)."""

    prefix = ""

    def __init__(
        self,
        onnx_file: str | os.PathLike,
        folder: str | os.PathLike,
        *,
        base: str,
        package: str,
        revision: str,
        layer_indices: Sequence[int] | None = None,
        threads: int | None = None,
    ) -> None:
        import onnxruntime
        from transformers import AutoTokenizer

        from mteb_evalrank.models.transformer_forward import _max_length

        options = onnxruntime.SessionOptions()
        if threads:
            options.intra_op_num_threads = int(threads)
        self.session = onnxruntime.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])
        self.tokenizer = AutoTokenizer.from_pretrained(str(folder))
        self.max_length = _max_length(Path(folder), self.tokenizer)
        outputs = [o.name for o in self.session.get_outputs()]
        self.n_layers = len(outputs) - 1
        self.dim = int(self.session.get_outputs()[0].shape[-1])
        self.layer_indices = tuple(range(self.n_layers + 1)) if layer_indices is None else tuple(layer_indices)
        self._outputs = [f"hidden_{i}" for i in self.layer_indices]
        sidecar = Path(onnx_file).with_suffix(".json")
        self._spec = json.loads(sidecar.read_text(encoding="utf-8")) if sidecar.is_file() else None
        self._inputs = {i.name for i in self.session.get_inputs()}
        self.base, self.package, self.revision = base, package, revision

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        batch = self.tokenizer(
            [self.prefix + t for t in texts],
            padding=True,
            truncation=True,
            max_length=self.max_length,
            return_tensors="np",
        )
        ids = batch["input_ids"].astype(np.int64)
        feed = {
            "input_ids": ids,
            "attention_mask": batch["attention_mask"].astype(np.int64),
            "token_type_ids": np.asarray(batch.get("token_type_ids", np.zeros_like(ids))).astype(np.int64),
            "position_ids": _positions(ids, self._spec),
        }
        layers = self.session.run(self._outputs, {k: v for k, v in feed.items() if k in self._inputs})
        return [np.asarray(x, dtype=np.float32) for x in layers], feed["attention_mask"]


def compare_with_torch(onnx_forward, torch_forward, texts: list[str], *, last: int) -> float:
    """Minimum over texts and blocks (CLS and the mean of every common layer) of cos(onnx, torch)."""
    from mteb_evalrank.models.pooling import pooled_blocks

    layers = sorted(set(onnx_forward.layer_indices) & set(torch_forward.layer_indices))
    blocks = ["cls"] * (last in layers) + [f"mean:{i}" for i in layers]
    a_layers, a_mask = onnx_forward.hidden_states(texts)
    b_layers, b_mask = torch_forward.hidden_states(texts)
    a = pooled_blocks(dict(zip(onnx_forward.layer_indices, a_layers)), a_mask, blocks, last=last)
    b = pooled_blocks(dict(zip(torch_forward.layer_indices, b_layers)), b_mask, blocks, last=last)
    d = a.shape[1] // len(blocks)
    worst = 1.0
    for i in range(len(blocks)):
        x, y = a[:, i * d : (i + 1) * d].astype(np.float64), b[:, i * d : (i + 1) * d].astype(np.float64)
        cos = (x * y).sum(1) / np.maximum(np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1), 1e-30)
        worst = min(worst, float(cos.min()))
    return worst


#: environment switch of the zoo: ``onnx`` runs the torch bases (all-MiniLM-L6-v2, all-mpnet-base-v2) with
#: ONNX Runtime, once :func:`swap_in` has checked the vectors against torch
BACKEND_ENV = "MTEB_EVALRANK_ZOO_BACKEND"
_CHECK_TEXTS = (
    "A man is playing a guitar.",
    "Two dogs run through the snow near a fence.",
    "The stock market fell sharply today.",
    "a",
    "An unusually long sentence " + "with many repeated words " * 40,
    "Who won the 1998 World Cup?",
)


def active_backend() -> str:
    """``"onnx"`` when ``MTEB_EVALRANK_ZOO_BACKEND=onnx``, else ``"torch"``; anything else is an :class:`InputError`."""
    backend = os.environ.get(BACKEND_ENV, "torch").strip().lower()
    if backend in ("", "torch"):
        return "torch"
    if backend != "onnx":
        raise InputError(f"{BACKEND_ENV}={backend!r}: use 'torch' (default) or 'onnx'.")
    return "onnx"


def swap_in(torch_forward, folder: str | os.PathLike, *, cache: str | os.PathLike | None = None):
    """``MTEB_EVALRANK_ZOO_THREADS=n`` sets torch's threads (and ONNX Runtime's intra-op threads).
    With ``MTEB_EVALRANK_ZOO_BACKEND=onnx``: the ONNX Runtime forward of ``folder`` if its block vectors
    equal ``torch_forward``'s to :data:`COSINE_TOLERANCE` on fixed check texts (same cache, same revision),
    else :class:`InputError`.  Without the switch: ``torch_forward`` unchanged."""
    from mteb_evalrank.zoo.builds import apply_zoo_threads

    threads = apply_zoo_threads()  # MTEB_EVALRANK_ZOO_THREADS, process-wide
    if active_backend() == "torch":
        return torch_forward
    onnx_file = onnx_folder(cache) / f"{torch_forward.base}-{torch_forward.revision}.onnx"
    export_hidden_states(folder, onnx_file)
    onnx = OnnxAllLayers(
        onnx_file,
        folder,
        base=torch_forward.base,
        package=torch_forward.package,
        revision=torch_forward.revision,
        layer_indices=torch_forward.layer_indices,
        threads=threads,
    )
    worst = compare_with_torch(onnx, torch_forward, list(_CHECK_TEXTS), last=torch_forward.n_layers)
    if worst < 1 - COSINE_TOLERANCE:
        raise InputError(
            f"{torch_forward.base}: the ONNX export's vectors differ from torch's (min cosine {worst:.7f} "
            f"< 1 - {COSINE_TOLERANCE}); unset {BACKEND_ENV} to use torch."
        )
    return onnx
