# expect: TypeError: assign_module_attribute(): cannot assign to attribute 'pi'
# line: 9
import treadle as wp


@wp.kernel
def assign_module_attribute(x: wp.array(dtype=float)):
    i = wp.tid()
    wp.pi = 3.0
