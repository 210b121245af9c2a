/*
** tiebreakers/pokemon.c: tiebreakers of the Play! Pokemon Tournament Rules Handbook
** as its software (TOM) computes them.
**
**   win_pct       a player's own win %, as their opponents see it
**   owp           opponents' win % ("Resistance"): mean of the opponents'
**                 win %
**   oowp          opponents' opponents' win %: mean of the opponents' owp
**   head_to_head  between exactly two tied players who met
**   registration_order  then the players table's order (TOM: its file's)
**   active        1 unless dropped (policy pokemon_2023 ranks by it after
**                 match points, as RK9 did April-September 2023)
**
** Own win %: (wins + tie credit x ties) / rounds, counting only rounds
** against an opponent (a bye is removed from both sides), at least the
** floor (25 %), and at most the cap (75 %) for a player who dropped.
**
** A late loss (a round lost with no opponent: a late entry's missed round)
** counts, with option late_loss (the default, as RK9 publishes), as a round
** lost in the player's own win %, and as an opponent at the floor in the
** player's owp and oowp.  A player with no round at all (a registered
** no-show) is shown at the floor: win %, owp and oowp.
**
** Dropped players are frozen (option freeze_drops): everything about a
** player who left after round L is computed as in the standings after
** round L.  Their own win % cannot change after L anyway; their owp and
** oowp read their opponents' records as of L.  A player's owp is one
** number, so others' oowp average the frozen value too.  See
** docs/policy-pokemon.md.
*/
#include "../tiebreak_int.h"
#include "tiebreakers.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The round a player's values are taken at, within standings as of iRound:
** the round they dropped after (iLast) when drops are frozen, else iRound. */
static int frozen_at(const TbParams *p, int iLast, int iRound) {
  return p->bFreezeDrops && iLast < iRound ? iLast : iRound;
}
static int frozen_round(const TbEvent *e, const TbParams *p, int i, int iRound) {
  return frozen_at(p, e->aPlayer[i].rec.iLastRound, iRound);
}

/* Does seat s count in its player's win %: a round against an opponent,
** or with late_loss a round lost without one. */
static int in_win_pct(const TbSeat *s, int bLateLoss) {
  return s->iOpp >= 0 || (bLateLoss && s->eOutcome == TB_LOSS);
}

/* Is seat s a late loss that counts as an opponent at the floor? */
static int is_late(const TbSeat *s, int bLateLoss) {
  return bLateLoss && s->iOpp < 0 && s->eOutcome == TB_LOSS;
}

/*
** What the win %s as of a round need, kept while an event is ranked (in
** the term cache, tb_terms_extra).  With frozen drops an owp is asked as of
** an earlier round than the player's last: a dropped player's own (as of
** their drop), and player o's in the oowp of each opponent who dropped
** before o's last round.  Each player's such rounds are listed
** (aQRound[aQStart[o] .. aQStart[o+1]), ascending): the queries.
**
** Their fast values come from one sweep of the queries in round order
** (pk_sweep): each player's counts grow seat by seat up to the round asked,
** so at a query every opponent's win % as of its round is one read.  All
** of them cost a sort of the queries' rounds and each seat counted once,
** plus one read per opponent still playing at each query (the opponents
** gone by then are summed once).  Exact values (for the few players whose
** doubles are too close to order) are computed when asked, player by
** player (pk_exact_sweep), from per-seat counts filled then.  Events of up
** to about 40 rounds do all of this in whole numbers instead (see "Whole
** numbers" below): one sum per owp, exact, and the doubles from it.
*/
typedef struct PkCount {
  int nPlayed, nWin, nTie;
} PkCount;

/* A fast value kept: r + lo within err; err < 0: NULL. */
typedef struct PkFast {
  double r, lo, err;
} PkFast;

/* The parameters of a win % as 64-bit integers, when they fit (bFast). */
typedef struct PkRule {
  int bFast;
  i64 nTieNum, nTieDen, nFloorNum, nFloorDen, nCapNum, nCapDen;
} PkRule;

/* An owp in integers: s / (n x the cache's nL); n == 0: NULL.  The sum is
** kept as two 32-bit halves (pk_sum_set, pk_sum_s): 12 bytes an owp, not
** the 16 of an aligned 64-bit field (265,176 owps asked at 100,000 players). */
typedef struct PkSum {
  unsigned int aHalf[2];      /* s, low half first */
  int n;
} PkSum;

static void pk_sum_set(PkSum *v, i64 s, int n) {
  sqlite3_uint64 u = (sqlite3_uint64)s;
  v->aHalf[0] = (unsigned int)u;
  v->aHalf[1] = (unsigned int)(u >> 32);
  v->n = n;
}

static i64 pk_sum_s(const PkSum *v) {
  return (i64)(((sqlite3_uint64)v->aHalf[1] << 32) | v->aHalf[0]);
}

typedef struct PkCache {
  TbParams params;            /* the queries' values are under these ... */
  const TbParams *pParams;    /* ... known equal at this address */
  PkRule rule;                /* and as integers */
  PkCount *aFinal;            /* per player: every round's counts */
  unsigned char *aCountDone;  /* per player: its aCount filled */
  PkCount *aCount;            /* per seat of aSeat, up to it: NULL until an
                              ** exact value needs it */
  int *aQStart;               /* per player, and one past the last */
  int *aQRound;
  int nQ;                     /* queries: aQRound[0 .. nQ) */
  int nPlayer;                /* players aQStart covers */
  PkFast *aQFast;             /* per query: the owp as of its round */
  PkFast *aTerm;              /* per player: the win % so far while
                              ** sweeping (uncapped), then at the end */
  PkFast *aOwp;               /* per player: the owp (frozen: its query's) */
  PkFast floorTerm;           /* the floor as a term: a late loss's opponent */
  int *aCounted;              /* while sweeping, per player: seats counted */
  int *aNextRound;            /* ... and the round of the next (INT_MAX) */
  TbAcc *aQExact;             /* per query, exact: NULL until asked */
  unsigned char *aQDone;      /* per player: its aQExact computed */
  /* Whole numbers (nL != 0): every win % is w / nL exactly, so an owp is
  ** a sum of integers, exact and cheap, and replaces all of the above but
  ** aFinal, aQStart, aQRound. */
  i64 nL;                     /* a common multiple of every denominator */
  i64 nFloorW, nCapW;         /* the floor and the cap, times nL */
  i64 *aUnit;                 /* [k]: nL / (k x tie den), k rounds played */
  PkSum *aQSum;               /* per query: the owp as of its round */
  PkSum *aOwpSum;             /* per player: the owp (frozen: its query's) */
  int *aLast;                 /* per player: the last round, compactly (an
                              ** oowp reads its opponents' at random); NULL:
                              ** read from the records */
} PkCache;

static const char pkKey = 0;  /* its key in the term cache */

static void pk_free(void *pArg) {
  PkCache *c = (PkCache *)pArg;
  int i, q;
  if (c == 0) return;
  for (i = 0; c->aQDone && i < c->nPlayer; i++) {
    for (q = c->aQStart[i]; c->aQDone[i] && q < c->aQStart[i + 1]; q++) {
      tb_acc_clear(&c->aQExact[q]);
    }
  }
  sqlite3_free(c->aQExact);
  sqlite3_free(c->aQDone);
  sqlite3_free(c->aQSum);
  sqlite3_free(c->aOwpSum);
  sqlite3_free(c->aLast);
  sqlite3_free(c->aUnit);
  sqlite3_free(c->aQFast);
  sqlite3_free(c->aTerm);
  sqlite3_free(c->aOwp);
  sqlite3_free(c->aFinal);
  sqlite3_free(c->aCount);
  sqlite3_free(c->aCountDone);
  sqlite3_free(c->aQStart);
  sqlite3_free(c->aQRound);
  sqlite3_free(c);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sort a[0..n) and drop repeats; returns the count left.  A player's list
** is short (one entry per opponent at most): insertion sort up to 32. */
static int sort_unique(int *a, int n) {
  int i, h;
  if (n < 2) return n;
  if (n > 32) {
    qsort(a, (size_t)n, sizeof(int), cmp_int);
  } else {
    for (i = 1; i < n; i++) {
      int v = a[i], j = i;
      while (j > 0 && a[j - 1] > v) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = v;
    }
  }
  for (i = h = 1; i < n; i++) {
    if (a[i] != a[h - 1]) a[h++] = a[i];
  }
  return h;
}

/* How many players (or queries) ahead the loops that read opponents at
** random hint their reads: the misses of several players overlap. */
#define PK_AHEAD 16

/* A hint that the entries of nSize bytes of aBase, per player, of the
** opponents of seats a[0 .. nSeat) up to round iRound are read soon. */
static void prefetch_opponents(const TbSeat *a, int nSeat, int iRound,
                               const void *aBase, size_t nSize) {
  int j;
  for (j = 0; j < nSeat && a[j].iRound <= iRound; j++) {
    if (a[j].iOpp >= 0) TB_PREFETCH((const char *)aBase + (size_t)a[j].iOpp * nSize);
  }
}

/* The rounds at which each player's owp is asked before their last: the
** drop rounds of opponents gone earlier, and their own if they dropped. */
static int pk_queries(PkCache *c, const TbEvent *e) {
  int i, j, n = 0, rc = SQLITE_OK;
  int *aShrunk, *aLast;
  c->aQStart = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nPlayer + 1));
  c->aQRound = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nSeat + e->nPlayer + 1));
  /* every player's last round, compactly: read once per seat, at random */
  aLast = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nPlayer + 1));
  if (c->aQStart == 0 || c->aQRound == 0 || aLast == 0) {
    sqlite3_free(aLast);
    return SQLITE_NOMEM;
  }
  for (i = 0; i < e->nPlayer; i++) aLast[i] = e->aPlayer[i].rec.iLastRound;
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    const TbSeat *a = &e->aSeat[pl->iSeat];
    int n0 = n, iLast = aLast[i];
    c->aQStart[i] = n;
    if (!c->params.bFreezeDrops) continue;
    if ((rc = tb_poll(e->pProbe, 1 + pl->nSeat)) != SQLITE_OK) break;
    if (i + PK_AHEAD < e->nPlayer) {
      const TbPlayer *pAhead = &e->aPlayer[i + PK_AHEAD];
      prefetch_opponents(&e->aSeat[pAhead->iSeat], pAhead->nSeat, INT_MAX, aLast,
                         sizeof(int));
    }
    for (j = 0; j < pl->nSeat; j++) {
      int iOpp = a[j].iOpp;
      if (iOpp < 0) continue;
      if (aLast[iOpp] < iLast) c->aQRound[n++] = aLast[iOpp];
    }
    if (iLast < e->iLastRound) c->aQRound[n++] = iLast;
    n = n0 + sort_unique(&c->aQRound[n0], n - n0);
  }
  sqlite3_free(aLast);
  if (rc != SQLITE_OK) return rc;
  c->aQStart[e->nPlayer] = n;
  c->nQ = n;
  c->nPlayer = e->nPlayer;
  /* room was made for a query per seat and player */
  aShrunk = sqlite3_realloc64(c->aQRound, sizeof(int) * ((sqlite3_uint64)n + 1));
  if (aShrunk) c->aQRound = aShrunk;
  return SQLITE_OK;
}

/*
** The order of n items by their round, an int at aBase + k * nStride from 1
** to 10^9: a stable radix sort, one pass per 11 bits that some round uses.
** NULL: no memory.
*/
static int *order_by_round(const void *aBase, size_t nStride, int n) {
#define PK_RADIX_BITS 11
  int *aOrder = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)n + 1));
  int *aTmp = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)n + 1));
  int aBucket[1 << PK_RADIX_BITS];
  int i, iMax = 0, shift;
  const char *z = (const char *)aBase;
#define PK_ROUND(k) (*(const int *)(z + (size_t)(k) * nStride))
  if (aOrder == 0 || aTmp == 0) {
    sqlite3_free(aOrder);
    sqlite3_free(aTmp);
    return 0;
  }
  for (i = 0; i < n; i++) {
    aOrder[i] = i;
    if (PK_ROUND(i) > iMax) iMax = PK_ROUND(i);
  }
  for (shift = 0; shift < 31 && (iMax >> shift) != 0; shift += PK_RADIX_BITS) {
    int *t, sum = 0;
    memset(aBucket, 0, sizeof(aBucket));
    for (i = 0; i < n; i++) {
      aBucket[(PK_ROUND(aOrder[i]) >> shift) & ((1 << PK_RADIX_BITS) - 1)]++;
    }
    for (i = 0; i < (1 << PK_RADIX_BITS); i++) {
      int k = aBucket[i];
      aBucket[i] = sum;
      sum += k;
    }
    for (i = 0; i < n; i++) {
      int k = aOrder[i];
      aTmp[aBucket[(PK_ROUND(k) >> shift) & ((1 << PK_RADIX_BITS) - 1)]++] = k;
    }
    t = aOrder;
    aOrder = aTmp;
    aTmp = t;
  }
#undef PK_ROUND
  sqlite3_free(aTmp);
  return aOrder;
}

/* Whether the values kept were computed under p. */
static int pk_same_params(PkCache *c, const TbParams *p) {
  if (c->pParams == p) return 1;
  if (memcmp(&c->params, p, sizeof(*p)) != 0) return 0;
  c->pParams = p;
  return 1;
}

/* A fraction whose parts are 64-bit integers. */
static int frac_fits64(const TbFrac *f) {
  return f->num >= -((i128)1 << 63) && f->num < ((i128)1 << 63) &&
         f->den < ((i128)1 << 63);
}

static void pk_rule(PkRule *r, const TbParams *p) {
  /* counts below 2^31 times a tie credit's parts of 31 bits fit 63 bits,
  ** and their comparisons with 64-bit fractions 126 */
  r->bFast = p->tieCredit.den <= ((i128)1 << 31) && frac_fits64(&p->floor) &&
             frac_fits64(&p->cap);
  r->nTieNum = (i64)p->tieCredit.num;
  r->nTieDen = (i64)p->tieCredit.den;
  r->nFloorNum = (i64)p->floor.num;
  r->nFloorDen = (i64)p->floor.den;
  r->nCapNum = (i64)p->cap.num;
  r->nCapDen = (i64)p->cap.den;
}

/* The win % of n (n.nPlayed > 0): (wins + tie credit x ties) / rounds
** against an opponent, at least the floor, at most the cap when bCap. */
static TbFrac pct_of(const PkRule *r, const TbParams *p, PkCount n, int bCap) {
  TbFrac f;
  if (r->bFast) {
    i64 num = n.nWin * r->nTieDen + n.nTie * r->nTieNum;
    i64 den = n.nPlayed * r->nTieDen;
    if ((i128)num * r->nFloorDen < (i128)r->nFloorNum * den) return p->floor;
    if (bCap && (i128)num * r->nCapDen > (i128)r->nCapNum * den) return p->cap;
    f.num = num;
    f.den = den;
    return f;
  }
  /* a tie credit is a fraction of 64-bit terms in [0, 1]: 128 bits hold
  ** counts below 2^31 times either part, and tb_frac_cmp compares any two
  ** such fractions exactly */
  f.num = (i128)n.nWin * p->tieCredit.den + (i128)n.nTie * p->tieCredit.num;
  f.den = (i128)n.nPlayed * p->tieCredit.den;
  if (tb_frac_cmp(&f, &p->floor) < 0) return p->floor;
  if (bCap && tb_frac_cmp(&f, &p->cap) > 0) return p->cap;
  return f;
}

/* Into pAcc, the win % of n; returns 0 for no round (no win %). */
static int add_counts_pct(TbAcc *pAcc, const PkRule *r, const TbParams *p,
                          PkCount n, int bCap) {
  TbFrac f;
  if (n.nPlayed == 0) return 0;
  f = pct_of(r, p, n, bCap);
  tb_acc_add_frac(pAcc, &f);
  return 1;
}

/* f as a kept term: what tb_acc_add_frac would add. */
static void frac_term(PkFast *pOut, const TbFrac *f) {
  if (frac_fits64(f)) {
    tb_quotient_dd((i64)f->num, (i64)f->den, &pOut->r, &pOut->lo, &pOut->err);
  } else {
    pOut->r = (double)f->num / (double)f->den;
    pOut->lo = 0.0;
    pOut->err = __builtin_fabs(pOut->r) * 0x1p-50;
  }
}

/* The win % of n as a kept term (err < 0: none). */
static void pct_term(PkFast *pOut, const PkRule *r, const TbParams *p,
                     PkCount n, int bCap) {
  TbFrac f;
  if (n.nPlayed == 0) {
    pOut->r = pOut->lo = 0.0;
    pOut->err = -1.0;
    return;
  }
  f = pct_of(r, p, n, bCap);
  frac_term(pOut, &f);
}

/* Capped as of iRound: gone before it, dropped (not cut, nor at the end
** of their division). */
static int capped_at(const TbEvent *e, int i, int iRound) {
  return e->aPlayer[i].rec.iLastRound < iRound && tb_dropped(e, i);
}

/* Count one seat's round: against an opponent, won or tied. */
static void count_round(PkCount *n, int eOutcome) {
  n->nPlayed++;
  n->nWin += eOutcome == TB_WIN;
  n->nTie += eOutcome == TB_DRAW;
}

/* Add a kept term to the fast pAcc (none: nothing). */
static void add_kept(TbAcc *pAcc, const PkFast *t) {
  if (t->err >= 0) tb_acc_add_dd(pAcc, t->r, t->lo, t->err);
}

/* aTerm[i].err when player i's counts have changed since it was made */
#define PK_STALE (-2.0)

/* Count one seat's round into player i's counts; the win % is made again
** when next read (a player's rounds are counted more often than read). */
static void sweep_count(PkCache *c, int i, int eOutcome) {
  count_round(&c->aFinal[i], eOutcome);
  c->aTerm[i].err = PK_STALE;
}

/* Count player i's seats up to iRound into aFinal (the sweep's rounds only
** grow, so each seat is counted once). */
static void pk_advance(PkCache *c, const TbEvent *e, int i, int iRound) {
  const TbPlayer *pl;
  const TbSeat *a;
  int j;
  if (c->aNextRound[i] > iRound) return;
  pl = &e->aPlayer[i];
  a = &e->aSeat[pl->iSeat];
  for (j = c->aCounted[i]; j < pl->nSeat && a[j].iRound <= iRound; j++) {
    if (in_win_pct(&a[j], c->params.bLateLoss)) sweep_count(c, i, a[j].eOutcome);
  }
  c->aCounted[i] = j;
  c->aNextRound[i] = j < pl->nSeat ? a[j].iRound : INT_MAX;
}

/* Player i's uncapped win % as of the sweep's round. */
static const PkFast *sweep_term(PkCache *c, const PkRule *r, const TbParams *p,
                                int i) {
  if (c->aTerm[i].err == PK_STALE) pct_term(&c->aTerm[i], r, p, c->aFinal[i], 0);
  return &c->aTerm[i];
}

/*
** Where the sweep is in one player's owps (their queries come in round
** order): seats before iNext are taken; of their opponents, those gone
** before the last query's round have their final win % in settled (it
** stays so), the others are listed in the sweep's aLive at the player's
** seats, nLive of them.  Re-adding only those still playing keeps a
** player met by thousands, each gone after a round, linear.
*/
typedef struct PkOwner {
  PkFast settled;
  int iNext, nLive, nOpp;
} PkOwner;

/*
** The owp of player o as of iRound during the sweep: the mean of the
** opponents' win %s.  c->aTerm holds each player's uncapped win % as of
** iRound, c->aFinal their counts.
*/
static void owp_in_sweep(PkFast *pOut, PkCache *c, const PkRule *r,
                         const TbEvent *e, const TbParams *p, PkOwner *w,
                         int *aLive, int o, int iRound) {
  const TbPlayer *pl = &e->aPlayer[o];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  TbAcc acc, settled;
  int k, h, nLate = 0;
  for (; w->iNext < pl->nSeat && a[w->iNext].iRound <= iRound; w->iNext++) {
    if (a[w->iNext].iOpp < 0) {
      nLate += is_late(&a[w->iNext], p->bLateLoss);
      continue;
    }
    aLive[w->nLive++] = a[w->iNext].iOpp;
    w->nOpp++;
  }
  tb_acc_init(&acc, 0);
  tb_acc_init(&settled, 0);
  settled.r = w->settled.r;
  settled.lo = w->settled.lo;
  settled.err = w->settled.err;
  for (w->nOpp += nLate; nLate > 0; nLate--) add_kept(&settled, &c->floorTerm);
  for (k = h = 0; k < w->nLive; k++) {
    int x = aLive[k];
    pk_advance(c, e, x, iRound);
    if (e->aPlayer[x].rec.iLastRound < iRound) {
      /* gone: these counts are final, and the cap applies from now on */
      PkFast t;
      pct_term(&t, r, p, c->aFinal[x], capped_at(e, x, iRound));
      add_kept(&settled, &t);
    } else {
      add_kept(&acc, sweep_term(c, r, p, x));
      aLive[h++] = x;
    }
  }
  w->nLive = h;
  w->settled.r = settled.r;
  w->settled.lo = settled.lo;
  w->settled.err = settled.err;
  tb_acc_add_dd(&acc, settled.r, settled.lo, settled.err);
  tb_acc_mean(&acc, w->nOpp);
  pOut->r = acc.r;
  pOut->lo = acc.lo;
  pOut->err = acc.bNull ? -1.0 : acc.err;
}


/* The query of player o's owp as of iRound, or -1. */
static int pk_find(const PkCache *c, int o, int iRound) {
  int lo = c->aQStart[o], hi = c->aQStart[o + 1] - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (c->aQRound[mid] == iRound) return mid;
    if (c->aQRound[mid] < iRound) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

/*
** Once the counts are final: every player's win % as the end sees it (the
** cap now applies to those gone before it), and from them every owp not
** frozen at a drop (those are queries): each term made once, not once per
** opponent.
*/
static int pk_final(PkCache *c, const PkRule *r, const TbEvent *e,
                    const TbParams *p) {
  int i, j, rc;
  for (i = 0; i < e->nPlayer; i++) {
    pk_advance(c, e, i, INT_MAX);
    if (capped_at(e, i, e->iLastRound)) {
      pct_term(&c->aTerm[i], r, p, c->aFinal[i], 1);
    } else {
      sweep_term(c, r, p, i);
    }
  }
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    const TbSeat *a = &e->aSeat[pl->iSeat];
    int iRound = frozen_round(e, p, i, e->iLastRound), nOpp = 0;
    TbAcc acc;
    if ((rc = tb_poll(e->pProbe, 1 + pl->nSeat)) != SQLITE_OK) return rc;
    if (iRound < e->iLastRound) {
      c->aOwp[i] = c->aQFast[pk_find(c, i, iRound)];
      continue;
    }
    tb_acc_init(&acc, 0);
    for (j = 0; j < pl->nSeat; j++) {
      if (a[j].iOpp >= 0) {
        add_kept(&acc, &c->aTerm[a[j].iOpp]);
      } else if (is_late(&a[j], p->bLateLoss)) {
        add_kept(&acc, &c->floorTerm);
      } else {
        continue;
      }
      nOpp++;
    }
    tb_acc_mean(&acc, nOpp);
    c->aOwp[i].r = acc.r;
    c->aOwp[i].lo = acc.lo;
    c->aOwp[i].err = acc.bNull ? -1.0 : acc.err;
  }
  return SQLITE_OK;
}

/*
** Every query's fast value, in one pass over the rounds asked in order:
** each player's seats are counted into aFinal (their counts so far, until
** the pass ends) up to the round of the query that reads them, so each
** seat once; then every owp (pk_final).
*/
static int pk_sweep(PkCache *c, const TbEvent *e, const TbParams *p) {
  sqlite3_uint64 nP = (sqlite3_uint64)e->nPlayer + 1;
  int *aOwner, *aQOrder, *aLive;
  int i, k, rc = SQLITE_OK;
  PkOwner *aState;
  PkRule r;
  pk_rule(&r, p);
  frac_term(&c->floorTerm, &p->floor);
  c->aQFast = sqlite3_malloc64(sizeof(PkFast) * ((sqlite3_uint64)c->nQ + 1));
  c->aTerm = sqlite3_malloc64(sizeof(PkFast) * nP);
  c->aOwp = sqlite3_malloc64(sizeof(PkFast) * nP);
  c->aCounted = sqlite3_malloc64(sizeof(int) * nP);
  c->aNextRound = sqlite3_malloc64(sizeof(int) * nP);
  aOwner = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)c->nQ + 1));
  aState = sqlite3_malloc64(sizeof(PkOwner) * nP);
  aLive = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nSeat + 1));
  aQOrder = order_by_round(c->aQRound, sizeof(int), c->nQ);
  if (c->aQFast == 0 || c->aTerm == 0 || c->aOwp == 0 || c->aCounted == 0 ||
      c->aNextRound == 0 || aOwner == 0 || aState == 0 || aLive == 0 ||
      aQOrder == 0) {
    rc = SQLITE_NOMEM;
    goto done;
  }
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    if ((rc = tb_poll(e->pProbe, 1 + c->aQStart[i + 1] - c->aQStart[i])) != SQLITE_OK) {
      goto done;
    }
    for (k = c->aQStart[i]; k < c->aQStart[i + 1]; k++) aOwner[k] = i;
    memset(&c->aFinal[i], 0, sizeof(PkCount));
    memset(&aState[i], 0, sizeof(PkOwner));
    pct_term(&c->aTerm[i], &r, p, c->aFinal[i], 0); /* none yet */
    c->aCounted[i] = 0;
    c->aNextRound[i] = pl->nSeat ? e->aSeat[pl->iSeat].iRound : INT_MAX;
  }
  for (k = 0; k < c->nQ; k++) {
    int q = aQOrder[k];
    i = aOwner[q];
    if ((rc = tb_poll(e->pProbe, 1 + e->aPlayer[i].nSeat)) != SQLITE_OK) goto done;
    owp_in_sweep(&c->aQFast[q], c, &r, e, p, &aState[i],
                 &aLive[e->aPlayer[i].iSeat], i, c->aQRound[q]);
  }
  rc = pk_final(c, &r, e, p);
done:
  sqlite3_free(c->aCounted);
  sqlite3_free(c->aNextRound);
  c->aCounted = c->aNextRound = 0;
  sqlite3_free(aOwner);
  sqlite3_free(aState);
  sqlite3_free(aLive);
  sqlite3_free(aQOrder);
  return rc;
}

/*
** Whole numbers.  A win % is (wins x tie den + ties x tie num) / (rounds x
** tie den), floored and capped: with nL a common multiple of every such
** denominator (rounds up to the most seats of any player) and of the
** floor's and the cap's, each win % is w / nL for a whole w <= nL.  An owp
** is then a sum of whole numbers over (opponents x nL): one addition a
** term, and the value exact, so neither the sweep's doubles nor an exact
** pass per player is needed.  Events whose denominators have no common
** multiple small enough (long events: 40-odd rounds) keep the fractions.
*/

/* Per player while sweeping in whole numbers: what a read of an opponent
** needs, in one place (opponents are read at random). */
typedef struct PkRec {
  int iNextRound;   /* round of the next seat to count (INT_MAX: none) */
  int iCounted;     /* seats counted */
  int iSeat, nSeat;
  int iLast;        /* the player's last round */
  int iNextQ;       /* by passes: the player's next query (aQRound) */
  PkCount n;        /* counts so far (36 bytes in all: fresh memory costs
                    ** more than working out the rest when read) */
} PkRec;

/* Per player with queries: as PkOwner, the settled sum in whole numbers,
** and the player's seats (read at every query, so kept on the same line). */
typedef struct PkOwnerInt {
  i64 settled;
  int iNext, nLive, nOpp;
  int iSeat, nSeat;
} PkOwnerInt;

static i64 gcd64(i64 a, i64 b) {
  while (b) {
    i64 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* lcm(a, b) when at most nMax, else 0 (a, b > 0). */
static i64 lcm_within(i64 a, i64 b, i64 nMax) {
  i64 g = gcd64(a, b);
  if (a / g > nMax / b) return 0;
  return a / g * b;
}

/* Set c->nL and the floor and cap in its units, or leave nL 0 (the
** fractions are kept): nMaxSeat is the most seats of any player.
** SQLITE_NOMEM: no room for aUnit. */
static int pk_whole_units(PkCache *c, int nMaxSeat) {
  const PkRule *r = &c->rule;
  /* every sum is at most seats x nL: below 2^62 */
  i64 nMax = ((i64)1 << 62) / ((i64)nMaxSeat + 1), L = 1;
  int k;
  c->nL = 0;
  if (!r->bFast || r->nTieDen <= 0 || r->nTieNum < 0 || r->nTieNum > r->nTieDen ||
      r->nFloorDen <= 0 || r->nFloorNum < 0 || r->nFloorNum > r->nFloorDen ||
      r->nCapDen <= 0 || r->nCapNum < 0 || r->nCapNum > r->nCapDen) {
    return SQLITE_OK;
  }
  for (k = 1; k <= nMaxSeat && L != 0; k++) {
    if (r->nTieDen > nMax / k) return SQLITE_OK;
    L = lcm_within(L, k * r->nTieDen, nMax);
  }
  if (L) L = lcm_within(L, r->nFloorDen, nMax);
  if (L) L = lcm_within(L, r->nCapDen, nMax);
  if (L == 0) return SQLITE_OK;
  /* a division per count otherwise, each time a player's counts change */
  c->aUnit = sqlite3_malloc64(sizeof(i64) * ((sqlite3_uint64)nMaxSeat + 1));
  if (c->aUnit == 0) return SQLITE_NOMEM;
  c->aUnit[0] = 0;
  for (k = 1; k <= nMaxSeat; k++) c->aUnit[k] = L / (k * r->nTieDen);
  c->nL = L;
  c->nFloorW = r->nFloorNum * (L / r->nFloorDen);
  c->nCapW = r->nCapNum * (L / r->nCapDen);
  return SQLITE_OK;
}

/* A win % times nL from its raw value, as pct_of floors and caps it. */
static i64 whole_pct(const PkCache *c, i64 nRaw, int bCap) {
  if (nRaw < c->nFloorW) return c->nFloorW;
  if (bCap && nRaw > c->nCapW) return c->nCapW;
  return nRaw;
}

/* Player x's win % times nL so far, before floor and cap (0: no round). */
static i64 rec_raw(const PkCache *c, const PkRec *x) {
  if (x->n.nPlayed == 0) return 0;
  /* nL is a multiple of nPlayed x tie den */
  return (x->n.nWin * c->rule.nTieDen + x->n.nTie * c->rule.nTieNum) *
         c->aUnit[x->n.nPlayed];
}

/* Count player x's seats up to iRound into its record (rounds only grow). */
static void rec_advance(const PkCache *c, const TbEvent *e, PkRec *x,
                        int iRound) {
  const TbSeat *a;
  PkCount n;
  int j;
  if (x->iNextRound > iRound) return;
  a = &e->aSeat[x->iSeat];
  n = x->n;
  for (j = x->iCounted; j < x->nSeat && a[j].iRound <= iRound; j++) {
    if (in_win_pct(&a[j], c->params.bLateLoss)) count_round(&n, a[j].eOutcome);
  }
  x->iCounted = j;
  x->iNextRound = j < x->nSeat ? a[j].iRound : INT_MAX;
  x->n = n;
}

/* Player o's seats up to iRound into its owner state: opponents into
** aLive (o's part of it), late losses settled at the floor. */
static void owner_take(const PkCache *c, const TbEvent *e, PkOwnerInt *w,
                       int *aLive, int iRound) {
  const TbSeat *a = &e->aSeat[w->iSeat];
  for (; w->iNext < w->nSeat && a[w->iNext].iRound <= iRound; w->iNext++) {
    const TbSeat *s = &a[w->iNext];
    if (s->iOpp >= 0) {
      aLive[w->nLive++] = s->iOpp;
    } else if (is_late(s, c->params.bLateLoss)) {
      w->settled += c->nFloorW; /* an opponent at the floor */
    } else {
      continue;
    }
    w->nOpp++;
  }
}

/* A query (player w as of iRound) in whole numbers, as owp_in_sweep, each
** opponent's counts advanced when read. */
static void owp_whole(PkCache *c, const TbEvent *e, PkRec *aRec,
                      PkOwnerInt *w, int *aLive, int iRound, PkSum *pOut) {
  i64 live = 0;
  int k, h;
  owner_take(c, e, w, aLive, iRound);
  for (k = h = 0; k < w->nLive; k++) {
    PkRec *x = &aRec[aLive[k]];
    rec_advance(c, e, x, iRound);
    if (x->iLast < iRound) {
      /* gone: these counts are final, and the cap applies from now on */
      w->settled += whole_pct(c, rec_raw(c, x), tb_dropped_after(e, aLive[k], x->iLast));
    } else {
      live += whole_pct(c, rec_raw(c, x), 0);
      aLive[h++] = aLive[k];
    }
  }
  w->nLive = h;
  pk_sum_set(pOut, w->settled + live, w->nOpp);
}

/*
** A query (player x as of iRound) from aCur, where a pass over the players
** has put each one's value as of iRound: the win % times nL, or ~ the final
** capped one for a player gone before iRound.  An opponent is one read of 8
** bytes (a compact array, mostly in cache) instead of its record and seats,
** and the query needs no state of its own: the sum is taken afresh, in
** whole numbers, so it is the same in any order.
*/
static void owp_from_passes(const PkCache *c, const TbEvent *e, const i64 *aCur,
                            const PkRec *x, int iRound, PkSum *pOut) {
  const TbSeat *a = &e->aSeat[x->iSeat];
  i64 sum = 0;
  int j, n = 0;
  for (j = 0; j < x->nSeat && a[j].iRound <= iRound; j++) {
    if (a[j].iOpp >= 0) {
      /* without branches: whether an opponent is gone goes either way */
      i64 v = aCur[a[j].iOpp], bGone = v >> 63; /* all ones when gone */
      sum += v ^ bGone;
    } else if (is_late(&a[j], c->params.bLateLoss)) {
      sum += c->nFloorW; /* an opponent at the floor */
    } else {
      continue;
    }
    n++;
  }
  pk_sum_set(pOut, sum, n);
}

/* Bring the players of aActive (those not yet gone) to iRound: their
** counts, and their values in aCur; those gone drop out of the list. */
static void pk_pass(const PkCache *c, const TbEvent *e, PkRec *aRec, i64 *aCur,
                    int *aActive, int *pnActive, int iRound) {
  int k, h, n = *pnActive;
  for (k = h = 0; k < n; k++) {
    int i = aActive[k];
    PkRec *x = &aRec[i];
    if (k + PK_AHEAD < n) {
      /* the seats the pass counts next: one player's after another's */
      const PkRec *y = &aRec[aActive[k + PK_AHEAD]];
      if (y->iNextRound <= iRound) TB_PREFETCH(&e->aSeat[y->iSeat + y->iCounted]);
    }
    rec_advance(c, e, x, iRound);
    if (x->iLast < iRound) {
      aCur[i] = ~whole_pct(c, rec_raw(c, x), tb_dropped_after(e, i, x->iLast));
    } else {
      aCur[i] = whole_pct(c, rec_raw(c, x), 0);
      aActive[h++] = i;
    }
  }
  *pnActive = h;
}

/*
** The distinct rounds asked, ascending, into *paRound (allocated, *pnRound
** of them): the drop rounds, a player's last before the event's.  Each is
** its player's own query, and every other query is an opponent's drop
** round.  They are few (one per round at most), so their array grows as
** they come: room for one per query was 1 MB at 100,000 players.
*/
#define PK_SEEN_ROUNDS 1024
static int pk_rounds_asked(const PkCache *c, const TbEvent *e, int **paRound,
                           int *pnRound) {
  unsigned char aSeen[PK_SEEN_ROUNDS]; /* the common rounds, deduplicated */
  int i, n = 0, nAlloc = 0, *a = 0;
  *paRound = 0;
  *pnRound = 0;
  if (c->nQ == 0) return SQLITE_OK;
  memset(aSeen, 0, sizeof(aSeen));
  for (i = 0; i < e->nPlayer; i++) {
    int r = e->aPlayer[i].rec.iLastRound;
    if (r >= e->iLastRound) continue;
    if (r >= 0 && r < PK_SEEN_ROUNDS) {
      if (aSeen[r]) continue;
      aSeen[r] = 1;
    }
    if (n == nAlloc) {
      int *aNew;
      nAlloc = nAlloc ? 2 * nAlloc : 64;
      aNew = sqlite3_realloc64(a, sizeof(int) * (sqlite3_uint64)nAlloc);
      if (aNew == 0) {
        sqlite3_free(a);
        return SQLITE_NOMEM;
      }
      a = aNew;
    }
    a[n++] = r;
  }
  *paRound = a;
  *pnRound = sort_unique(a, n);
  return SQLITE_OK;
}

/*
** Whether passes cost at most about the seats: each distinct round asked
** (aRound[0, nRound), ascending) costs one step per player not gone before
** it (and one more as it goes).  Events where many players last long past
** a sparse set of drop rounds (one player met by thousands, each gone
** after a round) read opponents where they are instead.
*/
static int passes_pay(const TbEvent *e, const int *aRound, int nRound) {
  sqlite3_uint64 nCost = 0;
  int i;
  for (i = 0; i < e->nPlayer; i++) {
    /* distinct rounds asked at or before the player's last */
    int lo = 0, hi = nRound, iLast = e->aPlayer[i].rec.iLastRound;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (aRound[mid] <= iLast) lo = mid + 1; else hi = mid;
    }
    nCost += (sqlite3_uint64)lo + 1;
  }
  return nCost <= 2 * (sqlite3_uint64)e->nSeat + (sqlite3_uint64)e->nPlayer;
}

/* Every player's final win % times nL, then every owp not frozen at a drop
** (those are queries); aFinal gets the final counts. */
static int pk_final_whole(PkCache *c, const TbEvent *e, const TbParams *p,
                          PkRec *aRec, i64 *aW) {
  int i, j, rc;
  for (i = 0; i < e->nPlayer; i++) {
    rec_advance(c, e, &aRec[i], INT_MAX);
    c->aFinal[i] = aRec[i].n;
    aW[i] = whole_pct(c, rec_raw(c, &aRec[i]), capped_at(e, i, e->iLastRound));
  }
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    const TbSeat *a = &e->aSeat[pl->iSeat];
    int iRound = frozen_round(e, p, i, e->iLastRound), nOpp = 0;
    i64 sum = 0;
    if ((rc = tb_poll(e->pProbe, 1 + pl->nSeat)) != SQLITE_OK) return rc;
    if (iRound < e->iLastRound) {
      c->aOwpSum[i] = c->aQSum[pk_find(c, i, iRound)];
      continue;
    }
    for (j = 0; j < pl->nSeat; j++) {
      if (a[j].iOpp >= 0) {
        sum += aW[a[j].iOpp];
      } else if (is_late(&a[j], p->bLateLoss)) {
        sum += c->nFloorW;
      } else {
        continue;
      }
      nOpp++;
    }
    pk_sum_set(&c->aOwpSum[i], sum, nOpp);
  }
  return SQLITE_OK;
}

/* The next player of aActive from *pj on with a query at iRound, or -1. */
static int next_owner(const PkCache *c, const PkRec *aRec, const int *aActive,
                      int nActive, int *pj, int iRound) {
  while (*pj < nActive) {
    int i = aActive[(*pj)++], q = aRec[i].iNextQ;
    if (q < c->aQStart[i + 1] && c->aQRound[q] == iRound) return i;
  }
  return -1;
}

/*
** The queries by passes: for each distinct round asked, in order, a pass
** brings every player not gone to it (aCur), then each of them with a query
** at that round sums its opponents from aCur.  A query's owner is still in
** at its round (it asks at its own last round or before), so the players
** in the pass are the ones to look at.  aActive: room for every player.
** The queries' seats and opponents are scattered: a ring of the next
** PK_AHEAD owners hints them ahead (seats, then the opponents' values).
*/
static int pk_queries_by_passes(PkCache *c, const TbEvent *e, PkRec *aRec,
                                i64 *aCur, int *aActive, const int *aRound,
                                int nRound) {
  int i, k, rc, nActive = 0;
  for (i = 0; i < e->nPlayer; i++) {
    aActive[nActive++] = i;
    aRec[i].iNextQ = c->aQStart[i];
  }
  for (k = 0; k < nRound; k++) {
    int iRound = aRound[k], aRing[PK_AHEAD], j = 0, h;
    if ((rc = tb_poll(e->pProbe, 1 + nActive)) != SQLITE_OK) return rc;
    pk_pass(c, e, aRec, aCur, aActive, &nActive, iRound);
    for (h = 0; h < PK_AHEAD; h++) {
      aRing[h] = next_owner(c, aRec, aActive, nActive, &j, iRound);
      if (aRing[h] >= 0) {
        tb_prefetch_seats(&e->aSeat[aRec[aRing[h]].iSeat], aRec[aRing[h]].nSeat);
      }
    }
    for (h = 0; aRing[h % PK_AHEAD] >= 0; h++) {
      PkRec *x = &aRec[aRing[h % PK_AHEAD]];
      int iMid = aRing[(h + PK_AHEAD / 2) % PK_AHEAD], iNew;
      if (iMid >= 0) {
        /* its seats were hinted PK_AHEAD / 2 queries before */
        const PkRec *y = &aRec[iMid];
        prefetch_opponents(&e->aSeat[y->iSeat], y->nSeat, iRound, aCur, sizeof(i64));
      }
      if ((rc = tb_poll(e->pProbe, 1 + x->nSeat)) != SQLITE_OK) return rc;
      owp_from_passes(c, e, aCur, x, iRound, &c->aQSum[x->iNextQ]);
      x->iNextQ++;
      iNew = next_owner(c, aRec, aActive, nActive, &j, iRound);
      if (iNew >= 0) tb_prefetch_seats(&e->aSeat[aRec[iNew].iSeat], aRec[iNew].nSeat);
      aRing[h % PK_AHEAD] = iNew;
    }
  }
  return SQLITE_OK;
}

/* The queries in round order, each from its owner's state, reading each
** opponent where it is (when passes do not pay). */
static int pk_queries_in_place(PkCache *c, const TbEvent *e, PkRec *aRec) {
  sqlite3_uint64 nP = (sqlite3_uint64)e->nPlayer + 1;
  int *aOwner, *aQOrder, *aLive;
  int i, k, rc = SQLITE_OK;
  PkOwnerInt *aState;
  aOwner = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)c->nQ + 1));
  aState = sqlite3_malloc64(sizeof(PkOwnerInt) * nP);
  aLive = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nSeat + 1));
  aQOrder = order_by_round(c->aQRound, sizeof(int), c->nQ);
  if (aOwner == 0 || aState == 0 || aLive == 0 || aQOrder == 0) {
    rc = SQLITE_NOMEM;
    goto done;
  }
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    for (k = c->aQStart[i]; k < c->aQStart[i + 1]; k++) aOwner[k] = i;
    memset(&aState[i], 0, sizeof(PkOwnerInt));
    aState[i].iSeat = pl->iSeat;
    aState[i].nSeat = pl->nSeat;
  }
  for (k = 0; k < c->nQ; k++) {
    int q = aQOrder[k];
    PkOwnerInt *w = &aState[aOwner[q]];
    if ((rc = tb_poll(e->pProbe, 1 + w->nSeat)) != SQLITE_OK) break;
    owp_whole(c, e, aRec, w, &aLive[w->iSeat], c->aQRound[q], &c->aQSum[q]);
  }
done:
  sqlite3_free(aOwner);
  sqlite3_free(aState);
  sqlite3_free(aLive);
  sqlite3_free(aQOrder);
  return rc;
}

/*
** pk_sweep in whole numbers.  Fresh memory costs here (its pages are
** faulted in one by one): the passes need only the records, aCur and
** aActive.
*/
static int pk_sweep_whole(PkCache *c, const TbEvent *e, const TbParams *p) {
  sqlite3_uint64 nP = (sqlite3_uint64)e->nPlayer + 1;
  int *aActive, *aRound = 0;
  int i, nRound, rc = SQLITE_OK;
  PkRec *aRec;
  i64 *aCur;
  c->aQSum = sqlite3_malloc64(sizeof(PkSum) * ((sqlite3_uint64)c->nQ + 1));
  c->aOwpSum = sqlite3_malloc64(sizeof(PkSum) * nP);
  aRec = sqlite3_malloc64(sizeof(PkRec) * nP);
  aCur = sqlite3_malloc64(sizeof(i64) * nP);
  aActive = sqlite3_malloc64(sizeof(int) * nP); /* the players still in */
  if (c->aQSum == 0 || c->aOwpSum == 0 || aRec == 0 || aCur == 0 || aActive == 0) {
    rc = SQLITE_NOMEM;
    goto done;
  }
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    PkRec *x = &aRec[i];
    if ((rc = tb_poll(e->pProbe, 1)) != SQLITE_OK) goto done;
    memset(x, 0, sizeof(*x));
    x->iSeat = pl->iSeat;
    x->nSeat = pl->nSeat;
    x->iLast = pl->rec.iLastRound;
    x->iNextRound = pl->nSeat ? e->aSeat[pl->iSeat].iRound : INT_MAX;
  }
  if ((rc = pk_rounds_asked(c, e, &aRound, &nRound)) != SQLITE_OK) goto done;
  if (passes_pay(e, aRound, nRound)) {
    rc = pk_queries_by_passes(c, e, aRec, aCur, aActive, aRound, nRound);
  } else {
    rc = pk_queries_in_place(c, e, aRec);
  }
  if (rc == SQLITE_OK) rc = pk_final_whole(c, e, p, aRec, aCur);
done:
  sqlite3_free(aRec);
  sqlite3_free(aCur);
  sqlite3_free(aActive);
  sqlite3_free(aRound);
  return rc;
}

/* An owp in whole numbers into pAcc (bSet: pAcc is fresh and takes it as it
** is, NULL included): exact, or its nearest double-double. */
static void add_whole(TbAcc *pAcc, const PkCache *c, const PkSum *v, int bSet) {
  double hi, lo, err;
  if (v->n == 0) {
    if (bSet) pAcc->bNull = 1;
    return;
  }
  if (pAcc->bExact) {
    tb_acc_add_exact(pAcc, pk_sum_s(v), v->n * c->nL);
    return;
  }
  tb_quotient_dd(pk_sum_s(v), v->n * c->nL, &hi, &lo, &err);
  if (bSet) {
    pAcc->r = hi;
    pAcc->lo = lo;
    pAcc->err = err;
  } else {
    tb_acc_add_dd(pAcc, hi, lo, err);
  }
}

/*
** The cache of this ranking, made on first use (its queries' fast values
** under p); NULL: compute directly.  No memory for it stops the ranking
** (pk_nomem) where there is one to stop.
*/
/* The most seats of any player: at most so many rounds in a win %. */
static int most_seats(const TbEvent *e) {
  int i, n = 0;
  for (i = 0; i < e->nPlayer; i++) {
    if (e->aPlayer[i].nSeat > n) n = e->aPlayer[i].nSeat;
  }
  return n;
}

/* c->aLast, made after the sweep (whose memory is the peak: pk_queries()
** frees its own copy before it, and one pass over the records makes it
** again here); without room for it, the records are read instead. */
static void pk_last_rounds(PkCache *c, const TbEvent *e) {
  int i;
  c->aLast = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nPlayer + 1));
  for (i = 0; c->aLast && i < e->nPlayer; i++) c->aLast[i] = e->aPlayer[i].rec.iLastRound;
}

static int pk_nomem(const TbEvent *e);
static PkCache *pk_cache(const TbEvent *e, const TbParams *p) {
  PkCache *c = (PkCache *)tb_terms_extra(e, &pkKey);
  int rc;
  if (c) return c;
  if (e->pTerms == 0 || tb_stopped(e->pProbe)) return 0;
  c = sqlite3_malloc64(sizeof(*c));
  if (c == 0) {
    pk_nomem(e);
    return 0;
  }
  memset(c, 0, sizeof(*c));
  c->params = *p;
  c->pParams = p;
  pk_rule(&c->rule, p);
  c->aFinal = sqlite3_malloc64(sizeof(PkCount) * ((sqlite3_uint64)e->nPlayer + 1));
  rc = c->aFinal ? pk_queries(c, e) : SQLITE_NOMEM;
  if (rc == SQLITE_OK) rc = pk_whole_units(c, most_seats(e));
  if (rc == SQLITE_OK) {
    rc = c->nL ? pk_sweep_whole(c, e, p) : pk_sweep(c, e, p);
  }
  if (rc == SQLITE_OK) pk_last_rounds(c, e);
  if (rc != SQLITE_OK) {
    pk_free(c);
    if (rc == SQLITE_NOMEM) pk_nomem(e);
    return 0;
  }
  if (tb_terms_set_extra(e, &pkKey, c, pk_free) != SQLITE_OK) return 0;
  return c;
}

/* Room for the per-seat counts an exact value reads, each player's filled
** when first read (few players' are): SQLITE_NOMEM. */
static int pk_seat_counts(PkCache *c, const TbEvent *e) {
  if (c->aCount) return SQLITE_OK;
  c->aCount = sqlite3_malloc64(sizeof(PkCount) * ((sqlite3_uint64)e->nSeat + 1));
  c->aCountDone = sqlite3_malloc64((sqlite3_uint64)e->nPlayer + 1);
  if (c->aCount == 0 || c->aCountDone == 0) {
    sqlite3_free(c->aCount);
    sqlite3_free(c->aCountDone);
    c->aCount = 0;
    c->aCountDone = 0;
    return SQLITE_NOMEM;
  }
  memset(c->aCountDone, 0, (size_t)e->nPlayer + 1);
  return SQLITE_OK;
}

/* Player i's counts up to each seat, into aCount. */
static void fill_seat_counts(PkCache *c, const TbEvent *e, int i) {
  const TbPlayer *pl = &e->aPlayer[i];
  PkCount n = {0, 0, 0};
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (in_win_pct(s, c->params.bLateLoss)) count_round(&n, s->eOutcome);
    c->aCount[pl->iSeat + j] = n;
  }
  c->aCountDone[i] = 1;
}

/* Player i's matches, wins and ties against opponents up to iRound. */
static PkCount counts_at(const TbEvent *e, const TbParams *p, PkCache *c,
                         int i, int iRound) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  PkCount n = {0, 0, 0};
  int j;
  /* the counts kept are those of the cache's late_loss */
  if (c && c->params.bLateLoss != p->bLateLoss) c = 0;
  if (c && (pl->nSeat == 0 || a[pl->nSeat - 1].iRound <= iRound)) {
    return c->aFinal[i];
  }
  if (c && c->aCount) {
    /* the last seat at or before iRound: seats are ordered by round */
    int lo = 0, hi = pl->nSeat;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (a[mid].iRound <= iRound) lo = mid + 1; else hi = mid;
    }
    if (!c->aCountDone[i]) fill_seat_counts(c, e, i);
    if (lo > 0) n = c->aCount[pl->iSeat + lo - 1];
    return n;
  }
  for (j = 0; j < pl->nSeat && a[j].iRound <= iRound; j++) {
    if (in_win_pct(&a[j], p->bLateLoss)) count_round(&n, a[j].eOutcome);
  }
  return n;
}

/*
** Player i's win % in the standings as of iRound, into pAcc.  Returns 0
** when the player played no round against an opponent by then (no win %).
*/
static int add_win_pct(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i,
                       int iRound) {
  PkCache *c = pk_cache(e, p);
  PkCount n = counts_at(e, p, c, i, iRound);
  PkRule r;
  if (c && pk_same_params(c, p)) {
    r = c->rule;
  } else {
    pk_rule(&r, p);
  }
  /* below the floor, and above the cap for a player gone before iRound */
  return add_counts_pct(pAcc, &r, p, n, capped_at(e, i, iRound));
}

/* Mean of the opponents' win %, from the standings as of iRound. */
static void owp_at(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i,
                   int iRound) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iRound > iRound) break;
    if (s->iOpp >= 0) {
      /* the opponent played this match by iRound, so has a win % */
      add_win_pct(pAcc, e, p, s->iOpp, iRound);
    } else if (is_late(s, p->bLateLoss)) {
      tb_acc_add_frac(pAcc, &p->floor);
    } else {
      continue;
    }
    n++;
  }
  tb_acc_mean(pAcc, n);
}

/*
** No memory for what the sweep keeps: the computation stops with
** SQLITE_NOMEM (at the ranking's next poll).  Computing the value otherwise
** would add the same terms in another order, and could give another last
** bit than the sweep does when memory suffices.
*/
static int pk_nomem(const TbEvent *e) {
  if (e->pProbe == 0) return 0;
  if (e->pProbe->rc == SQLITE_OK) e->pProbe->rc = SQLITE_NOMEM;
  return 1;
}

/*
** The exact owps of player o as of each of its query rounds, in one walk
** over its seats (as the fast sweep does): an opponent gone before the
** round asked has its final win % (the cap applies) from then on, so it is
** added once to a running sum; only those still playing are computed again
** for each round.
*/
static int pk_exact_sweep(PkCache *c, const TbEvent *e, const TbParams *p,
                          int o) {
  const TbPlayer *pl = &e->aPlayer[o];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  int q, j = 0, nOpp = 0, nLive = 0, k, h, rc;
  int *aLive = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)pl->nSeat + 1));
  TbAcc settled;
  if (aLive == 0) return SQLITE_NOMEM;
  tb_acc_init(&settled, 1);
  for (q = c->aQStart[o]; q < c->aQStart[o + 1]; q++) {
    int iRound = c->aQRound[q];
    TbAcc *v = &c->aQExact[q];
    if ((rc = tb_poll(e->pProbe, 1 + nLive)) != SQLITE_OK) break;
    for (; j < pl->nSeat && a[j].iRound <= iRound; j++) {
      if (a[j].iOpp < 0) {
        if (!is_late(&a[j], p->bLateLoss)) continue;
        tb_acc_add_frac(&settled, &p->floor); /* an opponent at the floor */
      } else {
        aLive[nLive++] = a[j].iOpp;
      }
      nOpp++;
    }
    tb_acc_init(v, 1);
    for (k = h = 0; k < nLive; k++) {
      int x = aLive[k];
      if (e->aPlayer[x].rec.iLastRound < iRound) {
        add_win_pct(&settled, e, p, x, iRound); /* final from now on */
      } else {
        add_win_pct(v, e, p, x, iRound);
        aLive[h++] = x;
      }
    }
    nLive = h;
    tb_acc_add_acc(v, &settled);
    tb_acc_mean(v, nOpp);
  }
  /* the values made so far are owned by aQExact until it is freed */
  for (k = q; k < c->aQStart[o + 1]; k++) tb_acc_init(&c->aQExact[k], 1);
  c->aQDone[o] = 1;
  tb_acc_clear(&settled);
  sqlite3_free(aLive);
  return q < c->aQStart[o + 1] ? rc : SQLITE_OK;
}

/* The exact value of query q (player o as of iRound), the player's all
** computed at the first; NULL: none (no memory, interrupted). */
static const TbAcc *pk_exact(PkCache *c, const TbEvent *e, const TbParams *p,
                             int q, int o) {
  if (c->aQExact == 0) {
    c->aQExact = sqlite3_malloc64(sizeof(TbAcc) * ((sqlite3_uint64)c->nQ + 1));
    c->aQDone = sqlite3_malloc64((sqlite3_uint64)e->nPlayer + 1);
    if (c->aQExact == 0 || c->aQDone == 0) {
      sqlite3_free(c->aQExact);
      sqlite3_free(c->aQDone);
      c->aQExact = 0;
      c->aQDone = 0;
      return 0;
    }
    memset(c->aQDone, 0, (size_t)e->nPlayer + 1);
  }
  if (!c->aQDone[o] &&
      (pk_seat_counts(c, e) != SQLITE_OK || pk_exact_sweep(c, e, p, o) != SQLITE_OK)) {
    return 0;
  }
  return &c->aQExact[q];
}

/*
** Player o's owp as of iRound (< o's last round) from the cache, into
** pAcc: returns 1, or 0 when not kept (computed then by the caller).  With
** bSet, pAcc is fresh and takes the value as it is, NULL included.
*/
static int pk_query_value(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                          int o, int iRound, int bSet) {
  PkCache *c = pk_cache(e, p);
  const TbAcc *v;
  int q;
  /* none: stopped (out of memory, interrupted), or no ranking to keep it */
  if (c == 0) return tb_stopped(e->pProbe);
  if (!pk_same_params(c, p) || (q = pk_find(c, o, iRound)) < 0) return 0;
  if (c->nL) {
    add_whole(pAcc, c, &c->aQSum[q], bSet);
    return 1;
  }
  if (!pAcc->bExact) {
    const PkFast *f = &c->aQFast[q];
    if (f->err < 0) {
      if (bSet) pAcc->bNull = 1;
    } else if (bSet) {
      pAcc->r = f->r;
      pAcc->lo = f->lo;
      pAcc->err = f->err;
    } else {
      tb_acc_add_dd(pAcc, f->r, f->lo, f->err);
    }
    return 1;
  }
  if ((v = pk_exact(c, e, p, q, o)) == 0) {
    /* out of memory (stopped then), or interrupted */
    return pk_nomem(e) || tb_stopped(e->pProbe);
  }
  tb_acc_add_acc(pAcc, v);
  if (bSet && v->bNull) pAcc->bNull = 1;
  return 1;
}

/* The owp of player o as of iRound, before o's last round, into pAcc. */
static void add_owp_before_last(TbAcc *pAcc, const TbEvent *e,
                                const TbParams *p, int o, int iRound) {
  TbAcc child;
  if (pk_query_value(pAcc, e, p, o, iRound, 0)) return;
  if (tb_stopped(e->pProbe)) return; /* interrupted: the ranking ends */
  /* not kept (another tiebreaker's parameters, no ranking): computed */
  tb_acc_init(&child, pAcc->bExact);
  owp_at(&child, e, p, o, iRound);
  tb_acc_add_acc(pAcc, &child);
  tb_acc_clear(&child);
}

/*
** A value over no round or no opponent (a registered no-show, a player
** with byes only) is the floor: RK9 publishes a player who never played
** at 25 % (win %, owp and oowp).  Opponents always have a round, so no
** other value reads it.
*/
static void null_is_floor(TbAcc *pAcc, const TbParams *p) {
  if (!pAcc->bNull) return;
  pAcc->bNull = 0;
  tb_acc_add_frac(pAcc, &p->floor);
}

/*
** The win % opponents count for this player.  Shown beside the standings
** so that a player can check the number their opponents' owp is built
** from.
*/
void tb_pokemon_win_pct(const TbEvent *e, const TbParams *p, int i,
                        TbAcc *pAcc) {
  if (add_win_pct(pAcc, e, p, i, e->iLastRound) == 0) pAcc->bNull = 1;
  null_is_floor(pAcc, p);
}

/* Opponents' win %: the strength of the player's schedule. */
static void owp_value(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  PkCache *c = pk_cache(e, p);
  int iRound;
  /* the cache's values read no player record: an oowp asks each
  ** opponent's, and the records are large and read at random */
  if (c && c->nL && pk_same_params(c, p)) {
    add_whole(pAcc, c, &c->aOwpSum[i], 1);
    return;
  }
  if (!pAcc->bExact && c && pk_same_params(c, p)) {
    const PkFast *v = &c->aOwp[i];
    if (v->err < 0) {
      pAcc->bNull = 1;
    } else {
      pAcc->r = v->r;
      pAcc->lo = v->lo;
      pAcc->err = v->err;
    }
    return;
  }
  iRound = frozen_round(e, p, i, e->iLastRound);
  /* frozen at a drop: a query of the sweep */
  if (iRound < e->iLastRound && pk_query_value(pAcc, e, p, i, iRound, 1)) return;
  if (tb_stopped(e->pProbe)) return;
  owp_at(pAcc, e, p, i, iRound);
}

void tb_pokemon_owp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  owp_value(e, p, i, pAcc);
  null_is_floor(pAcc, p);
}

/* A player's owp as a term of their opponents' oowp (none: adds 0). */
static void add_owp(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  TbAcc child;
  tb_acc_init(&child, pAcc->bExact);
  tb_pokemon_owp(e, p, i, &child);
  tb_acc_add_acc(pAcc, &child);
  tb_acc_clear(&child);
}

/*
** Opponent o's owp as a term of an oowp.  With whole numbers each owp is
** one sum of the cache, read as it is: the term cache would keep it
** again, 24 bytes a player for its double and 16 for its exact value.
** The double is made as the term cache makes it (summed into a fresh
** accumulator, then added), so that the value is the same to the bit; an
** owp that is not NULL is read from cWhole directly, without the nested
** calls that find the cache again for each opponent.  cWhole: the cache
** when its whole numbers hold the owps under p, else NULL.
*/
static void add_owp_term(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                         const PkCache *cWhole, int o) {
  TbAcc acc;
  if (cWhole == 0) {
    tb_term_add(pAcc, e, add_owp, p, o);
  } else if (pAcc->bExact) {
    add_owp(pAcc, e, p, o);
  } else if (cWhole->aOwpSum[o].n > 0) {
    TbAcc owp;
    tb_acc_init(&owp, 0);
    add_whole(&owp, cWhole, &cWhole->aOwpSum[o], 1);
    tb_acc_init(&acc, 0);
    tb_acc_add_dd(&acc, owp.r, owp.lo, owp.err);
    tb_acc_add_dd(pAcc, acc.r, acc.lo, acc.err);
  } else {
    tb_acc_init(&acc, 0);
    add_owp(&acc, e, p, o);
    if (acc.bNull) {
      pAcc->bNull = 1;
    } else {
      tb_acc_add_dd(pAcc, acc.r, acc.lo, acc.err);
    }
  }
}

/* Whether opponent o's values as of iRound (< the event's last round)
** differ from their own: o was frozen later than iRound, at a drop or
** never (frozen_round of both); o's last round read compactly if c has it. */
static int frozen_before(const TbEvent *e, const TbParams *p, const PkCache *c,
                         int o, int iRound) {
  int iLast = c && c->aLast ? c->aLast[o] : e->aPlayer[o].rec.iLastRound;
  return frozen_at(p, iLast, iRound) != frozen_at(p, iLast, e->iLastRound);
}

/*
** Opponents' opponents' win %: the mean of the opponents' owp, each as the
** standings showed it then (frozen if that opponent had dropped).  That is
** the opponent's own owp (kept per player, tb_term_add, or in the cache's
** whole numbers) unless this player dropped before the opponent's last
** round: then as of this player's.
*/
void tb_pokemon_oowp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int iRound = frozen_round(e, p, i, e->iLastRound);
  PkCache *c;
  const PkCache *cWhole;
  int j, n = 0;
  if (tb_stopped(e->pProbe)) return;
  c = pk_cache(e, p);
  cWhole = c && c->nL && pk_same_params(c, p) ? c : 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iRound > iRound) break;
    if (s->iOpp < 0) {
      /* a late loss's opponent: at the floor, as a player with no round */
      if (!is_late(s, p->bLateLoss)) continue;
      tb_acc_add_frac(pAcc, &p->floor);
    } else if (iRound == e->iLastRound ||
               !frozen_before(e, p, c, s->iOpp, iRound)) {
      /* the opponent's own owp: always so for a player still in at the
      ** end, whose opponents' records are then not read */
      add_owp_term(pAcc, e, p, cWhole, s->iOpp);
    } else {
      add_owp_before_last(pAcc, e, p, s->iOpp, iRound);
    }
    n++;
  }
  tb_acc_mean(pAcc, n);
  null_is_floor(pAcc, p);
}

/*
** Head-to-head, only when exactly two players are still tied and they
** met: the winner ranks higher (1, the loser 0).  Met more than once: the
** net result.  Three or more tied, or two who never met: 0 for all, left to
** the organizer's random draw.
*/
int tb_pokemon_head_to_head(const TbEvent *e, const TbParams *p,
                            const int *aPlayer, int n, TbFrac *aOut) {
  int j, k, nNet = 0;
  (void)p;
  for (k = 0; k < n; k++) aOut[k] = tb_frac(0, 1);
  if (n != 2) return SQLITE_OK;
  for (j = 0; j < e->aPlayer[aPlayer[0]].nSeat; j++) {
    const TbSeat *s = &e->aSeat[e->aPlayer[aPlayer[0]].iSeat + j];
    if (s->iOpp != aPlayer[1]) continue;
    if (s->eOutcome == TB_WIN) nNet++;
    if (s->eOutcome == TB_LOSS) nNet--;
  }
  if (nNet > 0) aOut[0] = tb_frac(1, 1);
  if (nNet < 0) aOut[1] = tb_frac(1, 1);
  return SQLITE_OK;
}

/*
** 1 for a player still in the event at its last round, 0 for one who
** dropped: from April to September 2023 RK9 placed dropped players below
** the active ones with the same points (policy 'pokemon_2023').  A player
** cut after a day-2 cut did not drop.
*/
void tb_pokemon_active(const TbEvent *e, const TbParams *p, int i,
                       TbAcc *pAcc) {
  (void)p;
  tb_acc_add(pAcc, !tb_dropped(e, i), 1);
}

/*
** The number of the player's row in the players table, lower first: TOM
** gives players tied on everything distinct places in the order of its
** file (tom_players' rows).  A player without a row comes after every row
** (one more than the rows); without a players table, NULL for all (tied).
** Only players still tied after head-to-head compare it, so it is computed
** for them alone (the column is lazy).
*/
void tb_registration_order(const TbEvent *e, const TbParams *p, int i,
                           TbAcc *pAcc) {
  const TbEvent *w = e->pWhole ? e->pWhole : e; /* a cut event has no rows */
  (void)p;
  if (w->aReg == 0) {
    pAcc->bNull = 1;
    return;
  }
  tb_acc_add(pAcc, w->aReg[i].bRegistered ? w->aReg[i].iRow : w->nRegistered + 1, 1);
}
