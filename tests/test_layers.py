"""The layering rule in executable form: imports inside the package point down only.

Layers, bottom to top (a module may import its own layer and every layer below it):

    0  errors, hashing, file_magic, file_kinds, file_names, atomic_files, json_input, environment, names,
       mteb_internals              exception classes; SHA-256 of files; compressed-file magic; what a path names
                                   (FIFO, device, loop); file names that are not UTF-8; one atomic file write; the
                                   depth-limited JSON reader; the environment-variable reader; the name normaliser;
                                   the MTEB internals the plugin touches (standard library only)
    1  metrics                     pure functions over arrays — may import only ``errors``
    2  models, zoo.catalogue       model specs -> MTEB encoders; the zoo's catalogue (names and entries)
    3  data, integration, hub_datasets, zoo   data sources and caches; MTEB internals; dataset builders; the
                                   optional model zoo (layered inside itself: ``ZOO_LEVELS``)
    4  tasks, reports              thin MTEB tasks; results -> tables, plots, pages
    5  cli, cli_options, cli_*_commands   argument parsing only — nothing but the CLI's own modules imports them

``_autoload`` (the start-up hook), ``mteb_entry_points`` (the entry points an MTEB that reads them calls) and the
package ``__init__`` stand outside the layers: the hook's job is to import the task package when ``mteb`` is
imported, and the entry points hand MTEB the tasks, benchmarks and zoo models.  Every import is checked, including
those inside functions (that is where this package keeps its heavy imports).  Inside a layer, imports
may not go round in a circle (:func:`test_no_import_cycles`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "mteb_evalrank"

#: source folder of each top-level part of the package (tasks/ and hub_datasets/ are mapped into it)
SOURCES = {
    "": ROOT / "mteb_evalrank",
    "tasks": ROOT / "tasks",
    "hub_datasets": ROOT / "hub_datasets",
}

LAYER = {
    "errors": 0,
    "hashing": 0,
    "file_magic": 0,
    "file_kinds": 0,
    "file_names": 0,
    "atomic_files": 0,
    "json_input": 0,
    "environment": 0,
    "names": 0,
    "mteb_internals": 0,
    "metrics": 1,
    "models": 2,
    "data": 3,
    "integration": 3,
    "results": 3,
    "hub_datasets": 3,
    "zoo": 3,
    "tasks": 4,
    "reports": 4,
    "cli": 5,
    "cli_options": 5,
    "cli_run_commands": 5,
    "cli_study_commands": 5,
}
#: modules whose layer is not their part's: the zoo's catalogue (standard library only) sits with models/, which reads it
MODULE_LAYER = {"zoo.catalogue": 2}
#: ``mteb_entry_points`` is the hook's twin for an MTEB that reads entry points: MTEB's door into the task package
OUTSIDE_LAYERS = {"_autoload", "__init__", "mteb_entry_points"}
#: the modules of the command line (layer 5): they may import each other; nothing else imports them
CLI_MODULES = {"cli", "cli_options", "cli_run_commands", "cli_study_commands"}


def _modules() -> list[tuple[str, Path]]:
    out = []
    for part, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).with_suffix("")
            parts = ([part] if part else []) + list(rel.parts)
            if part == "" and parts[0] in ("tasks", "hub_datasets"):
                continue
            out.append((".".join([PACKAGE, *parts]), path))
    return out


def _part(module: str) -> str:
    """Top-level part of the package a dotted module name belongs to (``mteb_evalrank.X...`` -> X)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _layer(module: str) -> int:
    """Layer of a dotted module name: its own entry in ``MODULE_LAYER``, else its part's."""
    rest = module.split(".", 1)[1] if "." in module else ""
    for name, layer in MODULE_LAYER.items():
        if rest == name or rest.startswith(name + "."):
            return layer
    return LAYER[_part(module)]


def _imports(module: str, path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_pkg = path.name == "__init__.py"
    here = module.split(".") if is_pkg else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if name == PACKAGE:  # `from mteb_evalrank import x`: each x is a part
                found += [(node.lineno, f"{PACKAGE}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, name))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module":
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((node.lineno, arg.value))
    return [(line, name) for line, name in found if name == PACKAGE or name.startswith(PACKAGE + ".")]


MODULES = _modules()


def test_every_module_has_a_layer():
    unknown = {_part(m) for m, _ in MODULES} - set(LAYER) - OUTSIDE_LAYERS
    assert not unknown, f"modules outside every layer: {sorted(unknown)} — add them to a layer folder"


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_imports_point_down(module, path):
    own = _part(module)
    if own in OUTSIDE_LAYERS:
        return
    bad = []
    for line, name in _imports(module, path):
        target = _part(name)
        if target == "__init__" or target in OUTSIDE_LAYERS:
            bad.append(f"line {line}: {name} (the package root / start-up hook)")
        elif target in CLI_MODULES and own not in CLI_MODULES:
            bad.append(f"line {line}: {name} (nothing outside the CLI imports the CLI)")
        elif own == "metrics" and target not in ("metrics", "errors"):
            bad.append(f"line {line}: {name} (metrics may import only errors)")
        elif _layer(name) > _layer(module):
            bad.append(f"line {line}: {name} (layer {_layer(name)} above {own}'s {_layer(module)})")
    assert not bad, f"{path.relative_to(ROOT)} imports upwards:\n  " + "\n  ".join(bad)


def _module_graph(modules: list[tuple[str, Path]]) -> dict[str, set[str]]:
    """Module -> the package modules it imports (anywhere in the file; ``from pkg import sub`` counts
    as importing ``pkg.sub``; a package is named without ``.__init__``)."""

    def plain(name: str) -> str:
        return name.removesuffix(".__init__")

    known = {plain(m) for m, _ in modules}
    graph: dict[str, set[str]] = {}
    for module, path in modules:
        targets = {name for _, name in _imports(module, path)}
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[plain(module)] = {t for t in targets if t in known and t != plain(module)}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: its strongly connected components with more than one module
    (Tarjan's algorithm, iterative), each as a closed path ``a -> b -> ... -> a`` through the component."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    cycles = []
    for component in components:  # one readable closed path through each component
        members, path = set(component), [component[0]]
        while True:
            step = next(t for t in sorted(graph[path[-1]]) if t in members)
            if step in path:
                cycles.append(path[path.index(step) :] + [step])
                break
            path.append(step)
    return cycles


def test_no_import_cycles():
    """Imports point down across layers (above) and never go round in a circle inside one layer either:
    a cycle (``registry -> benchmarks -> study -> task_lookup -> registry``) makes the result of an import
    depend on which module happens to be imported first."""
    cycles = _cycles(_module_graph(MODULES))
    assert not cycles, "import cycles:\n  " + "\n  ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_checker_sees_a_cycle_inside_a_layer(tmp_path):
    """The rule must bite: three integration modules importing each other in a circle (one of the imports
    inside a function, as the package keeps its heavy imports) are reported as one cycle."""
    sources = {
        "registry": "def f():\n    from mteb_evalrank.integration.benchmarks import x\n",
        "benchmarks": "from mteb_evalrank.integration import study\n",
        "study": "import mteb_evalrank.errors\ndef g():\n    import mteb_evalrank.integration.registry\n",
        "leaf": "from mteb_evalrank.integration import study\n",
    }
    modules = []
    for name, text in sources.items():
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        modules.append((f"mteb_evalrank.integration.{name}", tmp_path / f"{name}.py"))
    modules.append(("mteb_evalrank.errors", ROOT / "mteb_evalrank" / "errors.py"))
    cycles = _cycles(_module_graph(modules))
    assert cycles == [[f"mteb_evalrank.integration.{m}" for m in ("benchmarks", "study", "registry", "benchmarks")]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_checker_sees_upward_imports(tmp_path):
    """The rule must bite: a metrics module importing models, data or the CLI is reported."""
    src = tmp_path / "bad.py"
    src.write_text(
        "import numpy\nfrom mteb_evalrank.errors import InputError\n"
        "def f():\n    from mteb_evalrank.models import load_model\n    import mteb_evalrank.cli\n"
        "    from mteb_evalrank import data\n",
        encoding="utf-8",
    )
    names = [name for _, name in _imports("mteb_evalrank.metrics.bad", src)]
    assert names == ["mteb_evalrank.errors", "mteb_evalrank.models", "mteb_evalrank.cli", "mteb_evalrank.data"]
    assert [_part(n) for n in names] == ["errors", "models", "cli", "data"]


# --- the zoo: one optional package, layered inside itself (issue 45) ------------------------------------------
#: the zoo's levels, bottom to top: a zoo module may import its own level and those below, never one above.
#: The catalogue (entries and names) -> the forwards and builds -> the engines -> the variants -> the adapter (the
#: one door to MTEB and to the rest of the package) -> the study's selections, the listing and the commands' work.
ZOO_LEVELS = {
    "catalogue": 0,  # catalogue.json, speeds.json; the one parser and formatter of zoo names
    "installed": 0,  # which packages are installed
    "packaged_forwards": 1,
    "onnx_forward": 1,
    "builds": 1,  # bases built here (LSA, TF-IDF, SimCSE): recipes, revisions, speeds
    "simcse_spacy": 1,
    "embedding_store": 1,
    "weight_sources": 1,
    "word_kinds": 1,
    "word_zoo": 1,
    "word_corpora": 1,
    "engines": 2,
    "variants": 3,
    "adapter": 4,
    "study_selection": 5,
    "listing": 5,
    "packaged_weights": 5,
    "word_builds": 5,
    "word_copies": 5,
    "spacy_vectors": 5,
}
ZOO = f"{PACKAGE}.zoo"
#: the parts of the package that reach the zoo only through its adapter (``models`` reads only its catalogue: the
#: layer rule above keeps that, the catalogue being the zoo's one module of layer 2)
THROUGH_THE_ADAPTER = ("tasks", "metrics", "data", "reports")


def _zoo_level(module: str) -> int | None:
    """The zoo level of a dotted module name (``None``: the zoo package itself, or a module outside the zoo)."""
    if not module.startswith(ZOO + "."):
        return None
    return ZOO_LEVELS.get(module.removeprefix(ZOO + ".").split(".")[0], -1)


def _zoo_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, targets in sorted(graph.items()):
        own = _zoo_level(module)
        if own is not None:
            bad += [f"{module} is in no zoo level (add it to ZOO_LEVELS)"] if own < 0 else []
            bad += [
                f"{module} (level {own}) imports {t} (level {_zoo_level(t)})"
                for t in sorted(targets)
                if (_zoo_level(t) or 0) > own
            ]
        elif _part(module) in THROUGH_THE_ADAPTER:
            bad += [
                f"{module} imports {t}: outside the zoo, use mteb_evalrank.zoo.adapter"
                for t in sorted(targets)
                if t.startswith(ZOO + ".") and t != f"{ZOO}.adapter"
            ]
    return bad


def test_the_zoo_is_layered_and_entered_through_its_adapter():
    """Inside the zoo imports point down its levels (``ZOO_LEVELS``); ``tasks``, ``metrics``, ``data`` and
    ``reports`` import only ``zoo.adapter`` (if they import the zoo at all)."""
    graph = _module_graph(MODULES)
    assert any(_zoo_level(m) == 0 for m in graph)
    bad = _zoo_violations(graph)
    assert not bad, "the zoo's layers:\n  " + "\n  ".join(bad)
    # "population" means one thing, a study's model list: no module is named for another meaning of it
    assert not [m for m, _ in MODULES if "population" in m.rsplit(".", 1)[-1]]


def test_the_zoo_checker_sees_an_upward_import_and_a_side_door():
    graph = {
        f"{ZOO}.catalogue": set(),
        f"{ZOO}.engines.base": {f"{ZOO}.catalogue"},
        f"{ZOO}.builds": {f"{ZOO}.engines.base"},  # forwards/builds import an engine: upwards
        f"{ZOO}.newmodule": set(),
        f"{PACKAGE}.reports.study": {f"{ZOO}.adapter", f"{ZOO}.variants"},  # a side door
        f"{PACKAGE}.integration.study": {f"{ZOO}.variants"},  # integration may
    }
    bad = _zoo_violations(graph)
    assert len(bad) == 3, bad
    assert any("zoo.builds (level 1) imports mteb_evalrank.zoo.engines.base (level 2)" in b for b in bad)
    assert any("zoo.newmodule is in no zoo level" in b for b in bad)
    assert any("reports.study imports mteb_evalrank.zoo.variants" in b for b in bad)


def test_report_modules_do_not_parse_arguments():
    for module, path in MODULES:
        if _part(module) in CLI_MODULES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert "argparse" not in imported, f"{path.relative_to(ROOT)} parses arguments; move that into cli.py"


@pytest.mark.integration
def test_pure_layers_do_not_import_mteb_at_run_time():
    """The layers hold at run time too: in a fresh interpreter, importing ``mteb_evalrank.metrics`` (every
    module of it) and the pure model modules (``mteb_evalrank.models.pooling`` and the others that
    ``models/__init__.py`` lists in ``_WITHOUT_MTEB``, and the zoo's in ``zoo/__init__.py``) imports neither MTEB nor the task package — the
    start-up hook registers the plugin only when mteb is imported, so these stay usable without it."""
    import subprocess
    import sys

    metrics = sorted(m for m, _ in MODULES if _part(m) == "metrics")
    code = (
        "import sys, importlib\n"
        "import mteb_evalrank.metrics, mteb_evalrank.models.pooling\n"
        "from mteb_evalrank import models, zoo\n"
        f"for name in {metrics!r} + ['mteb_evalrank.models.' + m for m in sorted(models._WITHOUT_MTEB)]"
        " + ['mteb_evalrank.zoo.' + m for m in sorted(zoo._WITHOUT_MTEB)]:\n"
        "    importlib.import_module(name.removesuffix('.__init__'))\n"
        "bad = [m for m in sys.modules if m == 'mteb' or m.startswith(('mteb.', 'mteb_evalrank.tasks'))]\n"
        "print(len(sys.modules), bad)\n"
        "assert not bad, bad\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    # the check has teeth: a module outside the list brings mteb (and the plugin's tasks) in
    code = "import sys, mteb_evalrank.zoo.variants\nprint('mteb' in sys.modules, 'mteb_evalrank.tasks' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.split() == ["True", "True"], out.stdout + out.stderr


@pytest.mark.integration
def test_a_model_module_imported_first_is_executed_once():
    """Importing a model module before mteb makes the finder import mteb first, whose start-up hook imports
    the zoo; the module asked for must be that same module object, not a second execution of it (two
    copies of the zoo's catalogue would disagree)."""
    import subprocess
    import sys

    code = (
        "import gc, sys; import mteb_evalrank.zoo.variants as z; import mteb_evalrank.zoo.adapter as i; "
        "n = sum(1 for o in gc.get_objects() if type(o).__name__ == 'module' "
        "and getattr(o, '__name__', '') == 'mteb_evalrank.zoo.variants'); "
        "assert i.BASES is z.BASES and n == 1 and sys.modules['mteb_evalrank.zoo.variants'] is z, (n,); "
        "assert type(z.__spec__.loader).__name__ == 'SourceFileLoader'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


# --- one results reader (issues 40, 45) -------------------------------------------------------------
#: the one reader of results folders: the walk and its checks, the layout's names, the typed records, folder names
READER = {
    "data/result_files.py",
    "data/result_layout.py",
    "results/record.py",
    "results/folders.py",
}
#: modules that consume results: they take records (results.record) and open no file to read it
RESULT_CONSUMERS = (
    "reports/",
    "integration/leaderboard_app.py",
    "integration/leaderboard_models.py",
    "integration/model_list.py",
    "integration/study.py",
    "integration/senteval_import.py",
)
#: reads in result consumers that are not of results, each with its reason: (module, function) -> reason
READS_ALLOWED = {
    ("reports/leaderboard.py", "read_correlation_csv"): "the correlation CSV `correlate` wrote, not a result",
    ("reports/leaderboard.py", "_data_uri"): "a chart the page embeds, drawn into a scratch folder",
    ("reports/study.py", "write_study_report"): "the study's own timing.json, not a result",
    ("reports/similarity_levels.py", "gold_range"): "a task's shipped descriptive statistics, not a result",
    ("reports/upstream_export.py", "_evaluator_sources"): "the plugin's own source files, copied into MTEB",
    ("reports/upstream_export.py", "_stats_files"): "the plugin's shipped descriptive statistics",
    ("reports/upstream_export.py", "build_patch"): "source files of the MTEB checkout being patched",
    (
        "reports/upstream_plugins.py",
        "_mteb_version",
    ): "source files of the MTEB checkout being patched, or the patch's own templates",
    (
        "reports/upstream_plugins.py",
        "_template",
    ): "source files of the MTEB checkout being patched, or the patch's own templates",
    (
        "reports/upstream_plugins.py",
        "check_mteb_source",
    ): "source files of the MTEB checkout being patched, or the patch's own templates",
    (
        "reports/upstream_plugins.py",
        "patch_files",
    ): "source files of the MTEB checkout being patched, or the patch's own templates",
    ("integration/study.py", "run_environment"): "/proc/cpuinfo",
    ("integration/study.py", "_record"): "the study's run history (timing.json), not a result",
    ("integration/leaderboard_models.py", "read_models_file"): "the models file the leaderboard itself wrote",
    ("integration/senteval_import.py", "read_senteval_json"): "a SentEval results file (the import's input)",
    ("integration/senteval_import.py", "import_senteval_file"): "the SHA-256 of that SentEval file",
}
#: modules (outside the reader) that may import the names MODEL_META / RUN_SETTINGS, with the reason
NAMES_ALLOWED = {
    "data/files.py": "output protection: a command may not overwrite a results folder's metadata",
    "integration/result_cache.py": "the writer of results: it writes model_meta.json beside each result",
    "integration/result_migration.py": "migrate-results rewrites run_settings.jsonl to the one-headline layout",
    "reports/submission.py": "copies model_meta.json and run_settings.jsonl byte for byte into the submission",
}
#: file globs that walk something other than a results folder (what they read, and where)
OTHER_GLOBS = {("zoo/embedding_store.py", "shard-"), ("reports/similarity_levels.py", "_predictions.json")}
#: hand-made result folder names allowed elsewhere (module -> reason)
FOLDER_NAMES_ALLOWED = {
    "zoo/embedding_store.py": "the embedding store's own key of a model, not a results folder",
    "models/rank_encoder.py": "a RankEncoder's model name spells its base's name inside it, not a results folder",
}
READ_CALLS = {"read_text", "read_bytes", "load", "loads", "open"}


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _pattern_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _functions(tree: ast.AST) -> dict[int, str]:
    """id(node) -> name of the innermost function holding it."""
    out: dict[int, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else name
            out[id(child)] = inner
            visit(child, inner)

    visit(tree, "<module>")
    return out


def _is_write_open(node: ast.Call) -> bool:
    """``open(path, "w")`` / ``path.open("w", ...)`` (a write, not a read)."""
    args = node.args[1:] if isinstance(node.func, ast.Name) else node.args
    mode = args[0] if args else next((k.value for k in node.keywords if k.arg == "mode"), None)
    text = _pattern_text(mode) if mode is not None else None
    return text is not None and any(c in text for c in "wax")


def _read_call(node: ast.Call) -> str | None:
    """The name of a file read: ``json.load(s)``, ``X.read_text()``, ``X.read_bytes()``, ``open(...)`` or
    ``X.open(...)`` for reading; else ``None``."""
    func = node.func
    if isinstance(func, ast.Name) and func.id == "open" and not _is_write_open(node):
        return "open"
    if not isinstance(func, ast.Attribute) or func.attr not in READ_CALLS:
        return None
    if func.attr in ("load", "loads"):
        return f"json.{func.attr}" if isinstance(func.value, ast.Name) and func.value.id == "json" else None
    if func.attr == "open":
        return None if _is_write_open(node) else ".open"
    return f".{func.attr}"


def reader_violations(path: Path, rel: str) -> list[str]:
    """Outside the one results reader: a file read (``json.load``, ``read_text``, ``open``) in a result consumer,
    an import of ``MODEL_META``/``RUN_SETTINGS``, a ``model_meta.json``/``run_settings.jsonl`` literal, a glob of
    JSON files, or a hand-made result folder name (``.replace("/", "__")``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstring_nodes(tree)
    where = _functions(tree)
    consumer = rel.startswith(RESULT_CONSUMERS)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and id(node) not in docs
            and node.value in ("model_meta.json", "run_settings.jsonl")
        ):
            found.append(f"{rel}:{node.lineno}: the literal {node.value!r} (read results with results.record)")
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith(("result_files", "result_layout")):
            names = {a.name for a in node.names} & {"MODEL_META", "RUN_SETTINGS"}
            if names and rel not in NAMES_ALLOWED:
                found.append(
                    f"{rel}:{node.lineno}: imports {', '.join(sorted(names))} (read results with results.record)"
                )
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("glob", "rglob") and node.args:
            text = _pattern_text(node.args[0])
            if (
                text is not None
                and text.endswith((".json", ".jsonl"))
                and not any(rel == f and k in text for f, k in OTHER_GLOBS)
            ):
                found.append(f"{rel}:{node.lineno}: a result-folder glob {text!r} (use results.record.read_records)")
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "replace"
            and [_pattern_text(a) for a in node.args[:2]] == ["/", "__"]
            and rel not in FOLDER_NAMES_ALLOWED
        ):
            found.append(f"{rel}:{node.lineno}: a hand-made result folder name (use results.folders.model_folder_name)")
        call = _read_call(node) if consumer else None
        if call and (rel, where.get(id(node), "<module>")) not in READS_ALLOWED:
            found.append(
                f"{rel}:{node.lineno}: {call}(...) in {where.get(id(node), '<module>')} (a result consumer takes "
                "records: results.record.read_records)"
            )
    return found


def _rel(path: Path) -> str:
    root = ROOT / "mteb_evalrank"
    return str(path.relative_to(root)) if root in path.parents else str(path.relative_to(ROOT))


def test_one_results_reader():
    """Only the one reader (``data/result_files.py``, ``results/record.py``) walks results folders, reads result
    files, ``model_meta.json`` and ``run_settings.jsonl``, and names result folders; every report, the
    leaderboards, the submission, compare and the study take its records.  Checked on calls and imports."""
    found = []
    for _, path in _modules():
        rel = _rel(path)
        if rel not in READER:
            found += reader_violations(path, rel)
    assert not found, "\n".join(found)


def test_the_reader_guard_exceptions_are_still_needed():
    """Every allowed read names a function that still exists in its module (a stale exception fails)."""
    stale = []
    for module, function in READS_ALLOWED:
        source = (ROOT / "mteb_evalrank" / module).read_text(encoding="utf-8")
        if f"def {function}(" not in source:
            stale.append(f"{module}: no function {function}")
    assert not stale, stale


def test_the_reader_guard_sees_calls_imports_globs_and_names(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""model_meta.json in a docstring is fine."""\n'
        "import json\n"
        "from mteb_evalrank.data.result_files import RUN_SETTINGS\n"
        "def f(root, name):\n"
        '    paths = [p for p in root.glob("*/*/*.json")]\n'
        "    data = json.loads((root / RUN_SETTINGS).read_text())\n"
        '    folder = root / name.replace("/", "__")\n'
        "    with open(root / 'x.json') as fh:\n"
        "        return json.load(fh), paths, data, folder\n"
        "def g(path):\n"
        '    with path.open("w") as fh:\n'
        '        fh.write("a write is no read")\n'
    )
    found = reader_violations(bad, "reports/bad.py")
    text = "\n".join(found)
    for what in ("imports RUN_SETTINGS", "glob", "json.loads", ".read_text", "hand-made", "open(", "json.load("):
        assert what in text, (what, text)
    assert len(found) == 7, text
    assert not any("in g" in line for line in found)
    # the same module outside the result consumers: only the imports, globs and names count
    assert len(reader_violations(bad, "models/bad.py")) == 3


def test_task_lists_derive_from_declared_roles():
    """Issue 40: every plugin task declares its role; the study's lists, the suite's order and the leaderboard
    groups are derived from the roles (a new task with a role joins them without editing a list)."""
    import mteb  # noqa: F401

    from mteb_evalrank.integration import study
    from mteb_evalrank.integration.benchmarks import EVALRANK_TASKS, GROUPS
    from mteb_evalrank.integration.registry import plugin_tasks
    from mteb_evalrank.integration.task_lookup import ROLES, plugin_task_names

    classes = plugin_tasks()
    assert all(getattr(c, "role", "") in ROLES for c in classes), [c.__name__ for c in classes if c.role not in ROLES]
    by_role = {r: plugin_task_names(role=r) for r in ROLES}
    assert tuple(t for r in ROLES for t in by_role[r]) == EVALRANK_TASKS
    assert by_role["downstream"] == study.DOWNSTREAM_TASKS
    assert set(study.WORD_SIMILARITY_TASKS) | set(study.SIMILARITY_BASELINES) == set(by_role["baseline"])
    assert set(study.OTHER_WORD_SIMILARITY_TASKS) == set(by_role["similarity"])
    grouped = {t for _, _, names in GROUPS for t in names}
    assert grouped == set(EVALRANK_TASKS) - set(by_role["diagnostic"])  # a diagnostic is in no mean (issue 44)
    source = (ROOT / "mteb_evalrank" / "integration" / "study.py").read_text(encoding="utf-8")
    assert '"SentEvalSTS12"' not in source and '"WS-353-All"' not in source  # no list kept by hand
