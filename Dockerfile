# The game host in a container: `docker compose up -d --build` (see docs/HOSTING.md).
# The base image pinned by digest (python:3.11.14-slim-bookworm, the multi-platform index), so a
# rebuild gets the same system and Python; move it on with a new tag and digest on purpose:
#   docker buildx imagetools inspect python:3.11-slim-bookworm
FROM python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# Dependencies first, exactly as pinned in requirements.lock: this layer is rebuilt only when the
# lock file changes, never for a change to the code (which is copied after it).
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock

# A user without a login or a home to speak of; it owns only /data. Its ids are build arguments
# (compose.yaml passes SEAGAMES_UID and SEAGAMES_GID), so files on a bind mount can belong to a
# user of the host. Made after the dependencies, so another id does not reinstall them.
ARG SEAGAMES_UID=10001
ARG SEAGAMES_GID=10001
RUN groupadd --system --gid "${SEAGAMES_GID}" seagames \
    && useradd --system --uid "${SEAGAMES_UID}" --gid "${SEAGAMES_GID}" --no-create-home \
        --shell /usr/sbin/nologin seagames \
    && mkdir -p /data \
    && chown seagames:seagames /data \
    && chmod 0700 /data

# The code, the data files and the fonts (the engine and renderers read data/ next to the code),
# and the translation catalogs (i18n/locale, compiled in memory at start). `python bot.py` runs
# from /app, so the code needs no install; offline mode (offline.py, SimCord) stays out.
COPY pyproject.toml README.md CHANGELOG.md bot.py cli.py config.py gamebot.py ./
COPY engine ./engine
COPY renderers ./renderers
COPY hosting ./hosting
COPY cogs ./cogs
COPY i18n ./i18n
COPY data ./data
RUN python -m compileall -q /app

ENV DATABASE_PATH=/data/seagames.sqlite3 \
    HEALTH_FILE=/tmp/seagames.alive \
    LOG_FORMAT=plain
VOLUME ["/data"]
USER seagames

# Healthy while the bot runs, also while it waits for Discord (a restart would not help);
# `python bot.py health --ready` says whether it is connected.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 \
    CMD ["python", "bot.py", "health"]
# SIGTERM (docker stop) closes the Discord connection and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
