"""Generated malformed inputs (hypothesis): score tables, families files and MTEB result JSON.

Each example starts from a valid input and breaks it one way (a repeated column or model, a short or long
row, no rows, a floor that is not true/false, a NUL, a non-finite or non-numeric cell; in a result file a
value of the wrong type, an out-of-range accuracy, a missing key, truncated JSON, a task name that is not the
file's).  ``mteb_evalrank.cli.main`` runs in-process on it; the answer is exit code 0 or 2, never a traceback;
an exit code 2 is one ``mteb-evalrank: error:`` line; malformed tables and families files are always exit
code 2; and the input files are unchanged, with nothing created next to them.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from results_fixture import MODELS, model_folder, write_results  # noqa: E402

#: the tier (tests/conftest.py): every test here needs a subprocess, a model, a browser or server, an extra or real data
pytestmark = pytest.mark.integration

HEADER = ["model", "EvalRankSent", "SentEvalMR", "floor"]
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _rows(n: int) -> list[list[str]]:
    return [[f"m{i}", f"{i / n:.3f}", f"{(i * 7 % n) / n:.3f}", "false"] for i in range(n)]


def _tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        for p in sorted(root.rglob("*"))
    }


def _run(argv: list[str]) -> tuple[int, str]:
    from mteb_evalrank.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, err.getvalue()


def _check(code: int, err: str, *, must_fail: bool) -> None:
    assert "Traceback" not in err, err
    assert code in ((2,) if must_fail else (0, 2)), (code, err[-1500:])
    if code == 2:
        errors = [line for line in err.splitlines() if line.startswith("mteb-evalrank")]
        assert len(errors) == 1 and errors[0].startswith("mteb-evalrank: error: "), err[-1500:]


BREAKS = [
    "repeat_column",
    "repeat_model",
    "short_row",
    "long_row",
    "no_rows",
    "floor_word",
    "nul",
    "bad_cell",
    "unnamed_column",
    "empty_model",
]


@st.composite
def broken_table(draw) -> tuple[str, str]:
    """``(kind, text)``: a valid score table broken one way."""
    n = draw(st.integers(3, 8))
    header, rows = list(HEADER), _rows(n)
    kind = draw(st.sampled_from(BREAKS))
    k = draw(st.integers(0, n - 1))
    if kind == "repeat_column":
        col = draw(st.sampled_from(HEADER[1:]))
        header.append(draw(st.sampled_from([col, col.upper(), f" {col} "])))
        rows = [r + ["0.5"] for r in rows]
    elif kind == "repeat_model":
        rows.append(list(rows[k]))
    elif kind == "short_row":
        rows[k] = rows[k][: draw(st.integers(1, len(header) - 1))]
    elif kind == "long_row":
        rows[k] = rows[k] + ["0.1"] * draw(st.integers(1, 3))
    elif kind == "no_rows":
        rows = []
    elif kind == "floor_word":
        rows[k][3] = draw(st.sampled_from(["maybe", "2", "t", "nope", "ja"]))
    elif kind == "nul":
        rows[k][draw(st.integers(0, 2))] += "\x00"
    elif kind == "bad_cell":
        rows[k][draw(st.integers(1, 2))] = draw(st.sampled_from(["inf", "-inf", "abc", "1,5", "0.1.2", "--1"]))
    elif kind == "unnamed_column":
        header[draw(st.integers(1, 3))] = ""
    elif kind == "empty_model":
        rows[k][0] = ""
    bom = draw(st.sampled_from(["", "\ufeff"]))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = bom + ending.join(",".join(r) for r in [header, *rows]) + ending
    return kind, text


@given(broken_table())
@SETTINGS
def test_a_malformed_score_table_is_one_line_exit_2_and_changes_nothing(case):
    kind, text = case
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "scores.csv").write_text(text, encoding="utf-8", newline="")
        before = _tree(root)
        code, err = _run(
            [
                "correlate",
                str(root / "scores.csv"),
                "--intrinsic",
                "EvalRankSent",
                "--downstream",
                "SentEvalMR",
                "--n-resamples",
                "100",
                "--csv",
                str(root / "out" / "c.csv"),
            ]
        )
        _check(code, err, must_fail=True)
        assert _tree(root) == before, kind


@given(broken_table())
@SETTINGS
def test_a_malformed_families_file_is_one_line_exit_2_and_changes_nothing(case):
    kind, text = case
    # the same breaks, on a families file: model,family,lineage,floor
    # (case-insensitively: a repeated column stays a repeat of the renamed one)
    text = re.sub("evalranksent", "family", text, flags=re.IGNORECASE)
    text = re.sub("sentevalmr", "lineage", text, flags=re.IGNORECASE)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "scores.csv").write_text("\n".join(",".join(r) for r in [HEADER, *_rows(6)]) + "\n")
        (root / "fam.csv").write_text(text, encoding="utf-8", newline="")
        before = _tree(root)
        code, err = _run(
            [
                "correlate",
                str(root / "scores.csv"),
                "--intrinsic",
                "EvalRankSent",
                "--downstream",
                "SentEvalMR",
                "--n-resamples",
                "100",
                "--families",
                str(root / "fam.csv"),
                "--out",
                str(root / "new" / "t.md"),
            ]
        )
        _check(code, err, must_fail=kind not in ("bad_cell",))  # any text is a family name; a number too
        after = _tree(root)
        if code == 0:  # a valid families file: the report is the one new file, nothing else changed
            after = {k: v for k, v in after.items() if not str(k).startswith("new")}
        assert after == before, kind


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("generated")
    write_results(root, models=MODELS, tasks=["EvalRankWord", "SentEvalMR", "HEROS"])
    return root


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def broken_result(draw) -> tuple[str, str, bytes]:
    """``(task, kind, bytes)``: a valid result file of ``task`` broken one way."""
    task = draw(st.sampled_from(["SentEvalMR", "EvalRankWord", "HEROS"]))
    kind = draw(st.sampled_from(["value", "scores", "entries", "drop_key", "truncate", "task_name", "root"]))
    return task, kind, draw(st.integers(0, 2**31)), draw(VALUES)


@given(broken_result())
@SETTINGS
def test_a_malformed_result_file_never_gives_a_traceback_or_changes_a_file(seeded, case):
    task, kind, seed, value = case
    import random

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "r"
        shutil.copytree(seeded, root)
        path = model_folder(root, *MODELS[0]) / f"{task}.json"
        data = json.loads(path.read_text())
        entry = data["scores"]["test"][0]
        if kind == "value":
            entry[rng.choice(sorted(k for k in entry if k not in ("hf_subset", "languages")))] = value
        elif kind == "scores":
            data["scores"] = value
        elif kind == "entries":
            data["scores"]["test"] = value
        elif kind == "drop_key":
            data.pop(rng.choice(sorted(data)))
        elif kind == "task_name":
            data["task_name"] = rng.choice(["SentEvalCR", "EvalRankSent", "Nope", ""])
        elif kind == "root":
            data = value
        raw = json.dumps(data).encode()
        if kind == "truncate":
            raw = raw[: rng.randrange(len(raw))]
        path.write_bytes(raw)
        before = _tree(Path(tmp))
        code, err = _run(
            [
                "correlate",
                str(root),
                "--intrinsic",
                "EvalRankWord",
                "--downstream",
                "SentEvalMR",
                "--n-resamples",
                "100",
                "--no-progress",
                "--csv",
                str(Path(tmp) / "o" / "c.csv"),
            ]
        )
        _check(code, err, must_fail=False)
        created = set(_tree(Path(tmp))) - set(before)
        assert code == 0 or not created, created
        assert {k: v for k, v in _tree(Path(tmp)).items() if k in before} == before
        if task == "HEROS":
            code, err = _run(["heros-report", str(root)])
            _check(code, err, must_fail=False)


META_KEYS = ["name", "revision", "embed_dim", "n_parameters", "loader_kwargs"]
META_VALUES = st.one_of(
    VALUES,
    st.sampled_from(["../x", "..", "", " ", "a/b", "a\nb", "/abs", "o/../m", "o\\m", "x\x00y", "o/m", "r1"]),
    st.integers(-3, 3),
    st.floats(-2.0, 2.0),
)


@st.composite
def broken_model_meta(draw) -> tuple[str, object]:
    """``(kind, value)``: a valid ``model_meta.json`` with one key set to ``value``, a key removed, or its root
    replaced by ``value``."""
    kind = draw(st.sampled_from([*META_KEYS, "drop", "root"]))
    return kind, draw(META_VALUES) if kind != "drop" else draw(st.sampled_from(META_KEYS))


@given(broken_model_meta())
@SETTINGS
def test_a_malformed_model_meta_is_one_line_or_a_warning_and_changes_nothing(seeded, case):
    """A generated ``model_meta.json``: a report reading the folder (``correlate``) gives exit 0 with one warning
    naming the file when the metadata is malformed (the folder names stand in); a command that writes into the
    folder (``import-senteval``) gives exit 0 or one error line naming the file, and exit 2 changes nothing."""
    from mteb_evalrank.data.result_files import model_meta_problem

    kind, value = case
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "r"
        shutil.copytree(seeded, root)
        folder = model_folder(root, *MODELS[0])
        meta = json.loads((folder / "model_meta.json").read_text())
        if kind == "root":
            meta = value
        elif kind == "drop":
            meta.pop(value, None)
        else:
            meta[kind] = value
        (folder / "model_meta.json").write_text(json.dumps(meta))
        senteval = Path(tmp) / "se.json"
        senteval.write_text(json.dumps({"CR": {"devacc": 75.0, "acc": 74.5, "ndev": 10, "ntest": 10}}))
        before = _tree(Path(tmp))
        problem = model_meta_problem(meta, mteb_shape=False)
        code, err = _run(
            [
                "correlate",
                str(root),
                "--intrinsic",
                "EvalRankWord",
                "--downstream",
                "SentEvalMR",
                "--n-resamples",
                "100",
                "--no-progress",
            ]
        )
        _check(code, err, must_fail=False)
        if problem is not None:
            warned = [
                line
                for line in err.splitlines()
                if "model_meta.json not used" in line or "malformed model_meta.json" in line
            ]
            assert warned and str(folder) in warned[0] and "\n" not in warned[0], err[-1500:]
        assert _tree(Path(tmp)) == before
        revision = MODELS[0][1]
        code, err = _run(
            ["import-senteval", str(senteval), "--model", MODELS[0][0], "--revision", revision, "-o", str(root)]
        )
        _check(code, err, must_fail=problem is not None)
        if code == 2:
            assert "model_meta.json" in err.strip().splitlines()[-1], err[-1500:]
            assert _tree(Path(tmp)) == before
