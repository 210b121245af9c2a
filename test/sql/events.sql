-- Hand-built events: byes, drops, intentional draws, explicit results, the
-- games table, exact ties, floors, as_of_round, custom tables and the scalar
-- functions. Expected values are worked out by hand with exact fractions; the
-- comments give the fractions behind the less obvious numbers.

CREATE TABLE matches (
  event_id  NOT NULL,
  round     INTEGER NOT NULL,
  player_a  NOT NULL,
  player_b,
  a_wins    INTEGER NOT NULL DEFAULT 0,
  b_wins    INTEGER NOT NULL DEFAULT 0,
  draws     INTEGER NOT NULL DEFAULT 0,
  result    TEXT
);
CREATE INDEX matches_event_round ON matches(event_id, round);

CREATE TABLE games (
  event_id  NOT NULL,
  round     INTEGER NOT NULL,
  player_a  NOT NULL,
  game      INTEGER NOT NULL,
  winner,
  PRIMARY KEY (event_id, round, player_a, game)
);

-- Event 1: integer ids, 5 players, 3 rounds, one bye a round (recorded once
-- as 0-0-0, twice as 2-0-0).
--   player  record         MP  games W-L-D  GP  MWP   GWP    OMW                     OGW
--   1       W 2-0, L 1-2, D 1-1-1   4  4-3-1  13  4/9   13/24  (1/3+1+7/9)/3 = 19/27   (1/3+3/4+17/24)/3 = 43/72
--   2       L 0-2, L 0-2-1, W 2-0   3  2-4-1   7  1/3   1/3    (4/9+7/9+1/3)/3 = 14/27 (13/24+17/24+3/7)/3 = 47/84
--   3       W 2-1, W 2-1, bye       9  6-2-0  18  1     3/4    (1/3+4/9)/2 = 7/18      (3/7+13/24)/2 = 163/336
--   4       L 1-2, bye, L 0-2       3  3-4-0   9  1/3   3/7    (1+1/3)/2 = 2/3         (3/4+1/3)/2 = 13/24
--   5       bye, W 2-0-1, D 1-1-1   7  5-1-2  17  7/9   17/24  (1/3+4/9)/2 = 7/18      (1/3+13/24)/2 = 7/16
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 1, 1, 2, 2, 0, 0), (1, 1, 3, 4, 2, 1, 0), (1, 1, 5, NULL, 0, 0, 0),
  (1, 2, 1, 3, 1, 2, 0), (1, 2, 5, 2, 2, 0, 1), (1, 2, 4, NULL, 2, 0, 0),
  (1, 3, 1, 5, 1, 1, 1), (1, 3, 2, 4, 2, 0, 0), (1, 3, 3, NULL, 2, 0, 0);

-- Event 101: event 1 with the game counts in the games table instead (the
-- round-3 match 2-4 keeps its counts in matches and has no game rows).
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)
  SELECT 101, round, player_a, player_b,
         CASE WHEN player_b IS NULL OR (round = 3 AND player_a = 2) THEN a_wins ELSE 0 END,
         CASE WHEN round = 3 AND player_a = 2 THEN b_wins ELSE 0 END, 0
  FROM matches WHERE event_id = 1;
INSERT INTO games (event_id, round, player_a, game, winner) VALUES
  (101, 1, 1, 1, 1), (101, 1, 1, 2, 1),
  (101, 1, 3, 1, 3), (101, 1, 3, 2, 4), (101, 1, 3, 3, 3),
  (101, 2, 1, 1, 1), (101, 2, 1, 2, 3), (101, 2, 1, 3, 3),
  (101, 2, 5, 1, 5), (101, 2, 5, 2, NULL), (101, 2, 5, 3, 5),
  (101, 3, 1, 1, 5), (101, 3, 1, 2, 1), (101, 3, 1, 3, NULL);

-- Event 102: event 1's counts in matches and the same games in the games
-- table: they agree, so nothing changes.
INSERT INTO matches SELECT 102, round, player_a, player_b, a_wins, b_wins, draws, result
  FROM matches WHERE event_id = 1;
INSERT INTO games SELECT 102, round, player_a, game, winner FROM games WHERE event_id = 101;

-- Event 103: event 102, but the round-1 match 3-4 says 2-1 in matches and 2-0
-- in games.
INSERT INTO matches SELECT 103, round, player_a, player_b, a_wins, b_wins, draws, result
  FROM matches WHERE event_id = 102;
INSERT INTO games SELECT 103, round, player_a, game, winner FROM games
  WHERE event_id = 102 AND NOT (round = 1 AND player_a = 3 AND game = 2);

-- Event 'drop': text ids; D wins round 1 and drops, then one bye a round.
--   A: W 2-0, W 2-1, bye     9 MP  MWP 1    GWP 6/7  OMW (1/3+1/3)/2 = 1/3   OGW (3/7+4/9)/2 = 55/126
--   B: L 0-2, bye, L 1-2     3 MP  MWP 1/3  GWP 3/7  OMW (1+1/3)/2 = 2/3     OGW (6/7+4/9)/2 = 41/63
--   C: L 1-2, L 1-2, W 2-1   3 MP  MWP 1/3  GWP 4/9  OMW (1+1+1/3)/3 = 7/9   OGW (2/3+6/7+3/7)/3 = 41/63
--   D: W 2-1 (1 round)       3 MP  MWP 3/3 = 1, not 3/9          OMW 1/3   OGW 4/9
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('drop', 1, 'A', 'B', 2, 0, 0), ('drop', 1, 'C', 'D', 1, 2, 0),
  ('drop', 2, 'A', 'C', 2, 1, 0), ('drop', 2, 'B', NULL, 2, 0, 0),
  ('drop', 3, 'B', 'C', 1, 2, 0), ('drop', 3, 'A', NULL, 0, 0, 0);

-- Event 'byeonly': P only has a bye, so P has no opponents.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('byeonly', 1, 'P', NULL, 2, 0, 0), ('byeonly', 1, 'Q', 'R', 2, 0, 0);

-- Event 'id': intentional draws reported 0-0-3 (A-B) and 0-0-0 (C-D).
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('id', 1, 'A', 'B', 0, 0, 3), ('id', 1, 'C', 'D', 0, 0, 0);

-- Event 'res': explicit results.
--   A: W ('a' at 1-1), L ('b' at 0-0)       3 MP  MWP 1/2  OMW (1/2+2/3)/2 = 7/12
--   B: L ('a' at 1-1), W 2-0                3 MP  MWP 1/2  OMW (1/2+0.33)/2 = 0.415
--   C: D ('draw' at 1-1), W ('b' at 0-0)    4 MP  MWP 2/3  OMW (0.33+1/2)/2 = 0.415
--   D: D ('draw' at 1-1), L ('b' at 0-2)    1 MP  MWP 0.33 OMW (2/3+1/2)/2 = 7/12
--   E: L (double loss), L 0-2               0 MP  MWP 0.33 OMW (1/2+1/2)/2 = 1/2
--   F: L (double loss), W ('b' at 0-2)      3 MP  MWP 1/2  OMW (0.33+0.33)/2 = 0.33
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('res', 1, 'A', 'B', 1, 1, 0, 'a'), ('res', 1, 'C', 'D', 1, 1, 0, 'draw'),
  ('res', 1, 'E', 'F', 0, 0, 0, 'double_loss'),
  ('res', 2, 'A', 'C', 0, 0, 0, 'b'), ('res', 2, 'B', 'E', 2, 0, 0, NULL),
  ('res', 2, 'D', 'F', 0, 2, 0, 'b');

-- Event 'tie': X and Y both go 2-1-0 in rounds 1-3 and tie exactly on every
-- tiebreaker, but their OMW terms sum differently in floating point:
-- X: (1/3 + 1/3 + 1/2) / 3 and Y: (5/12 + 5/12 + 1/3) / 3, both 7/18.
-- In doubles 1/3+1/3+1/2 = 1.1666666666666665 and 5/12+5/12+1/3 = 1.1666666666666667.
-- Results are explicit and no games are played, so every GWP is the 0.33 floor.
--   a1, a2: 1-2-0 (MWP 1/3), a3: 1-1-0 (1/2), b1, b2: 1-1-2 (5/12), b3: 1-2-0 (1/3)
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('tie', 1, 'X', 'a1', 'a'), ('tie', 1, 'Y', 'b1', 'a'), ('tie', 1, 'a2', 'z1', 'a'),
  ('tie', 1, 'a3', 'z2', 'b'), ('tie', 1, 'b2', 'z3', NULL), ('tie', 1, 'b3', 'z4', 'b'),
  ('tie', 2, 'X', 'a2', 'a'), ('tie', 2, 'Y', 'b2', 'a'), ('tie', 2, 'a1', 'z1', 'a'),
  ('tie', 2, 'b1', 'z2', NULL), ('tie', 2, 'b3', 'z3', 'b'),
  ('tie', 3, 'X', 'a3', 'b'), ('tie', 3, 'Y', 'b3', 'b'), ('tie', 3, 'a1', 'z4', 'b'),
  ('tie', 3, 'a2', 'z2', 'b'), ('tie', 3, 'b1', 'z3', 'a'), ('tie', 3, 'b2', 'z1', 'a'),
  ('tie', 4, 'b1', 'z1', NULL), ('tie', 4, 'b2', 'z2', NULL);

-- Event 'tie2': 'tie' where X won round 1 by 2-0 in games: X's GWP is 1, and
-- the exact OMW tie must pass the decision on to GWP.
INSERT INTO matches SELECT 'tie2', round, player_a, player_b, a_wins, b_wins, draws, result
  FROM matches WHERE event_id = 'tie';
UPDATE matches SET a_wins = 2 WHERE event_id = 'tie2' AND round = 1 AND player_a = 'X';

-- Event 'og': every tiebreaker decides somewhere.
--   x1, y1: 3 MP, OMW (1 + 0.33)/2 = 0.665, GWP 9/15 vs 9/18
--   X, Y:   3 MP, OMW 1/2, GWP 6/9 both, OGW 3/5 vs 1/2
--   w2, w1: 0 MP, OMW 1/2 both, GWP 3/9 vs 0 -> 0.33
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('og', 1, 'X', 'x1', 2, 1, 0), ('og', 1, 'Y', 'y1', 2, 1, 0),
  ('og', 2, 'x1', 'w1', 2, 0, 0), ('og', 2, 'y1', 'w2', 2, 1, 0);

-- Event 7: integer players 2 and 10 tie completely (sorted as numbers);
-- event 'ord': text players 'b' and 'a' tie completely.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (7, 1, 10, 2, 0, 0, 3), ('ord', 1, 'b', 'a', 0, 0, 3);

-- Event 'fl': A beats B; B's MWP (0) and GWP (0) are the floor, A's OMW/OGW too.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('fl', 1, 'A', 'B', 2, 0, 0);

-- Event 'fl2': X's only opponent p goes 0-2 (floored), Y's only opponent q goes
-- 1-2 with GWP 6/18 = 1/3. With floor 0.33 Y is ahead of X; with floor 1/3
-- they tie exactly.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('fl2', 1, 'X', 'p', 2, 0, 0), ('fl2', 1, 'Y', 'q', 2, 0, 0), ('fl2', 1, 'r', 's', 2, 0, 0),
  ('fl2', 2, 'q', 'r', 2, 0, 0), ('fl2', 2, 's', 'p', 2, 0, 0),
  ('fl2', 3, 's', 'q', 2, 0, 0);

-- Custom tables: the same events stored under other names, one table without
-- the optional result column, and a view that renames another layout.
CREATE TABLE results_2024 (event_id, round, player_a, player_b, a_wins, b_wins, draws);
INSERT INTO results_2024 SELECT event_id, round, player_a, player_b, a_wins, b_wins, draws
  FROM matches WHERE event_id IN (1, 101);
CREATE TABLE game_log (event_id, round, player_a, game, winner);
INSERT INTO game_log SELECT * FROM games WHERE event_id = 101;
CREATE TABLE pairings (tournament TEXT, rnd INTEGER, p1, p2, w1 INTEGER, w2 INTEGER, d INTEGER);
INSERT INTO pairings SELECT 'viewed', round, player_a, player_b, a_wins, b_wins, draws
  FROM matches WHERE event_id = 'drop';
CREATE VIEW v_matches AS
  SELECT tournament AS event_id, rnd AS round, p1 AS player_a, p2 AS player_b,
         w1 AS a_wins, w2 AS b_wins, d AS draws
  FROM pairings;

-- case: byes_order_and_decided_by
SELECT rank, player, match_points, decided_by FROM standings(1, 'mtg');
-- expect:
-- 1|3|9|
-- 2|5|7|match_points
-- 3|1|4|match_points
-- 4|4|3|match_points
-- 5|2|3|omwp

-- case: byes_records
SELECT player, wins, losses, draws, byes, rounds, dropped FROM standings(1, 'mtg');
-- expect:
-- 3|3|0|0|1|3|0
-- 5|2|0|1|1|3|0
-- 1|1|1|1|0|3|0
-- 4|1|2|0|1|3|0
-- 2|1|2|0|0|3|0

-- case: byes_count_as_2_0_in_games
-- a bye adds 2 won games whether its row says 0-0-0 (player 5) or 2-0-0
SELECT player, game_wins, game_losses, game_draws, game_points, games FROM standings(1, 'mtg');
-- expect:
-- 3|6|2|0|18|8
-- 5|5|1|2|17|8
-- 1|4|3|1|13|8
-- 4|3|4|0|9|7
-- 2|2|4|1|7|7

-- case: byes_percentages
SELECT player, round(mwp, 6), round(gwp, 6), round(omwp, 6), round(ogwp, 6) FROM standings(1, 'mtg');
-- expect:
-- 3|1.0|0.75|0.388889|0.485119
-- 5|0.777778|0.708333|0.388889|0.4375
-- 1|0.444444|0.541667|0.703704|0.597222
-- 4|0.333333|0.428571|0.666667|0.541667
-- 2|0.333333|0.333333|0.518519|0.559524

-- case: integer_ids_keep_their_type
SELECT DISTINCT typeof(player) FROM standings(1, 'mtg');
-- expect:
-- integer

-- case: text_ids_keep_their_type
SELECT DISTINCT typeof(player) FROM standings('drop', 'mtg');
-- expect:
-- text

-- case: column_types
SELECT typeof(rank), typeof(player), typeof(match_points), typeof(wins), typeof(losses),
       typeof(draws), typeof(byes), typeof(rounds), typeof(game_wins), typeof(game_losses),
       typeof(game_draws), typeof(game_points), typeof(games), typeof(mwp), typeof(gwp),
       typeof(omwp), typeof(ogwp), typeof(dropped), typeof(decided_by)
FROM standings(1, 'mtg') WHERE player = 1;
-- expect:
-- integer|integer|integer|integer|integer|integer|integer|integer|integer|integer|integer|integer|integer|real|real|real|real|integer|text

-- case: select_star_visible_columns
-- one column per tiebreaker; those the policy does not show are NULL; name,
-- division and status are NULL without a players table
SELECT * FROM standings(1, 'mtg') WHERE player = 3;
-- expect:
-- 1|3|9|3|0|0|1|3|6|2|0|18|8|1.0|0.75|0.388888888888889|0.485119047619048|||||||||||||||||||||||||||||||||||||||||||||||||||||0|||||1

-- case: hidden_columns_echo_arguments
SELECT DISTINCT event_id, policy FROM standings(1, 'mtg');
-- expect:
-- 1|mtg

-- case: named_arguments
SELECT rank, player FROM standings WHERE event_id = 1 AND policy = 'mtg';
-- expect:
-- 1|3
-- 2|5
-- 3|1
-- 4|4
-- 5|2

-- case: empty_event_gives_no_rows
SELECT * FROM standings(999, 'mtg');
-- expect:

-- case: empty_event_count
SELECT count(*) FROM standings('nosuch event', 'mtg');
-- expect:
-- 0

-- case: as_of_round_2
-- after round 2: 3 and 5 have 6 MP, OMW 1/2 vs 0.33; 4 and 1 have 3 MP, OMW 1 vs 0.665
SELECT rank, player, match_points, rounds, round(mwp, 6), round(omwp, 6), decided_by
FROM standings(1, 'mtg', NULL, 2);
-- expect:
-- 1|3|6|2|1.0|0.5|
-- 2|5|6|2|1.0|0.33|omwp
-- 3|4|3|2|0.5|1.0|match_points
-- 4|1|3|2|0.5|0.665|omwp
-- 5|2|0|2|0.33|0.75|match_points

-- case: as_of_round_2_games
SELECT player, game_points, games, round(gwp, 6), round(ogwp, 6) FROM standings(1, 'mtg', NULL, 2);
-- expect:
-- 3|12|6|0.666667|0.6
-- 5|13|5|0.866667|0.33
-- 4|9|5|0.6|0.666667
-- 1|9|5|0.6|0.498333
-- 2|1|5|0.33|0.733333

-- case: as_of_round_named
SELECT rank, player FROM standings WHERE event_id = 1 AND policy = 'mtg' AND as_of_round = 2;
-- expect:
-- 1|3
-- 2|5
-- 3|4
-- 4|1
-- 5|2

-- case: as_of_round_past_the_end_is_everything
SELECT count(*) FROM (
  SELECT * FROM standings(1, 'mtg', NULL, 10) EXCEPT SELECT * FROM standings(1, 'mtg'));
-- expect:
-- 0

-- case: as_of_round_null_is_everything
SELECT rank, player FROM standings(1, 'mtg', NULL, NULL);
-- expect:
-- 1|3
-- 2|5
-- 3|1
-- 4|4
-- 5|2

-- case: drop_order_and_values
SELECT rank, player, match_points, rounds, round(mwp, 6), round(omwp, 6), dropped, decided_by
FROM standings('drop', 'mtg');
-- expect:
-- 1|A|9|3|1.0|0.333333|0|
-- 2|C|3|3|0.333333|0.777778|0|match_points
-- 3|B|3|3|0.333333|0.666667|0|omwp
-- 4|D|3|1|1.0|0.333333|1|omwp

-- case: drop_divisor_is_rounds_played
-- D won round 1 and left: 3/3, not 3/9
SELECT player, wins, losses, rounds, round(mwp, 6), round(gwp, 6), dropped FROM standings('drop', 'mtg') WHERE player = 'D';
-- expect:
-- D|1|0|1|1.0|0.666667|1

-- case: drop_games
SELECT player, game_wins, game_losses, games, round(gwp, 6), round(ogwp, 6) FROM standings('drop', 'mtg');
-- expect:
-- A|6|1|7|0.857143|0.436508
-- C|4|5|9|0.444444|0.650794
-- B|3|4|7|0.428571|0.650794
-- D|2|1|3|0.666667|0.444444

-- case: drop_not_yet_dropped_as_of_round_1
-- after round 1 nobody has left; A and D tie on OMW (0.33 each) and GWP decides
SELECT rank, player, dropped, decided_by FROM standings('drop', 'mtg', NULL, 1);
-- expect:
-- 1|A|0|
-- 2|D|0|gwp
-- 3|C|0|match_points
-- 4|B|0|gwp

-- case: bye_only_player_has_no_opponents
SELECT rank, player, byes, round(mwp, 6), round(gwp, 6), omwp, ogwp, decided_by FROM standings('byeonly', 'mtg');
-- expect:
-- 1|Q|0|1.0|1.0|0.33|0.33|
-- 2|P|1|1.0|1.0|||omwp
-- 3|R|0|0.33|0.33|1.0|1.0|match_points

-- case: intentional_draws_0_0_3_and_0_0_0
-- A-B drew 0-0-3 (3 drawn games, GWP 3/9), C-D drew 0-0-0 (no games, GWP = floor)
SELECT rank, player, match_points, draws, game_draws, game_points, games, round(gwp, 6), decided_by
FROM standings('id', 'mtg');
-- expect:
-- 1|A|1|1|3|3|3|0.333333|
-- 1|B|1|1|3|3|3|0.333333|
-- 3|C|1|1|0|0|0|0.33|gwp
-- 3|D|1|1|0|0|0|0.33|

-- case: intentional_draw_opponents
SELECT player, round(mwp, 6), round(omwp, 6), round(ogwp, 6) FROM standings('id', 'mtg');
-- expect:
-- A|0.333333|0.333333|0.333333
-- B|0.333333|0.333333|0.333333
-- C|0.333333|0.333333|0.33
-- D|0.333333|0.333333|0.33

-- case: explicit_results_records
SELECT rank, player, match_points, wins, losses, draws, game_wins, game_losses, game_draws, decided_by
FROM standings('res', 'mtg');
-- expect:
-- 1|C|4|1|0|1|1|1|0|
-- 2|A|3|1|1|0|1|1|0|match_points
-- 3|B|3|1|1|0|3|1|0|omwp
-- 4|F|3|1|1|0|2|0|0|omwp
-- 5|D|1|0|1|1|1|3|0|match_points
-- 6|E|0|0|2|0|0|2|0|match_points

-- case: explicit_results_percentages
SELECT player, round(mwp, 6), round(gwp, 6), round(omwp, 6), round(ogwp, 6) FROM standings('res', 'mtg');
-- expect:
-- C|0.666667|0.5|0.415|0.415
-- A|0.5|0.5|0.583333|0.625
-- B|0.5|0.75|0.415|0.415
-- F|0.5|1.0|0.33|0.33
-- D|0.33|0.33|0.583333|0.75
-- E|0.33|0.33|0.5|0.875

-- case: double_loss_counts_round_and_opponent
-- E and F lost to each other: a loss each, a round each, each other's opponent
SELECT player, losses, rounds, round(omwp, 6) FROM standings('res', 'mtg', NULL, 1) WHERE player IN ('E', 'F');
-- expect:
-- E|1|1|0.33
-- F|1|1|0.33

-- case: exact_tie_shares_rank
-- X and Y: OMW 7/18 each although the float sums differ in the last bit
SELECT rank, player, match_points, round(omwp, 6), round(gwp, 6), round(ogwp, 6), decided_by
FROM standings('tie', 'mtg') WHERE player IN ('X', 'Y', 'z4');
-- expect:
-- 2|X|6|0.388889|0.33|0.33|match_points
-- 2|Y|6|0.388889|0.33|0.33|
-- 4|z4|6|0.333333|0.33|0.33|omwp

-- case: exact_tie_opponent_records
SELECT player, wins || '-' || losses || '-' || draws, round(mwp, 6) FROM standings('tie', 'mtg')
WHERE player IN ('a1', 'a2', 'a3', 'b1', 'b2', 'b3') ORDER BY player;
-- expect:
-- a1|1-2-0|0.333333
-- a2|1-2-0|0.333333
-- a3|1-1-0|0.5
-- b1|1-1-2|0.416667
-- b2|1-1-2|0.416667
-- b3|1-2-0|0.333333

-- case: exact_tie_full_ranking
SELECT rank, player, decided_by FROM standings('tie', 'mtg');
-- expect:
-- 1|z2|
-- 2|X|match_points
-- 2|Y|
-- 4|z4|omwp
-- 5|b1|match_points
-- 5|b2|
-- 7|z3|match_points
-- 8|b3|match_points
-- 9|a3|omwp
-- 10|a1|omwp
-- 11|a2|omwp
-- 12|z1|match_points

-- case: exact_omw_tie_passes_to_gwp
SELECT rank, player, round(omwp, 6), round(gwp, 6), decided_by FROM standings('tie2', 'mtg') WHERE player IN ('X', 'Y');
-- expect:
-- 2|X|0.388889|1.0|match_points
-- 3|Y|0.388889|0.33|gwp

-- case: decided_by_every_tiebreaker
SELECT rank, player, match_points, round(omwp, 6), round(gwp, 6), round(ogwp, 6), decided_by FROM standings('og', 'mtg');
-- expect:
-- 1|x1|3|0.665|0.6|0.498333|
-- 2|y1|3|0.665|0.5|0.5|gwp
-- 3|X|3|0.5|0.666667|0.6|omwp
-- 4|Y|3|0.5|0.666667|0.5|ogwp
-- 5|w2|0|0.5|0.333333|0.5|match_points
-- 6|w1|0|0.5|0.33|0.6|gwp

-- case: tie_ordered_by_integer_id
SELECT rank, player, decided_by FROM standings(7, 'mtg');
-- expect:
-- 1|2|
-- 1|10|

-- case: tie_ordered_by_text_id
SELECT rank, player, decided_by FROM standings('ord', 'mtg');
-- expect:
-- 1|a|
-- 1|b|

-- case: games_table_gives_same_standings
SELECT count(*) FROM (
  SELECT * FROM standings(1, 'mtg') EXCEPT SELECT * FROM standings(101, 'mtg'));
-- expect:
-- 0

-- case: games_table_counts
SELECT player, game_wins, game_losses, game_draws, game_points, games FROM standings(101, 'mtg');
-- expect:
-- 3|6|2|0|18|8
-- 5|5|1|2|17|8
-- 1|4|3|1|13|8
-- 4|3|4|0|9|7
-- 2|2|4|1|7|7

-- case: games_table_standings
SELECT rank, player, match_points, round(omwp, 6), round(gwp, 6), round(ogwp, 6), decided_by FROM standings(101, 'mtg');
-- expect:
-- 1|3|9|0.388889|0.75|0.485119|
-- 2|5|7|0.388889|0.708333|0.4375|match_points
-- 3|1|4|0.703704|0.541667|0.597222|match_points
-- 4|4|3|0.666667|0.428571|0.541667|match_points
-- 5|2|3|0.518519|0.333333|0.559524|omwp

-- case: games_table_agreeing_counts
SELECT count(*) FROM (
  SELECT * FROM standings(1, 'mtg') EXCEPT SELECT * FROM standings(102, 'mtg'));
-- expect:
-- 0

-- case: games_table_disagreeing_counts
-- round 1, match of player 3: matches says 2-1-0, the games table 2-0-0
SELECT * FROM standings(103, 'mtg');
-- error-match: standings(): *

-- case: games_table_disabled
-- without game rows event 101's matches are 0-0-0 draws, except 2-4 and the byes
SELECT player, match_points, wins, draws, games FROM standings(101, 'mtg', NULL, NULL, 'matches', '') ORDER BY player;
-- expect:
-- 1|3|0|3|0
-- 2|5|1|2|2
-- 3|5|1|2|2
-- 4|4|1|1|4
-- 5|5|1|2|2

-- case: games_table_named_explicitly
SELECT count(*) FROM (
  SELECT * FROM standings(1, 'mtg') EXCEPT SELECT * FROM standings(101, 'mtg', NULL, NULL, 'matches', 'games'));
-- expect:
-- 0

-- case: custom_matches_table_without_result_column
SELECT rank, player, match_points, round(omwp, 6) FROM standings(1, 'mtg', NULL, NULL, 'results_2024');
-- expect:
-- 1|3|9|0.388889
-- 2|5|7|0.388889
-- 3|1|4|0.703704
-- 4|4|3|0.666667
-- 5|2|3|0.518519

-- case: custom_matches_and_games_tables
SELECT count(*), sum(s.game_points) FROM standings(101, 'mtg', NULL, NULL, 'results_2024', 'game_log') AS s;
-- expect:
-- 5|64

-- case: custom_tables_same_as_default
SELECT count(*) FROM (
  SELECT * FROM standings(101, 'mtg', NULL, NULL, 'results_2024', 'game_log')
  EXCEPT SELECT * FROM standings(1, 'mtg'));
-- expect:
-- 0

-- case: custom_table_named_argument
SELECT rank, player FROM standings
WHERE event_id = 1 AND policy = 'mtg' AND matches_table = 'results_2024' AND games_table = '';
-- expect:
-- 1|3
-- 2|5
-- 3|1
-- 4|4
-- 5|2

-- case: custom_matches_table_ignores_default_games
-- results_2024 holds event 101 with 0-0-0 counts; game_log is not read unless named,
-- but the default games table is
SELECT count(*) FROM (
  SELECT * FROM standings(101, 'mtg', NULL, NULL, 'results_2024') EXCEPT SELECT * FROM standings(1, 'mtg'));
-- expect:
-- 0

-- case: ids_negative_huge_and_text_together
-- small non-negative integer ids are looked up after the read, others at once:
-- both kinds, and text, meet in one event
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('ids', 1, -5, 0, 2, 0, 0), ('ids', 1, 3000000000, 'T', 2, 1, 0),
  ('ids', 2, -5, 3000000000, 2, 1, 0), ('ids', 2, 0, 'T', 2, 0, 0);
SELECT rank, player, match_points, round(omwp, 4), round(gwp, 4), round(ogwp, 4)
FROM standings('ids', 'mtg');
-- expect:
-- 1|-5|6|0.5|0.8|0.5
-- 2|0|3|0.665|0.5|0.565
-- 2|3000000000|3|0.665|0.5|0.565
-- 4|T|0|0.5|0.33|0.5

-- case: one_statement_alternating_tables
-- a join that asks for other tables from row to row reads each pair as asked
-- (the cursor checks the tables again whenever they change)
WITH asks(ev, tbl, games) AS (VALUES (1, 'matches', NULL), (101, 'results_2024', ''),
                                     (101, 'results_2024', 'game_log'), (1, 'matches', NULL))
SELECT a.tbl, coalesce(a.games, 'default'), s.rank, s.player, s.match_points, s.game_points
FROM asks AS a, standings(a.ev, 'mtg', NULL, NULL, a.tbl, a.games) AS s WHERE s.rank = 1;
-- expect:
-- matches|default|1|3|9|18
-- results_2024||1|5|5|6
-- results_2024|game_log|1|3|9|18
-- matches|default|1|3|9|18

-- case: view_with_expected_column_names
SELECT rank, player, match_points, rounds, round(mwp, 6), round(omwp, 6), dropped, decided_by
FROM standings('viewed', 'mtg', NULL, NULL, 'v_matches', '');
-- expect:
-- 1|A|9|3|1.0|0.333333|0|
-- 2|C|3|3|0.333333|0.777778|0|match_points
-- 3|B|3|3|0.333333|0.666667|0|omwp
-- 4|D|3|1|1.0|0.333333|1|omwp

-- case: view_same_as_table
SELECT count(*) FROM (
  SELECT * FROM standings('viewed', 'mtg', NULL, NULL, 'v_matches')
  EXCEPT SELECT * FROM standings('drop', 'mtg'));
-- expect:
-- 0

-- case: floor_default_is_0_33
SELECT player, round(mwp, 6), round(gwp, 6), round(omwp, 6), round(ogwp, 6) FROM standings('fl', 'mtg');
-- expect:
-- A|1.0|1.0|0.33|0.33
-- B|0.33|0.33|1.0|1.0

-- case: floor_real_0_33
SELECT player, round(mwp, 6), round(omwp, 6) FROM standings('fl', 'mtg', 0.33);
-- expect:
-- A|1.0|0.33
-- B|0.33|1.0

-- case: floor_text_0_33
SELECT player, round(mwp, 6), round(omwp, 6) FROM standings('fl', 'mtg', '0.33');
-- expect:
-- A|1.0|0.33
-- B|0.33|1.0

-- case: floor_fraction_33_100
SELECT player, round(mwp, 6), round(omwp, 6) FROM standings('fl', 'mtg', '33/100');
-- expect:
-- A|1.0|0.33
-- B|0.33|1.0

-- case: floor_fraction_one_third
SELECT player, round(mwp, 6), round(gwp, 6), round(omwp, 6), round(ogwp, 6) FROM standings('fl', 'mtg', '1/3');
-- expect:
-- A|1.0|1.0|0.333333|0.333333
-- B|0.333333|0.333333|1.0|1.0

-- case: floor_zero
SELECT player, mwp, gwp, omwp, ogwp FROM standings('fl', 'mtg', 0);
-- expect:
-- A|1.0|1.0|0.0|0.0
-- B|0.0|0.0|1.0|1.0

-- case: floor_zero_real
SELECT player, mwp, omwp FROM standings('fl', 'mtg', 0.0);
-- expect:
-- A|1.0|0.0
-- B|0.0|1.0

-- case: floor_one
SELECT player, match_points, mwp, gwp, omwp, ogwp FROM standings('fl', 'mtg', 1);
-- expect:
-- A|3|1.0|1.0|1.0|1.0
-- B|0|1.0|1.0|1.0|1.0

-- case: floor_policy_option
SELECT player, round(mwp, 6), round(omwp, 6) FROM standings('fl', 'mtg(floor=1/3)');
-- expect:
-- A|1.0|0.333333
-- B|0.333333|1.0

-- case: floor_policy_option_decimal
SELECT player, round(mwp, 6), round(omwp, 6) FROM standings('fl', 'mtg(floor=0.33)');
-- expect:
-- A|1.0|0.33
-- B|0.33|1.0

-- case: floor_argument_overrides_policy_option
SELECT player, mwp, omwp FROM standings('fl', 'mtg(floor=1/3)', 0);
-- expect:
-- A|1.0|0.0
-- B|0.0|1.0

-- case: floor_null_keeps_policy_option
SELECT player, round(mwp, 6), round(omwp, 6) FROM standings('fl', 'mtg(floor=1/3)', NULL);
-- expect:
-- A|1.0|0.333333
-- B|0.333333|1.0

-- case: floor_named_argument
SELECT player, round(omwp, 6) FROM standings WHERE event_id = 'fl' AND policy = 'mtg' AND floor = '1/3';
-- expect:
-- A|0.333333
-- B|1.0

-- case: floor_0_33_separates_1_2_from_0_2
-- Y's opponent is 1-2 (1/3), X's is 0-2 (0 -> 0.33): Y ahead on OMW
SELECT rank, player, round(omwp, 6), round(ogwp, 6), decided_by FROM standings('fl2', 'mtg');
-- expect:
-- 1|s|0.387778|0.387778|
-- 2|q|0.722222|0.722222|match_points
-- 3|r|0.5|0.5|omwp
-- 4|Y|0.333333|0.333333|omwp
-- 5|X|0.33|0.33|omwp
-- 6|p|0.833333|0.833333|match_points

-- case: floor_one_third_ties_1_2_with_0_2
SELECT rank, player, round(omwp, 6), round(ogwp, 6), decided_by FROM standings('fl2', 'mtg', '1/3');
-- expect:
-- 1|s|0.388889|0.388889|
-- 2|q|0.722222|0.722222|match_points
-- 3|r|0.5|0.5|omwp
-- 4|X|0.333333|0.333333|omwp
-- 4|Y|0.333333|0.333333|
-- 6|p|0.833333|0.833333|match_points

-- case: floor_one_third_policy_ties_too
SELECT rank, player, decided_by FROM standings('fl2', 'mtg(floor=1/3)') WHERE player IN ('X', 'Y');
-- expect:
-- 4|X|omwp
-- 4|Y|

-- case: game_draw_points_zero
-- drawn games score 0: 1 has 12/24, 5 has 15/24, 2 has 6/21 -> 1/3 floor
SELECT player, game_points, games, round(gwp, 6) FROM standings(1, 'mtg(floor=1/3, game_draw_points=0)');
-- expect:
-- 3|18|8|0.75
-- 5|15|8|0.625
-- 1|12|8|0.5
-- 4|9|7|0.428571
-- 2|6|7|0.333333

-- case: game_draw_points_zero_ogwp
SELECT player, round(ogwp, 6) FROM standings(1, 'mtg(floor=1/3, game_draw_points=0)');
-- expect:
-- 3|0.464286
-- 5|0.416667
-- 1|0.569444
-- 4|0.541667
-- 2|0.517857

-- case: other_events_do_not_leak
-- event 'fl' has 2 players whatever else the table holds
SELECT count(*), sum(match_points), sum(rounds) FROM standings('fl', 'mtg');
-- expect:
-- 2|3|2

-- case: scalar_values_event_1
SELECT round(mwp(1, 5), 6), round(gwp(1, 5), 6), round(omwp(1, 3), 6), round(ogwp(1, 3), 6);
-- expect:
-- 0.777778|0.708333|0.388889|0.485119

-- case: scalar_values_text_ids
SELECT round(mwp('drop', 'D'), 6), round(gwp('drop', 'D'), 6), round(omwp('drop', 'C'), 6), round(ogwp('drop', 'C'), 6);
-- expect:
-- 1.0|0.666667|0.777778|0.650794

-- case: scalar_player_not_in_event
SELECT mwp(1, 99), gwp(1, 99), omwp(1, 99), ogwp(1, 99), mwp(999, 1), omwp('drop', 1);
-- expect:
-- |||||

-- case: scalar_bye_only_player
SELECT round(mwp('byeonly', 'P'), 6), round(gwp('byeonly', 'P'), 6), omwp('byeonly', 'P'), ogwp('byeonly', 'P');
-- expect:
-- 1.0|1.0||

-- case: scalar_policy_argument
SELECT round(omwp('fl', 'A', 'mtg(floor=1/3)'), 6), round(ogwp('fl', 'A', 'mtg(floor=1/3)'), 6),
       round(omwp('fl', 'A', 'mtg'), 6), round(ogwp('fl', 'A'), 6);
-- expect:
-- 0.333333|0.333333|0.33|0.33

-- case: scalars_equal_standings_columns
-- for every player of several events the scalar IS the standings() value
SELECT count(*), sum(ok) FROM (
  SELECT s.mwp IS mwp(1, s.player) AND s.gwp IS gwp(1, s.player)
     AND s.omwp IS omwp(1, s.player) AND s.ogwp IS ogwp(1, s.player) AS ok
  FROM standings(1, 'mtg') AS s
  UNION ALL
  SELECT s.mwp IS mwp(101, s.player) AND s.gwp IS gwp(101, s.player)
     AND s.omwp IS omwp(101, s.player) AND s.ogwp IS ogwp(101, s.player)
  FROM standings(101, 'mtg') AS s
  UNION ALL
  SELECT s.mwp IS mwp('drop', s.player) AND s.gwp IS gwp('drop', s.player)
     AND s.omwp IS omwp('drop', s.player) AND s.ogwp IS ogwp('drop', s.player)
  FROM standings('drop', 'mtg') AS s
  UNION ALL
  SELECT s.mwp IS mwp('res', s.player) AND s.gwp IS gwp('res', s.player)
     AND s.omwp IS omwp('res', s.player) AND s.ogwp IS ogwp('res', s.player)
  FROM standings('res', 'mtg') AS s
  UNION ALL
  SELECT s.mwp IS mwp('tie', s.player) AND s.gwp IS gwp('tie', s.player)
     AND s.omwp IS omwp('tie', s.player) AND s.ogwp IS ogwp('tie', s.player)
  FROM standings('tie', 'mtg') AS s
  UNION ALL
  SELECT s.mwp IS mwp('byeonly', s.player) AND s.gwp IS gwp('byeonly', s.player)
     AND s.omwp IS omwp('byeonly', s.player) AND s.ogwp IS ogwp('byeonly', s.player)
  FROM standings('byeonly', 'mtg') AS s);
-- expect:
-- 35|35

-- case: scalars_with_policy_equal_standings_columns
SELECT count(*), sum(s.omwp IS omwp('fl2', s.player, 'mtg(floor=1/3)')
                     AND s.ogwp IS ogwp('fl2', s.player, 'mtg(floor=1/3)'))
FROM standings('fl2', 'mtg(floor=1/3)') AS s;
-- expect:
-- 6|6

-- case: loss_without_opponent_mtg
-- C enters late: round 1 is a loss with no opponent (result 'loss', 0-0-0
-- read as 0-2); A misses round 3 and has it recorded 0-2-0 with no
-- opponent (NULL result: the counts say loss). A: 6 MP in 3 rounds = 2/3;
-- games 4-3 = 12/21 = 4/7; OMW% (B 1/3, C 1/3) = 1/3. Not byes.
INSERT INTO matches VALUES ('L', 1, 'A', 'B', 2, 0, 0, NULL), ('L', 1, 'C', NULL, 0, 0, 0, 'loss'),
  ('L', 2, 'A', 'C', 2, 1, 0, NULL), ('L', 2, 'B', NULL, 2, 0, 0, NULL),
  ('L', 3, 'C', 'B', 2, 0, 0, NULL), ('L', 3, 'A', NULL, 0, 2, 0, NULL);
SELECT rank, player, match_points, wins, losses, byes, rounds, game_wins, game_losses,
       round(mwp, 4), round(gwp, 4), round(omwp, 4), dropped
FROM standings('L', 'mtg');
-- expect:
-- 1|A|6|2|1|0|3|4|3|0.6667|0.5714|0.3333|0
-- 2|C|3|1|2|0|3|3|4|0.3333|0.4286|0.5|0
-- 3|B|3|1|2|1|3|2|4|0.3333|0.3333|0.5|0

-- case: loss_without_opponent_pokemon
-- as RK9 publishes: the loss counts in the player's own win % (the one
-- opponents see) and puts an opponent at the 25 % floor into the player's
-- owp.  A 2-0 then a loss: 2/3; B 0-2 (bye out): 1/4; C loss, L, W: 1/3.
-- owp A (1/4 + 1/3 + 1/4) / 3 = 5/18; B (2/3 + 1/3) / 2; C (1/4 + 2/3 + 1/4) / 3 = 7/18;
-- oowp: the late round's opponent at 1/4 again, A (1/4 + 1/2 + 7/18) / 3 = 41/108,
-- B (5/18 + 7/18) / 2 = 1/3, C (1/4 + 5/18 + 1/2) / 3 = 37/108
INSERT INTO matches VALUES ('L', 1, 'A', 'B', 2, 0, 0, NULL), ('L', 1, 'C', NULL, 0, 0, 0, 'loss'),
  ('L', 2, 'A', 'C', 2, 1, 0, NULL), ('L', 2, 'B', NULL, 2, 0, 0, NULL),
  ('L', 3, 'C', 'B', 2, 0, 0, NULL), ('L', 3, 'A', NULL, 0, 2, 0, NULL);
SELECT rank, player, match_points, wins || '-' || losses || '-' || draws, byes,
       round(win_pct, 4), round(owp, 4), round(oowp, 4)
FROM standings('L', 'pokemon');
-- expect:
-- 1|A|6|2-1-0|0|0.6667|0.2778|0.3796
-- 2|B|3|1-2-0|1|0.25|0.5|0.3333
-- 3|C|3|1-2-0|0|0.3333|0.3889|0.3426

-- case: loss_without_opponent_pokemon_late_loss_0
-- late_loss=0: the loss counts in the record and points, and not in the win %
-- that opponents see (as a bye is removed): A's opponents see 2-0 = 100 %
INSERT INTO matches VALUES ('L', 1, 'A', 'B', 2, 0, 0, NULL), ('L', 1, 'C', NULL, 0, 0, 0, 'loss'),
  ('L', 2, 'A', 'C', 2, 1, 0, NULL), ('L', 2, 'B', NULL, 2, 0, 0, NULL),
  ('L', 3, 'C', 'B', 2, 0, 0, NULL), ('L', 3, 'A', NULL, 0, 2, 0, NULL);
SELECT rank, player, match_points, wins || '-' || losses || '-' || draws, byes,
       round(win_pct, 4), round(owp, 4), round(oowp, 4)
FROM standings('L', 'pokemon(late_loss=0)');
-- expect:
-- 1|A|6|2-1-0|0|1.0|0.375|0.6875
-- 2|B|3|1-2-0|1|0.25|0.75|0.5
-- 3|C|3|1-2-0|0|0.5|0.625|0.5625

-- case: late_loss_then_drop_pokemon
-- C enters late (round 1 lost), beats A in round 2 and drops: win % 1/2 (the
-- 3/4 cap does not bite), frozen as of round 2: owp (1/4 late + A's 1/2 as of
-- round 2) / 2 = 3/8; oowp (1/4 late + A's owp as of round 2, (B 1/4 + C 1/2)
-- / 2 = 3/8) / 2 = 5/16.  A (W L W, 2/3): owp (B 1/4 + C 1/2 + B 1/4) / 3 =
-- 1/3, oowp (2/3 + 3/8 + 2/3) / 3 = 41/72 (C's frozen 3/8).  B (0/2, bye out):
-- owp 2/3, oowp 1/3.
INSERT INTO matches VALUES ('LD', 1, 'A', 'B', 2, 0, 0, NULL), ('LD', 1, 'C', NULL, 0, 0, 0, 'loss'),
  ('LD', 2, 'C', 'A', 2, 0, 0, NULL), ('LD', 2, 'B', NULL, 2, 0, 0, NULL),
  ('LD', 3, 'A', 'B', 2, 0, 0, NULL);
SELECT player, match_points, dropped, round(win_pct, 4), round(owp, 4), round(oowp, 4)
FROM standings('LD', 'pokemon') ORDER BY player;
-- expect:
-- A|6|0|0.6667|0.3333|0.5694
-- B|3|0|0.25|0.6667|0.3333
-- C|3|1|0.5|0.375|0.3125

-- case: no_show_pokemon_at_the_floor
-- a player with byes only has no round to take a percentage of: the floor,
-- as RK9 publishes a registered player who never played
INSERT INTO matches VALUES ('NS', 1, 'A', 'B', 2, 0, 0, NULL), ('NS', 1, 'C', NULL, 2, 0, 0, NULL);
SELECT player, round(win_pct, 4), round(owp, 4), round(oowp, 4)
FROM standings('NS', 'pokemon') ORDER BY player;
-- expect:
-- A|1.0|0.25|1.0
-- B|0.25|1.0|0.25
-- C|0.25|0.25|0.25

-- case: pokemon_2023_drops_last
-- E loses to A in round 1 and drops; C loses both rounds.  Both have 0 points;
-- E's owp, frozen after round 1, is A's 1-0 = 1.0, C's (B 1/2 + D 1) / 2 = 3/4.
-- 'pokemon' places E above C, 'pokemon_2023' (RK9, April-September 2023) the
-- active C above the dropped E.  3 points: F (D 2-0: 1.0) above B (C 1/4, A 1: 5/8).
INSERT INTO matches VALUES ('D23', 1, 'A', 'E', 2, 0, 0, NULL), ('D23', 1, 'B', 'C', 2, 0, 0, NULL),
  ('D23', 1, 'D', 'F', 2, 0, 0, NULL), ('D23', 2, 'A', 'B', 2, 0, 0, NULL),
  ('D23', 2, 'D', 'C', 2, 0, 0, NULL), ('D23', 2, 'F', NULL, 2, 0, 0, NULL);
SELECT rank, player, match_points, dropped, active, round(owp, 4), decided_by
FROM standings('D23', 'pokemon');
-- expect:
-- 1|A|6|0||0.375|
-- 2|D|6|0||0.25|owp
-- 3|F|3|0||1.0|match_points
-- 4|B|3|0||0.625|owp
-- 5|E|0|1||1.0|match_points
-- 6|C|0|0||0.75|owp

-- case: pokemon_2023_drops_last_ranked
INSERT INTO matches VALUES ('D23', 1, 'A', 'E', 2, 0, 0, NULL), ('D23', 1, 'B', 'C', 2, 0, 0, NULL),
  ('D23', 1, 'D', 'F', 2, 0, 0, NULL), ('D23', 2, 'A', 'B', 2, 0, 0, NULL),
  ('D23', 2, 'D', 'C', 2, 0, 0, NULL), ('D23', 2, 'F', NULL, 2, 0, 0, NULL);
SELECT rank, player, active, decided_by FROM standings('D23', 'pokemon_2023');
-- expect:
-- 1|A|1|
-- 2|D|1|owp
-- 3|F|1|match_points
-- 4|B|1|owp
-- 5|C|1|match_points
-- 6|E|0|active

-- case: loss_without_opponent_fide_is_zero_point_round
-- chess: a round lost with no opponent scores 0 like a zero-point bye
INSERT INTO matches VALUES ('Z', 1, 'A', 'B', 0, 0, 0, 'a'), ('Z', 1, 'C', NULL, 0, 0, 0, 'loss'),
  ('Z', 2, 'C', 'A', 0, 0, 0, 'a'), ('Z', 2, 'B', NULL, 0, 0, 0, 'zero_bye');
SELECT player, points, wins, losses, byes FROM standings('Z', 'fide') ORDER BY player;
-- expect:
-- A|1.0|1|1|0
-- B|0.0|0|2|1
-- C|1.0|1|1|0
