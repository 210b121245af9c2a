-- MTG standings of one event (Magic Tournament Rules, Appendix C) in plain SQL, without the
-- extension: what a user would write against the tables of sql/schema.sql. The event is the
-- parameter ?1 (in the sqlite3 shell: `.param set ?1 1` then `.read bench/pure_sql.sql`).
--
-- Same definitions as standings(e, 'mtg'): 3/1/0 match points, a bye is a 2-0 match win and
-- not an opponent, MWP and GWP floored at 0.33 per player before averaging, the own GW%
-- floored too, OMW%/OGW% the mean over matches played (a player with only byes ranks as 0).
-- The optional result column is honoured; the optional games table is not read.
--
-- Ranking on doubles: the same fraction reached through different sums (opponents averaged
-- in another order) can differ in the last bits, which would split a true tie, so every key
-- is rounded to 9 decimals before ordering. Rounding in turn merges values closer than
-- 5e-10 and splits equal values that straddle a rounding boundary: ties are only
-- approximately right. This is exactly the weakness the extension removes by comparing exact
-- fractions.
WITH
m AS (
  SELECT player_a, player_b, a_wins, b_wins, draws,
         coalesce(result, CASE WHEN player_b IS NULL OR a_wins > b_wins THEN 'a'
                               WHEN b_wins > a_wins THEN 'b' ELSE 'draw' END) AS outcome
  FROM matches
  WHERE event_id = ?1
),
-- One row per player per round played; a bye counts as 2-0.
seats AS (
  SELECT player_a AS player, player_b AS opponent,
         CASE outcome WHEN 'a' THEN 3 WHEN 'draw' THEN 1 ELSE 0 END AS points,
         CASE WHEN player_b IS NULL THEN 2 ELSE a_wins END AS gw,
         CASE WHEN player_b IS NULL THEN 0 ELSE b_wins END AS gl,
         CASE WHEN player_b IS NULL THEN 0 ELSE draws END AS gd
  FROM m
  UNION ALL
  SELECT player_b, player_a,
         CASE outcome WHEN 'b' THEN 3 WHEN 'draw' THEN 1 ELSE 0 END,
         b_wins, a_wins, draws
  FROM m
  WHERE player_b IS NOT NULL
),
records AS (
  SELECT player, sum(points) AS match_points, count(*) AS rounds,
         sum(3 * gw + gd) AS game_points, sum(gw + gl + gd) AS games
  FROM seats
  GROUP BY player
),
pct AS (
  SELECT player, match_points,
         max(match_points / (3.0 * rounds), 0.33) AS mwp,
         CASE WHEN games = 0 THEN 0.33 ELSE max(game_points / (3.0 * games), 0.33) END AS gwp
  FROM records
),
-- One term per match played: byes have no opponent and drop out of the join.
opp AS (
  SELECT s.player, avg(o.mwp) AS omwp, avg(o.gwp) AS ogwp
  FROM seats AS s JOIN pct AS o ON o.player = s.opponent
  GROUP BY s.player
)
SELECT rank() OVER (ORDER BY p.match_points DESC,
                             round(coalesce(opp.omwp, 0), 9) DESC,
                             round(p.gwp, 9) DESC,
                             round(coalesce(opp.ogwp, 0), 9) DESC) AS rank,
       p.player, p.match_points, opp.omwp, p.gwp, opp.ogwp
FROM pct AS p LEFT JOIN opp USING (player)
ORDER BY rank, p.player;
