/*
** tiebreakers/fide_rating.c: the rating-based chess tiebreakers of FIDE C.07
** Article 10, and FIDE's rating-difference table (B.02 8.1) they use.
**
**   aro_cut1/cut2/median1/median2  ARO (10.1) less the lowest / highest
**   tpr (10.2)    tournament performance: ARO + dp(fractional score)
**   ptp (10.3)    perfect performance: the lowest rating whose expected
**                 score reaches the score
**   apro (10.4)   mean of the opponents' TPR
**   appo (10.5)   mean of the opponents' PTP
**
** Only games played over the board count (Article 10, and 15.2 for round
** robins: forfeits stay unplayed here).  An opponent counts with their
** rating from the players table; an unrated one (no row, NULL rating)
** with the policy's option unrated=N if given, else is left out.  Every
** value is an integer computed from integers: means are rounded half up,
** as the regulations round ARO.  See docs/policy-fide.md.
*/
#include "../tiebreak_int.h"
#include "tiebreakers.h"

/*
** B.02 table 8.1: the data of FIDE's rating-difference table, in one place.
**
** aDp[p] is dp for a fractional score of p hundredths (8.1.a, p >= 0.50;
** below, dp(p) = -dp(1 - p)).  aPdUpper[k] is the largest rating
** difference D for which the expected score of the higher rated player is
** 0.50 + k/100 (8.1.b); above 735 it is 1.00.
*/
static const short aDp[51] = {
  0,   7,   14,  21,  29,  36,  43,  50,  57,  65,  72,  80,  87,
  95,  102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184, 193,
  202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
  351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800};
static const short aPdUpper[50] = {
  3,   10,  17,  25,  32,  39,  46,  53,  61,  68,  76,  83,  91,
  98,  106, 113, 121, 129, 137, 145, 153, 162, 170, 179, 188, 197,
  206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344,
  357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735};

/* dp for a fractional score of p hundredths, 0 <= p <= 100. */
static int table_dp(int p) {
  return p >= 50 ? aDp[p - 50] : -aDp[50 - p];
}

/* Rating differences whose expected score is below 1.00 (8.1.b). */
#define PD_SPAN 736

/* aRow[a] = k, the first row of 8.1.b whose upper bound is at least the
** difference a, for a < PD_SPAN. */
static void pd_fill(unsigned char *aRow) {
  int k, a = 0;
  for (k = 0; k < 50; k++) {
    for (; a <= aPdUpper[k]; a++) aRow[a] = (unsigned char)k;
  }
}

/*
** The rows of 8.1.b by rating difference: PTP asks the expected score of
** every game at every step of its search, so it is looked up rather than
** searched.  Kept for the ranking by the term cache, else built in aBuf
** (PD_SPAN bytes).
*/
static const unsigned char *pd_rows(const TbEvent *e, unsigned char *aBuf) {
  unsigned char *a = tb_terms_extra(e, aPdUpper);
  if (a) return a;
  a = e->pTerms ? sqlite3_malloc64(PD_SPAN) : 0;
  if (a && tb_terms_set_extra(e, aPdUpper, a, sqlite3_free) == SQLITE_OK) {
    pd_fill(a);
    return a;
  }
  pd_fill(aBuf); /* no cache, or no memory or room in it */
  return aBuf;
}

/* Expected score, in hundredths, of a player rated d above the opponent
** (aRow: pd_rows()). */
static int table_pd(const unsigned char *aRow, i64 d) {
  i64 a = d < 0 ? -d : d;
  int k = a < PD_SPAN ? aRow[a] : 50;
  return d < 0 ? 50 - k : 50 + k;
}

/* --------------------------------------------------- opponents over the board */

/* The rating player i counts with, or 0 when left out. */
static int rating_of(const TbEvent *e, const TbParams *p, int i, i64 *pR) {
  if (tb_player_rating(e, i, pR)) return 1;
  if (p->bUnrated) {
    *pR = p->iUnrated;
    return 1;
  }
  return 0;
}

/* A seat of a game played over the board. */
static int is_otb(const TbSeat *s) {
  return s->eKind == TB_PLAYED && s->iOpp >= 0;
}

/* n / d rounded half up, d > 0 (a floor also for negative n). */
static i64 div_half_up(i128 n, i64 d) {
  i128 x = 2 * n + d, y = 2 * (i128)d;
  if (x >= 0 && x <= 0x3fffffffffffffff && y <= 0x3fffffffffffffff) {
    return (i64)x / (i64)y; /* the usual case, without a 128-bit division */
  }
  return (i64)(x >= 0 ? x / y : -((-x + y - 1) / y));
}

/* A seat index cut already. */
static int is_cut(const int *aCut, int nCut, int j) {
  int k;
  for (k = 0; k < nCut; k++) {
    if (aCut[k] == j) return 1;
  }
  return 0;
}

#define MAX_CUTS 4

/*
** ARO less the nLow lowest and then the nHigh highest ratings (Article 14
** modifiers on 10.1): the mean of what is left, rounded half up; NULL when
** nothing is left.  Each cut walks the seats again; there are at most four.
*/
static void aro_cut(const TbEvent *e, const TbParams *p, int i, int nLow,
                    int nHigh, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  int aCut[MAX_CUTS], nCut = 0, j, k;
  i128 nSum = 0;
  i64 n = 0, r;
  for (j = 0; j < pl->nSeat; j++) {
    if (!is_otb(&a[j]) || !rating_of(e, p, a[j].iOpp, &r)) continue;
    nSum += r;
    n++;
  }
  for (k = 0; k < nLow + nHigh && k < MAX_CUTS; k++) {
    int jBest = -1;
    i64 rBest = 0;
    for (j = 0; j < pl->nSeat; j++) {
      if (!is_otb(&a[j]) || is_cut(aCut, nCut, j)) continue;
      if (!rating_of(e, p, a[j].iOpp, &r)) continue;
      if (jBest < 0 || (k < nLow ? r < rBest : r > rBest)) {
        jBest = j;
        rBest = r;
      }
    }
    if (jBest < 0) break;
    aCut[nCut++] = jBest;
    nSum -= rBest;
    n--;
  }
  if (n <= 0) {
    pAcc->bNull = 1;
    return;
  }
  tb_acc_add(pAcc, div_half_up(nSum, n), 1);
}

void tb_fide_aro_cut1(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  aro_cut(e, p, i, 1, 0, pAcc);
}
void tb_fide_aro_cut2(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  aro_cut(e, p, i, 2, 0, pAcc);
}
void tb_fide_aro_median1(const TbEvent *e, const TbParams *p, int i,
                         TbAcc *pAcc) {
  aro_cut(e, p, i, 1, 1, pAcc);
}
void tb_fide_aro_median2(const TbEvent *e, const TbParams *p, int i,
                         TbAcc *pAcc) {
  aro_cut(e, p, i, 2, 2, pAcc);
}

/*
** The rated games over the board of player i: their count, the score in
** half points (a win 2, a draw 1, whatever the event's scoring: ratings
** count games 1, 1/2, 0), the rating sum, lowest and highest.
*/
typedef struct RatedGames {
  i64 n, nHalf, nLow, nHigh;
  i128 nSum;
} RatedGames;

/* Ratings that PTP keeps at hand for its search (a longer list is read
** from the seats again at each step). */
#define RATED_KEPT 64

/* Player i's rated games; the first RATED_KEPT ratings into aKept if not
** NULL. */
static void rated_games(const TbEvent *e, const TbParams *p, int i,
                        RatedGames *g, i64 *aKept) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  int j;
  i64 r;
  memset(g, 0, sizeof(*g));
  for (j = 0; j < pl->nSeat; j++) {
    if (!is_otb(&a[j]) || !rating_of(e, p, a[j].iOpp, &r)) continue;
    if (g->n == 0 || r < g->nLow) g->nLow = r;
    if (g->n == 0 || r > g->nHigh) g->nHigh = r;
    if (aKept && g->n < RATED_KEPT) aKept[g->n] = r;
    g->n++;
    g->nSum += r;
    g->nHalf += a[j].eOutcome == TB_WIN ? 2 : a[j].eOutcome == TB_DRAW;
  }
}

/* 10.2: ARO + dp, p the fractional score in hundredths rounded half up;
** 0 when there is no rated game. */
static int tpr_of(const TbEvent *e, const TbParams *p, int i, i64 *pOut) {
  RatedGames g;
  rated_games(e, p, i, &g, 0);
  if (g.n == 0) return 0;
  *pOut = div_half_up(g.nSum, g.n) + table_dp((int)div_half_up(50 * g.nHalf, g.n));
  return 1;
}

/* Expected score in hundredths of a player rated R against player i's
** rated opponents over the board: the n ratings of aKept if they are all
** there, else those of the seats. */
static i64 expected(const TbEvent *e, const TbParams *p, int i, i64 R,
                    const unsigned char *aRow, const i64 *aKept, i64 n) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  i64 nSum = 0, r;
  int j;
  if (n <= RATED_KEPT) {
    for (j = 0; j < n; j++) nSum += table_pd(aRow, R - aKept[j]);
    return nSum;
  }
  for (j = 0; j < pl->nSeat; j++) {
    if (!is_otb(&a[j]) || !rating_of(e, p, a[j].iOpp, &r)) continue;
    nSum += table_pd(aRow, R - r);
  }
  return nSum;
}

/*
** 10.3: the lowest integer rating R whose expected score (8.1.b, without
** the 400-point limit) is at least the score; a zero score gives the
** lowest opponent's rating - 800.  The expected score grows with R, from
** 0 at the lowest rating - 736 to every game won at the highest + 736, so
** a search between them finds R.  It probes where the expected score,
** taken as linear between the ends, reaches the score (about 7 probes,
** not 11), and halves the range after two probes that did not: at most
** three probes per halving.
*/
static int ptp_of(const TbEvent *e, const TbParams *p, int i, i64 *pOut) {
  RatedGames g;
  i64 lo, hi, eLo, eHi, nScore;
  unsigned char aBuf[PD_SPAN];
  const unsigned char *aRow;
  i64 aKept[RATED_KEPT];
  int nSlow = 0;
  rated_games(e, p, i, &g, aKept);
  if (g.n == 0) return 0;
  if (g.nHalf == 0) {
    *pOut = g.nLow - 800;
    return 1;
  }
  aRow = pd_rows(e, aBuf);
  nScore = 50 * g.nHalf;
  lo = g.nLow - 736; /* expected eLo < score */
  hi = g.nHigh + 736; /* expected eHi >= score */
  eLo = 0;
  eHi = 100 * g.n;
  while (hi - lo > 1) {
    i64 w = hi - lo, mid, v;
    if (nSlow >= 2) {
      mid = lo + w / 2;
      nSlow = 0;
    } else {
      mid = lo + (i64)((i128)(nScore - eLo) * w / (eHi - eLo));
      if (mid <= lo) mid = lo + 1;
      if (mid >= hi) mid = hi - 1;
    }
    v = expected(e, p, i, mid, aRow, aKept, g.n);
    if (v >= nScore) {
      hi = mid;
      eHi = v;
    } else {
      lo = mid;
      eLo = v;
    }
    nSlow = hi - lo > w / 2 ? nSlow + 1 : 0;
  }
  *pOut = hi;
  return 1;
}

/* TPR and PTP as terms: the opponents' means (APRO, APPO) read each
** player's, so the term cache computes it once per ranking for both. */
static void tpr_term(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  i64 v;
  if (!tpr_of(e, p, i, &v)) {
    pAcc->bNull = 1;
    return;
  }
  tb_acc_add(pAcc, v, 1);
}
static void ptp_term(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  i64 v;
  if (!ptp_of(e, p, i, &v)) {
    pAcc->bNull = 1;
    return;
  }
  tb_acc_add(pAcc, v, 1);
}

void tb_fide_tpr(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  tb_term_add(pAcc, e, tpr_term, p, i);
}

void tb_fide_ptp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  tb_term_add(pAcc, e, ptp_term, p, i);
}

/*
** Mean of f over the opponents met over the board who have a value,
** rounded half up (10.4, 10.5).  While an event is ranked each player's
** value comes from the term cache (an integer, so its double is exact);
** otherwise it is computed.
*/
static void opponents_mean(const TbEvent *e, const TbParams *p, int i,
                           int (*f)(const TbEvent*, const TbParams*, int, i64*),
                           TbTermFn fTerm, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  const TbTermValue *aValue = tb_term_ints(e, fTerm, p);
  i128 nSum = 0;
  i64 n = 0, v;
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    int q = a[j].iOpp;
    if (!is_otb(&a[j])) continue;
    if (aValue == 0) {
      if (!f(e, p, q, &v)) continue;
    } else if (aValue[q].err < 0) {
      continue; /* no value */
    } else {
      v = (i64)aValue[q].r;
    }
    nSum += v;
    n++;
  }
  if (n == 0) {
    pAcc->bNull = 1;
    return;
  }
  tb_acc_add(pAcc, div_half_up(nSum, n), 1);
}

void tb_fide_apro(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  opponents_mean(e, p, i, tpr_of, tpr_term, pAcc);
}

void tb_fide_appo(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  opponents_mean(e, p, i, ptp_of, ptp_term, pAcc);
}

/* 10.1: the mean rating of the opponents met over the board, one term per
** game, rounded half up; NULL with no rated opponent. */
void tb_fide_aro(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  aro_cut(e, p, i, 0, 0, pAcc);
}

/*
** RTNG (2026 rules): the player's own rating, higher first, from the
** ratings table; an unrated player counts the option unrated, or gets NULL
** (ranked last).
*/
void tb_fide_rating(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  i64 r;
  if (!rating_of(e, p, i, &r)) {
    pAcc->bNull = 1;
    return;
  }
  tb_acc_add(pAcc, r, 1);
}
