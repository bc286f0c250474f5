"""Results of MTEB runs as typed records: the one reader of results folders (:mod:`.record`)."""
