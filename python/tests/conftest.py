"""Shared pytest setup: the `gpu` marker (tests that need torch with a CUDA device skip without
one; `-m "not gpu"` leaves them out, as the CPU test in ctest does)."""
import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs torch with a CUDA device (skipped without one)")


def torch_or_none():
    try:
        import torch
    except ImportError:
        return None
    return torch


@pytest.fixture
def torch_mod():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("torch is not installed")
    return torch
