/*
** rank/playoff.c: a single-elimination playoff after the Swiss.
**
** A match is a playoff match when its phase column says 'playoff', or its
** round is after the policy's swiss_rounds=N.  tb_playoff_split() takes
** those matches out of the event before it is scored, so that every
** tiebreaker sees the Swiss alone (as of the last Swiss round), and checks
** that they form a single elimination.  tb_playoff_order() then turns the
** Swiss standings into the final ones, as Melee.gg and MTR events publish
** them: players by how far they went in the playoff (the winner, the
** finalist, the semifinal losers, ...), the losers of one round in Swiss
** order, then everyone else in Swiss order.  With playoff_values the
** playoff's matches also count in the values of its players (Melee.gg
** publishes them so), the others valued as of the last Swiss round.
*/
#include "../tiebreak_int.h"

#include <stdlib.h>
#include <string.h>

/* The decided_by of a place that the playoff decided. */
const TbTiebreaker tb_playoffDecider = {
    "playoff", "", "", 0, 0, 0, TB_INTEGER, 0, "",
    "how far the player went in the playoff"};

static int set_error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* An error about a player: zFmt has %s for the player, then %d, %d. */
static int player_error(char **pzErr, const TbKey *pKey, const char *zFmt,
                        int a, int b) {
  char *zId = tb_key_text(pKey);
  char *zMsg = zId ? sqlite3_mprintf(zFmt, zId, a, b) : 0;
  sqlite3_free(zId);
  return set_error(pzErr, zMsg);
}

/* Is match m in the playoff?  Also the phase column against swiss_rounds. */
static int is_playoff(const TbMatch *m, i64 nSwiss, int *pb, char **pzErr) {
  *pb = m->ePhase == TB_PHASE_PLAYOFF || (m->ePhase == TB_PHASE_NULL &&
                                          nSwiss > 0 && m->iRound > nSwiss);
  if (nSwiss > 0 && (m->iRound > nSwiss) != *pb) {
    return set_error(pzErr, sqlite3_mprintf(
        "round %d has phase '%s' but swiss_rounds=%lld", m->iRound,
        *pb ? "playoff" : "swiss", nSwiss));
  }
  return SQLITE_OK;
}

/*
** The winner of a playoff match, settled into its result: TB_RESULT_A or
** TB_RESULT_B, a bye (TB_RESULT_A, no opponent) or a round lost with no
** opponent (TB_RESULT_LOSS).  A draw, or any result without a winner, is
** an error: a single elimination needs one.
*/
static int settle_winner(const TbEvent *p, TbMatch *m, const TbGameCount *g,
                         char **pzErr) {
  int nA = m->nAWins, nB = m->nBWins, e = m->eResult, eWin = -1;
  if (g && g->nRows > 0) {
    nA = g->nA;
    nB = g->nB;
  }
  if (m->iB < 0) {
    if (e == TB_RESULT_LOSS || (e == TB_RESULT_GAMES && nB > nA)) {
      eWin = TB_RESULT_LOSS;
    } else if ((e == TB_RESULT_GAMES || e == TB_RESULT_A) && nB <= nA) {
      eWin = TB_RESULT_A;
    }
  } else if (e == TB_RESULT_A || e == TB_RESULT_FORFEIT_A) {
    eWin = nB > nA ? -1 : TB_RESULT_A;
  } else if (e == TB_RESULT_B || e == TB_RESULT_FORFEIT_B) {
    eWin = nA > nB ? -1 : TB_RESULT_B;
  } else if (e == TB_RESULT_GAMES && nA != nB) {
    eWin = nA > nB ? TB_RESULT_A : TB_RESULT_B;
  }
  if (eWin < 0) {
    char *zId = tb_key_text(&p->aPlayer[m->iA].key);
    char *zMsg = zId ? sqlite3_mprintf("playoff match of player %s in round %d "
                                       "has no winner (games %d-%d)",
                                       zId, m->iRound, nA, nB)
                     : 0;
    sqlite3_free(zId);
    return set_error(pzErr, zMsg);
  }
  m->eResult = (unsigned char)eWin;
  return SQLITE_OK;
}

/* A player of a playoff match, in round order: nobody plays on after
** losing.  aOut[i]: the round player i lost, or 0. */
static int check_alive(const TbEvent *p, const int *aOut, int i, int iRound,
                       char **pzErr) {
  if (aOut[i] == 0 || aOut[i] >= iRound) return SQLITE_OK;
  return player_error(pzErr, &p->aPlayer[i].key,
                      "player %s lost in playoff round %d and plays again "
                      "in round %d", aOut[i], iRound);
}

static int cmp_round(const void *a, const void *b) {
  const TbMatch *x = (const TbMatch *)a, *y = (const TbMatch *)b;
  return (x->iRound > y->iRound) - (x->iRound < y->iRound);
}

/* The playoff, in aPlayoff by round, as a single elimination. */
static int check_playoff(TbEvent *p, char **pzErr) {
  int *aOut = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->nPlayer + 1));
  int i, rc = SQLITE_OK;
  if (aOut == 0) return SQLITE_NOMEM;
  memset(aOut, 0, sizeof(int) * ((size_t)p->nPlayer + 1));
  qsort(p->aPlayoff, (size_t)p->nPlayoff, sizeof(TbMatch), cmp_round);
  for (i = 0; i < p->nPlayoff && rc == SQLITE_OK; i++) {
    const TbMatch *m = &p->aPlayoff[i];
    rc = check_alive(p, aOut, m->iA, m->iRound, pzErr);
    if (rc == SQLITE_OK && m->iB >= 0) {
      rc = check_alive(p, aOut, m->iB, m->iRound, pzErr);
    }
    if (m->eResult == TB_RESULT_LOSS || m->eResult == TB_RESULT_B) {
      aOut[m->iA] = m->iRound;
    } else if (m->iB >= 0) {
      aOut[m->iB] = m->iRound;
    }
  }
  sqlite3_free(aOut);
  return rc;
}

/*
** playoff_values (Melee.gg): the playoff's matches stay in aMatch, so that
** they count in the values of the players who played them, and a copy of
** each, its winner settled, orders the final standings.  The last Swiss
** round is the cut: the players who did not go on keep their values as of
** it (freeze_cut with cut_after at that round, compute.c).
*/
static int copy_playoff(TbEvent *p, int iLastSwiss, char **pzErr) {
  int i, rc;
  for (i = 0; i < p->nMatch; i++) {
    TbMatch m = p->aMatch[i];
    if (m.iRound <= iLastSwiss) continue;
    rc = settle_winner(p, &m, p->aGameCount ? &p->aGameCount[i] : 0, pzErr);
    if (rc != SQLITE_OK) return rc;
    p->aPlayoff[p->nPlayoff++] = m;
  }
  p->iPlayoffCut = iLastSwiss;
  return check_playoff(p, pzErr);
}

/*
** Move the playoff's matches from aMatch to aPlayoff, settle their winners
** and build the Swiss seats again.  Nothing to do (one pass over the
** matches) when there is no playoff.  The Swiss must end before the
** playoff starts.
*/
int tb_playoff_split(TbEvent *p, const TbParams *pParams, char **pzErr) {
  i64 nSwiss = pParams->nSwissRounds;
  int i, n = 0, bPlayoff, rc, iLastSwiss = 0, iFirstPlayoff = 0;
  for (i = 0; i < p->nMatch; i++) {
    const TbMatch *m = &p->aMatch[i];
    if ((rc = is_playoff(m, nSwiss, &bPlayoff, pzErr)) != SQLITE_OK) return rc;
    if (bPlayoff) {
      if (n++ == 0 || m->iRound < iFirstPlayoff) iFirstPlayoff = m->iRound;
    } else if (m->iRound > iLastSwiss) {
      iLastSwiss = m->iRound;
    }
  }
  if (n == 0) return SQLITE_OK;
  if (p->bClasses) { /* ranks per division: a playoff per division, not yet */
    return set_error(pzErr, sqlite3_mprintf(
        "a playoff (round %d) with divisions or disqualified players in the "
        "players table is not supported", iFirstPlayoff));
  }
  if (iLastSwiss >= iFirstPlayoff) {
    return set_error(pzErr, sqlite3_mprintf(
        "round %d is a Swiss round and playoff round %d comes before it "
        "(the playoff follows the Swiss)", iLastSwiss, iFirstPlayoff));
  }
  p->aPlayoff = sqlite3_malloc64(sizeof(TbMatch) * (sqlite3_uint64)n);
  if (p->aPlayoff == 0) return SQLITE_NOMEM;
  if (pParams->bPlayoffValues) return copy_playoff(p, iLastSwiss, pzErr);
  for (i = 0, n = 0; i < p->nMatch; i++) {
    TbMatch *m = &p->aMatch[i];
    const TbGameCount *g = p->aGameCount ? &p->aGameCount[i] : 0;
    if (m->iRound <= iLastSwiss) {
      if (p->aGameCount) p->aGameCount[n] = *g;
      p->aMatch[n++] = *m;
      continue;
    }
    if ((rc = settle_winner(p, m, g, pzErr)) != SQLITE_OK) return rc;
    p->aPlayoff[p->nPlayoff++] = *m;
  }
  p->nMatch = n;
  if ((rc = check_playoff(p, pzErr)) != SQLITE_OK) return rc;
  return tb_event_seats(p, pzErr);
}

/* ---------------------------------------------------------- final order */

/* A playoff player in the final order: how far, and Swiss position. */
typedef struct Finish {
  i64 iReach;                 /* 2 x last playoff round, + 1 if not out */
  int iPos;                   /* position in the Swiss order */
} Finish;

static int cmp_finish(const void *a, const void *b) {
  const Finish *x = (const Finish *)a, *y = (const Finish *)b;
  if (x->iReach != y->iReach) return x->iReach < y->iReach ? 1 : -1;
  return (x->iPos > y->iPos) - (x->iPos < y->iPos);
}

/*
** The first tiebreaker that separates Swiss positions a < b: the least
** level (policy index of decided_by) of positions a+1 .. b, from a
** segment tree aTree over the n positions (leaves at n + i).
*/
static int least_level(const int *aTree, int n, int a, int b) {
  int lo = a + 1 + n, hi = b + 1 + n, r = aTree[lo];
  for (; lo < hi; lo >>= 1, hi >>= 1) {
    if ((lo & 1) && aTree[lo] < r) r = aTree[lo];
    if (lo & 1) lo++;
    if ((hi & 1) && aTree[hi - 1] < r) r = aTree[hi - 1];
  }
  return r;
}

/* Each player's reach in the playoff, into aReach (-1: did not play it). */
static void playoff_reach(const TbEvent *p, i64 *aReach) {
  int i, k;
  for (i = 0; i < p->nPlayer; i++) aReach[i] = -1;
  for (i = 0; i < p->nPlayoff; i++) {
    const TbMatch *m = &p->aPlayoff[i];
    int bALost = m->eResult == TB_RESULT_LOSS || m->eResult == TB_RESULT_B;
    for (k = 0; k < 2; k++) {
      int iPl = k ? m->iB : m->iA;
      int bLost = k ? !bALost : bALost;
      if (iPl < 0) continue;
      aReach[iPl] = 2 * (i64)m->iRound + !bLost; /* rounds ascend */
    }
  }
}

/*
** Reorder the Swiss standings *pS into the final ones: aSwissRank keeps
** the Swiss rank, aRank becomes the final place (shared only by players
** tied in the Swiss who went as far), decided_by 'playoff' where the
** playoff decided, else what decided between the two in the Swiss.
*/
int tb_playoff_order(const TbEvent *p, const TbPolicy *pPolicy,
                     TbStandings *pS) {
  sqlite3_uint64 n1 = (sqlite3_uint64)p->nPlayer + 1;
  int n = p->nPlayer, nTb = pPolicy->nTiebreaker, i, k, nF = 0, rc = SQLITE_OK;
  i64 *aReach;
  Finish *aF;
  int *aTree, *aOrder, *aRank, *aSwiss;
  const TbTiebreaker **aDec;
  if (p->nPlayoff == 0) return SQLITE_OK;
  aReach = sqlite3_malloc64(sizeof(i64) * n1);
  aF = sqlite3_malloc64(sizeof(Finish) * n1);
  aTree = sqlite3_malloc64(sizeof(int) * 2 * n1);
  aOrder = sqlite3_malloc64(sizeof(int) * n1);
  aRank = sqlite3_malloc64(sizeof(int) * n1);
  aSwiss = sqlite3_malloc64(sizeof(int) * n1);
  aDec = (const TbTiebreaker **)sqlite3_malloc64(sizeof(TbTiebreaker *) * n1);
  if (!aReach || !aF || !aTree || !aOrder || !aRank || !aSwiss || !aDec) {
    rc = SQLITE_NOMEM;
    goto done;
  }
  playoff_reach(p, aReach);
  for (i = 0; i < n; i++) {
    const TbTiebreaker *t = pS->aDecidedBy[i];
    for (k = 0; k < nTb && pPolicy->aTiebreaker[k] != t; k++) {
    }
    aTree[n + i] = t ? k : nTb; /* nTb: tied with the one above */
    if (aReach[pS->aOrder[i]] >= 0) {
      aF[nF].iReach = aReach[pS->aOrder[i]];
      aF[nF++].iPos = i;
    }
  }
  for (i = n - 1; i > 0; i--) {
    aTree[i] = aTree[2 * i] < aTree[2 * i + 1] ? aTree[2 * i] : aTree[2 * i + 1];
  }
  qsort(aF, (size_t)nF, sizeof(Finish), cmp_finish);
  for (i = 0, k = nF; i < n; i++) { /* then the others, in Swiss order */
    if (aReach[pS->aOrder[i]] < 0) {
      aF[k].iReach = -1;
      aF[k++].iPos = i;
    }
  }
  for (i = 0; i < n; i++) {
    int lvl;
    aOrder[i] = pS->aOrder[aF[i].iPos];
    aSwiss[i] = pS->aRank[aF[i].iPos];
    aRank[i] = i + 1;
    aDec[i] = 0;
    if (i == 0) continue;
    if (aF[i].iReach != aF[i - 1].iReach) {
      aDec[i] = &tb_playoffDecider;
      continue;
    }
    lvl = least_level(aTree, n, aF[i - 1].iPos, aF[i].iPos);
    if (lvl < nTb) {
      aDec[i] = pPolicy->aTiebreaker[lvl];
    } else {
      aRank[i] = aRank[i - 1];
    }
  }
  sqlite3_free(pS->aOrder);
  sqlite3_free(pS->aRank);
  sqlite3_free((void *)pS->aDecidedBy);
  pS->aOrder = aOrder;
  pS->aRank = aRank;
  pS->aDecidedBy = aDec;
  pS->aSwissRank = aSwiss;
  aOrder = aRank = aSwiss = 0;
  aDec = 0;
done:
  sqlite3_free(aReach);
  sqlite3_free(aF);
  sqlite3_free(aTree);
  sqlite3_free(aOrder);
  sqlite3_free(aRank);
  sqlite3_free(aSwiss);
  sqlite3_free((void *)aDec);
  return rc;
}
