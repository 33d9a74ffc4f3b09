"""treadle._src.optim: the names of Warp's private ``warp._src.optim`` package that programs
import (its ``linear`` module)."""
