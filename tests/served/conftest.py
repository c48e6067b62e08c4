"""The served room: `serve` as a real process on a free port (tests/server.py), its door, sockets, workers
and limits, and the command line. A module's server is shared by its tests; `server_args` says how a module
starts it."""

from __future__ import annotations

import pytest
from server import Server


@pytest.fixture(scope="module")
def server_args() -> list[str]:
    return []


@pytest.fixture(scope="module")
def srv(tmp_path_factory, server_args):
    with Server(tmp_path_factory.mktemp("served"), args=server_args) as server:
        yield server


@pytest.fixture(scope="module")
def many_files():
    """Room for a module that holds over a thousand sockets of its own (`resource`: not on Windows)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
