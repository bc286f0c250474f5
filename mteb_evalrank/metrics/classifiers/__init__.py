"""SentEval classifier back ends behind one interface (:mod:`.base`), one module per back end.

:data:`BACKENDS` maps ``Protocol.backend`` to the class; a new back end is one module with a
:class:`~.base.Backend` subclass, added here.  Nothing heavy is imported until a back end trains
(torch and scikit-learn are imported inside the methods).
"""

from __future__ import annotations

from mteb_evalrank.metrics.classifiers.base import Backend, Fitted, select
from mteb_evalrank.metrics.classifiers.pytorch_logreg import PytorchLogReg
from mteb_evalrank.metrics.classifiers.sklearn_logreg import SklearnLogReg

#: ``Protocol.backend`` -> back-end class
BACKENDS: dict[str, type[Backend]] = {cls.name: cls for cls in (PytorchLogReg, SklearnLogReg)}

__all__ = ["BACKENDS", "Backend", "Fitted", "PytorchLogReg", "SklearnLogReg", "select"]
