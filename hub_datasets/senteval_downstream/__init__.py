"""SentEval downstream tasks (MR, CR, SUBJ, MPQA, SST2, SST5, TREC, MRPC, SICK-E, SciCite): builder and card.

Registry interface: ``build(sources_dir, out_dir) -> dict[str, int]`` and ``validate(folder) -> list[str]``.
"""

from mteb_evalrank.hub_datasets.senteval_downstream.build import (
    BUILD_COMMAND,
    CONFIGS,
    NAME,
    TASKS,
    TaskSpec,
    build,
    read_task,
    scicite_text,
    validate,
)

__all__ = ["BUILD_COMMAND", "CONFIGS", "NAME", "TASKS", "TaskSpec", "build", "read_task", "scicite_text", "validate"]
