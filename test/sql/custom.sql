-- Custom orders, per-tiebreaker options, the family of points, the listing
-- tables and every event at once.  Values worked out by hand below.
--
-- Event 1: R1 A beats B 2-0, C beats D 2-1; R2 A beats C 2-1, B beats D 2-0.
--   A 2-0 (6 MP), B 1-1 (3), C 1-1 (3), D 0-2 (0)
--   MWP (floor 0.33): A 1, B 1/2, C 1/2, D 0.33
--   OMW: A (1/2 + 1/2)/2 = 1/2; B (1 + 0.33)/2 = 0.665; C (0.33 + 1)/2 = 0.665;
--        D (1/2 + 1/2)/2 = 1/2
--   GW: A 12/15 = 0.8; B 6/12 = 0.5; C 9/18 = 0.5; D 3/15 -> 0.33
-- Event 2: one match, E beats F 2-1.
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
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 1, 'A', 'B', 2, 0, 0), (1, 1, 'C', 'D', 2, 1, 0),
  (1, 2, 'A', 'C', 2, 1, 0), (1, 2, 'B', 'D', 2, 0, 0),
  (2, 1, 'E', 'F', 2, 1, 0);

-- case: custom_order_ranks_and_shares_ties
-- B and C are equal on match points, GW% and OMW%: they share rank 2.
SELECT rank, player, match_points, round(gwp, 4), round(omwp, 4), decided_by
FROM standings(1, 'mp,gw,omw');
-- expect:
-- 1|A|6|0.8|0.5|
-- 2|B|3|0.5|0.665|match_points
-- 2|C|3|0.5|0.665|
-- 4|D|0|0.33|0.5|match_points

-- case: custom_order_by_full_names
SELECT rank, player FROM standings(1, 'match_points,omwp,gwp');
-- expect:
-- 1|A
-- 2|B
-- 2|C
-- 4|D

-- case: custom_order_columns_outside_the_order_are_null
SELECT player, ogwp IS NULL, mwp IS NULL FROM standings(1, 'mp,omw') WHERE player = 'A';
-- expect:
-- A|1|1

-- case: option_on_one_tiebreaker_applies_to_it_alone
-- omw(floor=1/2): B (1 + 1/2)/2 = 3/4; gwp keeps the policy floor 0.33 (D).
SELECT player, round(omwp, 4), round(gwp, 4) FROM standings(1, 'mp,omw(floor=1/2),gw')
WHERE player IN ('B', 'D');
-- expect:
-- B|0.75|0.5
-- D|0.5|0.33

-- case: floor_argument_reaches_every_tiebreaker
-- floor 1/2: B's OMW (1 + 1/2)/2 = 3/4, D's GW 1/2.
SELECT player, round(omwp, 4), round(gwp, 4) FROM standings(1, 'mp,omw,gw', '1/2')
WHERE player IN ('B', 'D');
-- expect:
-- B|0.75|0.5
-- D|0.5|0.5

-- case: chess_family_gives_chess_points
-- 'points' is a chess tiebreaker: a win is 1 point, shown as REAL.
-- Buchholz: A 1 + 1, B 2 + 0, C 0 + 2, D 1 + 1: all 2.
SELECT rank, player, match_points, points, buchholz FROM standings(1, 'points,buchholz');
-- expect:
-- 1|A|2.0|2.0|2.0
-- 2|B|1.0|1.0|2.0
-- 2|C|1.0|1.0|2.0
-- 4|D|0.0|0.0|2.0

-- case: magic_family_gives_magic_points
SELECT player, match_points, typeof(match_points) FROM standings(1, 'omw,mp') WHERE player = 'A';
-- expect:
-- A|6|integer

-- case: tiebreaker_listed_twice
SELECT * FROM standings(1, 'mp,omw,mp');
-- error: standings(): tiebreaker match_points is listed twice in policy 'mp,omw,mp'

-- case: unknown_tiebreaker_lists_the_valid_ones
SELECT * FROM standings(1, 'mp,nope');
-- error-match: standings(): unknown policy or tiebreaker 'nope' (policies: mtg, *; tiebreakers: match_points, mwp, *)

-- case: trailing_comma
SELECT * FROM standings(1, 'mp,');
-- error: standings(): cannot parse policy 'mp,' (expected a name with options, e.g. 'mtg(floor=1/3)', or a list of tiebreakers, e.g. 'mp,omw,gw,ogw')

-- case: unknown_option_on_a_tiebreaker
SELECT * FROM standings(1, 'mp,omw(bonus=1)');
-- error-match: standings(): unknown option 'bonus' in policy 'mp,omw(bonus=1)' (known: floor, *)

-- case: bad_floor_on_a_tiebreaker
SELECT * FROM standings(1, 'mp,omw(floor=3/2)');
-- error: standings(): floor must be a number or fraction between 0 and 1, got '3/2'

-- case: every_policy_is_listed_and_runs
SELECT p.name, count(s.rank), min(s.rank) FROM tiebreak_policies p, standings(1, p.name) s
GROUP BY p.name ORDER BY p.name;
-- expect:
-- battlefy|4|1
-- fide|4|1
-- fide_rr|4|1
-- hct|4|1
-- melee|4|1
-- melee_2023|4|1
-- melee_2024|4|1
-- mtg|4|1
-- pokemon|4|1
-- pokemon_2023|4|1
-- yugioh|4|1

-- case: every_listed_tiebreaker_is_a_column_and_a_custom_order
-- A group tiebreaker alone still ranks; each name is a standings() column.
SELECT count(*) FROM tiebreakers t
WHERE t.name NOT IN (SELECT name FROM pragma_table_xinfo('standings'));
-- expect:
-- 0

-- case: tiebreakers_names_are_unique
SELECT count(*) = count(DISTINCT name), count(*) > 20 FROM tiebreakers;
-- expect:
-- 1|1

-- case: mtg_listing
SELECT tiebreakers, also_shown FROM tiebreak_policies WHERE name = 'mtg';
-- expect:
-- match_points,omwp,gwp,ogwp|mwp

-- case: every_event_without_event_id
SELECT event_id, rank, player FROM standings WHERE policy = 'mtg' ORDER BY event_id, rank, player;
-- expect:
-- 1|1|A
-- 1|2|B
-- 1|2|C
-- 1|4|D
-- 2|1|E
-- 2|2|F

-- case: every_event_as_of_round
SELECT event_id, count(*) FROM standings WHERE policy = 'mtg' AND as_of_round = 1 GROUP BY 1;
-- expect:
-- 1|4
-- 2|2

-- case: every_event_rows_interleaved_in_table_order
-- every event is read in one pass over the table; rows of events that alternate
-- in it (as a league's concurrent events would) reach their own event, and the
-- events come out in event_id order: integers, then text
CREATE TEMP TABLE mixed AS SELECT * FROM matches WHERE 0;
INSERT INTO mixed SELECT 'x', round, player_a, player_b, a_wins, b_wins, draws, result FROM matches WHERE event_id = 2;
INSERT INTO mixed SELECT event_id, round, player_a, player_b, a_wins, b_wins, draws, result
  FROM matches ORDER BY round DESC, event_id DESC;
INSERT INTO mixed VALUES (NULL, 1, 'Z', 'Y', 2, 0, 0, NULL);
SELECT event_id, rank, player, match_points, round(omwp, 4)
FROM standings WHERE policy = 'mtg' AND matches_table = 'mixed';
-- expect:
-- 1|1|A|6|0.5
-- 1|2|B|3|0.665
-- 1|2|C|3|0.665
-- 1|4|D|0|0.5
-- 2|1|E|3|0.33
-- 2|2|F|0|1.0
-- x|1|E|3|0.33
-- x|2|F|0|1.0

-- case: every_event_same_as_each_event
-- the one-pass read of every event gives what one call per event gives
CREATE TEMP TABLE mixed AS SELECT * FROM matches WHERE 0;
INSERT INTO mixed SELECT * FROM matches ORDER BY round DESC, player_a;
INSERT INTO mixed SELECT 2.0 + event_id, round, player_a, player_b, a_wins, b_wins, draws, result FROM matches;
SELECT count(*) FROM (
  SELECT * FROM standings WHERE policy = 'mtg' AND matches_table = 'mixed'
  EXCEPT
  SELECT s.* FROM (VALUES (1), (2), (3), (4)) AS e, standings(e.column1, 'mtg', NULL, NULL, 'mixed') AS s);
-- expect:
-- 0

-- case: every_event_whole_real_ids_are_integers
CREATE TEMP TABLE mixed AS SELECT * FROM matches WHERE event_id = 2;
INSERT INTO mixed SELECT 2.0, 2, 'F', 'G', 2, 0, 0, NULL;
SELECT event_id, player, rounds FROM standings WHERE policy = 'mtg' AND matches_table = 'mixed' ORDER BY player;
-- expect:
-- 2|E|1
-- 2|F|2
-- 2|G|1

-- case: every_event_ids_of_every_kind_as_each_event
-- each event is built from the rows kept for it: player ids that are small
-- integers, large or negative integers and text, in events whose rows
-- alternate in the table, come out as one call per event gives them
CREATE TEMP TABLE mixed AS SELECT * FROM matches WHERE 0;
INSERT INTO mixed SELECT e.column1, m.round,
    CASE e.column2 WHEN 0 THEN m.player_a WHEN 1 THEN unicode(m.player_a)
      WHEN 2 THEN unicode(m.player_a) * 100000000000 ELSE -unicode(m.player_a) END,
    CASE e.column2 WHEN 0 THEN m.player_b WHEN 1 THEN unicode(m.player_b)
      WHEN 2 THEN unicode(m.player_b) * 100000000000 ELSE -unicode(m.player_b) END,
    m.a_wins, m.b_wins, m.draws, m.result
  FROM matches AS m, (VALUES ('t', 0), (5, 1), (6, 2), (7, 3)) AS e
  ORDER BY m.round DESC, m.player_a, e.column2;
SELECT count(*), count(DISTINCT event_id), (SELECT count(*) FROM (
  SELECT * FROM standings WHERE policy = 'mtg' AND matches_table = 'mixed'
  EXCEPT
  SELECT s.* FROM (VALUES ('t'), (5), (6), (7)) AS e,
    standings(e.column1, 'mtg', NULL, NULL, 'mixed') AS s))
FROM standings WHERE policy = 'mtg' AND matches_table = 'mixed';
-- expect:
-- 24|4|0

-- case: every_event_games_and_as_of_round_for_each_event
-- the games and the round limit of each event are read when its turn comes
CREATE TEMP TABLE g (event_id, round, player_a, game, winner);
INSERT INTO g VALUES (1, 1, 'A', 1, 'A'), (1, 1, 'A', 2, 'A'),
  (1, 1, 'C', 1, 'C'), (1, 1, 'C', 2, 'D'), (1, 1, 'C', 3, 'C'),
  (2, 1, 'E', 1, 'E'), (2, 1, 'E', 2, 'F'), (2, 1, 'E', 3, 'E');
-- (a games row past as_of_round names no match: read, it would be an error)
INSERT INTO g VALUES (2, 2, 'E', 1, 'E');
SELECT event_id, rank, player, game_wins, game_losses, rounds
FROM standings WHERE policy = 'mtg' AND as_of_round = 1 AND games_table = 'g';
-- expect:
-- 1|1|A|2|0|1
-- 1|2|C|2|1|1
-- 1|3|D|1|2|1
-- 1|4|B|0|2|1
-- 2|1|E|2|1|1
-- 2|2|F|1|2|1

-- case: every_event_games_of_a_later_event_are_read
CREATE TEMP TABLE g (event_id, round, player_a, game, winner);
INSERT INTO g VALUES (2, 1, 'E', 1, 'Z');
SELECT count(*) FROM standings WHERE policy = 'mtg' AND as_of_round = 1 AND games_table = 'g';
-- error: standings(): event 2: games table: winner 'Z' did not play in round 1 match of player 'E'

-- case: every_event_error_in_a_later_event
-- an event is checked when its turn comes, after the rows of the events
-- before it; the error names the event
CREATE TEMP TABLE mixed AS SELECT * FROM matches;
INSERT INTO mixed VALUES (3, 1, 'P', 'Q', 2, 0, 0, NULL), (3, 1, 'P', 'R', 2, 0, 0, NULL);
SELECT count(*) FROM standings WHERE policy = 'mtg' AND matches_table = 'mixed';
-- error: standings(): event 3: player 'P' is paired twice in round 1

-- case: every_event_blob_id_is_an_error
CREATE TEMP TABLE mixed AS SELECT * FROM matches;
INSERT INTO mixed VALUES (x'01', 1, 'Z', 'Y', 2, 0, 0, NULL);
SELECT count(*) FROM standings WHERE policy = 'mtg' AND matches_table = 'mixed';
-- error: standings(): event_id must be INTEGER or TEXT, got a blob

-- case: or_in_where_plans_with_the_arguments
SELECT count(*) FROM standings(1, 'mtg') WHERE wins = 2 OR losses = 2;
-- expect:
-- 2

-- case: real_whole_number_event_id
SELECT count(*), event_id FROM standings(1.0, 'mtg');
-- expect:
-- 4|1.0

-- case: melee_presets_are_their_options
-- each era's preset computes what its option form does, on every column;
-- the eras differ on this event (a drawn game, a GW% under the floor)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (9, 1, 'A', 'B', 2, 0, 0), (9, 1, 'C', 'D', 1, 1, 1), (9, 2, 'A', 'C', 2, 1, 0), (9, 2, 'B', 'D', 0, 2, 0);
SELECT (SELECT count(*) FROM (SELECT * FROM standings(9, 'melee')
                              EXCEPT SELECT * FROM standings(9, 'mtg(floor=1/3, distinct_opponents=1, freeze_cut=1, no_opponents=0.3333)'))),
       (SELECT count(*) FROM (SELECT * FROM standings(9, 'melee_2024')
                              EXCEPT SELECT * FROM standings(9, 'mtg(floor=1/3, own_gwp_floor=0, distinct_opponents=1, freeze_cut=1, no_opponents=1/3)'))),
       (SELECT count(*) FROM (SELECT * FROM standings(9, 'melee_2023')
                              EXCEPT SELECT * FROM standings(9, 'mtg(floor=1/3, game_draw_points=0, freeze_cut=1, no_opponents=0)'))),
       (SELECT count(*) FROM (SELECT player, gwp FROM standings(9, 'melee')
                              EXCEPT SELECT player, gwp FROM standings(9, 'melee_2024'))) > 0,
       (SELECT count(*) FROM (SELECT player, gwp FROM standings(9, 'melee')
                              EXCEPT SELECT player, gwp FROM standings(9, 'melee_2023'))) > 0;
-- expect:
-- 0|0|0|1|1

-- case: melee_options_worked_by_hand
-- Event 10, floor 1/3.  R1: A-B 2-0, C-D 2-1, E a bye (E plays no one);
-- R2: A-C 2-1, B-D 2-0; R3 (after a cut after round 2): B-A 2-1, a rematch.
--   final MWP: A 6/9, B 6/9, C 1/2, D 0 -> 1/3; GWP: A 15/24, B 12/21, C 9/18,
--     D 3/15 -> 1/3.  After round 2: A 1 (12/15 in games), B 1/2 (6/12).
--   A: OMW (B + C + B)/3 = 11/18, each opponent once (B + C)/2 = 7/12;
--      OGW (4/7 + 1/2 + 4/7)/3 = 23/42, once (4/7 + 1/2)/2 = 15/28.
--   B: OMW (A + D + A)/3 = 5/9, once 1/2; OGW 19/36, once 23/48.
--   C (out after round 2): OMW (D + A)/2 = 1/2, frozen at the cut (1/3 + 1)/2
--      = 2/3; OGW (1/3 + 5/8)/2 = 23/48, frozen (1/3 + 4/5)/2 = 17/30.
--   D: OMW (C + B)/2 = 7/12, frozen (1/2 + 1/2)/2 = 1/2; OGW 15/28, frozen 1/2.
--   E: no opponent: NULL, or the no_opponents value.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (10, 1, 'A', 'B', 2, 0, 0), (10, 1, 'C', 'D', 2, 1, 0), (10, 1, 'E', NULL, 2, 0, 0),
  (10, 2, 'A', 'C', 2, 1, 0), (10, 2, 'B', 'D', 2, 0, 0), (10, 3, 'B', 'A', 2, 1, 0);
SELECT player, round(a.omwp, 6), round(a.ogwp, 6), round(b.omwp, 6), round(b.ogwp, 6),
       round(c.omwp, 6), round(c.ogwp, 6)
FROM standings(10, 'mtg(floor=1/3)') AS a
JOIN standings(10, 'mtg(floor=1/3, distinct_opponents=1, no_opponents=1/3)') AS b USING (player)
JOIN standings(10, 'mtg(floor=1/3, freeze_cut=1, cut_after=2)') AS c USING (player)
ORDER BY player;
-- expect:
-- A|0.611111|0.547619|0.583333|0.535714|0.611111|0.547619
-- B|0.555556|0.527778|0.5|0.479167|0.555556|0.527778
-- C|0.5|0.479167|0.5|0.479167|0.666667|0.566667
-- D|0.583333|0.535714|0.583333|0.535714|0.5|0.5
-- E|||0.333333|0.333333||

-- case: freeze_cut_needs_an_event_that_went_on
-- without cut_after, or as of the cut round itself, nothing is frozen; after
-- round 1 only E stops, who has no opponent to freeze
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (10, 1, 'A', 'B', 2, 0, 0), (10, 1, 'C', 'D', 2, 1, 0), (10, 1, 'E', NULL, 2, 0, 0),
  (10, 2, 'A', 'C', 2, 1, 0), (10, 2, 'B', 'D', 2, 0, 0), (10, 3, 'B', 'A', 2, 1, 0);
SELECT (SELECT count(*) FROM (SELECT * FROM standings(10, 'mtg(freeze_cut=1)')
                              EXCEPT SELECT * FROM standings(10, 'mtg'))),
       (SELECT count(*) FROM (SELECT * FROM standings(10, 'mtg(freeze_cut=1, cut_after=2)', NULL, 2)
                              EXCEPT SELECT * FROM standings(10, 'mtg(cut_after=2)', NULL, 2))),
       (SELECT count(*) FROM (SELECT * FROM standings(10, 'mtg(freeze_cut=1, cut_after=1)')
                              EXCEPT SELECT * FROM standings(10, 'mtg(cut_after=1)'))),
       (SELECT count(*) FROM standings(10, 'mtg'));
-- expect:
-- 0|0|0|5

-- case: melee_option_errors
SELECT * FROM standings(10, 'mtg(distinct_opponents=2)');
-- error: standings(): distinct_opponents must be an integer from 0 to 1, got '2'

-- case: no_opponents_is_read_by_omwp_and_ogwp_only
SELECT * FROM standings(10, 'mp,gw(no_opponents=1/3)');
-- error: standings(): option no_opponents does nothing on gwp in policy 'mp,gw(no_opponents=1/3)': gwp does not read it

-- case: freeze_cut_is_read_by_omwp_and_ogwp
SELECT * FROM standings(10, 'fide(freeze_cut=1)');
-- error: standings(): option freeze_cut does nothing in policy 'fide(freeze_cut=1)': no tiebreaker of it reads it

-- case: bye_of_the_format
-- best_of=N: a bye is the match won in that format, 1-0 in best-of-one,
-- 3-0 in best-of-five, whether the row says 0-0-0, 2-0-0 or the count;
-- a lone loss mirrors it.  E's bye in event 10 (2-0-0), F's 0-0-0 here.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result) VALUES
  (11, 1, 'E', NULL, 2, 0, 0, NULL), (11, 1, 'F', NULL, 0, 0, 0, NULL),
  (11, 1, 'G', NULL, 0, 0, 0, 'loss'), (11, 1, 'H', NULL, 1, 0, 0, NULL);
SELECT player, game_wins || '-' || game_losses, game_points
FROM standings(11, 'mtg(best_of=1)') ORDER BY player;
-- expect:
-- E|1-0|3
-- F|1-0|3
-- G|0-1|0
-- H|1-0|3

-- case: bye_of_best_of_five
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (12, 1, 'E', NULL, 2, 0, 0), (12, 1, 'G', NULL, 0, 2, 0);
SELECT player, game_wins || '-' || game_losses FROM standings(12, 'mtg(best_of=5)')
ORDER BY player;
-- expect:
-- E|3-0
-- G|0-3

-- case: bye_of_the_format_other_counts
-- 1-0-0 is a bye's count only in best-of-one (or best-of-two)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (11, 1, 'H', NULL, 1, 0, 0);
SELECT * FROM standings(11, 'mtg(best_of=5)');
-- error: standings(): event 11: bye of player 'H' in round 1 has game counts 1-0-0 (expected 3-0-0 or 0-0-0)
