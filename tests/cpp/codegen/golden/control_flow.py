import treadle as wp

LIMIT = 20


@wp.func
def clamp_step(v: float, lo: float = 0.0):
    if v < lo:
        return lo, 1
    return v, 0


@wp.kernel
def control_flow(x: wp.array2d(dtype=float), counts: wp.array(dtype=int)):
    i, j = wp.tid()
    s = 0.0
    n = 0
    for k in range(j, LIMIT):
        if k % 3 == 0:
            continue
        s += x[i, j] * float(k)
        if s > 100.0:
            break
    while n < 4:
        n += 1
    v, flagged = clamp_step(s)
    x[i, j] = v if flagged == 0 else -v
    counts[i] += n
