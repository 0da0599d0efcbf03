-- Jantaku schema, version 4: what the channel has been shown, and how a table reaches its players.
-- results_posted: hand results already posted in the channel (a restart posts the rest, never one
-- twice); final_posted: the final standings are out. pings: every decision that waits for a person
-- reaches them as a new message (a notification) instead of an edit (async tables: on by default).
-- call_seconds: how long a call offer waits for a human in an async table before it passes.
ALTER TABLE tables ADD COLUMN results_posted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN final_posted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN pings INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN call_seconds INTEGER NOT NULL DEFAULT 3600;
