-- Chess, policy 'fide' (FIDE C.07 Tie-Break Regulations, Swiss).  Expected
-- values are the published answers of the FIDE TEC tie-break exercise (March
-- 2024) and values derived from its crosstable by hand with the rules'
-- text (/work/shared/rules-examples.json, key fide_c07); the small events
-- below are worked out by hand, the working in their comments.
--
-- Conventions: player_a has White; a game is 1-0-0 / 0-1-0 / 0-0-1; a
-- forfeit is result 'forfeit_a'/'forfeit_b'; a bye has player_b NULL
-- (result NULL: pairing-allocated, 'half_bye', 'zero_bye'); a round with no
-- row for a player is a zero-point bye.

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
CREATE TABLE players (event_id, player, rating);

-- Event 'tec': the TEC exercise, 16 players, 5 rounds, entered from its
-- crosstable (+W9 = win with White against 9; =BYE a requested half-point
-- bye; +BYE a pairing-allocated bye; +F14 a forfeit win; -- not paired).
-- Round 3: 12 wins by forfeit against 14; round 4: 11 against 9.  Players
-- 12 (rounds 4-5) and 14 (round 4) have no row: zero-point byes.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('tec', 1, 1, 9, 1, 0, 0, NULL),
  ('tec', 1, 3, 11, 0, 0, 1, NULL),
  ('tec', 1, 5, 13, 0, 1, 0, NULL),
  ('tec', 1, 7, 15, 1, 0, 0, NULL),
  ('tec', 1, 10, 2, 0, 1, 0, NULL),
  ('tec', 1, 12, 4, 0, 1, 0, NULL),
  ('tec', 1, 14, 6, 1, 0, 0, NULL),
  ('tec', 1, 16, 8, 0, 0, 1, NULL),
  ('tec', 2, 2, 7, 1, 0, 0, NULL),
  ('tec', 2, 4, NULL, 0, 0, 0, 'half_bye'),
  ('tec', 2, 6, 3, 0, 1, 0, NULL),
  ('tec', 2, 8, 14, 1, 0, 0, NULL),
  ('tec', 2, 9, 10, 0, 1, 0, NULL),
  ('tec', 2, 11, 16, 0, 1, 0, NULL),
  ('tec', 2, 12, NULL, 0, 0, 0, NULL),
  ('tec', 2, 13, 1, 0, 0, 1, NULL),
  ('tec', 2, 15, 5, 1, 0, 0, NULL),
  ('tec', 3, 1, 2, 0, 0, 1, NULL),
  ('tec', 3, 3, 8, 1, 0, 0, NULL),
  ('tec', 3, 4, 13, 1, 0, 0, NULL),
  ('tec', 3, 5, 11, 1, 0, 0, NULL),
  ('tec', 3, 6, NULL, 0, 0, 0, NULL),
  ('tec', 3, 9, NULL, 0, 0, 0, 'half_bye'),
  ('tec', 3, 10, 15, 0, 1, 0, NULL),
  ('tec', 3, 12, 14, 0, 0, 0, 'forfeit_a'),
  ('tec', 3, 16, 7, 1, 0, 0, NULL),
  ('tec', 4, 2, 16, 1, 0, 0, NULL),
  ('tec', 4, 4, 3, 0, 0, 1, NULL),
  ('tec', 4, 6, 10, 1, 0, 0, NULL),
  ('tec', 4, 7, 5, 0, 0, 1, NULL),
  ('tec', 4, 8, 13, 1, 0, 0, NULL),
  ('tec', 4, 11, 9, 0, 0, 0, 'forfeit_a'),
  ('tec', 4, 15, 1, 0, 1, 0, NULL),
  ('tec', 5, 1, 4, 0, 0, 1, NULL),
  ('tec', 5, 3, 2, 0, 0, 1, NULL),
  ('tec', 5, 5, 10, 1, 0, 0, NULL),
  ('tec', 5, 8, 6, 0, 1, 0, NULL),
  ('tec', 5, 9, NULL, 0, 0, 0, NULL),
  ('tec', 5, 11, 7, 1, 0, 0, NULL),
  ('tec', 5, 13, 14, 0, 1, 0, NULL),
  ('tec', 5, 16, 15, 1, 0, 0, NULL);


-- Event 'wd': B withdraws after round 2 (no row in round 3).
--   R1 A-B 1-0, C-D 1-0;  R2 A-C draw, B-D 1-0;  R3 A-D 1-0, C bye.
--   Scores A 2.5, B 1, C 2.5, D 0.  B's absence in the last round is a
--   category 16.2.5 VUR: opponents count B as 1 + 1/2 = 1.5 (16.3).
--   BH A = 1.5 + 2.5 + 0 = 4 (3.5 without 16.3); BH D = 2.5 + 1.5 + 2.5 = 6.5,
--   BH-C1 D = 6.5 - 1.5 = 5 (no VUR: the least value).  PS C = 1 + 1.5 + 2.5.
--   BH B = 2.5 + 0 + dummy 1 = 3.5; BH-C1 cuts the VUR's 1, not the 0: 2.5.
--   BH C = 0 + 2.5 + dummy 2.5 = 5 (2024); 2026 caps the PAB's dummy at
--   1/2 x 3 rounds = 1.5: 4.  SB A = 1.5x1 + 2.5x1/2 + 0x1 = 2.75;
--   SB C = 0 + 1.25 + 2.5 = 3.75 (2024), 1.25 + 1.5 = 2.75 (2026).
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('wd', 1, 'A', 'B', 1, 0, 0, NULL), ('wd', 1, 'C', 'D', 1, 0, 0, NULL),
  ('wd', 2, 'A', 'C', 0, 0, 1, NULL), ('wd', 2, 'B', 'D', 1, 0, 0, NULL),
  ('wd', 3, 'A', 'D', 1, 0, 0, NULL), ('wd', 3, 'C', NULL, 0, 0, 0, NULL);
-- Ratings: D is unrated.  ARO A = (1801 + 1900) / 2 = 1850.5 -> 1851;
-- B: 2000 (D left out); C: 2000 (D left out, the bye is no game);
-- D: (1900 + 1801 + 2000) / 3 = 1900.33 -> 1900.
INSERT INTO players VALUES ('wd', 'A', 2000), ('wd', 'B', 1801), ('wd', 'C', 1900),
  ('wd', 'D', NULL);

-- Ratings of 'tec', from the exercise's TRF: 2250 - 50 x start number.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 16)
INSERT INTO players SELECT 'tec', i, 2250 - 50 * i FROM n;

-- Event 'perf': a round robin of four rated players, for the rating
-- tiebreakers and Koya worked by hand.
--   R1 A-B 1-0, C-D draw;  R2 B-C draw, D-A 0-1;  R3 A-C draw, B-D 1-0.
--   Scores A 2.5, B 1.5, C 1.5, D 0.5.  Ratings A 2000, B 1900, C 1700,
--   D 1500.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('perf', 1, 'A', 'B', 1, 0, 0), ('perf', 1, 'C', 'D', 0, 0, 1),
  ('perf', 2, 'B', 'C', 0, 0, 1), ('perf', 2, 'D', 'A', 0, 1, 0),
  ('perf', 3, 'A', 'C', 0, 0, 1), ('perf', 3, 'B', 'D', 1, 0, 0);
INSERT INTO players VALUES ('perf', 'A', 2000), ('perf', 'B', 1900),
  ('perf', 'C', 1700), ('perf', 'D', 1500);

-- Event 'sbt': two "opponents" share L's lowest score under the 2026 rules.
--   R1 L-F forfeit (L wins), X-Y 0-1, Z-W draw;  R2 L-X 0-1, F-Z 0-1,
--   Y-W draw;  R3 L-Z 1-0, F-Y 1-0, X-W 0-1.  Scores L 2, F 1, X 1, Y 1.5,
--   Z 1.5, W 2.  F's forfeit loss is followed by games: F counts as 1.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('sbt', 1, 'L', 'F', 0, 0, 0, 'forfeit_a'), ('sbt', 1, 'X', 'Y', 0, 1, 0, NULL),
  ('sbt', 1, 'Z', 'W', 0, 0, 1, NULL), ('sbt', 2, 'L', 'X', 0, 1, 0, NULL),
  ('sbt', 2, 'F', 'Z', 0, 1, 0, NULL), ('sbt', 2, 'Y', 'W', 0, 0, 1, NULL),
  ('sbt', 3, 'L', 'Z', 1, 0, 0, NULL), ('sbt', 3, 'F', 'Y', 1, 0, 0, NULL),
  ('sbt', 3, 'X', 'W', 0, 1, 0, NULL);

-- Event 'rr': a round robin of four with a forfeit (C.07 15.2).
--   R1 A-B 1-0, C-D forfeit (C wins);  R2 B-C draw, D-A 0-1;  R3 A-C 0-1,
--   B-D 0-1.  Scores A 2, B 0.5, C 2.5, D 1.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('rr', 1, 'A', 'B', 1, 0, 0, NULL), ('rr', 1, 'C', 'D', 0, 0, 0, 'forfeit_a'),
  ('rr', 2, 'B', 'C', 0, 0, 1, NULL), ('rr', 2, 'D', 'A', 0, 1, 0, NULL),
  ('rr', 3, 'A', 'C', 0, 1, 0, NULL), ('rr', 3, 'B', 'D', 0, 1, 0, NULL);

-- Event 'late': E enters in round 2 (no row in round 1).
--   R1 A-B 1-0, C bye;  R2 A-E draw, B-C 0-1;  R3 C-A draw, E-B 1-0.
--   Scores A 2, B 0, C 2.5, E 1.5.  E's absence is followed by rounds played:
--   category 16.2.3, so opponents count E as scored, 1.5.
--   BH A = 0 + 1.5 + 2.5 = 4, BH-M1 A = 4 - 0 - 2.5 = 1.5, PS A = 1 + 1.5 + 2
--   = 4.5, PS-C1 A = 4.5 - 1 = 3.5.  BH E = dummy 1.5 + 2 + 0 = 3.5 (2026: the cap
--   1/2 x 3 = 1.5 changes nothing); BH-C1 E cuts the VUR's 1.5: 2;
--   BH-M1 E = 3.5 - 1.5 - 2 = 0.  SB E = 0 + 2x1/2 + 0x1 = 1; SB-C1 E: the
--   lowest-scoring opponent (B, 0) and the VUR both contribute 0: 1.
--   PS E = 0 + 0.5 + 1.5 = 2; PS-C1 E = 2 - 0 = 2.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('late', 1, 'A', 'B', 1, 0, 0, NULL), ('late', 1, 'C', NULL, 0, 0, 0, NULL),
  ('late', 2, 'A', 'E', 0, 0, 1, NULL), ('late', 2, 'B', 'C', 0, 1, 0, NULL),
  ('late', 3, 'C', 'A', 0, 0, 1, NULL), ('late', 3, 'E', 'B', 1, 0, 0, NULL);
-- Event 'late0': the same with E's absence recorded as a zero-point bye.
INSERT INTO matches SELECT 'late0', round, player_a, player_b, a_wins, b_wins, draws, result
  FROM matches WHERE event_id = 'late';
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('late0', 1, 'E', NULL, 'zero_bye');

-- Event 'ps': the published progressive score example, W, L, W, D:
-- running scores 1, 1, 2, 2.5, sum 6.5; Cut-1 leaves out round 1's 1: 5.5.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('ps', 1, 'P', 'Q1', 0, 0, 0, 'a'), ('ps', 2, 'Q2', 'P', 0, 0, 0, 'a'),
  ('ps', 3, 'P', 'Q3', 0, 0, 0, 'a'), ('ps', 4, 'Q4', 'P', 0, 0, 0, 'draw');

-- Direct encounter (Art. 6).  Ranked by 'direct_encounter' alone, a whole
-- event is one tied group.
-- 'rr4', everyone met (6.2): R1 A-B 1-0, C-D draw; R2 A-C 1-0, B-D 1-0;
-- R3 D-A 1-0, B-C 1-0.  Among all four: A 2, B 2, D 1.5, C 0.5; A and B
-- again among themselves: A beat B.  Places A 1, B 2, D 3, C 4.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('rr4', 1, 'A', 'B', 1, 0, 0, NULL), ('rr4', 1, 'C', 'D', 0, 0, 1, NULL),
  ('rr4', 2, 'A', 'C', 1, 0, 0, NULL), ('rr4', 2, 'B', 'D', 1, 0, 0, NULL),
  ('rr4', 3, 'D', 'A', 1, 0, 0, NULL), ('rr4', 3, 'B', 'C', 1, 0, 0, NULL);
-- 'sw4', not all met (6.3): W beat X, Y and Z; X beat Z and Y; Y and Z never
-- met.  W (3, all met) is above everyone's best case (X 2, Y and Z 0 + 1):
-- first.  X (2) is above Y's and Z's best case (1): second.  Y and Z, Art. 6
-- again between them: they never met, so no one is alone on top: level.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('sw4', 1, 'W', 'X', 1, 0, 0, NULL), ('sw4', 1, 'Y', NULL, 0, 0, 0, NULL),
  ('sw4', 1, 'Z', NULL, 0, 0, 0, NULL),
  ('sw4', 2, 'Y', 'W', 0, 1, 0, NULL), ('sw4', 2, 'X', 'Z', 1, 0, 0, NULL),
  ('sw4', 3, 'W', 'Z', 1, 0, 0, NULL), ('sw4', 3, 'Y', 'X', 0, 1, 0, NULL);
-- 'sw3': X beat Y; Z only had a bye.  X has 1 with one game missing; Z could
-- still reach 2: no one is alone on top whatever the missing games: level.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('sw3', 1, 'X', 'Y', 1, 0, 0, NULL), ('sw3', 1, 'Z', NULL, 0, 0, 0, NULL);
-- 'rep', repeated games are averaged (6.1.2), forfeits left out (6.1.1):
-- A-B 1-0 and draw: A 3/4, B 1/4; C beat A; B beat C; A's forfeit win over C
-- is not counted.  A 3/4 + 0, B 1/4 + 1, C 1 + 0: B 1, C 2, A 3.  (Summing
-- the two A-B games would tie A and B at 1.5; counting the forfeit as a game
-- would tie A and B at 5/4, with C last.)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('rep', 1, 'A', 'B', 1, 0, 0, NULL), ('rep', 2, 'B', 'A', 0, 0, 1, NULL),
  ('rep', 3, 'C', 'A', 1, 0, 0, NULL), ('rep', 4, 'B', 'C', 1, 0, 0, NULL),
  ('rep', 5, 'A', 'C', 0, 0, 0, 'forfeit_a');
-- Event 'med': the Median-Buchholz explainer of rules-examples.json
-- (challonge_median_buchholz).  P1's six opponents finish with 4, 2, 3, 4, 5,
-- 6 wins, P2's with 5, 4, 2, 6, 4, 5; every game is decisive and every
-- opponent plays all six rounds, so scores are wins.  Median-1 drops the
-- lowest and the highest: P1 24 - 2 - 6 = 16 (published), P2 26 - 2 - 6 = 18.
-- Opponent Pk-On beats Pk in round n and its first (wins - 1) other games,
-- each against a new player who plays only that game.
WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 6),
opp(p, n, wins) AS (VALUES ('P1', 1, 4), ('P1', 2, 2), ('P1', 3, 3), ('P1', 4, 4),
  ('P1', 5, 5), ('P1', 6, 6), ('P2', 1, 5), ('P2', 2, 4), ('P2', 3, 2), ('P2', 4, 6),
  ('P2', 5, 4), ('P2', 6, 5))
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)
  SELECT 'med', n, p || '-O' || n, p, 1, 0, 0 FROM opp
  UNION ALL
  SELECT 'med', k.n, opp.p || '-O' || opp.n, opp.p || '-O' || opp.n || '-f' || k.n,
         k.n - (k.n > opp.n) <= opp.wins - 1, k.n - (k.n > opp.n) > opp.wins - 1, 0
    FROM opp JOIN k ON k.n <> opp.n;
-- Larger groups (more than 16 members are looked up through an index).
-- 'star': player 0 beats players 1 to 20, one game a round; they never meet
-- each other.  0 is alone on top whatever the missing games (20 points;
-- any other at most 19, winning all 19 games it misses); the other 20 met
-- no one: level, second.
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 20)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)
  SELECT 'star', n, 0, n, 1, 0, 0 FROM r;
-- 'rr17': a round robin of 17 players, one game a round, the lower id always
-- wins: separate standings 16, 15, ..., 0, so player i is i-th.
WITH RECURSIVE p(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM p WHERE n < 17)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)
  SELECT 'rr17', row_number() OVER (ORDER BY a.n, b.n), a.n, b.n, 1, 0, 0
    FROM p AS a JOIN p AS b ON a.n < b.n;

-- case: tec_published_buchholz
-- The TEC exercise: published BH (rules of 2024).
SELECT player, buchholz FROM standings('tec', 'fide(rules=2024)')
 WHERE player IN (1, 2, 3, 4, 5, 8, 11, 16) ORDER BY player;
-- expect:
-- 1|12.5
-- 2|13.0
-- 3|15.5
-- 4|15.0
-- 5|8.5
-- 8|13.5
-- 11|13.5
-- 16|12.5

-- case: tec_published_buchholz_cut1
SELECT player, buchholz_cut1 FROM standings('tec', 'fide(rules=2024)')
 WHERE player IN (1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15, 16) ORDER BY player;
-- expect:
-- 1|11.0
-- 3|13.0
-- 4|11.5
-- 5|7.5
-- 7|12.5
-- 8|12.0
-- 9|7.5
-- 11|12.0
-- 12|9.5
-- 13|12.0
-- 14|9.0
-- 15|11.0
-- 16|11.0

-- case: tec_published_sonneborn_berger
SELECT player, sonneborn_berger FROM standings('tec', 'fide(rules=2024)')
 WHERE player <> 9 ORDER BY player;
-- expect:
-- 1|8.0
-- 2|9.5
-- 3|10.5
-- 4|9.75
-- 5|4.25
-- 6|6.5
-- 7|3.25
-- 8|5.25
-- 10|1.5
-- 11|5.75
-- 12|4.0
-- 13|4.25
-- 14|4.5
-- 15|3.5
-- 16|7.25

-- case: tec_adjusted_scores_seen_in_buchholz
-- The adjusted scores (16.3) as published (9's 1.5 is derived) are what the
-- opponents' BH add up: for every player, BH = the adjusted scores of the
-- opponents met over the board + own score x unplayed rounds (16.4, 2024).
-- Player 12 scored 2 but counts 3; 9 keeps 1.5.
WITH adjusted(player, score) AS (VALUES
  (1, 3.5), (2, 4.0), (3, 3.5), (4, 3.5), (5, 2.5), (6, 3.0), (7, 1.5), (8, 2.5), (9, 1.5), (10, 1.0), (11, 2.5), (12, 3.0), (13, 1.5), (14, 2.0), (15, 2.0), (16, 3.5)),
met(player, opponent) AS (
  SELECT player_a, player_b FROM matches
   WHERE event_id = 'tec' AND player_b IS NOT NULL AND result IS NULL
  UNION ALL
  SELECT player_b, player_a FROM matches
   WHERE event_id = 'tec' AND player_b IS NOT NULL AND result IS NULL),
seen(player, games, total) AS (
  SELECT met.player, count(*), sum(adjusted.score)
    FROM met JOIN adjusted ON adjusted.player = met.opponent GROUP BY met.player)
SELECT s.player, s.buchholz, seen.total + (5 - seen.games) * s.points
  FROM standings('tec', 'fide(rules=2024)') AS s JOIN seen USING (player)
 ORDER BY s.player;
-- expect:
-- 1|12.5|12.5
-- 2|13.0|13.0
-- 3|15.5|15.5
-- 4|15.0|15.0
-- 5|8.5|8.5
-- 6|12.0|12.0
-- 7|14.5|14.5
-- 8|13.5|13.5
-- 9|9.0|9.0
-- 10|13.0|13.0
-- 11|13.5|13.5
-- 12|11.5|11.5
-- 13|14.0|14.0
-- 14|11.0|11.0
-- 15|12.0|12.0
-- 16|12.5|12.5

-- case: tec_all_players_2024
-- Every player under the 2024 rules, with Median-1 (derived values).
SELECT player, points, buchholz, buchholz_cut1, buchholz_median1, sonneborn_berger
  FROM standings('tec', 'fide(rules=2024)') ORDER BY player;
-- expect:
-- 1|3.5|12.5|11.0|7.0|8.0
-- 2|4.0|13.0|12.0|8.5|9.5
-- 3|3.5|15.5|13.0|9.0|10.5
-- 4|3.5|15.0|11.5|8.0|9.75
-- 5|2.5|8.5|7.5|5.0|4.25
-- 6|3.0|12.0|11.0|7.5|6.5
-- 7|1.5|14.5|12.5|8.5|3.25
-- 8|2.5|13.5|12.0|8.5|5.25
-- 9|1.5|9.0|7.5|4.0|2.25
-- 10|1.0|13.0|11.5|7.5|1.5
-- 11|2.5|13.5|12.0|8.5|5.75
-- 12|2.0|11.5|9.5|6.0|4.0
-- 13|1.5|14.0|12.0|8.5|4.25
-- 14|2.0|11.0|9.0|6.0|4.5
-- 15|2.0|12.0|11.0|7.5|3.5
-- 16|3.5|12.5|11.0|7.0|7.25

-- case: tec_all_players_2026
-- The 2026 caps on the dummy (16.4.1, 16.4.2), derived values.
SELECT player, buchholz, buchholz_cut1, sonneborn_berger
  FROM standings('tec', 'fide(rules=2026)') ORDER BY player;
-- expect:
-- 1|12.5|11.0|8.0
-- 2|13.0|12.0|9.5
-- 3|15.5|13.0|10.5
-- 4|14.0|11.5|9.25
-- 5|8.5|7.5|4.25
-- 6|11.5|10.5|6.0
-- 7|14.5|12.5|3.25
-- 8|13.5|12.0|5.25
-- 9|9.0|7.5|2.25
-- 10|13.0|11.5|1.5
-- 11|12.5|11.0|4.75
-- 12|11.5|9.5|4.0
-- 13|14.0|12.0|4.25
-- 14|11.0|9.0|4.5
-- 15|12.0|11.0|3.5
-- 16|12.5|11.0|7.25

-- case: tec_2026_is_the_default
-- Only 4 (half-point bye: dummy 3.5 capped at 2.5), 6 (PAB: 3 capped at 2.5)
-- and 11 (forfeit win over 9, adjusted 1.5: 2.5 capped at 1.5) change.
SELECT old.player, old.buchholz, new.buchholz, old.sonneborn_berger, new.sonneborn_berger
  FROM standings('tec', 'fide(rules=2024)') AS old
  JOIN standings('tec', 'fide') AS new USING (player)
 WHERE (old.buchholz <> new.buchholz) + (old.sonneborn_berger <> new.sonneborn_berger) > 0
 ORDER BY old.player;
-- expect:
-- 4|15.0|14.0|9.75|9.25
-- 6|12.0|11.5|6.5|6.0
-- 11|13.5|12.5|5.75|4.75

-- case: tec_ranking_2024
-- Ranked by points, BH-C1, BH, SB (the values above): 3.5 points: 3 (BH-C1
-- 13), 4 (11.5), then 1 and 16 (11, BH 12.5 both) by SB 8 / 7.25; 2.5: 8 and
-- 11 (12, BH 13.5 both) by SB 5.75 / 5.25, then 5; 2: 15, 12, 14; 1.5: 7, 13, 9.
SELECT rank, player, points, decided_by FROM standings('tec', 'fide(rules=2024)');
-- expect:
-- 1|2|4.0|
-- 2|3|3.5|points
-- 3|4|3.5|buchholz_cut1
-- 4|1|3.5|buchholz_cut1
-- 5|16|3.5|sonneborn_berger
-- 6|6|3.0|points
-- 7|11|2.5|points
-- 8|8|2.5|sonneborn_berger
-- 9|5|2.5|buchholz_cut1
-- 10|15|2.0|points
-- 11|12|2.0|buchholz_cut1
-- 12|14|2.0|buchholz_cut1
-- 13|7|1.5|points
-- 14|13|1.5|buchholz_cut1
-- 15|9|1.5|buchholz_cut1
-- 16|10|1.0|points

-- case: tec_ranking_2026
-- 2026: among 2.5 points, 11's BH-C1 drops to 11, below 8's 12.
SELECT rank, player, decided_by FROM standings('tec', 'fide')
 WHERE points = 2.5;
-- expect:
-- 7|8|points
-- 8|11|buchholz_cut1
-- 9|5|buchholz_cut1

-- case: tec_own_games
-- From the crosstable: WIN counts byes and forfeit wins (7.1), WON only
-- games won (7.2), BPG games with Black (7.3); PS as awarded (7.5).
SELECT player, rounds_won, games_won, black_games, progressive, wins
  FROM standings('tec', 'fide') ORDER BY player;
-- expect:
-- 1|2|2|2|11.0|2
-- 2|3|3|3|13.0|3
-- 3|2|2|2|11.0|2
-- 4|2|2|2|11.5|2
-- 5|2|2|2|5.0|2
-- 6|3|2|2|6.0|3
-- 7|1|1|3|6.0|1
-- 8|2|2|2|8.5|2
-- 9|1|0|1|2.5|1
-- 10|1|1|3|4.0|1
-- 11|2|1|2|5.5|2
-- 12|2|0|0|7.0|2
-- 13|1|1|3|7.0|1
-- 14|2|2|2|6.0|2
-- 15|2|2|3|7.0|2
-- 16|3|3|2|10.5|3

-- case: tec_sonneborn_berger_cut1
-- Player 4's contributions (2024): 3 (beat 12, adjusted 3), 1.75 (half bye,
-- dummy 3.5 x 1/2), 1.5 (beat 13, the lowest-scoring opponent), 1.75, 1.75:
-- SB 9.75.  16.5.1 cuts the higher of the lowest VUR contribution (1.75) and
-- the lowest-scoring opponent's (1.5): 8.  Under the 2026 rules the dummy
-- is 2.5, its contribution 1.25 < 1.5, so 13's is cut: 9.25 - 1.5 = 7.75.
SELECT (SELECT sonneborn_berger_cut1 FROM standings('tec', 'fide(rules=2024)') WHERE player = 4),
       (SELECT sonneborn_berger_cut1 FROM standings('tec', 'fide') WHERE player = 4);
-- expect:
-- 8.0|7.75

-- case: tec_custom_order_uses_chess_points
-- A custom order takes its points from its first tiebreaker's family.  The
-- rule year is policy-wide: written on sonneborn_berger, it is the whole
-- order's (BH-C1 of 11 by the 2024 rules: 12.0, as published).
SELECT player, typeof(points), points, match_points, buchholz_cut1, sonneborn_berger
  FROM standings('tec', 'points,buchholz_cut1,sonneborn_berger(rules=2024)')
 WHERE player IN (4, 11) ORDER BY player;
-- expect:
-- 4|real|3.5|3.5|11.5|9.75
-- 11|real|2.5|2.5|12.0|5.75

-- case: tec_aliases
-- C.07 codes name the tiebreakers, in any case, with '/' or '-': by the
-- 2024 rules 8 and 11 tie on BH-C1 (12) and BH (13.5); SB (5.25 and 5.75,
-- as published) puts 11 first.
SELECT rank, player, decided_by FROM standings('tec', 'PTS,bh/c1(rules=2024),BH,sb')
 WHERE points = 2.5;
-- expect:
-- 7|11|points
-- 8|8|sonneborn_berger
-- 9|5|buchholz_cut1

-- case: tec_rule_years_not_mixed
-- The rule year applies to the whole order: written twice, it is an error.
SELECT * FROM standings('tec', 'pts,bh_c1(rules=2024),bh(rules=2026)');
-- error: standings(): option rules is given twice in policy 'pts,bh_c1(rules=2024),bh(rules=2026)': it applies to the whole policy, write it once

-- case: tec_named_policy_then_more
-- A named policy's options are written once, then more tiebreakers follow.
SELECT player, buchholz_cut1, aro_cut1 FROM standings('tec', 'fide(rules=2024),ARO-C1')
 WHERE player IN (4, 12) ORDER BY player;
-- expect:
-- 4|11.5|1983
-- 12|9.5|

-- case: withdrawal_counts_as_draws_for_opponents
SELECT player, points, buchholz, buchholz_cut1, sonneborn_berger, dropped
  FROM standings('wd', 'fide(rules=2024)') ORDER BY player;
-- expect:
-- A|2.5|4.0|4.0|2.75|0
-- B|1.0|3.5|2.5|0.0|1
-- C|2.5|5.0|5.0|3.75|0
-- D|0.0|6.5|5.0|0.0|0

-- case: withdrawal_2026_caps
-- C's bye dummy is capped at 1.5 (16.4.2); B's dummy (1) is under the cap.
-- BH-C1 C 2026: contributions 0, 2.5, 1.5, no VUR: 4 - 0 = 4.
SELECT player, buchholz, buchholz_cut1, sonneborn_berger
  FROM standings('wd', 'fide') ORDER BY player;
-- expect:
-- A|4.0|4.0|2.75
-- B|3.5|2.5|0.0
-- C|4.0|4.0|2.75
-- D|6.5|5.0|0.0

-- case: withdrawal_own_games
-- WIN counts C's bye; BPG: player_b had Black.
SELECT player, rounds_won, games_won, black_games, progressive, progressive_cut1
  FROM standings('wd', 'points,rounds_won,games_won,black_games,progressive,progressive_cut1')
 ORDER BY player;
-- expect:
-- A|2|2|0|5.0|4.0
-- B|1|1|1|2.0|2.0
-- C|2|1|1|5.0|4.0
-- D|0|0|3|0.0|0.0

-- case: aro_ratings
-- Unrated opponents are left out; .5 rounds up.
SELECT player, aro FROM standings('wd', 'points,aro') ORDER BY player;
-- expect:
-- A|1851
-- B|2000
-- C|2000
-- D|1900

-- case: aro_no_rated_opponent_is_null
SELECT player, aro, typeof(aro) FROM standings('late', 'points,aro') ORDER BY player;
-- expect:
-- A||null
-- B||null
-- C||null
-- E||null

-- case: aro_needs_the_players_table
DROP TABLE players;
SELECT player, aro FROM standings('wd', 'points,aro');
-- error: standings(): no such table: players (a tiebreaker of the policy needs ratings)

-- case: late_entry_absence_is_a_vur
-- E's missing round 1 is a zero-point bye: a VUR, cut first by BH-C1 and
-- BH-M1 (16.5), but 0 points for E's opponents (category 16.2.3).
SELECT player, points, buchholz, buchholz_cut1, buchholz_median1,
       sonneborn_berger, sonneborn_berger_cut1, progressive, progressive_cut1
  FROM standings('late', 'points,buchholz,buchholz_cut1,buchholz_median1,sonneborn_berger,sonneborn_berger_cut1,progressive,progressive_cut1')
 WHERE player IN ('A', 'E') ORDER BY player;
-- expect:
-- A|2.0|4.0|4.0|1.5|2.0|2.0|4.5|3.5
-- E|1.5|3.5|2.0|0.0|1.0|1.0|2.0|2.0

-- case: zero_bye_row_same_as_no_row
SELECT a.player, a.points = b.points, a.buchholz = b.buchholz,
       a.buchholz_cut1 = b.buchholz_cut1, a.sonneborn_berger = b.sonneborn_berger,
       a.rank = b.rank
  FROM standings('late', 'fide') AS a JOIN standings('late0', 'fide') AS b USING (player)
 ORDER BY a.player;
-- expect:
-- A|1|1|1|1|1
-- B|1|1|1|1|1
-- C|1|1|1|1|1
-- E|1|1|1|1|1

-- case: progressive_published_example
SELECT player, points, progressive, progressive_cut1
  FROM standings('ps', 'points,progressive,progressive_cut1') WHERE player = 'P';
-- expect:
-- P|2.5|6.5|5.5

-- case: median_buchholz_example
SELECT player, points, buchholz, buchholz_median1
  FROM standings('med', 'points,buchholz,buchholz_median1')
 WHERE player IN ('P1', 'P2') ORDER BY player;
-- expect:
-- P1|0.0|24.0|16.0
-- P2|0.0|26.0|18.0

-- case: direct_encounter_all_met
SELECT rank, player, direct_encounter, decided_by FROM standings('rr4', 'direct_encounter');
-- expect:
-- 1|A|1|
-- 2|B|2|direct_encounter
-- 3|D|3|direct_encounter
-- 4|C|4|direct_encounter

-- case: direct_encounter_after_points
-- A and B tie on 2 points; A beat B.
SELECT rank, player, points, direct_encounter, decided_by
  FROM standings('rr4', 'points,direct_encounter');
-- expect:
-- 1|A|2.0|1|
-- 2|B|2.0|2|direct_encounter
-- 3|D|1.5|1|points
-- 4|C|0.5|1|points

-- case: direct_encounter_swiss_alone_on_top
SELECT rank, player, direct_encounter, decided_by FROM standings('sw4', 'direct_encounter');
-- expect:
-- 1|W|1|
-- 2|X|2|direct_encounter
-- 3|Y|3|direct_encounter
-- 3|Z|3|

-- case: direct_encounter_swiss_not_decided
SELECT rank, player, direct_encounter, decided_by FROM standings('sw3', 'direct_encounter');
-- expect:
-- 1|X|1|
-- 1|Y|1|
-- 1|Z|1|

-- case: direct_encounter_averages_repeated_games
SELECT rank, player, direct_encounter FROM standings('rep', 'direct_encounter');
-- expect:
-- 1|B|1
-- 2|C|2
-- 3|A|3

-- case: direct_encounter_large_group_alone_on_top
SELECT direct_encounter, count(*), min(player), max(player)
  FROM standings('star', 'direct_encounter') GROUP BY 1 ORDER BY 1;
-- expect:
-- 1|1|0|0
-- 2|20|1|20

-- case: direct_encounter_large_group_all_met
SELECT count(*), sum(rank = player), sum(direct_encounter = player)
  FROM standings('rr17', 'direct_encounter');
-- expect:
-- 17|17|17

-- case: as_of_round
-- After round 2 of 'wd' nobody has an unplayed round yet: A 1.5, B 1, C 1.5,
-- D 0.  BH A = 1 + 1.5, B = 1.5 + 0, C = 0 + 1.5, D = 1.5 + 1.
SELECT player, points, buchholz, dropped FROM standings('wd', 'fide', NULL, 2)
 ORDER BY player;
-- expect:
-- A|1.5|2.5|0
-- B|1.0|1.5|0
-- C|1.5|1.5|0
-- D|0.0|2.5|0

-- case: rules_2025_is_an_error
SELECT * FROM standings('tec', 'fide(rules=2025)');
-- error: standings(): rules must be 2024 or 2026, got '2025'

-- case: rules_not_a_year_is_an_error
SELECT * FROM standings('tec', 'points,buchholz(rules=latest)');
-- error: standings(): rules must be 2024 or 2026, got 'latest'

-- case: rules_2023_is_an_error
SELECT * FROM standings('tec', 'fide(rules=2023)');
-- error: standings(): rules must be 2024 or 2026, got '2023'

-- case: policy_listed
SELECT name, tiebreakers, also_shown FROM tiebreak_policies WHERE name = 'fide';
-- expect:
-- fide|points,buchholz_cut1,buchholz,sonneborn_berger,direct_encounter,rounds_won,games_won,black_games|buchholz_median1,sonneborn_berger_cut1,progressive

-- case: perf_aro_tpr_apro
-- ARO (10.1): A (1900 + 1500 + 1700) / 3 = 1700; B 5200 / 3 = 1733.3 ->
-- 1733; C 5400 / 3 = 1800; D 5600 / 3 = 1866.7 -> 1867.  ARO-C1 A:
-- (1900 + 1700) / 2 = 1800.  TPR (10.2) = ARO + dp(p), p rounded to
-- hundredths (B.02 8.1.a): A 2.5 / 3 = .83 -> +273 = 1973; B and C .50 ->
-- +0; D .17 -> -273 = 1594.  APRO (10.4) A = (1733 + 1594 + 1800) / 3 =
-- 1709; B (1973 + 1800 + 1594) / 3 = 1789; C (1594 + 1733 + 1973) / 3 =
-- 1766.7 -> 1767; D (1800 + 1973 + 1733) / 3 = 1835.3 -> 1835.  ARO-C1
-- cuts B's, C's 1500 and D's 1700.
SELECT player, aro, aro_cut1, tpr, apro
  FROM standings('perf', 'points,ARO,ARO/C1,TPR,APRO') ORDER BY player;
-- expect:
-- A|1700|1800|1973|1709
-- B|1733|1850|1733|1789
-- C|1800|1950|1800|1767
-- D|1867|1950|1594|1835

-- case: perf_ptp_appo
-- PTP (10.3), the lowest R whose expected score (8.1.b, sums of
-- hundredths) reaches the score.  A 2.5 at R = 2018: differences 118, 518,
-- 318 give .66 + .97 + .87 = 2.50; at 2017, 517 gives .96: 2.49.  B 1.5
-- at 1726: -274, 26, 226 give .17 + .54 + .79 = 1.50 (1725: 1.48).  C 1.5
-- at 1812: 312, -88, -188 give .86 + .38 + .26 (1811: 1.49).  D 0.5 at
-- 1563: -137, -437, -337 give .32 + .06 + .12 (1562: .49).  APPO (10.5)
-- A = (1726 + 1563 + 1812) / 3 = 1700.3 -> 1700; B (2018 + 1812 + 1563)
-- / 3 = 1797.7 -> 1798; C (1563 + 1726 + 2018) / 3 = 1769; D (1812 + 2018
-- + 1726) / 3 = 1852.
SELECT player, ptp, appo FROM standings('perf', 'points,PTP,APPO') ORDER BY player;
-- expect:
-- A|2018|1700
-- B|1726|1798
-- C|1812|1769
-- D|1563|1852

-- case: perf_bwg_rep_aob_koya
-- BWG (7.4): only A won with Black (round 2).  REP (7.6): three rounds
-- each, no unplayed round.  AOB (8.2): the Buchholz are A 3.5, B 4.5,
-- C 4.5, D 5.5; A (4.5 + 5.5 + 4.5) / 3, B and C (3.5 + 4.5 + 5.5) / 3,
-- D (4.5 + 3.5 + 4.5) / 3.  KS (9.2): half of the 3 games is 1.5: A, B, C qualify; A
-- scored 1 + .5 against B and C, B .5 (C), C .5 + .5, D .5 (C).
SELECT player, black_wins, rounds_elected, round(aob, 6), koya
  FROM standings('perf', 'points,BWG,GE,AOB,KS') ORDER BY player;
-- expect:
-- A|1|3|4.833333|1.5
-- B|0|3|4.5|0.5
-- C|0|3|4.5|1.0
-- D|0|3|4.166667|0.5

-- case: perf_koya_limit
-- KS/L1: the limit 1.5 moved up by one half point, 2.0: only A (2.5)
-- counts; C drew A.
SELECT player, koya FROM standings('perf', 'points,KS(ks_limit=1)') ORDER BY player;
-- expect:
-- A|0.0
-- B|0.0
-- C|0.5
-- D|0.0

-- case: wd_unrated_rating
-- unrated=1000: D counts as 1000 in its opponents' ARO.  A met B, C, D:
-- (1801 + 1900 + 1000) / 3 = 1567 (without it D is left out: 1851); B
-- (2000 + 1000) / 2; C (1000 + 2000) / 2; D (1900 + 1801 + 2000) / 3.
SELECT player, aro FROM standings('wd', 'points,aro(unrated=1000)') ORDER BY player;
-- expect:
-- A|1567
-- B|1500
-- C|1500
-- D|1900

-- case: tec_published_rating_tiebreaks
-- The exercise's published ARO, ARO-C1, TPR and APRO (rules of 2024) of
-- players 4 and 12: 12 met only 4 over the board, so nothing is left
-- after the cut.
SELECT player, aro, aro_cut1, tpr, apro FROM standings('tec', 'points,ARO,ARO/C1,TPR,APRO')
 WHERE player IN (1, 4, 12) ORDER BY player;
-- expect:
-- 1|1820|1900|1969|1789
-- 4|1888|1983|2081|1772
-- 12|2050||1250|2081


-- case: sbt_sb_cut1_tied_lowest_scores
-- L's forfeit win meets a dummy (16.4): L's own 2, capped under the 2026
-- rules at F's adjusted 1 (16.4.1); contribution 1 x 1.  L lost to X (1):
-- 1 x 0.  Beat Z (1.5): 1.5.  SB 2.5.  The lowest score, 1, is both the
-- dummy's and X's: the least significant value is the lower contribution,
-- X's 0, so SB-C1 stays 2.5.  BH-C1 cuts a 1 either way: 3.5 - 1.  Under
-- the 2024 rules the dummy is 2 (not lowest): SB 2 + 0 + 1.5, cut X's 0.
SELECT rules, sonneborn_berger, sonneborn_berger_cut1, buchholz_cut1 FROM (
  SELECT 2026 AS rules, * FROM standings('sbt', 'PTS,SB,SB/C1,BH/C1') UNION ALL
  SELECT 2024, * FROM standings('sbt', 'PTS,SB,SB/C1,BH/C1(rules=2024)'))
 WHERE player = 'L' ORDER BY rules;
-- expect:
-- 2024|3.5|3.5|3.5
-- 2026|2.5|2.5|2.5

-- case: ratings_table_argument
-- The ratings come from the table ratings_table names (default players):
-- here A's opponents are rated 1000 apart from the players table's.
CREATE TABLE other_ratings (event_id, player, rating);
INSERT INTO other_ratings SELECT event_id, player, rating - 1000 FROM players WHERE event_id = 'perf';
SELECT player, aro FROM standings('perf', 'points,aro', NULL, NULL, NULL, NULL, 'other_ratings')
 WHERE player = 'A';
-- expect:
-- A|700

-- case: ratings_table_named_by_argument_is_quoted
SELECT * FROM standings('perf', 'points,aro', NULL, NULL, NULL, NULL, 'x"y; DROP TABLE matches');
-- error: standings(): no such table: x"y; DROP TABLE matches (a tiebreaker of the policy needs ratings)

-- case: players_table_must_be_text
-- the seventh argument is players_table (ratings_table is its old name)
SELECT * FROM standings('perf', 'points,aro', NULL, NULL, NULL, NULL, 5);
-- error: standings(): players_table must be text

-- case: ratings_table_must_be_text
SELECT * FROM standings WHERE event_id = 'perf' AND policy = 'points,aro' AND ratings_table = 5;
-- error: standings(): ratings_table must be text

-- case: ratings_table_by_its_old_name
-- ratings_table still names the table, as players_table does
CREATE TABLE other_ratings (event_id, player, rating);
INSERT INTO other_ratings SELECT event_id, player, rating - 1000 FROM players WHERE event_id = 'perf';
SELECT player, aro FROM standings
 WHERE event_id = 'perf' AND policy = 'points,aro' AND ratings_table = 'other_ratings'
   AND player = 'A';
-- expect:
-- A|700

-- case: players_table_and_ratings_table_agree
CREATE TABLE other_ratings (event_id, player, rating);
INSERT INTO other_ratings SELECT event_id, player, rating - 1000 FROM players WHERE event_id = 'perf';
SELECT player, aro FROM standings
 WHERE event_id = 'perf' AND policy = 'points,aro' AND ratings_table = 'other_ratings'
   AND players_table = 'other_ratings' AND player = 'A';
-- expect:
-- A|700

-- case: players_table_and_ratings_table_differ
CREATE TABLE other_ratings (event_id, player, rating);
INSERT INTO other_ratings SELECT event_id, player, rating - 1000 FROM players WHERE event_id = 'perf';
SELECT player, aro FROM standings
 WHERE event_id = 'perf' AND policy = 'points,aro' AND ratings_table = 'other_ratings'
   AND players_table = 'players';
-- error: standings(): players_table 'players' and ratings_table 'other_ratings' differ (ratings_table is the old name of players_table)

-- case: rr_round_robin_forfeits_are_games
-- 15.2: the forfeit C-D is a game for SB and the player's own wins.  SB:
-- C = D 1 x 1 + B 0.5 x 0.5 + A 2 x 1 = 3.25; A = B 0.5 + D 1 = 1.5; B = C
-- 2.5 x 0.5 = 1.25; D = B 0.5 = 0.5.  WON: C 2 (the forfeit counts), D 1.
-- BPG: a forfeit lost stays unplayed: D had Black in rounds 1 and 3, only
-- round 3 counts.  KS: 3 games, limit 1.5: A (2) and C (2.5) count; C
-- scored 1 against A, B 0.5 against C.
SELECT rank, player, points, sonneborn_berger, games_won, black_games, koya, buchholz
  FROM standings('rr', 'fide_rr,BPG,BH') ORDER BY rank;
-- expect:
-- 1|C|2.5|3.25|2|2|1.0|3.5
-- 2|A|2.0|1.5|2|1|0.0|4.0
-- 3|D|1.0|0.5|1|1|0.0|5.0
-- 4|B|0.5|1.25|0|1|0.5|5.5

-- case: rr_swiss_rules_differ
-- The same event as a Swiss by the 2024 rules: C's forfeit meets a dummy
-- at C's own 2.5 (16.4): SB 2.5 + 0.25 + 2 = 4.75, and WON counts 1.
SELECT player, sonneborn_berger, games_won
  FROM standings('rr', 'PTS,SB,WON(rules=2024, round_robin=0)') WHERE player = 'C';
-- expect:
-- C|4.75|1

-- case: rr_detected_from_the_pairings
-- No option: every two of the four players met once, so 'fide' treats the
-- event as the round robin it is (the values of fide_rr above: C's forfeit
-- win is a game, SB 3.25 and WON 2); round_robin=0 makes it a Swiss (WON 1).
SELECT player, sonneborn_berger, games_won FROM standings('rr', 'fide') WHERE player = 'C'
UNION ALL
SELECT player, sonneborn_berger, games_won FROM standings('rr', 'fide(round_robin=0)')
 WHERE player = 'C';
-- expect:
-- C|3.25|2
-- C|3.25|1

-- case: rr_double_round_robin_detected
-- Three players, each pair twice (rounds 1-3, then 4-6 with colours
-- reversed); the player without a game in a round has no row.  Round 4:
-- A wins by forfeit against B.  As a double round robin (15.2) the forfeit
-- is a game: A's WON 3 (rounds 1, 3, 4) and SB = B 0.5 x 1 (round 1) + C 2
-- x 1 + B 0.5 x 1 (round 4) + C 2 x 0.5 = 4.  As a Swiss (round_robin=0,
-- 2026 rules) A's WON is 2, and the forfeit meets a dummy at B's adjusted
-- score (16.4.1): B's last round, 6, is an absence after round 5's game,
-- a draw for the others (16.3): 0.5 + 0.5 = 1; A's SB = B 1 x 1 + C 2 x 1 +
-- dummy 1 x 1 + C 2 x 0.5 = 5 (A's round-2 absence scores 0).  C's and B's
-- values are the round robin's: C = B 0.5 x 0.5 + B 0.5 x 1 + A 3.5 x 0.5.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('drr', 1, 'A', 'B', 1, 0, 0, NULL), ('drr', 2, 'B', 'C', 0, 0, 1, NULL),
  ('drr', 3, 'C', 'A', 0, 1, 0, NULL), ('drr', 4, 'B', 'A', 0, 0, 0, 'forfeit_b'),
  ('drr', 5, 'C', 'B', 1, 0, 0, NULL), ('drr', 6, 'A', 'C', 0, 0, 1, NULL);
SELECT * FROM (SELECT rank, player, points, games_won, sonneborn_berger
                 FROM standings('drr', 'fide') ORDER BY rank)
UNION ALL
SELECT 'swiss', player, points, games_won, sonneborn_berger
  FROM standings('drr', 'fide(round_robin=0)') WHERE player = 'A';
-- expect:
-- 1|A|3.5|3|4.0
-- 2|C|2.0|1|2.5
-- 3|B|0.5|0|1.0
-- swiss|A|3.5|2|5.0

-- case: rr_not_detected_when_a_pair_repeats
-- Three pairings among three players, as many as a round robin has, but A
-- and B met twice and A never met C: a Swiss, so A's forfeit win in round 2
-- is no game (WON 1); selected as a round robin it is one (WON 2).
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('rep3', 1, 'A', 'B', 1, 0, 0, NULL), ('rep3', 2, 'A', 'B', 0, 0, 0, 'forfeit_a'),
  ('rep3', 3, 'B', 'C', 0, 0, 1, NULL);
SELECT player, games_won FROM standings('rep3', 'fide') WHERE player = 'A'
UNION ALL
SELECT player, games_won FROM standings('rep3', 'fide(round_robin=1)') WHERE player = 'A';
-- expect:
-- A|1
-- A|2

-- case: p_modifier_forfeit_is_a_game
-- /P (a Swiss event's forfeits as games against the scheduled opponent).
-- Event 'fx' is sql/example.trf: 3 lost to 2 by forfeit in round 2.  The
-- adjusted scores (16.3): 1 2.5; 2 1 + 0.5 = 1.5 (round 3, a zero-point bye,
-- the last round, counts as a draw); 3 1; 4 2 (the half-point bye was
-- followed by a game); 5 1.  Player 3, Swiss (2026): 4 2 + dummy min(own 1,
-- 2's 1.5) = 1 + 1 2.5 = 5.5; Cut-1 removes the VUR's 1: 4.5.  With /P the
-- forfeit is a game against 2 (1.5): BH 6, and no VUR is left, so Cut-1
-- removes the least value, 1.5: 4.5.  SB: 3 scored 0 in round 2 either way:
-- 2 x 0.5 + 2.5 x 0.5 = 2.25.  Player 2 won it: the dummy (min(1, 3's 1) =
-- 1) and 3 (1) weigh the same, BH 2.5 + 1 + 1 (round 3's dummy) = 4.5.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('fx', 1, 1, 2, 1, 0, 0, NULL), ('fx', 1, 3, 4, 0, 0, 1, NULL), ('fx', 1, 5, NULL, 0, 0, 0, NULL),
  ('fx', 2, 5, 1, 0, 1, 0, NULL), ('fx', 2, 2, 3, 0, 0, 0, 'forfeit_a'),
  ('fx', 2, 4, NULL, 0, 0, 0, 'half_bye'),
  ('fx', 3, 1, 3, 0, 0, 1, NULL), ('fx', 3, 4, 5, 1, 0, 0, NULL), ('fx', 3, 2, NULL, 0, 0, 0, 'zero_bye');
SELECT 'swiss', player, buchholz, buchholz_cut1, sonneborn_berger
  FROM standings('fx', 'PTS,BH,BH/C1,SB') WHERE player IN (2, 3)
UNION ALL
SELECT '/P', player, buchholz, buchholz_cut1, sonneborn_berger
  FROM standings('fx', 'pts,bh/p,BH-C1/P,SB/P') WHERE player IN (2, 3);
-- expect:
-- swiss|3|5.5|4.5|2.25
-- swiss|2|4.5|3.5|1.0
-- /P|3|6.0|4.5|2.25
-- /P|2|4.5|3.5|1.0

-- case: p_modifier_direct_encounter
-- A beat B by forfeit, and both end on 1 point.  Direct encounter leaves
-- forfeits out (6.1.1): A and B never met, either could win the missing
-- game (6.3), they stay level.  DE/P counts the forfeit as their game: they
-- all met (6.2), A 1, B 0.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('dp', 1, 'A', 'B', 0, 0, 0, 'forfeit_a'), ('dp', 1, 'C', 'D', 0, 0, 1, NULL),
  ('dp', 2, 'C', 'A', 1, 0, 0, NULL), ('dp', 2, 'B', 'D', 1, 0, 0, NULL);
SELECT 'DE', player, direct_encounter FROM standings('dp', 'PTS,DE') WHERE player IN ('A', 'B')
UNION ALL
SELECT 'DE/P', player, direct_encounter FROM standings('dp', 'PTS,DE/P')
 WHERE player IN ('A', 'B');
-- expect:
-- DE|A|1
-- DE|B|1
-- DE/P|A|1
-- DE/P|B|2

-- case: p_modifier_where_it_means_nothing
SELECT * FROM standings('dp', 'PTS,FB/P');
-- error: standings(): option forfeits_played does nothing on fore_buchholz in policy 'PTS,FB/P': fore_buchholz does not read it

-- case: p_modifier_unknown
SELECT * FROM standings('dp', 'PTS,BH/Q');
-- error-match: standings(): unknown policy or tiebreaker 'BH/Q' (policies: *

-- case: ks_limit_as_code_modifier
-- KS/L-2 is koya(ks_limit=-2): the limit, half of 3 games = 1.5, less 2
-- half points: 0.5, which every player of 'rr' reached.  C: D 1 (the
-- forfeit, a game in this round robin) + B 0.5 + A 1 = 2.5; B: A 0 + C 0.5
-- + D 0 = 0.5.  KS/L+1: limit 2: A (2) and C (2.5); B scored 0.5 against C.
SELECT player, koya FROM standings('rr', 'PTS,KS/L-2') WHERE player IN ('B', 'C')
UNION ALL
SELECT player, koya FROM standings('rr', 'PTS,KS(ks_limit=-2)') WHERE player IN ('B', 'C')
UNION ALL
SELECT player, koya FROM standings('rr', 'PTS,ks/l+1') WHERE player = 'B';
-- expect:
-- C|2.5
-- B|0.5
-- C|2.5
-- B|0.5
-- B|0.5

-- case: ks_limit_modifier_and_option_twice
SELECT * FROM standings('rr', 'PTS,KS/L+1(ks_limit=2)');
-- error: standings(): option ks_limit is given twice in policy 'PTS,KS/L+1(ks_limit=2)': it applies to the whole policy, write it once

-- case: tpn_start_number_lower_first
-- TPN (2026): 2, 3 and 5 of 'fx' end on 1 point; start numbers order them.
-- A text id is no start number: NULL, and the tie stays.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('fx', 1, 1, 2, 1, 0, 0, NULL), ('fx', 1, 3, 4, 0, 0, 1, NULL), ('fx', 1, 5, NULL, 0, 0, 0, NULL),
  ('fx', 2, 5, 1, 0, 1, 0, NULL), ('fx', 2, 2, 3, 0, 0, 0, 'forfeit_a'),
  ('fx', 2, 4, NULL, 0, 0, 0, 'half_bye'),
  ('fx', 3, 1, 3, 0, 0, 1, NULL), ('fx', 3, 4, 5, 1, 0, 0, NULL), ('fx', 3, 2, NULL, 0, 0, 0, 'zero_bye');
SELECT rank, player, pairing_number, decided_by FROM standings('fx', 'PTS,TPN')
UNION ALL
SELECT rank, player, pairing_number, decided_by FROM standings('wd', 'PTS,TPN')
 WHERE player IN ('A', 'C');
-- expect:
-- 1|1|1|
-- 2|4|4|points
-- 3|2|2|points
-- 4|3|3|pairing_number
-- 5|5|5|pairing_number
-- 1|A||
-- 1|C||

-- case: rtng_own_rating_higher_first
-- RTNG (2026): A (2000) and C (1900) of 'wd' tie on 2.5 points; B 1801; D
-- is unrated: NULL and last, or with unrated=1850 between C and B (a
-- rating, not a place: D has fewer points and stays last).
SELECT rank, player, own_rating, decided_by FROM standings('wd', 'PTS,RTNG')
UNION ALL
SELECT rank, player, own_rating, decided_by FROM standings('wd', 'PTS,RTNG(unrated=1850)')
 WHERE player = 'D';
-- expect:
-- 1|A|2000|
-- 2|C|1900|own_rating
-- 3|B|1801|points
-- 4|D||points
-- 4|D|1850|points

-- case: sb_cut1_lowest_vur_contribution_2026
-- 16.5.1 cuts "the lowest contribution" of the VURs, not the VUR whose
-- dummy scores lowest.  P (2.5 points, 4 rounds): round 1 a half-point
-- bye, round 2 a forfeit loss to O (adjusted 3.5), then wins over X (0) and
-- Y (1).  2026: the bye's dummy is capped at 1/2 x 4 = 2 (16.4.2), the
-- forfeit's at min(2.5, O's 3.5) = 2.5 (16.4.1).  SB = 2 x 1/2 + 2.5 x 0 +
-- 0 x 1 + 1 x 1 = 2.  VUR contributions 1 and 0: the lowest is 0 (the
-- forfeit); the least significant value is X's 0 (14.1.1.4); the higher of
-- the two is 0, SB-C1 = 2.  (Taking the VUR whose dummy scores lowest, the
-- bye's 1, would give 1.)  2024: both dummies score 2.5, SB = 1.25 + 0 + 0
-- + 1 = 2.25, and the cut is 0 by either reading.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('vc', 1, 'P', NULL, 0, 0, 0, 'half_bye'), ('vc', 1, 'O', 'X', 1, 0, 0, NULL),
  ('vc', 1, 'Y', 'A', 0, 1, 0, NULL), ('vc', 1, 'B', NULL, 0, 0, 0, NULL),
  ('vc', 2, 'P', 'O', 0, 0, 0, 'forfeit_b'), ('vc', 2, 'X', 'A', 0, 1, 0, NULL),
  ('vc', 2, 'Y', 'B', 0, 1, 0, NULL),
  ('vc', 3, 'P', 'X', 1, 0, 0, NULL), ('vc', 3, 'O', 'A', 1, 0, 0, NULL),
  ('vc', 3, 'B', 'Y', 0, 1, 0, NULL),
  ('vc', 4, 'P', 'Y', 1, 0, 0, NULL), ('vc', 4, 'X', 'B', 0, 1, 0, NULL),
  ('vc', 4, 'O', 'A', 0, 0, 1, NULL);
SELECT '2026', player, sonneborn_berger, sonneborn_berger_cut1
  FROM standings('vc', 'PTS,SB,SB/C1') WHERE player = 'P'
UNION ALL
SELECT '2024', player, sonneborn_berger, sonneborn_berger_cut1
  FROM standings('vc', 'PTS,SB,SB/C1(rules=2024)') WHERE player = 'P';
-- expect:
-- 2026|P|2.0|2.0
-- 2024|P|2.25|2.25

-- case: std_standard_points
-- STD (2026, 7.7): per round 1 if the player scored more than the scheduled
-- opponent, 1/2 if the same; without an opponent, the points against a
-- draw's.  A: win 1, draw 1/2, double loss against E (0 = 0) 1/2: 2 (1.5
-- points).  B: loss, forfeit loss, zero-point bye: 0.  C: double forfeit
-- 0 (obtained without playing, less than a draw's: 7.7's second clause),
-- draw 1/2, loss 0: 1/2.  D: double forfeit 0, forfeit win 1, win 1: 2.
-- E: pairing-allocated bye 1, half-point bye 1/2, double loss 1/2: 2.
-- (TieBreakServer agrees: 0 for each side of a double forfeit.)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('std', 1, 'A', 'B', 1, 0, 0, NULL), ('std', 1, 'C', 'D', 0, 0, 0, 'double_forfeit'),
  ('std', 1, 'E', NULL, 0, 0, 0, NULL),
  ('std', 2, 'A', 'C', 0, 0, 1, NULL), ('std', 2, 'B', 'D', 0, 0, 0, 'forfeit_b'),
  ('std', 2, 'E', NULL, 0, 0, 0, 'half_bye'),
  ('std', 3, 'A', 'E', 0, 0, 0, 'double_loss'), ('std', 3, 'B', NULL, 0, 0, 0, 'zero_bye'),
  ('std', 3, 'C', 'D', 0, 1, 0, NULL);
SELECT player, points, standard_points FROM standings('std', 'PTS,STD') ORDER BY player;
-- expect:
-- A|1.5|2.0
-- B|0.0|0.0
-- C|0.5|0.5
-- D|2.0|2.0
-- E|1.5|2.0

-- case: rr_option_on_custom_order
SELECT player, sonneborn_berger FROM standings('rr', 'PTS,SB(round_robin=1)') WHERE player = 'C';
-- expect:
-- C|3.25

-- case: perf_aro_cuts
-- A met 1900, 1500, 1700: ARO-C2 leaves 1900; ARO-M1 leaves 1700; ARO-M2
-- leaves nothing (NULL).  D met 1700, 2000, 1900: C2 2000, M1 1900.
SELECT player, aro_cut2, aro_median1, aro_median2
  FROM standings('perf', 'PTS,ARO/C2,ARO/M1,ARO/M2') WHERE player IN ('A', 'D') ORDER BY player;
-- expect:
-- A|1900|1700|
-- D|2000|1900|

-- case: perf_fore_buchholz
-- FB (8.3): the last round drawn.  A-C was drawn; B-D (1-0) becomes a
-- draw: B 1.5 - 1 + 0.5 = 1, D 0.5 - 0 + 0.5 = 1; A 2.5 and C 1.5 stay.
-- FB A = B 1 + D 1 + C 1.5 = 3.5, FB-C1 less a 1: 2.5; B = 2.5 + 1.5 + 1;
-- C = 1 + 1 + 2.5; D = 1.5 + 2.5 + 1.
SELECT player, fore_buchholz, fore_buchholz_cut1 FROM standings('perf', 'PTS,FB,FB/C1')
 ORDER BY player;
-- expect:
-- A|3.5|2.5
-- B|5.0|4.0
-- C|4.5|3.5
-- D|5.0|4.0

-- case: ptp_tpr_extremes
-- One game, A (2000) beats B (1800).  TPR: 1800 + dp(1.00) = 2600 and
-- 2000 + dp(0) = 1200.  PTP: a zero score is the lowest opponent - 800
-- (1200); a perfect one the lowest R with every expectation 1, a
-- difference above 735: 1800 + 736.
CREATE TABLE duel_ratings (event_id, player, rating);
INSERT INTO duel_ratings VALUES ('duel', 'A', 2000), ('duel', 'B', 1800);
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)
  VALUES ('duel', 1, 'A', 'B', 1, 0, 0);
SELECT player, tpr, ptp FROM standings('duel', 'PTS,TPR,PTP', NULL, NULL, NULL, NULL, 'duel_ratings')
 ORDER BY player;
-- expect:
-- A|2600|2536
-- B|1200|1200

-- case: sb_cuts_and_medians
-- SB/C2, SB/M1, SB/M2 (14.2 to 14.4) by hand.  H drew A (3 points), beat
-- B (3), beat C (1), drew D (1); every round played, so Article 16 adds
-- nothing.  SB = 1.5 + 3 + 1 + 0.5 = 6.  The least significant value
-- (14.1.1.4): the lowest score is 1 (C and D), the lower contribution D's
-- 0.5: SB/C1 = 5.5; then C's 1: SB/C2 = 4.5.  The most significant value,
-- the same rule the other way: the highest score is 3 (A and B), the
-- higher contribution B's 3: SB/M1 = 6 - 0.5 - 3 = 2.5; SB/M2 = 6 - 0.5 -
-- 1 - 3 - 1.5 = 0.  PS: running scores 0.5, 1.5, 2.5, 3: PS = 7.5, PS/C1
-- = 7, PS/C2 = 5.5.  The twelve F players fill the others' rounds.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('sbm', 1, 'H', 'A', 0, 0, 1), ('sbm', 1, 'B', 'F1', 1, 0, 0),
  ('sbm', 1, 'C', 'F2', 1, 0, 0), ('sbm', 1, 'D', 'F3', 0, 0, 1),
  ('sbm', 2, 'H', 'B', 1, 0, 0), ('sbm', 2, 'A', 'F4', 1, 0, 0),
  ('sbm', 2, 'C', 'F5', 0, 1, 0), ('sbm', 2, 'D', 'F6', 0, 1, 0),
  ('sbm', 3, 'H', 'C', 1, 0, 0), ('sbm', 3, 'A', 'F7', 1, 0, 0),
  ('sbm', 3, 'B', 'F8', 1, 0, 0), ('sbm', 3, 'D', 'F9', 0, 1, 0),
  ('sbm', 4, 'H', 'D', 0, 0, 1), ('sbm', 4, 'A', 'F10', 0, 0, 1),
  ('sbm', 4, 'B', 'F11', 1, 0, 0), ('sbm', 4, 'C', 'F12', 0, 1, 0);
SELECT player, points, sonneborn_berger, sonneborn_berger_cut1, sonneborn_berger_cut2,
       sonneborn_berger_median1, sonneborn_berger_median2, progressive,
       progressive_cut1, progressive_cut2
  FROM standings('sbm', 'PTS,SB,SB/C1,SB/C2,SB-M1,sb_m2,PS,PS/C1,PS/C2') WHERE player = 'H';
-- expect:
-- H|3.0|6.0|5.5|4.5|2.5|0.0|7.5|7.0|5.5

-- case: sb_cuts_with_vurs
-- Event vc (above): P's elements (opponent's score, contribution) are,
-- 2026: the bye's dummy (2, 1, a VUR), the forfeit's dummy (2.5, 0, a
-- VUR), X (0, 0), Y (1, 1); SB = 2.  Cut 1 (16.5.1): the lowest VUR
-- contribution, the forfeit's 0, is not lower than the least significant
-- value (X's 0): it is cut.  Cut 2 (16.5.2, again on what is left): the
-- bye's 1 against X's 0: the bye, SB/C2 = 1.  SB/M1: after the forfeit,
-- the highest score is the bye's dummy (2): 2 - 0 - 1 = 1.  SB/M2: after
-- the two VURs, Y then X: 0.  2024: both dummies score 2.5, the bye's
-- contribution 1.25: SB 2.25, C2 = M1 = 2.25 - 1.25 = 1, M2 = 0.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('vc', 1, 'P', NULL, 0, 0, 0, 'half_bye'), ('vc', 1, 'O', 'X', 1, 0, 0, NULL),
  ('vc', 1, 'Y', 'A', 0, 1, 0, NULL), ('vc', 1, 'B', NULL, 0, 0, 0, NULL),
  ('vc', 2, 'P', 'O', 0, 0, 0, 'forfeit_b'), ('vc', 2, 'X', 'A', 0, 1, 0, NULL),
  ('vc', 2, 'Y', 'B', 0, 1, 0, NULL),
  ('vc', 3, 'P', 'X', 1, 0, 0, NULL), ('vc', 3, 'O', 'A', 1, 0, 0, NULL),
  ('vc', 3, 'B', 'Y', 0, 1, 0, NULL),
  ('vc', 4, 'P', 'Y', 1, 0, 0, NULL), ('vc', 4, 'X', 'B', 0, 1, 0, NULL),
  ('vc', 4, 'O', 'A', 0, 0, 1, NULL);
SELECT '2026', sonneborn_berger_cut2, sonneborn_berger_median1, sonneborn_berger_median2
  FROM standings('vc', 'PTS,SB/C2,SB/M1,SB/M2') WHERE player = 'P'
UNION ALL
SELECT '2024', sonneborn_berger_cut2, sonneborn_berger_median1, sonneborn_berger_median2
  FROM standings('vc', 'PTS,SB/C2,SB/M1,SB/M2(rules=2024)') WHERE player = 'P';
-- expect:
-- 2026|1.0|1.0|0.0
-- 2024|1.0|1.0|0.0

-- case: sb_cut2_forfeits_played
-- /P on SB/C2: P's forfeit loss becomes a game lost to O (3.5): 0, no
-- longer a VUR.  Elements: the bye's dummy (2, 1, VUR), O (3.5, 0), X (0,
-- 0), Y (1, 1): cut 1: the bye's 1 against X's 0: the bye; cut 2: no VUR
-- left, the least significant value X's 0.  SB/C2 = 2 - 1 - 0 = 1.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('vc', 1, 'P', NULL, 0, 0, 0, 'half_bye'), ('vc', 1, 'O', 'X', 1, 0, 0, NULL),
  ('vc', 1, 'Y', 'A', 0, 1, 0, NULL), ('vc', 1, 'B', NULL, 0, 0, 0, NULL),
  ('vc', 2, 'P', 'O', 0, 0, 0, 'forfeit_b'), ('vc', 2, 'X', 'A', 0, 1, 0, NULL),
  ('vc', 2, 'Y', 'B', 0, 1, 0, NULL),
  ('vc', 3, 'P', 'X', 1, 0, 0, NULL), ('vc', 3, 'O', 'A', 1, 0, 0, NULL),
  ('vc', 3, 'B', 'Y', 0, 1, 0, NULL),
  ('vc', 4, 'P', 'Y', 1, 0, 0, NULL), ('vc', 4, 'X', 'B', 0, 1, 0, NULL),
  ('vc', 4, 'O', 'A', 0, 0, 1, NULL);
SELECT sonneborn_berger_cut2 FROM standings('vc', 'PTS,SB/C2/P') WHERE player = 'P';
-- expect:
-- 1.0

-- case: ps_cut2_short_event
-- PS/C2 of a one-round event leaves nothing: 0.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('ps1', 1, 'A', 'B', 1, 0, 0);
SELECT player, progressive, progressive_cut1, progressive_cut2
  FROM standings('ps1', 'PTS,PS,PS/C1,PS/C2') ORDER BY player;
-- expect:
-- A|1.0|0.0|0.0
-- B|0.0|0.0|0.0

-- case: koya_no_show
-- A round robin of A, B, C (3 rounds, a bye each) and Z, registered but
-- never paired.  Z is no player of it: 3 players, 2 games each, Koya's
-- limit is 1 point.  A 1.5 (beat B, drew C), B 0.5, C 1 (drew B and A).
-- KS: A scored 1/2 against C (1), B 1/2 against C, C 1/2 against A.
-- (Counting Z, 4 players, 3 games: the limit would be 1.5: 0, 0, 1/2.)
-- The pairings are still a round robin's (every two of A, B, C met once).
CREATE TABLE ks_reg (event_id, player);
INSERT INTO ks_reg VALUES ('ksz', 'A'), ('ksz', 'B'), ('ksz', 'C'), ('ksz', 'Z');
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('ksz', 1, 'A', 'B', 1, 0, 0), ('ksz', 2, 'B', 'C', 0, 0, 1),
  ('ksz', 3, 'A', 'C', 0, 0, 1);
SELECT player, points, koya, games_won FROM standings('ksz', 'PTS,KS,WON', NULL, NULL, NULL, NULL, 'ks_reg')
 ORDER BY player;
-- expect:
-- A|1.5|0.5|1
-- B|0.5|0.5|0
-- C|1.0|0.5|0
-- Z|0.0|0.0|0

-- case: rr_withdrawn_rows_absent
-- A round robin of six (5 rounds, Berger tables) whose F withdrew after
-- round 2 and has no rows after it: B-F, E-F and C-F are missing.  The
-- event ran the 5 rounds of a round robin of 6, nobody met twice, no bye
-- was allocated, and A, B, D, E (more than half), who played the last
-- round, all met each other: a round robin (15.2).  So B's forfeit win
-- over C (round 4) is a game won, with the win over D: 2.  As a Swiss
-- (round_robin=0): 1.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('rrw', 1, 'A', 'F', 1, 0, 0, NULL), ('rrw', 1, 'B', 'E', 0, 1, 0, NULL),
  ('rrw', 1, 'C', 'D', 0, 0, 1, NULL),
  ('rrw', 2, 'F', 'D', 0, 1, 0, NULL), ('rrw', 2, 'E', 'C', 1, 0, 0, NULL),
  ('rrw', 2, 'A', 'B', 0, 0, 1, NULL),
  ('rrw', 3, 'C', 'A', 0, 0, 1, NULL), ('rrw', 3, 'D', 'E', 0, 1, 0, NULL),
  ('rrw', 4, 'A', 'D', 1, 0, 0, NULL), ('rrw', 4, 'B', 'C', 0, 0, 0, 'forfeit_a'),
  ('rrw', 5, 'D', 'B', 0, 1, 0, NULL), ('rrw', 5, 'E', 'A', 0, 0, 1, NULL);
SELECT 'detected', games_won FROM standings('rrw', 'fide') WHERE player = 'B'
UNION ALL
SELECT 'swiss', games_won FROM standings('rrw', 'fide(round_robin=0)') WHERE player = 'B';
-- expect:
-- detected|2
-- swiss|1

-- case: rr_in_progress_not_detected
-- The same event as of round 4 of 5: nine of fifteen pairs have met, as
-- in a Swiss event of six after four rounds; the rounds are not yet the
-- round robin's 5: a Swiss, and B's forfeit win is no game (0: a loss, a
-- draw, the forfeit).  Selected (round_robin=1), it is one: 1.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  ('rrw', 1, 'A', 'F', 1, 0, 0, NULL), ('rrw', 1, 'B', 'E', 0, 1, 0, NULL),
  ('rrw', 1, 'C', 'D', 0, 0, 1, NULL),
  ('rrw', 2, 'F', 'D', 0, 1, 0, NULL), ('rrw', 2, 'E', 'C', 1, 0, 0, NULL),
  ('rrw', 2, 'A', 'B', 0, 0, 1, NULL),
  ('rrw', 3, 'C', 'A', 0, 0, 1, NULL), ('rrw', 3, 'D', 'E', 0, 1, 0, NULL),
  ('rrw', 4, 'A', 'D', 1, 0, 0, NULL), ('rrw', 4, 'B', 'C', 0, 0, 0, 'forfeit_a'),
  ('rrw', 5, 'D', 'B', 0, 1, 0, NULL), ('rrw', 5, 'E', 'A', 0, 0, 1, NULL);
SELECT 'detected', games_won FROM standings('rrw', 'fide', NULL, 4) WHERE player = 'B'
UNION ALL
SELECT 'selected', games_won FROM standings('rrw', 'fide(round_robin=1)', NULL, 4) WHERE player = 'B';
-- expect:
-- detected|0
-- selected|1

-- case: swiss_bye_after_withdrawal_not_round_robin
-- Event wd: B withdrew and C had a pairing-allocated bye in round 3; a
-- round robin of four allocates no bye: a Swiss (B's Buchholz meets a
-- dummy in round 3).
SELECT buchholz FROM standings('wd', 'fide(rules=2024)') WHERE player = 'B';
-- expect:
-- 3.5

-- case: perf_aob_fore
-- AOB/F (8.2 of the 2026 rules: "or Fore Buchholz"): the mean Fore
-- Buchholz of the opponents, FB A 3.5, B 5, C 4.5, D 5 (perf_fore_buchholz,
-- above).  A met B, D, C: (5 + 5 + 4.5) / 3 = 4.8333...; B met A, C, D:
-- (3.5 + 4.5 + 5) / 3 = 4.3333...; C: (5 + 5 + 3.5) / 3 = 4.5; D: (4.5 +
-- 3.5 + 5) / 3.
SELECT player, round(aob_fore, 6) FROM standings('perf', 'PTS,AOB/F') ORDER BY player;
-- expect:
-- A|4.833333
-- B|4.333333
-- C|4.5
-- D|4.333333

-- case: perf_koya_percent
-- ks_percent (an event's own rule; C.07 only moves the 50 % by half
-- points): of the 3 points a player could score, 60 % is 1.8: only A
-- (2.5) counts, as with KS/L+1; 10 % is 0.3: everyone, so KS = the points;
-- 100 %: nobody.  With /L-1 too: 1.8 - 0.5 = 1.3, A, B and C, as the
-- default limit 1.5.
SELECT player,
       (SELECT koya FROM standings('perf', 'points,KS(ks_percent=60)') s WHERE s.player = p.player),
       (SELECT koya FROM standings('perf', 'points,KS(ks_percent=10)') s WHERE s.player = p.player),
       (SELECT koya FROM standings('perf', 'points,KS(ks_percent=100)') s WHERE s.player = p.player),
       (SELECT koya FROM standings('perf', 'points,KS/L-1(ks_percent=60)') s WHERE s.player = p.player)
  FROM (SELECT DISTINCT player_a AS player FROM matches WHERE event_id = 'perf') p ORDER BY player;
-- expect:
-- A|0.0|2.5|0.0|1.5
-- B|0.0|1.5|0.0|0.5
-- C|0.5|1.5|0.0|1.0
-- D|0.0|0.5|0.0|0.5

-- case: koya_percent_bad_value
SELECT * FROM standings('perf', 'points,KS(ks_percent=0)');
-- error: standings(): ks_percent must be an integer from 1 to 100, got '0'

-- case: koya_percent_not_read
SELECT * FROM standings('perf', 'points,BH(ks_percent=60)');
-- error: standings(): option ks_percent does nothing in policy 'points,BH(ks_percent=60)': no tiebreaker of it reads it

-- case: koya_even_round_robin_no_bye
-- A double round robin of two: 2 rounds, a multiple of the 2 players, but
-- an even round robin has no bye: 2 games each, the limit 1 point.  A
-- (1.5: won, drew) counts, B (0.5) not: KS A 0, B 0.5 (the draw).
-- (Taking a bye a cycle, 1 game and a limit of 0.5, would give A 1.5.)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('ks2', 1, 'A', 'B', 1, 0, 0), ('ks2', 2, 'B', 'A', 0, 0, 1);
SELECT player, koya FROM standings('ks2', 'fide_rr') ORDER BY player;
-- expect:
-- A|0.0
-- B|0.5

-- case: round_robin_bye_no_value
-- Three players, one bye each (a round robin of an odd number): A beat B
-- (round 1), drew C (2), had the bye in round 3; B beat C in round 3.  A
-- scored 2.5, B 2 (the bye's point), C 1.5.  A's values are B's and C's
-- only (8.1: the opponents; no dummy in a round robin, 15.3): BH 3.5, and
-- Cut-1 takes the lowest opponent's 1.5, not the bye's nothing: 2.0;
-- Median-1 takes 1.5 and 2: 0.  FB: B with the last-round win a draw 1.5,
-- C with the last-round loss a draw 2: 3.5.  SB 2 x 1 + 1.5 x 1/2 = 2.75,
-- SB/C1 less C's 0.75: 2.  (Counting the bye as a 0 made BH/C1 3.5, FB 5.)
-- TieBreakServer gives FB 3.5, BH/C1 2.0, BH/M1 0, SB 2.75 (test/trf/rr3.trf).
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('rrb', 1, 'A', 'B', 1, 0, 0), ('rrb', 1, 'C', NULL, 0, 0, 0),
  ('rrb', 2, 'C', 'A', 0, 0, 1), ('rrb', 2, 'B', NULL, 0, 0, 0),
  ('rrb', 3, 'B', 'C', 1, 0, 0), ('rrb', 3, 'A', NULL, 0, 0, 0);
SELECT player, points, buchholz, buchholz_cut1, buchholz_median1, fore_buchholz,
       sonneborn_berger, sonneborn_berger_cut1
  FROM standings('rrb', 'PTS,BH,BH/C1,BH/M1,FB,SB,SB/C1') WHERE player = 'A';
-- expect:
-- A|2.5|3.5|2.0|0.0|3.5|2.75|2.0
