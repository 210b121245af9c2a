-- tiebreak: append the staged rows (sql/import/staging.sql) to `matches` as event $event,
-- then empty the staging tables for the next file. A bye is stored as 2-0-0.
--
--   .parameter set $event 7
--   .read sql/import/insert.sql
--
-- Nothing is inserted when $event is not set. Rows of a round already in `matches` for that
-- event are inserted again: standings() then reports the players as paired twice.

INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)
SELECT $event, round, player_a, player_b,
       iif(player_b IS NULL, 2, a_wins), iif(player_b IS NULL, 0, b_wins),
       iif(player_b IS NULL, 0, draws)
FROM temp.import_all
WHERE $event IS NOT NULL
ORDER BY round, table_no;

DELETE FROM temp.import_matches WHERE $event IS NOT NULL;
DELETE FROM temp.import_results WHERE $event IS NOT NULL;
DELETE FROM temp.import_player_rows WHERE $event IS NOT NULL;
