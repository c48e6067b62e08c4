"""Final scoring (R-END-1…2, R-SCORE-1…7, R-ADV-3…6, R-SOLO-8…9): a breakdown per player and line.

Each line says what it counted, so the table can check the companion against its own pencil.
"""

from __future__ import annotations

from collections import Counter
from math import floor
from typing import cast

from ..words import Plural, Text, joined, put_text
from .events import note, tile_name, who
from .reach import reached
from .records import ScoreLine, Scoring, SeatScore
from .rulebook import POPULARITY_BONUS, REPOP_BONUS, SOLO_POPULARITY_BONUS, SOLO_REPOP_BONUS, SOLO_TARGET
from .state import GameState


def final_scoring(state: GameState) -> Scoring:
    """Score the game, store the result in the state and end it."""
    result = score(state)
    state.scoring = result
    state.phase = "over"
    names = [who(state, i) for i in result["winners"]]
    winners = names[0]
    for name in names[1:]:
        winners = Text("{first} and {second}", first=winners, second=name)
    vp = result["seats"][result["winners"][0]]["total"]
    note(state, Text("Final scoring: {winners} win with {vp} VP.", winners=winners, vp=vp) if len(names) > 1
         else Text("Final scoring: {winners} wins with {vp} VP.", winners=winners, vp=vp), "R-SCORE-6")
    if "target" in result:
        note(state, Text("A good solo score is {target} VP; you scored {vp}.", target=result["target"], vp=vp),
             "R-SOLO-10")
    return result


REGISTER_LABEL = {"popularity": Text("Popularity register"), "city": Text("City register"),
                  "church": Text("Church register")}


def _line(key: str, label: str, points: int, rule: str, detail: str = "") -> ScoreLine:
    """One scoring line; Text label and detail keep their templates for translation."""
    line = cast(ScoreLine, put_text({"key": key}, "label", label))  # key first, as saved games keep it
    line["points"], line["rule"] = points, rule
    return put_text(line, "detail", detail)


def repopulated(state: GameState, seat: int) -> list[str]:
    return sorted(t for t, h in state.hexes.items() if h.repopulated_by == seat)


def score(state: GameState) -> Scoring:
    """Every seat's scoring lines, totals and ranks, the winners and how a tie was broken."""
    seats = [_seat_score(state, i) for i in range(len(state.seats))]
    if len(seats) == 1:
        _solo_bonuses(state, seats[0])
    else:
        _placement_bonuses(state, seats)
    for x in seats:
        x["total"] = sum(ln["points"] for ln in x["lines"])
    winners, ranks, tiebreak = _winners(state, seats)
    for x in seats:
        x["rank"] = ranks[x["seat"]]
    result = put_text(Scoring(seats=seats, winners=winners, tiebreak=tiebreak), "tiebreak", tiebreak)
    if len(seats) == 1:
        result["target"] = SOLO_TARGET[state.options.advanced]  # R-SOLO-10: what a good score is
    return result


def _seat_score(state: GameState, i: int) -> SeatScore:
    """The lines every seat scores: game VP, rats, registers, repopulated hexes, scroll tracks, tokens."""
    c = state.catalog
    s = state.seats[i]
    loss = c.rat_table.loss(s.rats)
    pop = max(0, s.registers["popularity"] - s.rats)
    lines = [_line("game", Text("VP scored during the game"), s.vp, "R-SCORE-7"),
             _line("rats", Text("Rat penalty"), -loss, "R-END-2",
                   Text("{rats} rats: popularity {before} → {after}, lose {loss} VP", rats=s.rats,
                        before=s.registers["popularity"], after=pop, loss=loss))]
    for kind in ("popularity", "city", "church"):
        pos = pop if kind == "popularity" else s.registers[kind]
        vp = c.register(kind, state.players).spaces[pos].vp
        lines.append(_line(f"register-{kind}", REGISTER_LABEL[kind], vp, "R-SCORE-1", Text("space {n}", n=pos)))
    mine = repopulated(state, i)
    hex_vp = sum(c.hexes[t].repop_vp for t in mine)
    lines.append(_line("repopulated", Text("Repopulated hexes"), hex_vp, "R-SCORE-3",
                       joined([tile_name(state, t) for t in mine]) if mine else Text("none")))
    board = c.scroll_boards[s.scroll_board]
    for tr in board.tracks:
        pts, detail = _track_points(state, i, tr)
        lines.append(_line(f"scroll-{tr.id}", Text("Scroll track: {track}", track=tr.id), pts,
                           "R-ADV-4" if board.side == "b" else "R-SCORE-4", detail))
    tokens = s.coins + s.fire + s.major_fire + s.lumber
    lines.append(_line("tokens", Text("Leftover tokens"), tokens // 3, "R-SCORE-5",
                       Plural("{n} token ÷ 3, rounded down", "{n} tokens ÷ 3, rounded down", n=tokens)))
    return {"seat": i, "name": s.name, "colour": s.colour, "lines": lines, "popularity_after_rats": pop,
            "repopulated": mine, "repop_vp": hex_vp}


def _solo_bonuses(state: GameState, x: SeatScore) -> None:
    """R-SOLO-8…9: popularity against the opponent, and a bonus by the count of repopulated hexes."""
    opp = state.opponent.popularity if state.opponent else 0
    you = x["popularity_after_rats"]
    if you >= opp:
        reached(state, "solo-popularity-bonus")
    x["lines"].append(_line("popularity-bonus", Text("Popularity against the opponent"),
                            SOLO_POPULARITY_BONUS if you >= opp else 0, "R-SOLO-8",
                            Text("you {you}, opponent {opponent}", you=you, opponent=opp)))
    count = len(x["repopulated"])
    if SOLO_REPOP_BONUS[min(count, len(SOLO_REPOP_BONUS) - 1)]:
        reached(state, "solo-repop-bonus")
    x["lines"].append(_line("repop-bonus", Text("Repopulation count bonus"),
                            SOLO_REPOP_BONUS[min(count, len(SOLO_REPOP_BONUS) - 1)], "R-SOLO-9",
                            Plural("{n} hex", "{n} hexes", n=count)))


def _placement_bonuses(state: GameState, seats: list[SeatScore]) -> None:
    """R-SCORE-2: popularity placement (ties to fire, a major fire counting 2); advanced game, R-ADV-3:
    repopulation majority (ties to the hexes' worth)."""
    n = len(seats)
    fire = [s.fire + 2 * s.major_fire for s in state.seats]
    bonus, how = _placements([x["popularity_after_rats"] for x in seats], fire, POPULARITY_BONUS[n])
    for i, x in enumerate(seats):
        x["lines"].append(_line("popularity-bonus", Text("Popularity placement"), bonus[i], "R-SCORE-2", how[i]))
    if state.options.advanced:
        bonus, how = _placements([len(x["repopulated"]) for x in seats], [x["repop_vp"] for x in seats],
                                 REPOP_BONUS[n], need_one=True)
        if any(bonus):
            reached(state, "majority-bonus")
        for i, x in enumerate(seats):
            x["lines"].append(_line("repop-bonus", Text("Repopulation majority"), bonus[i], "R-ADV-3", how[i]))


def _placements(values: list[int], tiebreak: list[int], points: tuple[int, ...], need_one: bool = False):
    """Places by value, ties broken by `tiebreak`; still tied: split the places' points evenly,
    rounded down (Q-13). Returns points and a word of explanation per seat."""
    n = len(values)
    bonus, how = [0] * n, [""] * n
    order = sorted(range(n), key=lambda i: (values[i], tiebreak[i]), reverse=True)
    place = 0
    k = 0
    while k < n:
        group = [j for j in order if (values[j], tiebreak[j]) == (values[order[k]], tiebreak[order[k]])]
        share_places = points[place:place + len(group)]
        total = sum(share_places)
        each = total // len(group) if group else 0
        for j in group:
            if need_one and values[j] == 0:
                how[j] = Text("needs at least 1 repopulated hex")
                continue
            bonus[j] = each
            tied_on_value = [x for x in order if values[x] == values[j]]
            if len(group) > 1:
                how[j] = Plural("place {place} tied with {n} other: points split",
                                "place {place} tied with {n} others: points split", n=len(group) - 1, place=place + 1)
            elif len(tied_on_value) > 1:
                how[j] = Text("place {n} (tie on {value} broken by {tiebreak})", n=place + 1, value=values[j],
                              tiebreak=tiebreak[j])
            else:
                how[j] = Text("place {n}", n=place + 1) if place < len(points) else Text("no points for this place")
        place += len(group)
        k += len(group)
    return bonus, how


def _winners(state: GameState, seats: list[SeatScore]):
    """R-SCORE-6 / Q-20: highest total; ties to most repopulated hexes, then the most valuable single
    repopulated hex; still tied: a shared victory."""
    c = state.catalog

    def key(x):
        best = max((c.hexes[t].repop_vp for t in x["repopulated"]), default=0)
        return (x["total"], len(x["repopulated"]), best)

    ordered = sorted(seats, key=key, reverse=True)
    ranks: dict[int, int] = {}
    for pos, x in enumerate(ordered):
        ranks[x["seat"]] = pos + 1 if pos == 0 or key(x) != key(ordered[pos - 1]) else ranks[ordered[pos - 1]["seat"]]
    top = [x["seat"] for x in ordered if key(x) == key(ordered[0])]
    tied_total = [x for x in ordered if x["total"] == ordered[0]["total"]]
    tiebreak = None
    if len(tied_total) > 1:
        if len(top) > 1:
            tiebreak = Text("tied on total, repopulated hexes and best hex: shared victory (Q-20)")
        elif len({len(x["repopulated"]) for x in tied_total}) > 1:
            tiebreak = Text("tied on total: most repopulated hexes wins (R-SCORE-6)")
        else:
            tiebreak = Text("tied on total and repopulated hexes: the most valuable repopulated hex wins (R-SCORE-6)")
    return top, ranks, tiebreak


def scroll_worth(state: GameState, seat: int, tr) -> str:
    """What one more level of a scroll track gives, in numbers: that level's value, and the track's points at
    the end as the estate stands now, before → after (R-ACT-5; R-SCORE-4, R-ADV-4…6). A track at its top: ""."""
    at = state.seats[seat].scroll[tr.id]
    if at >= tr.top:
        return ""
    before, after = _track_points(state, seat, tr)[0], _track_points(state, seat, tr, at + 1)[0]
    level, was = tr.levels[at + 1], tr.levels[at]
    if tr.counts.startswith("register-"):
        return Text("{lesser} VP past the single bar, {greater} past the double bar; yours now: {before} → {after} VP",
                    lesser=level[0], greater=level[1], before=before, after=after)
    if tr.counts == "overseers":
        return Text("{first}/{second}/{centre} VP for an overseer on step 4/5/6; yours now: {before} → {after} VP",
                    first=level[0], second=level[1], centre=level[2], before=before, after=after)
    units = _units(state, seat, tr.counts)[1]
    if tr.cap:
        return Text("{value} VP each instead of {was}, at most {cap} counted; your {units}: {before} → {after} VP",
                    value=_number(level), was=_number(was), cap=tr.cap, units=units, before=before, after=after)
    return Text("{value} VP each instead of {was}; your {units}: {before} → {after} VP", value=_number(level),
                was=_number(was), units=units, before=before, after=after)


def _number(value) -> str:
    """A track level's value as printed: ½ for a half."""
    return "½" if value == 0.5 else str(int(value)) if float(value).is_integer() else str(value)


def _track_points(state: GameState, seat: int, tr, at: int | None = None) -> tuple[int, str]:
    """R-SCORE-4, R-ADV-4…6, Q-14, Q-21: units × the value of the marker's level (`at`: another level)."""
    c = state.catalog
    s = state.seats[seat]
    level = tr.levels[s.scroll[tr.id] if at is None else at]
    kind = tr.counts
    if kind.startswith("register-"):
        reg_kind = kind.split("-", 1)[1]
        reg = c.register(reg_kind, state.players)
        pos = s.registers[reg_kind]
        if reg_kind == "popularity":
            pos = max(0, pos - s.rats)
        lesser, greater = level
        if pos >= reg.double_bar:
            return int(greater), Text("{kind} space {n}: past the double bar", kind=reg_kind, n=pos)
        if pos >= reg.single_bar:
            return int(lesser), Text("{kind} space {n}: past the single bar", kind=reg_kind, n=pos)
        return 0, Text("{kind} space {n}: not past the single bar", kind=reg_kind, n=pos)
    if kind == "overseers":
        steps = sorted((ov.step for ov in s.overseers.values()), reverse=True)[:tr.cap or 2]
        pts = sum(level[st - 4] for st in steps if st >= 4)
        return int(pts), Text("overseer steps {steps}", steps=", ".join(map(str, steps)))
    units, detail = _units(state, seat, kind)
    if tr.cap:
        units = min(units, tr.cap)
    return floor(units * level), Text("{units} × {factor} (level {level})", units=detail, factor=level,
                                      level=s.scroll[tr.id])


def _units(state: GameState, seat: int, kind: str) -> tuple[int, str]:
    c = state.catalog
    s = state.seats[seat]
    if kind == "buildings":
        n = sum(1 for cab in s.cabins if cab.improvement) + len(s.workshops)
        return n, Plural("{n} building", "{n} buildings", n=n)
    if kind == "boats":
        return len(s.boats), Plural("{n} boat", "{n} boats", n=len(s.boats))
    if kind == "repopulated":
        n = len(repopulated(state, seat))
        return n, Plural("{n} repopulation tile", "{n} repopulation tiles", n=n)
    if kind == "goods":
        cargo = Counter(c.boats[b].cargo for b in s.boats)
        best = cargo.most_common(1)[0] if cargo else ("none", 0)
        return best[1], Text("{n} {cargo}", n=best[1], cargo=best[0])
    if kind == "workshops":
        return len(s.workshops), Plural("{n} workshop", "{n} workshops", n=len(s.workshops))
    if kind == "lumber":
        return s.lumber, Plural("{n} lumber", "{n} lumber", n=s.lumber)
    if kind == "improvements":
        n = sum(1 for cab in s.cabins if cab.improvement)
        return n, Plural("{n} improvement", "{n} improvements", n=n)
    if kind == "coins":
        return s.coins, Plural("{n} coin's worth", "{n} coins' worth", n=s.coins)
    raise ValueError(kind)
