"""The compiler asks a Python function's resolver each distinct question once per build."""

from collections import Counter

import treadle as wp

MEMO_N = 3


@wp.func
def memo_helper(x: float):
    return x * float(MEMO_N)


@wp.kernel
def memo_kernel(a: wp.array(dtype=float)):
    i = wp.tid()
    s = float(MEMO_N) + float(MEMO_N)
    for j in range(wp.static(MEMO_N)):
        s += memo_helper(float(wp.static(j)))
    a[i] = memo_helper(s) + memo_helper(float(MEMO_N)) + 0.5


def _count_questions(fn, counts):
    """Wraps the named methods of `fn`'s resolver so that `counts` sees every question."""
    fn._function_source()  # makes the resolver
    resolver = fn._resolver
    for method in ("lookup", "attribute", "annotation", "static_value"):
        answer = getattr(resolver, method)

        def asked(*args, _answer=answer, _method=method):
            key = (fn.__name__, _method) + tuple(
                tuple(sorted(a.items())) if isinstance(a, dict) else a for a in args)
            counts[key] += 1
            return _answer(*args)

        setattr(resolver, method, asked)


def test_each_question_is_asked_once_per_build():
    assert memo_kernel._generic_params is None  # its own reading of the annotations, first
    counts = Counter()
    _count_questions(memo_kernel, counts)
    _count_questions(memo_helper, counts)
    out = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(memo_kernel, 1, inputs=[out], device="cpu")
    s = 6.0 + 3.0 * (0 + 1 + 2)
    assert out.numpy()[0] == s * 3.0 + 9.0 + 0.5
    assert counts, "the compiler asked the resolvers nothing"
    assert max(counts.values()) == 1, [k for k, n in counts.items() if n > 1]
    assert counts[("memo_kernel", "lookup", "MEMO_N")] == 1
    assert counts[("memo_helper", "lookup", "MEMO_N")] == 1
    assert counts[("memo_kernel", "lookup", "memo_helper")] == 1
    assert counts[("memo_kernel", "annotation", "a")] == 1
    assert counts[("memo_helper", "annotation", "x")] == 1
    for j in range(3):
        assert counts[("memo_kernel", "static_value", "j", (("j", j),))] == 1
    # a later build asks again (globals may have changed since)
    memo_kernel._compile_adjoint("cpu")
    assert counts[("memo_kernel", "lookup", "MEMO_N")] == 2
