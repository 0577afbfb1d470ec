"""Secrecy audit: whole games of every game, every word anyone could see, checked for hidden choices.

People play Haenyeo, Reef & Ruins and Jeju Island through Discord with a bot
seat at the table, while a spectator pokes at the board, players open their
panels out of turn and ask for ``/game log``. Meanwhile the audit records
everything the bot lets anyone see, at the moment it is seen:

* every public message and every edit of one (the MESSAGE_CREATE / MESSAGE_UPDATE
  events Discord sends to everybody): content, embeds, buttons and menus,
  attachment names and picture alt text;
* every ephemeral message and edit (panels, refusals, "out of date" notes, the
  log, rules), with the one person who sees it;
* every log line the bot writes at DEBUG and above, with its traceback.

Each record is stamped with how many moves each table had when it was made.
After the game, the table's log is replayed from its seed and, for every move
count, the *hidden choices* are derived from the engine: per seat, the words
its own panel used for what it chose since the last reveal (its private events
and the labels of the choices it made that told nobody else anything), plus
what the state holds hidden:

* Haenyeo: the diving cards a seat has toggled while selecting ("dives to zones
  3 and 7", "diving card 3", …) and the NPC's cards for the round, until the
  reveal event;
* Reef & Ruins: lucky numbers are public as each is picked (in seat order);
  the hidden work is a seat's boon-step choice and its dice
  work (searches, marks, casts, trades, shells) until the round's reveal event;
* Jeju Island has no hidden choice (every move is public, see
  ``engine/jeju/view.py``); its hidden information is the order of the point
  card deck, so the text of every card still face down in the deck (when no
  other card reads the same) must not appear anywhere before it is drawn.

A public record or log line may contain none of the hidden choices pending at
its stamp; an ephemeral record may contain none of another seat's (leaving out
words the viewer's own panel may say for their own choices, such as the same
die value). Sanity checks make sure the audit can fail: the same phrases are
found in the owners' own panels and, after the reveal, in public; and a planted
leak is reported.

Thorough setting with ``pytest --slow``: more seeds and seat counts (the
2-player Haenyeo game with its NPC, solo Reef & Ruins, 4-seat Jeju Island).
"""

from __future__ import annotations

import functools
import logging
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from engine.haenyeo.rules import npc_draw, zones_text
from engine.jeju.components import CARDS, card_text
from tests.discord.test_lobby import open_table
from tests.play_helpers import PANEL_BUTTONS, awaited, controls, latest_board, results_message, said

#: Public events after which nothing chosen before them is hidden any more.
REVEALS = {"haenyeo": {"reveal"}, "reef": {"reveal", "lucky"}, "jeju": set()}
#: Private events that hide nothing: "You confirm your round." says only what every board's
#: "Waiting for" says too, and a panel edited late (a busy machine) may show the viewer's own
#: from the round before, in the very words of another seat's confirm of this round.
NOT_SECRET = {"haenyeo": set(), "reef": {"confirm"}, "jeju": set()}


# ---------------------------------------------------------------- what was seen


def strings(value: Any) -> list[str]:
    """Every piece of text in a message payload (content, embeds, components, attachments)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def message_text(message) -> str:
    """What a person reads in a SimCord backend message."""
    parts = [message.content or ""]
    for part in (message.embeds, message.components, message.attachments):
        parts.extend(strings(part))
    return "\n".join(parts)


@dataclass
class Seen:
    """One thing somebody could read: a public message version, an ephemeral one, or a log line."""

    kind: str  # "public", "ephemeral", "log"
    viewer: int | None  # the user who sees an ephemeral message
    text: str
    moves: dict[int, int]  # table id -> moves applied when it was seen
    order: int = 0  # its place among everything seen (seat hand-overs are stamped the same way)


@dataclass
class Recorder:
    """Hooks SimCord's Discord and the bot's store to record `Seen` items with their stamps."""

    moves: dict[int, int] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    #: Seats changing hands mid-game, per table: (order, user, the seat they now hold or None).
    handovers: dict[int, list[tuple[int, int, int | None]]] = field(default_factory=dict)
    bot: Any = None

    def add(self, kind: str, viewer: int | None, text: str) -> None:
        self.seen.append(Seen(kind, viewer, text, dict(self.moves), len(self.seen)))

    def handover(self, table_id: int, user: int, seat: int | None) -> None:
        """From now on ``user`` holds ``seat`` (None: no seat) at the table."""
        self.handovers.setdefault(table_id, []).append((len(self.seen), user, seat))

    def install(self, env, bot) -> None:
        self.bot = bot
        backend = env.backend
        emit, commit, edit = backend.emit, backend.commit_message, backend.edit_message

        def on_emit(event, payload):
            if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
                channel = backend.get_channel(int(payload["channel_id"]))
                if channel.guild_id is None:  # a direct message: only its recipient reads it
                    for user in channel.recipient_ids:
                        self.add("ephemeral", user, "\n".join(strings(payload)))
                else:
                    self.add("public", None, "\n".join(strings(payload)))
            return emit(event, payload)

        def note_ephemeral(message):
            if message.is_ephemeral:
                user = ((message.interaction_metadata or {}).get("user") or {}).get("id")
                self.add("ephemeral", int(user) if user else None, message_text(message))
            return message

        backend.emit = on_emit
        backend.commit_message = lambda message, **kw: note_ephemeral(commit(message, **kw))
        backend.edit_message = lambda *a, **kw: note_ephemeral(edit(*a, **kw))

        store = bot.tables.store
        append = store.append_action

        async def counted(table_id, *args, **kwargs):
            version = await append(table_id, *args, **kwargs)
            self.moves[table_id] = self.moves.get(table_id, 0) + 1
            return version

        store.append_action = counted

    def log_handler(self) -> logging.Handler:
        recorder = self

        class Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                text = logging.Formatter("%(name)s %(levelname)s %(message)s").format(record)
                recorder.add("log", None, text + " " + " ".join(map(str, record.__dict__.values())))

        return Handler(level=logging.DEBUG)


# ---------------------------------------------------------------- what was hidden


@functools.cache
def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A phrase as a case-insensitive pattern; "card 1" does not match "card 10"."""
    tail = r"(?!\d)" if phrase[-1:].isdigit() else ""
    return re.compile(re.escape(phrase) + tail, re.IGNORECASE)


@dataclass
class Moment:
    """The hidden choices at one move count: owner seat (None: nobody's) -> phrases."""

    hidden: dict[int | None, set[str]]
    #: What each seat's own panel may show: its legal choices, and every note it was told (an earlier
    #: round's note stays on its panel after the reveal, and may read like another seat's secret now).
    labels: dict[int, set[str]]
    said: str = ""  # every public event so far: an earlier reveal may use the same words

    def shown_more_than_said(self, pattern: re.Pattern[str], text: str) -> bool:
        """True when ``text`` shows the phrase more often than the public events so far did.

        A player may pick the same zones in two rounds: the log then rightly repeats the
        last round's reveal, which is not this round's secret. Any extra occurrence is.
        """
        return len(pattern.findall(text)) > len(pattern.findall(self.said))


def state_secrets(game_key: str, state) -> dict[int | None, set[str]]:
    """What the state itself holds hidden, in the words the bot would use for it."""
    found: dict[int | None, set[str]] = {}
    if game_key == "haenyeo" and state.phase == "select":
        for seat in range(state.seats):
            mask = state.chosen[seat]
            if mask:
                zones = [z for z in range(12) if mask >> z & 1]
                found[seat] = {f"dives to {zones_text(mask)}", f"dive to {zones_text(mask)}"}
                found[seat] |= {f"diving card {z}" for z in zones} | {f"Put back card {z}" for z in zones}
        if state.npc:
            found[None] = {f"dives to {zones_text(npc_draw(state))}"}
    if game_key == "jeju":
        elsewhere = {card_text(card) for key, card in CARDS.items() if key not in state.deck}
        found[None] = {card_text(CARDS[key]) for key in state.deck} - elsewhere
    return found


def moments(game_key: str, seats: int, seed: int, options: dict, log: list) -> list[Moment]:
    """Replay a table's log: the hidden choices after 0, 1, 2, … moves."""
    game = engine.get(game_key)
    state = game.new(seats, seed, options)
    work: dict[int, set[str]] = {s: set() for s in range(seats)}
    told: dict[int, set[str]] = {s: set() for s in range(seats)}  # never cleared: work before reveals
    said: list[str] = []

    def moment() -> Moment:
        hidden = {s: set(p) for s, p in work.items()}
        for owner, phrases in state_secrets(game_key, state).items():
            hidden.setdefault(owner, set()).update(phrases)
        labels = {s: {game.action_label(state, s, a) for a in game.legal_actions(state, s)} for s in work}
        for s, notes in told.items():
            labels[s] |= notes
        return Moment(hidden, labels, "\n".join(said))

    found = [moment()]
    for logged in log:
        action = game.load_action(logged.action)
        label = game.action_label(state, logged.seat, action)
        state, events = game.apply(state, logged.seat, action)
        public = [e for e in events if not e.get("private")]
        said.extend(e["text"] for e in public)
        work[logged.seat].update(
            e["text"] for e in events if e.get("private") and e.get("type") not in NOT_SECRET[game_key]
        )
        if not public:  # a choice that told nobody else anything
            work[logged.seat].add(label)
        told[logged.seat].update(work[logged.seat])
        if any(e["type"] in REVEALS[game_key] for e in public):
            for phrases in work.values():
                phrases.clear()
        found.append(moment())
    return found


@dataclass
class Leak:
    seen: Seen
    owner: int | None
    phrase: str

    def __str__(self) -> str:
        whose = "the NPC / the deck" if self.owner is None else f"seat {self.owner + 1}"
        where = self.seen.kind + ("" if self.seen.viewer is None else f" to user {self.seen.viewer}")
        return f"{whose}'s hidden {self.phrase!r} in a {where} at {self.seen.moves}: {self.seen.text[:300]!r}"


@dataclass
class Table:
    """One audited table: its id, game, the seat of each user, and its hidden choices per move count.

    ``seat_of`` is who sat where at the start; ``handovers`` (order, user, seat or
    None) say when a seat changed hands: a player who left sees nothing of their
    old seat's later choices, and the member who took it over sees only that seat's.
    """

    id: int
    game: str
    seat_of: dict[int, int]
    timeline: list[Moment]
    handovers: list[tuple[int, int, int | None]] = field(default_factory=list)

    def seat(self, user: int | None, order: int) -> int | None:
        """The seat ``user`` held when the record numbered ``order`` was seen."""
        held = self.seat_of.get(user) if user is not None else None
        for when, who, seat in self.handovers:
            if when <= order and who == user:
                held = seat
        return held


def leaks(seen: list[Seen], tables: list[Table]) -> list[Leak]:
    """Every record that shows a hidden choice to someone who may not see it yet."""
    found = []
    for item in seen:
        for table in tables:
            if table.id not in item.moves:
                continue  # seen before the table's first move: nothing chosen yet
            moment = table.timeline[item.moves[table.id]]
            viewer = table.seat(item.viewer, item.order) if item.kind == "ephemeral" else None
            if item.kind == "ephemeral" and item.viewer is None:
                continue
            text = item.text
            if viewer is not None:  # the viewer's own choices and notes are theirs to read
                own = moment.hidden.get(viewer, set()) | moment.labels.get(viewer, set())
                for phrase in sorted(own, key=len, reverse=True):
                    text = text.replace(phrase, "\n")
            for owner, phrases in moment.hidden.items():
                if owner is not None and owner == viewer:
                    continue
                found.extend(
                    Leak(item, owner, p)
                    for p in phrases
                    if phrase_pattern(p).search(text) and moment.shown_more_than_said(phrase_pattern(p), text)
                )
    return found


def shown_to_owner(seen: list[Seen], tables: list[Table]) -> int:
    """How many ephemeral records show their viewer's own hidden choice (the detector at work)."""
    count = 0
    for item in seen:
        for table in tables:
            seat = table.seat(item.viewer, item.order) if item.kind == "ephemeral" else None
            if seat is None or table.id not in item.moves:
                continue
            phrases = table.timeline[item.moves[table.id]].hidden.get(seat, set())
            count += any(phrase_pattern(p).search(item.text) for p in phrases)
    return count


# ---------------------------------------------------------------- playing


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol", "dan", "erin")]
    spectator = guild.add_member(simcord_env.create_user("sam"))
    return channel, people, spectator


def choose(buttons, selects, rng: random.Random):
    """A player's click: some work before confirming; never reset."""
    confirm = [b for b in buttons if b.get("label", "").startswith("Confirm")]
    forward = [b for b in buttons if not b.get("label", "").startswith(("Confirm", "Reset", "Back", "Undo"))]
    pool = [("button", b) for b in forward] + [("option", (s, o)) for s in selects for o in s["options"]]
    if confirm and (not pool or rng.random() < 0.4):
        return "button", confirm[0]
    if not pool:
        return "button", buttons[0]
    return rng.choice(pool)


async def play_panel(member, panel, rng: random.Random) -> None:
    for _ in range(60):
        buttons, selects = controls(panel)
        if not buttons and not selects:
            return
        kind, choice = choose(buttons, selects, rng)
        if kind == "button":
            await member.click(panel, custom_id=choice["custom_id"])
        else:
            select, option = choice
            await member.select(panel, [option["value"]], custom_id=select["custom_id"])
        if kind == "button" and choice["label"].startswith("Confirm"):
            return


async def nosy(channel, thread, players, spectator, rng: random.Random) -> None:
    """What curious people do mid-game: a spectator and an idle player open panels, someone reads the log."""
    board = latest_board(thread)
    label = next(c.label for row in board.components for c in row.children if c.label in PANEL_BUTTONS)
    waiting = set(awaited(board))
    idle = [p for p in players if p.id not in waiting]
    roll = rng.random()
    if roll < 0.15:
        result = await spectator.click(board, label=label)
        assert result.ephemeral
    elif roll < 0.3 and idle:
        await rng.choice(idle).click(board, label=label)
    elif roll < 0.35:
        handle = next(t for t in channel.threads if t.id == thread.id)
        await rng.choice(players).slash(handle, "game log")


async def hand_over(channel, thread, players, newcomer, members, recorder, table_id: int) -> None:
    """A player leaves mid-game and the host gives their seat to a newcomer who never sat here."""
    host, leaver = players[0], players[1]
    handle = next(t for t in channel.threads if t.id == thread.id)
    result = await leaver.slash(handle, "game leave")
    assert "a bot plays your seat" in said(result)
    seat = next(i for i, p in enumerate(players) if p is leaver)
    recorder.handover(table_id, leaver.id, None)
    # The host, who has seen their own hand, may not take the seat; the newcomer may.
    refused = await host.slash(handle, "game replace", seat=seat + 1, member=host)
    assert "holds or held a seat" in said(refused)
    recorder.handover(table_id, newcomer.id, seat)
    taken = await host.slash(handle, "game replace", seat=seat + 1, member=newcomer)
    assert "now belongs to" in said(taken)
    del members[leaver.id]
    members[newcomer.id] = newcomer


async def play_game(
    channel,
    players,
    spectator,
    bots: int,
    game: str,
    rng: random.Random,
    *,
    newcomer=None,
    recorder=None,
    hand_over_at: int = 8,
):
    """Play a whole game through the UI; with a ``newcomer``, a player leaves and they take the seat."""
    _, lobby, thread = await open_table(channel, players[0], game=game)
    for member in players[1:]:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await players[0].click(lobby, label="Add bot")
    await players[0].click(lobby, label="Start")
    members = {p.id: p for p in players}
    for turn in range(1500):
        if results_message(thread) is not None:
            return thread
        if newcomer is not None and turn == hand_over_at:
            table = await recorder.bot.tables.store.table_in_channel(thread.id)
            await hand_over(channel, thread, players, newcomer, members, recorder, table.id)
        await nosy(channel, thread, [members[uid] for uid in members], spectator, rng)
        board = latest_board(thread)
        waiting = [uid for uid in awaited(board) if uid in members]
        assert waiting, board.content
        member = members[rng.choice(waiting)]
        label = next(c.label for row in board.components for c in row.children if c.label in PANEL_BUTTONS)
        opened = await member.click(board, label=label)
        await play_panel(member, opened.followups[0] if opened.followups else opened.response, rng)
    raise AssertionError("the game did not finish")


async def audited_tables(bot, handovers: dict | None = None) -> list[Table]:
    service = bot.tables
    handovers = handovers or {}
    found = []
    for table_id in sorted(await service.store.table_ids("finished")):
        table = await service.get(table_id)
        log = await service.store.actions(table_id)
        # Who sat where at the start: a seat's first holder (a later one is a hand-over).
        seat_of = {
            (s.former[0] if s.former else s.user_id): s.seat
            for s in table.seats
            if s.former or s.user_id is not None
        }
        timeline = moments(table.game, len(table.seats), table.seed, table.options, log)
        found.append(Table(table_id, table.game, seat_of, timeline, handovers.get(table_id, [])))
    return found


#: (game, people, bot seats, seed) of the games played.
QUICK = [("haenyeo", 3, 1, 11), ("reef", 1, 1, 12), ("jeju", 2, 1, 13)]
THOROUGH = [
    *QUICK,
    ("haenyeo", 2, 0, 21),  # with the NPC
    ("haenyeo", 4, 1, 22),
    ("reef", 1, 0, 23),
    ("reef", 2, 1, 24),
    ("jeju", 3, 1, 25),
]


def cases(config) -> list[tuple[str, int, int, int]]:
    return THOROUGH if config.getoption("--slow") else QUICK


@pytest.fixture
def recorder(simcord_env, simcord_bot, caplog):
    caplog.set_level(logging.DEBUG)
    found = Recorder()
    found.install(simcord_env, simcord_bot)
    handler = found.log_handler()
    logging.getLogger().addHandler(handler)
    yield found
    logging.getLogger().removeHandler(handler)


@pytest.mark.parametrize("game", ["haenyeo", "reef", "jeju"])
async def test_no_hidden_choice_is_seen_before_its_reveal(world, recorder, simcord_bot, request, game):
    channel, people, spectator = world
    for key, humans, bots, seed in cases(request.config):
        if key == game:
            await play_game(channel, people[:humans], spectator, bots, key, random.Random(seed))
    # A seat changes hands mid-game (leave, then replace by a newcomer): Haenyeo in the
    # quick setting, Reef & Ruins too in the thorough one.
    if game == "haenyeo" or (game == "reef" and request.config.getoption("--slow")):
        humans, bots, seed = next((h, b, s) for k, h, b, s in cases(request.config) if k == game and h >= 1)
        players = [*people[:2]] if humans < 2 else people[:humans]
        await play_game(
            channel,
            players,
            spectator,
            bots,
            game,
            random.Random(seed + 100),
            newcomer=people[4],
            recorder=recorder,
        )
    tables = await audited_tables(simcord_bot, recorder.handovers)
    assert tables and all(t.game == game for t in tables)
    found = leaks(recorder.seen, tables)
    assert not found, "hidden choices seen too early:\n" + "\n".join(map(str, found[:10]))

    # The audit looked at real traffic: public boards, ephemeral answers and log lines.
    kinds = {item.kind for item in recorder.seen}
    assert {"public", "ephemeral"} <= kinds
    # There were hidden choices while public boards were posted (so the check had something to find)…
    pending_public = [
        item
        for item in recorder.seen
        for table in tables
        if item.kind == "public"
        and table.id in item.moves
        and any(table.timeline[item.moves[table.id]].hidden.values())
    ]
    assert pending_public
    # …and the words the audit looks for are the words the bot really uses.
    public_after = "\n".join(item.text for item in recorder.seen if item.kind == "public")
    if game == "jeju":
        drawn = {p for t in tables for m in t.timeline for p in m.hidden.get(None, ())}
        assert any(phrase_pattern(p).search(public_after) for p in drawn)  # bought cards, named later
    else:
        assert shown_to_owner(recorder.seen, tables) > 0  # each player sees their own choice
    if game == "haenyeo":
        assert re.search(r"dives to zones? \d", public_after)  # the reveal, in the words audited


@dataclass
class Logged:
    """An action log entry, as `Store.actions` returns them."""

    seat: int
    action: dict


def test_a_planted_leak_is_reported():
    game = engine.get("haenyeo")
    state = game.new(3, 5)
    card = next(a for a in game.legal_actions(state, 0) if getattr(a, "zone", None) == 4)
    timeline = moments("haenyeo", 3, 5, {}, [Logged(0, game.dump_action(card))])  # alice toggles card 4
    table = Table(1, "haenyeo", {100: 0, 200: 1}, timeline)
    board = Seen("public", None, "**alice** has chosen their diving cards.", {1: 1})
    leaked = Seen("public", None, "**alice** dives to zone 4.", {1: 1})
    told_bob = Seen("ephemeral", 200, "Nothing to do. alice: Put back card 4", {1: 1})
    own = Seen("ephemeral", 100, "You selected diving card 4.", {1: 1})
    logged = Seen("log", None, "cogs.play DEBUG seat 0 took diving card 4", {1: 1})
    found = leaks([board, leaked, told_bob, own, logged], [table])
    assert {id(leak.seen) for leak in found} == {id(leaked), id(told_bob), id(logged)}
    assert shown_to_owner([own], [table]) == 1


def test_an_earlier_reveal_in_the_same_words_is_not_a_leak_but_one_more_is():
    pattern = phrase_pattern("dives to zones 2 and 5")
    moment = Moment({3: {"dives to zones 2 and 5"}}, {}, "Seat 4 dives to zones 2 and 5.\nZone 3 is empty.")
    log = "• **Bot Dol** dives to zones 2 and 5.\n• **Bot Dol** has chosen their diving cards."
    assert not moment.shown_more_than_said(pattern, log)  # last round's reveal, repeated by /game log
    assert moment.shown_more_than_said(pattern, log + "\n• **Bot Dol** dives to zones 2 and 5.")


def test_a_seats_note_from_an_earlier_round_stays_its_own_to_read():
    """After the reveal a panel may still show last round's "You will dive to …": the audit keeps
    it the seat's own, so another seat choosing the same cards this round is not a leak."""
    game = engine.get("haenyeo")
    state, log, rng = game.new(2, 7), [], random.Random(7)
    revealed = False
    while not revealed:
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        state, events = game.apply(state, seat, action)
        log.append(Logged(seat, game.dump_action(action)))
        revealed = any(e["type"] == "reveal" for e in events)
    timeline = moments("haenyeo", 2, 7, {}, log)
    mine = {p for p in timeline[-2].hidden[0] if p.startswith("You will dive to")}
    assert mine and not timeline[-1].hidden[0]  # told before the reveal, no longer hidden after it
    assert mine <= timeline[-1].labels[0]  # …and still the first seat's own to read on its panel
    assert not mine & timeline[-1].labels[1]
