"""Saving the reports' matplotlib figures: one place for layout, resolution and closing."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def save_figure(fig: Any, path: str | Path, *, dpi: int = 130, rect: tuple[float, float, float, float] | None = None) -> Path:
    """``tight_layout`` (within ``rect`` of the figure, leaving the rest for e.g. a figure legend), write ``path``
    (its folder created; format from the suffix), close the figure."""
    import matplotlib.pyplot as plt

    fig.tight_layout(rect=rect)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path
