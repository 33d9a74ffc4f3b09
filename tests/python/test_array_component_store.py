"""a[i][k] = v, a[i].x = v and a[i].p = v on arrays of vectors, quaternions and transforms
write only that component: the array is not read, so a taped launch can be differentiated."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def fill_components(x: wp.array2d(dtype=float), v: wp.array2d(dtype=wp.vec3),
                    q: wp.array2d(dtype=wp.quat), t: wp.array2d(dtype=wp.transform)):
    i, j = wp.tid()
    s = x[i, j]
    v[i, j][0] = 1.0 * s
    v[i, j].y = 2.0 * s
    v[i, j][2] = 3.0 * s
    q[i, j].x = 1.0 * s
    q[i, j][1] = 2.0 * s
    q[i, j].z = 3.0 * s
    q[i, j].w = 4.0 * s
    t[i, j][0] = 1.0 * s
    t[i, j][1] = 2.0 * s
    t[i, j][2] = 3.0 * s
    t[i, j][3] = 4.0 * s
    t[i, j][4] = 5.0 * s
    t[i, j][5] = 6.0 * s
    t[i, j][6] = 7.0 * s


@wp.kernel
def set_parts(p: wp.array(dtype=wp.vec3), r: wp.array(dtype=wp.quat),
              t: wp.array(dtype=wp.transform)):
    i = wp.tid()
    t[i].p = p[i]
    t[i].q = r[i] * 2.0


@pytest.mark.parametrize("mode", ["release", "debug"])
def test_component_stores_and_their_gradients(mode, device):
    x = wp.array(np.array([[1.0, 2.0]], dtype=np.float32), device=device, requires_grad=True)
    v = wp.full((1, 2), wp.vec3(9.0, 9.0, 9.0), dtype=wp.vec3, device=device, requires_grad=True)
    q = wp.zeros((1, 2), dtype=wp.quat, device=device, requires_grad=True)
    t = wp.zeros((1, 2), dtype=wp.transform, device=device, requires_grad=True)
    saved = wp.config.mode
    wp.config.mode = mode
    try:
        tape = wp.Tape()
        with tape:
            wp.launch(fill_components, dim=(1, 2), inputs=[x, v, q, t], device=device)
        v.grad = wp.ones_like(v)
        q.grad = wp.ones_like(q)
        t.grad = wp.ones_like(t)
        tape.backward()
    finally:
        wp.config.mode = saved
    s = np.array([1.0, 2.0])[:, None]
    np.testing.assert_array_equal(v.numpy()[0], s * [1, 2, 3])
    np.testing.assert_array_equal(q.numpy()[0], s * [1, 2, 3, 4])
    np.testing.assert_array_equal(t.numpy()[0], s * np.arange(1, 8))
    # each component's gradient once: 1 + 2 + 3, 1 + ... + 4 and 1 + ... + 7
    np.testing.assert_array_equal(x.grad.numpy(), [[6 + 10 + 28] * 2])


def test_transform_part_stores(device):
    p = wp.array([[1.0, 2.0, 3.0]], dtype=wp.vec3, device=device, requires_grad=True)
    r = wp.array([[0.0, 0.0, 0.0, 1.0]], dtype=wp.quat, device=device, requires_grad=True)
    t = wp.zeros(1, dtype=wp.transform, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(set_parts, dim=1, inputs=[p, r, t], device=device)
    t.grad = wp.array([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]], dtype=wp.transform, device=device)
    tape.backward()
    np.testing.assert_array_equal(t.numpy()[0], [1, 2, 3, 0, 0, 0, 2])
    np.testing.assert_array_equal(p.grad.numpy()[0], [1, 2, 3])
    np.testing.assert_array_equal(r.grad.numpy()[0], [8, 10, 12, 14])


def test_dynamic_component_index_still_updates_the_element(device):
    @wp.kernel
    def dynamic(v: wp.array(dtype=wp.vec3), k: int):
        i = wp.tid()
        v[i][k] = 5.0

    v = wp.full(2, wp.vec3(1.0, 1.0, 1.0), dtype=wp.vec3, device=device)
    wp.launch(dynamic, dim=2, inputs=[v, 1], device=device)
    np.testing.assert_array_equal(v.numpy(), [[1, 5, 1], [1, 5, 1]])


def test_component_type_is_checked():
    @wp.kernel
    def wrong(v: wp.array(dtype=wp.vec3)):
        v[0][1] = wp.vec2(1.0, 2.0)

    with pytest.raises(TypeError) as info:
        wp.launch(wrong, dim=1, inputs=[wp.zeros(1, dtype=wp.vec3, device="cpu")], device="cpu")
    assert "wrong(): cannot assign" in str(info.value)
