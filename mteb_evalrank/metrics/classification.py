"""SentEval's downstream classification protocol as pure functions over feature arrays.

EvalRank (Wang et al., ACL 2022, §5.1 and §6.1, Tables 3 and 6) judges intrinsic scores by how well
they predict *downstream* accuracy: a logistic regression trained on frozen embeddings, evaluated
with SentEval (Conneau & Kiela, "SentEval: An Evaluation Toolkit for Universal Sentence
Representations", LREC 2018).  This module reproduces that classifier protocol on numpy arrays; the
tasks (text loading, encoding) live elsewhere.

Public API
----------
``evaluate_kfold_inner(X, y)``                               MR, CR, SUBJ, MPQA
``evaluate_kfold_then_test(X_train, y_train, X_test, y_test, with_f1=...)``  TREC, MRPC (F1)
``evaluate_split(X_train, y_train, X_dev, y_dev, X_test, y_test)``          SST2, SST5, SICK-E, SciCite
``pair_features(u, v)``             MRPC / SICK-E features ``[|u - v|, u * v]``
``senteval_sort_order(texts, labels, texts_b=None)``  the row order SentEval encodes and folds in
``stratified_folds(y, kfold, random_state)``          the folds SentEval uses
``get_protocol(name)``, ``PROTOCOLS``, ``reg_grid(protocol, scheme)``

The classifier is pluggable: a :class:`Protocol` names a back end (``backend=``), one module each in
:mod:`mteb_evalrank.metrics.classifiers` (``pytorch_logreg``, ``sklearn_logreg``) behind the small
interface of :mod:`mteb_evalrank.metrics.classifiers.base` (prepare the data, ``fit`` a grid of
regularisation values over several train / held-out streams at once, ``predict``; the schemes here
choose the value, SentEval's first maximum).  This module holds only the schemes, which are the same
for every back end.

Every ``evaluate_*`` takes ``protocol=`` (``"senteval-prototyping"``, the default, or
``"senteval-sklearn"``), ``kfold=None`` (the protocol's 5) and ``seed=1111``, and returns a plain dict:

* ``acc``: test accuracy as a fraction in [0, 1] (MTEB convention; the main score).  For the
  inner k-fold scheme, the mean of the outer folds' test accuracies.
* ``devacc``: the model-selection accuracy (fraction) at the chosen regularisation: mean inner-fold
  accuracy (inner k-fold; averaged over outer folds), mean k-fold accuracy on train (k-fold then
  test), accuracy on dev (split).
* ``f1`` (``evaluate_kfold_then_test(..., with_f1=True)``, MRPC): test F1 of the positive class.
* ``ndev``, ``ntest``: as SentEval reports them (inner k-fold: both are the number of samples;
  k-fold then test: train size and test size; split: dev size and test size).
* ``senteval``: SentEval's own result dict for the same run: ``devacc``, ``acc`` (and ``f1``) in
  percent, rounded to two decimals exactly where SentEval rounds, plus ``ndev``/``ntest`` — the
  values a SentEval JSON holds, directly comparable with imported SentEval results.
* bookkeeping: ``protocol``, ``scheme``, ``reg_name`` (``"l2reg"``: torch weight decay;
  ``"C"``: scikit-learn's inverse regularisation), ``reg_grid``, ``reg`` (the chosen value; for
  the inner k-fold scheme ``reg`` is the list of one value per outer fold), ``dev_scores``
  (per-regularisation selection scores in SentEval's rounded percent, per outer fold for inner
  k-fold), ``fold_devacc``/``fold_acc`` (inner k-fold, fractions), ``kfold``, ``seed``,
  ``n_classes``, ``classes``, ``n_features``, ``n_train``, ``epochs`` (pytorch: passes over the data
  of each final model before early stopping ended it; ``best_epoch``: the pass count of the kept
  model), ``warnings`` (list of strings; e.g. scikit-learn fits that did not converge).

The protocols (SentEval ``senteval/tools/validation.py`` and ``classifier.py``, commit 5d6dc11)
--------------------------------------------------------------------------------------------------
``senteval-prototyping`` — SentEval's ``usepytorch=True`` with the "prototyping" classifier settings
the EvalRank toolkit uses (``kfold=5``, ``{'nhid': 0, 'optim': 'rmsprop', 'batch_size': 128,
'tenacity': 3, 'epoch_size': 2}``): a linear layer ``nn.Linear(d, C)`` (multinomial logistic
regression) trained with cross-entropy by ``torch.optim.RMSprop`` (lr 0.01, alpha 0.99, eps 1e-8,
``weight_decay = l2reg`` on weight *and* bias), mini-batches of 128 drawn by
``np.random.permutation`` per pass; after every ``epoch_size = 2`` passes the accuracy on the
validation data is measured; the best model so far (strictly better accuracy) is kept; every
non-improvement increments a counter that is never reset, and training stops at the first
non-improvement once the counter has reached ``tenacity = 3`` (so after the 4th non-improvement) or
when the pass count exceeds ``max_epoch = 200`` (at most 101 evaluations, 202 passes).  The model kept
is the best one.  L2 grid ``[10**t for t in range(-5, -1)]`` = 1e-5, 1e-4, 1e-3, 1e-2.
Each classifier is seeded as SentEval seeds it: ``np.random.seed(seed)``, ``torch.manual_seed(seed)``
just before the layer is created (``seed = 1111``), so every classifier starts from the same
weights and, for the same training-set size, sees the same permutations.  Validation data: the
held-out fold / the dev set during model selection; for the final fits of the two k-fold schemes,
``validation_split=0.05``: the first ``int(0.05 * n)`` rows of a ``np.random.permutation(n)`` drawn
right after seeding are the validation rows, the rest is trained on.

``senteval-sklearn`` — SentEval's ``usepytorch=False``: ``LogisticRegression(C=C,
random_state=seed)`` with scikit-learn's defaults, C grid ``[2**t for t in range(-2, 4)]``
(0.25 … 8) for the inner k-fold and split schemes and ``[2**t for t in range(-1, 6)]`` (0.5 … 32)
for the k-fold-then-test scheme (that is what SentEval's ``KFoldClassifier`` uses; the issue text
and DESIGN.md say 2^-2 … 2^3 for all).

No feature standardisation or normalisation anywhere: SentEval feeds the raw embeddings to both
classifiers, and so does this module.

The three schemes (selection scores are ``round(100 * mean accuracy, 2)`` and the *first* maximum
wins, i.e. the smallest regularisation value among rounded ties — exactly SentEval's ``np.argmax``):

* inner k-fold (``InnerKFoldClassifier``; MR, CR, SUBJ, MPQA): outer
  ``StratifiedKFold(kfold, shuffle=True, random_state=1111)`` on all samples; within each outer
  training part an inner ``StratifiedKFold(kfold, shuffle=True, random_state=1111)`` picks the
  regularisation (mean inner held-out accuracy); a classifier with that value is trained on the whole
  outer training part (pytorch: with the 5 % validation split) and scored on the outer test fold.
  SentEval: ``devacc = round(mean(per-fold best rounded inner score), 2)``, ``acc =
  round(mean(round(100 * fold test acc, 2)), 2)``.  Both fold generators use 1111 whatever the seed.
* k-fold then test (``KFoldClassifier``; TREC, MRPC): ``StratifiedKFold(kfold, shuffle=True,
  random_state=seed)`` on train picks the regularisation, then one classifier on all of train (pytorch:
  5 % validation split) is scored on test.  MRPC's F1 is ``sklearn.metrics.f1_score(y_test, yhat)``
  (positive class = the larger label, 1 for MRPC), reported in percent rounded to 2 by SentEval.
* split (``SplitClassifier``; SST2, SST5, SICK-E, SciCite): one classifier per value trained on train,
  early-stopped (pytorch) and selected on dev; the chosen one is scored on test.

Deviations from running SentEval's code (and why)
-------------------------------------------------
1. **Batched training.**  SentEval trains each (fold, value) classifier in its own Python loop.  Here
   all classifiers of one stage train together as one batched float32 model on the CPU: classifiers
   that share a training set (the four L2 values) share each mini-batch, classifiers on different
   folds are stacked along a batch dimension, and the softmax-cross-entropy gradient
   ``X_b^T (softmax(X_b W + b) - Y_b) / |b|`` and the RMSprop update are written out, element-wise
   identical in mathematics to ``nn.CrossEntropyLoss`` (mean) + ``loss.backward()`` +
   ``RMSprop.step()``.  Initial weights come from ``nn.Linear`` itself under ``torch.manual_seed``
   and the permutations from ``np.random.RandomState(seed)``, so the *sequence* of computations is
   SentEval's.  Bit-identity is not achievable: the batched matrix products sum in a different order,
   so weights differ from SentEval's in the last float32 bits, and an early-stopping comparison (integer
   counts of correct validation predictions) can occasionally flip, changing a score by a fraction of a
   point.  SentEval itself runs on CUDA, whose kernels are not bit-reproducible across GPUs either.
2. **Loss reduction.**  SentEval sets ``loss_fn.size_average = False`` after constructing
   ``nn.CrossEntropyLoss()``.  Since PyTorch 0.4.1 that attribute is ignored (the reduction is fixed at
   construction), so every SentEval run on PyTorch >= 0.4.1 — including the EvalRank toolkit's, on
   PyTorch 1.x — averages the loss over the batch.  This module averages too.  (On PyTorch <= 0.4.0
   SentEval summed, which with RMSprop makes the weight decay relatively 128 times weaker.)
3. **Split scheme retraining.**  SentEval retrains the chosen value from scratch with the same seed,
   data and validation set; that run is deterministic and identical to the selection run, so the
   selection run's model is reused.
4. **Row order.**  SentEval sorts every split by (token count, label) — pairs by (token count of A,
   token count of B, label) — before encoding, and its folds are drawn over that order.  The
   functions here fold the rows in the order given; pass them in :func:`senteval_sort_order` order to
   get SentEval's folds.
5. **scikit-learn version.**  ``senteval-sklearn`` uses ``LogisticRegression`` with the installed
   scikit-learn's defaults, which is what SentEval's code does today (lbfgs, multinomial,
   ``max_iter=100``).  Before scikit-learn 0.22 the default was liblinear one-vs-rest, so SentEval runs
   from 2018 differ.  Non-converged fits are counted in ``warnings``, not printed.
6. **Labels.**  Any sortable labels are accepted and mapped to ``0 … C-1`` in sorted order; ``C`` is
   the number of distinct labels over all label arrays passed (SentEval fixes ``nclasses`` per task;
   the same whenever every class occurs).
7. **Bad input is refused** where SentEval would crash, warn or print a chance score, with
   :class:`~mteb_evalrank.errors.InputError`: mismatched lengths or widths, non-2-D features,
   NaN/inf, a single class, ``kfold`` larger than the smallest class of any set that is split
   (scikit-learn only warns), a training set too small for the 5 % validation split, unknown
   protocol.  **Constant features** (all training rows identical, e.g. a model that returns one
   vector for every text) raise as well rather than return a result: any classifier then predicts a
   single class, and its accuracy would only be the class prior.
8. ``acc``/``devacc``/``f1`` are unrounded fractions; SentEval's rounded percentages are kept under
   ``senteval``.

Speed: every stage is one batched model, so the Python loop runs once per mini-batch step and not
once per classifier; see ``benchmarks/senteval_classifier_speed.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.classifiers import BACKENDS, Backend, select

SENTEVAL_SEED = 1111
DEFAULT_PROTOCOL = "senteval-prototyping"

#: SentEval's ``InnerKFoldClassifier`` / ``KFoldClassifier`` / ``SplitClassifier``
SCHEMES = ("inner-kfold", "kfold-then-test", "split")
#: result key of the per-item outcome (``per_item=True``): ``{"correct": bool per test item, "fold": the outer
#: fold of each item (inner k-fold) or None}``; the rest of the result is the same with or without it
PER_ITEM = "per_item"


@dataclass(frozen=True)
class Protocol:
    """One named SentEval classifier setting (see the module docstring).

    The two named protocols are in :data:`PROTOCOLS`; a custom instance may change ``kfold``,
    ``batch_size``, ``tenacity``, ``epoch_size``, ``max_epoch`` or the RMSprop constants (the
    classifier is always SentEval's ``nhid=0`` logistic regression, optimised with RMSprop).
    """

    name: str
    backend: str  # "pytorch" or "sklearn"
    kfold: int = 5
    # pytorch (SentEval MLP with nhid=0) settings; ignored by the sklearn backend
    optim: str = "rmsprop"
    batch_size: int = 128
    tenacity: int = 3
    epoch_size: int = 2
    max_epoch: int = 200
    lr: float = 0.01  # torch.optim.RMSprop defaults
    alpha: float = 0.99
    eps: float = 1e-8
    validation_split: float = 0.05

    @property
    def reg_name(self) -> str:
        return BACKENDS[self.backend].reg_name


PROTOCOLS: dict[str, Protocol] = {
    "senteval-prototyping": Protocol("senteval-prototyping", "pytorch"),
    "senteval-sklearn": Protocol("senteval-sklearn", "sklearn"),
}


def get_protocol(protocol: str | Protocol) -> Protocol:
    """The :class:`Protocol` called ``protocol`` (a :class:`Protocol` is returned as is)."""
    if isinstance(protocol, Protocol):
        if protocol.backend not in BACKENDS:
            raise InputError(
                f"protocol {protocol.name!r}: backend must be {' or '.join(map(repr, BACKENDS))}, "
                f"got {protocol.backend!r}"
            )
        BACKENDS[protocol.backend].check_protocol(protocol)
        return protocol
    if isinstance(protocol, str) and protocol in PROTOCOLS:
        return PROTOCOLS[protocol]
    raise InputError(f"unknown classifier protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")


def reg_grid(protocol: str | Protocol, scheme: str) -> list[float]:
    """SentEval's regularisation grid for ``protocol`` and ``scheme`` (one of :data:`SCHEMES`)."""
    proto = get_protocol(protocol)
    if scheme not in SCHEMES:
        raise InputError(f"unknown scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")
    return _backend(proto).reg_grid(scheme)


# --------------------------------------------------------------------------------------- features


def pair_features(u: Any, v: Any) -> np.ndarray:
    """SentEval's sentence-pair features for MRPC and SICK-E: ``np.c_[|u - v|, u * v]``.

    ``u`` and ``v`` are ``(n, d)`` embeddings of the first and second sentences; the result is
    ``(n, 2d)`` with the absolute difference in the first ``d`` columns and the element-wise product in
    the last ``d`` (``senteval/mrpc.py`` and ``senteval/sick.py`` build both tasks' features this way).
    The dtype follows numpy's promotion of the inputs.
    """
    a = np.asarray(u)
    b = np.asarray(v)
    if a.ndim != 2 or b.ndim != 2:
        raise InputError(f"pair_features needs two 2-D arrays, got shapes {a.shape} and {b.shape}")
    if a.shape != b.shape:
        raise InputError(f"pair_features: the two embedding arrays differ in shape: {a.shape} vs {b.shape}")
    if not (np.issubdtype(a.dtype, np.number) and np.issubdtype(b.dtype, np.number)):
        raise InputError("pair_features needs numeric arrays")
    return np.concatenate([np.abs(a - b), a * b], axis=1)


def senteval_sort_order(
    texts: Sequence[str], labels: Sequence[Any], texts_b: Sequence[str] | None = None
) -> np.ndarray:
    """Indices that put one split in SentEval's row order.

    SentEval sorts each split before encoding (to reduce padding) with Python's stable ``sorted`` on
    ``(len(tokens), label)`` for single sentences and ``(len(tokens_a), len(tokens_b), label)`` for
    pairs (MRPC, SICK-E), tokens being ``text.split()`` of the text as SentEval reads it; its folds are
    then drawn over that order.  ``X[order]``, ``y[order]`` reproduce it.
    """
    n = len(texts)
    if len(labels) != n or (texts_b is not None and len(texts_b) != n):
        raise InputError("senteval_sort_order: texts, labels (and texts_b) must have the same length")
    lens_a = [len(str(t).split()) for t in texts]
    keys: list[tuple[Any, ...]]
    if texts_b is None:
        keys = [(lens_a[i], labels[i]) for i in range(n)]
    else:
        lens_b = [len(str(t).split()) for t in texts_b]
        keys = [(lens_a[i], lens_b[i], labels[i]) for i in range(n)]
    return np.array(sorted(range(n), key=keys.__getitem__), dtype=np.int64)


def stratified_folds(y: Any, kfold: int = 5, random_state: int = SENTEVAL_SEED) -> list[tuple[np.ndarray, np.ndarray]]:
    """SentEval's folds: ``StratifiedKFold(n_splits=kfold, shuffle=True, random_state).split(y, y)``.

    Returns ``[(train_idx, test_idx), ...]``.  Raises :class:`InputError` if ``kfold`` exceeds the size
    of the smallest class (scikit-learn would only warn) or is below 2.
    """
    from sklearn.model_selection import StratifiedKFold

    y = np.asarray(y)
    _check_kfold(kfold, y, "labels")
    skf = StratifiedKFold(n_splits=kfold, shuffle=True, random_state=random_state)
    return [(tr, te) for tr, te in skf.split(np.zeros((len(y), 1)), y)]


# ------------------------------------------------------------------------------------- validation


def _features(name: str, X: Any) -> np.ndarray:
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists etc.
        raise InputError(f"{name}: not an array of features ({exc})") from None
    if arr.ndim != 2:
        raise InputError(f"{name}: features must be a 2-D array (n_samples, n_features), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"{name}: empty feature array of shape {arr.shape}")
    if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
        raise InputError(f"{name}: features must be numeric, got dtype {arr.dtype}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.count_nonzero(~np.all(np.isfinite(arr), axis=1)))
        raise InputError(f"{name}: {bad} of {arr.shape[0]} rows contain NaN or inf values")
    return arr


def _labels(name: str, y: Any, n: int) -> np.ndarray:
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise InputError(f"{name}: labels must be a 1-D array, got shape {arr.shape}")
    if arr.shape[0] != n:
        raise InputError(f"{name}: {arr.shape[0]} labels for {n} feature rows")
    return arr


def _check_not_constant(name: str, X: np.ndarray) -> None:
    if X.shape[0] > 1 and np.all(X[0] == X):
        raise InputError(
            f"{name}: all {X.shape[0]} feature rows are identical (constant embeddings); a classifier "
            "could only predict the majority class, so no downstream score is reported"
        )


def _check_kfold(kfold: Any, y: np.ndarray, what: str) -> None:
    if isinstance(kfold, bool) or not isinstance(kfold, (int, np.integer)) or kfold < 2:
        raise InputError(f"kfold must be an integer >= 2, got {kfold!r}")
    _, counts = np.unique(y, return_counts=True)
    if counts.min() < kfold:
        raise InputError(
            f"kfold={kfold} is larger than the smallest class of the {what} ({int(counts.min())} samples); "
            "use a smaller kfold or more data"
        )


def _check_classes(name: str, y: np.ndarray) -> None:
    if np.unique(y).size < 2:
        raise InputError(f"{name}: a single class ({y[0]!r}) in the labels; classification needs at least two")


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def _encode_labels(*ys: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    try:
        classes = np.unique(np.concatenate(ys))
    except TypeError:
        raise InputError("labels must be mutually comparable (all numbers or all strings)") from None
    return classes, [np.searchsorted(classes, y).astype(np.int64) for y in ys]


def _round2(x: float | np.floating) -> float:
    """SentEval's ``round(v, 2)`` on a numpy float."""
    return float(np.round(np.float64(x), 2))


# ------------------------------------------------------------------------------------- back ends


def _backend(proto: Protocol) -> Backend:
    """The classifier back end (:mod:`mteb_evalrank.metrics.classifiers`) that ``proto`` names."""
    return BACKENDS[proto.backend].from_protocol(proto)


def _accuracy(yhat: np.ndarray, y: np.ndarray) -> float:
    """Share of correct predictions (what scikit-learn's ``clf.score`` computes, bit for bit)."""
    return float(np.mean(yhat == y))


def _summarise_notes(notes: list[str]) -> list[str]:
    out = []
    for note in dict.fromkeys(notes):
        k = notes.count(note)
        out.append(f"{note} ({k} fit{'s' if k > 1 else ''})")
    return out


# -------------------------------------------------------------------------------------- schemes


def _base_result(proto: Protocol, scheme: str, grid, kfold, seed, classes, n_features) -> dict[str, Any]:
    return {
        "protocol": proto.name,
        "scheme": scheme,
        "reg_name": proto.reg_name,
        "reg_grid": [float(g) for g in grid],
        "kfold": kfold,
        "seed": seed,
        "n_classes": int(len(classes)),
        "classes": [c.item() if hasattr(c, "item") else c for c in classes],
        "n_features": int(n_features),
    }


def evaluate_kfold_inner(
    X: Any,
    y: Any,
    *,
    protocol: str | Protocol = DEFAULT_PROTOCOL,
    kfold: int | None = None,
    seed: int = SENTEVAL_SEED,
    per_item: bool = False,
) -> dict[str, Any]:
    """SentEval's ``InnerKFoldClassifier`` (MR, CR, SUBJ, MPQA): nested stratified k-fold.

    Outer ``StratifiedKFold(kfold, shuffle=True, random_state=1111)`` over all rows; within each outer
    training part, an inner stratified k-fold (same seed) picks the regularisation by mean held-out
    accuracy (rounded to 0.01 %, first maximum); a classifier with that value is trained on the outer
    training part (pytorch: early stopping on a seeded 5 % validation split) and scored on the outer
    test fold.  ``acc`` = mean outer test accuracy, ``devacc`` = mean over outer folds of the chosen
    inner score; ``ndev = ntest = n``.  EvalRank §5.1/§6.1 (MR, CR, SUBJ, MPQA columns); Conneau &
    Kiela (2018).  See the module docstring for the returned keys and the deviations from SentEval.
    """
    proto = get_protocol(protocol)
    backend = _backend(proto)
    seed = _check_seed(seed)
    k = proto.kfold if kfold is None else kfold
    X = _features("X", X)
    y = _labels("y", y, X.shape[0])
    _check_classes("y", y)
    _check_kfold(k, y, "data")
    _check_not_constant("X", X)
    classes, (yi,) = _encode_labels(y)
    n = len(yi)
    outer = stratified_folds(yi, k, SENTEVAL_SEED)
    inner = []
    for o, (tr, _) in enumerate(outer):
        _check_kfold(k, yi[tr], f"training part of outer fold {o + 1}")
        inner.append(stratified_folds(yi[tr], k, SENTEVAL_SEED))
        backend.check_train_size(len(tr), f"outer fold {o + 1}")
    grid = reg_grid(proto, "inner-kfold")
    G = len(grid)
    inner_acc = np.zeros((k, k, G))  # outer fold, inner fold, reg
    test_acc = np.zeros(k)
    chosen: list[float] = []
    notes: list[str] = []
    result = _base_result(proto, "inner-kfold", grid, k, seed, classes, X.shape[1])

    data = backend.data([X], [yi])
    streams = [(tr[itr], tr[ite]) for o, (tr, _) in enumerate(outer) for itr, ite in inner[o]]
    stage = backend.fit(data, streams, [grid] * len(streams), len(classes), seed)
    notes += stage.notes
    inner_acc[:] = stage.dev_accuracy().reshape(k, k, G)

    scores = [[_round2(100 * np.mean(inner_acc[o, :, g])) for g in range(G)] for o in range(k)]
    best = [select(s) for s in scores]
    chosen = [grid[g] for g in best]
    fold_dev = [float(np.mean(inner_acc[o, :, best[o]])) for o in range(k)]

    final = backend.fit(data, [(tr, None) for tr, _ in outer], [[c] for c in chosen], len(classes), seed)
    notes += final.notes
    correct, fold = np.zeros(n, dtype=bool), np.zeros(n, dtype=np.int64)
    for o, (_, te) in enumerate(outer):
        yhat = final.predict(te, o, 0)
        test_acc[o] = _accuracy(yhat, yi[te])
        correct[te], fold[te] = yhat == yi[te], o
    details = [final.details(o, 0) for o in range(k)]

    se_dev = _round2(np.mean([max(s) for s in scores]))
    se_acc = _round2(np.mean([round(100 * float(a), 2) for a in test_acc]))
    result.update(
        acc=float(np.mean(test_acc)),
        devacc=float(np.mean(fold_dev)),
        ndev=n,
        ntest=n,
        reg=[float(c) for c in chosen],
        dev_scores=scores,
        fold_devacc=fold_dev,
        fold_acc=[float(a) for a in test_acc],
        n_train=n,
        senteval={"devacc": se_dev, "acc": se_acc, "ndev": n, "ntest": n},
        warnings=_summarise_notes(notes),
    )
    result.update({key: [d[key] for d in details] for key in details[0]})  # per outer fold
    if per_item:
        result[PER_ITEM] = {"correct": correct, "fold": fold}
    return result


def evaluate_kfold_then_test(
    X_train: Any,
    y_train: Any,
    X_test: Any,
    y_test: Any,
    *,
    protocol: str | Protocol = DEFAULT_PROTOCOL,
    kfold: int | None = None,
    seed: int = SENTEVAL_SEED,
    with_f1: bool = False,
    per_item: bool = False,
) -> dict[str, Any]:
    """SentEval's ``KFoldClassifier`` (TREC, MRPC): k-fold model selection on train, then test.

    ``StratifiedKFold(kfold, shuffle=True, random_state=seed)`` over the training rows picks the
    regularisation by mean held-out accuracy (rounded to 0.01 %, first maximum); one classifier with
    that value is trained on all training rows (pytorch: early stopping on a seeded 5 % validation
    split) and scored on test.  ``devacc`` = the chosen k-fold accuracy, ``ndev`` = train size,
    ``ntest`` = test size; ``with_f1=True`` (MRPC) adds ``f1`` = F1 of the positive class (the larger
    of two labels) on test, as SentEval's ``f1_score(testY, yhat)``.  EvalRank §5.1 (TREC, MRPC);
    Conneau & Kiela (2018).  See the module docstring for the keys and the deviations.
    """
    proto = get_protocol(protocol)
    backend = _backend(proto)
    seed = _check_seed(seed)
    k = proto.kfold if kfold is None else kfold
    Xtr = _features("X_train", X_train)
    Xte = _features("X_test", X_test)
    if Xte.shape[1] != Xtr.shape[1]:
        raise InputError(f"X_test has {Xte.shape[1]} features but X_train has {Xtr.shape[1]}")
    ytr = _labels("y_train", y_train, Xtr.shape[0])
    yte = _labels("y_test", y_test, Xte.shape[0])
    _check_classes("y_train", ytr)
    _check_kfold(k, ytr, "training data")
    _check_not_constant("X_train", Xtr)
    backend.check_train_size(Xtr.shape[0], "X_train")
    classes, (yi_tr, yi_te) = _encode_labels(ytr, yte)
    if with_f1 and len(classes) != 2:
        raise InputError(f"with_f1 needs binary labels, got {len(classes)} classes")
    folds = stratified_folds(yi_tr, k, seed)
    grid = reg_grid(proto, "kfold-then-test")
    G = len(grid)
    fold_acc = np.zeros((k, G))
    notes: list[str] = []
    result = _base_result(proto, "kfold-then-test", grid, k, seed, classes, Xtr.shape[1])
    ntr = Xtr.shape[0]

    data = backend.data([Xtr, Xte], [yi_tr, yi_te])
    stage = backend.fit(data, [(tr, te) for tr, te in folds], [grid] * k, len(classes), seed)
    notes += stage.notes
    fold_acc[:] = stage.dev_accuracy()

    scores = [_round2(100 * np.mean(fold_acc[:, g])) for g in range(G)]
    g_best = select(scores)
    C_best = grid[g_best]
    final = backend.fit(data, [(np.arange(ntr), None)], [[C_best]], len(classes), seed)
    notes += final.notes
    yhat = final.predict(np.arange(ntr, ntr + Xte.shape[0]), 0, 0)
    result.update(final.details(0, 0))
    acc = _accuracy(yhat, yi_te)
    se = {"devacc": scores[g_best], "acc": round(100 * acc, 2), "ndev": ntr, "ntest": int(Xte.shape[0])}
    result.update(
        acc=acc,
        devacc=float(np.mean(fold_acc[:, g_best])),
        ndev=ntr,
        ntest=int(Xte.shape[0]),
        reg=float(C_best),
        dev_scores=scores,
        n_train=ntr,
        senteval=se,
        warnings=_summarise_notes(notes),
    )
    if with_f1:
        from sklearn.metrics import f1_score

        f1 = float(f1_score(yi_te, yhat, pos_label=1, average="binary", zero_division=0.0))
        result["f1"] = f1
        se["f1"] = round(100 * f1, 2)
    if per_item:
        result[PER_ITEM] = {"correct": yhat == yi_te, "fold": None}
    return result


def evaluate_split(
    X_train: Any,
    y_train: Any,
    X_dev: Any,
    y_dev: Any,
    X_test: Any,
    y_test: Any,
    *,
    protocol: str | Protocol = DEFAULT_PROTOCOL,
    seed: int = SENTEVAL_SEED,
    per_item: bool = False,
) -> dict[str, Any]:
    """SentEval's ``SplitClassifier`` (SST2, SST5, SICK-E, SciCite): train / dev / test.

    One classifier per regularisation value is trained on train (pytorch: early-stopped on dev) and
    scored on dev; the value with the best dev accuracy (rounded to 0.01 %, first maximum) is scored
    on test.  ``devacc`` = its dev accuracy, ``ndev``/``ntest`` = dev/test sizes.  EvalRank §5.1/§6.1;
    Conneau & Kiela (2018).  See the module docstring for the keys and the deviations.
    """
    proto = get_protocol(protocol)
    backend = _backend(proto)
    seed = _check_seed(seed)
    Xtr = _features("X_train", X_train)
    Xdv = _features("X_dev", X_dev)
    Xte = _features("X_test", X_test)
    for name, arr in (("X_dev", Xdv), ("X_test", Xte)):
        if arr.shape[1] != Xtr.shape[1]:
            raise InputError(f"{name} has {arr.shape[1]} features but X_train has {Xtr.shape[1]}")
    ytr = _labels("y_train", y_train, Xtr.shape[0])
    ydv = _labels("y_dev", y_dev, Xdv.shape[0])
    yte = _labels("y_test", y_test, Xte.shape[0])
    _check_classes("y_train", ytr)
    _check_not_constant("X_train", Xtr)
    classes, (yi_tr, yi_dv, yi_te) = _encode_labels(ytr, ydv, yte)
    grid = reg_grid(proto, "split")
    ntr, ndv, nte = Xtr.shape[0], Xdv.shape[0], Xte.shape[0]
    notes: list[str] = []
    result = _base_result(proto, "split", grid, None, seed, classes, Xtr.shape[1])
    del result["kfold"]

    data = backend.data([Xtr, Xdv, Xte], [yi_tr, yi_dv, yi_te])
    stage = backend.fit(data, [(np.arange(ntr), np.arange(ntr, ntr + ndv))], [grid], len(classes), seed)
    notes += stage.notes
    dev_acc = stage.dev_accuracy()[0]
    scores = [round(100 * float(a), 2) for a in dev_acc]
    g_best = select(scores)
    yhat = stage.predict(np.arange(ntr + ndv, ntr + ndv + nte), 0, g_best)
    result.update(stage.details(0, g_best))
    acc = _accuracy(yhat, yi_te)
    result.update(
        acc=acc,
        devacc=float(dev_acc[g_best]),
        ndev=ndv,
        ntest=nte,
        reg=float(grid[g_best]),
        dev_scores=scores,
        n_train=ntr,
        senteval={"devacc": scores[g_best], "acc": round(100 * acc, 2), "ndev": ndv, "ntest": nte},
        warnings=_summarise_notes(notes),
    )
    if per_item:
        result[PER_ITEM] = {"correct": yhat == yi_te, "fold": None}
    return result


__all__ = [
    "DEFAULT_PROTOCOL",
    "PER_ITEM",
    "PROTOCOLS",
    "SCHEMES",
    "SENTEVAL_SEED",
    "Protocol",
    "evaluate_kfold_inner",
    "evaluate_kfold_then_test",
    "evaluate_split",
    "get_protocol",
    "pair_features",
    "reg_grid",
    "senteval_sort_order",
    "stratified_folds",
]
