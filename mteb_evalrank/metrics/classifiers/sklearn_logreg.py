"""SentEval's ``usepytorch=False`` classifier: scikit-learn's ``LogisticRegression(C=C, random_state=seed)``.

One fit per (stream, value), on the stream's training rows; its held-out accuracy is ``clf.score`` on
the stream's dev rows.  Grids: C in ``2**-2 … 2**3`` (inner k-fold, split) and ``2**-1 … 2**5``
(k-fold then test), as SentEval's classes use them.  Non-converged fits are kept as notes, not printed.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from mteb_evalrank.metrics.classifiers.base import Backend, Fitted


class _Parts:
    """The feature parts as given (each keeps its dtype); rows index their concatenation."""

    def __init__(self, Xs: Sequence[np.ndarray], ys: Sequence[np.ndarray]) -> None:
        self.Xs = list(Xs)
        self.y = np.concatenate(ys)
        self.starts = np.cumsum([0] + [len(x) for x in Xs])

    def X(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        part = np.searchsorted(self.starts, rows, side="right") - 1
        if part.size and np.all(part == part[0]):  # the usual case: rows of one part, in its own dtype
            return self.Xs[part[0]][rows - self.starts[part[0]]]
        return np.concatenate(self.Xs)[rows]


class _SklearnFitted(Fitted):
    def __init__(self, data: _Parts, models: list[list], dev: np.ndarray, notes: list[str]) -> None:
        self.data, self.models, self.dev, self.notes = data, models, dev, notes

    def dev_accuracy(self) -> np.ndarray:
        return self.dev

    def predict(self, rows: np.ndarray, s: int, r: int) -> np.ndarray:
        return self.models[s][r].predict(self.data.X(rows))


def _fit_one(X: np.ndarray, y: np.ndarray, C: float, seed: int, notes: list[str]):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    clf = LogisticRegression(C=C, random_state=seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        clf.fit(X, y)
    if any(issubclass(w.category, ConvergenceWarning) for w in caught):
        notes.append(f"LogisticRegression(C={C}) did not converge in {clf.max_iter} iterations")
    return clf


class SklearnLogReg(Backend):
    """scikit-learn's ``LogisticRegression`` with its defaults (lbfgs, ``max_iter=100``)."""

    name = "sklearn"
    reg_name = "C"

    @classmethod
    def from_protocol(cls, protocol) -> SklearnLogReg:
        return cls()

    def reg_grid(self, scheme: str) -> list[float]:
        if scheme == "kfold-then-test":
            return [2**t for t in range(-1, 6, 1)]
        return [2**t for t in range(-2, 4, 1)]

    def data(self, Xs, ys) -> _Parts:
        return _Parts(Xs, ys)

    def fit(self, data: _Parts, streams, regs, n_classes: int, seed: int) -> _SklearnFitted:
        notes: list[str] = []
        models: list[list] = []
        dev = np.full((len(streams), len(regs[0]) if len(regs) else 0), np.nan)
        for s, (train, held_out) in enumerate(streams):
            X, y = data.X(train), data.y[np.asarray(train, dtype=np.int64)]
            models.append([])
            for r, C in enumerate(regs[s]):
                clf = _fit_one(X, y, C, seed, notes)
                models[s].append(clf)
                if held_out is not None:
                    dev[s, r] = clf.score(data.X(held_out), data.y[np.asarray(held_out, dtype=np.int64)])
        return _SklearnFitted(data, models, dev, notes)


__all__ = ["SklearnLogReg"]
