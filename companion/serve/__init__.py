"""Serving the app: the door in front of the threads (door.py, arrival.py, answers.py, heavy.py, turns.py;
server.py runs cheroot with it), the held questions and the bulletin that answers them (news.py), the
server's own addresses (address.py), the caps on new games and join tries (limits.py), the log without
secrets (logs.py), the phones seen (phones.py), and serving on every core (workers.py, lines.py,
siblings.py). Nothing here knows a rule of the game: it carries requests to the app in companion/web/ and
news back to the screens."""
