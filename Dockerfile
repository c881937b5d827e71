# The referee bot: a slim image, a non-root user, the SQLite file on a volume.
#   docker build -t board-referee .
#   docker run -d --name referee -e DISCORD_TOKEN=... -v referee-data:/data board-referee
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    REFEREE_DB=/data/referee.db \
    REFEREE_HEARTBEAT=/tmp/referee.alive \
    LOG_LEVEL=INFO

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN pip install . \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin referee \
 && mkdir -p /data \
 && chown referee /data

USER referee
VOLUME ["/data"]

# Healthy while the bot is connected: its sweeper touches the heartbeat file every few seconds.
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
  CMD python -c "import os,sys,time; p=os.environ['REFEREE_HEARTBEAT']; sys.exit(not os.path.exists(p) or time.time()-os.path.getmtime(p) > 120)"

# SIGTERM (docker stop) closes the gateway and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
