-- Jantaku schema, version 11: languages. A club's default language for the messages every player
-- of a table shares ('ja' or 'en'; NULL: the server's own locale), and the Discord locale each
-- player last used, so that messages sent without an interaction (a timer's reminder) are in it.
ALTER TABLE club_settings ADD COLUMN language TEXT;

CREATE TABLE IF NOT EXISTS user_locales (
    user_id INTEGER PRIMARY KEY,
    locale TEXT NOT NULL
);
