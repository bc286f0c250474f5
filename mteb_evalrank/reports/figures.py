"""Saving the reports' matplotlib figures: one place for layout, resolution and closing."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def save_figure(
    fig: Any, path: str | Path, *, dpi: int = 130, rect: tuple[float, float, float, float] | None = None
) -> Path:
    """``tight_layout`` (within ``rect`` of the figure, leaving the rest for e.g. a figure legend), write ``path``
    (its folder created; format from the suffix, ``.png`` added when there is none) through a temporary file
    renamed over it, close the figure."""
    import matplotlib.pyplot as plt

    from mteb_evalrank.data.files import atomic_target

    fig.tight_layout(rect=rect)
    path = Path(path)
    if not path.suffix:
        path = path.with_suffix(".png")  # what matplotlib writes for a name without a suffix
    try:
        with atomic_target(path) as tmp:
            fig.savefig(tmp, dpi=dpi, format=path.suffix[1:].lower())
    finally:
        plt.close(fig)
    return path
