-- Jantaku schema, version 1: tables (games in progress), seats, the action log, timers.
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    thread_id INTEGER,
    opener_id INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    seed TEXT NOT NULL,
    mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'async')),
    turn_seconds INTEGER NOT NULL DEFAULT 30,
    bank_seconds INTEGER NOT NULL DEFAULT 60,
    async_hours INTEGER NOT NULL DEFAULT 24,
    on_expiry TEXT NOT NULL DEFAULT 'auto' CHECK (on_expiry IN ('auto', 'wait')),
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'playing', 'finished', 'abandoned')),
    message_id INTEGER,
    created_at REAL NOT NULL,
    finished_at REAL
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE INDEX IF NOT EXISTS tables_channel ON tables(channel_id, status);

CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER,
    ai TEXT,
    name TEXT NOT NULL,
    dm_closed INTEGER NOT NULL DEFAULT 0,
    auto_win INTEGER NOT NULL DEFAULT 0,
    auto_pass INTEGER NOT NULL DEFAULT 0,
    auto_tsumogiri INTEGER NOT NULL DEFAULT 0,
    bank_left REAL,
    hand_message_id INTEGER,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_user ON seats(user_id);

CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    serial INTEGER NOT NULL,
    action TEXT NOT NULL,
    user_id INTEGER,
    created_at REAL NOT NULL,
    PRIMARY KEY (table_id, serial)
);

CREATE TABLE IF NOT EXISTS timers (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    serial INTEGER NOT NULL,
    due REAL NOT NULL,
    prompt_at REAL NOT NULL,
    reminded INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS timers_due ON timers(due);

-- finished games, for the standings (bot games, typed-in and imported results)
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER,
    table_id INTEGER REFERENCES tables(id),
    source TEXT NOT NULL DEFAULT 'bot',
    ruleset TEXT NOT NULL,
    finished_at REAL NOT NULL,
    data TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS game_players (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    points INTEGER NOT NULL,
    place INTEGER NOT NULL,
    result REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS game_players_user ON game_players(user_id);
