"""Benchmarks: scripts that print figures. Tests never assert a time."""
