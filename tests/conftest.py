"""The fixtures every room shares, each defined here once: the shipped catalog isolated from any table's
corrections file, the app on a temporary folder (`app`; a module or room says how its app differs by
overriding `app_config`), a client of it, a two-seat game through the API (`game`) and a phone holding the seat
that must answer (`phone`). Helpers: tests/tables.py. Each room's conftest.py adds what only it uses."""

from __future__ import annotations

import sys

import pytest

from companion.catalog import load_catalog
from tables import app_on, new_game, snapshot, translated_app


NEEDS = {"linux": (sys.platform.startswith("linux"),
                   "needs Linux: /proc, loopback addresses past 127.0.0.1, or signals other systems lack"),
         "posix": (sys.platform != "win32", "needs fork and Unix sockets (Linux, macOS)")}


EVERYDAY_PROCESSES = 2  # the machines this project runs on have two cores or more


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """The everyday loop (`pytest -m "not slow"`) runs its tests on two processes when pytest-xdist is there
    (the test extra installs it), so it stays a quick loop as the tests grow; `-n` given by hand wins, and the
    whole run (CI: plain `pytest`) stays on one process, where the served and browser tests time things."""
    if (config.getoption("markexpr") == "not slow" and config.pluginmanager.hasplugin("xdist")
            and config.getoption("numprocesses", None) is None and not hasattr(config, "workerinput")):
        config.option.numprocesses = EVERYDAY_PROCESSES


def pytest_collection_modifyitems(items):
    """Tests marked `linux` (they read /proc, bind 127.0.0.2 and on, or send signals other systems lack) are
    skipped on macOS and Windows, tests marked `posix` (fork, Unix sockets) on Windows, each saying why; CI
    runs every one of them on Linux."""
    for mark, (here, why) in NEEDS.items():
        if not here:
            for item in items:
                if item.get_closest_marker(mark):
                    item.add_marker(pytest.mark.skip(reason=why))


@pytest.fixture(scope="session", autouse=True)
def _no_table_override(tmp_path_factory):
    """Every test sees the default catalog: point MESSINA_CATALOG at a file that does not exist, so a
    developer's instance/catalog.toml never changes a result (docs/CATALOG.md, "Correcting a value").
    Session-scoped so hypothesis tests accept it."""
    mp = pytest.MonkeyPatch()
    mp.setenv("MESSINA_CATALOG", str(tmp_path_factory.mktemp("no-override") / "absent.toml"))
    yield
    mp.undo()


@pytest.fixture(scope="session")
def catalog(tmp_path_factory):
    """The default catalog, loaded with an override path that does not exist."""
    return load_catalog(override=tmp_path_factory.mktemp("catalog") / "absent.toml")


@pytest.fixture
def app_config() -> dict:
    """How a module's app differs from the default (tables.app_on): a hold time, an address, a folder of
    translations. Override it in the module or the room."""
    return {}


@pytest.fixture
def app(tmp_path, app_config):
    return app_on(tmp_path / "instance", **app_config)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(client) -> dict:
    """A two-seat game, the companion drawing (seed 5), round I's first turn open."""
    return new_game(client)


@pytest.fixture
def phone(client, game):
    """The client joined the seat whose turn it is: (game, seat index, token)."""
    who = snapshot(client, game)["pending"][0]["who"]
    tok = game["seats"][who]["token"]
    assert client.get(f"/j/{tok}").status_code == 302
    return game, who, tok


@pytest.fixture
def french_app(tmp_path):
    """The app with the committed French catalog, compiled at start-up into a copy of the directory."""
    app = translated_app(tmp_path)
    assert (tmp_path / "translations" / "fr" / "LC_MESSAGES" / "messages.mo").exists()
    return app
