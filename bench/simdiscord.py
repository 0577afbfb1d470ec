"""SimCord's own records, forgotten as a real Discord would (the benchmarks' shared helper).

SimCord keeps in the bot's process what Discord keeps on its side: every message
and picture, every interaction, a deep copy of every request body and a
transcript. A long benchmark would otherwise measure those: its memory, and the
cyclic collector's full collections walking them (bench.e2e measured them as most
of each full collection). Pruning them leaves the bot's own heap.
"""

from __future__ import annotations


def prune_simulator(env, closed_channels: set[int], keep: int = 3) -> None:
    """Forget what SimCord holds that only Discord would: old messages, their pictures, old logs.

    A closed table's thread loses every message; an open one keeps its newest
    ``keep``. The CDN keeps only pictures of messages still held. Interactions,
    request logs and the transcript are all finished with by now.
    """
    backend = env.backend
    for channel_id, messages in list(backend.messages.items()):
        if channel_id in closed_channels:
            messages.clear()
            continue
        for message_id in sorted(messages)[:-keep]:
            del messages[message_id]
    held = {
        attachment.get("url") if isinstance(attachment, dict) else getattr(attachment, "url", None)
        for messages in backend.messages.values()
        for message in messages.values()
        for attachment in message.attachments or []
    }
    blobs = backend.cdn._blobs
    for url in [u for u in blobs if "/attachments/" in u and u not in held]:
        del blobs[url]
    backend.interactions.clear()
    backend.interaction_tokens.clear()
    backend.http_requests.clear()
    backend.transcript.clear()
    for name in ("_interaction_born", "rate_limited"):
        store = getattr(backend, name, None)
        if store is not None:
            store.clear()
    now_ms = max(backend._sequences, default=0)
    backend._sequences = {now_ms: backend._sequences.get(now_ms, 0)} if backend._sequences else {}
    backend._reserved_ids = {i for i in backend._reserved_ids if i >> 22 >= now_ms}
