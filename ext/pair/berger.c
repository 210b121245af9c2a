/*
** pair/berger.c: round robins by FIDE's Berger tables (C.05, Annex 1).
**
**   SELECT table_number, player_a, player_b FROM pairings(1, 'berger');
**   SELECT * FROM pairings(1, 'berger(rounds=10)');  -- 6 players, twice
**
** n players (n even; an odd count adds a dummy n + 1, and the player drawn
** against it has the round free) play n - 1 rounds.  In round r, with
** m = n - 1 and numbers taken mod m in 1..m:
**
**   table 1      player n against a, where 2a = r + 1 (mod m); a is White
**                in odd rounds, n in even ones;
**   table k > 1  a + (k - 1), White, against a - (k - 1).
**
** which is the published table (6 players: 1-6 2-5 3-4 | 6-4 5-3 1-2 |
** 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1; test/data/berger_tables.txt).
** A double round robin (rounds = 2 (n - 1), from rounds=N or the TRF's
** XXR) plays the same pairings again with the colours reversed; other
** rounds scheduled are an error (no truncated round robin).  Pairing
** numbers are the state's order (start numbers, or rating then id); the
** schedule ignores absences: the arbiter enters a forfeit for a table
** whose player does not come.
*/
#include "systems.h"

/* The number a + d in 1..m, modulo m (d may be negative). */
static int wrap(int a, int d, int m) {
  int v = (a - 1 + d) % m;
  if (v < 0) v += m;
  return v + 1;
}

/* Table 1's player a (against n) in round r: 2a = r + 1 (mod m). */
static int first_partner(int r, int m) {
  int a;
  for (a = 1; a <= m; a++) {
    if ((2 * a) % m == (r + 1) % m) return a;
  }
  return 1; /* not reached: m is odd, so 2 is invertible */
}

/* Append a table of pairing numbers x (White) and y; a number past the
** players is the dummy: the other player has the round free. */
static int add_table(TbPairRound *pRound, int nPlayer, int x, int y,
                     int bReverse) {
  if (bReverse) {
    int t = x;
    x = y;
    y = t;
  }
  if (x > nPlayer) return tb_pair_round_add(pRound, y - 1, -1, "free round");
  if (y > nPlayer) return tb_pair_round_add(pRound, x - 1, -1, "free round");
  return tb_pair_round_add(pRound, x - 1, y - 1,
                           bReverse ? "Berger table, colours reversed"
                                    : "Berger table");
}

static int error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

int tb_pair_berger(const TbPairState *pState, TbPairRound *pRound,
                   char **pzErr) {
  int nPlayer = pState->nPlayer;
  int n = nPlayer + (nPlayer & 1), m = n - 1;
  int nCycle = 1, r, a, k, rc, bReverse;
  if (nPlayer < 2) {
    return error(pzErr, sqlite3_mprintf("berger: a round robin needs 2 "
                                        "players or more, the event has %d",
                                        nPlayer));
  }
  /* the tables are a whole round robin (C.05): fewer rounds would leave
  ** pairs unplayed, and the tables do not choose which */
  if (pState->nRounds > 0 && pState->nRounds != m) {
    if (pState->nRounds != 2 * m) {
      return error(pzErr, sqlite3_mprintf(
          "berger: %d rounds scheduled, but a round robin of %d players has "
          "%d (or %d, played twice)", pState->nRounds, nPlayer, m, 2 * m));
    }
    nCycle = 2;
  }
  if (pState->iRound > nCycle * m) {
    return error(pzErr, sqlite3_mprintf(
        "berger: round %d is past the last round (%d) of a round robin of %d "
        "players%s", pState->iRound, nCycle * m, nPlayer,
        nCycle == 1 ? "; rounds=N for a double round robin" : ""));
  }
  r = (pState->iRound - 1) % m + 1;
  bReverse = pState->iRound > m;
  /* XXC black1: pairing number 1 starts with Black: every colour swaps */
  if (pState->eFirstColour == TB_COLOUR_BLACK) bReverse = !bReverse;
  a = first_partner(r, m);
  /* table 1 is player n's: with a dummy there, the free round goes last */
  rc = n == nPlayer ? ((r & 1) ? add_table(pRound, nPlayer, a, n, bReverse)
                               : add_table(pRound, nPlayer, n, a, bReverse))
                    : SQLITE_OK;
  for (k = 1; rc == SQLITE_OK && k < n / 2; k++) {
    rc = add_table(pRound, nPlayer, wrap(a, k, m), wrap(a, -k, m), bReverse);
  }
  if (rc == SQLITE_OK && n != nPlayer) rc = add_table(pRound, nPlayer, a, n, 0);
  return rc;
}
