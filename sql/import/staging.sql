-- tiebreak: load results from CSV files with the sqlite3 shell's .import.
--
-- Three common export shapes, each with its TEMP staging table (the columns are positional;
-- .import --skip 1 drops the header line, whatever its names):
--
--   import_matches      one row per match, game counts in columns
--                       Round,Table,Player 1,Player 2,Player 1 wins,Player 2 wins,Draws
--   import_results      one row per match, the score as text from player 1's side
--                       Round,Table,Player 1,Player 2,Result          (Result: 2-1-0, 2-1)
--   import_player_rows  one row per player per match, the player's own record
--                       Round,Table,Player,Opponent,Record             (Record: 2-1-0, 0-2)
--
-- A bye is a row with no opponent (an empty field or BYE) and counts as 2-0-0 whatever its
-- score says. Empty score fields read as 0.
--
--   sqlite3 events.db
--   .load ./build/tiebreak
--   .read sql/schema.sql                           -- once, for a new database
--   .read sql/import/staging.sql
--   .import --csv --skip 1 --schema temp round1.csv import_matches
--   .import --csv --skip 1 --schema temp round2.csv import_matches
--   SELECT * FROM import_problems;                 -- must print nothing
--   .parameter set $event 7
--   .read sql/import/insert.sql                    -- appends to matches as event 7
--
-- The staging tables and views are TEMP: they last until the shell exits and leave the
-- database file unchanged. docs/import.md has the details and a Python version.

CREATE TEMP TABLE IF NOT EXISTS import_matches (
  round INTEGER, table_no INTEGER, player1 TEXT, player2 TEXT,
  p1_wins INTEGER, p2_wins INTEGER, draws INTEGER
);
CREATE TEMP TABLE IF NOT EXISTS import_results (
  round INTEGER, table_no INTEGER, player1 TEXT, player2 TEXT, result TEXT
);
CREATE TEMP TABLE IF NOT EXISTS import_player_rows (
  round INTEGER, table_no INTEGER, player TEXT, opponent TEXT, record TEXT
);

-- 'W-L-D' or 'W-L' text: its first, second and third number (0 when missing). CAST reads the
-- leading integer of a text ('2-1-0' -> 2).
DROP VIEW IF EXISTS temp.import_results_parsed;
CREATE TEMP VIEW import_results_parsed AS
SELECT round, table_no, trim(player1) AS player_a,
       CASE WHEN upper(trim(player2)) IN ('', 'BYE') THEN NULL ELSE trim(player2) END AS player_b,
       coalesce(CAST(nullif(trim(result), '') AS INTEGER), 0) AS a_wins,
       coalesce(CAST(nullif(rest, '') AS INTEGER), 0) AS b_wins,
       CASE WHEN instr(rest, '-') > 0 THEN CAST(substr(rest, instr(rest, '-') + 1) AS INTEGER)
            ELSE 0 END AS draws,
       result AS score
FROM (SELECT *, CASE WHEN instr(result, '-') > 0
                     THEN substr(trim(result), instr(trim(result), '-') + 1) END AS rest
      FROM import_results);

DROP VIEW IF EXISTS temp.import_player_rows_parsed;
CREATE TEMP VIEW import_player_rows_parsed AS
SELECT round, table_no, trim(player) AS player,
       CASE WHEN upper(trim(opponent)) IN ('', 'BYE') THEN NULL ELSE trim(opponent) END
         AS opponent,
       coalesce(CAST(nullif(trim(record), '') AS INTEGER), 0) AS won,
       coalesce(CAST(nullif(rest, '') AS INTEGER), 0) AS lost,
       CASE WHEN instr(rest, '-') > 0 THEN CAST(substr(rest, instr(rest, '-') + 1) AS INTEGER)
            ELSE 0 END AS drawn,
       record
FROM (SELECT *, CASE WHEN instr(record, '-') > 0
                     THEN substr(trim(record), instr(trim(record), '-') + 1) END AS rest
      FROM import_player_rows);

-- Everything staged, in the columns of `matches` (without event_id). Of the two player rows
-- of a match, the one of the player whose name sorts first becomes the match.
DROP VIEW IF EXISTS temp.import_all;
CREATE TEMP VIEW import_all AS
SELECT round, table_no, trim(player1) AS player_a,
       CASE WHEN upper(trim(player2)) IN ('', 'BYE') THEN NULL ELSE trim(player2) END AS player_b,
       coalesce(nullif(p1_wins, ''), 0) AS a_wins, coalesce(nullif(p2_wins, ''), 0) AS b_wins,
       coalesce(nullif(draws, ''), 0) AS draws
FROM import_matches
UNION ALL
SELECT round, table_no, player_a, player_b, a_wins, b_wins, draws FROM import_results_parsed
UNION ALL
SELECT round, table_no, player, opponent, won, lost, drawn FROM import_player_rows_parsed
WHERE opponent IS NULL OR player < opponent;

-- Rows to fix before inserting: scores that are not numbers, and player rows whose two sides
-- disagree or whose other side is missing.
DROP VIEW IF EXISTS temp.import_problems;
CREATE TEMP VIEW import_problems AS
SELECT 'import_matches' AS staging, round, player1 AS player, 'score is not numbers: '
       || quote(p1_wins) || ', ' || quote(p2_wins) || ', ' || quote(draws) AS problem
FROM import_matches
WHERE typeof(nullif(p1_wins, '')) NOT IN ('integer', 'null')
   OR typeof(nullif(p2_wins, '')) NOT IN ('integer', 'null')
   OR typeof(nullif(draws, '')) NOT IN ('integer', 'null')
UNION ALL
SELECT 'import_results', round, player_a, 'result is not W-L-D: ' || quote(score)
FROM import_results_parsed
WHERE coalesce(trim(score), '') NOT IN ('') AND trim(score) NOT GLOB '[0-9]*-[0-9]*'
UNION ALL
SELECT 'import_player_rows', round, player, 'record is not W-L-D: ' || quote(record)
FROM import_player_rows_parsed
WHERE coalesce(trim(record), '') NOT IN ('') AND trim(record) NOT GLOB '[0-9]*-[0-9]*'
UNION ALL
SELECT 'import_player_rows', a.round, a.player, 'no row of the opponent ' || a.opponent
FROM import_player_rows_parsed AS a
LEFT JOIN import_player_rows_parsed AS b
  ON b.round = a.round AND b.player = a.opponent AND b.opponent = a.player
WHERE a.opponent IS NOT NULL AND b.player IS NULL
UNION ALL
SELECT 'import_player_rows', a.round, a.player,
       'records disagree: ' || a.record || ' against ' || b.player || ' ' || b.record
FROM import_player_rows_parsed AS a
JOIN import_player_rows_parsed AS b
  ON b.round = a.round AND b.player = a.opponent AND b.opponent = a.player
WHERE a.player < a.opponent
  AND (a.won <> b.lost OR a.lost <> b.won OR a.drawn <> b.drawn);
