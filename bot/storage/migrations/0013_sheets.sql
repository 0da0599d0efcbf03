-- Jantaku schema, version 13: score sheets of games played at a real table (/sheet, issue 30).
-- A sheet is its rules (ruleset and options, as a table stores them), its players in seat order from
-- the first dealer (a JSON list of {player, user_id, name, kind}: the keys of game_players), the
-- channel and the one message that shows it, the season it will be recorded in, and its entries:
-- one row per hand entered (ron, tsumo, draw, chombo as JSON), stored before the sheet shows it, so
-- the sheet is rebuilt from them after a restart. /sheet undo deletes the newest entry.
CREATE TABLE IF NOT EXISTS sheets (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    house TEXT,
    season_id INTEGER,
    league_table INTEGER,
    players TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished')),
    game_id INTEGER,
    created_by INTEGER,
    created_at REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS sheets_open ON sheets(channel_id) WHERE status = 'open';

CREATE TABLE IF NOT EXISTS sheet_entries (
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    serial INTEGER NOT NULL,
    entry TEXT NOT NULL,
    user_id INTEGER,
    created_at REAL NOT NULL,
    PRIMARY KEY (sheet_id, serial)
);
