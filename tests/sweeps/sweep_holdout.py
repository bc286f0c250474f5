"""A third sweep, held out: written after the fixes of the two group sweeps (sweep_inputs.py, sweep_results.py) and
run once on the result, nothing fixed for it (issue 38's "larger held-out set").  Run it like the others:
``python tests/sweeps/sweep_holdout.py``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, main

G = "R/results/local__glove.6B.50d/8def0747613c"
C = ["--intrinsic", "EvalRankSent", "--downstream", "SentEvalMR", "--no-progress"]
TABLE = "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},{i / 10},{(i * 7 % 10) / 10}\n" for i in range(8))


def prepare(w: Path) -> None:
    files = {
        "T.csv": TABLE,
        "only_model.csv": "model\nm1\nm2\nm3\n",
        "no_intrinsic.csv": "model,SentEvalMR\nm1,0.1\nm2,0.2\nm3,0.3\n",
        "bom_crlf_fam.csv": "\ufeffmodel,family\r\n" + "".join(f"m{i},f{i // 2}\r\n" for i in range(8)),
        "floor_case.csv": "model,EvalRankSent,SentEvalMR,floor\n"
        + "".join(f"m{i},{i / 10},{(i * 7 % 10) / 10},{'TRUE' if i == 0 else 'False'}\n" for i in range(8)),
        "neg_inf.csv": TABLE.replace("m3,0.3", "m3,-inf"),
        "overflow.csv": TABLE.replace("m3,0.3", "m3,1e309"),
        "blank_model.csv": TABLE + ",0.5,0.5\n",
        "se_str.json": json.dumps({"MR": {"devacc": 75.0, "acc": "74.5", "ndev": 10, "ntest": 10}}),
        "se_ok.json": json.dumps({"MR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 10}}),
        "corpus.txt": "\n".join(f"sentence number {i}" for i in range(30)) + "\n",
    }
    for name, text in files.items():
        (w / name).write_text(text, encoding="utf-8")
    os.mkfifo(w / "fifo.png")
    os.mkfifo(w / "fifo_out")
    loop = w / "R" / "results" / "o__loop" / "r"
    loop.mkdir(parents=True)
    (loop / "EvalRankWord.json").symlink_to("SentEvalMR.json")
    (loop / "SentEvalMR.json").symlink_to("EvalRankWord.json")
    (w / "vec.txt").write_text("sentence 1 0 0\nnumber 0 1 0\n")
    heros = w / "H" / "results" / "o__m" / "r"
    heros.mkdir(parents=True)
    data = json.loads((w / G / "HEROS.json").read_text())
    data["scores"]["test"][0]["normalized_cosine"] = 5.0
    (heros / "HEROS.json").write_text(json.dumps(data))


CASES = [
    Case("correlate-out-jsonl-in-results", ["correlate", "{R}", *C, "--csv", f"{G}/notes.jsonl"]),
    Case("correlate-out-results-folder", ["correlate", "{R}", *C, "--out", "R/results"]),
    Case("heros-csv-meta-via-dotdot", ["heros-report", "{R}", "--csv", f"{G}/../8def0747613c/model_meta.json"]),
    Case("n2o-compare-csv-is-result", ["n2o-compare", "{R}", "--csv", f"{G}/N2O.json"]),
    Case("correlate-table-only-model", ["correlate", "only_model.csv", *C]),
    Case("correlate-table-no-intrinsic", ["correlate", "no_intrinsic.csv", *C]),
    Case("correlate-ok-bom-crlf-families", ["correlate", "T.csv", *C, "--families", "bom_crlf_fam.csv"], ok=True),
    Case("correlate-ok-floor-case", ["correlate", "floor_case.csv", *C], ok=True),
    Case("correlate-neg-inf-cell", ["correlate", "neg_inf.csv", *C]),
    Case("correlate-overflow-cell", ["correlate", "overflow.csv", *C]),
    Case("correlate-blank-model", ["correlate", "blank_model.csv", *C]),
    Case("correlate-resamples-99", ["correlate", "T.csv", *C, "--n-resamples", "99"]),
    Case("correlate-resamples-float", ["correlate", "T.csv", *C, "--n-resamples", "1e3"]),
    Case("correlate-plot-is-folder", ["correlate", "T.csv", *C, "--plot", "R"]),
    Case(
        "correlate-results-symlink-loop-entry",
        ["correlate", "{R}", "--intrinsic", "EvalRankWord", "--downstream", "SentEvalMR", "--no-progress"],
        warns="symlink loop",
    ),
    Case("leaderboard-port-0", ["leaderboard", "{R}", "--port", "0"]),
    Case("compare-unknown-model", ["compare", "{R}", "nobody/none", "local/glove.6B.50d", "-t", "EvalRankWord"]),
    Case(
        "compare-no-items",
        ["compare", "{R}", "sentence-transformers/all-MiniLM-L6-v2", "local/glove.6B.50d", "-t", "EvalRankWord"],
    ),
    Case("report-figure-fifo", ["report", "{R}", "--figure", "fifo.png", "--out", "r.html"]),
    Case("report-correlation-devnull", ["report", "{R}", "--correlation", "/dev/null", "--out", "r.html"]),
    Case(
        "import-senteval-acc-string",
        ["import-senteval", "se_str.json", "--model", "o/m", "--revision", "r", "-o", "out"],
    ),
    Case(
        "import-senteval-out-fifo",
        ["import-senteval", "se_ok.json", "--model", "o/m", "--revision", "r", "-o", "fifo_out"],
    ),
    Case("n2o-corpus-dev-stdin", ["n2o", "glove-6b-50d", "vec.txt", "--corpus", "/dev/stdin"], stdin="a\nb\n"),
    Case("prepare-submission-out-inside-results", ["prepare-submission", "{R}", "--out", "R/results/sub"]),
    Case("export-upstream-source-results", ["export-upstream", "--mteb-source", "{R}", "--out", "up"]),
    Case("n2o-compare-explain-huge", ["n2o-compare", "{R}", "--explain-query", "1" + "0" * 30]),
    Case("heros-normalised-cosine-5", ["heros-report", "H"], warns="outside [-1, 1]"),
    Case("correlate-ok-table", ["correlate", "T.csv", *C, "--csv", "c.csv"], ok=True, mutable=("c.csv",)),
]

if __name__ == "__main__":
    raise SystemExit(main(CASES, prepare))
