-- tiebreak: default tables read by standings(), omwp(), ogwp() and the two-argument mwp()/gwp().
--
-- One row per match (or bye) in `matches`; `games` is optional. Every event lives in the same
-- tables, told apart by event_id. Your own tables can keep other names and shapes: see
-- sql/views.sql and the matches_table/games_table arguments of standings().
--
-- Conventions (policy 'mtg', Magic Tournament Rules Appendix C):
--   * Bye: player_b IS NULL. A bye is a match win worth 3 match points and counts as a 2-0 win
--     in games (6 game points, 2 games). Store its game counts as 0-0-0 or 2-0-0; any other
--     counts are an error. A bye is not an opponent: it is left out of the player's OMW%/OGW%.
--   * Intentional draw (ID): report it as the Tournament Rules say, 0-0-3 (three drawn games:
--     +1 match point, +3 game points, +3 games played for each player). The older 0-0-0 form
--     (WER's draw button) is also accepted: still a drawn match, but no games are counted.
--   * Unfinished game (time was called during it): a drawn game, counted in `draws`.
--     A match that ends 1-1 with game 3 unfinished is 1-1-1.
--   * Unplayed game (the match ended before it started, e.g. 2-0): not counted anywhere.
--     An unplayed round (a player absent, not yet registered, or dropped) has no row at all.
--   * Drop: no special marker. A dropped player simply has no rows after the round they left;
--     later rounds are not counted against them. standings() reports dropped = 1 for a player
--     whose last round is before the event's last round.
--   * Playoff: an optional column `phase TEXT` ('swiss', 'playoff'; NULL = swiss), or the
--     policy option swiss_rounds=N, marks a single elimination after the Swiss: standings()
--     ranks by the playoff finish, then the Swiss (docs/standings.md#playoffs-and-two-day-events).
--   * Result: usually decided by game counts (more games won wins the match, equal is a draw).
--     The optional `result` column records an outcome the counts cannot express (a double
--     loss) or states the outcome explicitly.
--
-- Conventions (policy 'fide', chess, FIDE C.07; docs/policy-fide.md):
--   * One row per game: player_a has White. A game is 1-0-0, 0-1-0 or 0-0-1 (or result
--     'a', 'b', 'draw'). Points: 1 a win, 1/2 a draw (match_points is REAL).
--   * Forfeit: result 'forfeit_a' / 'forfeit_b' (the named player wins, no game was played);
--     'double_forfeit': neither played.
--   * Byes: player_b NULL. result NULL: pairing-allocated bye (1 point); 'half_bye': requested
--     half-point bye; 'zero_bye': zero-point bye.
--   * A round with no row for a player (absent, withdrawn, late entry) is a zero-point bye:
--     rounds 1 to the event's last round all count (Art. 16).
--   * Ratings (tiebreaker aro only): optional table players(event_id, player, rating).
--
-- Registrations (docs/registrations.md): an OPTIONAL players table, not created here (create it
-- when you have one; standings() reads it if it exists, or the one players_table names):
--
--   CREATE TABLE players (
--     event_id      NOT NULL,  -- as in matches
--     player        NOT NULL,  -- as in matches; registered players without rows appear
--     name          TEXT,      -- shown in standings().name
--     division      TEXT,      -- each division ranked on its own, values over the whole pod
--     rating        INTEGER,   -- chess rating tiebreakers
--     status        TEXT,      -- NULL, 'active', 'dropped', 'disqualified' (takes no place)
--     dropped_after INTEGER    -- the round after which the player left
--   );
--   CREATE INDEX players_event ON players(event_id);

CREATE TABLE matches (
  event_id  NOT NULL,          -- INTEGER or TEXT; standings() reads one event at a time
  round     INTEGER NOT NULL,  -- 1-based round number; a player plays at most once per round
  player_a  NOT NULL,          -- INTEGER or TEXT player id (a name works); output as stored
  player_b,                    -- the opponent; NULL: player_a received a bye
  a_wins    INTEGER NOT NULL DEFAULT 0,  -- games won by player_a
  b_wins    INTEGER NOT NULL DEFAULT 0,  -- games won by player_b
  draws     INTEGER NOT NULL DEFAULT 0,  -- drawn games, including unfinished ones (ID: 3)
  result    TEXT               -- OPTIONAL column (may be left out of your table: then NULL).
                               -- NULL: decided by the game counts.
                               -- 'a': player_a won; 'b': player_b won; 'draw': drawn match;
                               -- 'double_loss': a match loss for both players (the round
                               -- counts as played and each is the other's opponent).
                               -- 'a' with b_wins > a_wins (or 'b' with a_wins > b_wins) is an
                               -- error.
);

-- standings() reads `WHERE event_id = ? [AND round <= ?]`; without this index every call scans
-- the whole table (slow once the table holds many events).
CREATE INDEX matches_event_round ON matches(event_id, round);

CREATE TABLE games (           -- OPTIONAL table: one row per game played
  event_id  NOT NULL,
  round     INTEGER NOT NULL,
  player_a  NOT NULL,          -- identifies the match (event_id, round, player_a)
  game      INTEGER NOT NULL,  -- 1, 2, 3 ... (up to 1000000000), once per match
  winner,                      -- id of the player who won the game; NULL = drawn/unfinished game
  PRIMARY KEY (event_id, round, player_a, game)
);
-- When a match has rows in `games`, its game counts are taken from them: a_wins = games won by
-- player_a, b_wins = games won by player_b, draws = rows with winner NULL. The matches row may
-- then keep 0-0-0; non-zero counts there that disagree with the games rows are an error.
-- Unplayed games have no row. Matches without game rows use their own counts.
