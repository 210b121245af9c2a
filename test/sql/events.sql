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
