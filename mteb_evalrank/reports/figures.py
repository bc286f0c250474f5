"""Saving the reports' matplotlib figures: one place for layout, resolution and closing."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def save_figure(fig: Any, path: str | Path, *, dpi: int = 130) -> Path:
    """``tight_layout``, write ``path`` (its folder created; format from the suffix), close the figure."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path
