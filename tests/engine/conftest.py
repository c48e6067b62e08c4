"""The engine room: the rules, pure Python, no app. Positions are built directly with tests/scenario.py
(`game`, `bare`, setters), whole games played by companion/simulate.py; golden/ holds the recorded
playthrough, saved/ states saved by an older engine. The shipped catalog is tests/conftest.py's `catalog`;
no other fixture is shared here."""
