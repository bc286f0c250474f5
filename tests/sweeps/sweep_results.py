"""Held-out sweep, group "results": the commands that read results folders, score tables and families files
(correlate, study --correlate-only, study-population, sts-by-level, report, prepare-submission, compare,
leaderboard --prepare-only / bad ports, export-upstream with a bad --mteb-source).

Run: ``.venv/bin/python tests/sweeps/sweep_results.py`` (``-k NAME`` for some cases).  ``compare`` needs two
models' ``EvalRankWord.items.npz``: built once by ``mteb-evalrank run`` (glove-6b-50d and its ABTT variant,
offline, about a minute) into ``$SWEEP_RESULTS_COMPARE`` (default /tmp/sweep-results-compare-C) and reused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from harness import Case, main

G = "results/local__glove.6B.50d/8def0747613c"  # glove's revision folder inside a results folder
M = "results/sentence-transformers__all-MiniLM-L6-v2/8b3219a92973c328a8e22fadcfa821b5dc75636a"
CG = "C/results/local__glove.6B.50d/8def0747613c"
CA = "C/results/zoo__glove-50d__abtt/89694bdb2a39"
COMPARE_CACHE = Path(os.environ.get("SWEEP_RESULTS_COMPARE", "/tmp/sweep-results-compare-C"))

TABLE = "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},{i / 10},{(i * 7 % 10) / 10}\n" for i in range(8))
TABLES = {
    "T.csv": TABLE,
    "quoted_header.csv": '"model","EvalRankSent","SentEvalMR"\n'
    + "".join(f'"m{i}",{i / 10},{(i * 7 % 10) / 10}\n' for i in range(8)),
    "newline_cell.csv": TABLE + '"m\n8",0.3,0.4\n',
    "no_model.csv": TABLE.replace("model,", "name,", 1),
    "all_nan.csv": "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},,{i / 10}\n" for i in range(8)),
    "constant.csv": "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},0.5,{i / 10}\n" for i in range(8)),
    "one_model.csv": "model,EvalRankSent,SentEvalMR\nm1,0.1,0.2\n",
    "semicolon.csv": TABLE.replace(",", ";"),
    "trailing_comma.csv": "".join(line + ",\n" for line in TABLE.splitlines()),
    "crlf.csv": TABLE.replace("\n", "\r\n"),
    "case_dup.csv": TABLE + "M3,0.5,0.5\n",
    "space_dup.csv": TABLE.replace("m3,", " m3 ,", 1).replace("m4,", "m3,", 1),
    "thousands.csv": TABLE + 'm9,"1,234",0.5\n',
    "percent.csv": TABLE + "m9,50%,0.5\n",
    "bom.csv": "\ufeff" + TABLE,
    "tab_in_csv.tsv": TABLE,
    "T.tsv": TABLE.replace(",", "\t"),
    "blank_model.csv": TABLE + ",0.5,0.5\n",
    "scores_like_study.csv": TABLE.replace("model,", ",", 1),
    "fam_ok.csv": "model,family\n" + "".join(f"m{i},f{i // 2}\n" for i in range(8)),
    "fam_no_lineage.csv": "model,family,floor\n" + "".join(f"m{i},f{i // 2},false\n" for i in range(8)),
    "fam_empty_family.csv": "model,family\n" + "".join(f"m{i},{'' if i == 3 else f'f{i // 2}'}\n" for i in range(8)),
    "fam_unknown_model.csv": "model,family\n" + "".join(f"m{i},f{i // 2}\n" for i in range(8)) + "zz,f9\n",
    "fam_all_unknown.csv": "model,family\n" + "".join(f"x{i},f{i // 2}\n" for i in range(8)),
    "fam_no_family.csv": "model,lineage\n" + "".join(f"m{i},l{i // 2}\n" for i in range(8)),
    "fam_no_model.csv": "name,family\n" + "".join(f"m{i},f{i // 2}\n" for i in range(8)),
    "fam_case_dup.csv": "model,family\n" + "".join(f"m{i},f{i // 2}\n" for i in range(8)) + "M1,f7\n",
    "pop_ok.csv": "model,lineage\nsentence-transformers/all-MiniLM-L6-v2,minilm\n",
    "pop_no_model.csv": "name,lineage\nsentence-transformers/all-MiniLM-L6-v2,minilm\n",
    "pop_short.csv": "model,lineage,floor\nsentence-transformers/all-MiniLM-L6-v2,minilm\n",
    "pop_dup.csv": "model\nsentence-transformers/all-MiniLM-L6-v2\nsentence-transformers/all-MiniLM-L6-v2\n",
    "pop_empty.csv": "",
    "pop_header_only.csv": "model,lineage\n",
    "pop_floor.csv": "model,floor\nsentence-transformers/all-MiniLM-L6-v2,sometimes\n",
}


def _edit_json(path: Path, edit: Callable[[dict], object]) -> None:
    data = json.loads(path.read_text())
    edit(data)  # in place (the value a pop returns is not the file)
    path.write_text(json.dumps(data))


def _entry(data: dict, i: int = 0) -> dict:
    return data["scores"]["test"][i]


def _variants(w: Path) -> None:
    """Copies of R with one thing wrong, each named V_<kind>."""
    mr = f"{G}/SentEvalMR.json"
    word = f"{G}/EvalRankWord.json"
    edits: dict[str, Callable[[Path], None]] = {
        "scores_list": lambda r: _edit_json(r / mr, lambda d: d.update(scores=[1, 2])),
        "split_dict": lambda r: _edit_json(r / mr, lambda d: d["scores"].update(test={"a": 1})),
        "entries_str": lambda r: _edit_json(r / mr, lambda d: d["scores"].update(test=["x", "y"])),
        "main_missing": lambda r: _edit_json(r / mr, lambda d: _entry(d).pop("main_score")),
        "main_none": lambda r: _edit_json(r / mr, lambda d: _entry(d).update(main_score=None)),
        "main_bool": lambda r: _edit_json(r / mr, lambda d: _entry(d).update(main_score=True)),
        "main_string": lambda r: _edit_json(r / mr, lambda d: _entry(d).update(main_score="0.5")),
        "main_huge": lambda r: _edit_json(r / mr, lambda d: _entry(d).update(main_score=1e300, accuracy=1e300)),
        "no_subset": lambda r: _edit_json(r / mr, lambda d: _entry(d).pop("hf_subset")),
        "negative_time": lambda r: _edit_json(r / mr, lambda d: d.update(evaluation_time=-5)),
        "task_case": lambda r: _edit_json(r / mr, lambda d: d.update(task_name="sentevalmr")),
        "task_space": lambda r: _edit_json(r / mr, lambda d: d.update(task_name="SentEvalMR ")),
        "task_missing": lambda r: _edit_json(r / mr, lambda d: d.pop("task_name")),
        "version_garbage": lambda r: _edit_json(r / mr, lambda d: d.update(mteb_version="banana")),
        "mrr_above_one": lambda r: _edit_json(r / word, lambda d: _entry(d).update(main_score=1.5, mrr=1.5)),
        "hits_negative": lambda r: _edit_json(r / word, lambda d: _entry(d).update(hits_at_1=-0.2)),
        "accuracy_percent": lambda r: _edit_json(r / mr, lambda d: _entry(d).update(main_score=100.0, accuracy=100.0)),
        "meta_empty": lambda r: (r / G / "model_meta.json").write_text(""),
        "meta_list": lambda r: (r / G / "model_meta.json").write_text("[1, 2]"),
        "meta_name_int": lambda r: _edit_json(r / G / "model_meta.json", lambda d: d.update(name=5)),
        "meta_rev_list": lambda r: _edit_json(r / G / "model_meta.json", lambda d: d.update(revision=["a"])),
        "meta_name_path": lambda r: _edit_json(r / G / "model_meta.json", lambda d: d.update(name="../x")),
    }
    import re

    #: the first main score of the file, whatever tests/results_fixture.py seeds (a fixed value went stale)
    main = re.compile(r'"main_score": (-?[0-9.eE+-]+)')
    raw = {
        "main_nan": lambda t: main.sub('"main_score": NaN', t, count=1),
        "main_inf": lambda t: main.sub('"main_score": Infinity', t, count=1),
        "dup_keys": lambda t: main.sub(r'"main_score": \1, "main_score": 0.9', t, count=1),
        "truncated": lambda t: t[: len(t) // 2],
        "empty": lambda t: "",
    }
    for name, edit in edits.items():
        shutil.copytree(w / "R", w / f"V_{name}")
        edit(w / f"V_{name}")
    for name, change in raw.items():
        shutil.copytree(w / "R", w / f"V_{name}")
        p = w / f"V_{name}" / mr
        text = p.read_text()
        assert name in ("truncated", "empty") or main.search(text), name
        p.write_text(change(text))
    for name, encoding in (("bom", "utf-8-sig"), ("utf16", "utf-16")):
        shutil.copytree(w / "R", w / f"V_{name}")
        p = w / f"V_{name}" / mr
        p.write_bytes(p.read_text().encode(encoding))
    # special entries in a results walk
    for name in ("fifo", "socket", "dangling", "loop", "dir_json", "outside_link"):
        shutil.copytree(w / "R", w / f"V_{name}")
    os.mkfifo(w / "V_fifo" / G / "SentEvalCR.json")
    import socket

    here = os.getcwd()
    os.chdir(w / "V_socket" / G)
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind("SentEvalCR.json")
    finally:
        os.chdir(here)
    (w / "V_dangling" / G / "SentEvalCR.json").symlink_to("nowhere.json")
    (w / "V_loop" / G / "SentEvalCR.json").symlink_to("SentEvalCR.json")
    (w / "V_dir_json" / G / "SentEvalCR.json").mkdir()
    (w / "outside").mkdir()
    shutil.copy(w / "R" / G / "SentEvalMR.json", w / "outside" / "SentEvalMR.json")
    (w / "V_outside_link" / G / "SentEvalMR.json").unlink()
    (w / "V_outside_link" / G / "SentEvalMR.json").symlink_to(w / "outside" / "SentEvalMR.json")
    # two folders claiming one model through spellings that differ in case
    shutil.copytree(w / "R", w / "V_case_twice")
    shutil.copytree(w / "V_case_twice" / G, w / "V_case_twice" / "results" / "Local__Glove.6B.50d" / "8def0747613c")
    _edit_json(
        w / "V_case_twice" / "results" / "Local__Glove.6B.50d" / "8def0747613c" / "model_meta.json",
        lambda d: d.update(name="Local/Glove.6B.50d"),
    )
    # results of MTEB 1.x, an empty folder, a folder holding only model_meta.json
    old = w / "old1x" / "results" / "o__m" / "r"
    old.mkdir(parents=True)
    (old / "SentEvalMR.json").write_text(
        json.dumps({"mteb_dataset_name": "SentEvalMR", "mteb_version": "1.12.0", "test": {"accuracy": 0.5}})
    )
    (w / "emptydir").mkdir()
    only_meta = w / "only_meta" / "results" / "o__m" / "r"
    only_meta.mkdir(parents=True)
    shutil.copy(w / "R" / G / "model_meta.json", only_meta / "model_meta.json")


def _compare_folder(w: Path) -> None:
    if not (COMPARE_CACHE / "results").is_dir():
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        env.setdefault("MTEB_EVALRANK_SOURCES", "/work/shared/data/sources")
        for model in ("glove-6b-50d", "zoo:glove-50d/abtt"):
            cmd = [sys.executable, "-m", "mteb_evalrank.cli", "run", "-m", model, "-t", "EvalRankWord"]
            subprocess.run([*cmd, "-o", str(COMPARE_CACHE)], check=True, env=env, capture_output=True)
    shutil.copytree(COMPARE_CACHE, w / "C")
    for name in ("garbage", "truncated", "shape", "fifo", "meta_list", "no_digest"):
        shutil.copytree(w / "C", w / f"C_{name}")
    items = Path(CG) / "EvalRankWord.items.npz"
    (w / "C_garbage" / items.relative_to("C")).write_bytes(b"PK\x03\x04 this is not a zip file")
    data = (w / "C_truncated" / items.relative_to("C")).read_bytes()
    (w / "C_truncated" / items.relative_to("C")).write_bytes(data[: len(data) // 2])
    import numpy as np

    def rewrite(folder: str, change: Callable[[dict], None]) -> None:
        path = w / folder / items.relative_to("C")
        with np.load(path, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        change(arrays)
        np.savez_compressed(path, **arrays)

    def shape(arrays: dict) -> None:
        key = next(k for k in arrays if k.endswith("/cos_rank"))  # the subset's name changed (all -> default)
        arrays[key] = arrays[key][:3]

    def meta_list(arrays: dict) -> None:
        arrays["__meta__"] = np.array(json.dumps([1, 2]))

    def no_digest(arrays: dict) -> None:
        meta = json.loads(str(arrays["__meta__"]))
        for entry in meta["entries"].values():
            entry.pop("digest", None)
        arrays["__meta__"] = np.array(json.dumps(meta))

    rewrite("C_shape", shape)
    rewrite("C_meta_list", meta_list)
    rewrite("C_no_digest", no_digest)
    (w / "C_fifo" / items.relative_to("C")).unlink()
    os.mkfifo(w / "C_fifo" / items.relative_to("C"))


def prepare(w: Path) -> None:
    for name, text in TABLES.items():
        (w / name).write_text(text, encoding="utf-8")
    (w / "utf16.csv").write_bytes(TABLE.encode("utf-16"))
    os.link(w / "T.csv", w / "T_hard.csv")
    (w / "Tdir").mkdir()
    shutil.copy(w / "T.csv", w / "Tdir" / "T.csv")
    (w / "Tlink").symlink_to("Tdir")
    (w / "Rlink").symlink_to("R")
    (w / "meta_link.html").symlink_to(f"R/{G}/model_meta.json")
    (w / "settings_link.md").symlink_to(f"R/{G}/run_settings.jsonl")
    os.mkfifo(w / "fifo.csv")
    (w / "srcdir").mkdir()
    (w / "srcdir_link").symlink_to("srcdir")
    (w / "afile").write_text("x\n")
    # predictions for sts-by-level: malformed JSON, a FIFO, a valid file
    for name in ("preds_bad", "preds_fifo", "preds_list"):
        (w / name / "m").mkdir(parents=True)
    (w / "preds_bad" / "m" / "SentEvalSTSB_predictions.json").write_text('{"default": {"test": ')
    os.mkfifo(w / "preds_fifo" / "m" / "SentEvalSTSB_predictions.json")
    (w / "preds_list" / "m" / "SentEvalSTSB_predictions.json").write_text("[1, 2, 3]")
    _variants(w)
    _compare_folder(w)


def correlate(source: str, *extra: str, intrinsic: str = "EvalRankWord", downstream: str = "SentEvalMR") -> list[str]:
    return [
        "correlate",
        source,
        "--intrinsic",
        intrinsic,
        "--downstream",
        downstream,
        "--no-progress",
        "--n-resamples",
        "200",
        *extra,
    ]


def table(source: str, *extra: str) -> list[str]:
    return correlate(source, *extra, intrinsic="EvalRankSent", downstream="SentEvalMR")


CASES = [
    # --- valid inputs near the bad ones
    Case("correlate-ok-results", correlate("{R}"), ok=True),
    Case("correlate-ok-table", table("T.csv"), ok=True),
    Case("correlate-ok-quoted-header", table("quoted_header.csv"), ok=True),
    Case("correlate-ok-crlf", table("crlf.csv"), ok=True),
    Case("correlate-ok-bom-table", table("bom.csv"), ok=True),
    Case("correlate-ok-tsv", table("T.tsv"), ok=True),
    Case("correlate-ok-study-scores", table("scores_like_study.csv"), ok=True),
    Case("correlate-ok-families", table("T.csv", "--families", "fam_ok.csv"), ok=True),
    Case("correlate-ok-families-no-lineage", table("T.csv", "--families", "fam_no_lineage.csv"), ok=True),
    Case("correlate-ok-csv-into-results", correlate("{R}", "--csv", "{R}/corr.csv"), ok=True),
    Case("correlate-ok-trailing-slash", correlate("{R}/"), ok=True),
    Case("correlate-ok-no-subset", correlate("V_no_subset"), ok=True),
    Case("correlate-ok-version-garbage", correlate("V_version_garbage"), ok=True),
    Case("correlate-ok-outside-link", correlate("V_outside_link"), ok=True),
    Case("report-ok", ["report", "{R}", "--out", "r.html"], ok=True),
    Case("prepare-submission-ok", ["prepare-submission", "{R}", "--out", "sub"], ok=True),
    Case("compare-ok", ["compare", "C", "local/glove.6B.50d", "zoo/glove-50d__abtt", "-t", "EvalRankWord"], ok=True),
    Case("leaderboard-ok-prepare", ["leaderboard", "{R}", "--prepare-only"], ok=True, timeout=180),
    # --- outputs naming inputs by other routes
    Case("correlate-hardlink-csv", table("T.csv", "--csv", "T_hard.csv")),
    Case("correlate-symlinked-parent", table("Tdir/T.csv", "--out", "Tlink/T.csv")),
    Case("correlate-trailing-slash-out", table("T.csv", "--csv", "T.csv/")),
    Case("correlate-families-hardlink", table("T.csv", "--families", "fam_ok.csv", "--csv", "T_hard.csv")),
    Case("correlate-out-run-settings-link", correlate("{R}", "--csv", f"Rlink/{G}/run_settings.jsonl")),
    Case(
        "correlate-out-items-npz",
        correlate("C", "--csv", f"{CG}/EvalRankWord.items.npz", downstream="EvalRankWord:hits_at_1"),
    ),
    # two models: no cell can be computed, refused in one line since issue 47's held-out sweep
    Case("correlate-two-models", correlate("C", "--csv", "c.csv", downstream="EvalRankWord:hits_at_1")),
    Case("correlate-out-meta-symlink", correlate("{R}", "--out", "meta_link.html")),
    Case("correlate-plot-in-results-json", correlate("{R}", "--plot", f"{G}/new.json")),
    Case("report-out-meta-symlink", ["report", "{R}", "--out", "meta_link.html"]),
    Case("report-out-settings-symlink", ["report", "{R}", "--out", "settings_link.md"]),
    Case("report-out-items-npz", ["report", "C", "--out", f"{CG}/EvalRankWord.items.npz"]),
    Case("report-out-is-correlation", ["report", "{R}", "--correlation", "T.csv", "--out", "T_hard.csv"]),
    Case("prepare-submission-out-trailing-slash", ["prepare-submission", "{R}/results/", "--out", "{R}/"]),
    Case("prepare-submission-out-symlink", ["prepare-submission", "{R}", "--out", "Rlink"]),
    Case("prepare-submission-out-inside-link", ["prepare-submission", "Rlink", "--out", "{R}/results/x"]),
    Case("export-upstream-out-symlink", ["export-upstream", "--mteb-source", "srcdir", "--out", "srcdir_link"]),
    Case("export-upstream-source-missing", ["export-upstream", "--mteb-source", "nosuch", "--out", "exp"]),
    Case("export-upstream-source-file", ["export-upstream", "--mteb-source", "afile", "--out", "exp"]),
    Case("export-upstream-source-fifo", ["export-upstream", "--mteb-source", "fifo.csv", "--out", "exp"]),
    Case("export-upstream-source-empty", ["export-upstream", "--mteb-source", "srcdir", "--out", "exp"]),
    Case("study-population-out-is-models", ["study-population", "--models", "pop_ok.csv", "--out", "pop_ok.csv"]),
    Case("sts-by-level-out-json-inside", ["sts-by-level", "preds_list", "--out", "preds_list/m/x.json"]),
    # --- special files in a results walk
    Case("correlate-fifo-entry", correlate("V_fifo"), warns="FIFO"),
    Case("correlate-socket-entry", correlate("V_socket"), warns="socket"),
    Case("correlate-dangling-entry", correlate("V_dangling"), warns="broken symlink"),
    Case("correlate-loop-entry", correlate("V_loop"), warns="symlink loop"),
    Case("correlate-dir-json-entry", correlate("V_dir_json"), warns="a folder"),
    Case("report-fifo-entry", ["report", "V_fifo", "--out", "r.html"], warns="FIFO"),
    Case("prepare-submission-fifo", ["prepare-submission", "V_fifo", "--out", "sub"], warns="FIFO"),
    Case("prepare-submission-socket", ["prepare-submission", "V_socket", "--out", "sub"], warns="socket"),
    Case("leaderboard-fifo-entry", ["leaderboard", "V_fifo", "--prepare-only"], timeout=120),
    Case("leaderboard-socket-entry", ["leaderboard", "V_socket", "--prepare-only"], timeout=120),
    Case("compare-fifo-entry", ["compare", "V_fifo", "local/glove.6B.50d", "intfloat/e5-small-v2", "-t", "N2O"]),
    Case("correlate-fifo-families", table("T.csv", "--families", "fifo.csv")),
    Case("correlate-fifo-table", table("fifo.csv")),
    Case("report-fifo-correlation", ["report", "{R}", "--correlation", "fifo.csv"]),
    Case("study-population-fifo", ["study-population", "--models", "fifo.csv", "--out", "p.csv"]),
    Case("sts-by-level-fifo", ["sts-by-level", "preds_fifo"]),
    # --- result JSON shapes
    *[
        Case(f"correlate-{kind}", correlate(f"V_{kind}"), warns=warn)
        for kind, warn in (
            ("scores_list", "SentEvalMR.json"),
            ("split_dict", "SentEvalMR.json"),
            ("entries_str", "SentEvalMR.json"),
            ("main_missing", "SentEvalMR.json"),
            ("main_none", "SentEvalMR.json"),
            ("main_nan", "SentEvalMR.json"),
            ("main_inf", "SentEvalMR.json"),
            ("task_case", "SentEvalMR.json"),
            ("task_space", "SentEvalMR.json"),
            ("task_missing", "SentEvalMR.json"),
            ("bom", "SentEvalMR.json"),
            ("utf16", "SentEvalMR.json"),
            ("truncated", "SentEvalMR.json"),
            ("empty", "SentEvalMR.json"),
        )
    ],
    Case("correlate-main_bool", correlate("V_main_bool")),
    Case("correlate-main_string", correlate("V_main_string")),
    Case("correlate-main_huge", correlate("V_main_huge")),
    Case("correlate-dup_keys", correlate("V_dup_keys"), warns="appears twice"),
    Case("correlate-negative_time", correlate("V_negative_time"), warns="evaluation_time"),
    Case("correlate-meta_empty", correlate("V_meta_empty"), warns="model_meta.json"),
    Case("correlate-meta_list", correlate("V_meta_list"), warns="model_meta.json"),
    Case("correlate-meta_name_int", correlate("V_meta_name_int"), warns="'name' must be a string, not number 5"),
    Case("correlate-meta_rev_list", correlate("V_meta_rev_list"), warns="'revision' must be a string, not array"),
    Case("correlate-meta_name_path", correlate("V_meta_name_path"), warns="'name' '../x' has an empty"),
    Case("correlate-case-twice", correlate("V_case_twice")),
    Case("report-main_string", ["report", "V_main_string", "--out", "r.html"], warns="not a number"),
    Case(
        "report-meta_name_int",
        ["report", "V_meta_name_int", "--out", "r.html"],
        warns="'name' must be a string, not number 5",
    ),
    Case("report-truncated", ["report", "V_truncated", "--out", "r.html"], warns="SentEvalMR.json"),
    Case("prepare-submission-meta_name_path", ["prepare-submission", "V_meta_name_path", "--out", "sub"], partial=True),
    Case("prepare-submission-meta_list", ["prepare-submission", "V_meta_list", "--out", "sub"], partial=True),
    Case("prepare-submission-mrr", ["prepare-submission", "V_mrr_above_one", "--out", "sub"], partial=True),
    Case("leaderboard-meta_empty", ["leaderboard", "V_meta_empty", "--prepare-only"], timeout=120),
    # --- scores out of range, per task kind
    Case("correlate-mrr_above_one", correlate("V_mrr_above_one")),
    Case("correlate-hits_negative", correlate("V_hits_negative", intrinsic="EvalRankWord:hits_at_1")),
    Case("correlate-hits_negative-main", correlate("V_hits_negative")),
    Case("correlate-accuracy_percent", correlate("V_accuracy_percent")),
    # --- score tables
    Case("correlate-table-newline-cell", table("newline_cell.csv")),
    Case("correlate-table-no-model", table("no_model.csv")),
    Case("correlate-table-all-nan", table("all_nan.csv")),
    # no cell can be computed: refused in one line since the held-out sweep of issue 47 (was a page of "undefined")
    Case("correlate-table-constant", table("constant.csv")),
    Case("correlate-table-one-model", table("one_model.csv")),
    Case("correlate-table-semicolon", table("semicolon.csv")),
    Case("correlate-table-trailing-comma", table("trailing_comma.csv")),
    Case("correlate-table-case-dup", table("case_dup.csv")),
    Case("correlate-table-space-dup", table("space_dup.csv")),
    Case("correlate-table-thousands", table("thousands.csv")),
    Case("correlate-table-percent", table("percent.csv")),
    Case("correlate-table-utf16", table("utf16.csv")),
    Case("correlate-table-comma-in-tsv", table("tab_in_csv.tsv")),
    Case("correlate-table-blank-model", table("blank_model.csv")),
    # --- families files
    Case("correlate-families-empty-family", table("T.csv", "--families", "fam_empty_family.csv")),
    Case("correlate-families-unknown-model", table("T.csv", "--families", "fam_unknown_model.csv"), warns="zz"),
    Case("correlate-families-all-unknown", table("T.csv", "--families", "fam_all_unknown.csv")),
    Case("correlate-families-no-family", table("T.csv", "--families", "fam_no_family.csv")),
    Case("correlate-families-no-model", table("T.csv", "--families", "fam_no_model.csv")),
    Case("correlate-families-case-dup", table("T.csv", "--families", "fam_case_dup.csv")),
    # --- compare
    # a model against itself: "A − B = +0.0000 → no difference" by design (tests/test_compare.py)
    Case(
        "compare-ok-same-model",
        ["compare", "C", "local/glove.6B.50d", "local/glove.6B.50d", "-t", "EvalRankWord"],
        ok=True,
    ),
    Case("compare-unknown-task", ["compare", "C", "local/glove.6B.50d", "zoo/glove-50d__abtt", "-t", "Nope"]),
    *[
        Case(
            f"compare-items-{kind}",
            ["compare", f"C_{kind}", "local/glove.6B.50d", "zoo/glove-50d__abtt", "-t", "EvalRankWord"],
        )
        for kind in ("garbage", "truncated", "shape", "fifo", "meta_list", "no_digest")
    ],
    # --- prepare-submission
    Case("prepare-submission-empty", ["prepare-submission", "emptydir", "--out", "sub"]),
    Case("prepare-submission-only-meta", ["prepare-submission", "only_meta", "--out", "sub"]),
    Case("prepare-submission-mteb1", ["prepare-submission", "old1x", "--out", "sub"]),
    Case("correlate-mteb1", correlate("old1x")),
    # --- study-population --models
    Case("study-population-no-model", ["study-population", "--models", "pop_no_model.csv", "--out", "p.csv"]),
    Case("study-population-short-row", ["study-population", "--models", "pop_short.csv", "--out", "p.csv"]),
    Case("study-population-dup", ["study-population", "--models", "pop_dup.csv", "--out", "p.csv"]),
    Case("study-population-empty", ["study-population", "--models", "pop_empty.csv", "--out", "p.csv"]),
    Case("study-population-header-only", ["study-population", "--models", "pop_header_only.csv", "--out", "p.csv"]),
    Case("study-population-floor", ["study-population", "--models", "pop_floor.csv", "--out", "p.csv"]),
    Case("study-population-utf16", ["study-population", "--models", "utf16.csv", "--out", "p.csv"]),
    # --- study --correlate-only, sts-by-level, leaderboard
    Case("study-correlate-only-empty", ["study", "--correlate-only", "--out", "emptydir"]),
    Case("study-correlate-only-file", ["study", "--correlate-only", "--out", "T.csv"]),
    Case("sts-by-level-bad-json", ["sts-by-level", "preds_bad"]),
    Case("sts-by-level-list-json", ["sts-by-level", "preds_list"]),
    Case("sts-by-level-bins", ["sts-by-level", "preds_list", "--bins", "4-2"]),
    Case("leaderboard-port-bad", ["leaderboard", "{R}", "--port", "-1"]),
    Case("leaderboard-missing", ["leaderboard", "nosuch", "--prepare-only"]),
    Case("leaderboard-file", ["leaderboard", "T.csv", "--prepare-only"]),
    Case("leaderboard-empty", ["leaderboard", "emptydir", "--prepare-only"]),
]

if __name__ == "__main__":
    raise SystemExit(main(CASES, prepare))
