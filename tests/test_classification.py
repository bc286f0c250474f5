"""SentEval's downstream classifier protocol (mteb_evalrank.metrics.classification): fast, offline.

- both protocols x three schemes on a separable set (accuracy ~ 1) and a random one (~ chance);
- the folds are scikit-learn's StratifiedKFold(shuffle=True, random_state=1111);
- the scikit-learn protocol end to end against a direct transcription of SentEval's loops;
- the batched PyTorch trainer against a one-classifier-at-a-time SentEval-style training loop
  (nn.Linear + CrossEntropyLoss + RMSprop + SentEval's early stopping), same seeds;
- pair features and SentEval's row order by hand; every bad input -> one-line InputError.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics import classification as clf
from mteb_evalrank.metrics.classifiers import Backend, Fitted, PytorchLogReg

PROTOS = list(clf.PROTOCOLS)


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Tiny problems: threads only add overhead (and stall on a busy machine); restored afterwards."""
    import sklearn.linear_model  # noqa: F401  (load scipy's BLAS before limiting it)
    import torch
    from threadpoolctl import threadpool_limits

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    with threadpool_limits(limits=1):
        yield
    torch.set_num_threads(before)


def separable(n: int, d: int = 8, n_classes: int = 2, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    rng.shuffle(y)
    centres = 6.0 * np.eye(n_classes, d)
    X = (centres[y] + 0.5 * rng.standard_normal((n, d))).astype(np.float32)
    return X, y


def noise(n: int, d: int = 8, n_classes: int = 2, seed: int = 1):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    rng.shuffle(y)
    return rng.standard_normal((n, d)).astype(np.float32), y


def run(scheme: str, data, protocol: str):
    if scheme == "inner":
        X, y = data(300)
        return clf.evaluate_kfold_inner(X, y, protocol=protocol)
    if scheme == "kfold":
        X, y = data(400)
        return clf.evaluate_kfold_then_test(X[:250], y[:250], X[250:], y[250:], protocol=protocol, with_f1=True)
    X, y = data(400)
    return clf.evaluate_split(X[:200], y[:200], X[200:300], y[200:300], X[300:], y[300:], protocol=protocol)


# --------------------------------------------------------------------------- accuracy sanity


@pytest.mark.parametrize("protocol", PROTOS)
@pytest.mark.parametrize("scheme", ["inner", "kfold", "split"])
def test_separable_is_near_perfect(scheme, protocol):
    res = run(scheme, separable, protocol)
    assert res["acc"] >= 0.97 and res["devacc"] >= 0.97
    assert res["protocol"] == protocol
    assert 0.0 <= res["acc"] <= 1.0
    assert res["senteval"]["acc"] == pytest.approx(100 * res["acc"], abs=0.006)
    if scheme == "kfold":
        assert res["f1"] >= 0.97


@pytest.mark.parametrize("protocol", PROTOS)
@pytest.mark.parametrize("scheme", ["inner", "kfold", "split"])
def test_random_is_near_chance(scheme, protocol):
    res = run(scheme, noise, protocol)
    assert abs(res["acc"] - 0.5) < 0.15, res["acc"]


def test_multiclass_split_and_bookkeeping():
    X, y = separable(450, d=10, n_classes=3)
    res = clf.evaluate_split(X[:300], y[:300], X[300:375], y[300:375], X[375:], y[375:])
    assert res["acc"] >= 0.97
    assert res["n_classes"] == 3 and res["classes"] == [0, 1, 2]
    assert res["ndev"] == 75 and res["ntest"] == 75 and res["n_train"] == 300
    assert res["reg_name"] == "l2reg" and res["reg_grid"] == [1e-05, 1e-04, 1e-03, 1e-02]
    assert res["reg"] in res["reg_grid"] and len(res["dev_scores"]) == 4
    assert 2 <= res["best_epoch"] <= res["epochs"] <= 202
    assert set(res["senteval"]) == {"devacc", "acc", "ndev", "ntest"}


def test_string_labels_and_reporting_conventions():
    X, y = separable(300)
    names = np.where(y == 1, "pos", "neg")
    res = clf.evaluate_kfold_inner(X, names)
    assert res["classes"] == ["neg", "pos"]
    assert res["ndev"] == res["ntest"] == 300
    assert len(res["reg"]) == 5 and len(res["fold_acc"]) == 5 and len(res["dev_scores"]) == 5
    assert res["acc"] == pytest.approx(np.mean(res["fold_acc"]))


def test_grids_follow_senteval():
    assert clf.reg_grid("senteval-prototyping", "split") == [10**t for t in range(-5, -1)]
    assert clf.reg_grid("senteval-sklearn", "inner-kfold") == [0.25, 0.5, 1, 2, 4, 8]
    assert clf.reg_grid("senteval-sklearn", "split") == [0.25, 0.5, 1, 2, 4, 8]
    assert clf.reg_grid("senteval-sklearn", "kfold-then-test") == [0.5, 1, 2, 4, 8, 16, 32]


def test_pure_and_deterministic():
    import torch

    X, y = noise(200)
    np.random.seed(7)
    torch.manual_seed(7)
    np_state = np.random.get_state()[1].copy()
    torch_state = torch.get_rng_state().clone()
    a = clf.evaluate_split(X[:120], y[:120], X[120:160], y[120:160], X[160:], y[160:])
    b = clf.evaluate_split(X[:120], y[:120], X[120:160], y[120:160], X[160:], y[160:])
    assert a == b
    assert np.array_equal(np.random.get_state()[1], np_state)
    assert torch.equal(torch.get_rng_state(), torch_state)


# --------------------------------------------------------------------------- folds and SentEval


def test_folds_equal_sklearn_stratified_kfold():
    from sklearn.model_selection import StratifiedKFold

    y = np.array([0] * 23 + [1] * 17 + [2] * 11)
    ours = clf.stratified_folds(y, 5)
    ref = list(StratifiedKFold(n_splits=5, shuffle=True, random_state=1111).split(np.zeros((len(y), 1)), y))
    assert len(ours) == 5
    for (a, b), (c, d) in zip(ours, ref):
        assert np.array_equal(a, c) and np.array_equal(b, d)


def _sk_reference_inner(X, y, k=5, seed=1111):
    """SentEval's InnerKFoldClassifier with usepytorch=False, transcribed loop for loop."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    regs = [2**t for t in range(-2, 4, 1)]
    skf = StratifiedKFold(n_splits=k, shuffle=True, random_state=1111)
    innerskf = StratifiedKFold(n_splits=k, shuffle=True, random_state=1111)
    dev, test, chosen = [], [], []
    for tr, te in skf.split(X, y):
        scores = []
        for reg in regs:
            r = []
            for itr, ite in innerskf.split(X[tr], y[tr]):
                m = LogisticRegression(C=reg, random_state=seed).fit(X[tr][itr], y[tr][itr])
                r.append(m.score(X[tr][ite], y[tr][ite]))
            scores.append(round(100 * np.mean(r), 2))
        chosen.append(regs[np.argmax(scores)])
        dev.append(np.max(scores))
        m = LogisticRegression(C=chosen[-1], random_state=seed).fit(X[tr], y[tr])
        test.append(round(100 * m.score(X[te], y[te]), 2))
    return round(np.mean(dev), 2), round(np.mean(test), 2), chosen


def _sk_reference_kfold(Xtr, ytr, Xte, yte, k=5, seed=1111):
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    regs = [2**t for t in range(-1, 6, 1)]
    skf = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    scores = []
    for reg in regs:
        s = [
            LogisticRegression(C=reg, random_state=seed).fit(Xtr[a], ytr[a]).score(Xtr[b], ytr[b])
            for a, b in skf.split(Xtr, ytr)
        ]
        scores.append(round(100 * np.mean(s), 2))
    reg = regs[np.argmax(scores)]
    m = LogisticRegression(C=reg, random_state=seed).fit(Xtr, ytr)
    return np.max(scores), round(100 * m.score(Xte, yte), 2), reg


def test_sklearn_protocol_matches_senteval_loops():
    X, y = noise(120, d=6)
    X[:, 0] += 0.8 * y  # learnable but not trivial, so the C choice matters
    dev, acc, chosen = _sk_reference_inner(X, y, k=3)
    res = clf.evaluate_kfold_inner(X, y, protocol="senteval-sklearn", kfold=3)
    assert res["senteval"]["devacc"] == dev and res["senteval"]["acc"] == acc
    assert res["reg"] == chosen and res["reg_name"] == "C"

    dev, acc, reg = _sk_reference_kfold(X[:80], y[:80], X[80:], y[80:], k=3)
    res = clf.evaluate_kfold_then_test(X[:80], y[:80], X[80:], y[80:], protocol="senteval-sklearn", kfold=3)
    assert (res["senteval"]["devacc"], res["senteval"]["acc"], res["reg"]) == (dev, acc, reg)


def _senteval_style_fit(X, y, n_classes, l2reg, dev=None, seed=1111, batch_size=128, tenacity=3, epoch_size=2):
    """One SentEval PyTorchClassifier/MLP(nhid=0) fit, one classifier at a time, with autograd."""
    import torch

    rs = np.random.RandomState(seed)  # SentEval: np.random.seed(seed) in the constructor
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = torch.nn.Linear(X.shape[1], n_classes)
    opt = torch.optim.RMSprop(model.parameters(), weight_decay=l2reg)
    loss_fn = torch.nn.CrossEntropyLoss()
    Xt, yt = torch.from_numpy(X), torch.from_numpy(y)
    if dev is None:  # validation_split=0.05
        perm = rs.permutation(len(X))
        k = int(0.05 * len(X))
        dev_idx, tr_idx = perm[:k], perm[k:]
    else:
        tr_idx, dev_idx = dev
    Xtr, ytr, Xdv, ydv = Xt[tr_idx], yt[tr_idx], Xt[dev_idx], yt[dev_idx]
    nepoch, best, count, stop, best_model = 0, -1.0, 0, False, None
    while not stop and nepoch <= 200:
        for _ in range(epoch_size):
            perm = rs.permutation(len(Xtr))
            for i in range(0, len(Xtr), batch_size):
                idx = torch.from_numpy(perm[i : i + batch_size])
                loss = loss_fn(model(Xtr[idx]), ytr[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
        nepoch += epoch_size
        with torch.no_grad():
            acc = int((model(Xdv).argmax(1) == ydv).sum()) / len(ydv)
        if acc > best:
            best, best_model = acc, copy.deepcopy(model)
        else:
            if count >= tenacity:
                stop = True
            count += 1
    return best, nepoch, best_model


def test_batched_trainer_matches_one_at_a_time_senteval_loop():
    X, y = noise(420, d=7, n_classes=3, seed=5)
    X[:, 0] += 0.7 * y
    X[:, 1] -= 0.5 * (y == 1)
    backend = PytorchLogReg.from_protocol(clf.get_protocol("senteval-prototyping"))
    regs = [1e-5, 1e-2]
    # stream 0: 300 train rows (partial last batch), dev 120; stream 1: 5 % validation split of 397 rows
    streams = [(np.arange(300), np.arange(300, 420)), (np.arange(10, 407), None)]
    stage = backend.fit(backend.data([X], [y]), streams, [regs, regs], 3, 1111)
    for s, (tr, dv) in enumerate(streams):
        for r, reg in enumerate(regs):
            if dv is None:
                best, nepoch, model = _senteval_style_fit(X[tr], y[tr], 3, reg)
            else:
                rows = np.concatenate([tr, dv])
                split = (np.arange(len(tr)), np.arange(len(tr), len(rows)))
                best, nepoch, model = _senteval_style_fit(X[rows], y[rows], 3, reg, dev=split)
            assert stage.dev_accuracy()[s, r] == pytest.approx(best, abs=1e-12)
            assert stage.details(s, r)["epochs"] == nepoch
            W = stage.W[s, :, r * 3 : (r + 1) * 3].numpy()  # last row: bias
            np.testing.assert_allclose(W[:-1], model.weight.detach().numpy().T, atol=2e-5)
            np.testing.assert_allclose(W[-1], model.bias.detach().numpy(), atol=2e-5)


# --------------------------------------------------------------------------- features and order


def test_pair_features_by_hand():
    u = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]])
    v = np.array([[4.0, 1.0, 3.0], [-0.5, 2.0, 2.0]])
    expected = np.array([[3.0, 3.0, 0.0, 4.0, -2.0, 9.0], [1.0, 2.0, 3.0, -0.25, 0.0, -2.0]])
    assert np.array_equal(clf.pair_features(u, v), expected)
    with pytest.raises(InputError, match="differ in shape"):
        clf.pair_features(u, v[:, :2])


def test_senteval_sort_order_by_hand():
    texts = ["a b c", "x", "p q", "m n", "z"]
    labels = [0, 1, 1, 0, 0]
    # key (len, label), stable: "z"(1,0) "x"(1,1) "m n"(2,0) "p q"(2,1) "a b c"(3,0)
    assert clf.senteval_sort_order(texts, labels).tolist() == [4, 1, 3, 2, 0]
    b = ["u v", "u", "u", "u v w", "u"]
    # key (len a, len b, label): (1,1,1)=1 (1,1,0)=4 -> 4,1 ; (2,1,1)=2 (2,3,0)=3 ; (3,2,0)=0
    assert clf.senteval_sort_order(texts, labels, b).tolist() == [4, 1, 2, 3, 0]


# --------------------------------------------------------------------------- bad input


def one_line(exc_info) -> str:
    msg = str(exc_info.value)
    assert msg and "\n" not in msg
    return msg


@pytest.mark.parametrize("protocol", PROTOS)
def test_single_class(protocol):
    X, _ = noise(100)
    with pytest.raises(InputError) as e:
        clf.evaluate_kfold_inner(X, np.zeros(100, dtype=int), protocol=protocol)
    assert "single class" in one_line(e)
    with pytest.raises(InputError, match="single class"):
        clf.evaluate_split(X[:60], np.ones(60), X[60:80], np.arange(20) % 2, X[80:], np.arange(20) % 2)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_inf_features(bad):
    X, y = noise(100)
    X[3, 2] = bad
    with pytest.raises(InputError) as e:
        clf.evaluate_kfold_inner(X, y)
    assert "NaN or inf" in one_line(e)
    Xs, ys = noise(100)
    Xte = Xs[80:].copy()
    Xte[0, 0] = bad
    with pytest.raises(InputError, match="X_test.*NaN or inf"):
        clf.evaluate_kfold_then_test(Xs[:80], ys[:80], Xte, ys[80:])


@pytest.mark.parametrize("protocol", PROTOS)
def test_constant_features_refused(protocol):
    X = np.tile(np.array([[0.3, -1.0, 2.0]], dtype=np.float32), (100, 1))
    y = np.arange(100) % 2
    with pytest.raises(InputError) as e:
        clf.evaluate_kfold_inner(X, y, protocol=protocol)
    assert "identical" in one_line(e)
    with pytest.raises(InputError, match="identical"):
        clf.evaluate_split(X[:60], y[:60], X[60:80], y[60:80], X[80:], y[80:], protocol=protocol)
    with pytest.raises(InputError, match="identical"):
        clf.evaluate_kfold_then_test(X[:80], y[:80], X[80:], y[80:], protocol=protocol)


def test_kfold_larger_than_smallest_class():
    X, _ = noise(60)
    y = np.array([0] * 57 + [1] * 3)
    with pytest.raises(InputError) as e:
        clf.evaluate_kfold_inner(X, y)
    assert "kfold=5 is larger than the smallest class" in one_line(e)
    with pytest.raises(InputError, match="smallest class"):
        clf.evaluate_kfold_then_test(X[:50], np.array([0] * 46 + [1] * 4), X[50:], y[50:])
    # enough for the outer folds (5 members) but not inside an outer training part (4 members)
    with pytest.raises(InputError, match="training part of outer fold"):
        clf.evaluate_kfold_inner(X, np.array([0] * 55 + [1] * 5))
    with pytest.raises(InputError, match="kfold must be an integer"):
        clf.evaluate_kfold_inner(*noise(60), kfold=1)
    with pytest.raises(InputError, match="smallest class"):
        clf.stratified_folds(y, 5)


def test_mismatched_lengths_and_widths():
    X, y = noise(100)
    with pytest.raises(InputError) as e:
        clf.evaluate_kfold_inner(X, y[:-1])
    assert "99 labels for 100 feature rows" in one_line(e)
    with pytest.raises(InputError, match="X_test has 5 features but X_train has 8"):
        clf.evaluate_kfold_then_test(X[:80], y[:80], X[80:, :5], y[80:])
    with pytest.raises(InputError, match="X_dev has 5 features"):
        clf.evaluate_split(X[:60], y[:60], X[60:80, :5], y[60:80], X[80:], y[80:])
    with pytest.raises(InputError, match="y_test"):
        clf.evaluate_split(X[:60], y[:60], X[60:80], y[60:80], X[80:], y[81:])
    with pytest.raises(InputError, match="2-D"):
        clf.evaluate_kfold_inner(X[:, 0], y)


def test_unknown_protocol_and_other_options():
    X, y = noise(100)
    with pytest.raises(InputError) as e:
        clf.evaluate_kfold_inner(X, y, protocol="senteval-best")
    msg = one_line(e)
    assert "senteval-best" in msg and "senteval-prototyping" in msg and "senteval-sklearn" in msg
    with pytest.raises(InputError, match="binary"):
        Xm, ym = noise(120, n_classes=3)
        clf.evaluate_kfold_then_test(Xm[:90], ym[:90], Xm[90:], ym[90:], with_f1=True)
    with pytest.raises(InputError, match="too few"):
        clf.evaluate_kfold_then_test(X[:15], y[:15], X[80:], y[80:], kfold=2)


# ------------------------------------------------------------------------------ back-end interface


class _NearestCentroid(Backend):
    """A toy back end: class centroids of the training rows, shrunk towards zero by ``reg``."""

    name = "toy-centroid"
    reg_name = "shrink"

    @classmethod
    def from_protocol(cls, protocol):
        return cls()

    def reg_grid(self, scheme):
        return [0.0, 0.5, 0.99]

    def data(self, Xs, ys):
        return np.concatenate(Xs), np.concatenate(ys)

    def fit(self, data, streams, regs, n_classes, seed):
        X, y = data

        class Stage(Fitted):
            notes = [f"fit {len(streams)}x{len(regs[0])}"]

            def __init__(self):
                self.centroids = [
                    [(1 - r) * np.stack([X[tr][y[tr] == c].mean(0) for c in range(n_classes)]) for r in regs[s]]
                    for s, (tr, _) in enumerate(streams)
                ]
                self.dev = np.array(
                    [
                        [
                            np.nan if dv is None else np.mean(self.predict(dv, s, r) == y[dv])
                            for r in range(len(regs[s]))
                        ]
                        for s, (_, dv) in enumerate(streams)
                    ]
                )

            def dev_accuracy(self):
                return self.dev

            def predict(self, rows, s, r):
                d = ((X[rows][:, None, :] - self.centroids[s][r][None]) ** 2).sum(-1)
                return d.argmin(1)

            def details(self, s, r):
                return {"toy_stream": s}

        return Stage()


def test_a_new_backend_is_one_class(monkeypatch):
    """The three schemes run any :class:`Backend`: a toy nearest-centroid back end plugged in through
    ``BACKENDS`` is selected by a custom Protocol, its grid and notes reach the result, and separable
    data is classified (near) perfectly."""
    from mteb_evalrank.metrics import classifiers

    monkeypatch.setitem(classifiers.BACKENDS, "toy-centroid", _NearestCentroid)
    proto = clf.Protocol("toy", "toy-centroid")
    X, y = separable(300, n_classes=3)
    res = clf.evaluate_split(X[:200], y[:200], X[200:250], y[200:250], X[250:], y[250:], protocol=proto)
    assert res["reg_name"] == "shrink" and res["reg_grid"] == [0.0, 0.5, 0.99]
    assert res["acc"] > 0.95 and res["reg"] == res["reg_grid"][int(np.argmax(res["dev_scores"]))]
    assert res["toy_stream"] == 0 and res["warnings"] == ["fit 1x3 (1 fit)"]
    res = clf.evaluate_kfold_inner(X, y, protocol=proto, kfold=3)
    assert res["acc"] > 0.95 and res["toy_stream"] == [0, 1, 2]
    res = clf.evaluate_kfold_then_test(X[:200], y[:200], X[200:], y[200:], protocol=proto, kfold=3)
    assert res["acc"] > 0.95 and res["warnings"] == ["fit 3x3 (1 fit)", "fit 1x1 (1 fit)"]
    with pytest.raises(InputError, match="backend must be"):
        clf.get_protocol(clf.Protocol("bad", "no-such-backend"))
