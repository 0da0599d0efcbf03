-- Jantaku schema, version 2: standings. Seasons per club (guild), the season and rating of every
-- recorded game, guests (typed-in players without a Discord account), a summary row per player and
-- season, the audit log of every change, and a cache of per-game play statistics.
CREATE TABLE IF NOT EXISTS seasons (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    players INTEGER NOT NULL DEFAULT 4 CHECK (players IN (3, 4)),
    start_points INTEGER NOT NULL,
    return_points INTEGER NOT NULL,
    uma TEXT NOT NULL,
    rating TEXT NOT NULL DEFAULT 'openskill' CHECK (rating IN ('openskill', 'points', 'tenhou')),
    min_games INTEGER NOT NULL DEFAULT 0,
    ties TEXT NOT NULL DEFAULT 'seat' CHECK (ties IN ('seat', 'split')),
    leftover TEXT NOT NULL DEFAULT 'first' CHECK (leftover IN ('first', 'none')),
    active INTEGER NOT NULL DEFAULT 1,
    started_at REAL NOT NULL,
    ended_at REAL
);
CREATE UNIQUE INDEX IF NOT EXISTS seasons_name ON seasons(guild_id, name);
CREATE INDEX IF NOT EXISTS seasons_active ON seasons(guild_id, active);

ALTER TABLE games ADD COLUMN season_id INTEGER REFERENCES seasons(id);
ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'void'));
ALTER TABLE games ADD COLUMN sticks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN entered_by INTEGER;
CREATE INDEX IF NOT EXISTS games_season ON games(season_id, status, finished_at, id);
CREATE INDEX IF NOT EXISTS games_table ON games(table_id);

-- player: who the seat was, as one key: 'u:<discord id>', 'g:<guest name, case-folded>' or 'ai:<seat name>'
ALTER TABLE game_players ADD COLUMN player TEXT NOT NULL DEFAULT '';
ALTER TABLE game_players ADD COLUMN kind TEXT NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'guest', 'ai'));
ALTER TABLE game_players ADD COLUMN rating REAL;
ALTER TABLE game_players ADD COLUMN rating_delta REAL;
ALTER TABLE game_players ADD COLUMN mu REAL;
ALTER TABLE game_players ADD COLUMN sigma REAL;
-- version 1 only recorded bot games, where a seat without a user was an AI seat
UPDATE game_players SET kind = 'ai', player = 'ai:' || name WHERE user_id IS NULL;
UPDATE game_players SET kind = 'user', player = 'u:' || user_id WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS game_players_player ON game_players(player, game_id);

CREATE TABLE IF NOT EXISTS standings (
    season_id INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    points_total INTEGER NOT NULL DEFAULT 0,
    result_total REAL NOT NULL DEFAULT 0,
    place_total INTEGER NOT NULL DEFAULT 0,
    p1 INTEGER NOT NULL DEFAULT 0,
    p2 INTEGER NOT NULL DEFAULT 0,
    p3 INTEGER NOT NULL DEFAULT 0,
    p4 INTEGER NOT NULL DEFAULT 0,
    rating REAL NOT NULL,
    mu REAL,
    sigma REAL,
    PRIMARY KEY (season_id, player)
);
CREATE INDEX IF NOT EXISTS standings_rating ON standings(season_id, rating);
CREATE INDEX IF NOT EXISTS standings_result ON standings(season_id, result_total);

CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER,
    season_id INTEGER,
    game_id INTEGER,
    actor_id INTEGER,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    before TEXT,
    after TEXT
);
CREATE INDEX IF NOT EXISTS audit_game ON audit_log(game_id);
CREATE INDEX IF NOT EXISTS audit_guild ON audit_log(guild_id, id);

CREATE TABLE IF NOT EXISTS game_stats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    deal_ins INTEGER NOT NULL,
    riichi INTEGER NOT NULL,
    calls INTEGER NOT NULL,
    win_points INTEGER NOT NULL,
    deal_in_points INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
