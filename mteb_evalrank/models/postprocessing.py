"""Post-processing of embeddings, fitted once on a stated corpus: the zoo's transforms.

Each transform is a frozen dataclass with a ``fit`` classmethod (float64 statistics of a fitting
matrix) and ``transform`` (rows in, rows out, float32).  They are pure numpy: which corpus they are
fitted on is recorded by the zoo (:mod:`mteb_evalrank.zoo.variants`), not here.

- :class:`Whitening` — BERT-whitening (Su et al. 2021, §2, Eq. 4-7): ``x̃ = (x − μ) W`` with
  ``Σ = U Λ Uᵀ`` the covariance of the fitting vectors and ``W = U Λ^{-1/2}``; keeping the first
  ``k`` columns of ``W`` reduces the dimension (their "whitening-k").  The whitened fitting vectors
  have identity covariance.  Directions of zero variance (dead dimensions) are dropped.
- :class:`TopComponentRemoval` — "all-but-the-top" (ABTT, Mu & Viswanath 2018, Algorithm 1):
  ``ṽ = v − μ``, then ``v′ = ṽ − Σ_{i≤D} (u_iᵀ ṽ) u_i`` with ``u_i`` the top ``D`` principal
  directions of the centred fitting vectors (they suggest ``D ≈ d/100``).  With ``center=False``
  and ``D = 1`` it is SIF's common-component removal (Arora et al. 2017, Algorithm 1, line 5:
  ``v_s − u uᵀ v_s`` with ``u`` the first singular vector of the uncentred sentence matrix).
- :func:`sif_weights` — SIF word weights ``a / (a + p(w))`` (Arora et al. 2017, §3, Algorithm 1,
  line 2) with ``p(w)`` a unigram probability and ``a = 10⁻³`` by default.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mteb_evalrank.errors import InputError


def _fitting_matrix(x: np.ndarray, what: str, *, min_rows: int) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise InputError(f"{what}: fitting vectors must be a 2-D matrix, got shape {x.shape}.")
    if not np.isfinite(x).all():
        raise InputError(f"{what}: fitting vectors contain NaN or inf.")
    if x.shape[0] < min_rows:
        raise InputError(
            f"{what}: fitted on {x.shape[0]} vectors, needs at least {min_rows} "
            f"(dimension {x.shape[1]}); use a larger fitting corpus."
        )
    return x


def _rows(x: np.ndarray, dim: int, what: str) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or x.shape[1] != dim:
        raise InputError(f"{what}: expected vectors of dimension {dim}, got shape {x.shape}.")
    return x


@dataclass(frozen=True)
class Whitening:
    """BERT-whitening: ``transform(x) = (x − mean) @ kernel`` (Su et al. 2021, Eq. 7)."""

    mean: np.ndarray  # (d,)
    kernel: np.ndarray  # (d, k)

    @classmethod
    def fit(cls, x: np.ndarray, *, n_components: int | None = None) -> Whitening:
        """Fit on ``x`` (n, d); needs n > d so that the covariance can have full rank.

        ``n_components`` keeps the first k directions (largest variance).  The default keeps every
        direction with non-zero variance: the rank ``r`` of the covariance, with numpy's
        ``matrix_rank`` tolerance ``σ_max · d · ε``.  Dead (constant) dimensions, which some trained
        encoders have, cannot be whitened: dividing by their zero variance would blow up rounding
        noise, so the default drops them and ``dim`` is ``r``.
        """
        d = np.asarray(x).shape[-1] if np.asarray(x).ndim == 2 else 0
        x = _fitting_matrix(x, "whitening", min_rows=d + 1)
        mean = x.mean(axis=0)
        cov = np.cov(x - mean, rowvar=False, bias=True)
        u, s, _ = np.linalg.svd(cov)
        rank = int((s > s[0] * d * np.finfo(np.float64).eps).sum()) if s[0] > 0 else 0
        k = rank if n_components is None else int(n_components)
        if not 1 <= k <= d:
            raise InputError(f"whitening: n_components must be in 1..{d}, got {n_components}.")
        if k > rank:
            raise InputError(
                f"whitening: the fitting vectors span only a {rank}-dimensional space; cannot whiten {k} directions."
            )
        kernel = u[:, :k] / np.sqrt(s[:k])
        return cls(mean=mean, kernel=kernel)

    @property
    def dim(self) -> int:
        return int(self.kernel.shape[1])

    def transform(self, x: np.ndarray) -> np.ndarray:
        x = _rows(x, self.kernel.shape[0], "whitening")
        return ((x - self.mean) @ self.kernel).astype(np.float32)


@dataclass(frozen=True)
class TopComponentRemoval:
    """Remove the top principal directions: ABTT (centred) or SIF's common component (uncentred)."""

    mean: np.ndarray  # (d,) zeros when not centred
    components: np.ndarray  # (D, d), orthonormal rows

    @classmethod
    def fit(cls, x: np.ndarray, *, n_components: int, center: bool = True) -> TopComponentRemoval:
        """Fit the top ``n_components`` directions of ``x`` (centred first when ``center``)."""
        d = np.asarray(x).shape[-1] if np.asarray(x).ndim == 2 else 0
        what = "ABTT" if center else "common-component removal"
        n_components = int(n_components)
        if not 1 <= n_components < max(d, 2):
            raise InputError(f"{what}: n_components must be in 1..{max(d - 1, 1)}, got {n_components}.")
        x = _fitting_matrix(x, what, min_rows=n_components + 1)
        mean = x.mean(axis=0) if center else np.zeros(x.shape[1])
        _, _, vt = np.linalg.svd(x - mean, full_matrices=False)
        return cls(mean=mean, components=vt[:n_components])

    def transform(self, x: np.ndarray) -> np.ndarray:
        x = _rows(x, self.components.shape[1], "top-component removal") - self.mean
        return (x - (x @ self.components.T) @ self.components).astype(np.float32)


def sif_weights(probabilities: np.ndarray, *, a: float = 1e-3) -> np.ndarray:
    """SIF weights ``a / (a + p(w))`` for unigram probabilities ``p(w)`` (Arora et al. 2017, §3)."""
    p = np.asarray(probabilities, dtype=np.float64)
    if a <= 0:
        raise InputError(f"SIF: the smoothing parameter a must be > 0, got {a}.")
    if (p < 0).any() or not np.isfinite(p).all():
        raise InputError("SIF: word probabilities must be finite and ≥ 0.")
    return a / (a + p)
