"""Shared pytest fixtures: `device` runs a test once on every available device."""

import pytest

import treadle as wp

wp.config.quiet = True


def _devices():
    aliases = ["cpu"]
    if wp.is_cuda_available():
        aliases += [f"cuda:{i}" for i in range(wp.get_cuda_device_count())]
    return aliases


@pytest.fixture(params=_devices())
def device(request):
    """A device alias: "cpu", then "cuda:N" for each CUDA device."""
    return request.param
