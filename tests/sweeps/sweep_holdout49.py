"""Issue 49's held-out sweep: written after its fixes (the study page without a claim score, reports that embed
only what is there, the file-name codec, read-only or occupied places, devices and FIFOs as outputs, options
accepted then ignored) and run once on the result, nothing fixed for it.  Its inputs are new variants over the
same sub-commands: study, study-population, sts-by-level, report, prepare-submission, leaderboard, export-upstream
and correlate.  Run it like the others: ``python tests/sweeps/sweep_holdout49.py``."""

from __future__ import annotations

import gzip
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, main

G = "R/results/local__glove.6B.50d/8def0747613c"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"  # the magic and a chunk header: what the figure check reads
CSV_HEAD = "intrinsic,downstream,rho,ci_low,ci_high,kendall_tau,n_models\n"


def _predictions(folder: Path, *, ids=None, gold=None, cosine=None, n: int = 12, task: str = "SentEvalSTSB") -> None:
    ids = [f"p{i}" for i in range(n)] if ids is None else ids
    gold = [i * 5 / (n - 1) for i in range(n)] if gold is None else gold
    cosine = [(i * 7 % n) / n for i in range(n)] if cosine is None else cosine
    entry = {"gold": gold, "cosine": cosine}
    if ids is not False:
        entry["id"] = ids
    folder.mkdir(parents=True)
    data = {"mteb_model_meta": {"model_name": folder.name}, "default": {"test": entry}}
    (folder / f"{task}_predictions.json").write_text(json.dumps(data))


def prepare(w: Path) -> None:
    (w / "png_as.svg").write_bytes(PNG)
    (w / "text.jpg").write_text("a photograph\n")
    (w / "page.svg").write_text("<!DOCTYPE html><html><body>no drawing</body></html>\n")
    (w / "ok.png").write_bytes(PNG + b"\x00" * 32)
    (w / "u32.csv").write_bytes(CSV_HEAD.encode("utf-32"))
    (w / "gz.csv").write_bytes(gzip.compress(CSV_HEAD.encode()))
    (w / "header_only.csv").write_text(CSV_HEAD)
    (w / "pop.csv").write_text("model\nsentence-transformers/all-MiniLM-L6-v2\n")
    os.mkfifo(w / "fifo_out")
    (w / "loop_a").symlink_to(w / "loop_b")
    (w / "loop_b").symlink_to(w / "loop_a")
    n = 12
    _predictions(w / "P" / "a")
    _predictions(w / "P" / "negative_gold", gold=[-0.5] + [i * 5 / (n - 1) for i in range(1, n)])
    _predictions(w / "P" / "float_ids", ids=[i + 0.5 for i in range(n)])
    _predictions(w / "P" / "no_ids", ids=False)
    _predictions(w / "P" / "rounded", cosine=[1.00001] + [(i * 7 % n) / n for i in range(1, n)])
    _predictions(w / "P" / "str_gold_3", task="STR", gold=[3.0] * n)
    # an occupied leaderboard cache folder: a FIFO, a symlink loop
    for name in ("LF", "LL"):
        os.mkdir(w / name)
        os.symlink(w / "R" / "results", w / name / "results")
    os.mkfifo(w / "LF" / "leaderboard")
    (w / "LL" / "leaderboard").symlink_to(w / "LL" / "leaderboard")
    # a model folder whose name is not UTF-8
    import shutil

    latin = os.fsencode(w / "N" / "results")
    os.makedirs(latin)
    # a copy, not a symlink: results walks do not follow symlinked folders (the first run used a symlink)
    shutil.copytree(os.fsencode(w / G), latin + b"/local__caf\xe9/8def0747613c")


C = ["--no-progress"]
CASES = [
    Case("report-png-named-svg", ["report", "{R}", "--figure", "png_as.svg", "--out", "r.html"]),
    Case("report-text-named-jpg", ["report", "{R}", "--figure", "text.jpg", "--out", "r.html"]),
    Case("report-html-named-svg", ["report", "{R}", "--figure", "page.svg", "--out", "r.html"]),
    Case("report-ok-png", ["report", "{R}", "--figure", "ok.png", "--out", "r.html"], ok=True, mutable=("r.html",)),
    Case("report-correlation-utf32", ["report", "{R}", "--correlation", "u32.csv", "--out", "r.html"]),
    Case("report-correlation-gzip", ["report", "{R}", "--correlation", "gz.csv", "--out", "r.html"]),
    Case(
        "report-ok-correlation-header-only",
        ["report", "{R}", "--correlation", "header_only.csv", "--out", "r.html"],
        ok=True,
        mutable=("r.html",),
    ),
    Case("report-ok-latin1-model-folder", ["report", "N", "--out", "r.html"], ok=True, mutable=("r.html",)),
    Case("sts-by-level-negative-gold", ["sts-by-level", "P/negative_gold"]),
    Case("sts-by-level-float-ids", ["sts-by-level", "P/float_ids"]),
    Case("sts-by-level-ok-ids-on-one-side", ["sts-by-level", "P/a", "P/no_ids"], ok=True),
    Case("sts-by-level-ok-cosine-rounding", ["sts-by-level", "P/rounded"], ok=True),
    Case("sts-by-level-str-gold-3", ["sts-by-level", "P/str_gold_3", "--task", "STR"]),
    Case("sts-by-level-out-fifo-no-suffix", ["sts-by-level", "P/a", "--out", "fifo_out"]),
    Case("study-population-out-symlink-loop", ["study-population", "--models", "pop.csv", "--out", "loop_a"]),
    Case(
        "study-population-out-model-meta", ["study-population", "--models", "pop.csv", "--out", f"{G}/model_meta.json"]
    ),
    Case(
        "study-population-ok-empty-registry-list",
        ["study-population", "--from-registry", "--models", "pop.csv", "--out", "p.csv"],
        ok=True,
        mutable=("p.csv",),
    ),
    Case("leaderboard-cache-is-fifo", ["leaderboard", "LF", "--prepare-only"]),
    Case("leaderboard-cache-is-symlink-loop", ["leaderboard", "LL", "--prepare-only"]),
    Case("leaderboard-benchmark-whitespace", ["leaderboard", "{R}", "--benchmark", " EvalRank"]),
    Case(
        "study-word-correlate-only-shard",
        ["study", "--level", "word", "--out", "S", "--correlate-only", "--shard", "2/2"],
    ),
    Case(
        "correlate-subset-main-score-both-sides",
        ["correlate", "{R}", "--intrinsic", "EvalRankWord/all", "--downstream", "EvalRankWord/all:main_score", *C],
    ),
    Case("heros-report-out-fifo-no-suffix", ["heros-report", "{R}", "--out", "fifo_out"]),
    Case("export-upstream-out-fifo", ["export-upstream", "--out", "fifo_out"]),
    Case("prepare-submission-out-symlink-loop", ["prepare-submission", "{R}", "--out", "loop_a"]),
]

if __name__ == "__main__":
    raise SystemExit(main(CASES, prepare))
