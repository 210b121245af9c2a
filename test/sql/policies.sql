-- Policies 'battlefy', 'hct', 'pokemon' and 'yugioh'.  Expected values are
-- the published worked examples (/work/shared/rules-examples.json, keys
-- pokemon, battlefy_hct, yugioh_kts_number) and values worked out by hand
-- with exact fractions from the rules' text; the fractions are in the
-- comments.  The last cases check properties: renaming players and
-- reordering rows change nothing, and as_of_round = last round is the same
-- as no as_of_round.

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

-- Event 'hct': the constructed HCT example.  R1 A>B, C>D; R2 A>C, B>D;
-- R3 D>A, B>C.
--   A 2-1  T1 B(+1) C(-1) D(-1) = -1  T2 T1(B)+T1(C)+T1(D) = -1+1+1 = 1  T3 3^2 = 9
--   B 2-1  T1 A(+1) D(-1) C(-1) = -1  T2 T1(A)+T1(D)+T1(C) = 1           T3 1^2 = 1
--   C 1-2  T1 D(-1) A(+1) B(+1) = 1   T2 -1-1+1 = -1                     T3 4+9 = 13
--   D 1-2  T1 C(-1) B(+1) A(+1) = 1   T2 -1                              T3 1+4 = 5
-- As match-win %: A, B 2/3, C, D 1/3.  OMW A = B = (2/3+1/3+1/3)/3 = 4/9,
-- C = D = (1/3+2/3+2/3)/3 = 5/9.  OOMW A = B = (4/9+5/9+5/9)/3 = 14/27
-- = 0.5185..., C = D = (5/9+4/9+4/9)/3 = 13/27 = 0.4814...
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('hct', 1, 'A', 'B', 'a'), ('hct', 1, 'C', 'D', 'a'),
  ('hct', 2, 'A', 'C', 'a'), ('hct', 2, 'B', 'D', 'a'),
  ('hct', 3, 'D', 'A', 'a'), ('hct', 3, 'B', 'C', 'a');

-- Event 'bf': five players, a bye each round, game counts.
--   R1 A-B 2-0, C-D 2-1, E bye; R2 A-C 2-1, E-B 2-0, D bye;
--   R3 E-A 2-1, D-C 2-0, B bye.
--   player  record         MP  MWP  games GWP         OMW (floor 0.33)          OOMW
--   A       W B, W C, L E   6  2/3  5-3   15/24       (1/3+1/3+1)/3 = 5/9       (5/6+2/3+1/2)/3 = 2/3
--   B       L A, L E, bye   3  1/3  2-4   6/18 = 1/3  (2/3+1)/2 = 5/6           (5/9+1/2)/2 = 19/36
--   C       W D, L A, L D   3  1/3  3-5   9/24        (2/3+2/3+2/3)/3 = 2/3     (1/3+5/9+1/3)/3 = 11/27
--   D       L C, bye, W C   6  2/3  5-2   15/21       (1/3+1/3)/2 = 1/3         (2/3+2/3)/2 = 2/3
--   E       bye, W B, W A   9  1    6-1   18/21       (1/3+2/3)/2 = 1/2         (5/6+5/9)/2 = 25/36
-- HCT, an opponent's bye a win: wins - losses A +1, B -1, C -1, D +1, E +3.
--   T1 A -1-1+3 = 1, B 1+3 = 4, C 1+1+1 = 3, D -1-1 = -2, E -1+1 = 0
--   T2 A 4+3+0 = 7, B 1+0 = 1, C -2+1-2 = -3, D 3+3 = 6, E 4+1 = 5
--   T3 A 9, B 1+4 = 5, C 4+9 = 13, D 1, E 0 (byes are not lost rounds)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins) VALUES
  ('bf', 1, 'A', 'B', 2, 0), ('bf', 1, 'C', 'D', 2, 1), ('bf', 1, 'E', NULL, 2, 0),
  ('bf', 2, 'A', 'C', 2, 1), ('bf', 2, 'E', 'B', 2, 0), ('bf', 2, 'D', NULL, 2, 0),
  ('bf', 3, 'E', 'A', 2, 1), ('bf', 3, 'D', 'C', 2, 0), ('bf', 3, 'B', NULL, 2, 0);

-- Event 'bf2': ten players, two rounds, every match 2-0 (winner first).
--   R1 X>a1, Y>b1, c2>a2, d2>b2, c1>d1;  R2 X>a2, Y>b2, a1>c1, b1>d1, c2>d2.
-- MWP: X, Y, c2 1; a1, b1, c1, d2 1/2; a2, b2, d1 0 (floor 0.33).
-- GWP: X, Y, c2 1; a1, b1, c1, d2 1/2; a2, b2, d1 0.33.
--   OMW  X (1/2+0.33)/2 = 0.415; Y, c1, c2 0.415 too; a1 (1+1/2)/2 = 3/4;
--        a2 (1+1)/2 = 1; b1, d2 (1+0.33)/2 = 0.665; b2 (1/2+1)/2 = 3/4;
--        d1 (1/2+1/2)/2 = 1/2.
--   OOMW X (OMW a1 + OMW a2)/2 = (3/4+1)/2 = 0.875
--        c2 (1+0.665)/2 = 0.8325,  Y (0.665+3/4)/2 = 0.7075
--        d2 (3/4+0.415)/2 = 0.5825, b1 (0.415+1/2)/2 = 0.4575
--        c1 (1/2+3/4)/2 = 0.625, a1 (0.415+0.415)/2 = 0.415, a2 0.415,
--        b2 (0.665+0.415)/2 = 0.54, d1 (0.415+0.665)/2 = 0.54
-- X, c2 and Y tie on points, OMW and GW: OOMW decides.  So do d2 and b1.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins) VALUES
  ('bf2', 1, 'X', 'a1', 2), ('bf2', 1, 'Y', 'b1', 2), ('bf2', 1, 'c2', 'a2', 2),
  ('bf2', 1, 'd2', 'b2', 2), ('bf2', 1, 'c1', 'd1', 2),
  ('bf2', 2, 'X', 'a2', 2), ('bf2', 2, 'Y', 'b2', 2), ('bf2', 2, 'a1', 'c1', 2),
  ('bf2', 2, 'b1', 'd1', 2), ('bf2', 2, 'c2', 'd2', 2);

-- Pokemon own win % (the value opponents count): events whose subjects play
-- one filler opponent per round, the filler named subject-round.
--   'pk5' (5 rounds): W1 1-4, W3 3-2, W5 5-0, T311 3-1-1 (the tie last).
--   'pk6' (6 rounds): D5 5-0 then drops, D13 1-3 then drops, C6 6-0.
--   'pk7' (7 rounds): B43 bye in round 1, then 3-3: 4-3 counting the bye.
--   'pk3' (3 rounds): B21 bye in round 1, then 1-1: 2-1 counting the bye.
CREATE TABLE subject (event_id, player, round, result);
INSERT INTO subject VALUES
  ('pk5', 'W1', 1, 'a'), ('pk5', 'W1', 2, 'b'), ('pk5', 'W1', 3, 'b'),
  ('pk5', 'W1', 4, 'b'), ('pk5', 'W1', 5, 'b'),
  ('pk5', 'W3', 1, 'a'), ('pk5', 'W3', 2, 'a'), ('pk5', 'W3', 3, 'a'),
  ('pk5', 'W3', 4, 'b'), ('pk5', 'W3', 5, 'b'),
  ('pk5', 'W5', 1, 'a'), ('pk5', 'W5', 2, 'a'), ('pk5', 'W5', 3, 'a'),
  ('pk5', 'W5', 4, 'a'), ('pk5', 'W5', 5, 'a'),
  ('pk5', 'T311', 1, 'a'), ('pk5', 'T311', 2, 'a'), ('pk5', 'T311', 3, 'a'),
  ('pk5', 'T311', 4, 'b'), ('pk5', 'T311', 5, 'draw'),
  ('pk6', 'D5', 1, 'a'), ('pk6', 'D5', 2, 'a'), ('pk6', 'D5', 3, 'a'),
  ('pk6', 'D5', 4, 'a'), ('pk6', 'D5', 5, 'a'),
  ('pk6', 'D13', 1, 'a'), ('pk6', 'D13', 2, 'b'), ('pk6', 'D13', 3, 'b'),
  ('pk6', 'D13', 4, 'b'),
  ('pk6', 'C6', 1, 'a'), ('pk6', 'C6', 2, 'a'), ('pk6', 'C6', 3, 'a'),
  ('pk6', 'C6', 4, 'a'), ('pk6', 'C6', 5, 'a'), ('pk6', 'C6', 6, 'a'),
  ('pk7', 'B43', 1, 'bye'), ('pk7', 'B43', 2, 'a'), ('pk7', 'B43', 3, 'a'),
  ('pk7', 'B43', 4, 'a'), ('pk7', 'B43', 5, 'b'), ('pk7', 'B43', 6, 'b'),
  ('pk7', 'B43', 7, 'b'),
  ('pk3', 'B21', 1, 'bye'), ('pk3', 'B21', 2, 'a'), ('pk3', 'B21', 3, 'b');
INSERT INTO matches (event_id, round, player_a, player_b, result)
  SELECT event_id, round, player,
         CASE WHEN result = 'bye' THEN NULL ELSE player || '-' || round END,
         CASE WHEN result = 'bye' THEN NULL ELSE result END
  FROM subject;

-- Event 'pkf': a drop, for the freeze.  D leaves after round 2.
--   R1 A>B, C>D, E>F;  R2 A>C, B>E, D>F;  R3 A>E, C>B, F bye.
--   final win %: A 1, B 1/3, C 2/3, D 1/2 (dropped, under the cap), E 1/3,
--                F 0/2 -> 1/4 (the bye removed, floored)
--   as of round 2: C 1/2 (W D, L A), F 0/2 -> 1/4, A 1, E 1/2, D 1/2
--   owp  A (1/3+2/3+1/3)/3 = 4/9, B (1+1/3+2/3)/3 = 2/3,
--        C (1/2+1+1/3)/3 = 11/18, E (1/4+1/3+1)/3 = 19/36, F (1/3+1/2)/2 = 5/12
--        D frozen: as of round 2, (C 1/2 + F 1/4)/2 = 3/8
--          not frozen: (2/3+1/4)/2 = 11/24
--   oowp A (2/3+11/18+19/36)/3 = 65/108, B (4/9+19/36+11/18)/3 = 19/36,
--        E (5/12+2/3+4/9)/3 = 55/108
--        C (D 3/8 + 4/9 + 2/3)/3 = 107/216; not frozen (11/24+4/9+2/3)/3 = 113/216
--        F (19/36 + D 3/8)/2 = 65/144;      not frozen (19/36+11/24)/2 = 71/144
--        D frozen: C's and F's owp as of round 2: C (D 1/2 + A 1)/2 = 3/4,
--          F (E 1/2 + D 1/2)/2 = 1/2, so (3/4+1/2)/2 = 5/8
--          not frozen: (C 11/18 + F 5/12)/2 = 37/72
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('pkf', 1, 'A', 'B', 'a'), ('pkf', 1, 'C', 'D', 'a'), ('pkf', 1, 'E', 'F', 'a'),
  ('pkf', 2, 'A', 'C', 'a'), ('pkf', 2, 'B', 'E', 'a'), ('pkf', 2, 'D', 'F', 'a'),
  ('pkf', 3, 'A', 'E', 'a'), ('pkf', 3, 'C', 'B', 'a'), ('pkf', 3, 'F', NULL, NULL);

-- Event 'pkh': round robin of four; X and Y tie exactly, so do P and Q.
--   R1 X>Y, P>Q;  R2 X>P, Y>Q;  R3 Q>X, Y>P.  X, Y 2-1; P, Q 1-2.
--   owp X = (2/3+1/3+1/3)/3 = 4/9 = owp Y; P = (2/3+2/3+1/3)/3 = 5/9 = Q
--   oowp X = (4/9+5/9+5/9)/3 = 14/27 = Y; P = (4/9+4/9+5/9)/3 = 13/27 = Q
--   head-to-head: X beat Y, P beat Q.
-- Event 'pk3way': R1 X>Y, P>Q; R2 P>X, Y>Q; R3 Q>X, P>Y.  P 3-0; X, Y, Q 1-2,
--   all with owp (1/3+1+1/3)/3 = 5/9 and oowp (5/9+1/3+5/9)/3 = 13/27: three
--   tied, so no head-to-head.
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('pkh', 1, 'X', 'Y', 'a'), ('pkh', 1, 'P', 'Q', 'a'),
  ('pkh', 2, 'X', 'P', 'a'), ('pkh', 2, 'Y', 'Q', 'a'),
  ('pkh', 3, 'Q', 'X', 'a'), ('pkh', 3, 'Y', 'P', 'a'),
  ('pk3way', 1, 'X', 'Y', 'a'), ('pk3way', 1, 'P', 'Q', 'a'),
  ('pk3way', 2, 'P', 'X', 'a'), ('pk3way', 2, 'Y', 'Q', 'a'),
  ('pk3way', 3, 'Q', 'X', 'a'), ('pk3way', 3, 'P', 'Y', 'a');

-- Events 'pk2x' and 'pk2n': X and Y met twice and tie on points.
--   'pk2x': X beat Y twice (R1, R2), then lost twice to P; Y beat Q twice.
--   'pk2n': X and Y split their two matches; P beat Q twice.
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('pk2x', 1, 'X', 'Y', 'a'), ('pk2x', 1, 'P', 'Q', 'a'),
  ('pk2x', 2, 'X', 'Y', 'a'), ('pk2x', 2, 'P', 'Q', 'a'),
  ('pk2x', 3, 'P', 'X', 'a'), ('pk2x', 3, 'Y', 'Q', 'a'),
  ('pk2x', 4, 'P', 'X', 'a'), ('pk2x', 4, 'Y', 'Q', 'a'),
  ('pk2n', 1, 'X', 'Y', 'a'), ('pk2n', 1, 'P', 'Q', 'a'),
  ('pk2n', 2, 'Y', 'X', 'a'), ('pk2n', 2, 'P', 'Q', 'a');

-- Event 'kts': a player S with the published KTS number 33726677.  S wins
-- rounds 1-11 against o01..o11.  Opponent oJ also beats K pads (pJ_1 ..
-- pJ_K; pad I in round (J+I-1) % 11 + 1); a pad beats W sinks in the
-- rounds after that and plays nothing else.  No floor (Yu-Gi-Oh default).
--   J   K  pads' W      oJ's MWP  oJ's OMW = (S 1 + pads' MWP) / (K+1)
--   1-4 3  1,1,1        3/4       (1+3 x 1/2)/4 = 5/8
--   5   3  1,2,2        3/4       (1+1/2+4/3)/4 = 17/24
--   6   3  2,2,2        3/4       (1+2)/4 = 3/4
--   7   1  2            1/2       (1+2/3)/2 = 5/6
--   8,9 2  2,2          2/3       (1+4/3)/3 = 7/9
--   10  4  1,1,1,1      4/5       (1+2)/5 = 3/5
--   11  6  0,1,1,1,1,1  6/7       (1+5/2)/7 = 1/2
-- (a pad's MWP: W/(W+1), 0, 1/2 or 2/3).
-- OMW(S)  = (6 x 3/4 + 1/2 + 2 x 2/3 + 4/5 + 6/7)/11 = 7.990476/11 = 0.726407
-- OOMW(S) = (4 x 5/8 + 17/24 + 3/4 + 5/6 + 2 x 7/9 + 3/5 + 1/2)/11
--         = 7.447222/11 = 0.677020
-- So S is 33 points, 726 and 677 per mille, truncated or rounded.
CREATE TABLE kts_pad (j, i, w);
INSERT INTO kts_pad VALUES
  (1, 1, 1), (1, 2, 1), (1, 3, 1), (2, 1, 1), (2, 2, 1), (2, 3, 1),
  (3, 1, 1), (3, 2, 1), (3, 3, 1), (4, 1, 1), (4, 2, 1), (4, 3, 1),
  (5, 1, 1), (5, 2, 2), (5, 3, 2), (6, 1, 2), (6, 2, 2), (6, 3, 2),
  (7, 1, 2), (8, 1, 2), (8, 2, 2), (9, 1, 2), (9, 2, 2),
  (10, 1, 1), (10, 2, 1), (10, 3, 1), (10, 4, 1),
  (11, 1, 0), (11, 2, 1), (11, 3, 1), (11, 4, 1), (11, 5, 1), (11, 6, 1);
INSERT INTO matches (event_id, round, player_a, player_b, result)
  SELECT DISTINCT 'kts', j, 'S', printf('o%02d', j), 'a' FROM kts_pad;
INSERT INTO matches (event_id, round, player_a, player_b, result)
  SELECT 'kts', (j + i - 1) % 11 + 1, printf('o%02d', j), printf('p%02d_%d', j, i), 'a'
  FROM kts_pad;
INSERT INTO matches (event_id, round, player_a, player_b, result)
  SELECT 'kts', ((j + i - 1) % 11 + m) % 11 + 1, printf('p%02d_%d', j, i),
         printf('s%02d_%d_%d', j, i, m), 'a'
  FROM kts_pad, (SELECT 1 AS m UNION ALL SELECT 2) WHERE m <= w;

-- Copies for the property cases: every event renamed (text ids become
-- integers in the reverse order) and inserted in the reverse order.
CREATE TABLE ren AS
  SELECT player AS old, 100000 - row_number() OVER (ORDER BY player) AS new
  FROM (SELECT player_a AS player FROM matches
        UNION SELECT player_b FROM matches WHERE player_b IS NOT NULL);
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result)
  SELECT m.event_id || '~', m.round, ra.new, rb.new, m.a_wins, m.b_wins, m.draws, m.result
  FROM matches m JOIN ren ra ON ra.old = m.player_a LEFT JOIN ren rb ON rb.old = m.player_b
  ORDER BY m.rowid DESC;


-- case: battlefy_bye_event
SELECT rank, player, match_points, byes, round(mwp, 6), round(omwp, 6), round(gwp, 6),
       round(oomwp, 6), decided_by
FROM standings('bf', 'battlefy');
-- expect:
-- 1|E|9|1|1.0|0.5|0.857143|0.694444|
-- 2|A|6|0|0.666667|0.555556|0.625|0.666667|match_points
-- 3|D|6|1|0.666667|0.333333|0.714286|0.666667|omwp
-- 4|B|3|1|0.333333|0.833333|0.333333|0.527778|match_points
-- 5|C|3|0|0.333333|0.666667|0.375|0.407407|omwp

-- case: battlefy_oomwp_decides
SELECT rank, player, match_points, round(omwp, 6), round(gwp, 6), round(oomwp, 6), decided_by
FROM standings('bf2', 'battlefy');
-- expect:
-- 1|X|6|0.415|1.0|0.875|
-- 2|c2|6|0.415|1.0|0.8325|oomwp
-- 3|Y|6|0.415|1.0|0.7075|oomwp
-- 4|a1|3|0.75|0.5|0.415|match_points
-- 5|d2|3|0.665|0.5|0.5825|omwp
-- 6|b1|3|0.665|0.5|0.4575|oomwp
-- 7|c1|3|0.415|0.5|0.625|omwp
-- 8|a2|0|1.0|0.33|0.415|match_points
-- 9|b2|0|0.75|0.33|0.54|omwp
-- 10|d1|0|0.5|0.33|0.54|omwp

-- case: battlefy_oomw_alias_in_custom_order
-- 'mp,oomw': the alias; the points and floor of the first tiebreaker's
-- family (mtg: 0.33, as battlefy)
SELECT player, round(oomwp, 6) FROM standings('bf2', 'mp,oomw') WHERE player IN ('X', 'b2');
-- expect:
-- X|0.875
-- b2|0.54

-- case: battlefy_floor_option
-- floor 0: a2, b2, d1 count 0.  OMW X = (1/2+0)/2 = 1/4, a1 (1+1/2)/2 = 3/4
-- (no floored opponent), OOMW X = (3/4 + OMW a2 (1+1)/2)/2 = 7/8
SELECT player, round(omwp, 6), round(oomwp, 6) FROM standings('bf2', 'battlefy(floor=0)')
WHERE player IN ('X', 'a1');
-- expect:
-- X|0.25|0.875
-- a1|0.75|0.25


-- case: hct_worked_example
SELECT rank, player, match_wins, wins || '-' || losses, hct_t1, hct_t2, hct_t3, decided_by
FROM standings('hct', 'hct');
-- expect:
-- 1|A|2|2-1|-1|1|9|
-- 2|B|2|2-1|-1|1|1|hct_t3
-- 3|C|1|1-2|1|-1|13|match_wins
-- 4|D|1|1-2|1|-1|5|hct_t3

-- case: hct_values_are_integers
SELECT DISTINCT typeof(match_wins), typeof(hct_t1), typeof(hct_t2), typeof(hct_t3)
FROM standings('hct', 'hct');
-- expect:
-- integer|integer|integer|integer

-- case: hct_byes
-- A bye is a win (match_wins) and adds nothing to T1/T2/T3.
SELECT rank, player, match_wins, byes, hct_t1, hct_t2, hct_t3, decided_by
FROM standings('bf', 'hct');
-- expect:
-- 1|E|3|1|0|5|0|
-- 2|A|2|0|1|7|9|match_wins
-- 3|D|2|1|-2|6|1|hct_t1
-- 4|B|1|1|4|1|5|match_wins
-- 5|C|1|0|3|-3|13|hct_t1

-- case: hct_opponent_bye_not_a_win
-- wins - losses without byes: A +1, B 0-2 = -2, C -1, D 1-1 = 0, E 2-0 = +2
--   T1 A -2-1+2 = -1, B 1+2 = 3, C 0+1+0 = 1, D -1-1 = -2, E -2+1 = -1
--   T2 A 3+1-1 = 3, B -1-1 = -2, C -2-1-2 = -5, D 1+1 = 2, E 3-1 = 2
SELECT player, match_wins, hct_t1, hct_t2 FROM standings('bf', 'hct(opponent_bye_is_win=0)')
ORDER BY player;
-- expect:
-- A|2|-1|3
-- B|1|3|-2
-- C|1|1|-5
-- D|2|-2|2
-- E|3|-1|2

-- case: hct_t1_floor_option
-- floor 0: B and C add 0 instead of -1.
--   T1 A 0+0+3 = 3, B 1+3 = 4, C 1+1+1 = 3, D 0+0 = 0, E 0+1 = 1
--   T2 A 4+3+1 = 8, B 3+1 = 4, C 0+3+0 = 3, D 3+3 = 6, E 4+3 = 7
SELECT player, hct_t1, hct_t2 FROM standings('bf', 'hct(t1_floor=0)') ORDER BY player;
-- expect:
-- A|3|8
-- B|4|4
-- C|3|3
-- D|0|6
-- E|1|7

-- case: hct_t1_floor_negative_values
-- no opponent is below -1, so -1 and -100 give the default values
SELECT group_concat(hct_t1 || '/' || hct_t2, ' ')
FROM (SELECT * FROM standings('bf', 'hct(t1_floor=-1)') ORDER BY player)
UNION ALL
SELECT group_concat(hct_t1 || '/' || hct_t2, ' ')
FROM (SELECT * FROM standings('bf', 'hct(t1_floor=-100)') ORDER BY player);
-- expect:
-- 1/7 4/1 3/-3 -2/6 0/5
-- 1/7 4/1 3/-3 -2/6 0/5

-- case: hct_t1_floor_bites
-- floor -1 on the worked example changes nothing either; with floor 0:
--   T1 A B(+1) C(0) D(0) = 1, B A(+1) D(0) C(0) = 1, C 0+1+1 = 2, D 2
SELECT player, hct_t1 FROM standings('hct', 'hct(t1_floor=0)') ORDER BY player;
-- expect:
-- A|1
-- B|1
-- C|2
-- D|2

-- case: hct_t1_floor_out_of_range
SELECT * FROM standings('hct', 'hct(t1_floor=1)');
-- error: standings(): t1_floor must be an integer from -100 to 0, got '1'

-- case: hct_t1_floor_too_low
SELECT * FROM standings('hct', 'hct(t1_floor=-101)');
-- error: standings(): t1_floor must be an integer from -100 to 0, got '-101'

-- case: hct_opponent_bye_is_win_not_bool
SELECT * FROM standings('hct', 'hct(opponent_bye_is_win=2)');
-- error: standings(): opponent_bye_is_win must be an integer from 0 to 1, got '2'

-- case: hct_points_primary_custom_order
-- 'mp,hct_t1,hct_t2,hct_t3': points first, for events with draws
SELECT rank, player, decided_by FROM standings('hct', 'mp,hct_t1,hct_t2,hct_t3');
-- expect:
-- 1|A|
-- 2|B|hct_t3
-- 3|C|match_points
-- 4|D|hct_t3


-- case: pokemon_own_win_pct_completed
-- 5 rounds: 1 win 20 % -> 25 %; 3 wins 60 %; 5 wins 100 %
SELECT player, win_pct FROM standings('pk5', 'pokemon') WHERE player IN ('W1', 'W3', 'W5')
ORDER BY player;
-- expect:
-- W1|0.25
-- W3|0.6
-- W5|1.0

-- case: pokemon_own_win_pct_dropped
-- 6-round event: 5-0 then drop -> capped at 75 %; 1-3 then drop -> 1/4;
-- 6-0 completed -> 100 %
SELECT player, dropped, win_pct FROM standings('pk6', 'pokemon')
WHERE player IN ('D5', 'D13', 'C6') ORDER BY player;
-- expect:
-- C6|0|1.0
-- D13|1|0.25
-- D5|1|0.75

-- case: pokemon_bye_removed
-- 4-3 in 7 rounds incl. a bye -> 3-3 = 50 %; 2-1 incl. a bye -> 1-1 = 50 %.
-- B43-7, who beat B43 in the last round, has owp = B43's 50 % (not 4/7).
SELECT player, wins || '-' || losses, win_pct FROM standings('pk7', 'pokemon') WHERE player = 'B43'
UNION ALL
SELECT player, wins || '-' || losses, win_pct FROM standings('pk3', 'pokemon') WHERE player = 'B21'
UNION ALL
SELECT player, wins || '-' || losses, owp FROM standings('pk7', 'pokemon') WHERE player = 'B43-7';
-- expect:
-- B43|4-3|0.5
-- B21|2-1|0.5
-- B43-7|1-0|0.5

-- case: pokemon_ties_tie_credit
-- 3-1-1: RK9 (a tie is 1/2, the default) 3.5/5 = 70 %; match points 10/15
-- (1/3); wins only 3/5 = 60 %
SELECT round(win_pct, 6) FROM standings('pk5', 'pokemon') WHERE player = 'T311'
UNION ALL
SELECT round(win_pct, 6) FROM standings('pk5', 'pokemon(tie_credit=1/3)') WHERE player = 'T311'
UNION ALL
SELECT round(win_pct, 6) FROM standings('pk5', 'pokemon(tie_credit=0)') WHERE player = 'T311';
-- expect:
-- 0.7
-- 0.666667
-- 0.6

-- case: pokemon_cap_and_floor_options
-- cap 1: D5 counts 100 %; floor 0: D13 still 1/4, W1 20 %
SELECT player, win_pct FROM standings('pk6', 'pokemon(cap=1)') WHERE player = 'D5'
UNION ALL
SELECT player, win_pct FROM standings('pk6', 'pokemon(floor=0)') WHERE player = 'D13'
UNION ALL
SELECT player, win_pct FROM standings('pk5', 'pokemon(floor=0)') WHERE player = 'W1';
-- expect:
-- D5|1.0
-- D13|0.25
-- W1|0.2

-- case: pokemon_cap_out_of_range
SELECT * FROM standings('pk6', 'pokemon(cap=2)');
-- error: standings(): cap must be a number or fraction between 0 and 1, got '2'

-- case: pokemon_tie_credit_out_of_range
SELECT * FROM standings('pk6', 'pokemon(tie_credit=3/2)');
-- error: standings(): tie_credit must be a number or fraction between 0 and 1, got '3/2'

-- case: pokemon_freeze_drops_not_bool
SELECT * FROM standings('pk6', 'pokemon(freeze_drops=yes)');
-- error: standings(): freeze_drops must be an integer from 0 to 1, got 'yes'

-- case: pokemon_freeze
SELECT rank, player, match_points, dropped, round(win_pct, 6), round(owp, 6), round(oowp, 6),
       decided_by
FROM standings('pkf', 'pokemon');
-- expect:
-- 1|A|9|0|1.0|0.444444|0.601852|
-- 2|C|6|0|0.666667|0.611111|0.49537|match_points
-- 3|B|3|0|0.333333|0.666667|0.527778|match_points
-- 4|E|3|0|0.333333|0.527778|0.509259|owp
-- 5|F|3|0|0.25|0.416667|0.451389|owp
-- 6|D|3|1|0.5|0.375|0.625|owp

-- case: pokemon_no_freeze
-- D's owp and oowp from final records; C's and F's oowp see that owp
SELECT rank, player, round(owp, 6), round(oowp, 6), decided_by
FROM standings('pkf', 'pokemon(freeze_drops=0)');
-- expect:
-- 1|A|0.444444|0.601852|
-- 2|C|0.611111|0.523148|match_points
-- 3|B|0.666667|0.527778|match_points
-- 4|E|0.527778|0.509259|owp
-- 5|D|0.458333|0.513889|owp
-- 6|F|0.416667|0.493056|owp

-- case: pokemon_frozen_values_are_the_drop_round_standings
-- D dropped after round 2: its values are those of the standings after it.
SELECT round(owp, 6), round(oowp, 6), round(win_pct, 6) FROM standings('pkf', 'pokemon')
WHERE player = 'D'
UNION ALL
SELECT round(owp, 6), round(oowp, 6), round(win_pct, 6) FROM standings('pkf', 'pokemon', NULL, 2)
WHERE player = 'D';
-- expect:
-- 0.375|0.625|0.5
-- 0.375|0.625|0.5

-- case: pokemon_head_to_head_two_tied
SELECT rank, player, round(owp, 6), round(oowp, 6), head_to_head, decided_by
FROM standings('pkh', 'pokemon');
-- expect:
-- 1|X|0.444444|0.518519|1|
-- 2|Y|0.444444|0.518519|0|head_to_head
-- 3|P|0.555556|0.481481|1|match_points
-- 4|Q|0.555556|0.481481|0|head_to_head

-- case: pokemon_head_to_head_three_tied
SELECT rank, player, round(owp, 6), round(oowp, 6), head_to_head, decided_by
FROM standings('pk3way', 'pokemon');
-- expect:
-- 1|P|0.333333|0.555556|0|
-- 2|Q|0.555556|0.481481|0|match_points
-- 2|X|0.555556|0.481481|0|
-- 2|Y|0.555556|0.481481|0|

-- case: pokemon_head_to_head_met_twice
-- net result: X won both -> X; split -> no decision, shared rank
SELECT rank, player, head_to_head, decided_by FROM standings('pk2x', 'mp,head_to_head')
UNION ALL
SELECT rank, player, head_to_head, decided_by FROM standings('pk2n', 'mp,head_to_head');
-- expect:
-- 1|P|0|
-- 2|X|1|match_points
-- 3|Y|0|head_to_head
-- 4|Q|0|match_points
-- 1|P|0|
-- 2|X|0|match_points
-- 2|Y|0|
-- 4|Q|0|match_points


-- case: yugioh_kts_published_number
SELECT player, match_points, round(omwp, 6), round(oomwp, 6), kts
FROM standings('kts', 'yugioh') WHERE player = 'S';
-- expect:
-- S|33|0.726407|0.67702|33726677

-- case: yugioh_kts_truncated_same_here
SELECT kts FROM standings('kts', 'yugioh(kts_truncate=1)') WHERE player = 'S';
-- expect:
-- 33726677

-- case: yugioh_kts_rounding
-- C: OMW 5/9 = 0.5555... -> 556 rounded, 555 truncated; OOMW 13/27 =
-- 0.48148... -> 481.  A: OMW 4/9 -> 444; OOMW 14/27 = 0.51851... -> 519 or 518.
SELECT player, kts FROM standings('hct', 'yugioh') WHERE player IN ('A', 'C')
UNION ALL
SELECT player, kts FROM standings('hct', 'yugioh(kts_truncate=1)') WHERE player IN ('A', 'C');
-- expect:
-- A|6444519
-- C|3556481
-- A|6444518
-- C|3555481

-- case: yugioh_standings
-- no floor: a2, b2, d1 count 0.  OMW X (1/2+0)/2 = 1/4, Y (1/2+0)/2 = 1/4,
-- c2 (0+1/2)/2 = 1/4; OOMW X (OMW a1 (1+1/2)/2 + OMW a2 (1+1)/2)/2 = 7/8,
-- c2 (1 + OMW d2 (0+1)/2)/2 = 3/4, Y (OMW b1 (1+0)/2 + OMW b2 (1/2+1)/2)/2 = 5/8
SELECT rank, player, match_points, round(omwp, 6), round(oomwp, 6), kts, decided_by
FROM standings('bf2', 'yugioh') WHERE match_points = 6;
-- expect:
-- 1|X|6|0.25|0.875|6250875|
-- 2|c2|6|0.25|0.75|6250750|oomwp
-- 3|Y|6|0.25|0.625|6250625|oomwp

-- case: yugioh_kts_as_custom_order
-- ranking by the number alone: A and B share 6444519, C and D 3556481
SELECT rank, player, kts, decided_by FROM standings('hct', 'kts');
-- expect:
-- 1|A|6444519|
-- 1|B|6444519|
-- 3|C|3556481|kts
-- 3|D|3556481|


-- case: rename_and_reorder_battlefy
-- Within a tie, players are listed by id, so the renamed copy lists them in
-- the other order and decided_by moves to the other first row: compare
-- decided_by per rank.
WITH a AS (SELECT rank, player, match_points, round(mwp, 12), round(omwp, 12),
                  round(gwp, 12), round(oomwp, 12),
                  max(decided_by) OVER (PARTITION BY rank)
           FROM standings('bf2', 'battlefy')),
     b AS (SELECT s.rank, r.old, s.match_points, round(s.mwp, 12), round(s.omwp, 12),
                  round(s.gwp, 12), round(s.oomwp, 12),
                  max(s.decided_by) OVER (PARTITION BY s.rank)
           FROM standings('bf2~', 'battlefy') s JOIN ren r ON r.new = s.player)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
       (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b));
-- expect:
-- 10|10|0

-- case: rename_and_reorder_hct
WITH a AS (SELECT rank, player, match_wins, hct_t1, hct_t2, hct_t3,
                  max(decided_by) OVER (PARTITION BY rank)
           FROM standings('bf', 'hct')),
     b AS (SELECT s.rank, r.old, s.match_wins, s.hct_t1, s.hct_t2, s.hct_t3,
                  max(s.decided_by) OVER (PARTITION BY s.rank)
           FROM standings('bf~', 'hct') s JOIN ren r ON r.new = s.player)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
       (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b));
-- expect:
-- 5|5|0

-- case: rename_and_reorder_pokemon
WITH ev(id) AS (VALUES ('pkf'), ('pkh'), ('pk3way'), ('pk2x')),
     a AS (SELECT ev.id, rank, player, round(win_pct, 12), round(owp, 12),
                  round(oowp, 12), head_to_head,
                  max(decided_by) OVER (PARTITION BY ev.id, rank)
           FROM ev, standings(ev.id, 'pokemon')),
     b AS (SELECT ev.id, s.rank, r.old, round(s.win_pct, 12), round(s.owp, 12),
                  round(s.oowp, 12), s.head_to_head,
                  max(s.decided_by) OVER (PARTITION BY ev.id, s.rank)
           FROM ev, standings(ev.id || '~', 'pokemon') AS s JOIN ren r ON r.new = s.player)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
       (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b));
-- expect:
-- 18|18|0

-- case: rename_and_reorder_yugioh
WITH a AS (SELECT rank, player, round(omwp, 12), round(oomwp, 12), kts,
                  max(decided_by) OVER (PARTITION BY rank)
           FROM standings('kts', 'yugioh')),
     b AS (SELECT s.rank, r.old, round(s.omwp, 12), round(s.oomwp, 12), s.kts,
                  max(s.decided_by) OVER (PARTITION BY s.rank)
           FROM standings('kts~', 'yugioh') s JOIN ren r ON r.new = s.player)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
       (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b));
-- expect:
-- 87|87|0

-- case: as_of_last_round_is_no_as_of_round
-- every policy on every event of this file and its renamed copy (180
-- players each): the standings with as_of_round = the event's last round
-- equal those without it, row for row
WITH ev AS (SELECT event_id, max(round) AS last FROM matches GROUP BY event_id),
     pol(policy) AS (VALUES ('battlefy'), ('hct'), ('pokemon'), ('yugioh'),
                            ('pokemon(freeze_drops=0)')),
     a AS (SELECT s.event_id, s.policy, s.rank, s.player, s.match_points,
                  round(s.omwp, 12), round(s.gwp, 12), round(s.oomwp, 12), s.kts,
                  s.match_wins, s.hct_t1, s.hct_t2, s.hct_t3, round(s.win_pct, 12),
                  round(s.owp, 12), round(s.oowp, 12), s.head_to_head, s.dropped,
                  s.decided_by
           FROM ev, pol, standings(ev.event_id, pol.policy) AS s),
     b AS (SELECT s.event_id, s.policy, s.rank, s.player, s.match_points,
                  round(s.omwp, 12), round(s.gwp, 12), round(s.oomwp, 12), s.kts,
                  s.match_wins, s.hct_t1, s.hct_t2, s.hct_t3, round(s.win_pct, 12),
                  round(s.owp, 12), round(s.oowp, 12), s.head_to_head, s.dropped,
                  s.decided_by
           FROM ev, pol, standings(ev.event_id, pol.policy, NULL, ev.last) AS s)
SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
       (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b));
-- expect:
-- 1800|1800|0

-- case: pokemon_day2_cut_is_not_a_drop
-- After round 2 only A and C play on. With cut_after=2 the four players
-- last seen in round 2 were cut, not dropped: E (2-0) counts 100 %, not the
-- dropped player's 75 %, so A (opponents B 1/4, E, C 2/3) has OWP
-- (1/4 + 1 + 2/3) / 3 = 23/36; without the option 5/9.
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('cut', 1, 'A', 'B', 'a'), ('cut', 1, 'C', 'D', 'a'), ('cut', 1, 'E', 'F', 'a'),
  ('cut', 2, 'E', 'A', 'a'), ('cut', 2, 'C', 'B', 'a'), ('cut', 2, 'D', 'F', 'a'),
  ('cut', 3, 'A', 'C', 'a');
SELECT player, dropped, round(win_pct, 4), round(owp, 4) FROM standings('cut', 'pokemon(cut_after=2)')
WHERE player IN ('A', 'E')
UNION ALL
SELECT player, dropped, round(win_pct, 4), round(owp, 4) FROM standings('cut', 'pokemon')
WHERE player IN ('A', 'E');
-- expect:
-- A|0|0.6667|0.6389
-- E|0|1.0|0.375
-- A|0|0.6667|0.5556
-- E|1|0.75|0.375

-- case: cut_after_only_marks_the_cut_round
-- any policy: dropped is 0 for the cut round's players, 1 for an earlier
-- drop; before the cut was made (as of round 2) nobody is cut
INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES
  ('cut', 1, 'A', 'B', 'a'), ('cut', 1, 'C', 'D', 'a'),
  ('cut', 2, 'A', 'C', 'a'), ('cut', 3, 'A', NULL, NULL);
SELECT group_concat(player || dropped, ' ') FROM standings('cut', 'mtg(cut_after=2)')
UNION ALL
SELECT group_concat(player || dropped, ' ') FROM standings('cut', 'mtg(cut_after=2)', NULL, 2);
-- expect:
-- A0 C0 B1 D1
-- A0 C0 B1 D1
