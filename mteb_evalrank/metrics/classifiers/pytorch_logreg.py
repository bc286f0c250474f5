"""SentEval's ``usepytorch=True`` classifier, batched: ``nn.Linear(d, C)`` + cross-entropy + RMSprop.

SentEval's "prototyping" settings (``nhid=0``, ``optim='rmsprop'``, ``batch_size=128``,
``tenacity=3``, ``epoch_size=2``, ``max_epoch=200``) with its seeding and early stopping; the
settings come from the :class:`~mteb_evalrank.metrics.classification.Protocol`.  All ``S x R``
classifiers of one :meth:`PytorchLogReg.fit` train together as one batched float32 model (see
*Deviations* 1 in :mod:`mteb_evalrank.metrics.classification`).  Weight-decay grid ``1e-5 … 1e-2``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.classifiers.base import Backend, Fitted


@dataclass(frozen=True)
class _Settings:
    """The protocol's training settings this back end reads (``Protocol`` fields of the same names)."""

    batch_size: int = 128
    tenacity: int = 3
    epoch_size: int = 2
    max_epoch: int = 200
    lr: float = 0.01
    alpha: float = 0.99
    eps: float = 1e-8
    validation_split: float = 0.05


class _Stage(Fitted):
    """The best models of one batched training stage (see :func:`_train_pytorch`)."""

    def __init__(self, Xt, W, best_correct, n_dev, epochs, best_epoch, R, C):
        self.Xt = Xt  # the stacked data the rows index
        self.notes: list[str] = []
        self.W = W  # (S, d + 1, R*C): best weights (last row: bias) per stream, reg blocks of C columns
        self.best_correct = best_correct  # (S, R) int
        self.n_dev = n_dev  # (S,) int
        self.epochs = epochs  # (S, R) passes trained when stopped
        self.best_epoch = best_epoch  # (S, R)
        self.R, self.C = R, C

    def dev_accuracy(self) -> np.ndarray:
        return self.best_correct / self.n_dev[:, None]

    def details(self, s: int, r: int) -> dict[str, Any]:
        """``epochs``: passes over the data before early stopping ended training; ``best_epoch``: the
        pass count of the kept model."""
        return {"epochs": int(self.epochs[s, r]), "best_epoch": int(self.best_epoch[s, r])}

    def predict(self, rows: np.ndarray, s: int, r: int) -> np.ndarray:
        import torch

        Xt = self.Xt

        C = self.C
        W = self.W[s, :, r * C : (r + 1) * C]
        out = np.empty(len(rows), dtype=np.int64)
        step = 65536
        with torch.no_grad():
            for i in range(0, len(rows), step):
                idx = torch.from_numpy(np.ascontiguousarray(rows[i : i + step]))
                out[i : i + step] = torch.mm(Xt.index_select(0, idx), W).argmax(1).numpy()
        return out


@dataclass
class _Weights:
    """The weights ``W`` (A, d+1, RC), RMSprop's running squares ``vW`` and the weight decay ``wd`` (A, 1, RC) of
    every (stream, reg) model being trained."""

    W: Any
    vW: Any
    wd: Any

    def select(self, sel: Any) -> _Weights:
        """The weights of the streams ``sel`` (a torch index), as copies."""
        return _Weights(*(t.index_select(0, sel) for t in (self.W, self.vW, self.wd)))


@dataclass
class _Progress:
    """Early stopping of ``S x R`` models: best dev count, failures since, stopped, passes, pass of the best."""

    best_correct: np.ndarray
    count: np.ndarray
    stopped: np.ndarray
    epochs: np.ndarray
    best_epoch: np.ndarray

    @classmethod
    def start(cls, S: int, R: int) -> _Progress:
        """No model trained yet."""
        zeros = lambda dtype: np.zeros((S, R), dtype=dtype)
        return cls(np.full((S, R), -1, dtype=np.int64), zeros(np.int64), zeros(bool), zeros(np.int64), zeros(np.int64))

    def update(self, correct: np.ndarray, active: np.ndarray, nepoch: int, W: Any, bestW: Any, C: int, tenacity: int):
        """After ``nepoch`` passes: keep each better model's weights in ``bestW``, count the others against
        ``tenacity`` (SentEval's early stopping)."""
        for a, s in enumerate(active.tolist()):
            for r in range(correct.shape[1]):
                if self.stopped[s, r]:
                    continue
                self.epochs[s, r] = nepoch
                if correct[a, r] > self.best_correct[s, r]:
                    self.best_correct[s, r] = correct[a, r]
                    self.best_epoch[s, r] = nepoch
                    cols = slice(r * C, (r + 1) * C)
                    bestW[s, :, cols] = W[a, :, cols]
                else:
                    if self.count[s, r] >= tenacity:
                        self.stopped[s, r] = True
                    self.count[s, r] += 1


def _split_streams(streams, rngs, proto: _Settings) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each stream's training and dev rows; a stream without dev rows gives SentEval's validation split."""
    train_rows: list[np.ndarray] = []
    dev_rows: list[np.ndarray] = []
    for s, (tr, dv) in enumerate(streams):
        tr = np.asarray(tr, dtype=np.int64)
        if dv is None:  # PyTorchClassifier.prepare_split(validation_split=0.05)
            perm = rngs[s].permutation(len(tr))
            k = int(proto.validation_split * len(tr))
            dv, tr = tr[perm[:k]], tr[perm[k:]]
        train_rows.append(tr)
        dev_rows.append(np.asarray(dv, dtype=np.int64))
    return train_rows, dev_rows


def _train_pytorch(Xt, yt, streams, wd: np.ndarray, n_classes: int, proto: _Settings, seed: int) -> _Stage:
    """Train ``S x R`` SentEval logistic regressions at once.

    ``streams[s] = (train_rows, dev_rows)`` are row indices into ``Xt``/``yt``; ``dev_rows=None``
    means SentEval's ``validation_split``.  All ``R`` classifiers of a stream share its data and its
    permutations (each SentEval classifier re-seeds numpy with ``seed``) and differ only in weight
    decay ``wd[s, r]``.  ``Xt`` carries a last column of ones, so the bias is the last row of ``W``
    (torch's weight decay and RMSprop treat weight and bias element-wise alike, so this is exact).
    """
    import torch

    S, R = wd.shape
    C = n_classes
    d = Xt.shape[1] - 1
    with torch.no_grad():
        with torch.random.fork_rng(devices=[]):  # the caller's RNG state is left untouched
            torch.random.default_generator.manual_seed(seed)  # = torch.manual_seed(seed) on the CPU
            layer = torch.nn.Linear(d, C)  # SentEval: nn.Sequential(nn.Linear(inputdim, nclasses))
        W0 = torch.cat([layer.weight.detach().t(), layer.bias.detach()[None, :]]).to(torch.float32)  # (d+1, C)
        W = W0.repeat(1, R).unsqueeze(0).repeat(S, 1, 1).contiguous()  # (S, d+1, RC)
        wd_t = torch.from_numpy(np.repeat(wd.astype(np.float32), C, axis=1)).unsqueeze(1)  # (S, 1, RC)
        w = _Weights(W, torch.zeros_like(W), wd_t)
        bestW = W.clone()

    rngs = [np.random.RandomState(seed) for _ in range(S)]
    train_rows, dev_rows = _split_streams(streams, rngs, proto)
    n_dev = np.array([len(dv) for dv in dev_rows], dtype=np.int64)
    progress = _Progress.start(S, R)
    active = np.arange(S)
    nepoch = 0
    with torch.no_grad():
        while active.size and nepoch <= proto.max_epoch:
            # tensors of the active streams (views are replaced when streams finish)
            for _ in range(proto.epoch_size):
                _one_pass(Xt, yt, [train_rows[s] for s in active], [rngs[s] for s in active], w, R, C, proto)
            nepoch += proto.epoch_size
            correct = _count_correct(Xt, yt, [dev_rows[s] for s in active], w.W, R, C)  # (A, R)
            progress.update(correct, active, nepoch, w.W, bestW, C, proto.tenacity)
            keep = np.array([not progress.stopped[s].all() for s in active], dtype=bool)
            if not keep.all():
                sel = torch.from_numpy(np.flatnonzero(keep))
                active = active[keep]
                w = _Weights(*(t.index_select(0, sel).contiguous() for t in (w.W, w.vW, w.wd)))
    return _Stage(Xt, bestW, progress.best_correct, n_dev, progress.epochs, progress.best_epoch, R, C)


def _one_pass(Xt, yt, rows, rngs, w: _Weights, R: int, C: int, proto: _Settings) -> None:
    """One pass over each stream's training rows in SentEval's mini-batches, updating in place."""
    import torch

    B = proto.batch_size
    A = len(rows)
    sizes = np.array([len(r) for r in rows], dtype=np.int64)
    n_steps = int(-(-sizes.max() // B))
    idx = np.zeros((A, n_steps * B), dtype=np.int64)
    for a in range(A):
        idx[a, : sizes[a]] = rows[a][rngs[a].permutation(sizes[a])]
    idx_t = torch.from_numpy(idx)
    for t in range(n_steps):
        cnt = np.clip(sizes - t * B, 0, B)
        if cnt.min() == B:  # every stream has a full batch (the common case)
            _step(Xt, yt, idx_t[:, t * B : (t + 1) * B], None, w, R, C, proto)
            continue
        sel_np = np.flatnonzero(cnt > 0)
        mask = torch.from_numpy((np.arange(B)[None, :] < cnt[sel_np, None]).astype(np.float32))
        scale = mask / torch.from_numpy(cnt[sel_np].astype(np.float32))[:, None]  # (A', B)
        if sel_np.size == A:
            _step(Xt, yt, idx_t[:, t * B : (t + 1) * B], scale, w, R, C, proto)
            continue
        sel = torch.from_numpy(sel_np)
        part = w.select(sel)
        _step(Xt, yt, idx_t[sel, t * B : (t + 1) * B], scale, part, R, C, proto)
        w.W.index_copy_(0, sel, part.W)
        w.vW.index_copy_(0, sel, part.vW)


def _step(Xt, yt, idx, scale, w: _Weights, R: int, C: int, proto: _Settings) -> None:
    """One RMSprop step of mean cross-entropy + weight decay for every (stream, reg) model.

    Gradient of the batch-mean cross-entropy of softmax(x W) w.r.t. W: x^T (softmax - onehot) / |b|.
    """
    import torch

    B, W, vW = proto.batch_size, w.W, w.vW
    A = idx.shape[0]
    flat = idx.reshape(-1)
    xb = Xt.index_select(0, flat).view(A, B, -1)  # (A, B, d+1)
    G = torch.bmm(xb, W).view(A, B, R, C).softmax(dim=-1)  # (A, B, R, C)
    onehot = torch.nn.functional.one_hot(yt.index_select(0, flat), C).view(A, B, 1, C)
    G.sub_(onehot)
    if scale is None:
        G.mul_(1.0 / B)
    else:
        G.mul_(scale.view(A, B, 1, 1))  # mask padding, mean over the real rows
    gW = torch.bmm(xb.transpose(1, 2), G.view(A, B, R * C))  # (A, d+1, RC)
    gW.add_(W * w.wd)  # torch: grad = grad.add(param, alpha=weight_decay)
    vW.mul_(proto.alpha).addcmul_(gW, gW, value=1 - proto.alpha)
    W.addcdiv_(gW, vW.sqrt().add_(proto.eps), value=-proto.lr)


def _count_correct(Xt, yt, rows, W, R, C, max_floats: int = 1 << 24) -> np.ndarray:
    """Correct predictions of every (stream, reg) model on its stream's validation rows: ``(A, R)``."""
    import torch

    A = len(rows)
    d = Xt.shape[1]  # features + the ones column
    out = np.zeros((A, R), dtype=np.int64)
    sizes = np.array([len(r) for r in rows])
    chunk = max(1, int(max_floats // max(1, sizes.max() * d)))
    for lo in range(0, A, chunk):
        hi = min(A, lo + chunk)
        m = int(sizes[lo:hi].max())
        idx = np.zeros((hi - lo, m), dtype=np.int64)
        valid = np.zeros((hi - lo, m), dtype=bool)
        for a in range(lo, hi):
            idx[a - lo, : sizes[a]] = rows[a]
            valid[a - lo, : sizes[a]] = True
        flat = torch.from_numpy(idx.reshape(-1))
        xd = Xt.index_select(0, flat).view(hi - lo, m, d)
        yd = yt.index_select(0, flat).view(hi - lo, m, 1)
        pred = torch.bmm(xd, W[lo:hi]).view(hi - lo, m, R, C).argmax(-1)
        ok = (pred == yd) & torch.from_numpy(valid).unsqueeze(-1)
        out[lo:hi] = ok.sum(1).numpy()
    return out


def _torch_data(*Xs: np.ndarray, ys: Sequence[np.ndarray]):
    """All rows stacked as float32 (SentEval: ``torch.from_numpy(X).to(dtype=torch.float32)``), plus a
    column of ones that carries the bias."""
    import torch

    n = sum(len(x) for x in Xs)
    X = np.empty((n, Xs[0].shape[1] + 1), dtype=np.float32)
    lo = 0
    for x in Xs:
        X[lo : lo + len(x), :-1] = x
        lo += len(x)
    X[:, -1] = 1.0
    y = np.concatenate(ys).astype(np.int64)
    return torch.from_numpy(X), torch.from_numpy(y)


class PytorchLogReg(Backend):
    """SentEval's PyTorch logistic regression, all classifiers of a stage trained as one batched model."""

    name = "pytorch"
    reg_name = "l2reg"

    def __init__(self, settings: _Settings | None = None) -> None:
        self.settings = settings or _Settings()

    @classmethod
    def check_protocol(cls, protocol) -> None:
        if protocol.optim != "rmsprop":
            raise InputError(f"protocol {protocol.name!r}: only SentEval's 'rmsprop' optimiser is implemented")

    @classmethod
    def from_protocol(cls, protocol) -> PytorchLogReg:
        return cls(_Settings(**{f: getattr(protocol, f) for f in _Settings.__dataclass_fields__}))

    def reg_grid(self, scheme: str) -> list[float]:
        return [10**t for t in range(-5, -1)]

    def check_train_size(self, n_train: int, what: str) -> None:
        split = self.settings.validation_split
        if int(split * n_train) < 1:
            need = math.ceil(1 / split)
            raise InputError(
                f"{what}: {n_train} training rows are too few for SentEval's {split:.0%} "
                f"validation split (need at least {need})"
            )

    def data(self, Xs, ys):
        return _torch_data(*Xs, ys=ys)

    def fit(self, data, streams, regs, n_classes: int, seed: int) -> _Stage:
        Xt, yt = data
        wd = np.asarray(regs, dtype=np.float64).reshape(len(streams), -1)
        return _train_pytorch(Xt, yt, streams, wd, n_classes, self.settings, seed)


__all__ = ["PytorchLogReg"]
