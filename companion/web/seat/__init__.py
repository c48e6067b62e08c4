"""A player's phone: routes.py the routes (a tap, an undo, news, a region again, a seat moved to another
phone); screen.py the seat's screen and its live regions from engine.seat_view, the one the host also shows
when it acts for the seat. Templates: templates/seat/."""
