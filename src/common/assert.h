// src/common/assert.h -- TREADLE_ASSERT: internal invariants; a failure is a treadle bug
#pragma once

#include <cstdio>
#include <cstdlib>

#define TREADLE_ASSERT(cond)                                                               \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::fprintf(stderr, "treadle internal error: %s:%d: assertion '%s' failed\n", \
                         __FILE__, __LINE__, #cond);                                       \
            std::abort();                                                                  \
        }                                                                                  \
    } while (0)
