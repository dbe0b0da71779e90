"""Learned opponents: value tables, Q-learning, linear TD and MLP value networks."""
