"""A whole game written as text: every menu, every choice, the setup steps, the upkeep reports and
the final scoring. Used as the golden playthrough test and to settle a dispute after a game."""

from __future__ import annotations

from .catalog import shipped_catalog
from .engine import new_game, options_for
from .engine.events import roman
from .engine.state import GameState
from .simulate import play_game


def _menu_lines(menu: list[dict], picked: dict) -> list[str]:
    out = []
    for o in menu:
        mark = ">" if o is picked else " "
        if o["available"]:
            cost = f" [{o['cost']}]" if o.get("cost") else ""
            out.append(f"  {mark} {o['label']}{cost}")
        else:
            out.append(f"  x {o['label']} — not possible: {o['reason']} ({o['rule']})")
    return out


class Recorder:
    """Collects the text of a game as it is played (pass `record` as `on_decision`)."""

    def __init__(self, state: GameState):
        self.lines = ["# Setup"] + [f"{s['step']}. {s['text']} [{s.get('rule', '')}]" for s in state.setup_steps]

    def record(self, state: GameState, question: dict, menu: list[dict], picked: dict, events: list[dict]) -> None:
        who = question["who"]
        name = "host" if who == "host" else state.seats[who].name
        self.lines.append(f"\n[{state.decisions}] round {roman(state.round)} — "
                          f"{name}: {question['prompt']}")
        self.lines += _menu_lines(menu, picked)
        for e in events:
            mark = "▸" if e.get("data", {}).get("table") else "·"
            self.lines.append(f"    {mark} {e['text']}" + (f" [{e['rule']}]" if e.get("rule") else ""))

    def finish(self, state: GameState) -> str:
        lines = list(self.lines)
        lines.append("\n# Final scoring")
        scoring = state.scoring
        assert scoring is not None, "a playthrough is finished once the game is over"
        for x in scoring["seats"]:
            lines.append(f"{x['name']} ({x['colour']}): {x['total']} VP, rank {x['rank']}")
            for ln in x["lines"]:
                lines.append(f"  {ln['label']}: {ln['points']} [{ln['rule']}] {ln['detail']}".rstrip())
        lines.append("Winner: " + " and ".join(state.seats[i].name for i in scoring["winners"])
                     + (f" ({scoring['tiebreak']})" if scoring["tiebreak"] else ""))
        return "\n".join(lines) + "\n"


def golden_text(players: int = 3, seed: int = 7) -> str:
    """The seeded game kept under tests/engine/golden/: a change of any rule, menu or word shows as a diff. Played
    with the shipped catalog, so a table's corrections never change it."""
    catalog = shipped_catalog()
    recorder = Recorder(new_game(options_for(players), seed, catalog))
    played = play_game(players, seed, on_decision=recorder.record, catalog=catalog)
    return recorder.finish(played.state)
