"""Validate every JSON body the bot sends against Discord's OpenAPI description.

The description lives in ``../shared/discord-api-spec/openapi.json`` (beside the
repository); `OpenAPIChecker.errors` lists every request whose body does not
match its route's schema. Snowflakes are strings in the spec while discord.py
sends attachment ids as integers, so integers are accepted there.
"""

from __future__ import annotations

import json
import re
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).resolve().parents[2] / "shared" / "discord-api-spec" / "openapi.json"
_BASE = "urn:discord-openapi"


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
        self.registry = Registry().with_resource(
            _BASE, Resource.from_contents(self.spec, default_specification=DRAFT202012)
        )
        #: (schema pointer, the body as canonical JSON) -> its errors, for bodies already seen.
        self._checked: dict[tuple[str, str], list[str]] = {}

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
    def validator(self, pointer: str) -> Draft202012Validator:
        """A validator for the schema at ``pointer``, resolving the spec's own references."""
        return Draft202012Validator({"$ref": f"{_BASE}#{pointer}"}, registry=self.registry)

    def validate(self, method: str, path: str, body: Any) -> list[str]:
        """Every schema error for one request (empty when it is valid)."""
        if body is None:
            return []
        pointer = self.pointer_for(method, path)
        if pointer is None:
            return [f"{method} {path}: sent a JSON body to a route that takes none"]
        return [f"{method} {path}: {problem}" for problem in self._problems(pointer, body)]

    def _problems(self, pointer: str, body: Any) -> list[str]:
        """The schema errors of one body, each body validated once a session: every test's bot
        registers the same commands and answers many clicks alike, and a deep schema costs up to
        a quarter of a second a body (the command list's)."""
        key = (pointer, json.dumps(body, sort_keys=True, default=repr))
        found = self._checked.get(key)
        if found is None:
            errors = list(self.validator(pointer).iter_errors(_stringify_attachment_ids(body)))
            found = [f"{error.message[:300]} at {list(error.absolute_path)}" for error in errors[:3]]
            self._checked[key] = found
        return found
