"""`/score`, final scoring for a game the companion did not track: routes.py the routes; form.py the sheet's
fields and a position, both ways; screen.py each field's stepper or pictures. Templates: templates/score/."""
