"""Pictures of the table as inline SVG and small HTML fragments: state in, `Markup` out.

Pure functions, no Flask and no request, so the views stay thin and every picture is testable. Each
fixed English word goes through `_` so the pages can be translated. One module per subject:
markup (elements, text, the SVG root, hex geometry), glyphs (citizens, lieutenants, rats, cubes),
city (the map and the wheel), minimap (a phone's map to tap), estate (a seat's board), holdings (its
counters and the rest it holds), scoring (the final bars), named (the faces of what a menu or a line names),
faces/ (every printed component).
"""

from __future__ import annotations

from .city import city_key, city_svg, wheel_svg
from .elements import el
from .estate import estate_key, estate_svg
from .holdings import counters_html, tokens_html
from .minimap import minimap_svg
from .option_faces import line_faces, option_face, pick_filter, pick_marks
from .scoring import scoring_svg

__all__ = ["city_key", "city_svg", "counters_html", "el", "estate_key", "estate_svg", "line_faces", "minimap_svg",
           "option_face", "pick_filter", "pick_marks", "scoring_svg", "tokens_html", "wheel_svg"]
