"""Build hook: ship ``mteb_evalrank.pth`` at the top of site-packages.

The one-line ``.pth`` file imports the light ``mteb_evalrank`` package at interpreter start-up, which
installs an import hook that registers the plugin's tasks with MTEB the moment ``mteb`` itself is
imported.  This is what makes ``mteb run -t EvalRankSent`` and ``mteb.get_tasks([...])`` work without
an explicit plugin import (MTEB 2.x has no entry point for task plugins).  Works for regular wheels
(written into build_lib) and for PEP 660 editable installs (written into the unpacked wheel root).
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PTH_NAME = "mteb_evalrank.pth"
PTH_LINE = "import mteb_evalrank._autoload\n"


class build_py_with_pth(build_py):
    def run(self):
        super().run()
        targets = [Path(self.build_lib)]
        if getattr(self, "editable_mode", False):
            targets.append(Path(self.get_finalized_command("install").install_lib))
        for target in targets:
            target.mkdir(parents=True, exist_ok=True)
            (target / PTH_NAME).write_text(PTH_LINE, encoding="utf-8")


setup(cmdclass={"build_py": build_py_with_pth})
