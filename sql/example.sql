-- tiebreak example event: a 24-player Friday Night Magic, 5 Swiss rounds, best-of-3 matches.
-- Rows only: run sql/schema.sql first. Event id 1; players are identified by their names.
--
--   sqlite3 fnm.db '.read sql/schema.sql' '.read sql/example.sql'
--
-- What it contains:
--   * Byes: Elif in round 1 (23 players: Yuki registered late), Uma in round 4 (23 players
--     after Jonas dropped). Byes are stored as 2-0-0.
--   * Late entry: Yuki plays rounds 2-5 only. No round-1 row: 4 rounds count, no loss added.
--   * Drops: Jonas after round 3 (1-2), Kai after round 4 (1-3). They have no later rows.
--   * A drawn match: Ines vs Lena in round 2, 1-1 with game 3 unfinished at time: 1-1-1.
--   * An intentional draw: Hugo vs Cleo, the two 4-0 players, in round 5: 0-0-3.
--   * An exact tie: Ines and Lena finish equal on match points, OMW%, GW% and OGW%
--     (standings() ranks both 5th; the next player is 7th).
-- Pairings follow the Swiss rules: score groups, no rematches, byes to the lowest-ranked
-- player without one. player_a is the player who sat at the higher table position.

-- Round 1: 23 players (Yuki registers late, from round 2). Random pairings; one bye.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 1, 'Kai',    'Ines',   0, 2, 0),
  (1, 1, 'Priya',  'Jonas',  2, 1, 0),
  (1, 1, 'Greta',  'Ada',    0, 2, 0),
  (1, 1, 'Viktor', 'Mateo',  1, 2, 0),
  (1, 1, 'Sami',   'Rosa',   2, 1, 0),
  (1, 1, 'Hugo',   'Quinn',  2, 1, 0),
  (1, 1, 'Tess',   'Dario',  1, 2, 0),
  (1, 1, 'Omar',   'Ben',    1, 2, 0),
  (1, 1, 'Cleo',   'Uma',    2, 0, 0),
  (1, 1, 'Finn',   'Lena',   1, 2, 0),
  (1, 1, 'Wen',    'Nora',   1, 2, 0),
  (1, 1, 'Elif',   NULL,     2, 0, 0);        -- bye: 23 players in round 1

-- Round 2: 24 players, paired within score groups.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 2, 'Mateo',  'Cleo',   1, 2, 0),
  (1, 2, 'Ada',    'Sami',   1, 2, 0),
  (1, 2, 'Ines',   'Lena',   1, 1, 1),        -- drawn match: 1-1, game 3 unfinished at time
  (1, 2, 'Elif',   'Hugo',   0, 2, 0),
  (1, 2, 'Ben',    'Dario',  2, 1, 0),
  (1, 2, 'Priya',  'Nora',   2, 1, 0),
  (1, 2, 'Jonas',  'Greta',  2, 1, 0),
  (1, 2, 'Viktor', 'Quinn',  2, 1, 0),
  (1, 2, 'Rosa',   'Tess',   0, 2, 0),
  (1, 2, 'Wen',    'Uma',    2, 1, 0),
  (1, 2, 'Yuki',   'Omar',   2, 1, 0),        -- late entry: no round-1 row
  (1, 2, 'Finn',   'Kai',    1, 2, 0);

-- Round 3: 24 players. Jonas (1-2) drops after this round.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 3, 'Priya',  'Sami',   0, 2, 0),
  (1, 3, 'Hugo',   'Ben',    2, 0, 0),
  (1, 3, 'Cleo',   'Ines',   2, 1, 0),
  (1, 3, 'Lena',   'Dario',  2, 0, 0),
  (1, 3, 'Wen',    'Mateo',  1, 2, 0),
  (1, 3, 'Viktor', 'Yuki',   1, 2, 0),
  (1, 3, 'Kai',    'Ada',    0, 2, 0),
  (1, 3, 'Tess',   'Jonas',  2, 1, 0),
  (1, 3, 'Nora',   'Elif',   0, 2, 0),
  (1, 3, 'Finn',   'Omar',   0, 2, 0),
  (1, 3, 'Greta',  'Rosa',   1, 2, 0),
  (1, 3, 'Uma',    'Quinn',  1, 2, 0);

-- Round 4: 23 players; the bye goes to a 0-3 player. Kai (1-3) drops after this round.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 4, 'Hugo',   'Sami',   2, 1, 0),
  (1, 4, 'Cleo',   'Lena',   2, 1, 0),
  (1, 4, 'Yuki',   'Elif',   2, 1, 0),
  (1, 4, 'Ben',    'Mateo',  2, 1, 0),
  (1, 4, 'Ada',    'Priya',  2, 0, 0),
  (1, 4, 'Tess',   'Ines',   0, 2, 0),
  (1, 4, 'Wen',    'Dario',  1, 2, 0),
  (1, 4, 'Viktor', 'Rosa',   1, 2, 0),
  (1, 4, 'Quinn',  'Nora',   0, 2, 0),
  (1, 4, 'Omar',   'Kai',    2, 0, 0),
  (1, 4, 'Greta',  'Finn',   2, 0, 0),
  (1, 4, 'Uma',    NULL,     2, 0, 0);        -- bye: 23 players after Jonas dropped

-- Round 5: 22 players.
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
  (1, 5, 'Hugo',   'Cleo',   0, 0, 3),        -- intentional draw between the two 4-0 players
  (1, 5, 'Ada',    'Ben',    0, 2, 0),
  (1, 5, 'Yuki',   'Sami',   1, 2, 0),
  (1, 5, 'Ines',   'Dario',  2, 1, 0),
  (1, 5, 'Lena',   'Tess',   2, 0, 0),
  (1, 5, 'Omar',   'Nora',   1, 2, 0),
  (1, 5, 'Rosa',   'Priya',  2, 1, 0),
  (1, 5, 'Mateo',  'Elif',   2, 1, 0),
  (1, 5, 'Quinn',  'Greta',  2, 1, 0),
  (1, 5, 'Viktor', 'Uma',    1, 2, 0),
  (1, 5, 'Wen',    'Finn',   1, 2, 0);
