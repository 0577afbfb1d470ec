"""Driving the real bot in a simulated Discord, shared by the tests and the benchmarks.

- `simtools.strict`: SimCord made to answer the way Discord documents
  (`StrictEnv`), and the moderator/admin actions tests take on it.
- `simtools.ui`: reading boards and playing panels the way people do.
- `simtools.pg_server`: a PostgreSQL server to create scratch databases on (CI's, or a
  throwaway one), for the store tests and `bench/pg.py`.

Nothing in the product imports this package; it lives outside ``tests/`` so
that ``bench/`` can use it without importing the test suite.
"""
