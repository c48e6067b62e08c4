"""A game's file: the whole game in one JSON file that another companion resumes and anyone replays.

story.py     the game act by act in words (`python -m companion replay FILE`)
backups.py   a copy at every round's end and at game over (`serve --backups DIR`)
commands.py  `python -m companion resume FILE` and `replay FILE`

The store says what the file holds and checks every file before anything is built from it
(store/game_file.py), writes it (store/export.py), replays it through its own writes (store/replay.py) and
resumes it as a new game in one transaction (store/resume.py)."""
