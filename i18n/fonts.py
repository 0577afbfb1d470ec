"""Build the Korean picture fonts from the catalogs: a subset of Noto Sans CJK KR.

    python -m i18n.fonts [--source-dir /usr/share/fonts/opentype/noto]

Pictures drawn in Korean use ``data/fonts/NotoSansKR-{Regular,Bold}-ui.otf``
(`renderers.common.LANGUAGE_FACES`). The full collection is 20 MB per weight; the
subset holds exactly what a Korean picture can draw: printable ASCII and Latin-1,
the punctuation and symbols the pictures use, the 2,350 Hangul syllables of KS X 1001
and the compatibility jamo (what Korean players' names are written with, so a name
draws in full), and every character of every Korean translation (the catalogs in
``i18n/locale/ko``). Run it again after adding
translations; `tests/discord/test_i18n.py` fails while a translated character is missing.
The source is Debian's ``fonts-noto-cjk`` (face 1 of each collection is the KR
one); fontTools is used only here, not at run time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from i18n import LOCALE_DIR

FONT_DIR = LOCALE_DIR.parent.parent / "data" / "fonts"
#: Output file -> source collection in the source folder.
OUTPUTS = {
    "NotoSansKR-Regular-ui.otf": "NotoSansCJK-Regular.ttc",
    "NotoSansKR-Bold-ui.otf": "NotoSansCJK-Bold.ttc",
}
KR_FACE = 1  # in NotoSansCJK-*.ttc: JP, KR, SC, TC, HK
#: Beyond the catalogs: ASCII, Latin-1, punctuation, arrows, math and the few symbols pictures draw.
ALWAYS = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "".join(chr(c) for c in range(0xA0, 0x100))
    + "‐‑‒–—―‘’‚“”„†‡•…‰′″‹›※"
    + "←↑→↓↔↕⇐⇒−×÷±≤≥≠≈∞√°·•○●◆◇■□▲△▼▽★☆♠♣♥♦✓✔✕✗"
)
#: The Hangul syllables of KS X 1001 (EUC-KR's two-byte set: the 2,350 in everyday use, names
#: included) and the compatibility jamo (ㄱ … ㅣ, as in "ㅋㅋ").
NAMES = "".join(chr(c) for c in range(0xAC00, 0xD7A4) if len(chr(c).encode("euc_kr")) == 2) + "".join(
    chr(c) for c in range(0x3131, 0x318F)
)


def catalog_text(lang: str = "ko") -> str:
    """Every character of every translation in ``lang``'s catalogs."""
    from i18n.catalog import AREAS, po_path, read

    chars: set[str] = set()
    for area in AREAS:
        path = po_path(lang, area)
        if not path.exists():
            continue
        for message in read(path, lang):
            forms = message.string if isinstance(message.string, tuple | list) else [message.string]
            for form in forms:
                chars.update(form or "")
    return "".join(sorted(chars))


def build(source_dir: Path) -> dict[str, int]:
    """Write both subsets; returns their sizes in bytes."""
    from fontTools import subset

    text = ALWAYS + NAMES + catalog_text()
    sizes: dict[str, int] = {}
    for output, collection in OUTPUTS.items():
        options = subset.Options()
        options.font_number = KR_FACE
        options.layout_features = []
        options.hinting = False
        options.name_IDs = ["*"]  # keep the copyright and licence names (OFL)
        font = subset.load_font(str(source_dir / collection), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        path = FONT_DIR / output
        subset.save_font(font, str(path), options)
        sizes[output] = path.stat().st_size
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    args = parser.parse_args()
    for name, size in build(args.source_dir).items():
        print(f"{name}: {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
