"""The interface every SentEval classifier back end implements (pure: arrays in, arrays out).

SentEval's three schemes (:mod:`mteb_evalrank.metrics.classification`) differ only in *which* rows
train and validate a classifier and how the regularisation value is then chosen; the classifier itself
is pluggable, as in MTEB's own classification evaluator.  A back end:

* prepares the data once (:meth:`Backend.data`: the feature parts, e.g. train / dev / test, stacked;
  rows are indices into that stack),
* fits a grid of models in one call (:meth:`Backend.fit`): ``S`` *streams* — ``(train_rows,
  dev_rows)``, where ``dev_rows=None`` means "no held-out rows given" (the PyTorch back end then draws
  SentEval's 5 % validation split for early stopping) — times ``R`` regularisation values
  (``regs[s][r]``), and
* returns a :class:`Fitted` stage: the held-out accuracy of every ``(stream, value)`` model
  (:meth:`Fitted.dev_accuracy`, the input of parameter selection: :func:`select`) and
  :meth:`Fitted.predict` with any of them.

A back end also names its regularisation (``reg_name``), its grid per scheme (:meth:`Backend.reg_grid`)
and any training-size requirement (:meth:`Backend.check_train_size`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np


class Fitted(ABC):
    """The ``S x R`` models of one :meth:`Backend.fit` call."""

    #: messages about the fits (e.g. non-converged solvers), one per fit, in fit order
    notes: list[str]

    @abstractmethod
    def dev_accuracy(self) -> np.ndarray:
        """``(S, R)`` accuracy of each model on its stream's held-out rows (NaN where there were none)."""

    @abstractmethod
    def predict(self, rows: np.ndarray, s: int, r: int) -> np.ndarray:
        """Class indices (``0 … C-1``) predicted for ``rows`` by the model of stream ``s``, value ``r``."""

    def details(self, s: int, r: int) -> dict[str, Any]:
        """Back-end specific facts about one model for the result dict (e.g. training passes)."""
        return {}


class Backend(ABC):
    """One way of training SentEval's logistic regression (see the module docstring)."""

    #: the value of ``Protocol.backend`` that selects this back end
    name: ClassVar[str]
    #: what the regularisation value is called in results (``"l2reg"``, ``"C"``)
    reg_name: ClassVar[str]

    @classmethod
    def check_protocol(cls, protocol: Any) -> None:
        """Raise :class:`~mteb_evalrank.errors.InputError` if ``protocol`` asks for something unsupported."""

    @classmethod
    @abstractmethod
    def from_protocol(cls, protocol: Any) -> Backend:
        """The back end configured by a :class:`~mteb_evalrank.metrics.classification.Protocol`."""

    @abstractmethod
    def reg_grid(self, scheme: str) -> list[float]:
        """SentEval's regularisation grid for ``scheme`` (``inner-kfold``, ``kfold-then-test``, ``split``)."""

    def check_train_size(self, n_train: int, what: str) -> None:
        """Raise :class:`~mteb_evalrank.errors.InputError` if ``n_train`` rows are too few to fit."""

    @abstractmethod
    def data(self, Xs: Sequence[np.ndarray], ys: Sequence[np.ndarray]) -> Any:
        """The feature parts ``Xs`` (same width) and their class indices ``ys``, ready for :meth:`fit`."""

    @abstractmethod
    def fit(
        self,
        data: Any,
        streams: Sequence[tuple[np.ndarray, np.ndarray | None]],
        regs: Sequence[Sequence[float]],
        n_classes: int,
        seed: int,
    ) -> Fitted:
        """Fit one model per stream ``s`` and value ``regs[s][r]`` (every stream has the same count)."""


def select(scores: Sequence[float]) -> int:
    """SentEval's parameter selection: the index of the *first* maximum of the (rounded) scores."""
    return int(np.argmax(scores))


__all__ = ["Backend", "Fitted", "select"]
