/*
** rank.c: ordering players by a policy's tiebreakers, exactly.
**
** Every tiebreaker is first computed in double precision for every player.
** Two doubles further apart than any rounding error can explain order the
** players as their exact values would.  When they are closer than that, the
** two players' exact rational values are computed (once, then cached) and
** compared instead.  So an exact tie is always a tie, and a real difference,
** however small, always decides: no floating-point noise ranks anyone.
**
** Players equal on every tiebreaker share a rank, competition style
** (1, 2, 2, 4); within such a tie they are listed by player id.
*/
#include "tiebreak_int.h"

#include <math.h>
#include <string.h>

/*
** Doubles closer than this (relative) are compared exactly.  A mean of k
** floored fractions carries a relative error below k * 2^-52; 1e-9 leaves
** room for millions of terms.
*/
#define TB_NEAR 1e-9

typedef struct RankCtx {
  const TbEvent *pEvent;
  const TbPolicy *pPolicy;
  const double *aValue;         /* fast values [player * nTb + tiebreaker] */
  const unsigned char *aNull;
  TbFrac *aExact[TB_MAX_TIEBREAKERS];     /* per policy tiebreaker, lazily */
  unsigned char *aDone[TB_MAX_TIEBREAKERS]; /* 0: not yet, 1: done, 2: NULL */
  int rc;                       /* first error met while comparing */
} RankCtx;

static int tb_index(const TbTiebreaker *t) {
  return (int)(t - tb_aTiebreaker);
}

/* The exact value of player i for the policy's k-th tiebreaker. */
static const TbFrac *exact_value(RankCtx *c, int k, int i, int *pbNull) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  if (c->aExact[k] == 0) {
    sqlite3_uint64 n = (sqlite3_uint64)c->pEvent->nPlayer;
    c->aExact[k] = sqlite3_malloc64(sizeof(TbFrac) * n);
    c->aDone[k] = sqlite3_malloc64(n);
    if (c->aExact[k] == 0 || c->aDone[k] == 0) {
      c->rc = SQLITE_NOMEM;
      return 0;
    }
    memset(c->aDone[k], 0, (size_t)n);
  }
  if (c->aDone[k][i] == 0) {
    TbAcc acc;
    tb_acc_init(&acc, 1);
    t->xValue(c->pEvent, &c->pPolicy->params, i, &acc);
    if (acc.bOverflow) {
      c->rc = SQLITE_TOOBIG;
      return 0;
    }
    c->aExact[k][i] = acc.q;
    c->aDone[k][i] = acc.bNull ? 2 : 1;
  }
  *pbNull = c->aDone[k][i] == 2;
  return &c->aExact[k][i];
}

/*
** <0 when player a ranks above b on the policy's k-th tiebreaker, >0 when
** below, 0 when exactly equal.  NULL (no value) ranks below any value.
*/
static int compare_on(RankCtx *c, int k, int a, int b) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  int j = tb_index(t), nTb = tb_nTiebreaker;
  int bNullA = c->aNull[a * nTb + j], bNullB = c->aNull[b * nTb + j];
  double ra = c->aValue[a * nTb + j], rb = c->aValue[b * nTb + j];
  int sign = t->bLowerIsBetter ? -1 : 1;
  int cmp;

  if (bNullA || bNullB) return bNullA == bNullB ? 0 : (bNullA ? 1 : -1);
  if (fabs(ra - rb) > TB_NEAR * fmax(1.0, fmax(fabs(ra), fabs(rb)))) {
    cmp = ra < rb ? -1 : 1;
  } else {
    const TbFrac *qa, *qb;
    qa = exact_value(c, k, a, &bNullA);
    if (qa == 0) return 0;
    qb = exact_value(c, k, b, &bNullB);
    if (qb == 0) return 0;
    cmp = tb_frac_cmp(qa, qb);
  }
  return -sign * cmp;
}

/* Order of player ids within a tie: integers first, then text, as SQLite. */
static int compare_keys(const TbKey *a, const TbKey *b) {
  int n, cmp;
  if (a->eType != b->eType) return a->eType == SQLITE_INTEGER ? -1 : 1;
  if (a->eType == SQLITE_INTEGER) return a->i < b->i ? -1 : a->i > b->i;
  n = a->n < b->n ? a->n : b->n;
  cmp = memcmp(a->z, b->z, (size_t)n);
  return cmp ? cmp : a->n - b->n;
}

static int compare_players(RankCtx *c, int a, int b) {
  int k;
  for (k = 0; k < c->pPolicy->nTiebreaker; k++) {
    int cmp = compare_on(c, k, a, b);
    if (cmp) return cmp;
  }
  return compare_keys(&c->pEvent->aPlayer[a].key, &c->pEvent->aPlayer[b].key);
}

/* Stable merge sort of n player indexes, with aTmp as scratch space. */
static void sort_players(RankCtx *c, int *a, int *aTmp, int n) {
  int w, i;
  for (w = 1; w < n; w *= 2) {
    for (i = 0; i < n; i += 2 * w) {
      int lo = i, mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
      int l = lo, r = mid, o = lo;
      while (l < mid && r < hi) {
        aTmp[o++] = compare_players(c, a[r], a[l]) < 0 ? a[r++] : a[l++];
      }
      while (l < mid) aTmp[o++] = a[l++];
      while (r < hi) aTmp[o++] = a[r++];
    }
    memcpy(a, aTmp, sizeof(int) * (size_t)n);
  }
}

/* Fast values of every tiebreaker for every player (the output columns). */
static void fast_values(const TbEvent *e, const TbParams *p, double *aValue,
                        unsigned char *aNull) {
  int i, j;
  for (i = 0; i < e->nPlayer; i++) {
    for (j = 0; j < tb_nTiebreaker; j++) {
      TbAcc acc;
      tb_acc_init(&acc, 0);
      tb_aTiebreaker[j].xValue(e, p, i, &acc);
      aValue[i * tb_nTiebreaker + j] = acc.r;
      aNull[i * tb_nTiebreaker + j] = (unsigned char)acc.bNull;
    }
  }
}

void tb_standings_free(TbStandings *p) {
  sqlite3_free(p->aOrder);
  sqlite3_free(p->aRank);
  sqlite3_free(p->aDecidedBy);
  sqlite3_free(p->aValue);
  sqlite3_free(p->aNull);
  memset(p, 0, sizeof(*p));
}

int tb_rank(const TbEvent *pEvent, const TbPolicy *pPolicy, TbStandings *pOut,
            char **pzErr) {
  sqlite3_uint64 n = (sqlite3_uint64)pEvent->nPlayer;
  sqlite3_uint64 nVal = n * (sqlite3_uint64)tb_nTiebreaker;
  int *aTmp;
  RankCtx c;
  int i, k;

  memset(pOut, 0, sizeof(*pOut));
  memset(&c, 0, sizeof(c));
  pOut->nPlayer = pEvent->nPlayer;
  pOut->aOrder = sqlite3_malloc64(sizeof(int) * (n + 1));
  pOut->aRank = sqlite3_malloc64(sizeof(int) * (n + 1));
  pOut->aDecidedBy = sqlite3_malloc64(sizeof(TbTiebreaker *) * (n + 1));
  pOut->aValue = sqlite3_malloc64(sizeof(double) * (nVal + 1));
  pOut->aNull = sqlite3_malloc64(nVal + 1);
  aTmp = sqlite3_malloc64(sizeof(int) * (n + 1));
  if (!pOut->aOrder || !pOut->aRank || !pOut->aDecidedBy || !pOut->aValue ||
      !pOut->aNull || !aTmp) {
    sqlite3_free(aTmp);
    tb_standings_free(pOut);
    return SQLITE_NOMEM;
  }
  fast_values(pEvent, &pPolicy->params, pOut->aValue, pOut->aNull);

  c.pEvent = pEvent;
  c.pPolicy = pPolicy;
  c.aValue = pOut->aValue;
  c.aNull = pOut->aNull;
  for (i = 0; i < pEvent->nPlayer; i++) pOut->aOrder[i] = i;
  sort_players(&c, pOut->aOrder, aTmp, pEvent->nPlayer);

  for (i = 0; i < pEvent->nPlayer; i++) {
    pOut->aRank[i] = i + 1;
    pOut->aDecidedBy[i] = 0;
    if (i == 0) continue;
    for (k = 0; k < pPolicy->nTiebreaker; k++) {
      if (compare_on(&c, k, pOut->aOrder[i - 1], pOut->aOrder[i])) break;
    }
    if (k < pPolicy->nTiebreaker) {
      pOut->aDecidedBy[i] = pPolicy->aTiebreaker[k];
    } else {
      pOut->aRank[i] = pOut->aRank[i - 1];
    }
  }

  sqlite3_free(aTmp);
  for (k = 0; k < TB_MAX_TIEBREAKERS; k++) {
    sqlite3_free(c.aExact[k]);
    sqlite3_free(c.aDone[k]);
  }
  if (c.rc == SQLITE_TOOBIG) {
    *pzErr = sqlite3_mprintf("exact arithmetic overflow: the tiebreaker values "
                             "of this event are too fine to compare exactly");
    c.rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (c.rc != SQLITE_OK) tb_standings_free(pOut);
  return c.rc;
}
