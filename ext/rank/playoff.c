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
**
** With divisions in the players table (a Pokemon League Cup pairs Juniors,
** Seniors and Masters in one pod and cuts each division to its own top
** cut) each division has its own playoff: its matches pair players of the
** division, its Swiss ends before its playoff starts, and the final order
** is made within each division's places (rank.c ranks by class).
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

/* A player of a playoff match in round order, seen last in round
** aSeen[i]: twice in a round is an error (the Swiss seats, laid out when
** the event is scored, do not hold the playoff's). */
static int check_once(const TbEvent *p, int *aSeen, int i, int iRound,
                      char **pzErr) {
  if (aSeen[i] == iRound) {
    return player_error(pzErr, &p->aPlayer[i].key,
                        "player %s is paired twice in round %d", iRound, 0);
  }
  aSeen[i] = iRound;
  return SQLITE_OK;
}

/* The playoff, in aPlayoff by round, as a single elimination. */
static int check_playoff(TbEvent *p, char **pzErr) {
  sqlite3_uint64 n = (sqlite3_uint64)p->nPlayer + 1;
  int *aOut = sqlite3_malloc64(sizeof(int) * 2 * n), *aSeen;
  int i, rc = SQLITE_OK;
  if (aOut == 0) return SQLITE_NOMEM;
  memset(aOut, 0, sizeof(int) * 2 * (size_t)n);
  aSeen = aOut + n;
  qsort(p->aPlayoff, (size_t)p->nPlayoff, sizeof(TbMatch), cmp_round);
  for (i = 0; i < p->nPlayoff && rc == SQLITE_OK; i++) {
    const TbMatch *m = &p->aPlayoff[i];
    rc = check_once(p, aSeen, m->iA, m->iRound, pzErr);
    if (rc == SQLITE_OK && m->iB >= 0) {
      rc = check_once(p, aSeen, m->iB, m->iRound, pzErr);
    }
    if (rc == SQLITE_OK) rc = check_alive(p, aOut, m->iA, m->iRound, pzErr);
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

/* The division of player i (0: none, or no players table). */
static int division_of(const TbEvent *p, int i) {
  return p->aReg ? p->aReg[i].iDivOrder : 0;
}

/* The name of player i's division, for a message: "" when none. */
static const char *division_name(const TbEvent *p, int i, int *pn) {
  const TbReg *r = p->aReg ? &p->aReg[i] : 0;
  *pn = r && r->bDiv ? r->nDiv : 0;
  return r && r->bDiv ? p->aRegText + r->iDiv : "";
}

/* A playoff match pairs players of one division. */
static int check_one_division(const TbEvent *p, const TbMatch *m, char **pzErr) {
  char *zA, *zB, *zMsg = 0;
  const char *zDivA, *zDivB;
  int nA, nB;
  if (m->iB < 0 || division_of(p, m->iA) == division_of(p, m->iB)) return SQLITE_OK;
  zDivA = division_name(p, m->iA, &nA);
  zDivB = division_name(p, m->iB, &nB);
  zA = tb_key_text(&p->aPlayer[m->iA].key);
  zB = tb_key_text(&p->aPlayer[m->iB].key);
  if (zA && zB) {
    zMsg = sqlite3_mprintf("playoff round %d pairs player %s (division '%.*s') "
                           "with player %s (division '%.*s'): each division has "
                           "its own playoff", m->iRound, zA, nA, zDivA, zB, nB,
                           zDivB);
  }
  sqlite3_free(zA);
  sqlite3_free(zB);
  return set_error(pzErr, zMsg);
}

/*
** Where each division's Swiss ends and its playoff starts: aLastSwiss[d],
** aFirstPlayoff[d] (0: none), d the division (tb's iDivOrder, 0 without).
** Returns the number of playoff matches, or -1 with *pRc set.
*/
static int playoff_bounds(const TbEvent *p, i64 nSwiss, int *aLastSwiss,
                          int *aFirstPlayoff, int *pRc, char **pzErr) {
  int i, n = 0, bPlayoff;
  for (i = 0; i < p->nMatch; i++) {
    const TbMatch *m = &p->aMatch[i];
    int d = division_of(p, m->iA);
    if ((*pRc = is_playoff(m, nSwiss, &bPlayoff, pzErr)) != SQLITE_OK) return -1;
    if (bPlayoff) {
      if ((*pRc = check_one_division(p, m, pzErr)) != SQLITE_OK) return -1;
      if (aFirstPlayoff[d] == 0 || m->iRound < aFirstPlayoff[d]) {
        aFirstPlayoff[d] = m->iRound;
      }
      n++;
    } else if (m->iRound > aLastSwiss[d]) {
      aLastSwiss[d] = m->iRound;
    }
    if (m->iB >= 0 && !bPlayoff && m->iRound > aLastSwiss[division_of(p, m->iB)]) {
      aLastSwiss[division_of(p, m->iB)] = m->iRound;
    }
  }
  for (i = 0; i <= p->nDivision; i++) {
    if (aFirstPlayoff[i] > 0 && aLastSwiss[i] >= aFirstPlayoff[i]) {
      *pRc = set_error(pzErr, sqlite3_mprintf(
          "round %d is a Swiss round and playoff round %d comes before it "
          "(the playoff follows the Swiss)", aLastSwiss[i], aFirstPlayoff[i]));
      return -1;
    }
  }
  return n;
}

/*
** playoff_values (Melee.gg): the playoff's matches stay in aMatch, so that
** they count in the values of the players who played them, and a copy of
** each, its winner settled, orders the final standings.  The last Swiss
** round is the cut: the players who did not go on keep their values as of
** it (freeze_cut with cut_after at that round, compute.c).
*/
static int copy_playoff(TbEvent *p, const int *aLastSwiss, char **pzErr) {
  int i, rc, iCut = 0;
  for (i = 0; i < p->nMatch; i++) {
    TbMatch m = p->aMatch[i];
    int iLastSwiss = aLastSwiss[division_of(p, m.iA)];
    if (iLastSwiss > iCut) iCut = iLastSwiss;
    if (m.iRound <= iLastSwiss) continue;
    rc = settle_winner(p, &m, p->aGameCount ? &p->aGameCount[i] : 0, pzErr);
    if (rc != SQLITE_OK) return rc;
    p->aPlayoff[p->nPlayoff++] = m;
  }
  p->iPlayoffCut = iCut;
  return check_playoff(p, pzErr);
}

/*
** Move the playoff's matches from aMatch to aPlayoff and settle their
** winners.  Nothing to do (one pass over the
** matches) when there is no playoff.  The Swiss must end before the
** playoff starts, in each division.
*/
int tb_playoff_split(TbEvent *p, const TbParams *pParams, char **pzErr) {
  sqlite3_uint64 nDiv = (sqlite3_uint64)p->nDivision + 1;
  int *aLastSwiss = sqlite3_malloc64(sizeof(int) * 2 * nDiv), *aFirstPlayoff;
  int i, n, rc = SQLITE_OK;
  if (aLastSwiss == 0) return SQLITE_NOMEM;
  memset(aLastSwiss, 0, sizeof(int) * 2 * (size_t)nDiv);
  aFirstPlayoff = aLastSwiss + nDiv;
  n = playoff_bounds(p, pParams->nSwissRounds, aLastSwiss, aFirstPlayoff, &rc,
                     pzErr);
  if (n > 0) {
    p->aPlayoff = sqlite3_malloc64(sizeof(TbMatch) * (sqlite3_uint64)n);
    if (p->aPlayoff == 0) rc = SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK && p->aPlayoff && pParams->bPlayoffValues) {
    rc = copy_playoff(p, aLastSwiss, pzErr);
    sqlite3_free(aLastSwiss);
    return rc;
  }
  for (i = 0, n = 0; p->aPlayoff && rc == SQLITE_OK && i < p->nMatch; i++) {
    TbMatch *m = &p->aMatch[i];
    const TbGameCount *g = p->aGameCount ? &p->aGameCount[i] : 0;
    if (m->iRound <= aLastSwiss[division_of(p, m->iA)]) {
      if (p->aGameCount) p->aGameCount[n] = *g;
      p->aMatch[n++] = *m;
      continue;
    }
    if ((rc = settle_winner(p, m, g, pzErr)) != SQLITE_OK) break;
    p->aPlayoff[p->nPlayoff++] = *m;
  }
  sqlite3_free(aLastSwiss);
  if (rc != SQLITE_OK || p->aPlayoff == 0) return rc;
  p->nMatch = n;
  if ((rc = check_playoff(p, pzErr)) != SQLITE_OK) return rc;
  /* the event ends with the Swiss (scoring lays out its seats) */
  for (i = 0, p->iLastRound = 0; i < p->nMatch; i++) {
    if (p->aMatch[i].iRound > p->iLastRound) p->iLastRound = p->aMatch[i].iRound;
  }
  return SQLITE_OK;
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
** The final order of the Swiss positions [s, e) (one class: a division, or
** its disqualified players) into aOrder, aRank, aSwiss and aDec at the
** same positions: the playoff's players by how far they went, then the
** others in Swiss order.  aF: room for e - s entries.
*/
static void order_class(const TbEvent *p, const TbPolicy *pPolicy,
                        const TbStandings *pS, const i64 *aReach,
                        const int *aTree, int s, int e, Finish *aF,
                        int *aOrder, int *aRank, int *aSwiss,
                        const TbTiebreaker **aDec) {
  int n = p->nPlayer, nTb = pPolicy->nTiebreaker, i, k, nF = 0;
  int bNoPlace = (tb_player_class(p, pS->aOrder[s]) & 1) != 0;
  for (i = s; i < e; i++) {
    if (aReach[pS->aOrder[i]] >= 0) {
      aF[nF].iReach = aReach[pS->aOrder[i]];
      aF[nF++].iPos = i;
    }
  }
  qsort(aF, (size_t)nF, sizeof(Finish), cmp_finish);
  for (i = s, k = nF; i < e; i++) { /* then the others, in Swiss order */
    if (aReach[pS->aOrder[i]] < 0) {
      aF[k].iReach = -1;
      aF[k++].iPos = i;
    }
  }
  for (k = 0; k < e - s; k++) {
    int lvl;
    i = s + k;
    aOrder[i] = pS->aOrder[aF[k].iPos];
    aSwiss[i] = pS->aRank[aF[k].iPos];
    aRank[i] = bNoPlace ? 0 : k + 1;
    aDec[i] = 0;
    if (k == 0 || bNoPlace) continue;
    if (aF[k].iReach != aF[k - 1].iReach) {
      aDec[i] = &tb_playoffDecider;
      continue;
    }
    lvl = least_level(aTree, n, aF[k - 1].iPos, aF[k].iPos);
    if (lvl < nTb) {
      aDec[i] = pPolicy->aTiebreaker[lvl];
    } else {
      aRank[i] = aRank[i - 1];
    }
  }
}

/*
** Reorder the Swiss standings *pS into the final ones: aSwissRank keeps
** the Swiss rank, aRank becomes the final place (shared only by players
** tied in the Swiss who went as far), decided_by 'playoff' where the
** playoff decided, else what decided between the two in the Swiss.  Each
** class (division) of the standings is reordered within its places.
*/
int tb_playoff_order(const TbEvent *p, const TbPolicy *pPolicy,
                     TbStandings *pS) {
  sqlite3_uint64 n1 = (sqlite3_uint64)p->nPlayer + 1;
  int n = p->nPlayer, nTb = pPolicy->nTiebreaker, i, k, s, rc = SQLITE_OK;
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
  }
  for (i = n - 1; i > 0; i--) {
    aTree[i] = aTree[2 * i] < aTree[2 * i + 1] ? aTree[2 * i] : aTree[2 * i + 1];
  }
  for (s = 0; s < n; s = i) { /* each class: its positions [s, i) */
    int iClass = tb_player_class(p, pS->aOrder[s]);
    for (i = s + 1; i < n && tb_player_class(p, pS->aOrder[i]) == iClass; i++) {
    }
    order_class(p, pPolicy, pS, aReach, aTree, s, i, aF, aOrder, aRank, aSwiss,
                aDec);
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
