"""The pictures room: companion/pictures/ drawn without an app (faces from the catalog's records, the city
map, estates, minimaps, option faces, letters), each picture parsed as SVG. States come from
tests/scenario.py and companion/simulate.py; no fixture beyond tests/conftest.py's is shared here."""
