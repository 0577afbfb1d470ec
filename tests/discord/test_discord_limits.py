"""Discord's limits, at the largest tables with the longest names.

Every game is played at its largest table (Haenyeo 5, Jeju Island 4, Reef &
Ruins 8 seats) by people whose display names are 32 characters of markdown and
mention characters. They open the table, join, play rounds through their
panels, read ``/game log`` and the rules, then leave one by one so bots finish
the game and post the results (their names now end in " (bot)"). Every request
body the bot sent, and every file it uploaded, is checked against Discord's
limits: `problems` lists each one broken.

SimCord already refuses some oversized messages, and the OpenAPI check in
conftest validates each body's shape; this test states the limits themselves,
so a message that grows with the table (a "Waiting for" line with eight
mentions, a results embed with eight breakdowns, a menu with many choices) is
caught even where the simulation or the schema would let it through.

Thorough setting with ``pytest --slow``: more rounds through the UI before the
players leave.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from simtools.strict import set_locale
from tests.discord.test_lobby import open_table
from tests.discord.test_secrecy_audit import play_panel
from tests.play_helpers import awaited, latest_board, results_message

#: Discord's documented limits (https://discord.com/developers/docs/resources/message,
#: …/interactions/message-components, …/resources/channel).
CONTENT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
SELECT_OPTIONS = 25
CUSTOM_ID = 100
BUTTON_LABEL = 80
OPTION_TEXT = 100  # an option's label, value and description
PLACEHOLDER = 150
ATTACHMENTS = 10
ATTACHMENT_BYTES = 10 * 1024 * 1024
ALT_TEXT = 1024
THREAD_NAME = 100

#: 32 characters each (the longest display name), full of markdown and mention syntax.
LONG_NAMES = [
    "@everyone **bold** __u__ ~~s~~ #1",
    "<@&123456789012345678> `code` ||",
    "@here > quote *i* _u_ [l](x) :) 3",
    "**__~~||`@everyone`||~~__** <#1>4",
    "# Heading @here -# small text ** 5",
    "```py print('x')``` @everyone 6!",
    "<@123456789012345678> ~~*_|`*_ 7",
    "[click](https://x.y) @here __ 8!",
]
LONG_NAMES = [(name * 2)[:32] for name in LONG_NAMES]


def embed_chars(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards an embed's 6,000."""
    fields = embed.get("fields") or []
    return (
        len(embed.get("title") or "")
        + len(embed.get("description") or "")
        + len((embed.get("footer") or {}).get("text") or "")
        + len((embed.get("author") or {}).get("name") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    )


def embed_problems(embed: dict[str, Any]) -> list[str]:
    title, description = embed.get("title") or "", embed.get("description") or ""
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    fields = embed.get("fields") or []
    checks = [
        (len(title), EMBED_TITLE, "embed title"),
        (len(description), EMBED_DESCRIPTION, "embed description"),
        (len(fields), EMBED_FIELDS, "embed fields"),
        (len(footer), FOOTER_TEXT, "embed footer"),
        (len(author), AUTHOR_NAME, "embed author"),
    ]
    for field in fields:
        checks.append((len(field.get("name") or ""), FIELD_NAME, "embed field name"))
        checks.append((len(field.get("value") or ""), FIELD_VALUE, "embed field value"))
    return [f"{what}: {size} > {limit}" for size, limit, what in checks if size > limit]


def component_problems(rows: list[dict[str, Any]]) -> list[str]:
    found = []
    if len(rows) > ACTION_ROWS:
        found.append(f"action rows: {len(rows)} > {ACTION_ROWS}")
    for row in rows:
        items = row.get("components", [])
        buttons = [c for c in items if c.get("type") == 2]
        selects = [c for c in items if c.get("type") != 2]
        if len(buttons) > BUTTONS_PER_ROW:
            found.append(f"buttons in a row: {len(buttons)} > {BUTTONS_PER_ROW}")
        if selects and len(items) > 1:
            found.append("a select menu shares its row")
        for item in items:
            if len(item.get("custom_id") or "") > CUSTOM_ID:
                found.append(f"custom_id {item['custom_id']!r}: {len(item['custom_id'])} > {CUSTOM_ID}")
            if len(item.get("label") or "") > BUTTON_LABEL:
                found.append(f"button label {item['label']!r} > {BUTTON_LABEL}")
            if len(item.get("placeholder") or "") > PLACEHOLDER:
                found.append(f"placeholder {item['placeholder']!r} > {PLACEHOLDER}")
            options = item.get("options") or []
            if len(options) > SELECT_OPTIONS:
                found.append(f"select options: {len(options)} > {SELECT_OPTIONS}")
            for option in options:
                for key in ("label", "value", "description"):
                    if len(option.get(key) or "") > OPTION_TEXT:
                        found.append(f"option {key} {option[key]!r} > {OPTION_TEXT}")
    return found


def problems(method: str, path: str, body: Any) -> list[str]:
    """Every Discord limit one request body breaks."""
    if not isinstance(body, dict):
        return []
    body = body.get("data", body) if "/callback" in path else body  # an interaction response
    if not isinstance(body, dict):
        return []
    found = []
    content = body.get("content") or ""
    if len(content) > CONTENT:
        found.append(f"content: {len(content)} > {CONTENT}")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_PER_MESSAGE:
        found.append(f"embeds: {len(embeds)} > {EMBEDS_PER_MESSAGE}")
    for embed in embeds:
        found.extend(embed_problems(embed))
    total = sum(embed_chars(embed) for embed in embeds)
    if total > EMBED_TOTAL:
        found.append(f"embed characters in the message: {total} > {EMBED_TOTAL}")
    found.extend(component_problems(body.get("components") or []))
    attachments = body.get("attachments") or []
    if len(attachments) > ATTACHMENTS:
        found.append(f"attachments: {len(attachments)} > {ATTACHMENTS}")
    for attachment in attachments:
        if len(attachment.get("description") or "") > ALT_TEXT:
            found.append(f"alt text: {len(attachment['description'])} > {ALT_TEXT}")
    if path.endswith("/threads") and len(body.get("name") or "") > THREAD_NAME:
        found.append(f"thread name: {len(body['name'])} > {THREAD_NAME}")
    return [f"{method} {path.split('?')[0]}: {problem}" for problem in found]


# ---------------------------------------------------------------- the checks can fail


def test_the_limit_checks_catch_oversized_messages():
    assert problems("POST", "/channels/1/messages", {"content": "x" * 2000}) == []
    assert problems("POST", "/channels/1/messages", {"content": "x" * 2001})
    assert problems("POST", "/channels/1/messages", {"embeds": [{"description": "x" * 4097}]})
    assert problems("POST", "/channels/1/messages", {"embeds": [{"title": "x" * 257}]})
    fields = [{"name": "n", "value": "v" * 1025}]
    assert problems("POST", "/channels/1/messages", {"embeds": [{"fields": fields}]})
    two = [{"description": "x" * 3500}, {"description": "x" * 3500}]
    assert problems("POST", "/channels/1/messages", {"embeds": two})  # 7,000 characters in all
    button = {"type": 2, "label": "b", "custom_id": "x"}
    six = [{"type": 1, "components": [button] * 6}]
    assert problems("POST", "/channels/1/messages", {"components": six})
    assert problems("POST", "/channels/1/messages", {"components": [{"type": 1, "components": [button]}] * 6})
    long_id = [{"type": 1, "components": [{**button, "custom_id": "x" * 101}]}]
    assert problems("POST", "/channels/1/messages", {"components": long_id})
    menu = {"type": 3, "custom_id": "m", "options": [{"label": "o", "value": str(i)} for i in range(26)]}
    assert problems(
        "POST", "/x/callback", {"type": 4, "data": {"components": [{"type": 1, "components": [menu]}]}}
    )
    assert problems("POST", "/channels/1/threads", {"name": "t" * 101})


# ---------------------------------------------------------------- the largest tables


@pytest.fixture
def crowd(simcord_env, request):
    """The longest names at one table, in a server and clients of ``language`` (English unless
    the test is parametrized with it): Korean is longer in bytes, not in characters."""
    language = request.node.callspec.params.get("language", "en")
    guild = simcord_env.create_guild(
        "A server whose name is long enough to notice", preferred_locale="ko" if language == "ko" else None
    )
    channel = guild.create_text_channel("games")
    people = [
        guild.add_member(simcord_env.create_user(f"player{i}", global_name=name), nick=name)
        for i, name in enumerate(LONG_NAMES)
    ]
    if language == "ko":
        for member in people:
            set_locale(simcord_env, member, "ko")
    return simcord_env, channel, people


def click_id(message, prefix: str) -> str:
    """The custom_id of the message's button whose id starts with ``prefix`` (labels are translated).

    A channel message's rows are discord.py components; an interaction response's are dicts."""
    for row in message.components:
        items = row.get("components", []) if isinstance(row, dict) else row.children
        for item in items:
            custom_id = (item.get("custom_id") if isinstance(item, dict) else item.custom_id) or ""
            if custom_id.startswith(prefix):
                return custom_id
    raise AssertionError(f"no component {prefix!r} on {message.content!r}")


@pytest.fixture
def uploads(simcord_env):
    """(filename, bytes) of every file the bot uploaded."""
    sizes: list[tuple[str, int]] = []
    cdn = simcord_env.backend.cdn
    store = cdn.store_attachment

    def stored(attachment_id, channel_id, filename, data, description):
        sizes.append((filename, len(data)))
        return store(attachment_id, channel_id, filename, data, description)

    cdn.store_attachment = stored
    return sizes


async def play_turns(thread, members, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        if results_message(thread) is not None:
            return
        board = latest_board(thread)
        waiting = [uid for uid in awaited(board) if uid in members]
        assert waiting, board.content
        member = members[rng.choice(waiting)]
        opened = await member.click(board, custom_id=click_id(board, "board:hand:"))
        panel = opened.followups[0] if opened.followups else opened.response
        await play_panel(member, panel, rng)


# The last Leave lets the bots play the rest of the game inside one step: eight Reef & Ruins bots
# drawing every board took more than 60 s of real time once, at the lowest priority on a machine
# running 20 jobs on 2 cores. A step that settles returns at once, so the limit costs nothing when quiet.
@pytest.mark.simcord(settle_timeout=240)
@pytest.mark.parametrize(
    ("game", "seats", "turns", "language"),
    [
        ("haenyeo", 5, 14, "en"),
        ("jeju", 4, 16, "en"),
        ("reef", 8, 18, "en"),
        # In Korean (longer in bytes, not in characters): the largest table, whose boards say most;
        # fewer turns by hand (the English run has the panels' longest names), the bots finish it.
        ("reef", 8, 6, "ko"),
    ],
)
async def test_the_largest_tables_with_the_longest_names_stay_within_discord_limits(
    crowd, uploads, request, game, seats, turns, language
):
    env, channel, people = crowd
    players = people[:seats]
    assert all(len(name) == 32 for name in LONG_NAMES)
    _, lobby, thread = await open_table(channel, players[0], game=game)
    for member in players[1:]:
        await member.click(lobby, custom_id=click_id(lobby, "lobby:join:"))
    await players[0].click(lobby, custom_id=click_id(lobby, "lobby:start:"))
    handle = next(t for t in channel.threads if t.id == thread.id)
    members = {p.id: p for p in players}
    rng = random.Random(seats)
    await play_turns(thread, members, rng, turns * (3 if request.config.getoption("--slow") else 1))
    board = latest_board(thread)
    assert len(awaited(board)) >= 1
    result = await players[-1].slash(handle, "game log")
    assert result.ephemeral
    result = await players[-1].slash(channel, "rules", game=game)
    assert result.ephemeral
    for member in players:  # everyone leaves; bots finish the game
        board = latest_board(thread)
        if board is None or results_message(thread) is not None:
            break
        asked = await member.click(board, custom_id=click_id(board, "board:leave:"))
        await member.click(asked.response, custom_id=click_id(asked.response, "leave:yes:"))
    results = results_message(thread)
    assert results is not None, "the bots did not finish the game"
    assert ("(bot)" if language == "en" else "(봇)") in results.embeds[0].description

    found = [p for e in env.http_requests for p in problems(e.method, e.path, e.json)]
    assert not found, "over Discord's limits:\n" + "\n".join(found[:20])
    bodies = [e.json for e in env.http_requests if isinstance(e.json, dict)]
    assert any(
        a.get("description") for b in bodies for a in b.get("attachments") or []
    )  # multipart bodies too
    assert uploads, "no picture was uploaded"
    too_big = [(name, size) for name, size in uploads if size > ATTACHMENT_BYTES]
    assert not too_big
    # The message that grows most with the table was really sent: every seat's line and breakdown.
    assert len(results.embeds[0].description) > 60 * seats
