-- tiebreak reports: what an organizer prints or posts during and after a Swiss event.
-- Runs in the sqlite3 shell, after the extension is loaded:
--
--   sqlite3 rcq.db '.load ./build/tiebreak' '.parameter set $event 2' '.read sql/reports.sql'
--
-- Parameters, all optional (.parameter set $name value; .parameter clear to reset):
--   $event    the event; default: the event of the last row added to matches
--   $round    standings after this round (as_of_round); default: every round played
--   $policy   default 'mtg', with options: Melee.gg's numbers are 'melee'. The reports
--             print each family's own tiebreakers: Magic's OMW%, GW%, OGW% (W-L-D) for
--             'mtg', 'melee*', and custom orders; for 'pokemon' RK9's columns (record
--             W-L-T, points, OWP, OOWP, dropped). Other policies get Magic's columns.
--   $report   the reports to print, comma-separated: standings, top8, why, progress,
--             alphabetical, player; default: all of them
--   $player   the player of the 'player' report; default: the first in the standings
--   $a, $b    the players of the 'why' report; default: the last player in the Top 8 and the
--             first one out
-- Percentages are printed as the platforms print them: 66.67%. The reports read the table
-- `matches`; for other tables create a TEMP VIEW named matches first (sql/views.sql).
-- Leaves the shell in box mode with headers on; uses two TEMP tables, dropped at the end.
-- (The 3.40 shell prints box headers even with .headers off; newer shells need it on.)

.mode list
.headers off

DROP TABLE IF EXISTS temp.tb_report_args;
CREATE TEMP TABLE tb_report_args AS
SELECT coalesce($event, (SELECT event_id FROM matches ORDER BY rowid DESC LIMIT 1)) AS event_id,
       $round AS as_of_round,
       coalesce($policy, 'mtg') AS policy,
       coalesce($policy, 'mtg') = 'pokemon' OR coalesce($policy, 'mtg') LIKE 'pokemon(%'
         AS pokemon,
       ',' || replace(coalesce($report, 'standings,top8,why,progress,alphabetical,player'),
                      ' ', '') || ',' AS reports;

-- The standings, computed once; pos is the printed order (rank, then player).
DROP TABLE IF EXISTS temp.tb_report;
CREATE TEMP TABLE tb_report AS
SELECT row_number() OVER (ORDER BY s.rank, s.player) AS pos,
       s.*,
       s.wins || '-' || s.losses || '-' || s.draws AS record,
       iif(s.omwp IS NULL, '-', printf('%.2f%%', 100 * s.omwp)) AS omw,
       printf('%.2f%%', 100 * s.gwp) AS gw,
       iif(s.ogwp IS NULL, '-', printf('%.2f%%', 100 * s.ogwp)) AS ogw,
       iif(s.owp IS NULL, '-', printf('%.2f%%', 100 * s.owp)) AS owp_text,
       iif(s.oowp IS NULL, '-', printf('%.2f%%', 100 * s.oowp)) AS oowp_text,
       CASE s.decided_by WHEN 'match_points' THEN 1 WHEN 'omwp' THEN 2 WHEN 'owp' THEN 2
                         WHEN 'gwp' THEN 3 WHEN 'oowp' THEN 3 WHEN 'ogwp' THEN 4
                         WHEN 'head_to_head' THEN 4 END AS key_order,
       CASE s.decided_by WHEN 'match_points' THEN 'Points' WHEN 'omwp' THEN 'OMW%'
                         WHEN 'gwp' THEN 'GW%' WHEN 'ogwp' THEN 'OGW%' WHEN 'owp' THEN 'OWP'
                         WHEN 'oowp' THEN 'OOWP' WHEN 'head_to_head' THEN 'Head-to-head'
                         END AS key_label
FROM tb_report_args AS a, standings(a.event_id, a.policy, NULL, a.as_of_round) AS s;

SELECT 'Event ' || a.event_id || ': ' || count(*) || ' players, standings after round '
       || coalesce(a.as_of_round, (SELECT max(round) FROM matches WHERE event_id = a.event_id))
       || ' (policy ' || a.policy || ')'
FROM tb_report_args AS a, tb_report;

-- Standings, as posted after a round -------------------------------------------------------
SELECT char(10) || 'Standings' FROM tb_report_args WHERE instr(reports, ',standings,') > 0;
.mode box
.headers on
SELECT rank AS "#", player AS "Player", match_points AS "Points", record AS "W-L-D",
       omw AS "OMW%", gw AS "GW%", ogw AS "OGW%", iif(dropped, 'dropped', '') AS " "
FROM tb_report
WHERE (SELECT instr(reports, ',standings,') > 0 AND NOT pokemon FROM tb_report_args)
ORDER BY pos;
-- Pokemon, as RK9 prints it: the record is W-L-T
SELECT rank AS "#", player AS "Player", record AS "Record", match_points AS "Points",
       owp_text AS "OWP", oowp_text AS "OOWP", iif(dropped, 'Dropped', '') AS "Dropped"
FROM tb_report
WHERE (SELECT instr(reports, ',standings,') > 0 AND pokemon FROM tb_report_args)
ORDER BY pos;

-- Top 8 cut ---------------------------------------------------------------------------------
-- The first eight players who did not drop, and the first one out. "Above the next by": the
-- first tiebreaker, in ranking order, that differs from the next player on the list: the
-- earliest decided_by between the two rows (a dropped player may sit between them).
.mode list
.headers off
SELECT char(10) || 'Top 8 cut' FROM tb_report_args WHERE instr(reports, ',top8,') > 0;
.mode box
.headers on
WITH cut AS (
  SELECT row_number() OVER (ORDER BY pos) AS seed, * FROM tb_report WHERE dropped = 0
),
shown AS (
  SELECT c.*, n.pos AS next_pos FROM cut AS c LEFT JOIN cut AS n ON n.seed = c.seed + 1
  WHERE c.seed <= 9
)
SELECT iif(seed <= 8, seed, 'out') AS "Seed", player AS "Player", match_points AS "Points",
       record AS "W-L-D", omw AS "OMW%", gw AS "GW%", ogw AS "OGW%",
       CASE WHEN seed = 9 OR next_pos IS NULL THEN ''
            ELSE coalesce((SELECT t.key_label FROM tb_report AS t
                           WHERE t.pos > s.pos AND t.pos <= s.next_pos
                             AND t.decided_by IS NOT NULL
                           ORDER BY t.key_order LIMIT 1), 'tied') END AS "Above the next by"
FROM shown AS s
WHERE (SELECT instr(reports, ',top8,') > 0 AND NOT pokemon FROM tb_report_args)
ORDER BY seed;
WITH cut AS (
  SELECT row_number() OVER (ORDER BY pos) AS seed, * FROM tb_report WHERE dropped = 0
),
shown AS (
  SELECT c.*, n.pos AS next_pos FROM cut AS c LEFT JOIN cut AS n ON n.seed = c.seed + 1
  WHERE c.seed <= 9
)
SELECT iif(seed <= 8, seed, 'out') AS "Seed", player AS "Player", record AS "Record",
       match_points AS "Points", owp_text AS "OWP", oowp_text AS "OOWP",
       CASE WHEN seed = 9 OR next_pos IS NULL THEN ''
            ELSE coalesce((SELECT t.key_label FROM tb_report AS t
                           WHERE t.pos > s.pos AND t.pos <= s.next_pos
                             AND t.decided_by IS NOT NULL
                           ORDER BY t.key_order LIMIT 1), 'tied') END AS "Above the next by"
FROM shown AS s
WHERE (SELECT instr(reports, ',top8,') > 0 AND pokemon FROM tb_report_args)
ORDER BY seed;

-- Why is A above B? -----------------------------------------------------------------------
-- decided_by compares a row with the one above it. For any two players the deciding
-- tiebreaker is the earliest one (in ranking order) among the decided_by values of the rows
-- below the higher player down to the lower one; none means they are tied.
.mode list
.headers off
SELECT char(10) || 'Why is one player above the other' FROM tb_report_args
WHERE instr(reports, ',why,') > 0;
.mode box
.headers on
WITH cut AS (
  SELECT row_number() OVER (ORDER BY pos) AS seed, player FROM tb_report WHERE dropped = 0
),
pair AS (
  SELECT hi.*, lo.player AS lo_player, lo.pos AS lo_pos, lo.match_points AS lo_points,
         lo.omw AS lo_omw, lo.gw AS lo_gw, lo.ogw AS lo_ogw, lo.owp_text AS lo_owp,
         lo.oowp_text AS lo_oowp,
         (SELECT t.key_label FROM tb_report AS t
          WHERE t.pos > hi.pos AND t.pos <= lo.pos AND t.decided_by IS NOT NULL
          ORDER BY t.key_order LIMIT 1) AS key
  FROM tb_report AS hi, tb_report AS lo
  WHERE hi.player IN (coalesce($a, (SELECT player FROM cut WHERE seed = 8)),
                      coalesce($b, (SELECT player FROM cut WHERE seed = 9)))
    AND lo.player IN (coalesce($a, (SELECT player FROM cut WHERE seed = 8)),
                      coalesce($b, (SELECT player FROM cut WHERE seed = 9)))
    AND lo.pos > hi.pos
)
SELECT player || ' (' || rank || ')' AS "Above", lo_player || ' (' || (SELECT rank FROM
       tb_report WHERE pos = lo_pos) || ')' AS "Below",
       coalesce(key, 'nothing: tied, listed by player') AS "Decided by",
       CASE key
         WHEN 'Points' THEN match_points || ' vs ' || lo_points
         WHEN 'OMW%' THEN omw || ' vs ' || lo_omw
         WHEN 'GW%' THEN gw || ' vs ' || lo_gw
         WHEN 'OGW%' THEN ogw || ' vs ' || lo_ogw
         WHEN 'OWP' THEN owp_text || ' vs ' || lo_owp
         WHEN 'OOWP' THEN oowp_text || ' vs ' || lo_oowp
         WHEN 'Head-to-head' THEN 'won their match'
         ELSE 'all equal'
       END AS "Values",
       CASE key
         WHEN 'OWP' THEN 'Points ' || match_points
         WHEN 'OOWP' THEN 'Points ' || match_points || ', OWP ' || owp_text
         WHEN 'Head-to-head' THEN 'Points ' || match_points || ', OWP ' || owp_text
                                  || ', OOWP ' || oowp_text
         WHEN 'OMW%' THEN 'Points ' || match_points
         WHEN 'GW%' THEN 'Points ' || match_points || ', OMW% ' || omw
         WHEN 'OGW%' THEN 'Points ' || match_points || ', OMW% ' || omw || ', GW% ' || gw
         ELSE ''
       END AS "Equal before that"
FROM pair
WHERE (SELECT instr(reports, ',why,') > 0 FROM tb_report_args);

-- Progress: the Top 8's rank after each round --------------------------------------------
.mode list
.headers off
SELECT char(10) || 'Rank after each round (Top 8)' FROM tb_report_args
WHERE instr(reports, ',progress,') > 0;
.mode box
.headers on
WITH RECURSIVE
  args AS (SELECT event_id, policy,
                  coalesce(as_of_round, (SELECT max(round) FROM matches AS m
                                         WHERE m.event_id = tb_report_args.event_id)) AS last
           FROM tb_report_args
           WHERE instr(reports, ',progress,') > 0),
  r(n) AS (SELECT 1 FROM args UNION ALL SELECT n + 1 FROM r, args WHERE n < args.last),
  top8 AS (SELECT player, pos FROM tb_report WHERE dropped = 0 ORDER BY pos LIMIT 8),
  ranks AS (SELECT t.pos, t.player, r.n, s.rank, s.match_points
            FROM args, r, standings(args.event_id, args.policy, NULL, r.n) AS s
            JOIN top8 AS t ON t.player = s.player
            ORDER BY t.pos, r.n)
SELECT player AS "Player", group_concat(rank, ' > ') AS "Rank after round 1, 2, ...",
       group_concat(match_points, ' > ') AS "Points"
FROM ranks
GROUP BY pos
ORDER BY pos;

-- Alphabetical list, as on a pairings board --------------------------------------------------
.mode list
.headers off
SELECT char(10) || 'Players by name' FROM tb_report_args
WHERE instr(reports, ',alphabetical,') > 0;
.mode box
.headers on
SELECT player AS "Player", match_points AS "Points", record AS "W-L-D", rank AS "Rank",
       iif(dropped, 'dropped', '') AS " "
FROM tb_report
WHERE (SELECT instr(reports, ',alphabetical,') > 0 FROM tb_report_args)
ORDER BY player;

-- One player's matches, round by round -----------------------------------------------------
.mode list
.headers off
SELECT char(10) || 'Matches of ' || coalesce($player, (SELECT player FROM tb_report WHERE pos = 1))
FROM tb_report_args WHERE instr(reports, ',player,') > 0;
.mode box
.headers on
WITH a AS (SELECT * FROM tb_report_args WHERE instr(reports, ',player,') > 0),
me AS (SELECT coalesce($player, (SELECT player FROM tb_report WHERE pos = 1)) AS player),
seat AS (
  SELECT m.round, m.player_b AS opponent, m.a_wins AS won, m.b_wins AS lost, m.draws,
         m.result, 'a' AS side
  FROM a, me, matches AS m
  WHERE m.event_id = a.event_id AND m.player_a = me.player
    AND (a.as_of_round IS NULL OR m.round <= a.as_of_round)
  UNION ALL
  SELECT m.round, m.player_a, m.b_wins, m.a_wins, m.draws, m.result, 'b'
  FROM a, me, matches AS m
  WHERE m.event_id = a.event_id AND m.player_b = me.player
    AND (a.as_of_round IS NULL OR m.round <= a.as_of_round)
),
outcome AS (
  SELECT *,
         CASE WHEN opponent IS NULL AND result = 'loss' THEN 'loss'
              WHEN opponent IS NULL THEN 'bye'
              WHEN result = 'double_loss' THEN 'L'
              WHEN result = 'draw' THEN 'D'
              WHEN result IN ('a', 'b') THEN iif(result = side, 'W', 'L')
              WHEN won > lost THEN 'W' WHEN won < lost THEN 'L' ELSE 'D' END AS wld
  FROM seat
)
SELECT o.round AS "Round",
       coalesce(o.opponent, iif(o.wld = 'loss', '(no opponent)', '(bye)')) AS "Opponent",
       CASE o.wld WHEN 'bye' THEN 'W' WHEN 'loss' THEN 'L' ELSE o.wld END AS "Result",
       CASE o.wld WHEN 'bye' THEN '2-0-0' WHEN 'loss' THEN '0-2-0'
                  ELSE o.won || '-' || o.lost || '-' || o.draws END AS "Games",
       sum(CASE o.wld WHEN 'L' THEN 0 WHEN 'loss' THEN 0 WHEN 'D' THEN 1 ELSE 3 END)
         OVER (ORDER BY o.round) AS "Points",
       coalesce(t.record || ' (' || t.rank || ')', '') AS "Opponent's W-L-D (rank)"
FROM outcome AS o LEFT JOIN tb_report AS t ON t.player = o.opponent
ORDER BY o.round;

DROP TABLE temp.tb_report;
DROP TABLE temp.tb_report_args;
