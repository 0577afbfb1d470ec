# The game host in a container: `docker compose up -d --build` (see docs/HOSTING.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# A user without a login or a home to speak of; it owns only /data.
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin seagames \
    && mkdir -p /data \
    && chown seagames:seagames /data

WORKDIR /app
# The code, the data files and the fonts (the engine and renderers read data/ next to the code),
# and the translation catalogs (i18n/locale, compiled in memory at start).
COPY pyproject.toml README.md bot.py ./
COPY engine ./engine
COPY renderers ./renderers
COPY hosting ./hosting
COPY cogs ./cogs
COPY i18n ./i18n
COPY data ./data
# Dependencies from the project's own metadata (pyproject.toml), as the README installs them.
RUN pip install -e . \
    && python -m compileall -q /app

ENV DATABASE_PATH=/data/seagames.sqlite3 \
    HEALTH_FILE=/tmp/seagames.alive \
    LOG_FORMAT=plain
VOLUME ["/data"]
USER seagames

# Healthy while the bot is connected: it touches HEALTH_FILE every 30 s.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 \
    CMD ["python", "bot.py", "health"]
# SIGTERM (docker stop) closes the Discord connection and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
