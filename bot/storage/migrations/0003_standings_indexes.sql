-- Jantaku schema, version 3: a covering index for a player's games (/stats). A player's history
-- reads (game_id, seat, points, place, result, rating) of every seat they sat; with those columns in
-- the index the seats come straight out of it instead of one table look-up per game. It starts with
-- (player, game_id), so it also serves every query the index it replaces served.
CREATE INDEX IF NOT EXISTS game_players_history ON game_players(player, game_id, seat, points, place, result, rating);
DROP INDEX IF EXISTS game_players_player;
