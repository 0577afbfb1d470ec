"""A readable text form of a Reef & Ruins state, built from a view (logs, test failures, alt text).

`state_text` is the state's text form: the round, the dice, the boon, then every
sheet (``table_text`` of the view). It reads only what `engine.reef.view` puts in
a view, so it can never show a secret the view does not already carry (the
public view by default: safe in a log line). Every word goes through the
catalog: pass ``lang`` (a code of `i18n.LANGUAGES`) for another language than English.
"""

from __future__ import annotations

import i18n
from engine.reef.components import RULE_WORDS
from engine.reef.game import GAME


def _value(v: int | None) -> str:
    return "." if v is None else str(v)


def sheet_text(view: dict, seat: int, lang: str = i18n.SOURCE) -> str:
    """Several lines describing one seat's sheet in ``view`` (any audience's view), in ``lang``."""
    t = i18n.words(lang)
    sheet = view["sheets"][seat]
    board = view["board"]
    lucky = sheet["lucky"] if sheet["lucky"] is not None else "?"
    score = sheet["score"]
    lines = [
        t(
            "{seat} — lucky number {lucky}, {shells} of shells, {pearls}, {coins} so far "
            "(ruins {ruins}, enchantments {enchantments}, lucky {lucky_coins}, pearls {pearl_coins})",
            seat=t(i18n.SEAT_NAME, number=seat + 1),
            lucky=lucky,
            shells=t.plural("{count} pair", "{count} pairs", sheet["shells"]),
            pearls=t.plural("{count} pearl", "{count} pearls", sheet["pearls"]),
            coins=t.plural("{count} coin", "{count} coins", score["total"]),
            ruins=score["ruins"],
            enchantments=score["enchantments"],
            lucky_coins=score["lucky"],
            pearl_coins=score["pearls"],
        )
    ]
    for ruin in sheet["ruins"]:
        rows = " | ".join(" ".join(_value(v) for v in row) for row in ruin["rows"])
        args = {
            "number": ruin["number"],
            "name": t(ruin["name"]),
            # English keeps the rule's key, as it always printed.
            "rule": ruin["rule"] if t.lang == i18n.SOURCE else t(RULE_WORDS.get(ruin["rule"], ruin["rule"])),
            "rows": rows,
            "coins": ruin["coins"],
            "multiplier": ruin["multiplier"],
        }
        if ruin["multiplier"] > 1:
            lines.append(t("Ruin {number} {name} ({rule}): {rows} — {coins} coins x{multiplier}", **args))
        else:
            lines.append(t("Ruin {number} {name} ({rule}): {rows} — {coins} coins", **args))
    crossed = ", ".join(
        t("sum {sum}: {crossed}/{spaces}", sum=e["sum"], crossed=e["crossed"], spaces=len(b["spaces"]))
        for e, b in zip(sheet["enchantments"], board["enchantments"], strict=True)
    )
    lines.append(t("Enchantments crossed — {crossed}", crossed=crossed))
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
    lines.append(t("{reef}:", reef=t(view["reef_name"])))
    lines.extend("  " + row for row in grid)
    return "\n".join(lines)


def table_text(view: dict, lang: str = i18n.SOURCE) -> str:
    """The round, the dice and the boon, then every sheet, in ``lang``."""
    t = i18n.words(lang)
    phase = {"lucky": t("lucky"), "round": t("round"), "finished": t("finished")}.get(
        view["phase"], view["phase"]
    )
    head = t(
        "Reef & Ruins — {phase}, round {round} of {rounds}",
        phase=phase,
        round=view["round"],
        rounds=view["rounds"],
    )
    if view["dice"]:
        head += t("; dice {dice}", dice=", ".join(map(str, view["dice"])))
    if view["boon"]:
        boon = view["boon"]
        head += t("; boon: {boon}", boon=t.msg(boon["say"]) if "say" in boon else boon["text"])
    return "\n\n".join([head, *(sheet_text(view, seat, lang) for seat in range(view["seats"]))])


def state_text(state, seat: int | None = None, lang: str = i18n.SOURCE) -> str:
    """The state as ``seat`` sees it (None: the public view), as text: `table_text` of its view."""
    return table_text(GAME.view(state, seat), lang)
