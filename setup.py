"""Build hook: ship ``mteb_evalrank.pth`` and ``mteb_evalrank.start`` at the top of site-packages.

The one-line ``.pth`` file imports the light ``mteb_evalrank`` package at interpreter start-up, which
installs an import hook that registers the plugin's tasks with MTEB the moment ``mteb`` itself is
imported.  This is what makes ``mteb run -t EvalRankSent`` and ``mteb.get_tasks([...])`` work without
an explicit plugin import (MTEB 2.x has no entry point for task plugins).  Works for regular wheels
(written into build_lib) and for PEP 660 editable installs (written into the unpacked wheel root).

PEP 829 (Python 3.15+) replaces ``import`` lines of ``.pth`` files by ``<name>.start`` files holding
``pkg.mod:callable`` entry points (callables taking no arguments) that the ``site`` module calls at start-up;
a ``.start`` file with the same name as a ``.pth`` file turns that ``.pth`` file's ``import`` lines off, and
from Python 3.18 ``import`` lines are ignored everywhere.  ``mteb_evalrank.start`` names
``mteb_evalrank._autoload:install`` (idempotent); the ``.pth`` line stays for the Pythons before PEP 829, so the
hook is installed once on every Python.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PTH_NAME = "mteb_evalrank.pth"
PTH_LINE = "import mteb_evalrank._autoload\n"
START_NAME = (
    "mteb_evalrank.start"  # PEP 829: same name as the .pth, so Pythons that read it skip the .pth's import line
)
START_LINE = "mteb_evalrank._autoload:install\n"


class build_py_with_pth(build_py):
    def run(self):
        super().run()
        targets = [Path(self.build_lib)]
        if getattr(self, "editable_mode", False):
            targets.append(Path(self.get_finalized_command("install").install_lib))
        for target in targets:
            target.mkdir(parents=True, exist_ok=True)
            (target / PTH_NAME).write_text(PTH_LINE, encoding="utf-8")
            (target / START_NAME).write_text(START_LINE, encoding="utf-8")


setup(cmdclass={"build_py": build_py_with_pth})
