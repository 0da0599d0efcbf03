-- Jantaku schema, version 5: the fairness commitment of a table (engine.verify.commitment: SHA-256
-- of its ruleset, options and seed), written when the game starts and posted in the channel; the
-- seed is revealed when the game ends and /table verify checks the two. NULL for tables started
-- before version 5.
ALTER TABLE tables ADD COLUMN commitment TEXT;
