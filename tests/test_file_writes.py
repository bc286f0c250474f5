"""One module writes files by renaming: :mod:`mteb_evalrank.atomic_files` (issue 45, requirement 3).

Every temporary file, staged folder and rename of the package goes through it, so that an interrupted write
leaves the previous file whole everywhere, not only where someone remembered.  This test reads the source
(ast) and fails on ``os.replace``, ``os.rename``, ``os.renames``, ``shutil.move``, a one-argument
``.rename(...)`` / ``.replace(...)`` (``Path.rename``/``Path.replace``; ``str.replace`` takes two) or any use of
``tempfile`` anywhere else; and it checks the writer's own promises on real files.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from mteb_evalrank import atomic_files

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (ROOT / "mteb_evalrank", ROOT / "tasks", ROOT / "hub_datasets")
WRITER = ROOT / "mteb_evalrank" / "atomic_files.py"
#: modules that may rename or make temporary files themselves, with the reason (none: the store included)
ALLOWED: dict[str, str] = {}


def rename_calls(path: Path) -> list[str]:
    """Every rename or temporary-file call in ``path`` (``line: what``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(n == "tempfile" or n.startswith("tempfile.") for n in names):
                found.append(f"{node.lineno}: imports tempfile")
            if isinstance(node, ast.ImportFrom) and node.module in ("os", "shutil"):
                bad = {a.name for a in node.names} & {"replace", "rename", "renames", "move"}
                if bad:
                    found.append(f"{node.lineno}: from {node.module} import {', '.join(sorted(bad))}")
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        attr, owner = node.func.attr, node.func.value
        owner_name = owner.id if isinstance(owner, ast.Name) else None
        if owner_name == "os" and attr in ("replace", "rename", "renames"):
            found.append(f"{node.lineno}: os.{attr}")
        elif owner_name == "shutil" and attr == "move":
            found.append(f"{node.lineno}: shutil.move")
        elif owner_name == "tempfile":
            found.append(f"{node.lineno}: tempfile.{attr}")
        elif attr in ("rename", "replace") and len(node.args) == 1 and not node.keywords:
            found.append(f"{node.lineno}: .{attr}(...) (Path.{attr})")
    return found


def _modules() -> list[Path]:
    return [p for folder in SOURCES for p in sorted(folder.rglob("*.py"))]


def test_only_the_writer_renames_or_makes_temporary_files():
    found = []
    for path in _modules():
        rel = str(path.relative_to(ROOT))
        if path == WRITER or rel in ALLOWED:
            continue
        found += [f"{rel}:{hit} (use mteb_evalrank.atomic_files)" for hit in rename_calls(path)]
    assert not found, "\n".join(found)


def test_the_writer_itself_is_seen(tmp_path):
    """The check finds each kind of call (so an empty result above means something)."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import os, shutil, tempfile\n"
        "from pathlib import Path\n"
        "def f(a, b, text):\n"
        "    os.replace(a, b)\n"
        "    os.rename(a, b)\n"
        "    shutil.move(a, b)\n"
        "    Path(a).rename(b)\n"
        "    Path(a).replace(b)\n"
        "    tempfile.mkdtemp()\n"
        '    return text.replace("/", "__")\n'
    )
    hits = rename_calls(bad)
    assert len(hits) == 7, hits
    assert len(rename_calls(WRITER)) > 0  # the writer is where they live


def test_replace_file_keeps_the_old_file_whole_when_the_write_fails(tmp_path, monkeypatch):
    target = tmp_path / "a.json"
    target.write_text("old")
    os.chmod(target, 0o640)

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_files.os, "replace", refuse)
    with pytest.raises(OSError):
        atomic_files.replace_file(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]  # no temporary file left
    monkeypatch.undo()
    atomic_files.replace_file(target, "new", durable=True)
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640  # keeps the mode


def test_replace_all_is_all_or_nothing(tmp_path, monkeypatch):
    pairs = []
    for name in ("a", "b", "c"):
        tmp = atomic_files.temporary_sibling(tmp_path / name)
        tmp.write_text(name)
        pairs.append((tmp, tmp_path / name))
    calls = []
    real = os.replace

    def second_fails(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise PermissionError(13, "Permission denied")
        real(src, dst)

    monkeypatch.setattr(atomic_files.os, "replace", second_fails)
    with pytest.raises(PermissionError):
        atomic_files.replace_all(pairs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]  # every temporary file removed


def test_staged_folder_appears_complete_or_not_at_all(tmp_path):
    target = tmp_path / "built"
    with pytest.raises(RuntimeError), atomic_files.staged_folder(target) as tmp:
        (tmp / "half").write_text("x")
        raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []
    with atomic_files.staged_folder(target) as tmp:
        (tmp / "whole").write_text("x")
    assert [p.name for p in target.iterdir()] == ["whole"] and len(list(tmp_path.iterdir())) == 1


def test_scratch_folder_is_removed(tmp_path):
    with atomic_files.scratch_folder(dir=tmp_path, prefix="s-") as tmp:
        (tmp / "f").write_text("x")
        assert tmp.parent == tmp_path and tmp.name.startswith("s-")
    assert list(tmp_path.iterdir()) == []
