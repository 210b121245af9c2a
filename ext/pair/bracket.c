/*
** pair/bracket.c: single elimination of the top cut.
**
**   SELECT table_number, player_a, player_b
**     FROM pairings(1, 'bracket(top=8)');   -- the quarterfinals
**   SELECT * FROM pairings(1, 'bracket');   -- then the semifinals, final
**
** The first playoff round seeds the top N of the standings before it
** (present players: a dropped one leaves the cut to the next) in the
** standard bracket order: for 8, 1-8, 4-5, 2-7, 3-6; for any power of two
** P, order(2m) replaces each seed s of order(m) by s, 2m + 1 - s.  A cut
** that is no power of two is the next one's bracket with the missing
** seeds' slots empty: their opponents, the top seeds, have a bye.  Each
** next round pairs the winners of neighbouring tables, as the rounds
** played say (a playoff round is a round of rows with phase 'playoff', or
** after swiss_rounds=N).  The better seed is player_a.  The cut's size
** is top=N, or the players of the first playoff round once it is played.
*/
#include "systems.h"

#include <string.h>

static int error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* aSeed[0..nSize): the seed (from 1) at each position of the bracket. */
static void bracket_order(int *aSeed, int nSize) {
  int m, i;
  aSeed[0] = 1;
  for (m = 1; m < nSize; m *= 2) {
    for (i = m - 1; i >= 0; i--) {
      aSeed[2 * i + 1] = 2 * m + 1 - aSeed[i];
      aSeed[2 * i] = aSeed[i];
    }
  }
}

/* Player i is in the first playoff round, a round already played. */
static int played_first_round(const TbPairState *s, int i) {
  const TbPairHistory *h = &s->aPlayer[i].aHist[s->iFirstPlayoff - 1];
  return h->iOpp >= 0 || h->eKind == TB_PAB;
}

/* The seeds, best first: the top cut of the standings, or the players of
** the first playoff round once played. */
static int seeds(const TbPairState *s, int *aSeed, int *pnTop, char **pzErr) {
  int bPlayed = s->iRound > s->iFirstPlayoff, i, n = 0;
  /* places are 1 .. nPlayer, each once (state.c): their order in one pass */
  for (i = 0; i < s->nPlayer; i++) aSeed[s->aPlayer[i].iStanding - 1] = i;
  for (i = 0; i < s->nPlayer; i++) {
    int p = aSeed[i];
    if (bPlayed ? played_first_round(s, p) : !s->aPlayer[p].bAbsent) {
      aSeed[n++] = p;
    }
  }
  if (bPlayed && s->nTop > 0 && s->nTop != n) {
    return error(pzErr, sqlite3_mprintf(
        "bracket: top=%d, but %d players played the first playoff round (%d)",
        s->nTop, n, s->iFirstPlayoff));
  }
  if (!bPlayed && s->nTop == 0) {
    return error(pzErr, sqlite3_mprintf(
        "bracket: top=N is required for the first playoff round (the players "
        "in the top cut), e.g. 'bracket(top=8)'"));
  }
  if (!bPlayed && n < s->nTop) {
    return error(pzErr, sqlite3_mprintf("bracket: top=%d, but %d %s present",
                                        s->nTop, n,
                                        n == 1 ? "player is" : "players are"));
  }
  *pnTop = bPlayed ? n : s->nTop;
  if (*pnTop < 2) {
    return error(pzErr, sqlite3_mprintf("bracket: %d players in the playoff",
                                        *pnTop));
  }
  return SQLITE_OK;
}

/* *pW: the winner of slots x, y (-1: empty) in the round k (0-based)
** played; an error if the round paired them otherwise. */
static int winner(const TbPairState *s, int x, int y, int k, int *pW,
                  char **pzErr) {
  const TbPairHistory *h;
  *pW = x < 0 ? y : x;
  if (x < 0 || y < 0) return SQLITE_OK;
  h = &s->aPlayer[x].aHist[k];
  if (h->iOpp != y) {
    return error(pzErr, sqlite3_mprintf(
        "bracket: in playoff round %d, pairing number %d met %s%d, where the "
        "bracket has %d", k + 1, x + 1, h->iOpp < 0 ? "no one: " : "",
        h->iOpp + 1, y + 1));
  }
  *pW = h->eOutcome == TB_WIN ? x : y;
  return SQLITE_OK;
}

int tb_pair_bracket(const TbPairState *s, TbPairRound *pRound, char **pzErr) {
  int nSize = 1, nTop = 0, i, r, n, rc;
  int *aSeed = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)s->nPlayer + 1));
  if (s->iFirstPlayoff < 1 || s->iFirstPlayoff > s->iRound) {
    sqlite3_free(aSeed);
    return error(pzErr, sqlite3_mprintf("bracket: no playoff round"));
  }
  int *aSlot = 0;
  if (aSeed == 0) return SQLITE_NOMEM;
  rc = seeds(s, aSeed, &nTop, pzErr);
  while (rc == SQLITE_OK && nSize < nTop) nSize *= 2;
  if (rc == SQLITE_OK) {
    aSlot = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)nSize);
    if (aSlot == 0) rc = SQLITE_NOMEM;
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(aSeed);
    return rc;
  }
  bracket_order(aSlot, nSize);
  for (i = 0; i < nSize; i++) aSlot[i] = aSlot[i] <= nTop ? aSeed[aSlot[i] - 1] : -1;
  /* the rounds played: the winners move on */
  for (n = nSize, r = s->iFirstPlayoff; rc == SQLITE_OK && r < s->iRound; r++) {
    for (i = 0; i < n / 2; i++) {
      rc = winner(s, aSlot[2 * i], aSlot[2 * i + 1], r - 1, &aSlot[i], pzErr);
      if (rc != SQLITE_OK) break;
    }
    n /= 2;
    if ((rc = tb_poll(s->pProbe, n)) != SQLITE_OK) break;
  }
  if (rc == SQLITE_OK && n < 2) {
    rc = error(pzErr, sqlite3_mprintf("bracket: the playoff is over (pairing "
                                      "number %d won it)", aSlot[0] + 1));
  }
  for (i = 0; rc == SQLITE_OK && i < n / 2; i++) {
    int x = aSlot[2 * i], y = aSlot[2 * i + 1];
    if (x < 0 || y < 0) {
      rc = tb_pair_round_add(pRound, x < 0 ? y : x, -1, "bye: a top seed");
    } else if (s->aPlayer[y].iStanding < s->aPlayer[x].iStanding) {
      rc = tb_pair_round_add(pRound, y, x, "bracket: the better seed first");
    } else {
      rc = tb_pair_round_add(pRound, x, y, "bracket: the better seed first");
    }
  }
  sqlite3_free(aSeed);
  sqlite3_free(aSlot);
  return rc;
}
