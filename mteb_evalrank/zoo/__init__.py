"""The model zoo, an optional part of the plugin: named variants of real offline models (``zoo:<base>/<variant>``).

Layered inside itself (``ZOO_LEVELS`` in ``tests/test_layers.py``): the catalogue (:mod:`.catalogue`, the
entries and the names), the forwards and builds, the engines (:mod:`.engines`), the variants (:mod:`.variants`),
the one adapter to MTEB (:mod:`.adapter`), then the study's selections and the listing.  Everything outside the
zoo reaches it through :mod:`mteb_evalrank.zoo.adapter` (the models layer reads only :mod:`.catalogue`).
"""

from mteb_evalrank.models import mteb_first

# MTEB before any zoo module that uses it, as for the model modules (see mteb_evalrank.models): importing mteb
# registers the zoo, which must not meet a half-initialised zoo module.  These need no MTEB:
_WITHOUT_MTEB = frozenset({"catalogue", "onnx_forward"})
mteb_first(__name__, _WITHOUT_MTEB)
