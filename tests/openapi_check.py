"""Validate every JSON body the bot sends against Discord's OpenAPI description.

The description lives in ``../shared/discord-api-spec/openapi.json`` (beside the
repository); `OpenAPIChecker.validate` lists what is wrong with a request's body
against its route's schema. Snowflakes are strings in the spec while discord.py
sends attachment ids as integers, so integers are accepted there.

The validator is jsonschema-rs (JSON Schema 2020-12, as OpenAPI 3.1 uses, compiled
once per route): Discord's message schemas nest many ``oneOf`` choices, which the
pure-Python validator took up to 6 ms a body to walk, and the suite sends tens of
thousands of bodies.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import jsonschema_rs

SPEC_PATH = Path(__file__).resolve().parents[2] / "shared" / "discord-api-spec" / "openapi.json"


def _stringify_attachment_ids(body: Any) -> Any:
    """discord.py sends attachment ids as integers; the spec types them as strings."""
    if isinstance(body, dict):
        out = {key: _stringify_attachment_ids(value) for key, value in body.items()}
        if isinstance(out.get("attachments"), list):
            out["attachments"] = [
                {**a, "id": str(a["id"])} if isinstance(a, dict) and isinstance(a.get("id"), int) else a
                for a in out["attachments"]
            ]
        return out
    if isinstance(body, list):
        return [_stringify_attachment_ids(value) for value in body]
    return body


class OpenAPIChecker:
    """Matches a request to its route in the spec and validates its JSON body."""

    def __init__(self, spec_path: Path = SPEC_PATH) -> None:
        self.spec = json.loads(spec_path.read_text(encoding="utf-8"))

    @cached_property
    def routes(self) -> list[tuple[re.Pattern[str], str]]:
        """(path pattern, path template) for every route, most literal first."""
        routes = []
        for template in self.spec["paths"]:
            pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
            routes.append((template.count("{"), re.compile(f"^{pattern}$"), template))
        routes.sort(key=lambda route: route[0])
        return [(pattern, template) for _, pattern, template in routes]

    def pointer_for(self, method: str, path: str) -> str | None:
        """JSON pointer to a route's JSON request-body schema; None when it takes no JSON body."""
        path = "/" + path.split("?")[0].strip("/").removeprefix("api/v10/")
        for pattern, template in self.routes:
            if pattern.match(path):
                operation = self.spec["paths"][template].get(method.lower(), {})
                if "application/json" not in operation.get("requestBody", {}).get("content", {}):
                    return None
                escaped = template.replace("~", "~0").replace("/", "~1")
                return f"/paths/{escaped}/{method.lower()}/requestBody/content/application~1json/schema"
        raise LookupError(f"{method} {path} is not a route in Discord's OpenAPI description")

    @cache  # noqa: B019 - one checker lives for the whole test session
    def validator(self, pointer: str) -> jsonschema_rs.Draft202012Validator:
        """A validator for the schema at ``pointer``: the whole description as the schema's root
        (so its ``#/components/...`` references resolve), pointing at the route's schema. OpenAPI's
        own keys at the root (``openapi``, ``paths``…) are no JSON Schema keywords: they are ignored."""
        root = {**self.spec, "$ref": "#" + urllib.parse.quote(pointer, safe="/~@")}
        return jsonschema_rs.Draft202012Validator(root)

    def validate(self, method: str, path: str, body: Any) -> list[str]:
        """Every schema error for one request (empty when it is valid)."""
        if body is None:
            return []
        pointer = self.pointer_for(method, path)
        if pointer is None:
            return [f"{method} {path}: sent a JSON body to a route that takes none"]
        errors = list(self.validator(pointer).iter_errors(_stringify_attachment_ids(body)))
        return [
            f"{method} {path}: {error.message[:300]} at {list(error.instance_path)}" for error in errors[:3]
        ]
