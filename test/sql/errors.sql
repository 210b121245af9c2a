-- Every error message of the spec, raised by standings() and by the scalar
-- functions, and the state the user's tables are left in after an error.
-- Each case adds its own bad rows to a clean copy of this setup.

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
CREATE TABLE games (
  event_id  NOT NULL,
  round     INTEGER NOT NULL,
  player_a  NOT NULL,
  game      INTEGER NOT NULL,
  winner,
  PRIMARY KEY (event_id, round, player_a, game)
);
-- Same columns without constraints, so that it can hold a NULL player_a.
CREATE TABLE loose (event_id, round, player_a, player_b, a_wins, b_wins, draws, result);

-- A valid event 1 to show that other events' bad rows do not matter.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 1, 'A', 'B', 2, 0, 0), (1, 1, 'C', NULL, 2, 0, 0),
  (1, 2, 'A', 'C', 2, 1, 0), (1, 2, 'B', NULL, 0, 0, 0);

-- case: missing_both_arguments
SELECT * FROM standings;
-- error: standings(): the policy argument is required, e.g. standings(1, 'mtg') or WHERE policy = 'mtg' for every event

-- case: missing_both_arguments_empty_call
SELECT * FROM standings();
-- error: standings(): the policy argument is required, e.g. standings(1, 'mtg') or WHERE policy = 'mtg' for every event

-- case: missing_policy_argument
SELECT * FROM standings(1);
-- error: standings(): the policy argument is required, e.g. standings(1, 'mtg') or WHERE policy = 'mtg' for every event

-- case: every_event_when_event_id_absent
SELECT count(*), count(DISTINCT event_id) FROM standings WHERE policy = 'mtg';
-- expect:
-- 3|1

-- case: missing_policy_named
SELECT * FROM standings WHERE event_id = 1;
-- error: standings(): the policy argument is required, e.g. standings(1, 'mtg') or WHERE policy = 'mtg' for every event

-- case: event_id_null
SELECT * FROM standings(NULL, 'mtg');
-- error: standings(): event_id is NULL (readfile() gives NULL for a file it cannot read)

-- case: event_id_null_as_from_a_missing_file
-- readfile() of a path that does not exist, as the one statement per file format reads it
SELECT * FROM standings(CAST(NULL AS TEXT), 'pokemon', NULL, NULL, 'tom_matches', '', 'tom_players');
-- error: standings(): event_id is NULL (readfile() gives NULL for a file it cannot read)

-- case: policy_null
SELECT * FROM standings(1, NULL);
-- error: standings(): policy is NULL

-- case: unknown_policy
SELECT * FROM standings(1, 'nope');
-- error: standings(): unknown policy 'nope' (known: mtg, melee, melee_2024, melee_2023, battlefy, hct, pokemon, pokemon_2023, yugioh, fide, fide_rr)

-- case: unknown_policy_option
SELECT * FROM standings(1, 'mtg(x=1)');
-- error: standings(): unknown option 'x' in policy 'mtg(x=1)' (known: floor, game_draw_points, own_gwp_floor, cap, tie_credit, freeze_drops, late_loss, opponent_bye_is_win, t1_floor, kts_truncate, rules, best_of, unrated, ks_limit, ks_percent, round_robin, cut_after, swiss_rounds, distinct_opponents, no_opponents, freeze_cut, playoff_values, forfeits_played, win_points, draw_points)

-- case: unknown_policy_option_after_known_one
SELECT * FROM standings(1, 'mtg(floor=1/3, bonus=2)');
-- error: standings(): unknown option 'bonus' in policy 'mtg(floor=1/3, bonus=2)' (known: floor, game_draw_points, own_gwp_floor, cap, tie_credit, freeze_drops, late_loss, opponent_bye_is_win, t1_floor, kts_truncate, rules, best_of, unrated, ks_limit, ks_percent, round_robin, cut_after, swiss_rounds, distinct_opponents, no_opponents, freeze_cut, playoff_values, forfeits_played, win_points, draw_points)

-- case: floor_above_one_real
SELECT * FROM standings(1, 'mtg', 1.5);
-- error: standings(): floor must be a number or fraction between 0 and 1, got '1.5'

-- case: floor_above_one_text
SELECT * FROM standings(1, 'mtg', '1.5');
-- error: standings(): floor must be a number or fraction between 0 and 1, got '1.5'

-- case: floor_above_one_integer
SELECT * FROM standings(1, 'mtg', 2);
-- error: standings(): floor must be a number or fraction between 0 and 1, got '2'

-- case: floor_negative
SELECT * FROM standings(1, 'mtg', -0.5);
-- error: standings(): floor must be a number or fraction between 0 and 1, got '-0.5'

-- case: floor_fraction_above_one
SELECT * FROM standings(1, 'mtg', '4/3');
-- error: standings(): floor must be a number or fraction between 0 and 1, got '4/3'

-- case: floor_fraction_zero_denominator
SELECT * FROM standings(1, 'mtg', '1/0');
-- error: standings(): floor must be a number or fraction between 0 and 1, got '1/0'

-- case: floor_not_a_number
SELECT * FROM standings(1, 'mtg', 'abc');
-- error: standings(): floor must be a number or fraction between 0 and 1, got 'abc'

-- case: floor_empty_text
SELECT * FROM standings(1, 'mtg', '');
-- error: standings(): floor must be a number or fraction between 0 and 1, got ''

-- case: floor_bad_in_policy_option
SELECT * FROM standings(1, 'mtg(floor=1.5)');
-- error: standings(): floor must be a number or fraction between 0 and 1, got '1.5'

-- case: floor_bad_named
SELECT * FROM standings WHERE event_id = 1 AND policy = 'mtg' AND floor = '3/2';
-- error: standings(): floor must be a number or fraction between 0 and 1, got '3/2'

-- case: missing_matches_table_named
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'nosuch');
-- error: standings(): no such table: nosuch

-- case: missing_default_matches_table
DROP TABLE matches;
SELECT * FROM standings(1, 'mtg');
-- error: standings(): no such table: matches

-- case: missing_games_table_named
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'nosuch_games');
-- error: standings(): no such table: nosuch_games

-- case: missing_default_games_table_is_fine
DROP TABLE games;
SELECT rank, player FROM standings(1, 'mtg');
-- expect:
-- 1|A
-- 2|C
-- 3|B

-- case: missing_column_a_wins
CREATE TABLE m2 (event_id, round, player_a, player_b, b_wins, draws);
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'm2');
-- error: standings(): table m2 has no column a_wins

-- case: missing_column_round_default_table
DROP TABLE matches;
CREATE TABLE matches (event_id, player_a, player_b, a_wins, b_wins, draws);
SELECT * FROM standings(1, 'mtg');
-- error: standings(): table matches has no column round

-- case: missing_column_player_b
CREATE TABLE m3 (event_id, round, player_a, a_wins, b_wins, draws);
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'm3');
-- error: standings(): table m3 has no column player_b

-- case: missing_column_draws_in_view
CREATE VIEW v AS SELECT event_id, round, player_a, player_b, a_wins, b_wins FROM matches;
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'v');
-- error: standings(): table v has no column draws

-- case: missing_column_in_games_table
CREATE TABLE g2 (event_id, round, player_a, game);
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g2');
-- error: standings(): table g2 has no column winner

-- case: paired_twice_text_id
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 3, 'X', 'Y', 2, 0, 0), ('e', 3, 'Z', 'X', 2, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': player 'X' is paired twice in round 3

-- case: paired_twice_integer_id
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (2, 3, 7, 8, 2, 0, 0), (2, 3, 9, 7, 2, 0, 0);
SELECT * FROM standings(2, 'mtg');
-- error: standings(): event 2: player 7 is paired twice in round 3

-- case: paired_twice_as_player_a
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 1, 'X', 'Y', 2, 0, 0), ('e', 1, 'X', 'Z', 2, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': player 'X' is paired twice in round 1

-- case: paired_twice_match_and_bye
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 2, 'X', 'Y', 2, 0, 0), ('e', 2, 'X', NULL, 2, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': player 'X' is paired twice in round 2

-- case: paired_twice_two_byes
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 1, 'X', NULL, 2, 0, 0), ('e', 1, 'X', NULL, 0, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': player 'X' is paired twice in round 1

-- case: paired_with_themself
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 1, 'X', 'Y', 2, 0, 0), ('e', 2, 'X', 'X', 2, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': player 'X' is paired with themself in round 2

-- case: paired_with_themself_integer_id
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (2, 4, 5, 5, 0, 0, 0);
SELECT * FROM standings(2, 'mtg');
-- error: standings(): event 2: player 5 is paired with themself in round 4

-- case: negative_a_wins
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 2, 'X', 'Y', -1, 2, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': negative game count in round 2 match of player 'X'

-- case: negative_b_wins
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 2, 'X', 'Y', 2, -2, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': negative game count in round 2 match of player 'X'

-- case: negative_draws_integer_id
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (2, 2, 3, 4, 0, 0, -3);
SELECT * FROM standings(2, 'mtg');
-- error: standings(): event 2: negative game count in round 2 match of player 3

-- case: unknown_result
INSERT INTO matches VALUES ('e', 2, 'X', 'Y', 2, 0, 0, 'foo');
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': unknown result 'foo' in round 2 match of player 'X' (expected NULL, 'a', 'b', 'draw', 'double_loss', 'forfeit_a', 'forfeit_b', 'double_forfeit', 'half_bye', 'zero_bye' or 'loss')

-- case: unknown_result_empty_text
INSERT INTO matches VALUES ('e', 2, 'X', 'Y', 2, 0, 0, '');
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': unknown result '' in round 2 match of player 'X' (expected NULL, 'a', 'b', 'draw', 'double_loss', 'forfeit_a', 'forfeit_b', 'double_forfeit', 'half_bye', 'zero_bye' or 'loss')

-- case: result_a_contradicts_counts
INSERT INTO matches VALUES ('e', 2, 'X', 'Y', 0, 2, 0, 'a');
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': result 'a' contradicts game counts 0-2-0 in round 2 match of player 'X'

-- case: result_b_contradicts_counts
INSERT INTO matches VALUES ('e', 5, 'X', 'Y', 2, 1, 1, 'b');
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': result 'b' contradicts game counts 2-1-1 in round 5 match of player 'X'

-- case: result_a_contradicts_counts_integer_id
INSERT INTO matches VALUES (2, 1, 12, 13, 1, 2, 0, 'a');
SELECT * FROM standings(2, 'mtg');
-- error: standings(): event 2: result 'a' contradicts game counts 1-2-0 in round 1 match of player 12

-- case: bye_with_one_game
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 1, 'X', NULL, 1, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': bye of player 'X' in round 1 has game counts 1-0-0 (expected 2-0-0 or 0-0-0)

-- case: bye_with_losses
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 3, 'X', NULL, 2, 1, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': bye of player 'X' in round 3 has game counts 2-1-0 (expected 2-0-0 or 0-0-0)

-- case: bye_with_draws_integer_id
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (2, 1, 6, NULL, 0, 0, 3);
SELECT * FROM standings(2, 'mtg');
-- error: standings(): event 2: bye of player 6 in round 1 has game counts 0-0-3 (expected 2-0-0 or 0-0-0)

-- case: bye_with_games_in_chess
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 1, 'X', NULL, 2, 0, 0);
SELECT * FROM standings('e', 'fide');
-- error: standings(): event 'e': bye of player 'X' in round 1 has game counts 2-0-0 (expected 0-0-0)

-- case: null_player_a
INSERT INTO loose VALUES ('e', 1, NULL, 'Y', 2, 0, 0, NULL);
SELECT * FROM standings('e', 'mtg', NULL, NULL, 'loose');
-- error: standings(): event 'e': NULL player_a in round 1

-- case: round_zero
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 0, 'X', 'Y', 2, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': round must be an integer from 1 to 1000000000, got 0

-- case: round_negative
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 1, 'X', 'Y', 2, 0, 0), ('e', -2, 'Z', 'W', 2, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': round must be an integer from 1 to 1000000000, got -2

-- case: bad_rows_of_other_events_are_not_read
INSERT INTO matches VALUES ('e', 2, 'X', 'Y', 0, 2, 0, 'a'), ('e', 0, 'X', 'X', -1, 0, 0, 'foo');
SELECT rank, player FROM standings(1, 'mtg');
-- expect:
-- 1|A
-- 2|C
-- 3|B

-- case: bad_rows_after_as_of_round_are_not_read
INSERT INTO matches VALUES (1, 3, 'A', 'B', 0, 2, 0, 'a');
SELECT rank, player FROM standings(1, 'mtg', NULL, 2);
-- expect:
-- 1|A
-- 2|C
-- 3|B

-- case: bad_row_before_as_of_round_is_read
INSERT INTO matches VALUES (1, 3, 'A', 'B', 0, 2, 0, 'a');
SELECT rank, player FROM standings(1, 'mtg', NULL, 3);
-- error: standings(): event 1: result 'a' contradicts game counts 0-2-0 in round 3 match of player 'A'

-- case: scalar_omwp_unknown_policy
SELECT omwp(1, 'A', 'nope');
-- error: omwp(): unknown policy 'nope' (known: mtg, melee, melee_2024, melee_2023, battlefy, hct, pokemon, pokemon_2023, yugioh, fide, fide_rr)

-- case: scalar_ogwp_unknown_option
SELECT ogwp(1, 'A', 'mtg(x=1)');
-- error: ogwp(): unknown option 'x' in policy 'mtg(x=1)' (known: floor, game_draw_points, own_gwp_floor, cap, tie_credit, freeze_drops, late_loss, opponent_bye_is_win, t1_floor, kts_truncate, rules, best_of, unrated, ks_limit, ks_percent, round_robin, cut_after, swiss_rounds, distinct_opponents, no_opponents, freeze_cut, playoff_values, forfeits_played, win_points, draw_points)

-- case: scalar_omwp_bad_floor_option
SELECT omwp(1, 'A', 'mtg(floor=2)');
-- error: omwp(): floor must be a number or fraction between 0 and 1, got '2'

-- case: scalar_mwp_bad_floor
SELECT mwp(5, 2, 1, 1.5);
-- error: mwp(): floor must be a number or fraction between 0 and 1, got '1.5'

-- case: scalar_gwp_bad_floor
SELECT gwp(5, 2, 1, 'abc');
-- error: gwp(): floor must be a number or fraction between 0 and 1, got 'abc'

-- case: scalar_mwp_paired_twice
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 3, 'X', 'Y', 2, 0, 0), ('e', 3, 'Z', 'X', 2, 0, 0);
SELECT mwp('e', 'X');
-- error: mwp(): event 'e': player 'X' is paired twice in round 3

-- case: scalar_gwp_bad_bye
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 1, 'X', NULL, 1, 0, 0), ('e', 1, 'Y', 'Z', 2, 0, 0);
SELECT gwp('e', 'X');
-- error: gwp(): event 'e': bye of player 'X' in round 1 has game counts 1-0-0 (expected 2-0-0 or 0-0-0)

-- case: scalar_omwp_contradicting_result
INSERT INTO matches VALUES ('e', 2, 'X', 'Y', 0, 2, 0, 'a');
SELECT omwp('e', 'X');
-- error: omwp(): event 'e': result 'a' contradicts game counts 0-2-0 in round 2 match of player 'X'

-- case: scalar_ogwp_missing_table
DROP TABLE matches;
SELECT ogwp(1, 'A');
-- error: ogwp(): no such table: matches

-- case: scalar_mwp_round_zero
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 0, 'X', 'Y', 2, 0, 0);
SELECT mwp('e', 'X');
-- error: mwp(): event 'e': round must be an integer from 1 to 1000000000, got 0

-- case: table_unchanged_after_error
INSERT INTO matches VALUES ('e', 2, 'X', 'Y', 0, 2, 0, 'a');
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': result 'a' contradicts game counts 0-2-0 in round 2 match of player 'X'
-- then:
SELECT count(*),
       sum(round * 1000 + a_wins * 100 + b_wins * 10 + draws),
       group_concat(event_id || ':' || round || ':' || player_a || '-' || ifnull(player_b, 'bye') || ':' || ifnull(result, ''), ' ')
FROM (SELECT * FROM matches ORDER BY rowid);
-- expect:
-- 5|8630|1:1:A-B: 1:1:C-bye: 1:2:A-C: 1:2:B-bye: e:2:X-Y:a

-- case: no_objects_left_after_error
SELECT * FROM standings(1, 'nope');
-- error: standings(): unknown policy 'nope' (known: mtg, melee, melee_2024, melee_2023, battlefy, hct, pokemon, pokemon_2023, yugioh, fide, fide_rr)
-- then:
SELECT group_concat(type || ' ' || name, ', ') FROM (SELECT type, name FROM sqlite_schema ORDER BY name);
-- expect:
-- table games, table loose, table matches, index sqlite_autoindex_games_1

-- case: no_temp_objects_left_after_error
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  ('e', 3, 'X', 'Y', 2, 0, 0), ('e', 3, 'Z', 'X', 2, 0, 0);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': player 'X' is paired twice in round 3
-- then:
SELECT count(*) FROM sqlite_temp_schema;
-- expect:
-- 0

-- case: connection_usable_after_error
SELECT * FROM standings(1, 'mtg', 7);
-- error: standings(): floor must be a number or fraction between 0 and 1, got '7'
-- then:
SELECT rank, player FROM standings(1, 'mtg');
-- expect:
-- 1|A
-- 2|C
-- 3|B

-- case: best_of_3_rejects_three_game_wins
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES (9, 1, 'P', 'Q', 3, 0, 0);
SELECT * FROM standings(9, 'mtg(best_of=3)');
-- error: standings(): event 9: game counts 3-0-0 do not fit a best-of-3 match in round 1 match of player 'P'

-- case: best_of_3_rejects_both_at_two
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES (9, 1, 'P', 'Q', 2, 2, 0);
SELECT * FROM standings(9, 'mtg(best_of=3)');
-- error: standings(): event 9: game counts 2-2-0 do not fit a best-of-3 match in round 1 match of player 'P'

-- case: best_of_3_allows_drawn_games_besides
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES (9, 1, 'P', 'Q', 2, 1, 1);
SELECT player, match_points, game_points FROM standings(9, 'mtg(best_of=3)');
-- expect:
-- P|3|7
-- Q|0|4

-- case: best_of_5_allows_three_two
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES (9, 1, 'P', 'Q', 3, 2, 0);
SELECT player, match_points FROM standings(9, 'mtg(best_of=5)');
-- expect:
-- P|3
-- Q|0

-- case: match_format_unchecked_by_default
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES (9, 1, 'P', 'Q', 3, 0, 0);
SELECT player, match_points FROM standings(9, 'mtg');
-- expect:
-- P|3
-- Q|0

-- case: best_of_out_of_range
SELECT * FROM standings(1, 'mtg(best_of=100)');
-- error: standings(): best_of must be an integer from 0 to 99, got '100'

-- case: internal_row_reader_refuses_sql_calls
-- standings() reads rows through tiebreak_rows(), which takes a pointer that only
-- the extension can bind
SELECT tiebreak_rows(1, round, player_a, player_b, a_wins, b_wins, draws) FROM matches;
-- error: tiebreak_rows() is internal to tiebreak

-- case: internal_row_reader_without_arguments
-- no argument at all: nothing to read the sink from (this crashed the host)
SELECT tiebreak_rows();
-- error: tiebreak_rows() is internal to tiebreak

-- case: internal_row_reader_without_arguments_over_rows
SELECT tiebreak_rows() FROM matches;
-- error: tiebreak_rows() is internal to tiebreak

-- case: internal_row_reader_with_one_argument
SELECT tiebreak_rows(NULL) FROM matches;
-- error: tiebreak_rows() is internal to tiebreak


-- case: option_read_by_no_tiebreaker
-- An option no tiebreaker of the policy reads would change nothing: an error.
SELECT * FROM standings(1, 'fide(floor=0.3)');
-- error: standings(): option floor does nothing in policy 'fide(floor=0.3)': no tiebreaker of it reads it

-- case: option_rules_on_mtg
SELECT * FROM standings(1, 'mtg(rules=2024)');
-- error: standings(): option rules does nothing in policy 'mtg(rules=2024)': no tiebreaker of it reads it

-- case: option_on_a_tiebreaker_that_does_not_read_it
SELECT * FROM standings(1, 'mp(floor=0.25),omw');
-- error: standings(): option floor does nothing on match_points in policy 'mp(floor=0.25),omw': match_points does not read it

-- case: loss_without_opponent_bad_counts
INSERT INTO matches VALUES ('e', 1, 'X', NULL, 1, 2, 0, NULL);
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': loss without opponent has game counts 1-2-0 (expected 0-2-0 or 0-0-0) in round 1 match of player 'X'

-- case: loss_with_opponent
INSERT INTO matches VALUES ('e', 1, 'X', 'Y', 0, 2, 0, 'loss');
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': result 'loss' needs a row without opponent (player_b NULL) in round 1 match of player 'X'

-- case: bye_result_b_points_to_loss
INSERT INTO matches VALUES ('e', 1, 'X', NULL, 0, 0, 0, 'b');
SELECT * FROM standings('e', 'mtg');
-- error: standings(): event 'e': bye of player 'X' in round 1 cannot have result 'b' (a round lost with no opponent is result 'loss')

-- case: every_event_error_names_the_event
INSERT INTO matches VALUES (7, 1, 'A', 'B', 2, 0, 0, NULL), (7, 2, 'X', 'A', 2, 0, 0, NULL),
  (7, 2, 'X', 'B', 2, 0, 0, NULL), ('ok', 1, 'P', 'Q', 2, 0, 0, NULL);
SELECT * FROM standings WHERE policy = 'mtg';
-- error: standings(): event 7: player 'X' is paired twice in round 2

-- case: every_event_read_error_names_the_event
INSERT INTO matches VALUES ('ok', 1, 'P', 'Q', 2, 0, 0, NULL), ('bad', 1, 'P', 2.5, 2, 0, 0, NULL);
SELECT * FROM standings WHERE policy = 'mtg' AND on_error = 'skip';
-- error: standings(): event 'bad': player_b must be an INTEGER or TEXT id, got 2.5 in round 1

-- case: on_error_skip_keeps_good_events_and_lists_bad_ones
INSERT INTO matches VALUES (7, 1, 'A', 'B', 2, 0, 0, NULL), (7, 2, 'X', 'A', 2, 0, 0, NULL),
  (7, 2, 'X', 'B', 2, 0, 0, NULL), ('ok', 1, 'P', 'Q', 2, 0, 0, NULL),
  ('late', 1, 'R', NULL, 1, 0, 0, NULL);
SELECT event_id, rank, player, error FROM standings WHERE policy = 'mtg' AND on_error = 'skip';
-- expect:
-- 1|1|A|
-- 1|2|C|
-- 1|3|B|
-- 7|||player 'X' is paired twice in round 2
-- late|||bye of player 'R' in round 1 has game counts 1-0-0 (expected 2-0-0 or 0-0-0)
-- ok|1|P|
-- ok|2|Q|

-- case: on_error_skip_one_event
INSERT INTO matches VALUES (7, 2, 'X', 'A', 2, 0, 0, NULL), (7, 2, 'X', 'B', 2, 0, 0, NULL);
SELECT event_id, rank, player, match_points, error FROM standings(7, 'mtg', NULL, NULL, NULL, NULL, NULL, 'skip');
-- expect:
-- 7||||player 'X' is paired twice in round 2

-- case: on_error_stop_is_the_default
INSERT INTO matches VALUES (7, 2, 'X', 'A', 2, 0, 0, NULL), (7, 2, 'X', 'B', 2, 0, 0, NULL);
SELECT * FROM standings(7, 'mtg', NULL, NULL, NULL, NULL, NULL, 'stop');
-- error: standings(): event 7: player 'X' is paired twice in round 2

-- case: on_error_unknown
SELECT * FROM standings WHERE policy = 'mtg' AND on_error = 'ignore';
-- error: standings(): on_error must be 'stop' or 'skip', got 'ignore'

-- case: on_error_not_text
SELECT * FROM standings WHERE policy = 'mtg' AND on_error = 1;
-- error: standings(): on_error must be text

-- case: on_error_null_is_stop
INSERT INTO matches VALUES (7, 2, 'X', 'A', 2, 0, 0, NULL), (7, 2, 'X', 'B', 2, 0, 0, NULL);
SELECT * FROM standings WHERE policy = 'mtg' AND on_error IS NULL;
-- error: standings(): event 7: player 'X' is paired twice in round 2

-- case: option_given_twice
SELECT * FROM standings(1, 'mtg(floor=1/3, floor=1/2)');
-- error: standings(): option floor is given twice in policy 'mtg(floor=1/3, floor=1/2)'

-- case: option_given_twice_on_one_tiebreaker
SELECT omwp(1, 'A', 'mp,omw(floor=0.25,floor=0.5),gw');
-- error: omwp(): option floor is given twice in policy 'mp,omw(floor=0.25,floor=0.5),gw'

-- case: option_given_twice_by_modifier_and_option
SELECT * FROM standings(1, 'PTS,BH/P(forfeits_played=1)');
-- error: standings(): option forfeits_played is given twice in policy 'PTS,BH/P(forfeits_played=1)'

-- case: one_option_on_two_tiebreakers_is_no_repeat
SELECT player, round(mwp, 4), round(omwp, 4) FROM standings(1, 'mp,mwp(floor=0.5),omw(floor=0.75)') ORDER BY player;
-- expect:
-- A|1.0|0.75
-- B|0.5|1.0
-- C|0.5|1.0

-- case: policy_with_nul_byte
SELECT * FROM standings(1, 'mtg' || char(0) || '(floor=1)');
-- error: standings(): policy contains a NUL byte

-- case: scalar_policy_with_nul_byte
SELECT omwp(1, 'A', 'mtg' || char(0) || '(floor=1)');
-- error: omwp(): policy contains a NUL byte

-- case: table_name_with_nul_byte
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches' || char(0) || 'x');
-- error: standings(): matches_table contains a NUL byte

-- case: games_and_players_table_with_nul_byte
SELECT (SELECT count(*) FROM standings(1, 'mtg', NULL, NULL, NULL, 'games' || char(0)));
-- error: standings(): games_table contains a NUL byte

-- case: players_table_with_nul_byte
SELECT * FROM standings WHERE event_id = 1 AND policy = 'mtg' AND players_table = char(0);
-- error: standings(): players_table contains a NUL byte

-- case: floor_with_nul_byte
SELECT * FROM standings(1, 'mtg', '1/3' || char(0) || 'x');
-- error: standings(): floor contains a NUL byte

-- case: on_error_with_nul_byte
SELECT * FROM standings(1, 'mtg', NULL, NULL, NULL, NULL, NULL, 'skip' || char(0));
-- error: standings(): on_error contains a NUL byte

-- case: event_id_with_nul_byte_is_matched_whole
-- '1' || char(0) is neither the text '1' nor the integer 1
INSERT INTO loose VALUES ('1', 1, 'T', 'U', 2, 0, 0, NULL);
SELECT (SELECT count(*) FROM standings('1' || char(0), 'mtg')),
       (SELECT count(*) FROM standings('1' || char(0) || 'x', 'mtg', NULL, NULL, 'loose')),
       (SELECT count(*) FROM standings('1', 'mtg', NULL, NULL, 'loose')),
       omwp('1' || char(0), 'A'), mwp(1, 'A' || char(0)), mwp(1, 'A');
-- expect:
-- 0|0|2|||1.0

-- case: floor_real_too_small_to_hold
-- 2^-80, made by exact divisions: a decimal literal such as 1e-300 is parsed
-- by SQLite in long double where it can, so its last bit differs under valgrind
SELECT mwp(0, 3, 0, 1.0 / 1048576 / 1048576 / 1048576 / 1048576);
-- error: mwp(): floor 8.271806125530277e-25 has more than 18 decimal places: it cannot be held exactly

-- case: floor_text_too_many_digits
SELECT * FROM standings(1, 'mtg', '0.0000000000000000001');
-- error: standings(): floor has too many digits to be read exactly (at most 18 a term), got '0.0000000000000000001'

-- case: floor_option_too_many_digits
SELECT * FROM standings(1, 'mtg(floor=1/10000000000000000000)');
-- error: standings(): floor has too many digits to be read exactly (at most 18 a term), got '1/10000000000000000000'

-- case: floor_out_of_range_still_says_so
SELECT (SELECT count(*) FROM standings(1, 'mtg', 1.5));
-- error: standings(): floor must be a number or fraction between 0 and 1, got '1.5'

-- case: rating_out_of_range_names_the_range
CREATE TABLE players (event_id, player, rating);
INSERT INTO players VALUES (1, 'A', 9223372036854775807);
SELECT * FROM standings(1, 'fide');
-- error: standings(): event 1: players table: player 'A' has rating 9223372036854775807 (expected an integer from -4611686018427387904 to 4611686018427387904)

-- case: as_of_round_not_written_as_an_integer
SELECT (SELECT count(*) FROM standings(1, 'mtg', NULL, '01'));
-- error: standings(): as_of_round must be a positive integer

-- case: game_listed_twice
CREATE TABLE g3 (event_id, round, player_a, game, winner);
INSERT INTO g3 VALUES (1, 1, 'A', 1, 'A'), (1, 1, 'A', 2, 'A'), (1, 1, 'A', 2, 'A');
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): event 1: games table: game 2 is listed twice in round 1 match of player 'A'

-- case: game_listed_twice_from_either_side
CREATE TABLE g3 (event_id, round, player_a, game, winner);
INSERT INTO g3 VALUES (1, 1, 'A', 1, 'A'), (1, 1, 'B', 1, 'A');
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): event 1: games table: game 1 is listed twice in round 1 match of player 'A'

-- case: game_number_null
CREATE TABLE g3 (event_id, round, player_a, game, winner);
INSERT INTO g3 VALUES (1, 1, 'A', NULL, 'A');
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): event 1: games table: game must be an integer from 1 to 1000000000, got NULL in round 1 match of player 'A'

-- case: game_number_negative
CREATE TABLE g3 (event_id, round, player_a, game, winner);
INSERT INTO g3 VALUES (1, 1, 'A', -1, 'A');
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): event 1: games table: game must be an integer from 1 to 1000000000, got -1 in round 1 match of player 'A'

-- case: game_number_huge
CREATE TABLE g3 (event_id, round, player_a, game, winner);
INSERT INTO g3 VALUES (1, 1, 'A', 1000000001, 'A');
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): event 1: games table: game must be an integer from 1 to 1000000000, got 1000000001 in round 1 match of player 'A'

-- case: game_number_text
CREATE TABLE g3 (event_id, round, player_a, game, winner);
INSERT INTO g3 VALUES (1, 1, 'A', '1', 'A');
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): event 1: games table: game must be an integer from 1 to 1000000000, got '1' in round 1 match of player 'A'

-- case: games_table_without_game_column
CREATE TABLE g3 (event_id, round, player_a, winner);
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): table g3 has no column game

-- case: more_games_in_a_match_than_a_count_holds
CREATE TABLE g3 (event_id, round, player_a, game, winner);
INSERT INTO g3 WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000001)
  SELECT 1, 2, 'A', i, NULL FROM s;
SELECT * FROM standings(1, 'mtg', NULL, NULL, 'matches', 'g3');
-- error: standings(): event 1: games table: more than 1000000 games drawn in round 2 match of player 'A'
