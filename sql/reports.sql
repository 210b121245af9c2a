-- tiebreak reports: what an organizer prints or posts during and after a Swiss event.
-- Runs in the sqlite3 shell, after the extension is loaded, on the tables of sql/schema.sql:
--
--   sqlite3 rcq.db '.load ./build/tiebreak' '.parameter set $event 2' '.read sql/reports.sql'
--
-- or on a file as the platforms save it (a TOM .tdf, a TRF, a Melee.gg JSON), which the
-- shell's readfile() reads; the database may be empty:
--
--   sqlite3 :memory: '.load ./build/tiebreak' '.parameter set $file cup.tdf' \
--     '.read sql/reports.sql'
--
-- Parameters, all optional (.parameter set $name value; .parameter clear to reset):
--   $file     a file to report on instead of the tables: its format is told from its text
--             (XML: TOM, JSON: Melee.gg, else TRF); read with tom_matches()/tom_players(),
--             trf_matches()/trf_players() or melee_matches()/melee_players(). An error
--             reading it does not name the file: SQLite before 3.47 puts no value into an
--             error raised from SQL (docs/reports.md#reports-on-a-file)
--   $format   'tom', 'trf' or 'melee': the format of $file, when its text does not tell
--   $event    the event of the tables; default: the event of the last row added to matches
--   $round    standings after this round (as_of_round); default: every round played
--   $policy   default 'mtg'; for a file the policy of its family: tom_policy() for TOM, the
--             file's own order for TRF (trf_policy(); 'fide' when it states none), the era's
--             preset for Melee (melee_policy()). The reports print each family's own columns:
--             Magic's points, W-L-D, OMW%, GW%, OGW%; Pokemon's record W-L-T, points, OWP,
--             OOWP (no game column unless the rows record games); chess's points and the
--             order's tie-breaks, and a crosstable. Other policies get Magic's columns.
--   $report   the reports to print, comma-separated: standings, top8, why, progress,
--             alphabetical, player, crosstable; default: all but the crosstable (chess: all
--             but the Top 8 cut)
--   $player   the player of the 'player' report (id or name); default: the first one listed
--   $a, $b    the players of the 'why' report (ids or names); default, in each division: the
--             last player in the top cut and the first one out, by their Swiss places
--   $top      the size of the top cut when the rows have no playoff; default: a TOM file's
--             own cut of each division (none: no cut reports for it), else 8
-- Names come from the players table (standings().name), else the ids are printed. With
-- divisions (a players table's `division`, TOM's age divisions) each report has a section per
-- division: Juniors, Seniors, Masters, then the others by name. After a playoff the final
-- places are the playoff's, a seed is the Swiss place before the cut, and the header counts
-- Swiss and playoff rounds apart.
-- Percentages are printed as the platforms print them: 66.67%. The reports read the tables
-- `matches` and `players` (optional); for other tables create TEMP VIEWs with those names
-- (sql/views.sql). Leaves the shell in list mode; uses TEMP tables and an attached empty
-- database (tb_report_none, standing in for tables the database lacks), all dropped at the end.

.mode list
.headers off

-- The statements below name `matches` and `players`; a database without them (a file given
-- to an empty database) finds these empty ones: names resolve to TEMP, main, then attached
-- databases, so the database's own tables come first.
ATTACH ':memory:' AS tb_report_none;
CREATE TABLE IF NOT EXISTS tb_report_none.matches
  (event_id, round, player_a, player_b, a_wins, b_wins, draws, result, phase);
-- (players without event_id and player: standings() skips it as it skips an absent one)
CREATE TABLE IF NOT EXISTS tb_report_none.players (rating);

-- The source: a file's text is the event, its reader the table standings() reads.
DROP TABLE IF EXISTS temp.tb_report_args;
CREATE TEMP TABLE tb_report_args (
  file, format, event_id, subject, policy, family, as_of_round, last_round, top, reports,
  matches_table, games_table, players_table, has_games,
  CONSTRAINT "reports.sql: $file names no file that can be read" CHECK
    (file IS NULL OR event_id IS NOT NULL),
  CONSTRAINT "reports.sql: $format must be 'tom', 'trf' or 'melee'" CHECK
    (format IS NULL OR format IN ('tom', 'trf', 'melee')),
  CONSTRAINT "reports.sql: no rows for the event (set $event, or $file)" CHECK
    (last_round IS NOT NULL OR reports IS NULL));
INSERT INTO tb_report_args (file, format, event_id, as_of_round, top)
WITH f AS (SELECT $file AS file, CAST(readfile($file) AS TEXT) AS text)
SELECT file,
       CASE WHEN file IS NULL THEN NULL
            WHEN $format IS NOT NULL THEN lower($format)
            WHEN ltrim(text, char(65279, 32, 9, 10, 13)) LIKE '<%' THEN 'tom'
            WHEN ltrim(text, char(65279, 32, 9, 10, 13)) LIKE '{%' THEN 'melee'
            ELSE 'trf' END,
       -- the last row in the table's own order; no rowid, which a view lacks in newer SQLite
       iif(file IS NULL, coalesce($event, (SELECT event_id FROM matches LIMIT 1
                                           OFFSET (SELECT count(*) - 1 FROM matches))), text),
       $round, coalesce($top, 8)
FROM f;
UPDATE tb_report_args SET
  subject = coalesce(file, 'Event ' || event_id),
  matches_table = CASE format WHEN 'tom' THEN 'tom_matches' WHEN 'trf' THEN 'trf_matches'
                              WHEN 'melee' THEN 'melee_matches' ELSE 'matches' END,
  games_table = iif(format IS NULL, NULL, ''),
  players_table = CASE format WHEN 'tom' THEN 'tom_players' WHEN 'trf' THEN 'trf_players'
                              WHEN 'melee' THEN 'melee_players' END,
  policy = CASE format
    WHEN 'tom' THEN coalesce($policy, tom_policy(event_id))
    WHEN 'melee' THEN coalesce($policy, melee_policy(event_id))
    -- (the table's name qualifies event_id: trf_records has a hidden column of that name)
    WHEN 'trf' THEN iif($policy IS NULL
                        AND EXISTS (SELECT 1 FROM trf_records(tb_report_args.event_id)
                                    WHERE record IN ('202', '212')),
                        trf_policy(event_id), trf_policy(event_id, coalesce($policy, 'fide')))
    ELSE coalesce($policy, 'mtg') END;

-- The match rows, from the file or the table (its optional columns result and phase read as
-- NULL when it lacks them: a NATURAL LEFT JOIN takes a column from the left when it has one).
DROP TABLE IF EXISTS temp.tb_report_rows;
CREATE TEMP TABLE tb_report_rows AS
SELECT m.round, m.player_a, m.player_b, m.a_wins, m.b_wins, m.draws, m.result, m.phase
FROM tb_report_args AS a,
     (SELECT * FROM matches NATURAL LEFT JOIN (SELECT NULL AS result, NULL AS phase)) AS m
WHERE a.format IS NULL
  AND (m.event_id = a.event_id OR CAST(m.event_id AS TEXT) = CAST(a.event_id AS TEXT))
UNION ALL
SELECT t.round, t.player_a, t.player_b, t.a_wins, t.b_wins, t.draws, t.result, t.phase
FROM tb_report_args AS a, tom_matches(a.event_id) AS t WHERE a.format = 'tom'
UNION ALL
SELECT t.round, t.player_a, t.player_b, t.a_wins, t.b_wins, t.draws, t.result, NULL
FROM tb_report_args AS a, trf_matches(a.event_id) AS t WHERE a.format = 'trf'
UNION ALL
SELECT t.round, t.player_a, t.player_b, t.a_wins, t.b_wins, t.draws, t.result, t.phase
FROM tb_report_args AS a, melee_matches(a.event_id) AS t WHERE a.format = 'melee';

-- Ratings, for the crosstable.
DROP TABLE IF EXISTS temp.tb_report_ratings;
CREATE TEMP TABLE tb_report_ratings AS
SELECT p.player, p.rating
FROM tb_report_args AS a,
     (SELECT * FROM players NATURAL LEFT JOIN (SELECT NULL AS event_id, NULL AS player,
                                                      NULL AS rating)) AS p
WHERE a.format IS NULL AND p.event_id = a.event_id
UNION ALL
SELECT t.player, t.rating FROM tb_report_args AS a, trf_players(a.event_id) AS t
WHERE a.format = 'trf';

-- The policy's order, one row per tiebreaker: its options and C.07 modifiers dropped, a
-- preset's name replaced by its order, names, aliases and codes ('BH-C1') made names.
DROP TABLE IF EXISTS temp.tb_report_keys;
CREATE TEMP TABLE tb_report_keys AS
WITH RECURSIVE
  bare(p) AS (SELECT policy FROM tb_report_args
              UNION ALL SELECT substr(p, 1, instr(p, '(') - 1) || substr(p, instr(p, ')') + 1)
              FROM bare WHERE instr(p, '(') > 0),
  items(n, item, rest) AS (
    SELECT 0, NULL, (SELECT p FROM bare WHERE instr(p, '(') = 0) || ','
    UNION ALL
    SELECT n + 1, trim(substr(rest, 1, instr(rest, ',') - 1)), substr(rest, instr(rest, ',') + 1)
    FROM items WHERE rest <> ''),
  expanded(p) AS (
    SELECT group_concat(coalesce((SELECT tiebreakers FROM tiebreak_policies
                                  WHERE name = lower(item)), item), ',')
    FROM (SELECT item FROM items WHERE n > 0 ORDER BY n)),
  keys(n, item, rest) AS (
    SELECT 0, NULL, (SELECT p FROM expanded) || ','
    UNION ALL
    SELECT n + 1, upper(replace(trim(substr(rest, 1, instr(rest, ',') - 1)), '-', '/')),
           substr(rest, instr(rest, ',') + 1)
    FROM keys WHERE rest <> '')
SELECT k.n AS ord,
       (SELECT t.name FROM tiebreakers AS t
        WHERE k.item IN (upper(t.name), upper(t.alias), t.code) OR k.item LIKE t.code || '/%'
        ORDER BY length(t.code) DESC LIMIT 1) AS name
FROM keys AS k WHERE k.n > 0;
UPDATE tb_report_args SET family = CASE
  WHEN policy LIKE 'pokemon%' THEN 'pokemon'
  WHEN (SELECT t.family FROM tb_report_keys AS k JOIN tiebreakers AS t USING (name)
        ORDER BY k.ord LIMIT 1) = 'fide' THEN 'chess'
  ELSE 'mtg' END;
-- Labels: the platforms' column names; chess's C.07 codes.
DROP TABLE IF EXISTS temp.tb_report_labels;
CREATE TEMP TABLE tb_report_labels AS
WITH l(name, label) AS (
  VALUES ('match_points', 'Points'), ('omwp', 'OMW%'), ('gwp', 'GW%'), ('ogwp', 'OGW%'),
         ('owp', 'OWP'), ('oowp', 'OOWP'), ('oomwp', 'OOMW%'), ('mwp', 'MW%'),
         ('head_to_head', 'Head-to-head'), ('registration_order', 'Registration order'),
         ('active', 'Active'), ('points', 'Pts'))
SELECT t.name, coalesce(l.label, t.code, t.name) AS label,
       coalesce((SELECT min(k.ord) FROM tb_report_keys AS k WHERE k.name = t.name), 99) AS ord
FROM tiebreakers AS t LEFT JOIN l ON l.name = t.name
UNION ALL SELECT 'playoff', 'Playoff', 0;

UPDATE tb_report_args SET
  last_round = (SELECT min(max(round), coalesce(tb_report_args.as_of_round, max(round)))
                FROM tb_report_rows),
  has_games = (SELECT count(*) > 0 FROM tb_report_rows WHERE a_wins + b_wins + draws > 1),
  reports = ',' || replace(coalesce($report, iif(family = 'chess',
    'standings,crosstable,why,progress,alphabetical,player',
    'standings,top8,why,progress,alphabetical,player')), ' ', '') || ',';

-- The standings after each round: the rank and points round by round, the rounds the
-- playoff decided, and the Swiss places before the cut.
DROP TABLE IF EXISTS temp.tb_report_by_round;
CREATE TEMP TABLE tb_report_by_round AS
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r
                        WHERE n < (SELECT last_round FROM tb_report_args))
SELECT r.n AS after_round, s.*
FROM tb_report_args AS a, r,
     standings(a.event_id, a.policy, NULL, r.n, a.matches_table, a.games_table,
               a.players_table) AS s;
CREATE INDEX temp.tb_report_round ON tb_report_by_round (player, after_round);

-- Each match from each side: W, L, D, a bye, a loss with no opponent.
DROP TABLE IF EXISTS temp.tb_report_seats;
CREATE TEMP TABLE tb_report_seats AS
WITH seat AS (
  SELECT round, player_a AS player, player_b AS opponent, a_wins AS won, b_wins AS lost, draws,
         result, 'a' AS side, 'w' AS colour, phase
  FROM tb_report_rows
  UNION ALL
  SELECT round, player_b, player_a, b_wins, a_wins, draws, result, 'b', 'b', phase
  FROM tb_report_rows WHERE player_b IS NOT NULL)
SELECT *,
       CASE WHEN opponent IS NULL THEN CASE result WHEN 'loss' THEN 'loss'
                                                   WHEN 'half_bye' THEN 'half_bye'
                                                   WHEN 'zero_bye' THEN 'zero_bye'
                                                   ELSE 'bye' END
            WHEN result IN ('double_loss', 'double_forfeit') THEN 'L'
            WHEN result = 'draw' THEN 'D'
            WHEN result IN ('a', 'b') THEN iif(result = side, 'W', 'L')
            WHEN result IN ('forfeit_a', 'forfeit_b') THEN iif(result = 'forfeit_' || side,
                                                               'W', 'L')
            WHEN won > lost THEN 'W' WHEN won < lost THEN 'L' ELSE 'D' END AS outcome
FROM seat
WHERE round <= (SELECT last_round FROM tb_report_args);
CREATE INDEX temp.tb_report_seat ON tb_report_seats (player, round);

-- Each division: its order, its Swiss and playoff rounds, its cut.
DROP TABLE IF EXISTS temp.tb_report_divisions;
CREATE TEMP TABLE tb_report_divisions AS
WITH final AS (SELECT * FROM tb_report_by_round
               WHERE after_round = (SELECT last_round FROM tb_report_args)),
decided AS (SELECT DISTINCT after_round, division FROM tb_report_by_round
            WHERE decided_by = 'playoff'),
played AS (  -- the rounds each division played, and whether the playoff decided after them
  SELECT DISTINCT f.division, m.round,
         EXISTS (SELECT 1 FROM decided AS b
                 WHERE b.after_round = m.round AND b.division IS f.division) AS playoff
  FROM tb_report_seats AS m JOIN final AS f ON f.player = m.player)
SELECT d.division,
       CASE d.division WHEN 'Juniors' THEN 1 WHEN 'Seniors' THEN 2 WHEN 'Masters' THEN 3
                       ELSE 4 END AS age_order,
       coalesce((SELECT max(round) FROM played AS p WHERE p.division IS d.division
                 AND NOT playoff), (SELECT last_round FROM tb_report_args)) AS swiss_last,
       (SELECT count(*) FROM played AS p WHERE p.division IS d.division AND NOT playoff)
         AS swiss_rounds,
       (SELECT count(*) FROM played AS p WHERE p.division IS d.division AND playoff)
         AS playoff_rounds
FROM (SELECT DISTINCT division FROM final) AS d;
ALTER TABLE tb_report_divisions ADD COLUMN sec;
UPDATE tb_report_divisions SET sec = (SELECT count(*) FROM tb_report_divisions AS o
  WHERE (o.age_order, coalesce(o.division, '')) <=
        (tb_report_divisions.age_order, coalesce(tb_report_divisions.division, '')));

-- The standings printed, final (kind 'final') and as of each division's last Swiss round
-- (kind 'swiss'; the same rows when there is no playoff): pos is the printed order within
-- the division; vals each key's value as printed, by the key's name.
DROP TABLE IF EXISTS temp.tb_report;
CREATE TEMP TABLE tb_report AS
WITH t AS (
  SELECT 'final' AS kind, b.* FROM tb_report_by_round AS b
  WHERE b.after_round = (SELECT last_round FROM tb_report_args)
  UNION ALL
  SELECT 'swiss', b.* FROM tb_report_by_round AS b JOIN tb_report_divisions AS d
    ON d.division IS b.division AND b.after_round = d.swiss_last)
SELECT t.kind, d.sec, t.division,
       row_number() OVER (PARTITION BY t.kind, d.sec ORDER BY t.rank IS NULL, t.rank, t.player)
         AS pos,
       t.rank, t.player, coalesce(t.name, t.player) AS who, t.dropped, t.decided_by,
       t.match_points, t.points,
       t.wins || '-' || t.losses || '-' || t.draws AS record,
       json_object(
         'match_points', t.match_points, 'points', t.points,
         'omwp', iif(t.omwp IS NULL, '-', printf('%.2f%%', 100 * t.omwp)),
         'gwp', iif(t.gwp IS NULL, '-', printf('%.2f%%', 100 * t.gwp)),
         'ogwp', iif(t.ogwp IS NULL, '-', printf('%.2f%%', 100 * t.ogwp)),
         'owp', iif(t.owp IS NULL, '-', printf('%.2f%%', 100 * t.owp)),
         'oowp', iif(t.oowp IS NULL, '-', printf('%.2f%%', 100 * t.oowp)),
         'oomwp', iif(t.oomwp IS NULL, '-', printf('%.2f%%', 100 * t.oomwp)),
         'mwp', iif(t.mwp IS NULL, '-', printf('%.2f%%', 100 * t.mwp)),
         'buchholz', t.buchholz, 'buchholz_cut1', t.buchholz_cut1,
         'buchholz_cut2', t.buchholz_cut2, 'buchholz_median1', t.buchholz_median1,
         'buchholz_median2', t.buchholz_median2, 'sonneborn_berger', t.sonneborn_berger,
         'sonneborn_berger_cut1', t.sonneborn_berger_cut1,
         'sonneborn_berger_cut2', t.sonneborn_berger_cut2,
         'sonneborn_berger_median1', t.sonneborn_berger_median1,
         'sonneborn_berger_median2', t.sonneborn_berger_median2,
         'progressive', t.progressive, 'progressive_cut1', t.progressive_cut1,
         'progressive_cut2', t.progressive_cut2, 'direct_encounter', t.direct_encounter,
         'rounds_won', t.rounds_won, 'games_won', t.games_won, 'black_games', t.black_games,
         'black_wins', t.black_wins, 'rounds_elected', t.rounds_elected, 'aob', t.aob,
         'aob_fore', t.aob_fore, 'fore_buchholz', t.fore_buchholz,
         'fore_buchholz_cut1', t.fore_buchholz_cut1, 'fore_buchholz_cut2', t.fore_buchholz_cut2,
         'fore_buchholz_median1', t.fore_buchholz_median1,
         'fore_buchholz_median2', t.fore_buchholz_median2, 'koya', t.koya, 'aro', t.aro,
         'aro_cut1', t.aro_cut1, 'aro_cut2', t.aro_cut2, 'aro_median1', t.aro_median1,
         'aro_median2', t.aro_median2, 'tpr', t.tpr, 'ptp', t.ptp, 'apro', t.apro,
         'appo', t.appo, 'own_rating', t.own_rating, 'pairing_number', t.pairing_number,
         'standard_points', t.standard_points) AS vals
FROM t JOIN tb_report_divisions AS d ON d.division IS t.division;
CREATE INDEX temp.tb_report_pos ON tb_report (kind, sec, pos);
CREATE INDEX temp.tb_report_player ON tb_report (player, kind);

-- The family's columns after the player: a header and each row's cells (JSON arrays).
DROP TABLE IF EXISTS temp.tb_report_columns;
CREATE TEMP TABLE tb_report_columns AS
SELECT a.family,
       CASE a.family
         WHEN 'pokemon' THEN json_array('Record', 'Points', 'OWP', 'OOWP')
         WHEN 'chess' THEN (SELECT json_group_array(label) FROM (
                              SELECT l.label FROM tb_report_keys AS k
                              JOIN tb_report_labels AS l USING (name) ORDER BY k.ord))
         ELSE json_array('Points', 'W-L-D', 'OMW%', 'GW%', 'OGW%') END AS head
FROM tb_report_args AS a;
-- a row's cells under that header
DROP VIEW IF EXISTS temp.tb_report_cells;
CREATE TEMP VIEW tb_report_cells AS
SELECT r.kind, r.sec, r.pos, r.player,
       CASE a.family
         WHEN 'pokemon' THEN json_array(r.record, r.match_points, r.vals ->> '$.owp',
                                        r.vals ->> '$.oowp')
         WHEN 'chess' THEN (SELECT json_group_array(coalesce(v, '')) FROM (
                              SELECT json_extract(r.vals, '$.' || k.name) AS v
                              FROM tb_report_keys AS k ORDER BY k.ord))
         ELSE json_array(r.match_points, r.record, r.vals ->> '$.omwp', r.vals ->> '$.gwp',
                         r.vals ->> '$.ogwp') END AS cells
FROM tb_report AS r, tb_report_args AS a;

-- The output: sections of box tables (kind 'box', row 0 the header, cells a JSON array)
-- and lines printed as they are (kind 'line'), drawn at the end.
DROP TABLE IF EXISTS temp.tb_report_out;
CREATE TEMP TABLE tb_report_out (sec, title, kind, row, cells);
CREATE INDEX temp.tb_report_out_row ON tb_report_out (sec, row);
INSERT INTO tb_report_out
SELECT 0, NULL, 'line', 0, a.subject || ': ' || (SELECT count(*) FROM tb_report
                                                  WHERE kind = 'final') || ' players'
       || iif(d.n > 1, ' in ' || d.n || ' divisions', '') || ', standings after '
       || iif(d.playoff > 0, d.swiss || ' Swiss rounds and ' || d.playoff || ' playoff round'
                             || iif(d.playoff > 1, 's', ''),
              'round ' || a.last_round)
       || ' (policy ' || a.policy || ')'
FROM tb_report_args AS a,
     (SELECT count(*) AS n, max(swiss_rounds) AS swiss, max(playoff_rounds) AS playoff
      FROM tb_report_divisions) AS d;

-- A section's title: the report's, and the division's.
DROP TABLE IF EXISTS temp.tb_report_sections;
CREATE TEMP TABLE tb_report_sections AS
SELECT d.*, iif(d.division IS NULL, '', ': ' || d.division) AS suffix,
       coalesce(nullif((SELECT count(DISTINCT s.player) FROM tb_report_seats AS s
                        JOIN tb_report AS r ON r.player = s.player AND r.kind = 'final'
                        WHERE r.sec = d.sec AND s.round > d.swiss_last), 0),
                (SELECT max(t.top_cut) FROM tb_report_args AS a, tom_players(a.event_id) AS t
                 WHERE a.format = 'tom' AND $top IS NULL AND t.division IS d.division),
                (SELECT top FROM tb_report_args)) AS cut
FROM tb_report_divisions AS d;

-- The seeds: the players who did not drop, by their Swiss places.
DROP TABLE IF EXISTS temp.tb_report_seeds;
CREATE TEMP TABLE tb_report_seeds AS
SELECT row_number() OVER (PARTITION BY sec ORDER BY pos) AS seed, *
FROM tb_report WHERE kind = 'swiss' AND dropped = 0;
CREATE INDEX temp.tb_report_seed ON tb_report_seeds (sec, seed);
CREATE INDEX temp.tb_report_seed_pos ON tb_report_seeds (sec, pos);
-- $a and $b (side 'a', 'b') in the final standings, by id or name.
DROP TABLE IF EXISTS temp.tb_report_ab;
CREATE TEMP TABLE tb_report_ab AS
SELECT s.side, r.sec, r.pos, r.who, r.division
FROM tb_report AS r JOIN (SELECT 'a' AS side, $a AS id UNION ALL SELECT 'b', $b) AS s
  ON CAST(r.player AS TEXT) = CAST(s.id AS TEXT) OR r.who = s.id
WHERE r.kind = 'final' AND $a IS NOT NULL AND $b IS NOT NULL;
-- The players of the 'why' report: $a and $b, else in each division the last seed in and
-- the first one out (the first two when nobody is out, and in chess).
DROP TABLE IF EXISTS temp.tb_report_pairs;
CREATE TEMP TABLE tb_report_pairs AS
SELECT 'final' AS kind, x.sec, min(x.pos, y.pos) AS hi_pos, max(x.pos, y.pos) AS lo_pos
FROM tb_report_ab AS x JOIN tb_report_ab AS y
  ON x.side = 'a' AND y.side = 'b' AND y.sec = x.sec AND y.pos <> x.pos
UNION ALL
SELECT 'swiss', x.sec, x.pos, y.pos
FROM tb_report_seeds AS x JOIN tb_report_sections AS s ON s.sec = x.sec
JOIN tb_report_seeds AS y ON y.sec = x.sec AND y.seed = x.seed + 1, tb_report_args AS a
WHERE ($a IS NULL OR $b IS NULL)
  AND x.seed = iif(a.family <> 'chess' AND s.cut > 0 AND EXISTS (SELECT 1 FROM tb_report_seeds AS o
                                                   WHERE o.sec = x.sec AND o.seed > s.cut),
                   s.cut, 1);

-- The earliest key (in ranking order; the playoff first) among the decided_by of the rows
-- after one and up to another: what separates them (NULL: tied), for the pairs the reports
-- explain: each seed and the next, and the players of the 'why' report.
DROP TABLE IF EXISTS temp.tb_report_gaps;
CREATE TEMP TABLE tb_report_gaps AS
WITH needed AS (
  SELECT 'swiss' AS kind, x.sec, x.pos AS hi_pos, n.pos AS lo_pos
  FROM tb_report_seeds AS x JOIN tb_report_seeds AS n ON n.sec = x.sec AND n.seed = x.seed + 1
  UNION
  SELECT kind, sec, hi_pos, lo_pos FROM tb_report_pairs)
SELECT g.*,
       (SELECT t.decided_by FROM tb_report AS t JOIN tb_report_labels AS l
                                                ON l.name = t.decided_by
        WHERE t.kind = g.kind AND t.sec = g.sec AND t.pos > g.hi_pos AND t.pos <= g.lo_pos
        ORDER BY l.ord LIMIT 1) AS key
FROM needed AS g;

-- Standings, as posted after a round ------------------------------------------------------
-- With a playoff, # is the final place and Swiss the place before the cut.
INSERT INTO tb_report_out
SELECT 100 + s.sec, 'Standings' || s.suffix, 'box', 0,
       json(substr(json_array('#', 'Player'), 1, length(json_array('#', 'Player')) - 1)
            || iif(s.playoff_rounds > 0, ',"Swiss"', '') || ','
            || substr(c.head, 2, length(c.head) - 2)
            || iif(a.family = 'chess', '', ',"Dropped"')
            || ']')
FROM tb_report_sections AS s, tb_report_columns AS c, tb_report_args AS a
WHERE instr(a.reports, ',standings,') > 0;
INSERT INTO tb_report_out
SELECT 100 + r.sec, NULL, 'box', r.pos,
       json('[' || json_quote(coalesce(r.rank, '')) || ',' || json_quote(r.who)
            || iif(s.playoff_rounds > 0, ',' || json_quote(w.rank), '') || ','
            || substr(c.cells, 2, length(c.cells) - 2)
            || iif(a.family = 'chess', '',
                   ',' || json_quote(iif(r.dropped, iif(a.family = 'pokemon', 'Dropped',
                                                        'dropped'), '')))
            || ']')
FROM tb_report AS r JOIN tb_report_cells AS c USING (kind, sec, pos)
JOIN tb_report_sections AS s ON s.sec = r.sec
LEFT JOIN tb_report AS w ON w.kind = 'swiss' AND w.sec = r.sec AND w.player = r.player,
tb_report_args AS a
WHERE r.kind = 'final' AND instr(a.reports, ',standings,') > 0;

-- Top cut -------------------------------------------------------------------------------
-- The top players who did not drop, by their Swiss places, and the first one out (the cut:
-- the players of the playoff, else $top). "Above the next by": the first tiebreaker, in
-- ranking order, that differs from the next player on the list: the earliest decided_by
-- between the two rows (a dropped player may sit between them). With a playoff, Final is
-- the final place.
INSERT INTO tb_report_out
SELECT 200 + s.sec, 'Top ' || s.cut || ' cut' || s.suffix, 'box', 0,
       json('["Seed","Player",' || substr(c.head, 2, length(c.head) - 2)
            || ',"Above the next by"' || iif(s.playoff_rounds > 0, ',"Final"', '') || ']')
FROM tb_report_sections AS s, tb_report_columns AS c, tb_report_args AS a
WHERE instr(a.reports, ',top8,') > 0 AND s.cut > 0;
INSERT INTO tb_report_out
SELECT 200 + x.sec, NULL, 'box', x.seed,
       json('[' || json_quote(iif(x.seed <= s.cut, x.seed, 'out')) || ','
            || json_quote(x.who) || ',' || substr(c.cells, 2, length(c.cells) - 2) || ','
            || json_quote(CASE WHEN x.seed > s.cut OR n.pos IS NULL THEN ''
                               ELSE coalesce((SELECT l.label FROM tb_report_gaps AS b
                                              JOIN tb_report_labels AS l ON l.name = b.key
                                              WHERE b.kind = 'swiss' AND b.sec = x.sec
                                                AND b.hi_pos = x.pos AND b.lo_pos = n.pos),
                                             'tied') END)
            || iif(s.playoff_rounds > 0,
                   ',' || json_quote(coalesce(f.rank, '')), '') || ']')
FROM tb_report_sections AS s
JOIN tb_report_seeds AS x ON x.sec = s.sec AND x.seed <= s.cut + 1
JOIN tb_report_cells AS c ON c.kind = 'swiss' AND c.sec = x.sec AND c.pos = x.pos
LEFT JOIN tb_report_seeds AS n ON n.sec = x.sec AND n.seed = x.seed + 1
LEFT JOIN tb_report AS f ON f.kind = 'final' AND f.sec = x.sec AND f.player = x.player,
tb_report_args AS a
WHERE instr(a.reports, ',top8,') > 0 AND s.cut > 0;

-- Why is A above B? -----------------------------------------------------------------------
-- decided_by compares a row with the one above it; for any two players the deciding key is
-- the earliest (in ranking order) among the decided_by of the rows below the higher player
-- down to the lower one; none means they are tied. $a and $b are compared in the final
-- standings, where the playoff comes first: two players who met in it are told apart by how
-- far each went. Without them, in each division: the last seed in and the first one out,
-- by their Swiss places (the first two when nobody is out, and in chess).
-- Each playoff round of a division and its stage: the players it started with, a power of
-- two (2: the final, 4: the semifinals), counted back from the last round played and, while
-- the playoff goes on, from the players of the round.
DROP TABLE IF EXISTS temp.tb_report_stages;
CREATE TEMP TABLE tb_report_stages AS
WITH RECURSIVE pow(size) AS (SELECT 2 UNION ALL SELECT size * 2 FROM pow WHERE size < 1 << 30),
po AS (
  SELECT r.sec, st.round, count(*) AS players,
         dense_rank() OVER (PARTITION BY r.sec ORDER BY st.round DESC) - 1 AS from_final
  FROM tb_report_seats AS st JOIN tb_report AS r ON r.kind = 'final' AND r.player = st.player
  JOIN tb_report_divisions AS d ON d.sec = r.sec
  WHERE st.round > d.swiss_last
  GROUP BY r.sec, st.round)
SELECT sec, round, max(1 << (from_final + 1),
                       (SELECT min(size) FROM pow WHERE size >= players)) AS size
FROM po;
DROP VIEW IF EXISTS temp.tb_report_finish;
CREATE TEMP VIEW tb_report_finish AS
WITH last AS (
  SELECT st.player, g.size, st.outcome,
         row_number() OVER (PARTITION BY st.player ORDER BY st.round DESC) AS k
  FROM tb_report_seats AS st JOIN tb_report AS r ON r.kind = 'final' AND r.player = st.player
  JOIN tb_report_stages AS g ON g.sec = r.sec AND g.round = st.round)
SELECT player,
       CASE WHEN outcome IN ('W', 'bye') AND size = 2 THEN 'won the final'
            WHEN outcome IN ('W', 'bye') THEN 'still playing'
            WHEN size = 2 THEN 'lost the final'
            WHEN size = 4 THEN 'lost a semifinal'
            WHEN size = 8 THEN 'lost a quarterfinal'
            ELSE 'lost in the top ' || size END AS finish
FROM last WHERE k = 1;
INSERT INTO tb_report_out
SELECT 300 + s.sec, 'Why is one player above the other' || s.suffix, 'box', 0,
       json_array('Above', 'Below', 'Decided by', 'Values', 'Equal before that')
FROM tb_report_sections AS s, tb_report_args AS a
WHERE instr(a.reports, ',why,') > 0;
INSERT INTO tb_report_out
SELECT 300 + p.sec, NULL, 'box', p.hi_pos,
       json_array(hi.who || ' (' || iif(p.kind = 'swiss' AND s.playoff_rounds > 0, 'Swiss ', '')
                  || coalesce(hi.rank, '-') || ')',
                  lo.who || ' (' || iif(p.kind = 'swiss' AND s.playoff_rounds > 0, 'Swiss ', '')
                  || coalesce(lo.rank, '-') || ')',
                  CASE WHEN b.key = 'playoff' AND fl.finish IS NULL
                       THEN 'the Top ' || s.cut || ' cut'
                       ELSE coalesce(l.label, 'nothing: tied, listed by player') END,
                  CASE WHEN b.key IS NULL THEN 'all equal'
                       WHEN b.key = 'playoff' AND fl.finish IS NULL
                       THEN 'Swiss places ' || hs.rank || ' vs ' || ls.rank
                       WHEN b.key = 'playoff' THEN fh.finish || ' vs ' || fl.finish
                       WHEN b.key = 'head_to_head' THEN 'won their match'
                       WHEN b.key = 'registration_order' THEN 'registered first'
                       ELSE coalesce(hi.vals ->> ('$.' || b.key), '') || ' vs '
                            || coalesce(lo.vals ->> ('$.' || b.key), '') END,
                  coalesce((SELECT group_concat(label || ' ' || v, ', ') FROM (
                              SELECT e.label, hi.vals ->> ('$.' || k.name) AS v
                              FROM tb_report_keys AS k JOIN tb_report_labels AS e USING (name)
                              WHERE k.ord < l.ord AND l.ord > 0
                                AND k.name NOT IN ('head_to_head', 'registration_order')
                              ORDER BY k.ord)), ''))
FROM tb_report_pairs AS p
JOIN tb_report_sections AS s ON s.sec = p.sec
JOIN tb_report AS hi ON hi.kind = p.kind AND hi.sec = p.sec AND hi.pos = p.hi_pos
JOIN tb_report AS lo ON lo.kind = p.kind AND lo.sec = p.sec AND lo.pos = p.lo_pos
JOIN tb_report_gaps AS b ON b.kind = p.kind AND b.sec = p.sec AND b.hi_pos = p.hi_pos
                           AND b.lo_pos = p.lo_pos
LEFT JOIN tb_report_labels AS l ON l.name = b.key
LEFT JOIN tb_report_finish AS fh ON fh.player = hi.player
LEFT JOIN tb_report_finish AS fl ON fl.player = lo.player
LEFT JOIN tb_report AS hs ON hs.kind = 'swiss' AND hs.player = hi.player
LEFT JOIN tb_report AS ls ON ls.kind = 'swiss' AND ls.player = lo.player,
tb_report_args AS a
WHERE instr(a.reports, ',why,') > 0;

-- $a and $b of two divisions: no standings ranks them both; one line says so.
INSERT INTO tb_report_out
SELECT 300, 'Why is one player above the other', 'line', 0,
       x.who || ' (' || coalesce(x.division, 'no division') || ') and ' || y.who || ' ('
       || coalesce(y.division, 'no division') || ') are ranked in separate divisions: '
       || 'no standings places one above the other'
FROM tb_report_ab AS x JOIN tb_report_ab AS y ON x.side = 'a' AND y.side = 'b'
                                              AND y.sec <> x.sec,
tb_report_args AS a
WHERE instr(a.reports, ',why,') > 0
  AND NOT EXISTS (SELECT 1 FROM tb_report_pairs WHERE kind = 'final')
LIMIT 1;

-- Progress: the top players' rank after each round ----------------------------------------
INSERT INTO tb_report_out
SELECT 400 + s.sec, 'Rank after each round (Top ' || s.cut || ')' || s.suffix, 'box', 0,
       json_array('Player', 'Rank after round 1, 2, ...', 'Points')
FROM tb_report_sections AS s, tb_report_args AS a
WHERE instr(a.reports, ',progress,') > 0 AND s.cut > 0;
INSERT INTO tb_report_out
SELECT 400 + sec, NULL, 'box', pos, json_array(who, group_concat(rank, ' > '),
                                               group_concat(pts, ' > '))
FROM (SELECT r.sec, r.pos, r.who, coalesce(b.rank, '-') AS rank,
             coalesce(b.match_points, b.points) AS pts
      FROM (SELECT row_number() OVER (PARTITION BY sec ORDER BY pos) AS n, *
            FROM tb_report WHERE kind = 'final' AND dropped = 0) AS r
      JOIN tb_report_sections AS s ON s.sec = r.sec
      JOIN tb_report_by_round AS b ON b.player = r.player
      WHERE r.n <= s.cut
      ORDER BY r.sec, r.pos, b.after_round), tb_report_args AS a
WHERE instr(a.reports, ',progress,') > 0
GROUP BY sec, pos;

-- Alphabetical list, as on a pairings board ----------------------------------------------------
INSERT INTO tb_report_out
SELECT 500 + s.sec, 'Players by name' || s.suffix, 'box', 0,
       json_array('Player', iif(a.family = 'chess', 'Pts', 'Points'),
                  CASE a.family WHEN 'pokemon' THEN 'W-L-T' WHEN 'chess' THEN 'W-L-D'
                                ELSE 'W-L-D' END, 'Rank', 'Dropped')
FROM tb_report_sections AS s, tb_report_args AS a
WHERE instr(a.reports, ',alphabetical,') > 0;
INSERT INTO tb_report_out
SELECT 500 + r.sec, NULL, 'box',
       row_number() OVER (PARTITION BY r.sec ORDER BY r.who COLLATE NOCASE, r.who, r.player),
       json_array(r.who, coalesce(r.match_points, r.points), r.record, coalesce(r.rank, '-'),
                  iif(r.dropped, iif(a.family = 'pokemon', 'Dropped', 'dropped'), ''))
FROM tb_report AS r, tb_report_args AS a
WHERE r.kind = 'final' AND instr(a.reports, ',alphabetical,') > 0;

-- One player's matches, round by round -----------------------------------------------------
-- Points after each round as the standings give them (a playoff round leaves them); the
-- game column only where the rows record games (TOM files record match results alone).
DROP TABLE IF EXISTS temp.tb_report_me;
CREATE TEMP TABLE tb_report_me AS
SELECT r.* FROM tb_report AS r
WHERE r.kind = 'final'
  AND CASE WHEN $player IS NULL THEN r.pos = 1 AND r.sec = (SELECT min(sec) FROM tb_report)
           ELSE CAST(r.player AS TEXT) = CAST($player AS TEXT) OR r.who = $player END
LIMIT 1;
INSERT INTO tb_report_out
SELECT 600, 'Matches of ' || coalesce((SELECT who FROM tb_report_me LIMIT 1), $player), 'box',
       0, json_array('Round', 'Opponent',
                     CASE a.family WHEN 'chess' THEN 'Colour' ELSE 'Result' END,
                     CASE a.family WHEN 'chess' THEN 'Result' WHEN 'pokemon' THEN
                       iif(a.has_games, 'Games', NULL) ELSE 'Games' END,
                     'Points',
                     CASE a.family WHEN 'pokemon' THEN 'Opponent''s W-L-T (rank)'
                                   WHEN 'chess' THEN 'Opponent''s points (rank)'
                                   ELSE 'Opponent''s W-L-D (rank)' END)
FROM tb_report_args AS a WHERE instr(a.reports, ',player,') > 0;
INSERT INTO tb_report_out
SELECT 600, NULL, 'box', o.round,
       json_array(
         o.round || coalesce(' (' || CASE g.size WHEN 2 THEN 'final' WHEN 4 THEN 'semifinal'
                                                 WHEN 8 THEN 'quarterfinal'
                                                 ELSE 'top ' || g.size END || ')', ''),
         coalesce(t.who, o.opponent, CASE o.outcome WHEN 'loss' THEN '(no opponent)'
                                                    WHEN 'zero_bye' THEN '(absent)'
                                                    ELSE '(bye)' END),
         CASE WHEN a.family = 'chess' THEN iif(o.opponent IS NULL, '', o.colour)
              ELSE CASE o.outcome WHEN 'bye' THEN 'W' WHEN 'loss' THEN 'L'
                                  WHEN 'D' THEN iif(a.family = 'pokemon', 'T', 'D')
                                  ELSE o.outcome END END,
         CASE WHEN a.family = 'chess' THEN
                CASE WHEN o.opponent IS NULL THEN CASE o.outcome WHEN 'half_bye' THEN '½'
                                                                 WHEN 'bye' THEN '1'
                                                                 ELSE '0' END
                     WHEN o.result LIKE 'forfeit%' THEN iif(o.outcome = 'W', '+', '-')
                     ELSE CASE o.outcome WHEN 'W' THEN '1' WHEN 'D' THEN '½' ELSE '0' END END
              WHEN a.family = 'pokemon' AND NOT a.has_games THEN NULL
              ELSE CASE o.outcome WHEN 'bye' THEN '2-0-0' WHEN 'loss' THEN '0-2-0'
                                  ELSE o.won || '-' || o.lost || '-' || o.draws END END,
         iif(o.round > d.swiss_last, '', coalesce(b.match_points, b.points)),
         coalesce(iif(a.family = 'chess', coalesce(t.points, ''), t.record)
                  || ' (' || coalesce(t.rank, '-') || ')', ''))
FROM tb_report_me AS me
JOIN tb_report_seats AS o ON o.player = me.player
JOIN tb_report_divisions AS d ON d.sec = me.sec
LEFT JOIN tb_report_stages AS g ON g.sec = me.sec AND g.round = o.round
LEFT JOIN tb_report_by_round AS b ON b.player = me.player AND b.after_round = o.round
LEFT JOIN tb_report AS t ON t.kind = 'final' AND t.player = o.opponent,
tb_report_args AS a
WHERE instr(a.reports, ',player,') > 0;
-- a game column the family does not print: out of every row of the report
UPDATE tb_report_out SET cells = json_remove(cells, '$[3]')
WHERE sec = 600 AND (SELECT family = 'pokemon' AND NOT has_games FROM tb_report_args);

-- Crosstable (chess), as arbiters print it -------------------------------------------------
-- Rank, start number, name, rating, one cell per round, points and the order's tie-breaks.
-- A cell is the opponent's start number, the colour and the result (12w1, 7b½, 3w0); a
-- forfeit is the opponent and + or - (12+); a pairing-allocated bye +, a half-point bye H, a
-- zero-point bye or a round without a game -. Names are cut and padded by characters
-- (printf's ! flag), so that Müller lines up with Adams.
DROP VIEW IF EXISTS temp.tb_report_crosstable;
CREATE TEMP VIEW tb_report_crosstable AS
WITH
cell AS (
  SELECT round, player,
         CASE WHEN opponent IS NULL THEN CASE outcome WHEN 'half_bye' THEN 'H'
                                                      WHEN 'bye' THEN '+' ELSE '-' END
              WHEN result LIKE '%forfeit%' THEN opponent || iif(outcome = 'W', '+', '-')
              ELSE opponent || colour || CASE outcome WHEN 'W' THEN '1' WHEN 'D' THEN '½'
                                                      ELSE '0' END
         END AS text
  FROM tb_report_seats),
rounds(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM rounds
              WHERE r < (SELECT last_round FROM tb_report_args)),
keys AS (  -- the tie-breaks after the points, each as wide as its label or widest value
  SELECT k.ord, k.name, l.label,
         max(5, length(l.label), (SELECT max(length(coalesce(r.vals ->> ('$.' || k.name), '')))
                                  FROM tb_report AS r WHERE r.kind = 'final')) AS width
  FROM tb_report_keys AS k JOIN tb_report_labels AS l USING (name)
  WHERE k.ord > 1),
line AS (
  SELECT DISTINCT t.sec, t.pos, t.rank, t.player, t.who, t.points, t.vals,
         group_concat(printf('%!-6s', coalesce(c.text, '-')), '') OVER (
           PARTITION BY t.player ORDER BY rounds.r
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS cells
  FROM tb_report AS t CROSS JOIN rounds
  LEFT JOIN cell AS c ON c.player = t.player AND c.round = rounds.r
  WHERE t.kind = 'final')
SELECT s.sec, 0 AS pos,
       printf('%3s %4s  %-20s %4s  %s%4s', 'Rk', 'SNo', 'Name', 'Rtg',
              (SELECT group_concat(printf('%-6s', r), '') FROM rounds),
              'Pts')
       || coalesce((SELECT group_concat(printf(' %*s', width, label), '')
                    FROM (SELECT * FROM keys ORDER BY ord)), '') AS text
FROM tb_report_sections AS s
UNION ALL
SELECT line.sec, line.pos,
       printf('%3s %4s  %!-20.20s %4s  %s%4s', coalesce(line.rank, ''), line.player,
              line.who, coalesce((SELECT rating FROM tb_report_ratings AS g
                                  WHERE g.player = line.player), ''),
              line.cells, line.points)
       || coalesce((SELECT group_concat(printf(' %*s', width,
                                               coalesce(line.vals ->> ('$.' || name), '')), '')
                    FROM (SELECT * FROM keys ORDER BY ord)), '')
FROM line;
INSERT INTO tb_report_out
SELECT 700 + x.sec, iif(x.pos = 0, 'Crosstable' || s.suffix, NULL), 'line', x.pos, x.text
FROM tb_report_crosstable AS x JOIN tb_report_sections AS s ON s.sec = x.sec,
tb_report_args AS a
WHERE instr(a.reports, ',crosstable,') > 0;

-- Drawing: a title line, then the box (the shell's box mode: headers centred, cells left,
-- widths in characters), or the lines as they are. A division's section without rows is left
-- out (without divisions a report without rows prints its title).
WITH
cell AS (
  SELECT o.sec, o.row, j.key AS col, coalesce(CAST(j.value AS TEXT), '') AS text
  FROM tb_report_out AS o, json_each(o.cells) AS j WHERE o.kind = 'box'),
width AS (
  SELECT c.sec, c.col, max(length(c.text)) AS w FROM cell AS c
  WHERE EXISTS (SELECT 1 FROM tb_report_out AS o WHERE o.sec = c.sec AND o.row > 0)
  GROUP BY c.sec, c.col),
row_text AS (
  SELECT DISTINCT c.sec, c.row,
         group_concat(iif(c.row = 0,
                          printf('%*s%s%*s', (w.w - length(c.text)) / 2, '', c.text,
                                 (w.w - length(c.text) + 1) / 2, ''),
                          printf('%!-*s', w.w, c.text)), ' │ ') OVER (
           PARTITION BY c.sec, c.row ORDER BY c.col
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS text
  FROM cell AS c JOIN width AS w USING (sec, col)),
rule AS (
  SELECT DISTINCT sec, group_concat(replace(printf('%*s', w + 2, ''), ' ', '─'), char(9)) OVER (
           PARTITION BY sec ORDER BY col
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS dashes
  FROM width),
drawn(sec, ord, text) AS (
  SELECT sec, -3, char(10) || title FROM tb_report_out AS o
  WHERE row = 0 AND title IS NOT NULL
    AND (kind = 'line' OR (SELECT count(*) FROM tb_report_divisions) = 1
         OR EXISTS (SELECT 1 FROM tb_report_out AS d WHERE d.sec = o.sec AND d.row > 0))
  UNION ALL SELECT sec, -2, '┌' || replace(dashes, char(9), '┬') || '┐' FROM rule
  UNION ALL SELECT sec, 2 * row - 1, '│ ' || text || ' │' FROM row_text
  UNION ALL SELECT sec, 0, '├' || replace(dashes, char(9), '┼') || '┤' FROM rule
  UNION ALL SELECT sec, 1e18, '└' || replace(dashes, char(9), '┴') || '┘' FROM rule
  UNION ALL SELECT sec, row, cells FROM tb_report_out WHERE kind = 'line')
SELECT text FROM drawn ORDER BY sec, ord;

DROP VIEW temp.tb_report_crosstable;
DROP TABLE temp.tb_report_me;
DROP TABLE temp.tb_report_pairs;
DROP TABLE temp.tb_report_ab;
DROP VIEW temp.tb_report_finish;
DROP TABLE temp.tb_report_stages;
DROP TABLE temp.tb_report_seeds;
DROP TABLE temp.tb_report_gaps;
DROP TABLE temp.tb_report_sections;
DROP VIEW temp.tb_report_cells;
DROP TABLE temp.tb_report_out;
DROP TABLE temp.tb_report_columns;
DROP TABLE temp.tb_report;
DROP TABLE temp.tb_report_seats;
DROP TABLE temp.tb_report_divisions;
DROP TABLE temp.tb_report_by_round;
DROP TABLE temp.tb_report_labels;
DROP TABLE temp.tb_report_keys;
DROP TABLE temp.tb_report_ratings;
DROP TABLE temp.tb_report_rows;
DROP TABLE temp.tb_report_args;
DETACH tb_report_none;
