"""Join codes: five letters a player can read off the host screen and type on /join, when the phone's
camera will not read the QR code. Letters only, without I and O (taken for 1 and 0), so no two look
alike; 24**5 (about 8 million) codes, unique among the games on this server. The 22-character seat
token stays the secret of the links; a code is short, so web/join/routes.py limits how often one device
may try."""

from __future__ import annotations

import re
import secrets

LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 5
NOT_LETTERS = re.compile(r"[^A-Z]")


def new_code() -> str:
    return "".join(secrets.choice(LETTERS) for _ in range(LENGTH))


def typed_code(text: str) -> str:
    """A code as typed ("abc-de ", "ABCDE") as stored: upper case, spaces and dashes dropped."""
    return NOT_LETTERS.sub("", (text or "")[:40].upper())


def give_codes(db, game_id=None) -> None:
    """Give every seat without a code one (a game's seats, or all: the migration's older games)."""
    where, args = ("where code = ''", []) if game_id is None else ("where code = '' and game_id = ?", [game_id])
    taken = {c for (c,) in db.execute("select code from seats where code != ''")}
    for gid, seat in list(db.execute(f"select game_id, seat from seats {where}", args)):
        code = new_code()
        while code in taken:
            code = new_code()
        taken.add(code)
        db.execute("update seats set code = ? where game_id = ? and seat = ?", [code, gid, seat])
