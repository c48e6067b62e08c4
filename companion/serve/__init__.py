"""Serving the app: the process, the sockets and the waiting connections. The connection manager in front of
the threads (connections.py, arrival.py, answers.py, large_pages.py, turns.py; server.py runs cheroot with it),
and serving on every core (workers.py, lines.py, siblings.py: the news port's workers' implementation, and the
phones seen, told between the worker processes). Nothing here knows a rule of the game or imports Flask: it
carries requests to the app in companion/web/ and news back to the screens (companion/news.py); companion/cli.py
puts the two together.
"""
