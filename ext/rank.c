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
** Some tiebreakers exist only among tied players (head-to-head, direct
** encounter).  Players are sorted by the tiebreakers before such a one;
** each run of players still tied forms a group, whose values are computed
** for that group alone, and the run is then sorted from there on.
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
  double *aValue;               /* fast values [player * nTb + tiebreaker] */
  unsigned char *aNull;
  TbFrac *aExact[TB_MAX_TIEBREAKERS];     /* per policy tiebreaker, lazily */
  unsigned char *aDone[TB_MAX_TIEBREAKERS]; /* 0: not yet, 1: done, 2: NULL */
  int *aTmp;                    /* scratch for the merge sort */
  int rc;                       /* first error met while comparing */
} RankCtx;

static int tb_index(const TbTiebreaker *t) {
  return (int)(t - tb_aTiebreaker);
}

/* Exact values of the policy's k-th tiebreaker: allocated on first use. */
static int exact_alloc(RankCtx *c, int k) {
  sqlite3_uint64 n = (sqlite3_uint64)c->pEvent->nPlayer + 1;
  if (c->aExact[k]) return SQLITE_OK;
  if (c->rc) return c->rc;
  c->aExact[k] = sqlite3_malloc64(sizeof(TbFrac) * n);
  c->aDone[k] = sqlite3_malloc64(n);
  if (c->aExact[k] == 0 || c->aDone[k] == 0) {
    sqlite3_free(c->aExact[k]);
    sqlite3_free(c->aDone[k]);
    c->aExact[k] = 0;
    c->aDone[k] = 0;
    return c->rc = SQLITE_NOMEM;
  }
  memset(c->aDone[k], 0, (size_t)n);
  return SQLITE_OK;
}

/* The exact value of player i for the policy's k-th tiebreaker. */
static const TbFrac *exact_value(RankCtx *c, int k, int i, int *pbNull) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  if (exact_alloc(c, k) != SQLITE_OK) return 0;
  if (c->aDone[k][i] == 0) {
    TbAcc acc;
    tb_acc_init(&acc, 1);
    t->xValue(c->pEvent, &c->pPolicy->aParams[k], i, &acc);
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

/* The exact value of player i on the k-th tiebreaker; NULL counts as 0. */
static int exact_or_zero(RankCtx *c, int k, int i, int bNull, TbFrac *pOut) {
  const TbFrac *q;
  int bExactNull;
  pOut->num = 0;
  pOut->den = 1;
  if (bNull) return SQLITE_OK;
  if (c->pPolicy->aTiebreaker[k]->xGroup) {
    if (c->aExact[k] == 0) return SQLITE_NOMEM; /* reported by c->rc */
    *pOut = c->aExact[k][i];
    return SQLITE_OK;
  }
  q = exact_value(c, k, i, &bExactNull);
  if (q == 0) return SQLITE_NOMEM;
  if (!bExactNull) *pOut = *q;
  return SQLITE_OK;
}

/*
** <0 when player a ranks above b on the policy's k-th tiebreaker, >0 when
** below, 0 when exactly equal.  A NULL value (an average over no
** opponent) ranks as 0, as the documentation says.
*/
static int compare_on(RankCtx *c, int k, int a, int b) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  int j = tb_index(t), nTb = tb_nTiebreaker;
  int bNullA = c->aNull[a * nTb + j], bNullB = c->aNull[b * nTb + j];
  double ra = bNullA ? 0.0 : c->aValue[a * nTb + j];
  double rb = bNullB ? 0.0 : c->aValue[b * nTb + j];
  int sign = t->bLowerIsBetter ? -1 : 1;
  int cmp;

  if (bNullA && bNullB) return 0;
  if (!t->xGroup &&
      fabs(ra - rb) > TB_NEAR * fmax(1.0, fmax(fabs(ra), fabs(rb)))) {
    cmp = ra < rb ? -1 : 1;
  } else {
    /* too close for doubles, or a group value: exact from the start */
    TbFrac qa, qb;
    if (exact_or_zero(c, k, a, bNullA, &qa) != SQLITE_OK ||
        exact_or_zero(c, k, b, bNullB, &qb) != SQLITE_OK) {
      return 0;
    }
    cmp = tb_frac_cmp(&qa, &qb);
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

/* Compare on tiebreakers [k0, k1); with bKeys, then by player id. */
static int compare_players(RankCtx *c, int k0, int k1, int bKeys, int a, int b) {
  int k;
  for (k = k0; k < k1; k++) {
    int cmp = compare_on(c, k, a, b);
    if (cmp) return cmp;
  }
  if (!bKeys) return 0;
  return compare_keys(&c->pEvent->aPlayer[a].key, &c->pEvent->aPlayer[b].key);
}

/* Stable merge sort of n player indexes on tiebreakers [k0, k1). */
static void sort_players(RankCtx *c, int k0, int k1, int *a, int n) {
  int w, i;
  int *aTmp = c->aTmp;
  for (w = 1; w < n; w *= 2) {
    for (i = 0; i < n; i += 2 * w) {
      int lo = i, mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
      int l = lo, r = mid, o = lo;
      while (l < mid && r < hi) {
        aTmp[o++] = compare_players(c, k0, k1, 1, a[r], a[l]) < 0 ? a[r++] : a[l++];
      }
      while (l < mid) aTmp[o++] = a[l++];
      while (r < hi) aTmp[o++] = a[r++];
    }
    memcpy(a, aTmp, sizeof(int) * (size_t)n);
  }
}

/* Values of the policy's k-th (group) tiebreaker for one tied group. */
static int group_values(RankCtx *c, int k, const int *a, int n) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  int j = tb_index(t), i;
  TbFrac *aOut = sqlite3_malloc64(sizeof(TbFrac) * (sqlite3_uint64)(n + 1));
  if (aOut == 0 || exact_alloc(c, k) != SQLITE_OK) {
    sqlite3_free(aOut);
    return c->rc = SQLITE_NOMEM;
  }
  t->xGroup(c->pEvent, &c->pPolicy->aParams[k], a, n, aOut);
  for (i = 0; i < n; i++) {
    c->aExact[k][a[i]] = aOut[i];
    c->aDone[k][a[i]] = 1;
    c->aValue[a[i] * tb_nTiebreaker + j] = tb_frac_double(&aOut[i]);
    c->aNull[a[i] * tb_nTiebreaker + j] = 0;
  }
  sqlite3_free(aOut);
  return SQLITE_OK;
}

/*
** Sort a[0..n), players already tied on the tiebreakers before k0: by the
** per-player tiebreakers up to the next group one, then each still-tied
** run by that group tiebreaker and those after it.
*/
static int rank_range(RankCtx *c, int k0, int bGroupDone, int *a, int n) {
  int nTb = c->pPolicy->nTiebreaker, g, s, e;
  /* bGroupDone: k0 is a group tiebreaker whose values this run has */
  for (g = k0 + bGroupDone; g < nTb && c->pPolicy->aTiebreaker[g]->xGroup == 0; g++) {
  }
  sort_players(c, k0, g, a, n);
  if (g == nTb || c->rc) return c->rc;
  for (s = 0; s < n; s = e) {
    for (e = s + 1; e < n && compare_players(c, k0, g, 0, a[s], a[e]) == 0; e++) {
    }
    if (group_values(c, g, a + s, e - s) != SQLITE_OK) return c->rc;
    if (rank_range(c, g, 1, a + s, e - s) != SQLITE_OK) return c->rc;
  }
  return c->rc;
}

/* Which params a column is computed with: its slot's, or the policy's. */
static const TbParams *column_params(const TbPolicy *pPolicy, int j,
                                     int *pbShown) {
  int k;
  for (k = 0; k < pPolicy->nTiebreaker; k++) {
    if (tb_index(pPolicy->aTiebreaker[k]) == j) {
      *pbShown = 1;
      return &pPolicy->aParams[k];
    }
  }
  for (k = 0; k < pPolicy->nDisplay; k++) {
    if (tb_index(pPolicy->aDisplay[k]) == j) *pbShown = 1;
  }
  return &pPolicy->params;
}

/* Fast values of the policy's tiebreakers for every player (the columns);
** the others, and group tiebreakers until a group reaches them, are NULL. */
static void fast_values(const TbEvent *e, const TbPolicy *pPolicy,
                        double *aValue, unsigned char *aNull) {
  int i, j;
  for (j = 0; j < tb_nTiebreaker; j++) {
    int bShown = 0;
    const TbParams *p = column_params(pPolicy, j, &bShown);
    for (i = 0; i < e->nPlayer; i++) {
      TbAcc acc;
      aValue[i * tb_nTiebreaker + j] = 0.0;
      aNull[i * tb_nTiebreaker + j] = 1;
      if (!bShown || tb_aTiebreaker[j].xValue == 0) continue;
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
  RankCtx c;
  int i, k;

  memset(pOut, 0, sizeof(*pOut));
  memset(&c, 0, sizeof(c));
  pOut->nPlayer = pEvent->nPlayer;
  pOut->nPointScale = pPolicy->params.nPointScale;
  pOut->aOrder = sqlite3_malloc64(sizeof(int) * (n + 1));
  pOut->aRank = sqlite3_malloc64(sizeof(int) * (n + 1));
  pOut->aDecidedBy = sqlite3_malloc64(sizeof(TbTiebreaker *) * (n + 1));
  pOut->aValue = sqlite3_malloc64(sizeof(double) * (nVal + 1));
  pOut->aNull = sqlite3_malloc64(nVal + 1);
  c.aTmp = sqlite3_malloc64(sizeof(int) * (n + 1));
  if (!pOut->aOrder || !pOut->aRank || !pOut->aDecidedBy || !pOut->aValue ||
      !pOut->aNull || !c.aTmp) {
    sqlite3_free(c.aTmp);
    tb_standings_free(pOut);
    return SQLITE_NOMEM;
  }
  fast_values(pEvent, pPolicy, pOut->aValue, pOut->aNull);

  c.pEvent = pEvent;
  c.pPolicy = pPolicy;
  c.aValue = pOut->aValue;
  c.aNull = pOut->aNull;
  for (i = 0; i < pEvent->nPlayer; i++) pOut->aOrder[i] = i;
  rank_range(&c, 0, 0, pOut->aOrder, pEvent->nPlayer);

  for (i = 0; i < pEvent->nPlayer && c.rc == SQLITE_OK; i++) {
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

  sqlite3_free(c.aTmp);
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
