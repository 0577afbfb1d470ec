"""How readable a picture is on a phone: the height of every text it draws, seen 400 px wide.

Discord's phone apps show a picture about `common.PHONE_WIDTH` px wide. `measure`
draws a picture while watching every `ImageDraw.text` call (Pillow's, not ours:
it sees the fonts and sizes actually used, including text in cached layers, which
it rebuilds first) and reports, for each text, how tall its digits stand once the
picture is scaled to that width. The rendering tests and `bench.render --phone`
use it; renderers do not.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from renderers import common
from renderers.common import Picture


@dataclass(frozen=True)
class DrawnText:
    """One text a picture drew: what it said and how tall its digits look at phone width."""

    text: str
    size: int
    phone_px: float


@dataclass(frozen=True)
class TextSizes:
    """Every text one picture drew, and the picture's own size."""

    picture: Picture
    width: int
    height: int
    texts: tuple[DrawnText, ...]

    @property
    def smallest(self) -> DrawnText:
        """The text that looks smallest on a phone."""
        return min(self.texts, key=lambda drawn: drawn.phone_px)

    def too_small(self, limit: float = common.PHONE_MIN_TEXT) -> list[DrawnText]:
        """The texts under ``limit`` px at phone width (rounded to a tenth, as a reader would measure)."""
        return [drawn for drawn in self.texts if round(drawn.phone_px, 1) < limit]


def _clear_layer_caches() -> None:
    """Forget every cached layer of the renderers, so their text is drawn (and seen) again."""
    for name, module in list(sys.modules.items()):
        if name == "renderers" or name.startswith("renderers."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


@contextmanager
def _watching_text() -> Iterator[list[tuple[str, ImageFont.FreeTypeFont]]]:
    """Record (text, font) of every `ImageDraw.text` call while the block runs."""
    seen: list[tuple[str, ImageFont.FreeTypeFont]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy, text, fill=None, font=None, *args, **kwargs):
        if isinstance(font, ImageFont.FreeTypeFont) and str(text).strip():
            seen.append((str(text), font))
        return original(self, xy, text, fill, font, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def _digit_height(font: ImageFont.FreeTypeFont, text: str) -> int:
    """The height of the font's digits; of the text's own ink for a font without digits (Hangul titles)."""
    _, top, _, bottom = font.getbbox("0123456789")
    if bottom <= top:
        _, top, _, bottom = font.getbbox(text)
    return bottom - top


def measure(draw: Callable[[], Picture]) -> TextSizes:
    """Draw one picture with ``draw`` and measure every text in it at phone width."""
    _clear_layer_caches()
    with _watching_text() as seen:
        picture = draw()
    image = Image.open(io.BytesIO(picture.png))
    width, height = image.size
    texts = tuple(
        DrawnText(text, int(font.size), _digit_height(font, text) * common.PHONE_WIDTH / width)
        for text, font in seen
    )
    return TextSizes(picture, width, height, texts)


def at_phone_width(picture: Picture) -> Image.Image:
    """The picture scaled to `common.PHONE_WIDTH` px wide, as a phone shows it."""
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    height = round(image.height * common.PHONE_WIDTH / image.width)
    return image.resize((common.PHONE_WIDTH, height), Image.Resampling.LANCZOS)
