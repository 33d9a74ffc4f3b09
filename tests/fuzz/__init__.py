"""Fuzzing of the compiler and launch path: generators, a mutator, a runner and a minimiser."""
