"""Haenyeo: Sea Divers of Jeju — the complete rules engine (rulebook: ../shared/rules/haenyeo-rulebook.txt).

Modules: ``components`` (data/haenyeo/*.json, validated), ``state``, ``actions``,
``setup`` (II), ``rules`` (III ①-④), ``scoring`` (Scoring Reference, IV),
``view`` (what each audience sees; its docstring is the view's shape),
``text`` (a readable text form of a state), ``game`` (the `engine.base.Game` contract),
``ai`` (seat policies and hints: ``values`` ← ``greedy`` ← ``expert``, ``hints``).
Decisions where the rulebook is silent or contradicts itself: docs/rules/haenyeo.md.
"""

from __future__ import annotations

from engine.haenyeo.game import GAME, Haenyeo

__all__ = ["GAME", "Haenyeo"]
