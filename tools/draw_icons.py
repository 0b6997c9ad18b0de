"""Draw the installable app's PNG icons from ``remikit/server/static/favicon.svg``.

The favicon is one rounded rectangle (the card) and one path of cubic curves (the
heart); this script reads both and paints them with Pillow, four times over size and
scaled down for smooth edges. It writes ``icon-192.png`` and ``icon-512.png`` (the card
on a clear ground) and ``icon-maskable-512.png`` (the card inside the safe circle of a
full felt-green square, for launchers that cut icons to their own shape).

Run: ``.venv/bin/python tools/draw_icons.py`` (needs Pillow).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent.parent / "remikit" / "server" / "static"
SVG = "{http://www.w3.org/2000/svg}"
FELT = "#0f5132"
OVER = 4  # drawn this many times larger, then scaled down
Point = tuple[float, float]


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 24) -> list[Point]:
    """Points along one cubic Bézier curve, without its first point."""
    out = []
    for i in range(1, steps + 1):
        s = i / steps
        r = 1 - s
        out.append(
            (
                r**3 * p0[0] + 3 * r * r * s * p1[0] + 3 * r * s * s * p2[0] + s**3 * p3[0],
                r**3 * p0[1] + 3 * r * r * s * p1[1] + 3 * r * s * s * p2[1] + s**3 * p3[1],
            )
        )
    return out


def path_points(d: str) -> list[Point]:
    """The outline of an SVG path made of one ``M`` and absolute ``C`` curves."""
    commands = re.findall(r"([MCZ])([^MCZ]*)", d)
    points: list[Point] = []
    for command, args in commands:
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
        pairs = list(zip(numbers[::2], numbers[1::2], strict=True))
        if command == "M":
            points.append(pairs[0])
        elif command == "C":
            for i in range(0, len(pairs), 3):
                c1, c2, end = pairs[i : i + 3]
                points.extend(cubic(points[-1], c1, c2, end))
    return points


def draw(size: int, *, maskable: bool) -> Image.Image:
    root = ET.parse(STATIC / "favicon.svg").getroot()
    view = [float(v) for v in root.attrib["viewBox"].split()]
    rect = root.find(f"{SVG}rect")
    path = root.find(f"{SVG}path")
    assert rect is not None and path is not None, "favicon.svg: a rect and a path expected"
    big = size * OVER
    image = Image.new("RGBA", (big, big), FELT if maskable else (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    x, y = float(rect.attrib["x"]), float(rect.attrib["y"])
    w, h = float(rect.attrib["width"]), float(rect.attrib["height"])
    # maskable: the card's corners inside the central circle of 80 % of the width
    scale = 0.8 * big / (w * w + h * h) ** 0.5 if maskable else big / view[3]
    dx = big / 2 - (x + w / 2) * scale
    dy = big / 2 - (y + h / 2) * scale

    def at(p: Point) -> Point:
        return p[0] * scale + dx, p[1] * scale + dy

    stroke = float(rect.attrib.get("stroke-width", "0")) * scale
    radius = float(rect.attrib.get("rx", "0")) * scale
    box = (*at((x, y)), *at((x + w, y + h)))
    pen.rounded_rectangle(
        box,
        radius=radius,
        fill=rect.attrib["fill"],
        outline=rect.attrib.get("stroke"),
        width=round(stroke),
    )
    pen.polygon([at(p) for p in path_points(path.attrib["d"])], fill=path.attrib["fill"])
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        draw(size, maskable=maskable).save(STATIC / name, optimize=True)
        print(f"wrote {STATIC / name}")


if __name__ == "__main__":
    main()
