"""The architecture room: the code's shape read from the source (layers and imports, module and function
sizes, one handler per task, gettext calls extraction can see), and the documents the code answers to (every
rule of docs/RULES.md cited by a test, the glossary against the rulebooks, every message translated). Its
tests read files only: no fixture beyond tests/conftest.py's is shared here."""
