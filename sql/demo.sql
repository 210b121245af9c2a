-- tiebreak demo: standings of the example event in sql/example.sql.
-- Printed by `cmake --build build --target demo`; by hand:
--   sqlite3 :memory: '.load ./build/tiebreak' '.read sql/schema.sql' \
--     '.read sql/example.sql' '.read sql/demo.sql'

.mode box

.print 'Event 1, final standings (MTR Appendix C: points, OMW%, GW%, OGW%)'
SELECT rank AS "#",
       player,
       match_points AS points,
       wins || '-' || losses || '-' || draws AS record,
       printf('%.2f%%', 100 * omwp) AS "OMW%",
       printf('%.2f%%', 100 * gwp) AS "GW%",
       printf('%.2f%%', 100 * ogwp) AS "OGW%",
       CASE WHEN dropped THEN 'dropped' ELSE '' END AS status
FROM standings(1, 'mtg');

.print ''
.print 'Top 8 (dropped players are skipped)'
SELECT rank AS "#", player, match_points AS points,
       printf('%.2f%%', 100 * omwp) AS "OMW%",
       decided_by AS "below the player above by"
FROM standings(1, 'mtg')
WHERE dropped = 0
ORDER BY rank, player
LIMIT 8;

.print ''
.print 'Why is one player above another? The first tiebreaker that differs.'
-- decided_by names the tiebreaker that separates a row from the row just above it. For any two
-- players, the first tiebreaker that differs is the earliest one (in ranking order) among the
-- decided_by values of the rows below the higher player down to the lower one.
WITH s AS (
  SELECT row_number() OVER (ORDER BY rank, player) AS pos, *
  FROM standings(1, 'mtg')
),
question(x, y) AS (
  VALUES ('Hugo', 'Cleo'), ('Ada', 'Yuki'), ('Sami', 'Ines'), ('Ines', 'Lena')
),
pair AS (
  SELECT hi.*, lo.player AS lo_player, lo.pos AS lo_pos, lo.match_points AS lo_points,
         lo.omwp AS lo_omwp, lo.gwp AS lo_gwp, lo.ogwp AS lo_ogwp,
         (SELECT t.decided_by FROM s AS t
          WHERE t.pos > hi.pos AND t.pos <= lo.pos AND t.decided_by IS NOT NULL
          ORDER BY CASE t.decided_by WHEN 'match_points' THEN 1 WHEN 'omwp' THEN 2
                                     WHEN 'gwp' THEN 3 ELSE 4 END
          LIMIT 1) AS key
  FROM question
  JOIN s AS hi ON hi.player IN (x, y)
  JOIN s AS lo ON lo.player IN (x, y) AND lo.pos > hi.pos
)
SELECT player AS above, lo_player AS below,
       coalesce(key, 'nothing: tied, listed by player id') AS "decided by",
       CASE key
         WHEN 'match_points' THEN match_points || ' vs ' || lo_points
         WHEN 'omwp' THEN printf('%.2f%% vs %.2f%%', 100 * omwp, 100 * lo_omwp)
         WHEN 'gwp'  THEN printf('%.2f%% vs %.2f%%', 100 * gwp, 100 * lo_gwp)
         WHEN 'ogwp' THEN printf('%.2f%% vs %.2f%%', 100 * ogwp, 100 * lo_ogwp)
         ELSE 'all equal'
       END AS "values"
FROM pair
ORDER BY pos;
