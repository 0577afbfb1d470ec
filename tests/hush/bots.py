"""Hush's policies are Ponder's."""

from tests.ponder.bots import POLICIES, explain

__all__ = ["POLICIES", "explain"]
