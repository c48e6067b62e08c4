"""The JSON API for tests, bots and scripts: routes.py, the same store and engine calls as the pages."""
