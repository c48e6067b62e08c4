"""The host screen's room: the front page (a new game, or one resumed from its file), the host screen and
its live regions, the moment at its top.

routes.py the routes and the host's context; screen.py its live regions; moment.py what the table does now;
resume.py a game resumed from its file (the front page's form, POST /api/games/resume). Templates:
templates/host/. Acting for a seat, the host draws the seat's own screen (web/seat/screen.py)."""
