"""Parlor's opponents: brains written once against the engine protocol."""

from brains.protocol import Brain, Budget, Thought, UnknownBrainError
from brains.registry import list_brains, make_brain

__all__ = ["Brain", "Budget", "Thought", "UnknownBrainError", "list_brains", "make_brain"]
