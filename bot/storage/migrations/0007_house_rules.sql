-- Jantaku schema, version 7: house rules. A club's own rule profiles (a name, a base ruleset and the
-- options it changes, as Ruleset.options_dict() JSON), the club's default profile, and the profile
-- a table was opened with (for display: the table's options column holds the rules it plays) and a
-- season started with (its name and its options at the start: a bot game joins the season only if
-- it played exactly these rules).
CREATE TABLE IF NOT EXISTS house_rules (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    base TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    created_by INTEGER,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS house_rules_name ON house_rules(guild_id, lower(name));

CREATE TABLE IF NOT EXISTS club_settings (
    guild_id INTEGER PRIMARY KEY,
    default_house INTEGER REFERENCES house_rules(id) ON DELETE SET NULL
);

ALTER TABLE tables ADD COLUMN house TEXT;
ALTER TABLE seasons ADD COLUMN house TEXT;
ALTER TABLE seasons ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
