"""print() of every value type inside kernels: composites alone and mixed with scalars."""

import treadle as wp


@wp.struct
class Body:
    mass: float
    vel: wp.vec3
    ids: wp.array(dtype=int)


@wp.kernel
def print_everything(b: Body):
    print(b)
    print("q", wp.quat_identity(), "t", wp.transform_identity())
    print(wp.vec2(1.0, 2.0), 7, wp.mat22(1.0, 2.0, 3.0, 4.0))
    print(wp.int64(-5), wp.uint8(200), wp.float16(0.5), True)


def test_print_every_type(capfd):
    b = Body()
    b.mass = 1.5
    b.vel = wp.vec3(1.0, 2.0, 3.0)
    wp.launch(print_everything, 1, inputs=[b], device="cpu")
    wp.synchronize()
    out = capfd.readouterr().out.splitlines()
    assert out == [
        "Body(mass=1.5, vel=[1, 2, 3], ids=array)",
        "q [0, 0, 0, 1] t transform(p=[0, 0, 0], q=[0, 0, 0, 1])",
        "[1, 2] 7 [[1, 2], [3, 4]]",
        "-5 200 0.5 True",
    ]


@wp.kernel
def print_array(a: wp.array(dtype=float)):
    print(a)
    print("a =", a, 3)


def test_print_array_has_no_contents(capfd):
    # Warp prints no array contents, only this placeholder
    wp.launch(print_array, 1, inputs=[wp.ones(4, dtype=float, device="cpu")], device="cpu")
    wp.synchronize()
    out = capfd.readouterr().out.splitlines()
    assert out == ["<type without print implementation>",
                   "a = <type without print implementation> 3"]
