"""Classifier time of SentEval's downstream protocol (mteb_evalrank.metrics.classification), per task.

Prints ``name=value`` lines, all measured in this one run, for each model (d = 50: GloVe 6B 50d bag of
words; d = 384: all-MiniLM-L6-v2):

- ``features`` = ``real`` (the ten SentEval tasks read from ``senteval_downstream/`` and encoded) or
  ``random`` (the real tasks' shapes and class counts, standard-normal features: no data or no model)
- ``<model>.encode_s``: encoding time of all unique texts (not part of the classifier time; cached in
  ``--cache-dir`` after the first run, then ``encode_cached=1``)
- ``<model>.<task>.classifier_s``: wall time of the classifier protocol of one task, and
  ``<model>.<task>.acc`` / ``.devacc`` (fractions) and ``.reg`` for checking
- ``<model>.classifier_total_s``: the ten tasks together (target: <= 120 s at d = 384)
- with ``--senteval-path DIR`` (a directory holding SentEval's ``senteval`` package, e.g. an extracted
  https://github.com/facebookresearch/SentEval checkout; never copied into this project): the same
  features through SentEval's own ``InnerKFoldClassifier`` / ``KFoldClassifier`` /
  ``SplitClassifier``, run on the CPU through small shims (``.cuda()`` becomes a no-op,
  ``inspect.getargspec`` is mapped to ``getfullargspec``): ``senteval.<model>.<task>.classifier_s``,
  ``.acc``/``.devacc`` (SentEval's percent), ``.same_result`` and ``senteval.<model>.speedup``
  (SentEval seconds / ours over the tasks run through both).

Tasks and schemes: MR, CR, SUBJ, MPQA (inner k-fold), TREC, MRPC (k-fold then test; MRPC on
``pair_features``), SST2, SST5, SICK-E (pair features), SciCite (train/dev/test).  Rows are put in
SentEval's order (``senteval_sort_order``) so that the folds are SentEval's.  Texts are read the way
SentEval's loaders read them (encoding, tokenisation by whitespace, SciCite's letters-only
lower-casing) and joined with single spaces for the encoder.

Usage: ``python benchmarks/senteval_classifier_speed.py [--models glove,minilm] [--protocol
senteval-prototyping] [--sources DIR] [--cache-dir DIR] [--random] [--senteval-path DIR
--senteval-tasks MR,TREC,...]``
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import sys
import time
import types
import warnings
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SOURCES = REPO.parent / "shared" / "data" / "sources" / "senteval_downstream"
MODELS = {"glove": ("glove-6b-50d", 50), "minilm": ("sentence-transformers/all-MiniLM-L6-v2", 384)}
TASKS = ["MR", "CR", "SUBJ", "MPQA", "TREC", "MRPC", "SST2", "SST5", "SICKE", "SciCite"]
SCHEME = {
    "MR": "inner",
    "CR": "inner",
    "SUBJ": "inner",
    "MPQA": "inner",
    "TREC": "kfold",
    "MRPC": "kfold",
    "SST2": "split",
    "SST5": "split",
    "SICKE": "split",
    "SciCite": "split",
}


# ------------------------------------------------------------------------------------ raw data


def _lines(path: Path, encoding: str) -> list[str]:
    with open(path, encoding=encoding) as f:
        return f.read().splitlines()


def _sorted(split: dict) -> dict:
    from mteb_evalrank.metrics.classification import senteval_sort_order

    order = senteval_sort_order(split["a"], split["y"], split.get("b"))
    return {k: [v[i] for i in order] for k, v in split.items()}


def load_tasks(src: Path) -> dict[str, dict[str, dict]]:
    """{task: {split: {"a": texts, ["b": texts,] "y": labels}}} in SentEval's row order."""
    tasks: dict[str, dict[str, dict]] = {}

    def tok(line: str) -> str:
        return " ".join(line.split())

    for name, folder, pos, neg in [
        ("MR", "MR", "rt-polarity.pos", "rt-polarity.neg"),
        ("CR", "CR", "custrev.pos", "custrev.neg"),
        ("SUBJ", "SUBJ", "subj.objective", "subj.subjective"),
        ("MPQA", "MPQA", "mpqa.pos", "mpqa.neg"),
    ]:
        p = [tok(s) for s in _lines(src / folder / pos, "latin-1")]
        n = [tok(s) for s in _lines(src / folder / neg, "latin-1")]
        tasks[name] = {"all": _sorted({"a": p + n, "y": [1] * len(p) + [0] * len(n)})}

    for name, sub, nclasses in [("SST2", "binary", 2), ("SST5", "fine", 5)]:
        splits = {}
        for split in ("train", "dev", "test"):
            a, y = [], []
            for line in _lines(src / "SST" / sub / f"sentiment-{split}", "utf-8"):
                if nclasses == 2:
                    s = line.strip().split("\t")
                    a.append(tok(s[0]))
                    y.append(int(s[1]))
                else:
                    s = line.strip().split(" ", 1)
                    a.append(tok(s[1]))
                    y.append(int(s[0]))
            splits[split] = _sorted({"a": a, "y": y})
        tasks[name] = splits

    tgt = {"ABBR": 0, "DESC": 1, "ENTY": 2, "HUM": 3, "LOC": 4, "NUM": 5}
    trec = {}
    for split, fname in (("train", "train_5500.label"), ("test", "TREC_10.label")):
        a, y = [], []
        for line in _lines(src / "TREC" / fname, "latin-1"):
            target, sample = line.strip().split(":", 1)
            a.append(tok(sample.split(" ", 1)[1]))
            y.append(tgt[target])
        trec[split] = _sorted({"a": a, "y": y})
    tasks["TREC"] = trec

    mrpc = {}
    for split in ("train", "test"):
        rows = [line.strip().split("\t") for line in _lines(src / "MRPC" / f"msr_paraphrase_{split}.txt", "utf-8")]
        rows = rows[1:]
        mrpc[split] = _sorted(
            {"a": [tok(r[3]) for r in rows], "b": [tok(r[4]) for r in rows], "y": [int(r[0]) for r in rows]}
        )
    tasks["MRPC"] = mrpc

    lab = {"CONTRADICTION": 0, "NEUTRAL": 1, "ENTAILMENT": 2}
    sick = {}
    for split, fname in (("train", "SICK_train.txt"), ("dev", "SICK_trial.txt"), ("test", "SICK_test_annotated.txt")):
        rows = [line.strip().split("\t") for line in _lines(src / "SICK" / fname, "utf-8")][1:]
        sick[split] = _sorted(
            {"a": [tok(r[1]) for r in rows], "b": [tok(r[2]) for r in rows], "y": [lab[r[4]] for r in rows]}
        )
    tasks["SICKE"] = sick

    sci_lab = {"background": 0, "method": 1, "result": 2}
    letters = set("abcdefghijklmnopqrstuvwxyz ")
    sci = {}
    for split in ("train", "dev", "test"):
        a, y = [], []
        for line in _lines(src / "SCICITE" / f"{split}.txt", "utf-8"):
            d = json.loads(line)
            a.append(tok("".join(ch for ch in d["text"].lower() if ch in letters)))
            y.append(sci_lab[d["label"]])
        sci[split] = _sorted({"a": a, "y": y})
    tasks["SciCite"] = sci
    return tasks


# ------------------------------------------------------------------------------------ features


def encode_all(model_key: str, tasks: dict, cache_dir: Path) -> tuple[dict[str, np.ndarray], float, bool]:
    """Unique texts -> embeddings, encoded once (cached as .npy keyed by model and texts)."""
    texts = sorted(
        {t for splits in tasks.values() for sp in splits.values() for k in ("a", "b") for t in sp.get(k, [])}
    )
    digest = hashlib.sha1("\n".join(texts).encode()).hexdigest()[:12]
    cache = cache_dir / f"{model_key}-{digest}.npy"
    if cache.exists():
        emb = np.load(cache)
        return dict(zip(texts, emb)), 0.0, True
    from mteb_evalrank.models import load_model

    spec, _ = MODELS[model_key]
    model = load_model(spec)
    t0 = time.perf_counter()
    if model_key == "glove":
        emb = np.asarray(model.encode(texts), dtype=np.float32)
    else:
        st = model.model  # the SentenceTransformer inside MTEB's wrapper
        emb = np.asarray(
            st.encode(texts, batch_size=128, convert_to_numpy=True, show_progress_bar=False), dtype=np.float32
        )
    seconds = time.perf_counter() - t0
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(cache, emb)
    return dict(zip(texts, emb)), seconds, False


def task_features(tasks: dict, table: dict[str, np.ndarray]) -> dict[str, dict[str, tuple[np.ndarray, np.ndarray]]]:
    from mteb_evalrank.metrics.classification import pair_features

    out = {}
    for name, splits in tasks.items():
        out[name] = {}
        for split, sp in splits.items():
            A = np.stack([table[t] for t in sp["a"]])
            X = pair_features(A, np.stack([table[t] for t in sp["b"]])) if "b" in sp else A
            out[name][split] = (X, np.asarray(sp["y"], dtype=np.int64))
    return out


def random_features(d: int, seed: int = 0) -> dict[str, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """The real tasks' shapes and class counts (SentEval's data), standard-normal features."""
    shapes = {
        "MR": {"all": (10662, 2)},
        "CR": {"all": (3775, 2)},
        "SUBJ": {"all": (10000, 2)},
        "MPQA": {"all": (10606, 2)},
        "TREC": {"train": (5452, 6), "test": (500, 6)},
        "MRPC": {"train": (4076, 2), "test": (1725, 2)},
        "SST2": {"train": (67349, 2), "dev": (872, 2), "test": (1821, 2)},
        "SST5": {"train": (8544, 5), "dev": (1101, 5), "test": (2210, 5)},
        "SICKE": {"train": (4500, 3), "dev": (500, 3), "test": (4927, 3)},
        "SciCite": {"train": (7320, 3), "dev": (916, 3), "test": (1861, 3)},
    }
    rng = np.random.default_rng(seed)
    out = {}
    for name, splits in shapes.items():
        width = 2 * d if name in ("MRPC", "SICKE") else d
        out[name] = {
            s: (rng.standard_normal((n, width), dtype=np.float32), rng.integers(0, c, n))
            for s, (n, c) in splits.items()
        }
    return out


# ------------------------------------------------------------------------------------ running


def run_ours(name: str, feats: dict, protocol: str) -> dict:
    from mteb_evalrank.metrics import classification as clf

    f = feats[name]
    if SCHEME[name] == "inner":
        return clf.evaluate_kfold_inner(*f["all"], protocol=protocol)
    if SCHEME[name] == "kfold":
        return clf.evaluate_kfold_then_test(*f["train"], *f["test"], protocol=protocol, with_f1=name == "MRPC")
    return clf.evaluate_split(*f["train"], *f["dev"], *f["test"], protocol=protocol)


def load_senteval(path: Path):
    """SentEval's validation module from ``path``, runnable on a CPU-only torch (shims, no copies)."""
    import torch

    sys.path.insert(0, str(path))
    if not hasattr(inspect, "getargspec"):
        inspect.getargspec = inspect.getfullargspec  # removed in Python 3.11; SentEval's utils use it
    torch.nn.Module.cuda = lambda self, *a, **k: self
    torch.Tensor.cuda = lambda self, *a, **k: self
    import senteval.tools.classifier as cm
    import senteval.tools.validation as vm

    class _TorchOnCPU(types.ModuleType):
        def __getattr__(self, attr):
            return getattr(torch, attr)

    shim = _TorchOnCPU("torch")
    shim.device = lambda *a, **k: torch.device("cpu")
    shim.cuda = types.SimpleNamespace(manual_seed=lambda s: None, FloatTensor=torch.Tensor)
    shim.FloatTensor = lambda x: torch.as_tensor(np.asarray(x), dtype=torch.float32)
    shim.LongTensor = lambda x: torch.as_tensor(np.asarray(x), dtype=torch.int64)
    cm.torch = shim
    return vm


def run_senteval(vm, name: str, feats: dict, protocol: str) -> dict:
    usepytorch = protocol == "senteval-prototyping"
    classifier = {"nhid": 0, "optim": "rmsprop", "batch_size": 128, "tenacity": 3, "epoch_size": 2}
    f = feats[name]
    ncl = int(max(y.max() for _, y in f.values()) + 1)
    cfg = {"nclasses": ncl, "seed": 1111, "usepytorch": usepytorch, "classifier": classifier, "nhid": 0, "kfold": 5}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if SCHEME[name] == "inner":
            dev, acc = vm.InnerKFoldClassifier(f["all"][0], f["all"][1], cfg).run()
        elif SCHEME[name] == "kfold":
            tr, te = f["train"], f["test"]
            dev, acc, _ = vm.KFoldClassifier({"X": tr[0], "y": tr[1]}, {"X": te[0], "y": te[1]}, cfg).run()
        else:
            X = {"train": f["train"][0], "valid": f["dev"][0], "test": f["test"][0]}
            y = {"train": f["train"][1], "valid": f["dev"][1], "test": f["test"][1]}
            dev, acc = vm.SplitClassifier(X, y, cfg).run()
    return {"devacc": float(dev), "acc": float(acc)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="glove,minilm", help="comma-separated: glove (d=50), minilm (d=384)")
    parser.add_argument("--protocol", default="senteval-prototyping")
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--sources", type=Path, default=Path(os.environ.get("SENTEVAL_DOWNSTREAM", DEFAULT_SOURCES)))
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    parser.add_argument("--cache-dir", type=Path, default=tmp / "mteb_evalrank_senteval_bench")
    parser.add_argument("--random", action="store_true", help="random features of the real shapes, even if data exists")
    parser.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's)")
    parser.add_argument(
        "--senteval-path",
        type=Path,
        default=None,
        help="directory holding SentEval's senteval package: also time SentEval's classifier code",
    )
    parser.add_argument("--senteval-tasks", default=None, help="tasks run through SentEval's code (default: --tasks)")
    parser.add_argument(
        "--senteval-models", default=None, help="models run through SentEval's code (default: --models)"
    )
    args = parser.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    tasks_wanted = [t for t in args.tasks.split(",") if t]
    real = not args.random and args.sources.is_dir()
    print(f"features={'real' if real else 'random'}")
    if not real:
        why = "--random" if args.random else f"no data at {args.sources}"
        print(f"features_note=random standard-normal features of the real shapes ({why})")
    print(f"protocol={args.protocol}")
    print(f"torch_threads={torch.get_num_threads()}")
    raw = load_tasks(args.sources) if real else None
    vm = load_senteval(args.senteval_path) if args.senteval_path else None
    se_tasks = [t for t in (args.senteval_tasks or args.tasks).split(",") if t in tasks_wanted]
    se_models = (args.senteval_models or args.models).split(",")

    for key in args.models.split(","):
        _, d = MODELS[key]
        label = f"{key}_d{d}"
        if real:
            try:
                table, enc_s, cached = encode_all(key, raw, args.cache_dir)
                feats = task_features(raw, table)
                print(f"{label}.encode_s={enc_s:.1f}")
                print(f"{label}.encode_cached={int(cached)}")
            except Exception as exc:  # model not installed: fall back, and say so
                print(f"{label}.features=random ({type(exc).__name__}: {exc})")
                feats = random_features(d)
        else:
            feats = random_features(d)
        total = 0.0
        ours: dict[str, tuple[float, dict]] = {}
        for name in tasks_wanted:
            t0 = time.perf_counter()
            res = run_ours(name, feats, args.protocol)
            sec = time.perf_counter() - t0
            total += sec
            ours[name] = (sec, res)
            reg = res["reg"] if not isinstance(res["reg"], list) else "/".join(f"{r:g}" for r in res["reg"])
            extra = f" f1={res['f1']:.4f}" if "f1" in res else ""
            print(f"{label}.{name}.classifier_s={sec:.2f}")
            print(f"{label}.{name}.result=acc={res['acc']:.4f} devacc={res['devacc']:.4f}{extra} reg={reg}")
        print(f"{label}.classifier_total_s={total:.1f}")
        if vm is not None and key in se_models:
            se_total = ours_total = 0.0
            for name in se_tasks:
                t0 = time.perf_counter()
                se = run_senteval(vm, name, feats, args.protocol)
                sec = time.perf_counter() - t0
                mine = ours[name][1]["senteval"]
                same = abs(se["acc"] - mine["acc"]) < 1e-9 and abs(se["devacc"] - mine["devacc"]) < 1e-9
                se_total += sec
                ours_total += ours[name][0]
                print(f"senteval.{label}.{name}.classifier_s={sec:.2f}")
                print(
                    f"senteval.{label}.{name}.result=acc={se['acc']:.2f} devacc={se['devacc']:.2f} "
                    f"(ours: acc={mine['acc']:.2f} devacc={mine['devacc']:.2f}) same_result={int(same)}"
                )
            if se_tasks:
                print(f"senteval.{label}.tasks={','.join(se_tasks)}")
                print(f"senteval.{label}.classifier_total_s={se_total:.1f}")
                print(f"senteval.{label}.ours_same_tasks_s={ours_total:.1f}")
                print(f"senteval.{label}.speedup={se_total / max(ours_total, 1e-9):.1f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
