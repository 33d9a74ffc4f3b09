"""transform_set_translation / transform_set_rotation: in place in kernels (locals, struct
fields, array elements, loop-carried values) and on the host; gradients; misuse."""

import numpy as np
import pytest

import treadle as wp
import treadle.autograd


@wp.struct
class Body:
    pose: wp.transform


@wp.kernel
def setters(ts: wp.array(dtype=wp.transform), ps: wp.array(dtype=wp.vec3),
            qs: wp.array(dtype=wp.quat), out: wp.array2d(dtype=wp.transform)):
    i = wp.tid()
    t = ts[i]
    wp.transform_set_translation(t, ps[i])
    out[i, 0] = t
    wp.transform_set_rotation(t, qs[i])
    out[i, 1] = t
    b = Body()
    b.pose = ts[i]
    wp.transform_set_rotation(b.pose, qs[i])
    out[i, 2] = b.pose
    out[i, 3] = ts[i]
    wp.transform_set_translation(out[i, 3], ps[i] * 2.0)
    acc = wp.transform_identity()
    for k in range(3):
        wp.transform_set_translation(acc, wp.transform_get_translation(acc) + ps[i])
    out[i, 4] = acc


def test_setters_write_back_to_their_argument(device):
    rng = np.random.default_rng(0)
    n = 3
    t = rng.standard_normal((n, 7)).astype(np.float32)
    p = rng.standard_normal((n, 3)).astype(np.float32)
    q = rng.standard_normal((n, 4)).astype(np.float32)
    out = wp.zeros((n, 5), dtype=wp.transform, device=device)
    wp.launch(setters, dim=n, inputs=[wp.array(t, dtype=wp.transform, device=device),
                                      wp.array(p, dtype=wp.vec3, device=device),
                                      wp.array(q, dtype=wp.quat, device=device), out],
              device=device)
    o = out.numpy()
    np.testing.assert_array_equal(o[:, 0], np.concatenate([p, t[:, 3:]], 1))
    np.testing.assert_array_equal(o[:, 1], np.concatenate([p, q], 1))
    np.testing.assert_array_equal(o[:, 2], np.concatenate([t[:, :3], q], 1))
    np.testing.assert_array_equal(o[:, 3], np.concatenate([2 * p, t[:, 3:]], 1))
    ident = np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
    np.testing.assert_allclose(o[:, 4], np.concatenate([3 * p, ident], 1), rtol=1e-6)


@wp.kernel
def set_both(ts: wp.array(dtype=wp.transformd), ps: wp.array(dtype=wp.vec3d),
             qs: wp.array(dtype=wp.quatd), out: wp.array(dtype=wp.transformd)):
    i = wp.tid()
    t = ts[i] * 2.0
    wp.transform_set_translation(t, ps[i] * 3.0)
    a = t
    wp.transform_set_rotation(t, qs[i] * 4.0)
    out[i] = t + a


def test_setter_gradients_match_finite_differences(device):
    rng = np.random.default_rng(1)
    ins = [wp.array(rng.standard_normal((2, n)), dtype=d, device=device, requires_grad=True)
           for n, d in ((7, wp.transformd), (3, wp.vec3d), (4, wp.quatd))]
    out = wp.zeros(2, dtype=wp.transformd, device=device, requires_grad=True)
    ad = treadle.autograd.jacobian(set_both, 2, inputs=ins, outputs=[out], device=device)
    fd = treadle.autograd.jacobian_fd(set_both, 2, inputs=ins, outputs=[out], device=device,
                                      eps=1e-6)
    for key in ad:
        np.testing.assert_allclose(ad[key], fd[key], rtol=1e-6, atol=1e-8)


def test_host_setters_modify_in_place():
    t = wp.transformd(1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0)
    assert wp.transform_set_translation(t, wp.vec3d(4.0, 5.0, 6.0)) is None
    wp.transform_set_rotation(t, wp.quatd(0.0, 1.0, 0.0, 0.0))
    assert list(t) == [4.0, 5.0, 6.0, 0.0, 1.0, 0.0, 0.0]
    with pytest.raises(RuntimeError) as info:
        wp.transform_set_rotation(t, wp.vec3d(1.0, 2.0, 3.0))
    assert str(info.value) == ("Couldn't find a function 'transform_set_rotation' compatible with "
                               "the arguments 'transformd, vec3d'")


def test_setter_needs_an_assignable_argument():
    @wp.kernel
    def on_a_temporary(p: wp.array(dtype=wp.vec3)):
        wp.transform_set_translation(wp.transform_identity(), p[0])

    with pytest.raises(TypeError) as info:
        wp.launch(on_a_temporary, dim=1, inputs=[wp.zeros(1, dtype=wp.vec3, device="cpu")],
                  device="cpu")
    assert "on_a_temporary(): only components of local variables can be assigned" in str(info.value)
