"""Hush's policies are Ponder's."""

from tests.ponder.ai import POLICIES, explain

__all__ = ["POLICIES", "explain"]
