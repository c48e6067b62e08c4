"""The parts of cheroot the server's connection manager replaces or reads (companion/serve/server.py, HOOKS) are
private to cheroot: a new version may move them without notice. pyproject.toml pins cheroot to the versions tested; a
version that lacks one fails here, naming the part, instead of failing at a table."""

from __future__ import annotations

import cheroot

from companion.serve import server
from companion.serve.server import HOOKS, missing_hooks


def test_every_private_part_of_cheroot_the_connection_manager_relies_on_is_there():
    assert missing_hooks() == [], (f"cheroot {cheroot.__version__} changed what the connection manager relies on: "
                                   + "; ".join(missing_hooks()))


def test_a_missing_hook_is_named_in_plain_words(monkeypatch):
    """A check that cannot fail is no check: a part taken away is named, with what the manager does with it."""
    where, name, why = HOOKS[0]
    monkeypatch.delattr(where, name)
    assert missing_hooks() == [f"{where.__module__}.{where.__name__}.{name} is gone ({why})"]


def test_a_hook_that_no_longer_does_its_part_is_named(monkeypatch):
    where = server.cheroot_server.HTTPServer

    def put_conn(self, conn):  # a version that would no longer hand connections back to the connection manager
        conn.close()

    monkeypatch.setattr(where, "put_conn", put_conn)
    assert missing_hooks() == ["cheroot.server.HTTPServer.put_conn no longer contains 'self._connections.put(' "
                               "(hands a kept connection back to _connections (the connection manager))"]
