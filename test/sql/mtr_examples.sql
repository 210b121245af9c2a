-- Worked examples of MTR Appendix C (RULES.md 1.4, rules-examples.json "mtg").
-- Expected values come from the published texts; where the texts round from
-- rounded parts, the exact values (computed with fractions) are given at 6
-- decimals as well. Field players named like 'z12' or 'a3' only exist to give
-- the example players and their opponents the records the texts describe.

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

-- Match points: A goes 6-2-0, B goes 4-2-2 in an 8-round event.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('mp',1,'A','a1',2,0,0), ('mp',2,'A','a2',2,0,0), ('mp',3,'A','a3',2,0,0), ('mp',4,'A','a4',2,1,0),
  ('mp',5,'A','a5',2,0,0), ('mp',6,'A','a6',2,0,0), ('mp',7,'A','a7',0,2,0), ('mp',8,'A','a8',1,2,0),
  ('mp',1,'B','b1',2,0,0), ('mp',2,'B','b2',2,0,0), ('mp',3,'B','b3',2,1,0), ('mp',4,'B','b4',2,0,0),
  ('mp',5,'B','b5',0,2,0), ('mp',6,'B','b6',0,2,0), ('mp',7,'B','b7',1,1,0), ('mp',8,'B','b8',1,1,1);

-- Game points per match, one round: 2-0-0, 2-1-0, 2-0-1 and an intentional
-- draw reported as 0-0-3.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('gp',1,'E','E_opp',2,0,0), ('gp',1,'F','F_opp',2,1,0), ('gp',1,'G','G_opp',2,0,1),
  ('gp',1,'ID1','ID2',0,0,3);

-- Match-win percentage, 8 rounds: P goes 5-2-1; Q goes 1-3-0 and withdraws
-- after round 4; R gets a round-1 bye, goes 3-2-0 and withdraws after round 5.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('mwp',1,'P','p1',2,0,0), ('mwp',2,'P','p2',2,0,0), ('mwp',3,'P','p3',2,1,0), ('mwp',4,'P','p4',2,0,0),
  ('mwp',5,'P','p5',2,0,0), ('mwp',6,'P','p6',0,2,0), ('mwp',7,'P','p7',1,2,0), ('mwp',8,'P','p8',1,1,0),
  ('mwp',1,'Q','q1',2,0,0), ('mwp',2,'Q','q2',0,2,0), ('mwp',3,'Q','q3',0,2,0), ('mwp',4,'Q','q4',1,2,0),
  ('mwp',1,'R',NULL,0,0,0), ('mwp',2,'R','r2',2,0,0), ('mwp',3,'R','r3',2,1,0), ('mwp',4,'R','r4',0,2,0),
  ('mwp',5,'R','r5',0,2,0);

-- Game-win percentage, 4 rounds: Player H plays 2-0, 2-1, 1-2, 2-0 and
-- Player I plays 1-2, 1-2, 0-2, 1-2; they meet in round 2 (H wins 2-1).
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('gwp',1,'H','h1',2,0,0), ('gwp',2,'H','I',2,1,0), ('gwp',3,'H','h3',1,2,0), ('gwp',4,'H','h4',2,0,0),
  ('gwp',1,'I','i1',1,2,0), ('gwp',3,'I','i3',0,2,0), ('gwp',4,'I','i4',1,2,0);

-- Opponents' match-win percentage, 8 rounds (older appendix text, Players F
-- and G). F's opponents end 4-4-0, 7-1-0, 1-3-1, 3-3-1, 6-2-0, 5-2-1, 4-3-1,
-- 6-1-1; G had a round-1 bye and then met the last seven of them.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  -- Player F: 6-2-0, opponent o<r> in round r
  ('omw',1,'F','o1',2,0,0), ('omw',2,'F','o2',0,2,0), ('omw',3,'F','o3',2,0,0), ('omw',4,'F','o4',2,0,0),
  ('omw',5,'F','o5',2,0,0), ('omw',6,'F','o6',2,0,0), ('omw',7,'F','o7',2,0,0), ('omw',8,'F','o8',0,2,0),
  -- Player G: 6-2-0 with a round-1 bye, then the same opponents
  ('omw',1,'G',NULL,0,0,0), ('omw',2,'G','o8',0,2,0), ('omw',3,'G','o2',0,2,0), ('omw',4,'G','o3',2,0,0),
  ('omw',5,'G','o4',2,0,0), ('omw',6,'G','o5',2,0,0), ('omw',7,'G','o6',2,0,0), ('omw',8,'G','o7',2,0,0),
  -- o1 ends 4-4-0
  ('omw',2,'o1','z12',2,0,0), ('omw',3,'o1','z13',2,0,0), ('omw',4,'o1','z14',2,0,0), ('omw',5,'o1','z15',2,0,0),
  ('omw',6,'o1','z16',0,2,0), ('omw',7,'o1','z17',0,2,0), ('omw',8,'o1','z18',0,2,0),
  -- o2 ends 7-1-0
  ('omw',1,'o2','z21',2,0,0), ('omw',4,'o2','z24',2,0,0), ('omw',5,'o2','z25',2,0,0), ('omw',6,'o2','z26',2,0,0),
  ('omw',7,'o2','z27',2,0,0), ('omw',8,'o2','z28',0,2,0),
  -- o3 ends 1-3-1, rounds 1-5
  ('omw',1,'o3','z31',2,0,0), ('omw',2,'o3','z32',1,1,0), ('omw',5,'o3','z35',0,2,0),
  -- o4 ends 3-3-1, rounds 1-7
  ('omw',1,'o4','z41',2,0,0), ('omw',2,'o4','z42',2,0,0), ('omw',3,'o4','z43',2,0,0), ('omw',6,'o4','z46',0,2,0),
  ('omw',7,'o4','z47',1,1,0),
  -- o5 ends 6-2-0
  ('omw',1,'o5','z51',2,0,0), ('omw',2,'o5','z52',2,0,0), ('omw',3,'o5','z53',2,0,0), ('omw',4,'o5','z54',2,0,0),
  ('omw',7,'o5','z57',2,0,0), ('omw',8,'o5','z58',2,0,0),
  -- o6 ends 5-2-1
  ('omw',1,'o6','z61',2,0,0), ('omw',2,'o6','z62',2,0,0), ('omw',3,'o6','z63',2,0,0), ('omw',4,'o6','z64',2,0,0),
  ('omw',5,'o6','z65',2,0,0), ('omw',8,'o6','z68',1,1,0),
  -- o7 ends 4-3-1
  ('omw',1,'o7','z71',2,0,0), ('omw',2,'o7','z72',2,0,0), ('omw',3,'o7','z73',2,0,0), ('omw',4,'o7','z74',2,0,0),
  ('omw',5,'o7','z75',0,2,0), ('omw',6,'o7','z76',1,1,0),
  -- o8 ends 6-1-1
  ('omw',1,'o8','z81',2,0,0), ('omw',3,'o8','z83',2,0,0), ('omw',4,'o8','z84',2,0,0), ('omw',5,'o8','z85',2,0,0),
  ('omw',6,'o8','z86',0,2,0), ('omw',7,'o8','z87',1,1,0);

-- case: match_points_18
SELECT player, wins, losses, draws, match_points FROM standings('mp', 'mtg') WHERE player = 'A';
-- expect:
-- A|6|2|0|18

-- case: match_points_14
SELECT player, wins, losses, draws, match_points FROM standings('mp', 'mtg') WHERE player = 'B';
-- expect:
-- B|4|2|2|14

-- case: match_points_order
SELECT rank, player, match_points, decided_by FROM standings('mp', 'mtg') WHERE rank <= 2;
-- expect:
-- 1|A|18|
-- 2|B|14|match_points

-- case: game_points_2_0_0
SELECT player, game_wins, game_losses, game_draws, game_points, games
FROM standings('gp', 'mtg') WHERE player IN ('E', 'E_opp') ORDER BY player;
-- expect:
-- E|2|0|0|6|2
-- E_opp|0|2|0|0|2

-- case: game_points_2_1_0
SELECT player, game_wins, game_losses, game_draws, game_points, games
FROM standings('gp', 'mtg') WHERE player IN ('F', 'F_opp') ORDER BY player;
-- expect:
-- F|2|1|0|6|3
-- F_opp|1|2|0|3|3

-- case: game_points_2_0_1
SELECT player, game_wins, game_losses, game_draws, game_points, games
FROM standings('gp', 'mtg') WHERE player IN ('G', 'G_opp') ORDER BY player;
-- expect:
-- G|2|0|1|7|3
-- G_opp|0|2|1|1|3

-- case: game_points_intentional_draw_0_0_3
SELECT player, match_points, draws, game_draws, game_points, games
FROM standings('gp', 'mtg') WHERE player IN ('ID1', 'ID2') ORDER BY player;
-- expect:
-- ID1|1|1|3|3|3
-- ID2|1|1|3|3|3

-- case: game_win_percentage_per_example_match
-- 6/6, 0/6 -> 0.33, 6/9, 3/9, 7/9, 1/9 -> 0.33, 3/9
SELECT player, round(gwp, 6) FROM standings('gp', 'mtg') ORDER BY player;
-- expect:
-- E|1.0
-- E_opp|0.33
-- F|0.666667
-- F_opp|0.333333
-- G|0.777778
-- G_opp|0.33
-- ID1|0.333333
-- ID2|0.333333

-- case: mwp_5_2_1_over_8
SELECT player, rounds, match_points, round(mwp, 3), round(mwp, 6) FROM standings('mwp', 'mtg') WHERE player = 'P';
-- expect:
-- P|8|16|0.667|0.666667

-- case: mwp_1_3_0_withdrew_after_4
-- 3/12 = 0.25 is raised to the 0.33 floor; rounds after the drop do not count
SELECT player, rounds, match_points, round(mwp, 6), dropped FROM standings('mwp', 'mtg') WHERE player = 'Q';
-- expect:
-- Q|4|3|0.33|1

-- case: mwp_1_3_0_without_floor
SELECT player, round(mwp, 6) FROM standings('mwp', 'mtg', 0) WHERE player = 'Q';
-- expect:
-- Q|0.25

-- case: mwp_3_2_0_with_bye_withdrew_after_5
-- the bye is a win and a round: 9/15
SELECT player, wins, losses, draws, byes, rounds, match_points, round(mwp, 6), dropped
FROM standings('mwp', 'mtg') WHERE player = 'R';
-- expect:
-- R|3|2|0|1|5|9|0.6|1

-- case: mwp_full_attendance_not_dropped
SELECT player, dropped FROM standings('mwp', 'mtg') WHERE player = 'P';
-- expect:
-- P|0

-- case: gwp_player_H
SELECT player, game_wins, game_losses, game_draws, game_points, games, round(gwp, 2), round(gwp, 6)
FROM standings('gwp', 'mtg') WHERE player = 'H';
-- expect:
-- H|7|3|0|21|10|0.7|0.7

-- case: gwp_player_I_floored
-- 9/33 = 0.27 is raised to 0.33 under the current text
SELECT player, game_wins, game_losses, game_draws, game_points, games, round(gwp, 6)
FROM standings('gwp', 'mtg') WHERE player = 'I';
-- expect:
-- I|3|8|0|9|11|0.33

-- case: gwp_player_I_unfloored_old_text
SELECT player, round(gwp, 2), round(gwp, 6) FROM standings('gwp', 'mtg', 0) WHERE player = 'I';
-- expect:
-- I|0.27|0.272727

-- case: omw_opponent_records_as_published
SELECT player, wins || '-' || losses || '-' || draws, rounds
FROM standings('omw', 'mtg') WHERE player GLOB 'o[1-8]' ORDER BY player;
-- expect:
-- o1|4-4-0|8
-- o2|7-1-0|8
-- o3|1-3-1|5
-- o4|3-3-1|7
-- o5|6-2-0|8
-- o6|5-2-1|8
-- o7|4-3-1|8
-- o8|6-1-1|8

-- case: omw_players_F_and_G_records
SELECT player, wins, losses, draws, byes, match_points FROM standings('omw', 'mtg')
WHERE player IN ('F', 'G') ORDER BY player;
-- expect:
-- F|6|2|0|0|18
-- G|6|2|0|1|18

-- case: omw_player_F_published_0_62
SELECT player, round(omwp, 2) FROM standings('omw', 'mtg') WHERE player = 'F';
-- expect:
-- F|0.62

-- case: omw_player_G_published_0_63
SELECT player, round(omwp, 2) FROM standings('omw', 'mtg') WHERE player = 'G';
-- expect:
-- G|0.63

-- case: omw_player_F_exact
-- (12/24 + 21/24 + 0.33 + 10/21 + 18/24 + 16/24 + 13/24 + 19/24) / 8 = 20711/33600
SELECT player, round(omwp, 6) FROM standings('omw', 'mtg') WHERE player = 'F';
-- expect:
-- F|0.616399

-- case: omw_player_G_exact_bye_not_in_divisor
-- (21/24 + 0.33 + 10/21 + 18/24 + 16/24 + 13/24 + 19/24) / 7 = 18611/29400
SELECT player, round(omwp, 6) FROM standings('omw', 'mtg') WHERE player = 'G';
-- expect:
-- G|0.633027

-- case: omw_players_F_and_G_floor_one_third
-- 829/1344 and 745/1176
SELECT player, round(omwp, 6) FROM standings('omw', 'mtg', '1/3') WHERE player IN ('F', 'G') ORDER BY player;
-- expect:
-- F|0.616815
-- G|0.633503

-- case: omw_players_F_and_G_floor_one_third_policy_option
SELECT player, round(omwp, 6) FROM standings('omw', 'mtg(floor=1/3)') WHERE player IN ('F', 'G') ORDER BY player;
-- expect:
-- F|0.616815
-- G|0.633503

-- case: omw_ranking_at_18_points
-- G, F and o5 all have 18 points; o5's OMW is (6 * 0.33 + 0.75 + 0.75) / 8 = 0.435.
-- o2: (5 * 0.33 + 0.75 + 0.75 + 1) / 8; o8: (4 * 0.33 + 0.75 + 1 + 1/3 + 0.75) / 8
SELECT rank, player, match_points, round(omwp, 6), decided_by FROM standings('omw', 'mtg') WHERE rank <= 5;
-- expect:
-- 1|o2|21|0.51875|
-- 2|o8|19|0.519167|match_points
-- 3|G|18|0.633027|match_points
-- 4|F|18|0.616399|omwp
-- 5|o5|18|0.435|omwp

-- case: scalar_mwp_5_2_1
SELECT round(mwp(5, 2, 1), 3), round(mwp(5, 2, 1), 6);
-- expect:
-- 0.667|0.666667

-- case: scalar_mwp_1_3_0_floor
SELECT round(mwp(1, 3, 0), 6), round(mwp(1, 3, 0, 0), 6), round(mwp(1, 3, 0, '1/3'), 6);
-- expect:
-- 0.33|0.25|0.333333

-- case: scalar_mwp_3_2_0
SELECT round(mwp(3, 2, 0), 6);
-- expect:
-- 0.6

-- case: scalar_mwp_match_point_examples
-- 18/24 and 14/24
SELECT round(mwp(6, 2, 0), 6), round(mwp(4, 2, 2), 6);
-- expect:
-- 0.75|0.583333

-- case: scalar_gwp_player_H
SELECT round(gwp(7, 3, 0), 6);
-- expect:
-- 0.7

-- case: scalar_gwp_player_I
SELECT round(gwp(3, 8, 0), 6), round(gwp(3, 8, 0, 0), 6);
-- expect:
-- 0.33|0.272727

-- case: scalar_gwp_per_match_examples
SELECT round(gwp(2, 0, 0), 6), round(gwp(2, 1, 0), 6), round(gwp(2, 0, 1), 6), round(gwp(0, 0, 3), 6);
-- expect:
-- 1.0|0.666667|0.777778|0.333333

-- case: scalar_omw_player_F_from_records
SELECT round((mwp(4,4,0) + mwp(7,1,0) + mwp(1,3,1) + mwp(3,3,1)
            + mwp(6,2,0) + mwp(5,2,1) + mwp(4,3,1) + mwp(6,1,1)) / 8, 6),
       round((mwp(4,4,0,'1/3') + mwp(7,1,0,'1/3') + mwp(1,3,1,'1/3') + mwp(3,3,1,'1/3')
            + mwp(6,2,0,'1/3') + mwp(5,2,1,'1/3') + mwp(4,3,1,'1/3') + mwp(6,1,1,'1/3')) / 8, 6);
-- expect:
-- 0.616399|0.616815

-- case: scalar_omw_player_G_from_records
SELECT round((mwp(7,1,0) + mwp(1,3,1) + mwp(3,3,1)
            + mwp(6,2,0) + mwp(5,2,1) + mwp(4,3,1) + mwp(6,1,1)) / 7, 6),
       round((mwp(7,1,0,'1/3') + mwp(1,3,1,'1/3') + mwp(3,3,1,'1/3')
            + mwp(6,2,0,'1/3') + mwp(5,2,1,'1/3') + mwp(4,3,1,'1/3') + mwp(6,1,1,'1/3')) / 7, 6);
-- expect:
-- 0.633027|0.633503

-- case: scalar_omw_published_working_two_decimals
-- the old text rounds each part first: 4.94 / 8 and 4.44 / 7
WITH f(r) AS (VALUES (mwp(4,4,0)), (mwp(7,1,0)), (mwp(1,3,1)), (mwp(3,3,1)),
                     (mwp(6,2,0)), (mwp(5,2,1)), (mwp(4,3,1)), (mwp(6,1,1)))
SELECT round(sum(round(r, 2)), 2), round(sum(round(r, 2)) / 8, 2),
       round(sum(round(r, 2)) - round(mwp(4,4,0), 2), 2), round((sum(round(r, 2)) - round(mwp(4,4,0), 2)) / 7, 2)
FROM f;
-- expect:
-- 4.94|0.62|4.44|0.63
