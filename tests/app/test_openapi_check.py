"""The suite's check of every request body against Discord's OpenAPI description (tests/openapi_check.py):
it can fail, and it answers the same however often a body is seen."""

from __future__ import annotations

import pytest

from tests.openapi_check import SPEC_PATH

pytestmark = pytest.mark.skipif(not SPEC_PATH.is_file(), reason=f"no OpenAPI description at {SPEC_PATH}")


def test_a_wrong_body_is_reported_every_time_and_a_right_one_never(openapi_checker):
    path = "/api/v10/channels/123/messages"
    wrong = {"content": 5, "allowed_mentions": {"parse": []}}  # content is text
    right = {"content": "five", "allowed_mentions": {"parse": []}}
    for _ in range(2):
        problems = openapi_checker.validate("POST", path, wrong)
        assert len(problems) == 1 and problems[0].startswith(f"POST {path}: ") and "content" in problems[0]
        assert openapi_checker.validate("POST", path, right) == []
    # The same body sent to another route is checked against that route's own schema.
    assert openapi_checker.validate("PATCH", path + "/456", right) == []
    assert openapi_checker.validate("POST", "/api/v10/channels/123/threads", right) != []
