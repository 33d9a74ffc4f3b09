"""The builtin table seen from Python: every builtin documented."""

from treadle import _treadle
from treadle.kernel import builtin_function

TABLE = _treadle.builtin_table()
GENERIC_DOC = builtin_function.__doc__


def test_every_builtin_has_its_own_doc():
    seen = {}
    for entry in TABLE:
        doc = entry["doc"].strip()
        assert doc, f"{entry['name']}: empty doc"
        assert doc != GENERIC_DOC, f"{entry['name']}: the generic doc"
        assert len(doc) >= 20, f"{entry['name']}: doc too short to say what it computes: {doc!r}"
        seen.setdefault(doc, []).append(entry["name"])
    shared = {doc: names for doc, names in seen.items() if len(names) > 1}
    assert shared == {}, f"builtins sharing one doc: {shared}"
