"""A held-out sweep of bad inputs: run each case as a user would, and sort what happened.

Not a pytest module (``pytest`` collects ``test_*.py`` only): a sweep is run by hand, before a release or
after a change to input handling, to find the next failures that the table-driven tests
(``tests/test_bad_input_table.py``) do not know yet.  What it finds becomes rows of that table.

``python tests/sweeps/sweep_<group>.py`` runs one group's ``CASES``.  Each case runs
``python -m mteb_evalrank.cli ARGV`` in a subprocess (a hang is a timeout, not a stuck sweep) inside a fresh
copy of a working folder that holds a seeded MTEB results folder (``R``, written with MTEB's own objects by
``tests/results_fixture.py``) and whatever files the group's ``prepare`` adds.  Outcomes, worst first:

- ``hang``: no exit within the timeout;
- ``traceback``: a Python traceback on stderr;
- ``changed``: a file that was there before is different, gone, or replaced by another kind of entry;
- ``created``: the command failed but left a new file or folder;
- ``silent``: the case is bad input, and the command exited 0;
- ``unclear``: the command failed without exactly one ``mteb-evalrank: error:`` line (or argparse's
  ``error:`` line) naming what is wrong, or with another exit code than 2;
- ``refused``: the documented one-line error, exit 2 (the right outcome for bad input);
- ``worked``: exit 0 on a case marked ``ok`` (the right outcome for valid input);
- ``failed``: a case marked ``ok`` that did not exit 0.

The summary line counts each outcome; the exit code is 1 when any case had a wrong outcome.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
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


def snapshot(root: Path) -> dict[str, str]:
    """Every entry below ``root``: SHA-256 of a regular file, the target of a symlink, the kind of anything
    else (symlinks are not followed; special files are never opened)."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if rel == "cache" or rel.startswith("cache/"):
                continue
            mode = p.lstat().st_mode
            if stat.S_ISLNK(mode):
                out[rel] = "link:" + os.readlink(p)
            elif stat.S_ISREG(mode):
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
            elif stat.S_ISDIR(mode):
                out[rel] = "dir"
            else:
                out[rel] = "special"
    return out


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
    mutable = set(case.mutable) if code == 0 else set()
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
    if code != 0 and created:
        return "created", f"exit {code}; created: {', '.join(created[:5])}"
    if code == 0:
        return ("worked", last) if case.ok else ("silent", f"exit 0: {last}")
    if case.ok:
        return "failed", f"exit {code}: {last}"
    one_line = len(errors) == 1 and errors[0] == last and (last.startswith(("mteb-evalrank: error:", "mteb-evalrank ")))
    if code == 2 and one_line:
        return "refused", last
    return "unclear", f"exit {code}: {len(errors)} error line(s); last: {last}"


#: (device, inode) of a file already copied -> its copy: a hard link in the template is a hard link in the copy
_COPIED: dict[tuple[int, int], str] = {}


def _copy_entry(src: str, dst: str) -> str:
    """``shutil.copy2``, except that a FIFO or a socket (which cannot be copied) is made anew at ``dst``, and a
    second name of a file already copied (a hard link) is linked to that copy."""
    st = os.lstat(src)
    mode = st.st_mode
    if stat.S_ISREG(mode) and st.st_nlink > 1:
        first = _COPIED.get((st.st_dev, st.st_ino))
        if first is not None and os.path.exists(first):
            os.link(first, dst)
            return dst
        _COPIED[(st.st_dev, st.st_ino)] = dst
    if stat.S_ISFIFO(mode):
        os.mkfifo(dst)
    elif stat.S_ISSOCK(mode):
        import socket

        sock = socket.socket(socket.AF_UNIX)
        sock.bind(dst)  # the socket file stays after close
        sock.close()
    else:
        shutil.copy2(src, dst)
    return dst


def run_case(case: Case, template: Path, *, python: str = sys.executable) -> tuple[str, str, float]:
    """Run one case in a fresh copy of ``template``; its outcome, the line to show and the seconds it took."""
    with tempfile.TemporaryDirectory(prefix="sweep-") as tmp:
        work = Path(tmp) / "w"
        shutil.copytree(template, work, symlinks=True, copy_function=_copy_entry)
        argv = [a.replace("{R}", str(work / "R")).replace("{W}", str(work)) for a in case.argv]
        env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
        env.update(HF_HUB_OFFLINE="1", MTEB_EVALRANK_CACHE=str(Path(tmp) / "cache"), PYTHONUNBUFFERED="1")
        env.update({k: v.replace("{W}", str(work)) for k, v in case.env.items()})
        before = snapshot(work)
        start = time.perf_counter()
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
            code, stderr = proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as exc:
            code, stderr = None, exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        seconds = time.perf_counter() - start
        after = snapshot(work)
        outcome, line = classify(case, code, stderr, before, after)
        return outcome, line, seconds


def main(
    cases: Sequence[Case], prepare: Callable[[Path], None] | None = None, argv: Sequence[str] | None = None
) -> int:
    """Run ``cases`` (those whose name contains ``-k``, if given) and print one line per case and a summary."""
    parser = argparse.ArgumentParser(description="a held-out sweep of bad inputs (tests/sweeps/harness.py)")
    parser.add_argument("-k", default="", help="run only cases whose name contains this")
    parser.add_argument("--show-good", action="store_true", help="also list cases with the right outcome")
    args = parser.parse_args(argv)
    selected = [c for c in cases if args.k in c.name]
    names = [c.name for c in cases]
    if len(set(names)) != len(names):
        raise SystemExit(f"duplicate case names: {sorted(n for n in set(names) if names.count(n) > 1)}")
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="sweep-template-") as tmp:
        template = seeded_template(Path(tmp) / "t")
        if prepare is not None:
            prepare(template)
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover - tqdm comes with the project's dependencies
            tqdm = lambda x, **_: x
        rows = []
        for case in tqdm(selected, desc="sweep", unit="case", file=sys.stderr):
            outcome, line, seconds = run_case(case, template)
            counts[outcome] += 1
            rows.append((case.name, outcome, seconds, line))
    for name, outcome, seconds, line in rows:
        if args.show_good or outcome in BAD_OUTCOMES:
            print(f"{outcome:9s} {seconds:6.1f}s  {name}: {line}")
    print("summary: " + ", ".join(f"{k}={counts[k]}" for k in sorted(counts)) + f" ({len(selected)} cases)")
    return 1 if any(counts[k] for k in BAD_OUTCOMES) else 0
