-- Jantaku schema, version 8: a seat's standing option to show its waits when tenpai, with how many
-- of each it cannot see (`/table auto what:waits`). Off for the seats stored before it (a game in
-- play does not change under a player's eyes); the service turns it on for seats taken after it.
ALTER TABLE seats ADD COLUMN show_waits INTEGER NOT NULL DEFAULT 0;
