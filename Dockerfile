# Jantaku: the bot with its SQLite database on a volume.
#   docker build -t jantaku .
#   docker run --env-file .env -v jantaku-data:/data jantaku
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/jantaku.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir . \
    # build every ruleset's shanten tables once, into the image, so the first start is fast
    && JANTAKU_CACHE=/app/.cache python -m engine warm

ENV JANTAKU_CACHE=/app/.cache
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
