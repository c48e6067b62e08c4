"""A game's file: the whole game in one JSON file that another companion resumes and anyone replays.

file.py      what the file holds (its format) and the check every file passes before anything is built
story.py     the game act by act in words (`python -m companion replay FILE`)
backups.py   a copy at every round's end and at game over (`serve --backups DIR`)
commands.py  `python -m companion resume FILE` and `replay FILE`

The store writes the file (store/export.py), replays it through its own writes (store/replay.py) and
resumes it as a new game in one transaction (store/resume.py)."""
