"""The score sheet as a page shows it (issue 26): one column per player of steppers and pictures to tap,
then the city's repopulated hexes, each field's limits and pictures read from the catalog in force, so a
table's corrections show (and count) here as in a game.

Every field is a stepper (a number with − and +) or a row of choices drawn as the board prints them
(register spaces, scroll track levels, overseer steps, scroll boards, hexes), each one a radio button.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from markupsafe import Markup, escape

from ...engine.rulebook import SCORE_LAP
from ...engine.state import CLASSES, COLOURS
from ...pictures import sheet as pic
from ...pictures.faces import face
from ...pictures.glyphs import letter
from ...scoresheet.fields import MOST, MOST_LAPS
from ...scoresheet.supply import boats_in_game, cargos, wagons_in_game

REGISTERS = ("popularity", "city", "church")


class Stepper(TypedDict):
    """A number with − and +, counted up to `max`."""

    kind: Literal["stepper"]
    name: str
    label: str
    value: str
    min: int
    max: int
    icon: Markup
    hint: str


class Choice(TypedDict):
    value: str
    picture: Markup


class Choices(TypedDict):
    """A row of pictures to tap, one radio button each."""

    kind: Literal["choices"]
    name: str
    label: str
    value: str
    icon: Markup | None
    options: list[Choice]
    wide: bool
    hint: str


class TrackChoices(Choices):
    board: str  # the scroll board whose track this is (the page hides the boards not chosen)


Field = Stepper | Choices


class Section(TypedDict):
    title: str
    fields: list[Field]
    hint: NotRequired[str]
    tracks: NotRequired[list[TrackChoices]]  # the scroll board's section: its tracks' levels


class ColourChoice(TypedDict):
    value: str
    letter: str
    word: str


class Column(TypedDict):
    """One player's column: `prefix` starts the names of its fields ("p0.")."""

    index: int
    number: int
    prefix: str
    name: str
    colour: str
    colours: list[ColourChoice]
    sections: list[Section]


class CityHex(TypedDict):
    name: str
    face: Markup
    value: str
    options: list[Choice]


class Typed:
    """What the page's fields hold now: the values sent, else each field's start."""

    def __init__(self, args, players: int, advanced: bool):
        self.args, self.players, self.advanced = args, players, advanced

    def get(self, name: str, default: str = "0") -> str:
        value = self.args.get(name)
        return default if value is None else value


def stepper(name: str, key: str, label: str, most: int, typed: Typed, _, hint: str = "") -> Stepper:
    return {"kind": "stepper", "name": name, "label": label, "value": typed.get(name), "min": 0, "max": most,
            "icon": pic.counted_icon(key, _), "hint": hint}


def choices(name: str, label: str, options: list[tuple[str, Markup]], typed: Typed, default: str = "0",
            icon: Markup | None = None, wide: bool = False, hint: str = "") -> Choices:
    """A row of pictures to tap, one radio button each: [(value, picture)]."""
    return {"kind": "choices", "name": name, "label": label, "value": typed.get(name, default), "icon": icon,
            "options": [{"value": v, "picture": p} for v, p in options], "wide": wide, "hint": hint}


def player_column(i: int, typed: Typed, catalog, _) -> Column:
    """One player's fields, in the order the table finds the pieces: score track, rats, registers, tokens,
    scroll board, buildings, boats, overseers (advanced)."""
    p, n = f"p{i}.", typed.players
    colour = typed.get(p + "colour", COLOURS[i])
    sections: list[Section] = [
        {"title": _("Score track"), "fields": [
            stepper(p + "track", "track", _("Space of your counter on the score track"), SCORE_LAP - 1, typed, _),
            stepper(p + "laps", "laps", _("Times past 50 (marked on the 50 space)"), MOST_LAPS, typed, _)]},
        {"title": _("Rats"), "fields": [stepper(p + "rats", "rats", _("Rat tokens"), MOST, typed, _)]},
        {"title": _("Registers"), "fields": [_register(p + kind, kind, n, typed, catalog, _) for kind in REGISTERS],
         "hint": _("A line before a space is the single bar, two lines the double bar: the b register tracks "
                   "score past them (R-ADV-5).") if typed.advanced else ""},
        {"title": _("Tokens"), "fields": [
            stepper(p + "fire", "fire", _("Fire tokens"), MOST, typed, _),
            stepper(p + "major_fire", "major_fire", _("Major fire tokens"), MOST, typed, _),
            *(stepper(f"{p}coins.{v}", f"coins.{v}", _("Coins of %(value)s", value=v), MOST, typed, _)
              for v in ("1", "3", "5")),
            stepper(p + "lumber", "lumber", _("Lumber"), MOST, typed, _)]},
        _scroll(p, typed, catalog, _),
        {"title": _("Buildings"), "fields": [
            stepper(p + "improvements", "improvements", _("Cabin improvements"), _cabins(colour, typed, catalog),
                    typed, _),
            stepper(p + "workshops", "workshops", _("Workshops (beside the board too)"), len(catalog.workshops),
                    typed, _),
            stepper(p + "wagons", "wagons", _("Wagons"), len(wagons_in_game(catalog, n)), typed, _,
                    _("Wagons scored their VP when built; they count on no scroll track (R-SCORE-4)."))]},
        {"title": _("Boats"), "fields": [_boats(p, cargo, n, typed, catalog, _) for cargo in cargos(catalog)
                                         if any(b.cargo == cargo for b in boats_in_game(catalog, n))]},
    ]
    if typed.advanced:
        sections.append({"title": _("Overseers"), "hint": _("They score on a scroll board with the overseer "
                                                            "track: the 2 farthest (R-ADV-6)."),
                         "fields": [_overseer(p, cls, colour, typed, catalog, _) for cls in CLASSES]})
    return {"index": i, "number": i + 1, "prefix": p, "name": typed.get(p + "name", _("Player %(n)s", n=i + 1)),
            "colour": colour, "colours": [{"value": c, "letter": letter(c, _), "word": _(c)} for c in COLOURS],
            "sections": sections}


def _register(name: str, kind: str, n: int, typed: Typed, catalog, _) -> Choices:
    reg = catalog.register(kind, n)
    label = {"popularity": _("Popularity register"), "city": _("City register"),
             "church": _("Church register")}[kind]
    return choices(name, label, [(str(k), pic.register_space(reg, k, _)) for k in range(len(reg.spaces))], typed,
                   hint=_("Popularity: tap where your counter stands before the rats move it back (R-END-2).")
                   if kind == "popularity" else "")


def _cabins(colour: str, typed: Typed, catalog) -> int:
    board = catalog.boards.get(f"b-{colour}" if typed.advanced else "a") or catalog.boards["a"]
    return board.cabins


def _boats(p: str, cargo: str, n: int, typed: Typed, catalog, _) -> Stepper:
    most = sum(1 for b in boats_in_game(catalog, n) if b.cargo == cargo)
    return stepper(f"{p}boats.{cargo}", f"boats.{cargo}", _("Boats carrying %(cargo)s", cargo=_(cargo)), most,
                   typed, _)


def _scroll(p: str, typed: Typed, catalog, _) -> Section:
    """The scroll board (side a, or which b board in the advanced game) and its three tracks' levels; the
    tracks of the boards not chosen stay hidden (static/score.css) and are not read."""
    b_boards = [b for b in catalog.scroll_boards.values() if b.side == "b"]
    a_boards = [b for b in catalog.scroll_boards.values() if b.side == "a"]
    boards = b_boards + a_boards if typed.advanced else a_boards  # R-ADV-1: mixing in side a is allowed
    fields: list[Field] = []
    if len(boards) > 1:
        fields.append(choices(p + "scroll_board", _("Which scroll board"),
                              [(b.id, face(catalog, "scroll_board", b.id, _)) for b in boards], typed,
                              default=boards[int(p[1:-1]) % len(b_boards or boards)].id, wide=True,
                              hint=_("The advanced game plays the b side; side a may be mixed in (R-ADV-1).")))
    tracks: list[TrackChoices] = []
    for b in boards:
        for t in b.tracks:
            label = _("Track: %(track)s", track=_(t.counts.removeprefix("register-")))
            field = choices(f"{p}scroll.{b.id}.{t.id}", label,
                            [(str(k), pic.track_level(t, k, _)) for k in range(len(t.levels))], typed,
                            icon=pic.track_head(t, _),
                            hint=_("counts at most %(n)s", n=t.cap) if t.cap else "")
            tracks.append({**field, "board": b.id})
    return {"title": _("Scroll board"), "fields": fields, "tracks": tracks}


def _overseer(p: str, cls: str, colour: str, typed: Typed, catalog, _) -> Choices:
    board = catalog.boards.get(f"b-{colour}") or catalog.boards["a"]
    last = 1 + len(board.paths[cls].left)
    label = {"aristocrat": _("Aristocrat overseer"), "nun": _("Nun overseer"),
             "craftsman": _("Craftsman overseer")}[cls]
    return choices(f"{p}overseers.{cls}", label, [(str(k), pic.overseer_step(cls, k, last, _))
                                                   for k in range(last + 1)], typed)


def city_hexes(typed: Typed, catalog, columns: list[Column], _) -> list[CityHex]:
    """Each neighborhood hex that may lie in the city for this player count and can be repopulated
    (R-SETUP-1, R-REPOP-2), with a choice of whose repopulation tile is on it, if anyone's."""
    out: list[CityHex] = []
    for h in catalog.hexes.values():
        if not (h.repop and h.in_count(typed.players)):
            continue
        name = f"hex.{h.id}"
        options = [("", escape(_("none")))] + [(str(c["number"]), pic.player_chip(c["colour"], c["number"], _))
                                              for c in columns]
        out.append({"name": name, "face": face(catalog, "hex", h.id, _), "value": typed.get(name, ""),
                    "options": [{"value": v, "picture": pc} for v, pc in options]})
    return out


def opponent_field(typed: Typed, catalog, _) -> Choices:
    """Solo: where the virtual opponent's counter stands on the popularity register (R-SOLO-8)."""
    reg = catalog.register("popularity", 1)
    return choices("opponent_popularity", _("The opponent's popularity register"),
                   [(str(k), pic.register_space(reg, k, _)) for k in range(len(reg.spaces))], typed)
