-- The extension's surface: version/debug functions, registered functions and
-- module, the standings column list, scalar basics and joins.

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
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 1, 'A', 'B', 2, 0, 0), (2, 1, 'C', 'D', 1, 1, 0), (2, 2, 'C', 'E', 0, 2, 0);
CREATE TABLE events (id);
INSERT INTO events VALUES (1), (2), (3);

-- case: version_format
SELECT typeof(tiebreak_version()), tiebreak_version() GLOB '[0-9]*.[0-9]*.[0-9]*';
-- expect:
-- text|1

-- case: version_takes_no_arguments
SELECT tiebreak_version(1);
-- error: wrong number of arguments to function tiebreak_version()

-- case: debug_mentions_sqlite
SELECT typeof(tiebreak_debug()), tiebreak_debug() LIKE '%sqlite%';
-- expect:
-- text|1

-- case: debug_is_multi_line
SELECT instr(tiebreak_debug(), char(10)) > 0;
-- expect:
-- 1

-- case: functions_registered
SELECT DISTINCT name FROM pragma_function_list
WHERE name IN ('gwp', 'mwp', 'ogwp', 'omwp', 'tiebreak_debug', 'tiebreak_version')
ORDER BY name;
-- expect:
-- gwp
-- mwp
-- ogwp
-- omwp
-- tiebreak_debug
-- tiebreak_version

-- case: module_registered
SELECT name FROM pragma_module_list WHERE name = 'standings';
-- expect:
-- standings

-- case: standings_columns
SELECT cid, name, hidden FROM pragma_table_xinfo('standings');
-- expect:
-- 0|rank|0
-- 1|player|0
-- 2|match_points|0
-- 3|wins|0
-- 4|losses|0
-- 5|draws|0
-- 6|byes|0
-- 7|rounds|0
-- 8|game_wins|0
-- 9|game_losses|0
-- 10|game_draws|0
-- 11|game_points|0
-- 12|games|0
-- 13|mwp|0
-- 14|gwp|0
-- 15|omwp|0
-- 16|ogwp|0
-- 17|oomwp|0
-- 18|kts|0
-- 19|match_wins|0
-- 20|hct_t1|0
-- 21|hct_t2|0
-- 22|hct_t3|0
-- 23|win_pct|0
-- 24|owp|0
-- 25|oowp|0
-- 26|head_to_head|0
-- 27|active|0
-- 28|registration_order|0
-- 29|points|0
-- 30|buchholz|0
-- 31|buchholz_cut1|0
-- 32|buchholz_cut2|0
-- 33|buchholz_median1|0
-- 34|buchholz_median2|0
-- 35|sonneborn_berger|0
-- 36|sonneborn_berger_cut1|0
-- 37|sonneborn_berger_cut2|0
-- 38|sonneborn_berger_median1|0
-- 39|sonneborn_berger_median2|0
-- 40|progressive|0
-- 41|progressive_cut1|0
-- 42|progressive_cut2|0
-- 43|direct_encounter|0
-- 44|rounds_won|0
-- 45|games_won|0
-- 46|black_games|0
-- 47|black_wins|0
-- 48|rounds_elected|0
-- 49|aob|0
-- 50|aob_fore|0
-- 51|fore_buchholz|0
-- 52|fore_buchholz_cut1|0
-- 53|fore_buchholz_cut2|0
-- 54|fore_buchholz_median1|0
-- 55|fore_buchholz_median2|0
-- 56|koya|0
-- 57|aro|0
-- 58|aro_cut1|0
-- 59|aro_cut2|0
-- 60|aro_median1|0
-- 61|aro_median2|0
-- 62|tpr|0
-- 63|ptp|0
-- 64|apro|0
-- 65|appo|0
-- 66|own_rating|0
-- 67|pairing_number|0
-- 68|standard_points|0
-- 69|dropped|0
-- 70|decided_by|0
-- 71|name|0
-- 72|division|0
-- 73|status|0
-- 74|swiss_rank|0
-- 75|event_id|1
-- 76|policy|1
-- 77|floor|1
-- 78|as_of_round|1
-- 79|matches_table|1
-- 80|games_table|1
-- 81|players_table|1
-- 82|on_error|1
-- 83|ratings_table|1
-- 84|error|1

-- case: scalar_mwp_basics
-- 6/9, 0 -> 0.33, 1/3, 7/9
SELECT round(mwp(2, 1, 0), 6), round(mwp(0, 3, 0), 6), round(mwp(0, 0, 1), 6), round(mwp(2, 0, 1), 6);
-- expect:
-- 0.666667|0.33|0.333333|0.777778

-- case: scalar_gwp_basics
SELECT round(gwp(1, 1, 1), 6), round(gwp(0, 2, 0), 6), round(gwp(0, 2, 0, 0), 6), round(gwp(4, 0, 0), 6);
-- expect:
-- 0.444444|0.33|0.0|1.0

-- case: scalar_results_are_real
SELECT typeof(mwp(1, 0, 0)), typeof(gwp(2, 0, 0)), mwp(1, 0, 0), gwp(2, 0, 0), mwp(0, 1, 0, 0);
-- expect:
-- real|real|1.0|1.0|0.0

-- case: scalar_floor_forms
SELECT round(mwp(0, 1, 0, 0.33), 6), round(mwp(0, 1, 0, '33/100'), 6), round(mwp(0, 1, 0, '1/3'), 6),
       round(mwp(0, 1, 0, '0.5'), 6), mwp(0, 1, 0, 1);
-- expect:
-- 0.33|0.33|0.333333|0.5|1.0

-- case: scalar_null_arguments
SELECT mwp(NULL, 1, 1), mwp(1, NULL, 1), mwp(1, 1, NULL), gwp(NULL, 0, 0), gwp(2, NULL, 0), gwp(2, 0, NULL);
-- expect:
-- |||||

-- case: scalar_zero_matches_or_games
SELECT mwp(0, 0, 0), gwp(0, 0, 0), mwp(0, 0, 0, 0), gwp(0, 0, 0, '1/3');
-- expect:
-- |||

-- case: scalar_mwp_is_deterministic
-- a generated column only accepts deterministic functions
CREATE TABLE rec (w INTEGER, l INTEGER, d INTEGER, p REAL AS (mwp(w, l, d)));
INSERT INTO rec (w, l, d) VALUES (5, 2, 1), (1, 3, 0);
SELECT round(p, 6) FROM rec ORDER BY rowid;
-- expect:
-- 0.666667
-- 0.33

-- case: scalar_gwp_is_deterministic
CREATE TABLE grec (w INTEGER, l INTEGER, d INTEGER, p REAL AS (gwp(w, l, d, '1/3')));
INSERT INTO grec (w, l, d) VALUES (7, 3, 0), (3, 8, 0);
SELECT round(p, 6) FROM grec ORDER BY rowid;
-- expect:
-- 0.7
-- 0.333333

-- case: mwp_one_argument_rejected
SELECT mwp(1);
-- error-match: *mwp()*

-- case: omwp_four_arguments_rejected
SELECT omwp(1, 'A', 'mtg', 1);
-- error-match: *omwp()*

-- case: standings_in_lateral_join
-- event 2: C drew D then lost to E; C's OMW (1/3 + 1)/2 beats D's 0.33
SELECT e.id, s.rank, s.player, s.match_points
FROM events AS e, standings(e.id, 'mtg') AS s
ORDER BY e.id, s.rank, s.player;
-- expect:
-- 1|1|A|3
-- 1|2|B|0
-- 2|1|E|3
-- 2|2|C|1
-- 2|3|D|1

-- case: standings_self_join
SELECT count(*), sum(a.rank * b.rank) FROM standings(2, 'mtg') AS a, standings(2, 'mtg') AS b;
-- expect:
-- 9|36

-- case: standings_in_subquery_and_aggregate
SELECT (SELECT player FROM standings(2, 'mtg') WHERE rank = 1), (SELECT max(rounds) FROM standings(2, 'mtg'));
-- expect:
-- E|2

-- case: standings_where_on_visible_columns
SELECT player FROM standings(2, 'mtg') WHERE match_points = 1 AND decided_by = 'omwp';
-- expect:
-- D

-- case: standings_order_by_other_column
SELECT player FROM standings(2, 'mtg') ORDER BY player DESC;
-- expect:
-- E
-- D
-- C

-- case: text_event_id_finds_integer_id
-- HTTP clients, Datasette and Go drivers pass parameters as text
CREATE TABLE ids (event_id, round, player_a, player_b, a_wins, b_wins, draws);
INSERT INTO ids VALUES (1, 1, 10, 20, 2, 0, 0), ('5', 1, 'A', 'B', 2, 1, 0), (-3, 1, 1, 2, 2, 0, 0);
SELECT event_id, typeof(event_id), player, typeof(player) FROM standings('1', 'mtg', NULL, NULL, 'ids')
UNION ALL SELECT event_id, typeof(event_id), player, typeof(player) FROM standings(5, 'mtg', NULL, NULL, 'ids')
UNION ALL SELECT event_id, typeof(event_id), player, typeof(player) FROM standings('-3', 'mtg', NULL, NULL, 'ids');
-- expect:
-- 1|text|10|integer
-- 1|text|20|integer
-- 5|integer|A|text
-- 5|integer|B|text
-- -3|text|1|integer
-- -3|text|2|integer

-- case: text_event_id_not_written_as_an_integer_finds_nothing
CREATE TABLE ids (event_id, round, player_a, player_b, a_wins, b_wins, draws);
INSERT INTO ids VALUES (1, 1, 10, 20, 2, 0, 0);
SELECT (SELECT count(*) FROM standings('01', 'mtg', NULL, NULL, 'ids')),
       (SELECT count(*) FROM standings('1.0', 'mtg', NULL, NULL, 'ids')),
       (SELECT count(*) FROM standings(' 1', 'mtg', NULL, NULL, 'ids')),
       (SELECT count(*) FROM standings('+1', 'mtg', NULL, NULL, 'ids')),
       (SELECT count(*) FROM standings('99999999999999999999', 'mtg', NULL, NULL, 'ids')),
       (SELECT count(*) FROM standings('1', 'mtg', NULL, NULL, 'ids'));
-- expect:
-- 0|0|0|0|0|2

-- case: text_and_integer_ids_both_present_each_finds_its_own
CREATE TABLE ids (event_id, round, player_a, player_b, a_wins, b_wins, draws);
INSERT INTO ids VALUES (1, 1, 'int', 'x', 2, 0, 0), ('1', 1, 'text', 'y', 2, 0, 0);
SELECT (SELECT player FROM standings(1, 'mtg', NULL, NULL, 'ids') LIMIT 1),
       (SELECT player FROM standings('1', 'mtg', NULL, NULL, 'ids') LIMIT 1);
-- expect:
-- int|text

-- case: text_player_id_finds_integer_player
DELETE FROM matches;
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES (1, 1, 10, 20, 2, 0, 0), (1, 2, 10, 30, 2, 1, 0), (1, 2, 20, NULL, 2, 0, 0), (2, 1, '7', 'x', 2, 0, 0);
SELECT mwp('1', '10'), round(omwp('1', '10'), 4), mwp(1, 10), mwp(2, 7), mwp(1, '010'), mwp(1, '-9223372036854775808');
-- expect:
-- 1.0|0.415|1.0|1.0||

-- case: is_takes_the_argument_as_equals
-- IS on an argument is =: the integer event 1 alone, not the text '1' too
CREATE TABLE ids (event_id, round, player_a, player_b, a_wins, b_wins, draws);
INSERT INTO ids VALUES (1, 1, 'int1', 'int2', 2, 0, 0), (1, 1, 'int3', 'int4', 2, 0, 0),
                       ('1', 1, 'text', 'y', 2, 0, 0);
SELECT (SELECT count(*) FROM standings WHERE policy = 'mtg' AND matches_table = 'ids' AND event_id = 1),
       (SELECT count(*) FROM standings WHERE policy IS 'mtg' AND matches_table IS 'ids' AND event_id IS 1),
       (SELECT count(*) FROM standings WHERE policy = 'mtg' AND matches_table = 'ids' AND event_id IS '1'),
       (SELECT group_concat(DISTINCT event_id || ':' || typeof(event_id)) FROM standings
         WHERE policy = 'mtg' AND matches_table = 'ids' AND event_id IS NOT 1),
       (SELECT count(*) FROM standings WHERE policy IS 'mtg' AND matches_table IS 'ids' AND event_id IS NULL);
-- expect:
-- 4|4|2|1:text|0

-- case: is_null_argument_is_null
SELECT * FROM standings WHERE policy = 'mtg' AND event_id IS NULL AND event_id IS 1;
-- expect:

-- case: file_readers_take_is
SELECT (SELECT count(*) FROM melee_matches WHERE event_id IS '{"Rounds":[{"RoundName":"Round 1","Matches":[{"Player1":"A","Player2":"B","Result":"2-0-0"}]}]}'),
       (SELECT count(*) FROM melee_matches WHERE event_id = '{"Rounds":[{"RoundName":"Round 1","Matches":[{"Player1":"A","Player2":"B","Result":"2-0-0"}]}]}');
-- expect:
-- 1|1

-- case: whole_number_arguments_as_text_or_real
-- as ids are taken: '3' and 3.0 are 3; '03', ' 3' and '3.0' are not integers
CREATE TABLE r3 (event_id, round, player_a, player_b, a_wins, b_wins, draws);
INSERT INTO r3 VALUES (1, 1, 'A', 'B', 2, 0, 0), (1, 2, 'A', 'C', 2, 0, 0), (1, 3, 'B', 'C', 2, 0, 0);
SELECT (SELECT group_concat(match_points) FROM standings(1, 'mtg', NULL, '1', 'r3')),
       (SELECT group_concat(match_points) FROM standings(1, 'mtg', NULL, 2.0, 'r3')),
       mwp('5', 2, 1) = mwp(5, 2, 1), mwp(5.0, '2', 1.0) = mwp(5, 2, 1);
-- expect:
-- 3,0|6,0,0|1|1

-- case: whole_number_arguments_refused_as_ids_are
SELECT mwp('05', 2, 1);
-- error: mwp(): counts must be integers from 0 to 1000000000

-- case: floor_real_read_through_its_shortest_form
-- the shortest decimal that reads back as the same double: never below the floor passed
SELECT mwp(0, 3, 0, 0.4999999999999999) = 0.4999999999999999, mwp(0, 3, 0, 0.4999999999999999) < 0.5,
       mwp(0, 3, 0, 0.1 + 0.2) = 0.1 + 0.2,
       gwp(0, 3, 0, 0.1 + 0.2) >= 0.1 + 0.2, mwp(0, 3, 0, 0.33) = mwp(0, 3, 0, '33/100'),
       mwp(0, 3, 0, 5e-18) = 5e-18, mwp(0, 3, 0, '0.30000000000000004') = 0.1 + 0.2,
       mwp(0, 3, 0, '0.000000000000000005') = 5e-18,
       mwp(0, 3, 0, '99999999999999999/100000000000000000') = 0.99999999999999999;
-- expect:
-- 1|1|1|1|1|1|1|1|1

-- case: floor_real_in_standings_never_below_it
DELETE FROM matches;
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 1, 'A', 'B', 2, 0, 0), (1, 2, 'A', 'C', 2, 0, 0), (1, 3, 'B', 'C', 2, 0, 0);
SELECT min(mwp) = 0.1 + 0.2, min(gwp) = 0.1 + 0.2, min(omwp) >= 0.1 + 0.2
FROM standings(1, 'mtg', 0.1 + 0.2);
-- expect:
-- 1|1|1
