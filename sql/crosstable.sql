-- A chess crosstable as arbiters print it: rank, start number, name, rating, one cell per
-- round, points and tie-breaks.  Runs in the sqlite3 shell, after the extension is loaded:
--
--   sqlite3 event.db '.load ./build/tiebreak' '.parameter set $event 1' '.read sql/crosstable.sql'
--
-- Parameters (.parameter set $name value), all optional:
--   $event    the event; default: the event of the first row of matches
--   $policy   default 'fide'; the columns shown are those of the FIDE order (BH-C1, BH, SB,
--             DE, WIN), NULL where the policy does not compute them
-- Reads `matches` (a TEMP VIEW over trf_matches() will do, see docs/trf.md) and
-- `players(event_id, player, name, rating)` for names and ratings (trf_players() has both).
--
-- A cell is the opponent's start number, the colour and the result (12w1, 7b½, 3w0); a
-- forfeit is the opponent and + or - (12+); a pairing-allocated bye +, a half-point bye H,
-- a zero-point bye or a round without a game -.  Names are cut and padded by
-- characters (printf's ! flag), so that Müller lines up with Adams.

.mode list
.headers off

WITH args AS (
  SELECT coalesce($event, (SELECT event_id FROM matches LIMIT 1)) AS event_id,
         coalesce($policy, 'fide') AS policy
),
m AS (SELECT matches.* FROM matches, args WHERE matches.event_id = args.event_id),
-- each row seen from both sides: the player's points in it (2 win, 1 draw, 0 loss)
seat AS (
  SELECT round, player_a AS player, player_b AS opp, 'w' AS colour, result,
         CASE WHEN result IN ('a', 'forfeit_a') OR (result IS NULL AND a_wins > b_wins) THEN 2
              WHEN result = 'draw' OR (result IS NULL AND a_wins = b_wins) THEN 1
              ELSE 0 END AS pts
    FROM m
  UNION ALL
  SELECT round, player_b, player_a, 'b', result,
         CASE WHEN result IN ('b', 'forfeit_b') OR (result IS NULL AND b_wins > a_wins) THEN 2
              WHEN result = 'draw' OR (result IS NULL AND a_wins = b_wins) THEN 1
              ELSE 0 END
    FROM m WHERE player_b IS NOT NULL
),
cell AS (
  SELECT round, player,
         CASE WHEN opp IS NULL THEN CASE result WHEN 'half_bye' THEN 'H' WHEN 'zero_bye' THEN '-'
                                               ELSE '+' END
              WHEN result LIKE '%forfeit%' THEN opp || iif(pts = 2, '+', '-')
              WHEN result = 'double_loss' THEN opp || colour || '0'
              ELSE opp || colour || CASE pts WHEN 2 THEN '1' WHEN 1 THEN '½' ELSE '0' END
         END AS text
    FROM seat
),
rounds(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM rounds WHERE r < (SELECT max(round) FROM m)),
s AS (SELECT s.* FROM args, standings(args.event_id, args.policy) AS s),
row AS (
  SELECT DISTINCT s.rank, s.player,
         group_concat(coalesce(cell.text, '-') || substr('      ', 1, 6 - length(coalesce(cell.text, '-'))),
                      '') OVER (
           PARTITION BY s.player ORDER BY rounds.r
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS cells
    FROM s CROSS JOIN rounds
    LEFT JOIN cell ON cell.player = s.player AND cell.round = rounds.r
)
-- the header: a column per round
SELECT printf('%3s %4s  %-20s %4s  %s%4s  %5s %5s %5s %2s %3s', 'Rk', 'SNo', 'Name', 'Rtg',
              (SELECT group_concat(r || substr('      ', 1, 6 - length(r)), '') FROM rounds),
              'Pts', 'BH-C1', 'BH', 'SB', 'DE', 'WIN')
UNION ALL
SELECT * FROM (
SELECT printf('%3d %4d  %!-20.20s %4s  %s%4s  %5s %5s %5s %2s %3s',
              s.rank, s.player, coalesce(p.name, ''), coalesce(p.rating, ''), row.cells,
              s.points, coalesce(s.buchholz_cut1, ''), coalesce(s.buchholz, ''),
              coalesce(s.sonneborn_berger, ''), coalesce(s.direct_encounter, ''),
              coalesce(s.rounds_won, ''))
  FROM s JOIN row USING (player)
  LEFT JOIN players AS p ON p.event_id = (SELECT event_id FROM args) AND p.player = s.player
 ORDER BY s.rank, s.player);
