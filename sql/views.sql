-- tiebreak: adapter views. Point standings() at tables of another shape without copying data.
--
-- standings() reads a table or view with these columns (extra columns are ignored):
--   event_id, round, player_a, player_b (NULL = bye), a_wins, b_wins, draws [, result]
-- Two ways to supply one:
--   1. a view named `matches` (a TEMP VIEW if your database has no such table, or if you do not
--      want to change its schema), read by default;
--   2. a view of any name, passed as the matches_table argument:
--        standings(event_id, policy, floor, as_of_round, matches_table [, games_table])
--      The name is quoted as an identifier: 'My Results' reads "My Results".
-- Views like these hold no extension functions, so they may be TEMP or persistent; only views
-- that call standings() or omwp()/ogwp() need TEMP under PRAGMA trusted_schema=OFF
-- (docs/troubleshooting.md).
--
-- standings() asks the view for one event (`WHERE event_id = ? [AND round <= ?]`); SQLite pushes
-- that filter into the view, so index the underlying table on its event and round columns.
--
-- Run after sql/schema.sql and sql/example.sql: the sample tables below are filled from event 1
-- so each adapter can be checked against standings(1, 'mtg').
--   sqlite3 :memory: '.load ./build/tiebreak' '.read sql/schema.sql' \
--     '.read sql/example.sql' '.read sql/views.sql'


-- (a) A results table with other column names --------------------------------------------------
--
-- One row per table, as many pairing programs export it; a bye is player2 = 'BYE'.

CREATE TABLE results (
  tournament  TEXT,      -- 'fnm-2026-03-06'
  round_no    INTEGER,
  table_no    INTEGER,
  player1     TEXT,
  player2     TEXT,      -- 'BYE' for a bye
  p1_games    INTEGER,   -- games won by player1
  p2_games    INTEGER,   -- games won by player2
  drawn_games INTEGER
);
CREATE INDEX results_tournament_round ON results(tournament, round_no);

-- Sample data: event 1 in this export format.
INSERT INTO results
SELECT 'fnm-2026-03-06', round,
       row_number() OVER (PARTITION BY round ORDER BY rowid),
       player_a, coalesce(player_b, 'BYE'), a_wins, b_wins, draws
FROM main.matches WHERE event_id = 1;

-- The adapter: a TEMP VIEW named matches. Unqualified names resolve to the temp schema first, so
-- for this connection standings() reads the view instead of main.matches.
CREATE TEMP VIEW matches AS
SELECT tournament AS event_id,
       round_no   AS round,
       player1    AS player_a,
       nullif(player2, 'BYE') AS player_b,
       p1_games   AS a_wins,
       p2_games   AS b_wins,
       drawn_games AS draws
FROM results;

SELECT rank, player, match_points, round(omwp, 4) AS omwp
FROM standings('fnm-2026-03-06', 'mtg')
LIMIT 3;
-- Hugo 13 0.6533 / Cleo 13 0.64 / Sami 12 0.6433: the same as event 1.

-- Check (returns 0): the view gives exactly the standings of event 1.
CREATE TEMP TABLE via_results AS SELECT * FROM standings('fnm-2026-03-06', 'mtg');
DROP VIEW temp.matches;  -- only so that the rest of this file reads main.matches again
SELECT count(*) AS differing_rows FROM (
  SELECT * FROM standings(1, 'mtg') EXCEPT SELECT * FROM via_results
);


-- (b) One row per player per match ------------------------------------------------------------
--
-- Some exports list each player's side of a match on its own row; the two rows of a match share
-- event, round and table number. A bye has no table number.

CREATE TABLE player_rounds (
  event    TEXT,
  round    INTEGER,
  table_no INTEGER,      -- NULL: bye
  player   TEXT,
  won      INTEGER,      -- games won by this player
  lost     INTEGER,
  drawn    INTEGER
);
CREATE INDEX player_rounds_event_round ON player_rounds(event, round, table_no);

-- Sample data: event 1, two rows per match and one per bye.
INSERT INTO player_rounds
SELECT 'fnm-2026-03-06', round,
       CASE WHEN player_b IS NOT NULL
            THEN row_number() OVER (PARTITION BY round ORDER BY rowid) END,
       player_a, a_wins, b_wins, draws
FROM main.matches WHERE event_id = 1;
INSERT INTO player_rounds
SELECT p.event, p.round, p.table_no, m.player_b, m.b_wins, m.a_wins, m.draws
FROM player_rounds AS p
JOIN main.matches AS m ON m.event_id = 1 AND m.round = p.round AND m.player_a = p.player
WHERE p.table_no IS NOT NULL;

-- The adapter: pair the two rows of each table; the player whose id sorts first becomes
-- player_a. Byes become rows with player_b NULL.
CREATE TEMP VIEW matches_from_player_rounds AS
SELECT a.event    AS event_id,
       a.round    AS round,
       a.player   AS player_a,
       b.player   AS player_b,
       a.won      AS a_wins,
       b.won      AS b_wins,
       a.drawn    AS draws
FROM player_rounds AS a
JOIN player_rounds AS b
  ON b.event = a.event AND b.round = a.round AND b.table_no = a.table_no
 AND b.player > a.player
UNION ALL
SELECT event, round, player, NULL, won, lost, drawn
FROM player_rounds
WHERE table_no IS NULL;

-- Read it through the matches_table argument (positional or named):
SELECT rank, player, match_points
FROM standings('fnm-2026-03-06', 'mtg', NULL, NULL, 'matches_from_player_rounds')
LIMIT 3;

SELECT rank, player, match_points
FROM standings
WHERE event_id = 'fnm-2026-03-06' AND policy = 'mtg'
  AND matches_table = 'matches_from_player_rounds'
LIMIT 3;

-- Check (returns 0).
SELECT count(*) AS differing_rows FROM (
  SELECT * FROM standings(1, 'mtg')
  EXCEPT
  SELECT * FROM standings('fnm-2026-03-06', 'mtg', NULL, NULL, 'matches_from_player_rounds')
);

-- Data check (returns no rows): both sides of a table must tell the same story.
SELECT a.event, a.round, a.table_no, a.player, b.player
FROM player_rounds AS a
JOIN player_rounds AS b
  ON b.event = a.event AND b.round = a.round AND b.table_no = a.table_no
 AND b.player > a.player
WHERE a.won IS NOT b.lost OR a.lost IS NOT b.won OR a.drawn IS NOT b.drawn;


-- (c) A record column such as '2-1-0' ---------------------------------------------------------
--
-- The game score is one TEXT column, from player_a's side: won-lost-drawn. '2-1' (no drawn
-- part) is read as 2-1-0. A bye is player_b NULL with record '2-0-0' (or NULL, read as 0-0-0).

CREATE TABLE reported (
  event_id TEXT,
  round    INTEGER,
  player_a TEXT,
  player_b TEXT,
  record   TEXT          -- '2-1-0', '0-0-3', '2-0'
);
CREATE INDEX reported_event_round ON reported(event_id, round);

-- Sample data: event 1 with text records.
INSERT INTO reported
SELECT 'fnm-2026-03-06', round, player_a, player_b,
       a_wins || '-' || b_wins || '-' || draws
FROM main.matches WHERE event_id = 1;

-- The adapter: CAST('2-1-0' AS INTEGER) is 2 (SQLite converts the leading integer).
CREATE TEMP VIEW matches_from_records AS
SELECT event_id, round, player_a, player_b,
       coalesce(CAST(record AS INTEGER), 0) AS a_wins,
       coalesce(CAST(rest AS INTEGER), 0) AS b_wins,
       CASE WHEN instr(rest, '-') > 0
            THEN CAST(substr(rest, instr(rest, '-') + 1) AS INTEGER)
            ELSE 0 END AS draws
FROM (SELECT *, substr(record, instr(record, '-') + 1) AS rest FROM reported);

SELECT rank, player, match_points, wins, losses, draws, round(gwp, 4) AS gwp
FROM standings('fnm-2026-03-06', 'mtg', NULL, NULL, 'matches_from_records')
WHERE player IN ('Ines', 'Lena');
-- Ines and Lena: rank 5, 10 points, 3-1-1, GW% 0.641 (25/39), tied on everything.

-- Check (returns 0).
SELECT count(*) AS differing_rows FROM (
  SELECT * FROM standings(1, 'mtg')
  EXCEPT
  SELECT * FROM standings('fnm-2026-03-06', 'mtg', NULL, NULL, 'matches_from_records')
);
