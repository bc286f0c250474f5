"""The ``--device`` option: a torch device that exists in this installation, checked before any work.

``torch.device("nonsense")`` raises a ``RuntimeError`` listing every device type torch knows, and
``cuda:0`` on a CPU-only torch fails only when the first tensor is moved, deep inside a model.  Both are
refused here with one line saying what to give instead.
"""

from __future__ import annotations

from mteb_evalrank.errors import InputError

#: device types a user is told about (torch knows more, rarely what someone means)
COMMON = "cpu, cuda, cuda:N, mps or xpu"


def check_device(text: str) -> str:
    """``text`` if it names an available torch device (``cpu``, ``cuda``, ``cuda:1``, ``mps``, ...);
    :class:`InputError` otherwise."""
    import torch

    try:
        device = torch.device(text)
    except (RuntimeError, ValueError, TypeError):
        raise InputError(f"unknown device {text!r}; use {COMMON}.") from None
    kind = device.type
    if kind == "cpu":
        return text
    if kind == "cuda":
        if not torch.cuda.is_available():
            build = "a CPU-only build" if torch.version.cuda is None else "no usable CUDA GPU"
            raise InputError(f"device {text!r} is not available: this torch {torch.__version__} has {build}; use cpu.")
        count = torch.cuda.device_count()
        if device.index is not None and device.index >= count:
            raise InputError(f"device {text!r} is not available: {count} CUDA device(s), cuda:0 to cuda:{count - 1}.")
        return text
    backend = getattr(torch.backends, kind, None) if kind == "mps" else getattr(torch, kind, None)
    is_available = getattr(backend, "is_available", None)
    if callable(is_available) and is_available():
        return text
    raise InputError(f"device {text!r} is not available in this torch {torch.__version__}; use cpu.")
