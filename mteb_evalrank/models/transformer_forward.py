"""One forward pass of a Hugging Face transformer that returns every hidden-state layer.

:class:`TorchHiddenStates` loads a SentenceTransformer / transformers folder with ``transformers``
(``AutoTokenizer``, ``AutoModel``) and returns, for a batch of texts, the hidden states of the
layers the zoo asks for and the attention mask.  With ``random_seed`` it builds the same
architecture from the folder's ``config.json`` with freshly initialised weights
(``AutoModel.from_config`` under ``torch.manual_seed``): the zoo's random floor.

It implements the zoo's base-forward interface (see :mod:`mteb_evalrank.zoo.variants`): ``base``,
``package``, ``revision``, ``dim``, ``n_layers``, ``layer_indices``, ``prefix``, ``max_length`` and
``hidden_states(texts)``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mteb_evalrank.errors import InputError


def _max_length(folder: Path, tokenizer) -> int:
    cfg = folder / "sentence_bert_config.json"
    if cfg.exists():
        value = json.loads(cfg.read_text(encoding="utf-8")).get("max_seq_length")
        if value:
            return int(value)
    return int(min(getattr(tokenizer, "model_max_length", 512) or 512, 512))


class TorchHiddenStates:
    """Hidden states of a transformers model loaded from a local folder (CPU or a given device)."""

    def __init__(
        self,
        folder: str | Path,
        *,
        base: str,
        package: str,
        layer_indices: Sequence[int] | None = None,
        random_seed: int | None = None,
        prefix: str = "",
        device: str | None = None,
    ) -> None:
        import torch
        from transformers import AutoConfig, AutoModel, AutoTokenizer

        folder = Path(folder)
        if not (folder / "config.json").exists():
            raise InputError(f"{folder} is not a transformers model folder (no config.json).")
        self.base = base
        self.package = package
        self.prefix = prefix
        self.random_seed = random_seed
        self.tokenizer = AutoTokenizer.from_pretrained(str(folder))
        if random_seed is None:
            self.model = AutoModel.from_pretrained(str(folder))
            from mteb_evalrank.models.resolve import folder_digest

            self.revision = folder_digest(folder)
        else:
            config = AutoConfig.from_pretrained(str(folder))
            torch.manual_seed(int(random_seed))
            self.model = AutoModel.from_config(config)
            config_bytes = (folder / "config.json").read_bytes()
            self.revision = hashlib.sha256(config_bytes + f"seed={random_seed}".encode()).hexdigest()[:12]
        self.device = device or "cpu"
        self.model.to(self.device).eval()
        self.dim = int(self.model.config.hidden_size)
        self.n_layers = int(self.model.config.num_hidden_layers)
        self.layer_indices = tuple(range(self.n_layers + 1)) if layer_indices is None else tuple(layer_indices)
        self.max_length = _max_length(folder, self.tokenizer)

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        """``(layers, mask)``: one ``(batch, seq, d)`` float32 array per ``layer_indices`` entry."""
        import torch

        batch = self.tokenizer(
            [self.prefix + t for t in texts],
            padding=True,
            truncation=True,
            max_length=self.max_length,
            return_tensors="pt",
        ).to(self.device)
        with torch.inference_mode():
            out = self.model(**batch, output_hidden_states=True)
        states = out.hidden_states
        layers = [states[i].float().cpu().numpy() for i in self.layer_indices]
        return layers, batch["attention_mask"].cpu().numpy()
