-- The players (registrations) table: players with no rows, names, divisions,
-- status and dropped_after (docs/registrations.md).  Values worked out by
-- hand; test/test_registrations.py has the fractions behind them.
--
-- Event 1, 3 rounds: R1 A-B 2-0, C-D 2-1, E bye; R2 A-C 2-1, D-E 2-0, B bye;
-- R3 A-D 2-1, B-C 1-1-1.  MP: A 9, B 4, C 4, D 3, E 3.

CREATE TABLE matches (
  event_id NOT NULL, round INTEGER NOT NULL, player_a NOT NULL, player_b,
  a_wins INTEGER NOT NULL DEFAULT 0, b_wins INTEGER NOT NULL DEFAULT 0,
  draws INTEGER NOT NULL DEFAULT 0, result TEXT
);
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 1, 'A', 'B', 2, 0, 0), (1, 1, 'C', 'D', 2, 1, 0), (1, 1, 'E', NULL, 0, 0, 0),
  (1, 2, 'A', 'C', 2, 1, 0), (1, 2, 'D', 'E', 2, 0, 0), (1, 2, 'B', NULL, 0, 0, 0),
  (1, 3, 'A', 'D', 2, 1, 0), (1, 3, 'B', 'C', 1, 1, 1);
CREATE TABLE players (event_id, player, name, division, status, dropped_after);

-- case: no_players_rows_changes_nothing
SELECT rank, player, name, division, status FROM standings(1, 'mtg');
-- expect:
-- 1|A|||
-- 2|B|||
-- 3|C|||
-- 4|D|||
-- 5|E|||

-- case: no_show_disqualified_and_dropped
-- D takes no place (E moves up to 4th); F, a no-show, is last with 0 points
INSERT INTO players VALUES (1, 'D', 'Dan', NULL, 'disqualified', NULL),
  (1, 'E', 'Eve', NULL, NULL, 2), (1, 'F', 'Finn', NULL, NULL, NULL);
SELECT rank, player, name, status, match_points, rounds, dropped FROM standings(1, 'mtg');
-- expect:
-- 1|A|||9|3|0
-- 2|B|||4|3|0
-- 3|C|||4|3|0
-- 4|E|Eve|dropped|3|2|1
-- 5|F|Finn||0|0|1
-- |D|Dan|disqualified|3|3|0

-- case: no_show_has_no_percentages
INSERT INTO players VALUES (1, 'F', NULL, NULL, NULL, NULL);
SELECT mwp, gwp, omwp, ogwp FROM standings(1, 'mtg,mwp') WHERE player = 'F';
-- expect:
-- |||

-- case: divisions_rank_separately
-- values over the whole event; ranks within each division, by name
INSERT INTO players VALUES (1, 'A', NULL, 'X', NULL, NULL), (1, 'C', NULL, 'X', NULL, NULL),
  (1, 'B', NULL, 'Y', NULL, NULL), (1, 'D', NULL, 'Y', NULL, NULL), (1, 'E', NULL, 'Y', NULL, NULL);
SELECT division, rank, player, decided_by FROM standings(1, 'mtg');
-- expect:
-- X|1|A|
-- X|2|C|match_points
-- Y|1|B|
-- Y|2|D|match_points
-- Y|3|E|omwp

-- case: unknown_status
INSERT INTO players VALUES (1, 'A', NULL, NULL, 'banned', NULL);
SELECT * FROM standings(1, 'mtg');
-- error: standings(): event 1: players table: player 'A' has status 'banned' (expected NULL, 'active', 'dropped' or 'disqualified')

-- case: registered_twice
INSERT INTO players VALUES (1, 'A', 'Ann', NULL, NULL, NULL), (1, 'A', 'Anna', NULL, NULL, NULL);
SELECT * FROM standings(1, 'mtg');
-- error: standings(): event 1: players table: player 'A' is registered twice

-- case: match_after_dropped_after
INSERT INTO players VALUES (1, 'A', NULL, NULL, 'dropped', 2);
SELECT * FROM standings(1, 'mtg');
-- error: standings(): event 1: player 'A' dropped after round 2 (players table) but has a match in round 3

-- case: every_event_names_the_event
INSERT INTO players VALUES (1, 'A', NULL, NULL, 'dropped', 2);
SELECT * FROM standings WHERE policy = 'mtg';
-- error: standings(): event 1: player 'A' dropped after round 2 (players table) but has a match in round 3

-- case: named_players_table_is_quoted
SELECT * FROM standings(1, 'mtg', NULL, NULL, NULL, NULL, 'p"; DROP TABLE matches; --');
-- error: standings(): no such table: p"; DROP TABLE matches; --
-- then:
SELECT count(*) FROM matches;
-- expect:
-- 8
