"""`python bot.py --offline`: the real bot in a simulated server, played from a loopback page.

The game test drives the page the way its own JavaScript does — over the
preview's HTTP actions on 127.0.0.1 — and checks that what the page shows is
what the bot sent. The browser test clicks the real page in Chromium where one
is installed.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="offline mode needs simcord[preview]: pip install -e '.[offline]'")

import aiohttp

import offline

ROOT = Path(__file__).resolve().parents[2]
MENTION = re.compile(r"<@(\d+)>")
PANEL_BUTTONS = ("My hand", "My tiles", "My sheet")


class PageClient:
    """One browser page of the preview, spoken to over its loopback HTTP API."""

    def __init__(self, session: aiohttp.ClientSession, world: offline.OfflineWorld) -> None:
        self.session = session
        self.base, _, self.capability = world.url.partition("/#")
        assert self.base.startswith("http://127.0.0.1:")
        self.state: dict = {}
        self.sequence = 0

    def headers(self) -> dict[str, str]:
        return {
            "X-Simcord-Capability": self.capability,
            "X-Simcord-Context": self.state.get("context", {}).get("id", ""),
            "Origin": self.base,
        }

    async def open(self, viewer_id: int) -> None:
        async with self.session.post(
            f"{self.base}/api/pages", json={"viewer_id": str(viewer_id)}, headers=self.headers()
        ) as response:
            assert response.status == 200
            self.state = await response.json()

    async def refresh(self) -> dict:
        async with self.session.get(f"{self.base}/api/state", headers=self.headers()) as response:
            assert response.status == 200
            self.state = await response.json()
        return self.state

    async def act(self, kind: str, **body) -> dict:
        self.sequence += 1
        envelope = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": uuid.uuid4().hex,
            "generation": self.state["context"]["generation"],
            "bot_generation": self.state["botGeneration"],
            "published_revision": self.state["publishedRevision"],
            "kind": kind,
            **body,
        }
        async with self.session.post(f"{self.base}/api/action", json=envelope, headers=self.headers()) as r:
            assert r.status == 200
            result = await r.json()
        if result["rejected"] and [d["code"] for d in result["diagnostics"]] == ["stale-revision"]:
            # The page was published again meanwhile (bots moved): read it and act again, as the page does.
            self.sequence -= 1
            await self.refresh()
            return await self.act(kind, **body)
        assert not result["rejected"], result
        await self.refresh()
        return result

    async def commands(self) -> list[dict]:
        async with self.session.get(f"{self.base}/api/commands", headers=self.headers()) as response:
            return (await response.json())["entries"]

    async def slash(self, name: str, **options) -> dict:
        entry = next(e for e in await self.commands() if e["invocation"] == name)
        return await self.act(
            "run_command",
            command_id=entry["commandId"],
            path=entry["path"],
            schema_fingerprint=entry["schemaFingerprint"],
            options=options,
        )

    async def be(self, user_id: int) -> None:
        """Switch the page to another local player."""
        if self.viewer != user_id:
            await self.act("viewer", viewer_id=str(user_id))
            assert self.viewer == user_id

    @property
    def viewer(self) -> int:
        return int(self.state["viewerId"])

    def messages(self) -> list[dict]:
        """The messages the page shows, oldest first."""
        return [self.state["messages"][i] for i in self.state["timeline"] if i in self.state["messages"]]

    async def click(self, message: dict, label: str | None = None, control: dict | None = None) -> dict:
        control = control or next(c for c in buttons(message) if c.get("label") == label)
        return await self.act("click", target_id=message["id"], control_key=control["control_key"])

    async def select(self, message: dict, control: dict, value: str) -> dict:
        return await self.act(
            "select", target_id=message["id"], control_key=control["control_key"], values=[value]
        )


def controls(message: dict) -> list[dict]:
    return [item for row in message.get("components", []) for item in row.get("components", [])]


def buttons(message: dict) -> list[dict]:
    return [c for c in controls(message) if c["type"] == 2 and not c.get("disabled")]


def selects(message: dict) -> list[dict]:
    return [c for c in controls(message) if c["type"] == 3 and not c.get("disabled")]


def latest(page: PageClient, test) -> dict | None:
    return next((m for m in reversed(page.messages()) if test(m)), None)


def is_board(message: dict) -> bool:
    return any(c.get("label") in PANEL_BUTTONS for c in buttons(message))


def is_results(message: dict) -> bool:
    return bool(message["embeds"]) and (message["embeds"][0].get("title") or "").endswith("final ranking")


def awaited(board: dict) -> list[int]:
    line = next((ln for ln in board["content"].splitlines() if ln.startswith("Waiting for")), "")
    return [int(uid) for uid in MENTION.findall(line)]


async def play_on_the_page(
    page: PageClient, people: set[int], rng: random.Random, boards: int | None = None, limit: int = 400
) -> dict | None:
    """Play every awaited local player's moves from the page until the results are shown (returned),
    or, given ``boards``, until that many new boards were posted (None returned)."""
    seen: set[str] = set()
    for _ in range(limit):
        done = latest(page, is_results)
        if done is not None:
            return done
        board = latest(page, is_board)
        if board is not None:
            seen.add(board["id"])
            if boards is not None and len(seen) > boards:
                return None
        assert board is not None, "the page shows no board"
        waiting = [uid for uid in awaited(board) if uid in people]
        assert waiting, board["content"]
        await page.be(waiting[0])
        board = latest(page, is_board)
        label = next(c["label"] for c in buttons(board) if c["label"] in PANEL_BUTTONS)
        await page.click(board, label)
        panel = latest(page, lambda m: m["ephemeral"])
        assert panel is not None and panel["attachments"], "a panel shows the player's picture"
        for _ in range(100):
            panel = page.state["messages"].get(panel["id"], panel)
            options = [(s, o) for s in selects(panel) for o in s["options"]]
            confirm = [b for b in buttons(panel) if b.get("label", "").startswith("Confirm")]
            forward = [
                b for b in buttons(panel) if not b.get("label", "").startswith(("Reset", "Back", "Undo"))
            ]
            if confirm:
                await page.click(panel, control=confirm[0])
                break
            pool = [("button", b) for b in forward] + [("option", pair) for pair in options]
            if not pool:
                break
            kind, choice = rng.choice(pool)
            if kind == "button":
                await page.click(panel, control=choice)
            else:
                await page.select(panel, choice[0], choice[1]["value"])
            if latest(page, is_results) or latest(page, is_board) is not board:
                break
    raise AssertionError("the game did not finish on the page")


async def shown_results(page: PageClient, world: offline.OfflineWorld) -> dict:
    """The results message, once the bots have finished the game and the page shows it."""
    for _ in range(200):
        await world.background.idle()
        await page.refresh()
        done = latest(page, is_results)
        if done is not None:
            return done
        await asyncio.sleep(0.05)
    raise AssertionError("the page never showed the results")


async def test_offline_page_plays_a_game_the_bot_posted(tmp_path, openapi_checker):
    database = tmp_path / "offline.sqlite3"
    async with offline.offline_world(database, bot_delay=0.0) as world, aiohttp.ClientSession() as session:
        page = PageClient(session, world)
        async with session.get(f"{page.base}/") as response:
            assert response.status == 200 and "<html" in (await response.text()).lower()
        alice, bob = world.players[:2]
        await page.open(alice.id)
        assert {int(v["id"]) for v in page.state["viewers"]} == {p.id for p in world.players}

        await page.slash("play", game="haenyeo")
        lobby = latest(page, lambda m: any(c.get("label") == "Join" for c in buttons(m)))
        assert lobby is not None and "table #1" in lobby["embeds"][0]["title"]
        await page.be(bob.id)
        await page.click(latest(page, lambda m: m["id"] == lobby["id"]), "Join")
        lobby = page.state["messages"][lobby["id"]]
        assert f"<@{bob.id}>" in lobby["embeds"][0]["description"]
        await page.be(alice.id)
        await page.click(lobby, "Start")

        board = latest(page, is_board)
        assert board["attachments"], "the board shows its picture"
        # Two boards' worth of moves by clicks on the page; then both leave, and bots finish the game.
        assert await play_on_the_page(page, {alice.id, bob.id}, random.Random(7), boards=2) is None
        for person in (alice, bob):
            await page.be(person.id)
            await page.click(latest(page, is_board), "Leave")
            await page.click(latest(page, lambda m: m["ephemeral"]), "Yes, leave")
        results = await shown_results(page, world)
        assert results["attachments"] and "(bot)" in results["embeds"][0]["description"]

        # What the page shows is what the bot sent to the channel.
        sent = {m.id: m for m in world.channel.history()}
        for shown in page.messages():
            if shown["ephemeral"]:
                continue
            message = sent[int(shown["id"])]
            assert shown["content"] == message.content
            assert [e.get("title") for e in shown["embeds"]] == [e.title for e in message.embeds]
            assert [a["filename"] for a in shown["attachments"]] == [a.filename for a in message.attachments]
        table = await world.bot.tables.get(1)
        assert table.status == "finished"
        if openapi_checker is not None:
            problems = [
                problem
                for entry in world.env.http_requests
                for problem in openapi_checker.validate(entry.method, entry.path, entry.json)
            ]
            assert not problems, problems


async def test_offline_tables_survive_a_restart(tmp_path):
    database = tmp_path / "offline.sqlite3"
    async with offline.offline_world(database, bot_delay=0.0) as world, aiohttp.ClientSession() as session:
        page = PageClient(session, world)
        alice, bob = world.players[:2]
        await page.open(alice.id)
        await page.slash("play", game="haenyeo")
        lobby = latest(page, lambda m: any(c.get("label") == "Join" for c in buttons(m)))
        await page.be(bob.id)
        await page.click(lobby, "Join")
        await page.be(alice.id)
        await page.click(page.state["messages"][lobby["id"]], "Start")
        await page.slash("play", game="jeju")
        first = (world.guild.id, world.channel.id, [p.id for p in world.players])
    assert database.is_file()

    async with offline.offline_world(database, bot_delay=0.0) as world, aiohttp.ClientSession() as session:
        assert (world.guild.id, world.channel.id, [p.id for p in world.players]) == first
        page = PageClient(session, world)
        await page.open(bob.id)
        # The running game is back with a fresh board, and its buttons work.
        board = latest(page, is_board)
        assert board is not None and "table #1" in board["content"] and board["attachments"]
        waiting = awaited(board)
        assert waiting and set(waiting) <= {alice.id, bob.id}
        await page.be(waiting[0])
        await page.click(
            latest(page, is_board), next(c["label"] for c in buttons(board) if c["label"] in PANEL_BUTTONS)
        )
        panel = latest(page, lambda m: m["ephemeral"])
        assert panel is not None and controls(panel), "the player's panel offers their choices"
        # The open lobby is back too.
        await page.be(bob.id)
        lobby = latest(page, lambda m: any(c.get("label") == "Join" for c in buttons(m)))
        assert lobby is not None and "table #2" in lobby["embeds"][0]["title"]
        await page.click(lobby, "Join")
        assert f"<@{bob.id}>" in page.state["messages"][lobby["id"]]["embeds"][0]["description"]


async def reef_with_three_bots(page: PageClient, world: offline.OfflineWorld) -> dict:
    """Alice opens Reef & Ruins, seats three bots and starts; the first board."""
    await page.open(world.players[0].id)
    await page.slash("play", game="reef")
    lobby = latest(page, lambda m: any(c.get("label") == "Join" for c in buttons(m)))
    for _ in range(3):
        await page.click(page.state["messages"][lobby["id"]], "Add bot")
    await page.click(page.state["messages"][lobby["id"]], "Start")
    return latest(page, is_board)


async def move_until_bots_owe(page: PageClient, world: offline.OfflineWorld, rng: random.Random) -> dict:
    """Alice plays her choices from her sheet until her move is in and the bots owe theirs."""
    runner = world.bot.runner
    board = latest(page, is_board)
    await page.click(board, "My sheet")
    panel = latest(page, lambda m: m["ephemeral"])
    for _ in range(100):
        panel = page.state["messages"].get(panel["id"], panel)
        confirm = [b for b in buttons(panel) if b.get("label", "").startswith("Confirm")]
        forward = [b for b in buttons(panel) if not b.get("label", "").startswith(("Reset", "Back", "Undo"))]
        pool = [("button", b) for b in forward] + [
            ("option", (s, o)) for s in selects(panel) for o in s["options"]
        ]
        kind, choice = ("button", confirm[0]) if confirm else rng.choice(pool)
        if kind == "button":
            answer = await page.click(panel, control=choice)
        else:
            answer = await page.select(panel, choice[0], choice[1]["value"])
        if runner.bot_to_act(await world.bot.tables.get(1)):
            return answer
    raise AssertionError("Alice's move never handed the round to the bots")


async def test_a_persons_confirm_comes_back_before_the_bots_move(tmp_path):
    # Bots pause a minute before each move: the page must answer the click in that pause.
    async with (
        offline.offline_world(tmp_path / "offline.sqlite3", bot_delay=60.0) as world,
        aiohttp.ClientSession() as session,
    ):
        page = PageClient(session, world)
        await reef_with_three_bots(page, world)
        answer = await move_until_bots_owe(page, world, random.Random(3))
        # The page's answer to Alice's last choice is complete ...
        assert answer["settlement"] == "settled" and not answer["rejected"]
        # ... while the bots' moves are not applied yet: they are still owed, in the background.
        table = await world.bot.tables.get(1)
        assert world.bot.runner.bot_to_act(table)
        assert world.background.alive, "the bot chain runs outside the click"


async def test_bots_play_on_after_the_click_and_the_page_shows_it(tmp_path):
    async with (
        offline.offline_world(tmp_path / "offline.sqlite3", bot_delay=0.05) as world,
        aiohttp.ClientSession() as session,
    ):
        page = PageClient(session, world)
        first = await reef_with_three_bots(page, world)
        await move_until_bots_owe(page, world, random.Random(5))
        await world.background.idle()
        for _ in range(200):  # the runner publishes the page once the bots are done
            await page.refresh()
            board = latest(page, is_board)
            if board["id"] != first["id"] and world.players[0].id in awaited(board):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the page never showed the bots' moves")
        # And the page still takes clicks.
        await page.click(board, "My sheet")


async def test_a_table_owing_a_bot_move_is_back_after_a_restart(tmp_path, caplog):
    database = tmp_path / "offline.sqlite3"
    async with offline.offline_world(database, bot_delay=60.0) as world, aiohttp.ClientSession() as session:
        page = PageClient(session, world)
        await reef_with_three_bots(page, world)
        await move_until_bots_owe(page, world, random.Random(3))
        channel_id = world.channel.id
    caplog.set_level("WARNING", logger="seagames.offline")
    async with offline.offline_world(database, bot_delay=0.0) as world, aiohttp.ClientSession() as session:
        assert world.channel.id == channel_id
        assert "skipped" not in caplog.text
        page = PageClient(session, world)
        await page.open(world.players[0].id)
        board = latest(page, is_board)
        assert board is not None and "table #1" in board["content"], "the table is on the page"


async def test_the_page_shows_names_local_links_and_the_bots_name(tmp_path):
    from cogs.common import message_link, table_link

    async with (
        offline.offline_world(tmp_path / "offline.sqlite3", bot_delay=0.0) as world,
        aiohttp.ClientSession() as session,
    ):
        page = PageClient(session, world)
        alice = world.players[0]
        await page.open(alice.id)
        await page.slash("play", game="reef")
        lobby = latest(page, lambda m: any(c.get("label") == "Join" for c in buttons(m)))
        # The seat list is rendered with the player's name, as Discord renders it.
        assert '"label": "@Alice"' in __import__("json").dumps(lobby["embeds"][0]["description_tokens"])
        assert lobby["author"]["name"] == "Sea Games" and world.bot.user.name == "Sea Games"
        table = await world.bot.tables.get(1)
        assert table_link(table) == world.url and message_link(table, 1) == world.url
    assert table_link(table).startswith("https://discord.com/channels/"), "online links again after"


def loopback_only(port: int) -> bool | None:
    """Whether every listening socket on this port is bound to loopback (None: cannot tell here)."""
    found = []
    for name, loopback in (
        ("/proc/net/tcp", "0100007F"),
        ("/proc/net/tcp6", "00000000000000000000000001000000"),
    ):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.append(address == loopback)
    return all(found) if found else None


async def test_the_page_listens_on_loopback_only(tmp_path):
    async with offline.offline_world(tmp_path / "offline.sqlite3", bot_delay=0.0) as world:
        port = int(world.url.split("/#")[0].rsplit(":", 1)[1])
        assert world.url.startswith(f"http://127.0.0.1:{port}/#")
        verdict = loopback_only(port)
        if verdict is None:
            pytest.skip("cannot list listening sockets on this system")
        assert verdict


def test_online_without_token_refuses_and_mentions_offline(tmp_path):
    clean = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--offline" in done.stderr
    assert not (tmp_path / "var").exists(), "no database is created when refusing"


def chromium_path() -> str | None:
    """A system Chromium (Debian's `chromium` package), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


async def test_the_page_in_a_real_browser(tmp_path):
    browser_path = chromium_path()
    if browser_path is None:
        pytest.skip("no Chromium installed (apt-get install chromium); the browser check did not run")
    playwright_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
    async with offline.offline_world(tmp_path / "offline.sqlite3", bot_delay=0.0) as world:
        alice, bob, carol = world.players[:3]
        await bob.slash(world.channel, "play", game="haenyeo")
        first = world.channel.last_message
        await carol.click(first, label="Join")
        await bob.click(first, label="Start")
        await bob.slash(world.channel, "play", game="jeju")
        await world.preview.refresh()
        async with playwright_api.async_playwright() as driver:
            browser = await driver.chromium.launch(
                executable_path=browser_path, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            try:
                page = await browser.new_page(viewport={"width": 1280, "height": 900})
                await page.goto(world.url)
                join = page.get_by_role("button", name="Join", exact=True)
                await join.wait_for(timeout=20_000)
                # The board picture: an image the page loaded from the bot's attachment.
                await page.wait_for_function(
                    "() => [...document.images].some(i => i.complete && i.naturalWidth >= 400)",
                    timeout=20_000,
                )
                before = await page.inner_text("body")
                assert "Jeju Island — table #2" in before and "1 seated" in before
                await join.click()
                await page.wait_for_function(
                    "() => document.body.innerText.includes('2 seated')", timeout=20_000
                )
            except Exception:
                await page.screenshot(path=str(tmp_path / "page.png"))
                raise
            finally:
                await browser.close()
        table = await world.bot.tables.get(2)
        assert [s.user_id for s in table.seats] == [bob.id, alice.id]
        assert f"<@{alice.id}>" in world.channel.last_message.embeds[0].description


def test_the_command_serves_the_page_on_loopback_and_stops_on_ctrl_c(tmp_path):
    database = tmp_path / "tables.sqlite3"
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DISPLAY", "WAYLAND_DISPLAY")}
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "bot.py"), "--offline", "--no-browser", "--database", str(database)],
        cwd=tmp_path,
        env=clean,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:(\d+)/#\S+)", line)
        assert match, line + process.stderr.read() if process.poll() is not None else line
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{match.group(2)}/", timeout=10) as response:
            assert response.status == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        assert database.is_file(), "the offline tables are a real SQLite file"
        assert not (tmp_path / "var").exists(), "the online bot's database is untouched"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def test_offline_messages_and_deadlines_read_the_real_time(tmp_path):
    """Issue #41.10: the page's clock is the real one (message times, `<t:…:R>` deadlines)."""
    import time as _time
    from datetime import UTC, datetime

    async with offline.offline_world(tmp_path / "offline.sqlite3", bot_delay=0.0) as world:
        alice, bob = world.players[:2]
        before = datetime.now(UTC)
        await alice.slash(world.channel, "play", game="jeju", pace=600)
        lobby = world.channel.last_message
        await bob.click(lobby, label="Join")
        await alice.click(lobby, label="Start")
        board = world.channel.last_message
        posted = board.created_at
        assert abs((posted - before).total_seconds()) < 120  # not "1/1/26, 12:00 AM"
        assert abs((world.env.now() - datetime.now(UTC)).total_seconds()) < 120
        deadlines = [int(x) for x in re.findall(r"<t:(\d+):R>", board.content)]
        assert deadlines, board.content
        # "in 10 minutes" on the page: the deadline is ahead of the page's now by about the pace.
        ahead = deadlines[0] - world.env.now().timestamp()
        assert 0 < ahead <= 600 + 120
        assert deadlines[0] > _time.time()
