"""Hostile input: interactions no honest client sends, fired at the running bot through SimCord.

SimCord's `click` / `select` refuse components a real user could not reach, so
`send_raw` builds the component interaction itself (the same payload SimCord's
own click builds) with any ``custom_id``, values and user. A hypothesis fuzzer
sends thousands of them: forged and malformed ids, ids of other tables, stale
tokens, select values outside the options or of the wrong type, members of
other servers. Every one must be acknowledged, refusals ephemerally, with no
unhandled error and no table changed.
"""

from __future__ import annotations

from typing import Any

from simcord import actors as sc_actors
from simcord import interactions as sc_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult


async def send_raw(actor, message, datas: list[dict[str, Any]]) -> list[InteractionResult]:
    """Dispatch component interactions on ``message`` all at once, then let the bot settle.

    Several datas are delivered before the bot handles any of them: that is how
    two clicks landing at the same moment reach it.
    """
    env = actor._env
    backend = env.backend
    channel_id = sc_actors._channel_id_of(message, env)
    stored = backend.get_message(channel_id, message.id)
    guild = getattr(actor, "guild", None)
    records = []
    for data in datas:
        record, payload = sc_interactions.base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=channel_id,
            guild_id=guild.id if guild is not None else None,
            user_id=actor.id,
            data=data,
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        env._notify_dispatch_observers(record)
        backend.emit("INTERACTION_CREATE", payload)
        records.append(record)
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return [InteractionResult(env, record) for record in records]


def button(custom_id: str) -> dict[str, Any]:
    return {"custom_id": custom_id, "component_type": int(ComponentType.BUTTON)}


def select(custom_id: str, values: list[Any]) -> dict[str, Any]:
    return {"custom_id": custom_id, "component_type": int(ComponentType.STRING_SELECT), "values": values}
