"""Parlor's opponents: brains written once against the engine protocol."""
