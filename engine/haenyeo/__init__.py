"""Haenyeo: Sea Divers of Jeju — the complete rules engine (rulebook: ../shared/rules/haenyeo-rulebook.txt).

Modules: ``components`` (data/haenyeo/*.json, validated), ``state``, ``actions``,
``setup`` (II), ``rules`` (III ①-④), ``scoring`` (Scoring Reference, IV),
``view`` (what each audience sees; its docstring is the view's shape),
``game`` (the `engine.base.Game` contract), ``bots`` (seat policies).
Decisions where the rulebook is silent or contradicts itself: docs/rules/haenyeo.md.
"""

from __future__ import annotations

from engine.haenyeo.game import GAME, Haenyeo

__all__ = ["GAME", "Haenyeo"]
