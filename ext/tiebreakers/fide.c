/*
** tiebreakers/fide.c: chess tiebreakers of the FIDE Tie-Break Regulations (C.07,
** rules of 1 August 2024 and of 1 March 2026), for Swiss events.
**
**   points                  the score: 1 a win, 1/2 a draw, 0 a loss
**   buchholz (8.1)          sum of the opponents' scores
**   buchholz_cut1/cut2      less the one or two least significant values
**   buchholz_median1/2      less the one or two least and most significant
**   sonneborn_berger (9.1)  sum of opponent's score x points scored against
**   sonneborn_berger_cut1/2 less the one or two least significant values
**   sonneborn_berger_median1/2  and then the one or two most significant
**   progressive (7.5)       sum of the running score after each round
**   progressive_cut1/2      less the score after round 1 (and 2)
**   direct_encounter (6)    the games among the tied players
**   rounds_won (7.1)        rounds with a win's points, played or not
**   games_won (7.2)         games won over the board
**   black_games (7.3)       games played over the board with Black
**   (aro and the other rating tiebreakers: fide_rating.c)
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
#include "../tiebreak_int.h"
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
** stays unplayed for the player's own record) -- or lost, for bLost.  The
** /P modifier (bForfeitsPlayed) makes a Swiss event's forfeits games too.
*/
static int is_game(const TbParams *p, const TbSeat *s, int bLost) {
  if (s->iOpp < 0) return 0;
  if (s->eKind == TB_PLAYED) return 1;
  return (p->bRoundRobin || p->bForfeitsPlayed) &&
         (s->eKind == TB_FORFEIT_WIN || (bLost && s->eKind == TB_FORFEIT_LOSS));
}

/* 15.2: in a round robin a forfeit is a game; a bye or absence meets no
** dummy (Article 16 is for Swiss events).  /P: a Swiss event's forfeit is a
** game against its scheduled opponent; the other unplayed rounds keep
** Article 16. */
static FideRound round_robin(FideRound r, const TbParams *p) {
  if (p->bRoundRobin && r.eKind != TB_PLAYED) {
    r.eKind = r.iOpp >= 0 ? TB_PLAYED : TB_PAB;
  } else if (p->bForfeitsPlayed && is_forfeit(r.eKind) && r.iOpp >= 0) {
    r.eKind = TB_PLAYED;
  }
  return r;
}

/* Player i's round as seat s shows it. */
static FideRound round_of(const TbSeat *s, const TbParams *p) {
  FideRound r;
  r.eKind = s->eKind;
  r.iOpp = s->iOpp;
  r.nPoints = seat_points(s, p);
  return round_robin(r, p);
}

/* A round without a row: a zero-point bye. */
static FideRound round_absent(const TbParams *p) {
  FideRound r;
  r.eKind = TB_ZERO_BYE;
  r.iOpp = -1;
  r.nPoints = 0;
  return round_robin(r, p);
}

/* Rounds 1..e->iLastRound in which player i has no row. */
static i64 absent_rounds(const TbEvent *e, int i) {
  return (i64)e->iLastRound - e->aPlayer[i].nSeat;
}

/*
** 16.3: player q's score as their opponents' tiebreakers count it.  A
** requested bye followed only by VURs, or in the last round (16.2.5),
** counts as a draw, so that a player who withdrew weighs as half points
** for the rounds they missed rather than as zeros; every other unplayed
** round counts the points it gave (16.3.1).
*/
static void add_adjusted_score(TbAcc *pAcc, const TbEvent *e,
                               const TbParams *p, int q) {
  const TbPlayer *pl = &e->aPlayer[q];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  i64 n = pl->rec.nMatchPoints;
  int j, iLastAvailable = 0;
  if (p->bRoundRobin) {
    tb_acc_add(pAcc, n, 1); /* 15.2: scores as scored */
    return;
  }
  /* seats are ordered by round: the last one not a VUR, from the end */
  for (j = pl->nSeat - 1; j >= 0 && is_vur(a[j].eKind); j--) {
  }
  if (j >= 0) iLastAvailable = a[j].iRound;
  /* every round after iLastAvailable is a VUR: a draw unless a forfeit */
  n += (i64)(e->iLastRound - iLastAvailable) * p->nMatchDraw;
  for (j = pl->nSeat - 1; j >= 0 && a[j].iRound > iLastAvailable; j--) {
    n -= a[j].eKind == TB_FORFEIT_LOSS ? p->nMatchDraw : seat_points(&a[j], p);
  }
  tb_acc_add(pAcc, n, 1);
}

/* Each opponent reads it: computed once per player while ranking (a
** player's trailing VURs would otherwise be walked once per opponent).
** aAdj: the term cache's column of them (adjusted_scores()), or NULL. */
static i64 adjusted_score(const TbEvent *e, const TbParams *p,
                          const TbTermValue *aAdj, int q) {
  return aAdj ? (i64)aAdj[q].r : tb_term_int(e, add_adjusted_score, p, q);
}

/* The adjusted scores of every player while ranking, or NULL: looked up
** once per value, not once per opponent. */
static const TbTermValue *adjusted_scores(const TbEvent *e, const TbParams *p) {
  return tb_term_ints(e, add_adjusted_score, p);
}

/*
** 16.4: the dummy that player i meets in an unplayed round scores as the
** player.  The 2026 rules cap it (16.4.1, 16.4.2), so that a round not
** played is worth no more to a leader's own tiebreaks than the opponent
** who did not show up (a forfeit: their adjusted score), or than an
** opponent who drew every round (any other unplayed round).
*/
static i64 dummy_score(const TbEvent *e, const TbParams *p,
                       const TbTermValue *aAdj, int i, const FideRound *r) {
  i64 n = e->aPlayer[i].rec.nMatchPoints, nCap;
  if (p->bRoundRobin) return 0; /* a round robin's bye adds nothing */
  if (p->iRules < 2026) return n;
  if (is_forfeit(r->eKind) && r->iOpp >= 0) {
    nCap = adjusted_score(e, p, aAdj, r->iOpp);
  } else {
    nCap = p->nMatchDraw * e->iLastRound;
  }
  return n < nCap ? n : nCap;
}

/* The score of player i's opponent in a round, real or dummy. */
static i64 opponent_score(const TbEvent *e, const TbParams *p,
                          const TbTermValue *aAdj, int i, const FideRound *r) {
  if (r->eKind == TB_PLAYED && r->iOpp >= 0) {
    return adjusted_score(e, p, aAdj, r->iOpp);
  }
  return dummy_score(e, p, aAdj, i, r);
}

/* ----------------------------------------------------- Buchholz family */

/*
** Is a round one of the values that Buchholz, Fore Buchholz and
** Sonneborn-Berger sum and cut?  In a Swiss event every round is (an
** unplayed one against the dummy of 16.4).  In a round robin (15.2, 15.3)
** only a round with an opponent is: its bye (an odd number of players) or a
** round without a row has no opponent and no dummy, so it is no value of
** 8.1 ("the scores of each of the opponents") and no cut of 14.1 can take
** it as the least significant one.
*/
static int is_element(const TbParams *p, const TbSeat *s) {
  return !p->bRoundRobin || s->iOpp >= 0;
}

/* At most this many values are cut (Median-2 cuts four). */
#define MAX_CUTS 4

/* A round that a cut may remove: its value, whether it is a VUR, and
** which round it is (a seat's index; an absent round's, below 0). */
typedef struct CutItem {
  i64 v;
  int bVur;
  int id;
} CutItem;

/* Is x cut before y: the least significant first (16.5: a VUR before any
** other round, then the lowest) when bLow, else the most significant? */
static inline int cut_before(const CutItem *x, const CutItem *y, int bLow) {
  if (!bLow) return x->v > y->v;
  return x->bVur > y->bVur || (x->bVur == y->bVur && x->v < y->v);
}

/* Keep x among the nMax first of a[0..*pn), in cut order. */
static inline void cut_keep(CutItem *a, int *pn, int nMax, const CutItem *x,
                     int bLow) {
  int k = *pn;
  if (k == nMax) {
    if (nMax == 0 || !cut_before(x, &a[nMax - 1], bLow)) return;
    k--;
  } else {
    (*pn)++;
  }
  for (; k > 0 && cut_before(x, &a[k - 1], bLow); k--) a[k] = a[k - 1];
  a[k] = *x;
}

/* The sum less nLow least significant (aLow), then nHigh most (aHigh,
** skipping those cut already). */
static i64 cut_from(i64 nSum, const CutItem *aLow, int nLowKept,
                    const CutItem *aHigh, int nHighKept, int nLow,
                    int nHigh) {
  int j, h;
  if (nLow > nLowKept) nLow = nLowKept;
  for (j = 0; j < nLow; j++) nSum -= aLow[j].v;
  for (j = 0; j < nHighKept && nHigh > 0; j++) {
    for (h = 0; h < nLow && aLow[h].id != aHigh[j].id; h++) {
    }
    if (h < nLow) continue; /* cut already as a least significant */
    nSum -= aHigh[j].v;
    nHigh--;
  }
  return nSum;
}

/*
** The Buchholz family's sum (8.1, 8.3) with each cut of 14.1 to 14.4 into
** aOut[TB_FIDE_CUTS]: less its nLow least and then nHigh most significant
** values.  16.5: while the player has VURs left, the lowest VUR is cut
** rather than the least significant value (for Buchholz it is never
** lower), so a round the player chose not to play is what the cut
** removes.  c->xSeat gives each seat's value; the rounds without a row all
** have one value, c->nAbsentValue: they are counted, not walked, so a
** sparse round number costs nothing.  One walk for every cut: the
** candidates are kept on the way (the two least significant, and as many
** of the most as Median-2 could need).
*/
void tb_fide_cut_sums(const TbFideCut *c, i64 *aOut) {
  const TbPlayer *pl = &c->e->aPlayer[c->i];
  const TbSeat *a = &c->e->aSeat[pl->iSeat];
  CutItem aLow[2], aHigh[MAX_CUTS], x;
  int nLowKept = 0, nHighKept = 0, j;
  i64 nAbsent = absent_rounds(c->e, c->i), nSum = 0;
  if (c->p->bRoundRobin) nAbsent = 0; /* no opponent: no value (below) */
  x.v = c->nAbsentValue;
  x.bVur = c->bAbsentVur;
  for (x.id = -1; x.id >= -MAX_CUTS && -x.id <= nAbsent; x.id--) {
    cut_keep(aLow, &nLowKept, 2, &x, 1);
    cut_keep(aHigh, &nHighKept, MAX_CUTS, &x, 0);
  }
  if (nAbsent > 0) nSum += nAbsent * c->nAbsentValue;
  for (j = 0; j < pl->nSeat; j++) {
    if (!is_element(c->p, &a[j])) continue;
    x.v = c->xSeat(c, &a[j], &x.bVur);
    x.id = j;
    nSum += x.v;
    cut_keep(aLow, &nLowKept, 2, &x, 1);
    cut_keep(aHigh, &nHighKept, MAX_CUTS, &x, 0);
  }
  aOut[TB_FIDE_ALL] = nSum;
  aOut[TB_FIDE_CUT1] = cut_from(nSum, aLow, nLowKept, aHigh, nHighKept, 1, 0);
  aOut[TB_FIDE_CUT2] = cut_from(nSum, aLow, nLowKept, aHigh, nHighKept, 2, 0);
  aOut[TB_FIDE_MEDIAN1] =
      cut_from(nSum, aLow, nLowKept, aHigh, nHighKept, 1, 1);
  aOut[TB_FIDE_MEDIAN2] =
      cut_from(nSum, aLow, nLowKept, aHigh, nHighKept, 2, 2);
}

/* A seat's Buchholz value: its opponent's adjusted score, or the dummy's. */
static i64 buchholz_seat(const TbFideCut *c, const TbSeat *s, int *pbVur) {
  FideRound r = round_of(s, c->p);
  *pbVur = is_vur(r.eKind);
  return opponent_score(c->e, c->p, c->aScore, c->i, &r);
}

/* Player i's Buchholz with each cut, in point units (tb_fide_cut_sums). */
static void buchholz_cuts(const TbEvent *e, const TbParams *p, int i,
                          i64 *aOut) {
  TbFideCut c;
  FideRound r = round_absent(p);
  c.e = e;
  c.p = p;
  c.i = i;
  c.xSeat = buchholz_seat;
  c.nOwn = e->aPlayer[i].rec.nMatchPoints;
  c.aScore = adjusted_scores(e, p);
  c.nAbsentValue = opponent_score(e, p, c.aScore, i, &r);
  c.bAbsentVur = is_vur(r.eKind);
  tb_fide_cut_sums(&c, aOut);
}

/*
** Values of every player kept for one ranking, nCol per player, each row
** filled when first asked: a policy that ranks or shows several of a
** family (fide: BH-C1, BH and BH-M1; SB and SB-C1), and AOB, walk each
** player's opponents once.  Kept for one set of parameters: those that
** the families read (Article 16, the points) are the same for every
** tiebreaker of a policy.
*/
typedef struct FideRows {
  TbParams p;
  int nCol;
  i64 *aValue;                /* nCol per player */
  unsigned char *aDone;       /* 1: the player's row is filled */
} FideRows;

static void rows_free(void *p) {
  FideRows *x = (FideRows *)p;
  sqlite3_free(x->aValue);
  sqlite3_free(x);
}

/* The ranking's rows under pKey, new if there are none; NULL: compute
** instead (no ranking, other parameters, no memory). */
static FideRows *fide_rows(const TbEvent *e, const TbParams *p,
                           const void *pKey, int nCol) {
  FideRows *x = (FideRows *)tb_terms_extra(e, pKey);
  sqlite3_uint64 n = (sqlite3_uint64)e->nPlayer + 1;
  if (x) return memcmp(&x->p, p, sizeof(*p)) == 0 ? x : 0;
  if (e->pTerms == 0) return 0;
  x = sqlite3_malloc64(sizeof(*x));
  if (x == 0) return 0;
  x->p = *p;
  x->nCol = nCol;
  x->aValue = sqlite3_malloc64((sizeof(i64) * (sqlite3_uint64)nCol + 1) * n);
  if (x->aValue == 0) {
    sqlite3_free(x);
    return 0;
  }
  x->aDone = (unsigned char *)(x->aValue + (sqlite3_uint64)nCol * n);
  memset(x->aDone, 0, (size_t)n);
  if (tb_terms_set_extra(e, pKey, x, rows_free) != SQLITE_OK) return 0;
  return x;
}

/* Column k of player i's row: xFill(e, p, i, aRow) computes a row. */
static i64 fide_row_value(const TbEvent *e, const TbParams *p, int i, int k,
                          const void *pKey, int nCol,
                          void (*xFill)(const TbEvent*, const TbParams*, int,
                                        i64*)) {
  FideRows *x = fide_rows(e, p, pKey, nCol);
  i64 aRow[TB_FIDE_CUTS];
  i64 *a = x ? &x->aValue[(sqlite3_uint64)i * (sqlite3_uint64)nCol] : aRow;
  if (x == 0 || !x->aDone[i]) {
    xFill(e, p, i, a);
    if (x) x->aDone[i] = 1;
  }
  return a[k];
}

static const char bhKey = 0;  /* the Buchholz rows' key in the term cache */

/* Player i's Buchholz with cut eCut (TB_FIDE_ALL ...), in point units. */
static i64 buchholz_cut(const TbEvent *e, const TbParams *p, int i, int eCut) {
  return fide_row_value(e, p, i, eCut, &bhKey, TB_FIDE_CUTS, buchholz_cuts);
}

/* Buchholz in point units, as a term: AOB averages it over the opponents,
** and the term cache keeps each player's for both. */
static void add_buchholz(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                         int i) {
  tb_acc_add(pAcc, buchholz_cut(e, p, i, TB_FIDE_ALL), 1);
}

/* Buchholz of player i in point units (the term cache's while ranking). */
i64 tb_fide_buchholz_units(const TbEvent *e, const TbParams *p, int i) {
  return tb_term_int(e, add_buchholz, p, i);
}

/* Every player's, while ranking, or NULL (tb_term_ints). */
const TbTermValue *tb_fide_buchholz_column(const TbEvent *e, const TbParams *p) {
  return tb_term_ints(e, add_buchholz, p);
}

/* From the row, not the term column: the column holds every player's,
** which only AOB needs. */
void tb_fide_buchholz(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  tb_acc_add(pAcc, buchholz_cut(e, p, i, TB_FIDE_ALL), p->nPointScale);
}

/* The usual first tiebreak: one bad opponent (or absence) weighs less. */
void tb_fide_buchholz_cut1(const TbEvent *e, const TbParams *p, int i,
                           TbAcc *pAcc) {
  tb_acc_add(pAcc, buchholz_cut(e, p, i, TB_FIDE_CUT1), p->nPointScale);
}

void tb_fide_buchholz_cut2(const TbEvent *e, const TbParams *p, int i,
                           TbAcc *pAcc) {
  tb_acc_add(pAcc, buchholz_cut(e, p, i, TB_FIDE_CUT2), p->nPointScale);
}

/* Median: the extremes on both sides (14.3: the least first). */
void tb_fide_buchholz_median1(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  tb_acc_add(pAcc, buchholz_cut(e, p, i, TB_FIDE_MEDIAN1), p->nPointScale);
}

void tb_fide_buchholz_median2(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  tb_acc_add(pAcc, buchholz_cut(e, p, i, TB_FIDE_MEDIAN2), p->nPointScale);
}

/* ---------------------------------------------- Sonneborn-Berger family */

/* A round of Sonneborn-Berger: its opponent's score (real or dummy), its
** contribution, whether it is a VUR, and which round (as CutItem.id). */
typedef struct SbItem {
  i64 nScore;
  i64 v;
  int bVur;
  int id;
} SbItem;

/* 14.1.1.4: the least significant value is the contribution of the
** opponent with the lowest score, the lowest contribution among several;
** on a full tie the VUR (16.5.1 cuts it then: the same value). */
static int sb_lsv_before(const SbItem *x, const SbItem *y) {
  if (x->nScore != y->nScore) return x->nScore < y->nScore;
  if (x->v != y->v) return x->v < y->v;
  return x->bVur > y->bVur;
}

/* 16.5.1: the lowest contribution coming from a VUR. */
static int sb_vur_before(const SbItem *x, const SbItem *y) {
  return x->v < y->v || (x->v == y->v && x->nScore < y->nScore);
}

/* The most significant value, as 14.1.1.4 read the other way: the
** opponent with the highest score, the highest contribution among several. */
static int sb_msv_before(const SbItem *x, const SbItem *y) {
  if (x->nScore != y->nScore) return x->nScore > y->nScore;
  return x->v > y->v;
}

/* Keep x among the nMax first of a[0..*pn) in the order of BEFORE: one
** function per order, so that the comparison is inlined (each round of
** every player goes through all three). */
#define SB_KEEP(NAME, BEFORE)                                              \
  static void NAME(SbItem *a, int *pn, int nMax, const SbItem *x) {        \
    int k = *pn;                                                           \
    if (k == nMax) {                                                       \
      if (!BEFORE(x, &a[nMax - 1])) return;                                \
      k--;                                                                 \
    } else {                                                               \
      (*pn)++;                                                             \
    }                                                                      \
    for (; k > 0 && BEFORE(x, &a[k - 1]); k--) a[k] = a[k - 1];            \
    a[k] = *x;                                                             \
  }
SB_KEEP(sb_keep_lsv, sb_lsv_before)
SB_KEEP(sb_keep_vur, sb_vur_before)
SB_KEEP(sb_keep_msv, sb_msv_before)

/* The first of a[0..n) that is not among the cut ids aCut[0..nCut). */
static const SbItem *sb_first_left(const SbItem *a, int n, const int *aCut,
                                   int nCut) {
  int j, h;
  for (j = 0; j < n; j++) {
    for (h = 0; h < nCut && aCut[h] != a[j].id; h++) {
    }
    if (h == nCut) return &a[j];
  }
  return 0;
}

/* Sonneborn-Berger's candidates for the cuts, kept on one walk. */
typedef struct SbCuts {
  SbItem aLsv[2];             /* the two least significant values */
  SbItem aVur[2];             /* the two lowest VUR contributions */
  SbItem aMsv[MAX_CUTS];      /* the most significant values */
  int nLsv, nVur, nMsv;
} SbCuts;

static void sb_cuts_add(SbCuts *c, const SbItem *x) {
  sb_keep_lsv(c->aLsv, &c->nLsv, 2, x);
  if (x->bVur) sb_keep_vur(c->aVur, &c->nVur, 2, x);
  sb_keep_msv(c->aMsv, &c->nMsv, MAX_CUTS, x);
}

/*
** The sum less nLow least significant values, then nHigh most.  Each low
** cut (16.5.1, again for the next by 16.5.2) takes the lowest VUR
** contribution when it is not lower than the least significant value,
** else the least significant value.  Two lows are enough of each list:
** the first cut removes at most one of them.
*/
static i64 sb_cut_from(i64 nSum, const SbCuts *c, int nLow, int nHigh) {
  int aCut[MAX_CUTS], nCut = 0, k;
  for (k = 0; k < nLow; k++) {
    const SbItem *pL = sb_first_left(c->aLsv, c->nLsv, aCut, nCut);
    const SbItem *pV = sb_first_left(c->aVur, c->nVur, aCut, nCut);
    if (pL == 0) return nSum;
    if (pV && pV->v >= pL->v) pL = pV;
    nSum -= pL->v;
    aCut[nCut++] = pL->id;
  }
  for (k = 0; k < nHigh; k++) {
    const SbItem *pH = sb_first_left(c->aMsv, c->nMsv, aCut, nCut);
    if (pH == 0) break;
    nSum -= pH->v;
    aCut[nCut++] = pH->id;
  }
  return nSum;
}

/*
** Sonneborn-Berger into aRow[TB_FIDE_ALL], and less each cut of 14.1 to
** 14.4 into the other columns.  A round contributes the opponent's score
** times the points scored against them (9.1); scores and points are both
** in point units, hence the squared scale.  Cut-1 (14.1.1.4) removes the
** contribution of the opponent with the lowest score (the lowest such
** contribution if several); with VURs (16.5.1) the higher of that and the
** lowest VUR contribution.  The medians then remove the contribution of
** the opponent with the highest score (the highest if several).  The
** rounds without a row are alike: up to MAX_CUTS of them are candidates.
*/
static void sonneborn_berger_row(const TbEvent *e, const TbParams *p, int i,
                                 i64 *aRow) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbTermValue *aAdj = adjusted_scores(e, p);
  i64 nAbsent = absent_rounds(e, i), nSum = 0;
  SbCuts c;
  SbItem x;
  int j;
  c.nLsv = c.nVur = c.nMsv = 0;
  if (nAbsent > 0 && !p->bRoundRobin) {
    FideRound r = round_absent(p);
    x.nScore = opponent_score(e, p, aAdj, i, &r);
    x.v = x.nScore * r.nPoints;
    x.bVur = is_vur(r.eKind);
    nSum += x.v * nAbsent;
    for (x.id = -1; x.id >= -MAX_CUTS && -x.id <= nAbsent; x.id--) {
      sb_cuts_add(&c, &x);
    }
  }
  for (j = 0; j < pl->nSeat; j++) {
    FideRound r;
    if (!is_element(p, &e->aSeat[pl->iSeat + j])) continue;
    r = round_of(&e->aSeat[pl->iSeat + j], p);
    x.nScore = opponent_score(e, p, aAdj, i, &r);
    x.v = x.nScore * r.nPoints;
    x.bVur = is_vur(r.eKind);
    x.id = j;
    nSum += x.v;
    sb_cuts_add(&c, &x);
  }
  aRow[TB_FIDE_ALL] = nSum;
  aRow[TB_FIDE_CUT1] = sb_cut_from(nSum, &c, 1, 0);
  aRow[TB_FIDE_CUT2] = sb_cut_from(nSum, &c, 2, 0);
  aRow[TB_FIDE_MEDIAN1] = sb_cut_from(nSum, &c, 1, 1);
  aRow[TB_FIDE_MEDIAN2] = sb_cut_from(nSum, &c, 2, 2);
}

static const char sbKey = 0;  /* the Sonneborn-Berger rows' key */

/* Sonneborn-Berger of player i with cut eCut (TB_FIDE_ALL ...). */
static void sonneborn_berger(const TbEvent *e, const TbParams *p, int i,
                             int eCut, TbAcc *pAcc) {
  i64 n = fide_row_value(e, p, i, eCut, &sbKey, TB_FIDE_CUTS,
                         sonneborn_berger_row);
  tb_acc_add(pAcc, n, p->nPointScale * p->nPointScale);
}

void tb_fide_sonneborn_berger(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  sonneborn_berger(e, p, i, TB_FIDE_ALL, pAcc);
}

void tb_fide_sonneborn_berger_cut1(const TbEvent *e, const TbParams *p, int i,
                                   TbAcc *pAcc) {
  sonneborn_berger(e, p, i, TB_FIDE_CUT1, pAcc);
}

void tb_fide_sonneborn_berger_cut2(const TbEvent *e, const TbParams *p, int i,
                                   TbAcc *pAcc) {
  sonneborn_berger(e, p, i, TB_FIDE_CUT2, pAcc);
}

void tb_fide_sonneborn_berger_median1(const TbEvent *e, const TbParams *p,
                                      int i, TbAcc *pAcc) {
  sonneborn_berger(e, p, i, TB_FIDE_MEDIAN1, pAcc);
}

void tb_fide_sonneborn_berger_median2(const TbEvent *e, const TbParams *p,
                                      int i, TbAcc *pAcc) {
  sonneborn_berger(e, p, i, TB_FIDE_MEDIAN2, pAcc);
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
** Cut-1 (14.1.1.3) leaves out the score after round 1, Cut-2 (14.2) the
** scores after rounds 1 and 2: a round's points count from round
** nCut + 1 on.
*/
static void progressive(const TbEvent *e, const TbParams *p, int i, int nCut,
                        TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  i64 nSum = 0;
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    int nFrom = s->iRound > nCut ? s->iRound : nCut + 1;
    if (nFrom > e->iLastRound) continue;
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

void tb_fide_progressive_cut2(const TbEvent *e, const TbParams *p, int i,
                              TbAcc *pAcc) {
  progressive(e, p, i, 2, pAcc);
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
** The group is refined class by class: a class is a set of members that
** share a place and are still to be separated, a range of aPerm.  Each
** separation sorts its range (by score, or places members off its top)
** and pushes the subclasses it leaves onto a stack, so every step costs the
** seats of its class times a logarithm: a tied group of a million players
** who never met is one step.  A member is found from a player index by a
** binary search over the members sorted by player index.
*/

typedef struct DeGroup {
  const TbEvent *e;
  const TbParams *p;
  const int *aPlayer;         /* the members */
  int n;
  int *aByPlayer;             /* members sorted by player index */
  int *aPerm;                 /* members; each class a range of it */
  int *aTmp;                  /* the sorts' buffer */
  int *aClass;                /* the class being separated: its token */
  int *aMark;                 /* per member: token of the last scorer */
  i64 *aSum, *aGames;         /* per opponent met, while one is scored */
  i64 *aPlace;                /* place of each member */
  unsigned char *aFinal;      /* 1: cannot be separated further */
  int *aMissing;              /* class members the member never met */
  TbQ *aScore, *aKey;         /* score (6.1); what a sort orders by: exact
                              ** values of any size, each owning its TbBigQ */
  int *aStack;                /* classes to separate: (lo, hi) pairs */
  int nStack;
  int iToken;
  int rc;                     /* out of memory comparing or summing */
} DeGroup;

/* The member that is player iPlayer, or -1. */
static int de_member(const DeGroup *g, int iPlayer) {
  int lo = 0, hi = g->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, v = g->aPlayer[g->aByPlayer[mid]];
    if (v == iPlayer) return g->aByPlayer[mid];
    if (v < iPlayer) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

static int de_key_before(void *pCtx, const void *x, const void *y) {
  DeGroup *g = (DeGroup *)pCtx;
  return tb_q_cmp(&g->aKey[*(const int *)x], &g->aKey[*(const int *)y],
                  &g->rc) > 0;
}

static int de_player_before(void *pCtx, const void *x, const void *y) {
  const DeGroup *g = (const DeGroup *)pCtx;
  return g->aPlayer[*(const int *)x] < g->aPlayer[*(const int *)y];
}

/* Merge sort of a[0..n) on aKey descending (bKey) or on player index
** (rank.c's).  Interrupted, it leaves a[] in some order. */
static void de_sort(DeGroup *g, int *a, int n, int bKey) {
  int rc;
  int *x = tb_merge_sort(a, g->aTmp, n, (int)sizeof(int), 1,
                         bKey ? de_key_before : de_player_before, g,
                         g->e->pProbe, &rc);
  if (x != a) memcpy(a, x, sizeof(int) * (size_t)n);
}

/*
** Member k's score against the other members of its class (6.1), and how
** many of them it never met over the board.  Two walks over its seats:
** the first sums the games per opponent, the second adds each opponent's
** average once.
*/
static void de_score(DeGroup *g, int k, int iClass, int m) {
  const TbPlayer *pl = &g->e->aPlayer[g->aPlayer[k]];
  const TbSeat *a = &g->e->aSeat[pl->iSeat];
  int iSum = ++g->iToken, iDone = ++g->iToken;
  TbAcc acc;
  int j, nMet = 0;
  tb_acc_init(&acc, 1);
  acc.pProbe = g->e->pProbe;
  for (j = 0; j < pl->nSeat; j++) {
    int kOpp;
    if (!is_game(g->p, &a[j], 1)) continue;
    kOpp = de_member(g, a[j].iOpp);
    if (kOpp < 0 || g->aClass[kOpp] != iClass) continue;
    if (g->aMark[kOpp] != iSum) {
      g->aMark[kOpp] = iSum;
      g->aSum[kOpp] = 0;
      g->aGames[kOpp] = 0;
    }
    g->aSum[kOpp] += seat_points(&a[j], g->p);
    g->aGames[kOpp]++;
  }
  for (j = 0; j < pl->nSeat; j++) {
    int kOpp;
    if (!is_game(g->p, &a[j], 1)) continue;
    kOpp = de_member(g, a[j].iOpp);
    if (kOpp < 0 || g->aMark[kOpp] != iSum) continue;
    g->aMark[kOpp] = iDone;
    tb_acc_add(&acc, g->aSum[kOpp], g->aGames[kOpp]);
    nMet++;
  }
  /* a sum of fractions whose denominators' least common multiple may pass
  ** any fixed width (every count of games up to n): kept at any size */
  tb_q_free(&g->aScore[k]);
  tb_acc_take(&acc, &g->aScore[k]);
  if (acc.bNoMem) g->rc = tb_acc_error(&acc);
  g->aMissing[k] = m - 1 - nMet;
}

/* *pOut = score + points x missing games, exactly */
static void de_bound(DeGroup *g, TbQ *pOut, const TbQ *pScore, i64 nPoints,
                     int nMissing) {
  TbAcc acc;
  TbFrac f;
  f.num = (i128)nPoints * nMissing;
  f.den = 1;
  tb_acc_init(&acc, 1);
  tb_acc_add_q(&acc, pScore);
  tb_acc_add_frac(&acc, &f);
  tb_q_free(pOut);
  tb_acc_take(&acc, pOut);
  if (acc.bNoMem) g->rc = SQLITE_NOMEM;
}

static void de_push(DeGroup *g, int lo, int hi) {
  g->aStack[g->nStack++] = lo;
  g->aStack[g->nStack++] = hi;
}

/* Members c[0..m) get place iPlace; a class of several, if not final. */
static void de_level(DeGroup *g, int lo, int hi, i64 iPlace, int bFinal) {
  int i;
  for (i = lo; i < hi; i++) {
    g->aPlace[g->aPerm[i]] = iPlace;
    g->aFinal[g->aPerm[i]] = (unsigned char)bFinal;
  }
  if (!bFinal && hi - lo >= 2) de_push(g, lo, hi);
}

/* 6.2: everyone met.  Members level on score form the next classes; a
** class level as a whole cannot be separated by Article 6. */
static void de_order(DeGroup *g, int lo, int hi, i64 iPlace) {
  int *c = &g->aPerm[lo], m = hi - lo, s, e;
  TbQ *aSaved = g->aKey;
  g->aKey = g->aScore;                /* sorted by score */
  de_sort(g, c, m, 1);
  g->aKey = aSaved;
  for (s = 0; s < m && g->rc == SQLITE_OK; s = e) {
    for (e = s + 1;
         e < m && tb_q_cmp(&g->aScore[c[e]], &g->aScore[c[s]], &g->rc) == 0;
         e++) {
    }
    de_level(g, lo + s, lo + e, iPlace + s, e - s == 1 || e - s == m);
  }
}

/*
** 6.3: not everyone met.  The member whose lowest possible score (every
** missing game lost) is above every other member's highest (every missing
** game won) is placed; repeat while one is.  The scores are those within
** the whole class throughout, so both orders are sorted once: the top of
** the first is the candidate, the best other of the second its rival.
** The members left form one class, separated again if it is smaller.
*/
static void de_alone_on_top(DeGroup *g, int lo, int hi, i64 iPlace) {
  int *c = &g->aPerm[lo], m = hi - lo, nPlaced = 0, i, iRival = 0;
  int *aHigh = g->aTmp + g->n;        /* members by highest possible score */
  TbQ *aHighKey = g->aKey + g->n;
  for (i = 0; i < m; i++) {
    int k = c[i];
    if (tb_poll(g->e->pProbe, 1) != SQLITE_OK) return;
    de_bound(g, &aHighKey[k], &g->aScore[k], g->p->nMatchWin, g->aMissing[k]);
    de_bound(g, &g->aKey[k], &g->aScore[k], g->p->nMatchLoss, g->aMissing[k]);
    aHigh[i] = k;
    g->aFinal[k] = 0; /* 0: not placed yet */
  }
  de_sort(g, c, m, 1);               /* by lowest possible score */
  {
    /* aHigh by highest possible score: the same sort on the other keys */
    TbQ *aSaved = g->aKey;
    g->aKey = aHighKey;
    de_sort(g, aHigh, m, 1);
    g->aKey = aSaved;
  }
  while (nPlaced < m) {
    int kTop = c[nPlaced], r;
    while (iRival < m && g->aFinal[aHigh[iRival]]) iRival++;
    r = iRival;
    if (r < m && aHigh[r] == kTop) {
      for (r++; r < m && g->aFinal[aHigh[r]]; r++) {
      }
    }
    if (r < m && tb_q_cmp(&g->aKey[kTop], &aHighKey[aHigh[r]], &g->rc) <= 0) {
      break;
    }
    g->aPlace[kTop] = iPlace + nPlaced;
    g->aFinal[kTop] = 1;
    nPlaced++;
  }
  de_level(g, lo + nPlaced, hi, iPlace + nPlaced, nPlaced == 0);
}

/* Separate the class aPerm[lo..hi), one step of Article 6. */
static int de_separate(DeGroup *g, int lo, int hi) {
  int i, m = hi - lo, iClass = ++g->iToken, bAllMet = 1, rc;
  i64 iPlace = g->aPlace[g->aPerm[lo]];
  for (i = lo; i < hi; i++) g->aClass[g->aPerm[i]] = iClass;
  for (i = lo; i < hi; i++) {
    int k = g->aPerm[i];
    rc = tb_poll(g->e->pProbe, 1 + g->e->aPlayer[g->aPlayer[k]].nSeat);
    if (rc != SQLITE_OK) return rc;
    de_score(g, k, iClass, m);
    if (g->aMissing[k]) bAllMet = 0;
  }
  if (bAllMet) {
    de_order(g, lo, hi, iPlace);
  } else {
    de_alone_on_top(g, lo, hi, iPlace);
  }
  return g->rc;
}

static void de_free(DeGroup *g) {
  sqlite3_free(g->aByPlayer);
  sqlite3_free(g->aMark);
  sqlite3_free(g->aSum);
  sqlite3_free(g->aPlace);
  if (g->aScore) {
    /* scores and both keys: 3 (n + 1) values, zero or owning their TbBigQ */
    sqlite3_uint64 i, nQ = ((sqlite3_uint64)g->n + 1) * 3;
    for (i = 0; i < nQ; i++) tb_q_free(&g->aScore[i]);
  }
  sqlite3_free(g->aScore);
}

/* Room for the group's state, in five allocations. */
static int de_alloc(DeGroup *g, int n) {
  sqlite3_uint64 m = (sqlite3_uint64)n + 1;
  g->aByPlayer = sqlite3_malloc64(sizeof(int) * m * 5);       /* 5 int arrays */
  g->aMark = sqlite3_malloc64(sizeof(int) * m * 3);           /* 3 more */
  g->aSum = sqlite3_malloc64(sizeof(i64) * m * 2);
  g->aPlace = sqlite3_malloc64((sizeof(i64) + 1) * m);
  g->aScore = sqlite3_malloc64(sizeof(TbQ) * m * 3);
  if (g->aScore) memset(g->aScore, 0, sizeof(TbQ) * m * 3);
  if (!g->aByPlayer || !g->aMark || !g->aSum || !g->aPlace || !g->aScore) {
    return SQLITE_NOMEM;
  }
  g->aPerm = g->aByPlayer + m;
  g->aTmp = g->aPerm + m;             /* 2m: de_alone_on_top uses both */
  g->aStack = g->aTmp + 2 * m;        /* no more pairs than members */
  g->aClass = g->aMark + m;
  g->aMissing = g->aClass + m;
  g->aGames = g->aSum + m;
  g->aFinal = (unsigned char *)(g->aPlace + m);
  g->aKey = g->aScore + m;            /* 2m: de_alone_on_top uses both */
  return SQLITE_OK;
}

int tb_fide_direct_encounter(const TbEvent *e, const TbParams *p,
                             const int *aPlayer, int n, TbFrac *aOut) {
  DeGroup g;
  int k, rc = SQLITE_OK;
  for (k = 0; k < n; k++) aOut[k] = tb_frac(1, 1);
  if (n < 2) return SQLITE_OK;
  memset(&g, 0, sizeof(g));
  g.e = e;
  g.p = p;
  g.aPlayer = aPlayer;
  g.n = n;
  if (de_alloc(&g, n) != SQLITE_OK) {
    de_free(&g);
    return SQLITE_NOMEM;
  }
  for (k = 0; k < n; k++) {
    if ((rc = tb_poll(e->pProbe, 1)) != SQLITE_OK) break;
    g.aByPlayer[k] = k;
    g.aPerm[k] = k;
    g.aClass[k] = 0;
    g.aMark[k] = 0;
    g.aPlace[k] = 1;
  }
  if (rc == SQLITE_OK) {
    de_sort(&g, g.aByPlayer, n, 0);
    de_push(&g, 0, n);
  }
  while (g.nStack > 0 && rc == SQLITE_OK) {
    int hi = g.aStack[--g.nStack], lo = g.aStack[--g.nStack];
    rc = de_separate(&g, lo, hi);
  }
  for (k = 0; k < n && rc == SQLITE_OK; k++) {
    aOut[k] = tb_frac(g.aPlace[k], 1);
    rc = tb_poll(e->pProbe, 1);
  }
  de_free(&g);
  return rc;
}

/* 16.3's adjusted score of player q, for the tiebreakers of other files
** (Fore Buchholz, fide_games.c). */
i64 tb_fide_adjusted_score(const TbEvent *e, const TbParams *p, int q) {
  return adjusted_score(e, p, 0, q);
}
