"""A sweep of bad inputs: run each case as a user would, and sort what happened.

The sweeps are part of the test suite: ``tests/test_sweeps.py`` runs every case of every ``sweep_*.py`` as one
test, in the ``slow`` tier (``python -m pytest -m slow``; CI runs it after the default tests).  A case that still
fails is listed in ``known_failures.yaml`` (a strict xfail with its reason).  A new sweep is held out: written
after the fixes it tests, run once by hand (``python tests/sweeps/sweep_<group>.py``), its outcome recorded, and
only then added to the suite.  What it finds becomes rows of the bad-input table (``tests/bad_inputs.yaml``).

``python tests/sweeps/sweep_<group>.py`` runs one group's ``CASES``.  Each case runs ``mteb_evalrank.cli.main``
in-process (:func:`run_case_here`: stdin, stdout and stderr replaced, the environment and the working folder set
for the case, a hang ended by ``SIGALRM``), or ``python -m mteb_evalrank.cli ARGV`` in a subprocess for a case
marked ``subprocess=True`` (one that reads the process's own ``/dev/stdin``, or an environment variable read
once at import) or with ``--subprocess``.  It runs inside a copy of a working folder that holds a seeded MTEB
results folder (``R``, written with MTEB's own objects by ``tests/results_fixture.py``) and whatever files the
group's ``prepare`` adds: a :class:`Workspace` keeps one copy and hands it to case after case while they leave it
as it was (a case that changed, created or removed anything gets the next case a fresh copy).  Outcomes, worst
first:

- ``hang``: no exit within the timeout;
- ``traceback``: a Python traceback on stderr;
- ``changed``: a file that was there before is different, gone, or replaced by another kind of entry;
- ``created``: the command failed but left a new file or folder;
- ``silent``: the case is bad input, and the command exited 0;
- ``unclear``: the command failed without exactly one ``mteb-evalrank: error:`` line (or argparse's
  ``error:`` line) naming what is wrong, or with another exit code than 2;
- ``refused``: the documented one-line error, exit 2 (the right outcome for bad input);
- ``worked``: exit 0 on a case marked ``ok`` (the right outcome for valid input);
- ``partial``: exit 1 on a case marked ``partial``, where the command documents "done, but part of the work
  failed, and the command said which" (``prepare-submission`` listing the results it would reject);
- ``warned``: exit 0 with a one-line warning holding the case's ``warns`` fragment (the right outcome where
  the documented behaviour is to go on with a warning, e.g. a results walk skipping an unreadable file);
- ``failed``: a case marked ``ok`` that did not exit 0.

The summary line counts each outcome; the exit code is 1 when any case had a wrong outcome.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import io
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

BAD_OUTCOMES = ("hang", "traceback", "changed", "created", "silent", "unclear", "failed")


@dataclasses.dataclass(frozen=True)
class Case:
    """One input: ``argv`` after ``mteb-evalrank`` (``{R}`` is the seeded results folder, ``{W}`` the working
    folder); ``ok=True`` for valid input (expect exit 0); ``mutable`` are paths (relative to the working
    folder) the command is meant to write, excluded from the ``changed`` check on success only."""

    name: str
    argv: Sequence[str]
    ok: bool = False
    mutable: Sequence[str] = ()
    timeout: float = 120.0
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    stdin: str | None = None
    warns: str | None = None
    partial: bool = False
    subprocess: bool = False


def expect(kind: str) -> dict:
    """:class:`Case` keywords for a case's expected outcome written as ``"ok"`` (valid input), ``"bad"`` (refused)
    or a warning's fragment (``warns``)."""
    if kind == "ok":
        return {"ok": True}
    if kind == "bad":
        return {}
    return {"warns": kind}


def _digest(p: str, mode: int) -> str:
    """What :func:`snapshot` records for one entry of mode ``mode``."""
    if stat.S_ISLNK(mode):
        return "link:" + os.readlink(p)
    if stat.S_ISREG(mode):
        with open(p, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    return "dir" if stat.S_ISDIR(mode) else "special"


def _entries(root: Path):
    """``(relative path, path, lstat)`` of every entry below ``root`` but ``cache/`` (symlinks not followed)."""
    top = str(root)
    stack = [top]
    while stack:
        here = stack.pop()
        with os.scandir(here) as listing:
            for entry in listing:
                rel = entry.path[len(top) + 1 :]
                if rel == "cache":
                    continue
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(st.st_mode):
                    stack.append(entry.path)
                yield rel, entry.path, st


def _fingerprint(st: os.stat_result) -> tuple[int, ...]:
    """What changes when an entry is written, replaced, resized, touched or re-permissioned."""
    return (st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_nlink)


def snapshot(root: Path) -> dict[str, str]:
    """Every entry below ``root``: SHA-256 of a regular file, the target of a symlink, the kind of anything
    else (symlinks are not followed; special files are never opened)."""
    return {rel: _digest(p, st.st_mode) for rel, p, st in _entries(root)}


class Workspace:
    """A working copy of a sweep's template, reused by case after case while none of them changes it.

    Copying the template (hundreds of files) and hashing it twice cost more than most commands; so the copy is
    made once, its digests are the template's (:func:`snapshot`, taken once) and the ``lstat`` of every entry is
    kept.  After a case, an entry whose ``lstat`` (inode, mode, size, modification and change times, link count)
    is as it was has its recorded digest; any other entry is hashed again, so the ``changed`` check compares the
    same digests as a fresh copy would.  A case that left any entry different (even only its mode or times), or
    created or removed one, has the copy thrown away: the next case gets a fresh one."""

    def __init__(self, template: Path) -> None:
        self.template = template
        self.digests = snapshot(template)
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._stats: dict[str, tuple[int, ...]] = {}

    def acquire(self) -> Path:
        """The working folder for the next case: the kept copy, or a fresh one."""
        if self._tmp is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="sweep-")
            copy_template(self.template, self.work)
            self._stats = {rel: _fingerprint(st) for rel, _p, st in _entries(self.work)}
            if set(self._stats) != set(self.digests):  # pragma: no cover - copy_template copies every entry
                raise RuntimeError(f"the copy of {self.template} differs from it in its entries")
        return self.work

    @property
    def work(self) -> Path:
        assert self._tmp is not None
        return Path(self._tmp.name) / "w"

    def after(self) -> dict[str, str]:
        """The snapshot of the working folder after a case; the copy is dropped if the case left it different."""
        out: dict[str, str] = {}
        same = True
        for rel, p, st in _entries(self.work):
            if self._stats.get(rel) == _fingerprint(st):
                out[rel] = self.digests[rel]
            else:
                same = False
                out[rel] = _digest(p, st.st_mode)
        if not same or out.keys() != self.digests.keys():
            self.discard()
        return out

    def discard(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def seeded_template(root: Path) -> Path:
    """A working folder with ``R``: a results folder of three registry models and local/glove.6B.50d over six
    tasks, written with MTEB's own objects."""
    from results_fixture import MODELS, write_results

    tasks = ["EvalRankWord", "EvalRankSent", "HEROS", "N2O", "SentEvalMR", "SentEvalSST2", "SentEvalSTSB"]
    write_results(root / "R", models=(*MODELS, ("local/glove.6B.50d", "8def0747613c")), tasks=tasks)
    return root


def classify(case: Case, code: int | None, stderr: str, before: dict, after: dict) -> tuple[str, str]:
    """The outcome of one case and the line to show for it."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if "error:" in line and "warning:" not in line.split("error:")[0]]
    last = lines[-1] if lines else ""
    if code is None:
        return "hang", "no exit within the timeout"
    if "Traceback (most recent call last)" in stderr:
        return "traceback", next((line for line in reversed(lines) if line and not line.startswith(" ")), last)
    mutable = set(case.mutable) if code == 0 or (case.partial and code == 1) else set()
    changed = [
        rel
        for rel, digest in before.items()
        if rel not in mutable
        and not any(rel.startswith(m.rstrip("/") + "/") for m in mutable)
        and after.get(rel) != digest
    ]
    if changed:
        return "changed", f"exit {code}; changed: {', '.join(changed[:5])}"
    created = sorted(set(after) - set(before))
    if case.partial and code == 1:
        return "partial", last
    if code != 0 and created:
        return "created", f"exit {code}; created: {', '.join(created[:5])}"
    if code == 0 and case.warns is not None:
        warned = [line for line in lines if line.startswith(("mteb-evalrank: warning:", "warning:"))]
        hit = next((line for line in warned if case.warns in line), None)
        return ("warned", hit) if hit else ("silent", f"exit 0 without a warning holding {case.warns!r}: {last}")
    if code == 0:
        return ("worked", last) if case.ok else ("silent", f"exit 0: {last}")
    if case.ok:
        return "failed", f"exit {code}: {last}"
    one_line = len(errors) == 1 and errors[0] == last and (last.startswith(("mteb-evalrank: error:", "mteb-evalrank ")))
    if code == 2 and one_line:
        return "refused", last
    return "unclear", f"exit {code}: {len(errors)} error line(s); last: {last}"


def copy_template(template: Path, work: Path) -> None:
    """``shutil.copytree(template, work, symlinks=True)``, also for what it cannot copy: a FIFO or a socket is
    made anew (``copytree`` refuses special files), and files hard-linked to each other stay hard-linked."""
    import socket

    linked: dict[tuple[int, int], str] = {}

    def copy(src: str, dst: str) -> str:
        st = os.lstat(src)
        if stat.S_ISFIFO(st.st_mode):
            os.mkfifo(dst)
        elif stat.S_ISSOCK(st.st_mode):
            here = os.getcwd()
            os.chdir(os.path.dirname(dst))  # AF_UNIX paths are limited to 108 bytes
            try:
                with socket.socket(socket.AF_UNIX) as sock:
                    sock.bind(os.path.basename(dst))
            finally:
                os.chdir(here)
        elif stat.S_ISREG(st.st_mode) and st.st_nlink > 1 and (st.st_dev, st.st_ino) in linked:
            os.link(linked[(st.st_dev, st.st_ino)], dst)
        else:
            shutil.copy2(src, dst)
            linked.setdefault((st.st_dev, st.st_ino), dst)
        return dst

    shutil.copytree(template, work, symlinks=True, copy_function=copy)


def _case_env(case: Case, work: Path, cache: Path) -> dict[str, str]:
    """The environment a case runs in: the current one without ``MTEB_EVALRANK_*``, offline, its own cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    env.update(HF_HUB_OFFLINE="1", MTEB_EVALRANK_CACHE=str(cache), PYTHONUNBUFFERED="1")
    env.update({k: v.replace("{W}", str(work)) for k, v in case.env.items()})
    return env


def _in_subprocess(argv: list[str], work: Path, env: dict[str, str], case: Case, python: str) -> tuple[int | None, str]:
    try:
        proc = subprocess.run(
            [python, "-m", "mteb_evalrank.cli", *argv],
            cwd=work,
            env=env,
            input=case.stdin,
            capture_output=True,
            text=True,
            timeout=case.timeout,
        )
        return proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as exc:
        return None, exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")


class _Hang(BaseException):
    """Raised by ``SIGALRM`` in a case run in-process: no exit within the case's timeout."""


def _print_warning(message, category, filename, lineno, file=None, line=None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def _as_the_case(work: Path, env: dict[str, str], stdin: str | None):
    """The process as a fresh ``mteb-evalrank`` would see it: ``env``, the working folder ``work``, ``stdin``;
    stdout and stderr go to buffers (yielded: ``(out, err)``), every warning is shown, and all of it is restored
    after."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_format = warnings.formatwarning
    out, err = io.StringIO(), io.StringIO()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(work)
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin or ""), out, err
    try:
        with warnings.catch_warnings():  # a fresh interpreter's filters: each warning once per place, none hidden
            warnings.resetwarnings()
            warnings.simplefilter("default")
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)
            # printed where the command prints, as the interpreter would (under pytest, not into its record)
            warnings.showwarning = _print_warning
            yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        warnings.formatwarning = saved_format
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def _in_process(argv: list[str], work: Path, env: dict[str, str], case: Case) -> tuple[int | None, str]:
    """``mteb_evalrank.cli.main(argv)`` in this process; a traceback is written to the captured stderr as the
    interpreter would, and a case still running after ``case.timeout`` seconds is a hang (``SIGALRM``)."""
    code, _out, err = cli_in_process(argv, work, env, stdin=case.stdin, timeout=case.timeout)
    return code, err


def cli_in_process(
    argv: list[str], work: Path, env: dict[str, str], *, stdin: str | None = None, timeout: float = 300
) -> tuple[int | None, str, str]:
    """``mteb-evalrank ARGV`` as a fresh process would run it, without starting one: ``mteb_evalrank.cli.main`` in
    this process, in the working folder ``work`` with exactly the environment ``env`` (``_as_the_case``).  Its exit
    code (``None``: still running after ``timeout`` seconds, ended by ``SIGALRM``), stdout and stderr; a traceback
    is written to stderr as the interpreter would."""
    from mteb_evalrank.cli import main as cli_main

    def alarm(signum, frame):
        raise _Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    code: int | None
    with _as_the_case(work, env, stdin) as (out, err):
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            code = cli_main(list(argv))
        except SystemExit as exc:  # argparse, or a command that exits
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):
                print(exc.code, file=sys.stderr)
        except _Hang:
            code = None
        except BaseException:  # what the interpreter would print
            print(traceback.format_exc(), file=sys.stderr, end="")
            code = 1
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue()


def cli_completed(
    argv: list[str], work: Path, env: dict[str, str] | None = None, *, timeout: float = 300
) -> subprocess.CompletedProcess:
    """:func:`cli_in_process` as ``subprocess.run(["mteb-evalrank", *argv], capture_output=True, text=True)`` would
    answer (``env``: the process's environment if not given; a run ended by the timeout has return code -1), for
    tests that would otherwise start an interpreter per command."""
    code, out, err = cli_in_process(argv, work, dict(os.environ) if env is None else env, timeout=timeout)
    return subprocess.CompletedProcess(["mteb-evalrank", *argv], -1 if code is None else code, out, err)


def run_case(
    case: Case, template: Path | Workspace, *, python: str = sys.executable, in_process: bool = True
) -> tuple[str, str, float]:
    """Run one case in a copy of ``template`` (a :class:`Workspace` reuses its copy while cases leave it as it
    was; a bare folder is copied for this case alone), in this process unless the case or ``in_process=False``
    asks for a subprocess; its outcome, the line to show and the seconds it took."""
    workspace = template if isinstance(template, Workspace) else Workspace(template)
    try:
        work = workspace.acquire()
        argv = [a.replace("{R}", str(work / "R")).replace("{W}", str(work)) for a in case.argv]
        with tempfile.TemporaryDirectory(prefix="sweep-cache-") as cache:
            env = _case_env(case, work, Path(cache) / "cache")
            start = time.perf_counter()
            if in_process and not case.subprocess:
                code, stderr = _in_process(argv, work, env, case)
            else:
                code, stderr = _in_subprocess(argv, work, env, case, python)
            seconds = time.perf_counter() - start
        after = workspace.after()
        outcome, line = classify(case, code, stderr, workspace.digests, after)
        return outcome, line, seconds
    finally:
        if workspace is not template:
            workspace.discard()


def make_template(root: Path, prepare: Callable[[Path], None] | None) -> Path:
    """The seeded working folder of one sweep: :func:`seeded_template` and the sweep's ``prepare``."""
    template = seeded_template(root)
    if prepare is not None:
        prepare(template)
    return template


def main(
    cases: Sequence[Case], prepare: Callable[[Path], None] | None = None, argv: Sequence[str] | None = None
) -> int:
    """Run ``cases`` (those whose name contains ``-k``, if given) and print one line per case and a summary."""
    parser = argparse.ArgumentParser(description="a held-out sweep of bad inputs (tests/sweeps/harness.py)")
    parser.add_argument("-k", default="", help="run only cases whose name contains this")
    parser.add_argument("--show-good", action="store_true", help="also list cases with the right outcome")
    parser.add_argument("--subprocess", action="store_true", help="run every case in a fresh interpreter")
    args = parser.parse_args(argv)
    selected = [c for c in cases if args.k in c.name]
    names = [c.name for c in cases]
    if len(set(names)) != len(names):
        raise SystemExit(f"duplicate case names: {sorted(n for n in set(names) if names.count(n) > 1)}")
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="sweep-template-") as tmp:
        template = Workspace(make_template(Path(tmp) / "t", prepare))
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover - tqdm comes with the project's dependencies
            tqdm = lambda x, **_: x
        rows = []
        for case in tqdm(selected, desc="sweep", unit="case", file=sys.stderr):
            outcome, line, seconds = run_case(case, template, in_process=not args.subprocess)
            counts[outcome] += 1
            rows.append((case.name, outcome, seconds, line))
        template.discard()
    for name, outcome, seconds, line in rows:
        if args.show_good or outcome in BAD_OUTCOMES:
            print(f"{outcome:9s} {seconds:6.1f}s  {name}: {line}")
    print("summary: " + ", ".join(f"{k}={counts[k]}" for k in sorted(counts)) + f" ({len(selected)} cases)")
    return 1 if any(counts[k] for k in BAD_OUTCOMES) else 0
