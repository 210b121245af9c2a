/*
** tb_fide.c: chess tiebreakers of the FIDE Tie-Break Regulations (C.07,
** rules of 1 August 2024 and of 1 March 2026), for Swiss events.
**
**   points                  the score: 1 a win, 1/2 a draw, 0 a loss
**   buchholz (8.1)          sum of the opponents' scores
**   buchholz_cut1/cut2      less the one or two least significant values
**   buchholz_median1/2      less the one or two least and most significant
**   sonneborn_berger (9.1)  sum of opponent's score x points scored against
**   sonneborn_berger_cut1   less the least significant value (14.1.1)
**   progressive (7.5)       sum of the running score after each round
**   progressive_cut1        less the score after round 1
**   direct_encounter (6)    the games among the tied players
**   rounds_won (7.1)        rounds with a win's points, played or not
**   games_won (7.2)         games won over the board
**   black_games (7.3)       games played over the board with Black
**   (aro and the other rating tiebreakers: tb_fide_rating.c)
**
** Scores are integers in the policy's point units (1/nPointScale: chess
** counts half points), so every value below is an exact integer sum
** divided once by the scale; nothing is decided on floating point.
**
** Unplayed rounds follow Article 16.  Every round 1..e->iLastRound counts:
** a round in which a player has no row (absent, withdrawn, entered late)
** is a zero-point bye.  A voluntary unplayed round (VUR, 16.1.2) is a
** requested bye (half- or zero-point) or a forfeit loss.  For opponents a
** player's score is adjusted (16.3, adjusted_score()); the player's own
** unplayed rounds are games against a dummy (16.4, dummy_score()).
** See docs/policy-fide.md.
*/
#include "tiebreak_int.h"
#include "tiebreakers.h"

#include <string.h>

/* ----------------------------------------------------------------- rounds */

/* One round of a player as Article 16 sees it. */
typedef struct FideRound {
  int eKind;                  /* TB_PLAYED ...; a round without a row is a
                              ** zero-point bye */
  int iOpp;                   /* opponent, forfeit's scheduled opponent, -1 */
  i64 nPoints;                /* points scored, in 1/nPointScale units */
} FideRound;

/* Points of a seat's outcome under the policy's scoring. */
static i64 seat_points(const TbSeat *s, const TbParams *p) {
  if (s->eOutcome == TB_WIN) return p->nMatchWin;
  if (s->eOutcome == TB_DRAW) return p->nMatchDraw;
  return p->nMatchLoss;
}

/* 16.1.2: a round the player was not available for. */
static int is_vur(int eKind) {
  return eKind == TB_HALF_BYE || eKind == TB_ZERO_BYE ||
         eKind == TB_FORFEIT_LOSS;
}

/* An unplayed round against a scheduled opponent (16.2.2 and 16.2.4). */
static int is_forfeit(int eKind) {
  return eKind == TB_FORFEIT_WIN || eKind == TB_FORFEIT_LOSS;
}

/*
** A game, as the player's own record and the direct encounter count it: a
** game played, or in a round robin (15.2) a forfeit won (a forfeit lost
** stays unplayed for the player's own record) -- or lost, for bLost.
*/
static int is_game(const TbParams *p, const TbSeat *s, int bLost) {
  if (s->iOpp < 0) return 0;
  if (s->eKind == TB_PLAYED) return 1;
  return p->bRoundRobin &&
         (s->eKind == TB_FORFEIT_WIN || (bLost && s->eKind == TB_FORFEIT_LOSS));
}

/*
** Player i's round iRound.  Rounds are asked in increasing order with the
** cursor *pj starting at 0, so a walk over all rounds is linear.
*/
static FideRound round_of(const TbEvent *e, const TbParams *p, int i,
                          int iRound, int *pj) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  FideRound r;
  r.eKind = TB_ZERO_BYE;
  r.iOpp = -1;
  r.nPoints = 0;
  while (*pj < pl->nSeat && a[*pj].iRound < iRound) (*pj)++;
  if (*pj < pl->nSeat && a[*pj].iRound == iRound) {
    r.eKind = a[*pj].eKind;
    r.iOpp = a[*pj].iOpp;
    r.nPoints = seat_points(&a[*pj], p);
  }
  /* 15.2: in a round robin a forfeit is a game; a bye or absence meets no
  ** dummy (Article 16 is for Swiss events) */
  if (p->bRoundRobin && r.eKind != TB_PLAYED) {
    r.eKind = r.iOpp >= 0 ? TB_PLAYED : TB_PAB;
  }
  return r;
}

/*
** 16.3: player q's score as their opponents' tiebreakers count it.  A
** requested bye followed only by VURs, or in the last round (16.2.5),
** counts as a draw, so that a player who withdrew weighs as half points
** for the rounds they missed rather than as zeros; every other unplayed
** round counts the points it gave (16.3.1).
*/
static i64 adjusted_score(const TbEvent *e, const TbParams *p, int q) {
  const TbPlayer *pl = &e->aPlayer[q];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  i64 n = pl->rec.nMatchPoints;
  int j, iLastAvailable = 0;
  if (p->bRoundRobin) return n; /* 15.2: scores as scored */
  for (j = 0; j < pl->nSeat; j++) {
    if (!is_vur(a[j].eKind)) iLastAvailable = a[j].iRound;
  }
  /* every round after iLastAvailable is a VUR: a draw unless a forfeit */
  n += (i64)(e->iLastRound - iLastAvailable) * p->nMatchDraw;
  for (j = pl->nSeat - 1; j >= 0 && a[j].iRound > iLastAvailable; j--) {
    n -= a[j].eKind == TB_FORFEIT_LOSS ? p->nMatchDraw : seat_points(&a[j], p);
  }
  return n;
}

/*
** 16.4: the dummy that player i meets in an unplayed round scores as the
** player.  The 2026 rules cap it (16.4.1, 16.4.2), so that a round not
** played is worth no more to a leader's own tiebreaks than the opponent
** who did not show up (a forfeit: their adjusted score), or than an
** opponent who drew every round (any other unplayed round).
*/
static i64 dummy_score(const TbEvent *e, const TbParams *p, int i,
                       const FideRound *r) {
  i64 n = e->aPlayer[i].rec.nMatchPoints, nCap;
  if (p->bRoundRobin) return 0; /* a round robin's bye adds nothing */
  if (p->iRules < 2026) return n;
  if (is_forfeit(r->eKind) && r->iOpp >= 0) {
    nCap = adjusted_score(e, p, r->iOpp);
  } else {
    nCap = p->nMatchDraw * e->iLastRound;
  }
  return n < nCap ? n : nCap;
}

/* The score of player i's opponent in a round, real or dummy. */
static i64 opponent_score(const TbEvent *e, const TbParams *p, int i,
                          const FideRound *r) {
  if (r->eKind == TB_PLAYED && r->iOpp >= 0) {
    return adjusted_score(e, p, r->iOpp);
  }
  return dummy_score(e, p, i, r);
}

/* ----------------------------------------------------- Buchholz family */

/* At most this many values are cut (Median-2 cuts four). */
#define MAX_CUTS 4

static int is_cut(const int *aCut, int nCut, int iRound) {
  int k;
  for (k = 0; k < nCut; k++) {
    if (aCut[k] == iRound) return 1;
  }
  return 0;
}

/*
** Buchholz of player i less nLow least and then nHigh most significant
** values (14.1 to 14.4).  16.5: while the player has VURs left, the
** lowest VUR contribution is cut rather than the least significant value
** (for Buchholz it is never lower), so a round the player chose not to
** play is what the cut removes.  Each cut walks the rounds again: no
** memory is needed and there are at most four cuts.
*/
static void buchholz_cut(const TbEvent *e, const TbParams *p, int i, int nLow,
                         int nHigh, TbAcc *pAcc) {
  int aCut[MAX_CUTS], nCut = 0, k, iRound, j;
  i64 nSum = 0;
  for (iRound = 1, j = 0; iRound <= e->iLastRound; iRound++) {
    FideRound r = round_of(e, p, i, iRound, &j);
    nSum += opponent_score(e, p, i, &r);
  }
  for (k = 0; k < nLow + nHigh && k < MAX_CUTS; k++) {
    int iBest = 0, bBestVur = 0;
    i64 nBest = 0;
    for (iRound = 1, j = 0; iRound <= e->iLastRound; iRound++) {
      FideRound r = round_of(e, p, i, iRound, &j);
      i64 v;
      int bVur = is_vur(r.eKind);
      if (is_cut(aCut, nCut, iRound)) continue;
      v = opponent_score(e, p, i, &r);
      if (iBest != 0) {
        if (k < nLow) {
          /* a VUR before any other round, then the lowest */
          if (bBestVur > bVur || (bBestVur == bVur && v >= nBest)) continue;
        } else if (v <= nBest) {
          continue;
        }
      }
      iBest = iRound;
      nBest = v;
      bBestVur = bVur;
    }
    if (iBest == 0) break; /* fewer rounds than cuts */
    aCut[nCut++] = iBest;
    nSum -= nBest;
  }
  tb_acc_add(pAcc, nSum, p->nPointScale);
}

void tb_fide_buchholz(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  buchholz_cut(e, p, i, 0, 0, pAcc);
}

/* The usual first tiebreak: one bad opponent (or absence) weighs less. */
void tb_fide_buchholz_cut1(const TbEvent *e, const TbParams *p, int i,
                           TbAcc *pAcc) {
  buchholz_cut(e, p, i, 1, 0, pAcc);
}

void tb_fide_buchholz_cut2(const TbEvent *e, const TbParams *p, int i,
                           TbAcc *pAcc) {
  buchholz_cut(e, p, i, 2, 0, pAcc);
}

/* Median: the extremes on both sides (14.3: the least first). */
void tb_fide_buchholz_median1(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  buchholz_cut(e, p, i, 1, 1, pAcc);
}

void tb_fide_buchholz_median2(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  buchholz_cut(e, p, i, 2, 2, pAcc);
}

/* ---------------------------------------------- Sonneborn-Berger family */

/*
** Sonneborn-Berger, less the cut value when bCut.  A round contributes
** the opponent's score times the points scored against them (9.1);
** scores and points are both in point units, hence the squared scale.
** Cut-1 (14.1.1.4) removes the contribution of the opponent with the
** lowest score (the lowest such contribution if several); with VURs
** (16.5.1) the higher of that and the lowest VUR contribution.
*/
static void sonneborn_berger(const TbEvent *e, const TbParams *p, int i,
                             int bCut, TbAcc *pAcc) {
  int iRound, j, bAny = 0, bVur = 0;
  i64 nSum = 0, nLowScore = 0, nLowScoreValue = 0, nLowVurValue = 0;
  for (iRound = 1, j = 0; iRound <= e->iLastRound; iRound++) {
    FideRound r = round_of(e, p, i, iRound, &j);
    i64 nScore = opponent_score(e, p, i, &r);
    i64 v = nScore * r.nPoints;
    nSum += v;
    if (!bAny || nScore < nLowScore) {
      nLowScore = nScore;
      nLowScoreValue = v;
    } else if (nScore == nLowScore && v < nLowScoreValue) {
      nLowScoreValue = v;
    }
    bAny = 1;
    if (is_vur(r.eKind) && (!bVur || v < nLowVurValue)) {
      nLowVurValue = v;
      bVur = 1;
    }
  }
  if (bCut && bAny) {
    int bCutVur = bVur && nLowVurValue > nLowScoreValue;
    nSum -= bCutVur ? nLowVurValue : nLowScoreValue;
  }
  tb_acc_add(pAcc, nSum, p->nPointScale * p->nPointScale);
}

void tb_fide_sonneborn_berger(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  sonneborn_berger(e, p, i, 0, pAcc);
}

void tb_fide_sonneborn_berger_cut1(const TbEvent *e, const TbParams *p, int i,
                                   TbAcc *pAcc) {
  sonneborn_berger(e, p, i, 1, pAcc);
}

/* ------------------------------------------------- the player's own games */

/* The score, as chess counts it (a custom order takes its points here). */
void tb_fide_points(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  tb_acc_add(pAcc, e->aPlayer[i].rec.nMatchPoints, p->nPointScale);
}

/*
** 7.5: the running score after each round, summed: early points count in
** more rounds, rewarding the player who led.  Points count as awarded,
** byes and forfeits included; a round without a row adds nothing new.
** Cut-1 (14.1.1.3) leaves out the score after round 1.
*/
static void progressive(const TbEvent *e, const TbParams *p, int i, int bCut,
                        TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  i64 nSum = 0;
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    int nFrom = bCut && s->iRound == 1 ? 2 : s->iRound;
    nSum += seat_points(s, p) * (i64)(e->iLastRound - nFrom + 1);
  }
  tb_acc_add(pAcc, nSum, p->nPointScale);
}

void tb_fide_progressive(const TbEvent *e, const TbParams *p, int i,
                         TbAcc *pAcc) {
  progressive(e, p, i, 0, pAcc);
}

void tb_fide_progressive_cut1(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  progressive(e, p, i, 1, pAcc);
}

/* 7.1: a pairing-allocated bye and a forfeit win count: they gave a win's
** points. */
void tb_fide_rounds_won(const TbEvent *e, const TbParams *p, int i,
                        TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  (void)p;
  for (j = 0; j < pl->nSeat; j++) {
    n += e->aSeat[pl->iSeat + j].eOutcome == TB_WIN;
  }
  tb_acc_add(pAcc, n, 1);
}

/* 7.2: only wins over the board (in a round robin, forfeit wins too: 15.2). */
void tb_fide_games_won(const TbEvent *e, const TbParams *p, int i,
                       TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    n += is_game(p, s, 0) && s->eOutcome == TB_WIN;
  }
  tb_acc_add(pAcc, n, 1);
}

/* 7.3: Black is the harder colour; player_b of a played game had it. */
void tb_fide_black_games(const TbEvent *e, const TbParams *p, int i,
                         TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    n += is_game(p, s, 0) && !s->bFirst;
  }
  tb_acc_add(pAcc, n, 1);
}

/* ------------------------------------------------------ direct encounter */

/*
** Article 6 within a group of tied players.  Each member gets its place
** among them (1 = first; members still tied share the place), computed
** once for the whole group since the article is recursive:
**
**   6.1  the separate standings: per member, the points scored against
**        the other members, the average per opponent met several times,
**        forfeits left out;
**   6.2  if all members met each other, the separate standings order
**        them, and Article 6 is applied again to each subset still level;
**   6.3  if not, a member alone on top whatever the missing games give is
**        placed first, then likewise the next, and Article 6 is applied
**        again to the members left.
**
** The group is refined class by class: a class is the set of members that
** share a place and are still to be separated.  All state lives in aOut,
** one slot per member: {place, 1} for a member of a class still to be
** separated, {place, 2} once it cannot be separated further, and
** {score, -denominator} while its class is being separated.  A class at
** place P with m members owns the places P .. P+m-1, so a slot belongs to
** it when its den is negative or its place lies in that range.
**
** Finding a member from a player index searches the group; for large
** groups an index is allocated to make that direct.  It only saves time,
** so if the allocation fails the search is used and the result is the
** same.
*/

typedef struct DeGroup {
  const TbEvent *e;
  const TbParams *p;
  const int *aPlayer;         /* the members */
  int n;
  TbFrac *aSlot;              /* the caller's aOut, as described above */
  int *aPos;                  /* player index -> member, or NULL: search */
} DeGroup;

/* Groups up to this size are searched rather than indexed. */
#define DE_SEARCH_MAX 16

static int de_member(const DeGroup *g, int iPlayer) {
  int k;
  if (g->aPos) return g->aPos[iPlayer];
  for (k = 0; k < g->n; k++) {
    if (g->aPlayer[k] == iPlayer) return k;
  }
  return -1;
}

static int de_in_class(const DeGroup *g, int k, i64 iPlace, int m) {
  const TbFrac *f = &g->aSlot[k];
  return f->den < 0 || (f->num >= iPlace && f->num < iPlace + m);
}

/*
** Member k's score against the other members of its class (6.1), and in
** *pnMissing how many of them it never met over the board.
*/
static TbFrac de_score(const DeGroup *g, int k, i64 iPlace, int m,
                       int *pnMissing) {
  const TbPlayer *pl = &g->e->aPlayer[g->aPlayer[k]];
  const TbSeat *a = &g->e->aSeat[pl->iSeat];
  TbAcc acc;
  int j, h, nMet = 0;
  tb_acc_init(&acc, 1);
  for (j = 0; j < pl->nSeat; j++) {
    int iOpp = a[j].iOpp, kOpp;
    i64 nSum = 0, nGame = 0;
    if (!is_game(g->p, &a[j], 1)) continue;
    for (h = 0; h < j && (!is_game(g->p, &a[h], 1) || a[h].iOpp != iOpp); h++) {
    }
    if (h < j) continue; /* this opponent was counted at their first game */
    kOpp = de_member(g, iOpp);
    if (kOpp < 0 || !de_in_class(g, kOpp, iPlace, m)) continue;
    for (h = j; h < pl->nSeat; h++) {
      if (is_game(g->p, &a[h], 1) && a[h].iOpp == iOpp) {
        nSum += seat_points(&a[h], g->p);
        nGame++;
      }
    }
    tb_acc_add(&acc, nSum, nGame);
    nMet++;
  }
  *pnMissing = m - 1 - nMet;
  /* a sum of at most n fractions of denominators below n: 128 bits hold it */
  tb_acc_clear(&acc);
  return acc.q;
}

/* The score a slot holds while its class is being separated. */
static TbFrac de_slot_score(const DeGroup *g, int k) {
  TbFrac f;
  f.num = g->aSlot[k].num;
  f.den = -g->aSlot[k].den;
  return f;
}

static void de_set(DeGroup *g, int k, i64 iPlace, int bFinal) {
  g->aSlot[k].num = iPlace;
  g->aSlot[k].den = bFinal ? 2 : 1;
}

/* 6.2: everyone met.  Members level on score form the next classes. */
static void de_order(DeGroup *g, i64 iPlace, int m) {
  int nDone = 0;
  while (nDone < m) {
    TbFrac best = {0, 1};
    int k, kBest = -1, nLevel = 0;
    for (k = 0; k < g->n; k++) {
      if (g->aSlot[k].den >= 0) continue;
      if (kBest < 0) {
        kBest = k;
        best = de_slot_score(g, k);
      } else {
        TbFrac f = de_slot_score(g, k);
        if (tb_frac_cmp(&f, &best) > 0) {
          kBest = k;
          best = f;
        }
      }
    }
    for (k = 0; k < g->n; k++) {
      TbFrac f;
      if (g->aSlot[k].den >= 0) continue;
      f = de_slot_score(g, k);
      if (tb_frac_cmp(&f, &best) == 0) nLevel++;
    }
    for (k = 0; k < g->n; k++) {
      TbFrac f;
      if (g->aSlot[k].den >= 0) continue;
      f = de_slot_score(g, k);
      if (tb_frac_cmp(&f, &best) != 0) continue;
      /* a class level as a whole cannot be separated by Article 6 */
      de_set(g, k, iPlace, nLevel == 1 || nLevel == m);
    }
    iPlace += nLevel;
    nDone += nLevel;
  }
}

/* score + points x missing games, as a fraction */
static TbFrac de_bound(TbFrac s, i64 nPoints, int nMissing) {
  s.num += s.den * (i128)nPoints * nMissing;
  return s;
}

/*
** 6.3: not everyone met.  The member whose lowest possible score (every
** missing game lost) is above every other member's highest (every
** missing game won) is placed; repeat while one is.  The members left
** form one class, separated again if it is smaller than this one.
*/
static void de_alone_on_top(DeGroup *g, i64 iPlace, int m) {
  i64 iFirst = iPlace;
  int nLeft = m, k;
  while (nLeft > 0) {
    TbFrac top = {0, 1}, f;
    int kTop = -1, bAlone = 1, nMissing;
    for (k = 0; k < g->n; k++) {
      if (g->aSlot[k].den >= 0) continue;
      f = de_score(g, k, iFirst, m, &nMissing);
      f = de_bound(f, g->p->nMatchLoss, nMissing);
      if (kTop < 0 || tb_frac_cmp(&f, &top) > 0) {
        kTop = k;
        top = f;
      }
    }
    for (k = 0; k < g->n && bAlone; k++) {
      if (k == kTop || g->aSlot[k].den >= 0) continue;
      f = de_score(g, k, iFirst, m, &nMissing);
      f = de_bound(f, g->p->nMatchWin, nMissing);
      if (tb_frac_cmp(&top, &f) <= 0) bAlone = 0;
    }
    if (!bAlone) break;
    de_set(g, kTop, iPlace++, 1);
    nLeft--;
  }
  for (k = 0; k < g->n; k++) {
    if (g->aSlot[k].den < 0) de_set(g, k, iPlace, iPlace == iFirst);
  }
}

/* Separate the class at iPlace, of m members, one step of Article 6. */
static void de_separate(DeGroup *g, i64 iPlace, int m) {
  int k, nMissing, bAllMet = 1;
  for (k = 0; k < g->n; k++) {
    TbFrac s;
    if (g->aSlot[k].den != 1 || g->aSlot[k].num != iPlace) continue;
    s = de_score(g, k, iPlace, m, &nMissing);
    if (nMissing) bAllMet = 0;
    g->aSlot[k].num = s.num;
    g->aSlot[k].den = -s.den;
  }
  if (bAllMet) {
    de_order(g, iPlace, m);
  } else {
    de_alone_on_top(g, iPlace, m);
  }
}

void tb_fide_direct_encounter(const TbEvent *e, const TbParams *p,
                              const int *aPlayer, int n, TbFrac *aOut) {
  DeGroup g;
  i64 iPlace = 1;
  int k;
  for (k = 0; k < n; k++) aOut[k] = tb_frac(1, 1);
  if (n < 2) return;
  memset(&g, 0, sizeof(g));
  g.e = e;
  g.p = p;
  g.aPlayer = aPlayer;
  g.n = n;
  g.aSlot = aOut;
  if (n > DE_SEARCH_MAX) {
    g.aPos = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(e->nPlayer + 1));
    if (g.aPos) {
      for (k = 0; k < e->nPlayer; k++) g.aPos[k] = -1;
      for (k = 0; k < n; k++) g.aPos[aPlayer[k]] = k;
    }
  }
  while (iPlace <= n) {
    int m = 0;
    for (k = 0; k < n; k++) {
      m += aOut[k].den == 1 && aOut[k].num == iPlace;
    }
    if (m >= 2) {
      de_separate(&g, iPlace, m); /* may leave a smaller class at iPlace */
      continue;
    }
    iPlace++;
  }
  for (k = 0; k < n; k++) aOut[k].den = 1;
  sqlite3_free(g.aPos);
}

/* 16.3's adjusted score of player q, for the tiebreakers of other files
** (Fore Buchholz, tb_fide_games.c). */
i64 tb_fide_adjusted_score(const TbEvent *e, const TbParams *p, int q) {
  return adjusted_score(e, p, q);
}
