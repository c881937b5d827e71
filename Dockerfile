# The referee bot: a slim image, a non-root user, the SQLite file on a volume.
#   docker build -t board-referee .
#   docker run -d --name referee -e DISCORD_TOKEN=... -v referee-data:/data board-referee
#
# The base is pinned to an exact Python release and Debian release. Pin it further by digest
# where Docker Hub is reachable: `docker buildx imagetools inspect python:3.11.14-slim-bookworm`
# prints it; build with --build-arg BASE=python:3.11.14-slim-bookworm@sha256:<digest>.
ARG BASE=python:3.11.14-slim-bookworm
FROM ${BASE}

# METRICS_HOST: the bot's own default is loopback, which nothing outside a container reaches;
# here the published port (-p 127.0.0.1:9100:9100 with METRICS_PORT=9100) decides who sees it.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    REFEREE_DB=/data/referee.db \
    REFEREE_HEARTBEAT=/tmp/referee.alive \
    LOG_LEVEL=INFO \
    METRICS_HOST=0.0.0.0

# The user and the data folder: never change, so this layer is always cached.
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin referee \
 && mkdir -p /app /data \
 && chown referee /data

WORKDIR /app

# Dependencies in their own layer, from the lock only (every file's sha256 checked): a change
# to the code reuses this layer; only a new requirements.lock (`make lock`) reinstalls them.
COPY requirements.lock ./
RUN python3 -m venv /opt/venv \
 && pip install --require-hashes -r requirements.lock

# The code last; --no-deps: everything it needs is already installed from the lock.
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY translations ./translations
COPY data ./data
RUN pip install --no-deps --no-build-isolation . \
 && rm -rf build ./*.egg-info

USER referee
VOLUME ["/data"]

# Healthy while the bot is connected to Discord and serving: it touches the heartbeat file every
# few seconds only then (bot/discord_ui/app.py); `python -m bot health` fails once it is 120 s old.
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python", "-m", "bot", "health"]

# SIGTERM (docker stop) closes the gateway and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
