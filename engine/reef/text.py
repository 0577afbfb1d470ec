"""A readable text form of a Reef & Ruins sheet, built from a view (logs, tests, alt text).

It reads only what `engine.reef.view` puts in a view, so it can never show a
secret the view does not already carry.
"""

from __future__ import annotations


def _value(v: int | None) -> str:
    return "." if v is None else str(v)


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def sheet_text(view: dict, seat: int) -> str:
    """Several lines describing one seat's sheet in ``view`` (any audience's view)."""
    sheet = view["sheets"][seat]
    board = view["board"]
    lucky = sheet["lucky"] if sheet["lucky"] is not None else "?"
    score = sheet["score"]
    lines = [
        f"Seat {seat + 1} — lucky number {lucky}, {_n(sheet['shells'], 'pair')} of shells, "
        f"{_n(sheet['pearls'], 'pearl')}, {_n(score['total'], 'coin')} so far "
        f"(ruins {score['ruins']}, enchantments {score['enchantments']}, lucky {score['lucky']}, "
        f"pearls {score['pearls']})"
    ]
    for ruin in sheet["ruins"]:
        rows = " | ".join(" ".join(_value(v) for v in row) for row in ruin["rows"])
        mult = f" x{ruin['multiplier']}" if ruin["multiplier"] > 1 else ""
        lines.append(
            f"Ruin {ruin['number']} {ruin['name']} ({ruin['rule']}): {rows} — {ruin['coins']} coins{mult}"
        )
    crossed = ", ".join(
        f"sum {e['sum']}: {e['crossed']}/{len(b['spaces'])}"
        for e, b in zip(sheet["enchantments"], board["enchantments"], strict=True)
    )
    lines.append(f"Enchantments crossed — {crossed}")
    reef = sheet["reef"]
    if "marked" in reef:
        values = board["reef"]["values"]
        grid = [
            " ".join(
                ("S" if values[r][c] == 0 else "x") if mark else str(values[r][c])
                for c, mark in enumerate(row)
            )
            for r, row in enumerate(reef["marked"])
        ]
    else:
        grid = [" ".join("#" if cell else "." for cell in row) for row in reef["cells"]]
    lines.append(f"{view['reef_name']}:")
    lines.extend("  " + row for row in grid)
    return "\n".join(lines)


def table_text(view: dict) -> str:
    """The round, the dice and the boon, then every sheet."""
    head = f"Reef & Ruins — {view['phase']}, round {view['round']} of {view['rounds']}"
    if view["dice"]:
        head += f"; dice {', '.join(map(str, view['dice']))}"
    if view["boon"]:
        head += f"; boon: {view['boon']['text']}"
    return "\n\n".join([head, *(sheet_text(view, seat) for seat in range(view["seats"]))])
