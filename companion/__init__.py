"""Messina 1347 table companion: the rules state of a physical game, for a host screen and phones."""
