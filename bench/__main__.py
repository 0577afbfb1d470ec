"""Run the benchmark figures in one go: ``python -m bench``.

For now this runs the database figures (`bench.db`); engine and render figures
have their own entry points (``python -m bench.engine``, ``python -m bench.render``).
"""

from __future__ import annotations

import platform

from bench import db

if __name__ == "__main__":
    print(
        f"machine: {platform.platform()}, Python {platform.python_version()}, {platform.processor() or '?'}"
    )
    db.main([])
