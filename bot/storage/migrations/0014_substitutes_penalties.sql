-- Jantaku schema, version 14 (issue 30): substitutes and penalties that hold up.
-- substitutions.earlier: the human stand-ins who played a seat before its current player, a JSON list
-- of [member key, name] (the round's post names every one of them, not only the last).
ALTER TABLE substitutions ADD COLUMN earlier TEXT NOT NULL DEFAULT '[]';

-- league_tables.subs: an in-person table's stand-ins, a JSON object {absent member key: [stand-in key,
-- stand-in name]} (the typed-in result names the stand-in; the game is credited per the league's rule).
ALTER TABLE league_tables ADD COLUMN subs TEXT NOT NULL DEFAULT '{}';

-- Penalties and chombo in any season (not only a league's): points taken off a player's total,
-- read beside the standings rows, never written into them.
CREATE TABLE IF NOT EXISTS season_penalties (
    id INTEGER PRIMARY KEY,
    season_id INTEGER NOT NULL REFERENCES seasons(id),
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    points REAL NOT NULL,
    kind TEXT NOT NULL DEFAULT 'penalty' CHECK (kind IN ('penalty', 'chombo')),
    reason TEXT NOT NULL,
    game_id INTEGER REFERENCES games(id),
    by_id INTEGER,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS season_penalties_player ON season_penalties(season_id, player);
