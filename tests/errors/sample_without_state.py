# expect: TypeError: sample_unit_disk(): the first argument must be a local uint32 state from wp.rand_init()
# line: 9
import treadle as wp


@wp.kernel
def sample_without_state(x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x[i] = wp.sample_unit_disk(wp.uint32(i))
