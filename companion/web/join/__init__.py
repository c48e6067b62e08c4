"""Joining a seat: routes.py (a QR code's link, or a seat's code typed on /join). Template: templates/join/."""
