# expect: TypeError: missing_annotation(): kernel parameter 'x' needs a type annotation
# line: 7
import treadle as wp


@wp.kernel
def missing_annotation(x):
    i = wp.tid()
