"""The names MTEB gives the files of a results folder (standard library only, no imports).

The constants of the one results reader, :mod:`mteb_evalrank.data.result_files`, kept apart so that the
file-safety helpers of :mod:`mteb_evalrank.data.files` (which the reader itself uses) can name them too.
"""

#: the metadata file MTEB writes beside each model revision's results
MODEL_META = "model_meta.json"
#: the run settings MTEB (>= 2.0) writes beside each model revision's results
RUN_SETTINGS = "run_settings.jsonl"
#: files beside the results that are not results
NOT_RESULTS = frozenset({MODEL_META})
