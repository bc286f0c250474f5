"""The README's test command, timed: wall-clock seconds, CPU seconds of every process, and the machine's load.

    python benchmarks/test_suite_time.py                 # python -m pytest -q (parallel workers: pyproject addopts)
    python benchmarks/test_suite_time.py --serial        # the same tests in one process (-n 0)
    python benchmarks/test_suite_time.py -- -m unit      # anything after -- goes to pytest

Prints ``name=value`` lines.  ``cpu_s`` (user + system time of pytest and every process it started) depends
little on other work on the machine; ``wall_s`` does, so ``load_before``/``load_after`` (1-minute load average)
and ``cores`` are printed beside it: on a shared machine, compare ``cpu_s``, and read ``wall_s`` with the load.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serial", action="store_true", help="one process: -n 0")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=15"]
    if args.serial:
        command += ["-n", "0"]
    command += args.pytest_args
    load_before = os.getloadavg()[0]
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    sys.stderr.write(done.stdout[-6000:])
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    print(f"command={' '.join(command[1:])}")
    print(f"exit_code={done.returncode}")
    for outcome in ("passed", "failed", "skipped", "error", "errors"):
        found = re.search(rf"(\d+) {outcome}\b", summary)
        if found:
            print(f"{outcome}={found.group(1)}")
    print(f"wall_s={wall:.0f}")
    print(f"cpu_s={usage.ru_utime + usage.ru_stime:.0f}")
    print(f"cores={os.cpu_count()}")
    print(f"load_before={load_before:.2f}")
    print(f"load_after={os.getloadavg()[0]:.2f}")
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
