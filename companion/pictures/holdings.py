"""What a seat holds, numbers first: its counters (coins, lumber, fire, major fire, rats, VP, lieutenants)
as a compact grid of icons, numbers and words that a phone reads at a glance, then the rest (boats, wagons,
where each lieutenant is, registers, scroll tracks) as a definition list any screen and screen reader reads.
"""

from __future__ import annotations

from markupsafe import Markup

from ..engine.describe import tile_name
from ..engine.repopulate import tiles_left
from ..engine.state import Place
from ..words import Text
from .elements import SVG_NS, TEXT_ROOT, Gettext, el, english
from .glyphs import letter
from .icons import coin, fire, lieutenant, lumber, major_fire, rat, vp, words


def tokens_html(state, seat_index: int, _: Gettext = english) -> Markup:
    """Everything a seat holds: the counters first, then the rest as a definition list, readable by screen
    readers and on any screen."""
    seat = state.seats[seat_index]
    c = state.catalog
    board = c.scroll_boards.get(seat.scroll_board)
    tops = {t.id: t.top for t in board.tracks} if board else {}
    rows = [(_("Boats"), _items(_boat_text(c, b, _) for b in seat.boats)),
            (_("Wagons"), _items(_wagon_text(c, w, _) for w in seat.wagons)),
            (_("Lieutenants"), _items(_lieutenant_text(state, lt, _) for lt in seat.lieutenants)),
            (_("Repopulation tiles left"), tiles_left(state, seat_index)),
            (_("Registers"), _items(_("{register}: {n}").format(register=_(k), n=v)
                                          for k, v in seat.registers.items())),
            (_("Scroll tracks"), _items(_("{track}: {level} / {top}").format(track=_(k), level=v, top=tops.get(k, "?"))
                                        for k, v in seat.scroll.items())),
            (_("Deferred rewards"), _items(seat.deferred))]
    body = [el("div", {"class": "token-row"}, el("dt", {}, k), el("dd", {}, v)) for k, v in rows]
    return counters_html(seat, _) + el(
        "dl", {"class": f"tokens tokens-{seat.colour}", "data-seat": seat_index},
        el("div", {"class": "token-row token-head"}, el("dt", {}, _("Player")),
           el("dd", {}, f"{seat.name} ({letter(seat.colour, _)})")), body)


def counters_html(seat, _: Gettext = english) -> Markup:
    """The seat's counters as the table counts them, each its icon, its number and its word: what a player
    looks up most, so a phone shows it first and at a glance. Lieutenants: the figures on the estate and in
    Messina (not those in the supply, R-SETUP-15, or given up to the box), and how many of them have not
    acted this round (R-ROUND-3)."""
    figures = [lt for lt in seat.lieutenants if lt.where not in ("supply", "box")]
    unused = sum(1 for lt in figures if not lt.used)
    counts = [("coins", coin, _("Coins"), seat.coins, None), ("lumber", lumber, _("Lumber"), seat.lumber, None),
              ("fire", fire, _("Fire"), seat.fire, None),
              ("major-fire", major_fire, _("Major fire"), seat.major_fire, None),
              ("rats", rat, _("Rats"), seat.rats, None), ("vp", _shield, _("VP"), seat.vp, None),
              ("lieutenants", lieutenant, _("Lieutenants"), len(figures), _("not yet used: {n}").format(n=unused))]
    return el("ul", {"class": "counters"},
              [el("li", {"class": "counter", "data-counter": key},
                  el("svg", {"xmlns": SVG_NS, "viewBox": "-12 -12 24 24", "width": 24, "height": 24,
                             "class": "counter-icon", "aria-hidden": "true", **TEXT_ROOT}, draw(0, 0, 22)),
                  el("span", {"class": "n"}, n), el("span", {"class": "what"}, word),
                  el("span", {"class": "sub"}, sub) if sub else None)
               for key, draw, word, n, sub in counts])


def _where(state, lt, _: Gettext) -> str:
    """Where a lieutenant is, in the words the log uses for that hex or dock (engine.describe.tile_name:
    what is printed on it, never an id or an invented name)."""
    place = Place.of(lt.where)
    if place.in_messina:
        return words(tile_name(state, place.at), _)
    return _(OFF_THE_MAP.get(lt.where, lt.where))


#: a lieutenant not in Messina, in the words the put-back lines use (one msgid each, every language)
OFF_THE_MAP = {"estate": Text("on the estate"), "supply": Text("in the supply"), "box": Text("in the box")}


def _lieutenant_text(state, lt, _: Gettext) -> str:
    """Where a lieutenant is; its pose only for figures in play (supply and box have none)."""
    if lt.where in ("supply", "box"):
        return _where(state, lt, _)
    return (_("{where}, standing") if lt.used else _("{where}, lying")).format(where=_where(state, lt, _))


def _boat_text(c, boat: str, _: Gettext) -> str:
    """A boat as its tile reads: the number on its back and its goods (its id is on no tile)."""
    b = c.boats.get(boat)
    return _("back {back}, {cargo}").format(back=b.back, cargo=_(b.cargo)) if b else "?"


def _wagon_text(c, w, _: Gettext) -> str:
    """A wagon as its tile reads: the number on its back, and whether it is used this round."""
    info = c.wagons.get(w.tile)
    return (_("back {back} (used)") if w.used else _("back {back} (ready)")).format(back=info.back if info else "?")


def _items(values) -> Markup:
    """A list in a <dd>, or a dash when empty, so every row has a value to read."""
    values = list(values)
    return el("ul", {}, [el("li", {}, v) for v in values]) if values else Markup("—")


def _shield(x, y, s) -> Markup:
    """The VP shield bare: its number is the counter's."""
    return vp(x, y, s, "")
