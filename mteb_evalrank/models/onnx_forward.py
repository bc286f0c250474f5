"""ONNX Runtime for a torch zoo base: the same hidden states as :class:`TorchHiddenStates`, exported once.

:func:`export_hidden_states` exports a transformers folder (BERT-style: ``input_ids``,
``attention_mask``, ``token_type_ids``, ``position_ids``) with *every* hidden-state layer as an
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

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mteb_evalrank.errors import InputError

COSINE_TOLERANCE = 1e-5


def onnx_folder(cache: str | os.PathLike | None = None) -> Path:
    from mteb_evalrank.models.population import cache_root

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
            states = self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids,
                                position_ids=position_ids, output_hidden_states=True).hidden_states  # fmt: skip
            return tuple(states)

    sample = tokenizer(["a short one", "a somewhat longer sentence for the trace"], padding=True, return_tensors="pt")
    position_ids = _positions(sample["input_ids"].numpy())
    names = ["input_ids", "attention_mask", "token_type_ids", "position_ids"]
    outputs = [f"hidden_{i}" for i in range(n_layers + 1)]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    torch.onnx.export(
        _AllLayers(model), (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"], torch.from_numpy(position_ids)),
        str(tmp), input_names=names, output_names=outputs, opset_version=17, dynamo=False,
        dynamic_axes={k: {0: "batch", 1: "seq"} for k in names + outputs},
    )  # fmt: skip
    model.eval()
    tmp.replace(out)
    return out


def _positions(ids: np.ndarray) -> np.ndarray:
    return np.broadcast_to(np.arange(ids.shape[1], dtype=np.int64), ids.shape).copy()


class OnnxAllLayers:
    """The zoo's forward interface over an exported file (:func:`export_hidden_states`)."""

    prefix = ""

    def __init__(self, onnx_file: str | os.PathLike, folder: str | os.PathLike, *, base: str, package: str, revision: str,
                 layer_indices: Sequence[int] | None = None, threads: int | None = None) -> None:  # fmt: skip
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
        self.base, self.package, self.revision = base, package, revision

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        batch = self.tokenizer([self.prefix + t for t in texts], padding=True, truncation=True, max_length=self.max_length,
                               return_tensors="np")  # fmt: skip
        ids = batch["input_ids"].astype(np.int64)
        feed = {"input_ids": ids, "attention_mask": batch["attention_mask"].astype(np.int64),
                "token_type_ids": batch.get("token_type_ids", np.zeros_like(ids)).astype(np.int64),
                "position_ids": _positions(ids)}  # fmt: skip
        layers = self.session.run(self._outputs, feed)
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
