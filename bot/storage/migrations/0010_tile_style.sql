-- Jantaku schema, version 10: the tile style of the pictures ("faces", the real tile artwork, or
-- "letters", for newcomers). A club's default (NULL: the bot's, faces), used for the pictures the
-- whole channel sees, and each player's own choice in a server (no row: the club's), used for the
-- pictures only they see (their hand, their seat's view, their look-ups).
ALTER TABLE club_settings ADD COLUMN tile_style TEXT;

CREATE TABLE IF NOT EXISTS tile_styles (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    style TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
