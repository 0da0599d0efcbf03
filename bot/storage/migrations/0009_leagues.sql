-- Jantaku schema, version 9: club leagues (issue 20). A league is a season with a schedule: its
-- settings (the rules its tables play, async, live or in person, hours per turn, how it seats, what it does
-- with leftover players, misses before a substitute, what the round deadline does), its members
-- (a Discord member 'u:<id>' or a guest 'g:<name, case-folded>', the same keys as game_players),
-- its rounds and the tables each round opened, its penalties (points taken off a member's total),
-- the substitutes who took a seat for the rest of a game, and the missed turns counted per seat.
CREATE TABLE IF NOT EXISTS leagues (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    season_id INTEGER NOT NULL REFERENCES seasons(id),
    rounds INTEGER NOT NULL CHECK (rounds >= 1),
    mode TEXT NOT NULL CHECK (mode IN ('async', 'live', 'in_person')),
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    house TEXT,
    hours INTEGER NOT NULL DEFAULT 24,
    seating TEXT NOT NULL DEFAULT 'shuffle' CHECK (seating IN ('shuffle', 'swiss', 'fixed')),
    leftover TEXT NOT NULL DEFAULT 'ai' CHECK (leftover IN ('ai', 'bye')),
    misses INTEGER NOT NULL DEFAULT 3,
    round_hours INTEGER NOT NULL DEFAULT 168,
    on_deadline TEXT NOT NULL DEFAULT 'finish_ai' CHECK (on_deadline IN ('finish_ai', 'void')),
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished')),
    created_by INTEGER,
    created_at REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS leagues_name ON leagues(guild_id, lower(name));

CREATE TABLE IF NOT EXISTS league_members (
    league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    team TEXT,
    joined_at REAL NOT NULL,
    left_at REAL,
    PRIMARY KEY (league_id, player)
);

CREATE TABLE IF NOT EXISTS league_rounds (
    league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    deadline REAL NOT NULL,
    channel_id INTEGER,
    opened_at REAL NOT NULL,
    closed_at REAL,
    PRIMARY KEY (league_id, number)
);
CREATE INDEX IF NOT EXISTS league_rounds_open ON league_rounds(status, deadline);

-- a table of a round: a bot table (kind 'table', its table_id), an in-person table (its result's game_id
-- once entered with /result add) or a bye; seats: JSON list of member keys, null for an AI seat
CREATE TABLE IF NOT EXISTS league_tables (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL DEFAULT 'table' CHECK (kind IN ('table', 'in_person', 'bye')),
    table_id INTEGER REFERENCES tables(id),
    game_id INTEGER REFERENCES games(id),
    seats TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS league_tables_round ON league_tables(league_id, round);
CREATE UNIQUE INDEX IF NOT EXISTS league_tables_table ON league_tables(table_id);

CREATE TABLE IF NOT EXISTS league_penalties (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    points REAL NOT NULL,
    reason TEXT NOT NULL,
    game_id INTEGER REFERENCES games(id),
    by_id INTEGER,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS league_penalties_player ON league_penalties(league_id, player);

-- new_player: the member key of the substitute, or 'ai:<kind>'
CREATE TABLE IF NOT EXISTS substitutions (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    old_player TEXT NOT NULL,
    old_name TEXT NOT NULL,
    new_player TEXT NOT NULL,
    misses INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE IF NOT EXISTS league_misses (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    misses INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
