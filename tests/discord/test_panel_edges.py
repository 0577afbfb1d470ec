"""The panel's last rough edges, as a player meets them (issue #41, items 4 and 5).

- After a player confirms their Haenyeo diving cards while another still chooses,
  the panel says so: done, can't be changed, waiting for whom; no Put back buttons.
- Menus show their placeholder (never a picked option) and do not repeat the
  same grey description on every line.
"""

from __future__ import annotations

import pytest

from cogs.panels import CHOOSE_A_MOVE, ChoiceSelect, panel_view
from hosting.service import Choice, Panel
from simtools.ui import controls, latest_board, panel_button
from tests.discord import test_bot_levels
from tests.discord.test_lobby import open_table

make_bot, settings, world = test_bot_levels.make_bot, test_bot_levels.settings, test_bot_levels.world


async def open_my_panel(member, thread):
    board = latest_board(thread)
    opened = await member.click(board, custom_id=panel_button(board).custom_id)
    return opened.followups[0] if opened.followups else opened.response


def confirm_button(panel) -> dict | None:
    buttons, _ = controls(panel)
    return next((b for b in buttons if b.get("label", "").startswith("Confirm")), None)


@pytest.mark.simcord(settle_timeout=30.0)
async def test_after_confirming_the_haenyeo_panel_says_done_and_offers_no_put_back(world):
    channel, alice, bob = world
    _, lobby, thread = await open_table(channel, alice, game="haenyeo")
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    panel = await open_my_panel(alice, thread)
    for _ in range(6):  # pick diving cards from the menus until Confirm is offered
        if confirm_button(panel):
            break
        _, selects = controls(panel)
        menu, option = next(
            (s, o) for s in selects for o in s["options"] if not o["label"].startswith("Put back")
        )
        picked = await alice.select(panel, [option["value"]], custom_id=menu["custom_id"])
        panel = picked.response
    confirmed = await alice.click(panel, custom_id=confirm_button(panel)["custom_id"])
    after = confirmed.response
    assert "Done: your move is in and can't be changed now." in after.content
    assert "Waiting for" in after.content and bob.mention in after.content
    buttons, selects = controls(after)
    assert not buttons and not selects  # no Put back, no menus
    assert "Your move" not in after.content
    # Opened again from the board, it says the same.
    again = await open_my_panel(alice, thread)
    assert "Done: your move is in and can't be changed now." in again.content
    assert not any(controls(again))
    # Bob, still choosing, has his whole choice.
    assert controls(await open_my_panel(bob, thread))[1]


def test_a_split_menu_shows_its_placeholder_and_no_repeated_descriptions():
    choices = [Choice(i, f"Place {i}", "Build", f"Place {i}") for i in range(30)]
    view = panel_view(1, Panel(seat=0, token="1.ab", choices=choices))
    menus = [item.item for item in view.children if isinstance(item, ChoiceSelect)]
    assert [m.placeholder for m in menus] == ["Build (1 of 2): choose one…", "Build (2 of 2): choose one…"]
    for menu in menus:
        assert not any(o.default for o in menu.options)
        assert all(o.description is None for o in menu.options)  # the title says "Build" once


def test_a_mixed_menu_names_each_options_group():
    groups = ["Build", "Travel", "Trade", "Rest", "Fish", "Dive"]
    choices = [Choice(i, f"Move {i}", groups[i % 6], f"Move {i}") for i in range(150)]
    view = panel_view(1, Panel(seat=0, token="1.ab", choices=choices))
    menus = [item.item for item in view.children if isinstance(item, ChoiceSelect)]
    mixed = [m for m in menus if m.placeholder.startswith(CHOOSE_A_MOVE)]
    assert mixed and all(o.description in groups for m in mixed for o in m.options)


def test_no_two_panels_share_a_menu_value():
    """A client that keeps a menu's pick by its position (the offline page) finds no old value in
    the next panel's menu, so it shows the placeholder, not the old pick as if it were the title."""
    choices = [Choice(i, f"Place {i}", "Build", f"Place {i}") for i in range(30)]
    before = panel_view(1, Panel(seat=0, token="3.ab12cd34", choices=choices))
    after = panel_view(1, Panel(seat=0, token="4.ef56ab78", choices=choices[1:]))

    def values(view) -> set[str]:
        return {o.value for i in view.children if isinstance(i, ChoiceSelect) for o in i.item.options}

    assert values(before) and not values(before) & values(after)
