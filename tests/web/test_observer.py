"""One observer for every screen (issue 24 item 2): templates and pictures are given what the table sees of
a game (engine/pieces.py `Pieces`, engine.seat_view, engine.table_view), never its GameState nor the store's
Game that carries it. Every template rendered and every call into companion/pictures/ is watched while a
whole game is shown on the host screen, on each phone, on the host acting for each seat and on the score
sheet of its end."""

from __future__ import annotations

import random
import sys

from flask import template_rendered

from companion.engine.state import GameState
from companion.pictures import city_svg
from companion.store import Game
from companion.web.host.screen import PARTS as HOST_PARTS
from companion.web.seat.screen import PARTS as SEAT_PARTS
from scenario import game as position
from tables import act_once, create, drive, host_h, snapshot

WHOLE = (GameState, Game)


class Watch:
    """The templates and picture functions that were handed a GameState (or a Game), while watching."""

    def __init__(self, app):
        self.app, self.given = app, []

    def rendered(self, sender, template, context, **extra):
        self.given += [(template.name, k) for k, v in context.items() if isinstance(v, WHOLE)]

    def call(self, frame, event, arg):
        if event == "call" and frame.f_globals.get("__name__", "").startswith("companion.pictures"):
            self.given += [(frame.f_code.co_name, k) for k, v in frame.f_locals.items() if isinstance(v, WHOLE)]

    def __enter__(self):
        template_rendered.connect(self.rendered, self.app)
        sys.setprofile(self.call)
        return self

    def __exit__(self, *exc):
        sys.setprofile(None)
        template_rendered.disconnect(self.rendered, self.app)


def every_screen(client, game: dict) -> None:
    gid, host = game["id"], host_h(game)
    assert client.get(f"/host/{gid}", headers=host).status_code == 200
    for name in HOST_PARTS:
        client.get(f"/host/{gid}/part/{name}", headers=host)
    client.get(f"/host/{gid}/news?v=-1", headers=host)
    for i, seat in enumerate(game["seats"]):
        assert client.get(f"/host/{gid}/seat/{i}", headers=host).status_code == 200
        assert client.get(f"/j/{seat['token']}").status_code == 302
        assert client.get(f"/seat/{seat['token']}").status_code == 200
        for name in SEAT_PARTS:
            client.get(f"/seat/{seat['token']}/part/{name}")
        client.get(f"/seat/{seat['token']}/news?v=-1")


def test_no_template_or_picture_is_given_a_game_state(app, client):
    game = create(client)
    rng = random.Random(3)
    with Watch(app) as watch:
        every_screen(client, game)
        for _ in range(40):  # into round I's turns
            act_once(client, game, rng, snapshot(client, game))
        every_screen(client, game)
    drive(client, game, rng)  # unwatched: the profiler would slow the whole game down
    with Watch(app) as watch_end:
        every_screen(client, game)  # the final scoring, on every screen
    assert watch.given == [] and watch_end.given == []


def test_the_watch_sees_a_state_handed_to_a_picture(app):
    with app.test_request_context("/"), Watch(app) as watch:
        city_svg(position(2))
    assert ("city_svg", "state") in watch.given
