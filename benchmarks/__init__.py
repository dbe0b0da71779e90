"""Parlor's benchmarks: speed and strength figures printed as tables (``make bench``).

Nothing here is part of ``make test``; each module has a ``main(argv)`` and can be run
alone, e.g. ``python -m benchmarks.perft``.
"""
