"""RankEncoder's re-training loss as a sentence-transformers loss (RankEncoder §3.2, Eq. 1, 5, 6).

The model being trained is ``E2``; the rank vectors ``u_i`` of the training sentences come from the
base encoder ``E1`` over the rank corpus and are computed once (:func:`mteb_evalrank.metrics.rank_vectors.rank_vectors`).
A batch holds (anchor, positive) pairs; the ``label`` column carries each anchor's index into the
precomputed rank vectors.

- ``l_cl`` (Eq. 1): in-batch contrastive loss, cross-entropy of ``cos(v_i, v_j⁺)/τ`` over the batch
  (mean over anchors; ``scale`` = 1/τ = 20 as in sentence-transformers' MultipleNegativesRankingLoss;
  the paper sums, which only rescales it).
- ``l_r`` (Eq. 6): over the batch pairs (i ≠ j) whose rank similarity lies in [τ_l, τ_u], the mean of
  ``(u_iᵀu_j − cos(E2(x_i), E2(x_j)))²``; 0 when no pair qualifies.  Pairs below τ_l are dissimilar
  (uninformative), pairs above τ_u are likely noisy duplicates (§3.2).
- ``l_total = max(λ_train · l_r, l_cl)`` (Eq. 5), λ_train = 0.05, τ_l = 0.5, τ_u = 0.8 (§4.1).

``last`` holds the latest ``l_cl``, ``l_r`` and ``l_total`` as floats, for logging.
"""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch import Tensor, nn

from mteb_evalrank.errors import InputError


def pair_mask(rank_sim: Tensor, tau_low: float, tau_high: float) -> Tensor:
    """Boolean (b, b) mask of pairs i ≠ j with ``τ_l ≤ u_iᵀu_j ≤ τ_u`` (Eq. 6's indicator)."""
    eye = torch.eye(rank_sim.shape[0], dtype=torch.bool, device=rank_sim.device)
    return (rank_sim >= tau_low) & (rank_sim <= tau_high) & ~eye


def rank_loss(rank_sim: Tensor, cos_sim: Tensor, mask: Tensor) -> Tensor:
    """Eq. 6: mean squared difference over the masked pairs (0 when the mask is empty)."""
    if not bool(mask.any()):
        return cos_sim.sum() * 0.0  # keeps the graph; no qualifying pair in this batch
    return ((rank_sim - cos_sim)[mask] ** 2).mean()


class RankEncoderLoss(nn.Module):
    """``max(λ_train · l_r, l_cl)`` for a SentenceTransformer ``model`` (see the module docstring)."""

    rank_vectors: Tensor  # a registered buffer (``nn.Module.__getattr__`` is typed ``Tensor | Module``)

    def __init__(
        self,
        model,
        rank_vectors: Tensor,
        *,
        lambda_train: float = 0.05,
        tau_low: float = 0.5,
        tau_high: float = 0.8,
        scale: float = 20.0,
    ) -> None:
        super().__init__()
        if not 0 <= tau_low <= tau_high <= 1:
            raise InputError(f"need 0 ≤ τ_l ≤ τ_u ≤ 1, got τ_l={tau_low}, τ_u={tau_high}.")
        if lambda_train < 0:
            raise InputError(f"λ_train must be ≥ 0, got {lambda_train}.")
        self.model = model
        self.register_buffer("rank_vectors", torch.as_tensor(rank_vectors, dtype=torch.float32))
        self.lambda_train, self.tau_low, self.tau_high, self.scale = (
            float(lambda_train),
            float(tau_low),
            float(tau_high),
            float(scale),
        )
        self.last: dict[str, float] = {}

    def forward(self, sentence_features: Iterable[dict[str, Tensor]], labels: Tensor) -> Tensor:
        features = list(sentence_features)
        anchors = self.model(features[0])["sentence_embedding"]
        positives = self.model(features[1])["sentence_embedding"] if len(features) > 1 else anchors
        return self.compute(anchors, positives, labels)

    def compute(self, anchors: Tensor, positives: Tensor, labels: Tensor) -> Tensor:
        """The loss from embeddings (the part that does not run the model; tested on its own)."""
        a = nn.functional.normalize(anchors, dim=-1)
        p = nn.functional.normalize(positives, dim=-1)
        logits = self.scale * a @ p.T
        l_cl = nn.functional.cross_entropy(logits, torch.arange(len(a), device=a.device))
        u = self.rank_vectors[labels.long().to(self.rank_vectors.device)].to(a.device)
        rank_sim = u @ u.T
        l_r = rank_loss(rank_sim, a @ a.T, pair_mask(rank_sim, self.tau_low, self.tau_high))
        total = torch.maximum(self.lambda_train * l_r, l_cl)
        self.last = {
            "l_cl": float(l_cl.detach()),
            "l_r": float(l_r.detach()),
            "l_total": float(total.detach()),
            "pairs": int(pair_mask(rank_sim, self.tau_low, self.tau_high).sum()),
        }
        return total

    @property
    def citation(self) -> str:
        return "@inproceedings{seonwoo2023rankencoder, title={Ranking-Enhanced Unsupervised Sentence Representation Learning}, author={Seonwoo, Yeon and others}, booktitle={ACL}, year={2023}}"
