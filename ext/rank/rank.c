/*
** rank/rank.c: ordering players by a policy's tiebreakers, exactly.
**
** Every tiebreaker is computed in double precision for every player; or,
** for standings() (bLazy), when a comparison first needs a player's value,
** and then when a statement first reads its column (tb_standings_fill):
** a statement that reads only ranks pays for the tiebreakers of the tied
** players alone.  Two doubles further apart than any rounding error can
** explain order the players as their exact values would.  When they are closer than that, the
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
#include "../tiebreak_int.h"

#include <string.h>

/*
** Doubles closer than this (relative) are compared exactly.  A mean of k
** floored fractions carries a relative error below k * 2^-52; 1e-9 leaves
** room for millions of terms.
*/
#define TB_NEAR 1e-9

/*
** A player in the sort, with the values it is compared on first: moving
** them along is cheaper than fetching them from aValue at every
** comparison (the players are scattered there).
*/
#define SORT_INLINE 2
typedef struct SortItem {
  double r[SORT_INLINE];        /* values of the sort's first tiebreakers */
  unsigned char f[SORT_INLINE]; /* their TB_VALUE_* flags */
  int iPlayer;
} SortItem;

typedef struct RankCtx {
  const TbEvent *pEvent;
  const TbPolicy *pPolicy;
  int nPlayer;                  /* players: a column's length */
  int bPending;                 /* some values are computed when needed */
  double *aValue;               /* fast values [column * nPlayer + player];
                                ** the policy's order first: column k is
                                ** tiebreaker k */
  unsigned char *aFlag;         /* TB_VALUE_*, same layout */
  /* exact values per policy tiebreaker, lazily: few players need them, so
  ** they are kept in the order computed (aExact[k], owned), and each
  ** player's slot says where: 0 not yet, -1 NULL, else index + 1; a
  ** group's whole value is not kept, its double is exact (group_values) */
  int *aSlot[TB_MAX_TIEBREAKERS];
  TbQ *aExact[TB_MAX_TIEBREAKERS];
  TbQ zero;                     /* what a NULL value's pointer shows */
  int nExact[TB_MAX_TIEBREAKERS], nExactAlloc[TB_MAX_TIEBREAKERS];
  int rc;                       /* first error met while comparing */
} RankCtx;

static int fast_value(const TbEvent *e, const TbTiebreaker *t,
                      const TbParams *p, int i, double *pr,
                      unsigned char *pf);

/* Report work to the event's probe (see TbProbe); nonzero: stop. */
static int poll(RankCtx *c, i64 nWork) {
  int rc = tb_poll(c->pEvent->pProbe, nWork);
  if (rc != SQLITE_OK && c->rc == SQLITE_OK) c->rc = rc;
  return c->rc;
}

/*
** The event a player's values come from: a player cut after day 1 keeps
** them as they stood at the cut (cut_after; with freeze_cut, one gone
** before it too), opponents' records included; everyone else's from the
** whole event.
*/
static inline const TbEvent *value_event(const TbEvent *e, int i) {
  return e->pCut && tb_valued_at_cut(e, i) ? e->pCut : e;
}

/* Where player i's value of column k is: a column's values lie together,
** so the pages of a column never computed are never touched. */
static inline size_t value_index(int nPlayer, int k, int i) {
  return (size_t)k * (size_t)nPlayer + (size_t)i;
}

/* Compute player i's pending value of the policy's k-th tiebreaker. */
static void compute_pending(RankCtx *c, int k, int i) {
  size_t j = value_index(c->nPlayer, k, i);
  int rc;
  if (poll(c, 1 + c->pEvent->aPlayer[i].nSeat) != SQLITE_OK) return;
  rc = fast_value(c->pEvent, c->pPolicy->aTiebreaker[k], &c->pPolicy->aParams[k],
                  i, &c->aValue[j], &c->aFlag[j]);
  if (rc != SQLITE_OK && c->rc == SQLITE_OK) c->rc = rc;
}

/* Players ahead whose seats are fetched while one is computed: most
** values are averages over opponents. */
#define PREFETCH_AHEAD 2

/*
** Fetch what computing the pending values of a[i + PREFETCH_AHEAD] reads
** first, its seats, and the record of the player after it: in the order
** of a sort, players are scattered.
*/
static inline void prefetch_pending(RankCtx *c, int k, const int *a, int i,
                                    int n) {
  if (i + 2 * PREFETCH_AHEAD < n) {
    TB_PREFETCH(&c->pEvent->aPlayer[a[i + 2 * PREFETCH_AHEAD]]);
  }
  if (i + PREFETCH_AHEAD < n &&
      (c->aFlag[value_index(c->nPlayer, k, a[i + PREFETCH_AHEAD])] &
       TB_VALUE_PENDING)) {
    tb_event_prefetch_seats(c->pEvent, a[i + PREFETCH_AHEAD]);
  }
}

/* The index of player i's value of the k-th tiebreaker, computed. */
static inline size_t value_at(RankCtx *c, int k, int i) {
  size_t j = value_index(c->nPlayer, k, i);
  if (c->aFlag[j] & TB_VALUE_PENDING) compute_pending(c, k, i);
  return j;
}

static int tb_index(const TbTiebreaker *t) {
  return (int)(t - tb_aTiebreaker);
}

/* Exact values of the policy's k-th tiebreaker: slots made on first use. */
static int exact_alloc(RankCtx *c, int k) {
  sqlite3_uint64 n = (sqlite3_uint64)c->pEvent->nPlayer + 1;
  if (c->aSlot[k]) return SQLITE_OK;
  if (c->rc) return c->rc;
  c->aSlot[k] = sqlite3_malloc64(sizeof(int) * n);
  if (c->aSlot[k] == 0) return c->rc = SQLITE_NOMEM;
  memset(c->aSlot[k], 0, sizeof(int) * (size_t)n);
  return SQLITE_OK;
}

/* Keep q (taken) as player i's exact value of the k-th tiebreaker. */
static int exact_set(RankCtx *c, int k, int i, TbQ *q) {
  int j = c->aSlot[k][i] - 1;
  if (j < 0) {
    if (c->nExact[k] == c->nExactAlloc[k]) {
      /* an exact tie of 800,000 players doubles 16 MB: copied polled */
      int nNew = c->nExactAlloc[k] ? 2 * c->nExactAlloc[k] : 64;
      int rc = tb_grow_polled(c->pEvent->pProbe, (void **)&c->aExact[k],
                              sizeof(TbQ) * (size_t)c->nExactAlloc[k],
                              sizeof(TbQ) * (size_t)nNew);
      if (rc != SQLITE_OK) {
        tb_q_free(q);
        return c->rc = rc;
      }
      c->nExactAlloc[k] = nNew;
    }
    j = c->nExact[k]++;
    c->aSlot[k][i] = j + 1;
  } else {
    tb_q_free(&c->aExact[k][j]);
  }
  c->aExact[k][j] = *q;
  return SQLITE_OK;
}

/* The exact value of player i for the policy's k-th tiebreaker: valid
** until the next is kept. */
static const TbQ *exact_value(RankCtx *c, int k, int i, int *pbNull) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  if (exact_alloc(c, k) != SQLITE_OK) return 0;
  if (c->aSlot[k][i] == 0) {
    TbAcc acc;
    TbQ q;
    if (poll(c, 1 + c->pEvent->aPlayer[i].nSeat) != SQLITE_OK) return 0;
    tb_acc_init(&acc, 1);
    acc.pProbe = c->pEvent->pProbe;
    t->xValue(value_event(c->pEvent, i), &c->pPolicy->aParams[k], i, &acc);
    tb_acc_settle(&acc);
    if (acc.bNoMem) {
      tb_acc_clear(&acc);
      c->rc = tb_acc_error(&acc);
      return 0;
    }
    tb_acc_take(&acc, &q);
    if (acc.bNull) {
      tb_q_free(&q);
      c->aSlot[k][i] = -1;
    } else if (exact_set(c, k, i, &q) != SQLITE_OK) {
      return 0;
    }
  }
  *pbNull = c->aSlot[k][i] < 0;
  return *pbNull ? &c->zero : &c->aExact[k][c->aSlot[k][i] - 1];
}

/* The exact value of player i on the k-th tiebreaker, NULL counting as 0:
** a copy that does not own a TbBigQ. */
static int exact_or_zero(RankCtx *c, int k, int i, int bNull, TbQ *pOut) {
  const TbQ *q;
  int bExactNull;
  pOut->q.num = 0;
  pOut->q.den = 1;
  pOut->pBig = 0;
  if (bNull) return SQLITE_OK;
  if (c->pPolicy->aTiebreaker[k]->xGroup) {
    size_t j = value_index(c->nPlayer, k, i);
    if (c->aSlot[k] == 0) return SQLITE_NOMEM; /* reported by c->rc */
    if (c->aSlot[k][i] > 0) {
      *pOut = c->aExact[k][c->aSlot[k][i] - 1];
    } else if (c->aFlag[j] == TB_VALUE_EXACT) {
      pOut->q.num = (i128)c->aValue[j]; /* whole, not kept (group_values) */
    }
    return SQLITE_OK;
  }
  q = exact_value(c, k, i, &bExactNull);
  if (q == 0) return SQLITE_NOMEM;
  if (!bExactNull) *pOut = *q;
  return SQLITE_OK;
}

/* Doubles too close to be ordered as they are (see TB_NEAR), or NaN. */
static inline int too_close(double ra, double rb) {
  double m = ra < 0 ? -ra : ra, mb = rb < 0 ? -rb : rb;
  double d = ra - rb;
  if (mb > m) m = mb;
  if (m < 1.0) m = 1.0;
  return !((d < 0 ? -d : d) > TB_NEAR * m);
}

/* Exact comparison of players a and b on the k-th tiebreaker: <0 when
** a's value is less; NULL (fa, fb) counts as 0. */
static int compare_exact(RankCtx *c, int k, int a, int fa, int b, int fb) {
  TbQ qa, qb;
  int rc = SQLITE_OK, cmp;
  if (exact_or_zero(c, k, a, fa & TB_VALUE_NULL, &qa) != SQLITE_OK ||
      exact_or_zero(c, k, b, fb & TB_VALUE_NULL, &qb) != SQLITE_OK) {
    return 0;
  }
  cmp = tb_q_cmp_polled(&qa, &qb, c->pEvent->pProbe, &rc);
  if (rc != SQLITE_OK) c->rc = rc;
  return cmp;
}

/*
** <0 when player a, of value ra (flags fa), ranks above b on the policy's
** k-th tiebreaker, >0 when below, 0 when exactly equal.  A NULL value (an
** average over no opponent) ranks as 0, as the documentation says.
** Doubles that are exact values (points, counts) order players as they
** are, tie included (group values that are whole numbers too); doubles
** too close to tell are compared exactly.  Inline: the sort calls it most.
*/
static inline int compare_values(RankCtx *c, int k, int a, double ra, int fa,
                                 int b, double rb, int fb) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  int cmp;
  if (fa & fb & TB_VALUE_NULL) return 0;
  if ((fa & fb & TB_VALUE_EXACT) || !too_close(ra, rb)) {
    cmp = (ra > rb) - (ra < rb);
  } else {
    cmp = compare_exact(c, k, a, fa, b, fb);
  }
  return t->bLowerIsBetter ? cmp : -cmp;
}

/* compare_values() of players a and b on the k-th tiebreaker. */
static int compare_on(RankCtx *c, int k, int a, int b) {
  size_t ia = value_at(c, k, a), ib = value_at(c, k, b);
  /* a NULL value is stored as 0.0 */
  return compare_values(c, k, a, c->aValue[ia], c->aFlag[ia], b, c->aValue[ib],
                        c->aFlag[ib]);
}

/* Compare players a and b on tiebreakers [k0, k1). */
static int compare_players(RankCtx *c, int k0, int k1, int a, int b) {
  int k;
  for (k = k0; k < k1; k++) {
    int cmp = compare_on(c, k, a, b);
    if (cmp) return cmp;
  }
  return 0;
}

/* Compare sort items on tiebreakers [k0, k1), then by player id. */
static int compare_items(RankCtx *c, int k0, int k1, const SortItem *x,
                         const SortItem *y) {
  int k, cmp;
  for (k = k0; k < k1; k++) {
    int h = k - k0;
    if (h < SORT_INLINE && !((x->f[h] | y->f[h]) & TB_VALUE_PENDING)) {
      cmp = compare_values(c, k, x->iPlayer, x->r[h], x->f[h], y->iPlayer,
                           y->r[h], y->f[h]);
    } else {
      cmp = compare_on(c, k, x->iPlayer, y->iPlayer);
    }
    if (cmp) return cmp;
  }
  return tb_key_compare(&c->pEvent->aPlayer[x->iPlayer].key,
                      &c->pEvent->aPlayer[y->iPlayer].key);
}

/*
** Stable bottom-up merge sort of n items of nSize bytes at x, through y
** (room for n items), from sorted runs of w items (1: none).  xBefore(pCtx,
** a, b) is nonzero when item a goes before item b.  The merges go in
** slices between polls of the probe, so a late pass over many items still
** answers an interrupt.  Returns the buffer that holds every item: sorted,
** unless the probe stopped the sort (*pRc).
*/
void *tb_merge_sort(void *x, void *y, int n, int nSize, int w,
                    TbBefore xBefore, void *pCtx, TbProbe *pProbe, int *pRc) {
  char *a = x, *b = y;
  size_t sz = (size_t)nSize;
  int i;
  *pRc = SQLITE_OK;
  for (; w < n; w *= 2) {
    char *t;
    for (i = 0; i < n; i += 2 * w) {
      int mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
      int l = i, r = mid, o = i;
      while (l < mid && r < hi) {
        int o0 = o, nStop = o + TB_POLL_WORK;
        while (l < mid && r < hi && o < nStop) {
          int bRight = xBefore(pCtx, a + r * sz, a + l * sz) != 0;
          memcpy(b + o++ * sz, a + (bRight ? r++ : l++) * sz, sz);
        }
        if ((*pRc = tb_poll(pProbe, o - o0)) != SQLITE_OK) return a;
      }
      memcpy(b + o * sz, a + l * sz, (size_t)(mid - l) * sz);
      o += mid - l;
      memcpy(b + o * sz, a + r * sz, (size_t)(hi - r) * sz);
    }
    t = a;
    a = b;
    b = t;
  }
  return a;
}

/* What sort_full() compares on. */
typedef struct FullSort {
  RankCtx *c;
  int k0, k1;
} FullSort;

static int items_before(void *pCtx, const void *x, const void *y) {
  FullSort *s = (FullSort *)pCtx;
  return compare_items(s->c, s->k0, s->k1, x, y) < 0;
}

/*
** Sorts this small use buffers on the stack.  Larger ones allocate theirs,
** sized to the run sorted and freed after it: the buffers of a sort of
** every player are not held while the values of a run within it are
** computed (Pokemon's owps at 100,000 players are made then, about 12 MB
** of queries, sums and records).
*/
#define SORT_LOCAL 16

/* Merge sort of n player indexes on tiebreakers [k0, k1), then by id. */
static void sort_full(RankCtx *c, int k0, int k1, int *a, int n) {
  SortItem aLocal[2 * SORT_LOCAL], *x = aLocal, *y, *aOwn = 0;
  FullSort s;
  int i, h, rc;
  if (n <= SORT_LOCAL) {
    y = aLocal + n;
  } else {
    aOwn = sqlite3_malloc64(sizeof(SortItem) * 2 * (sqlite3_uint64)n);
    if (aOwn == 0) {
      if (c->rc == SQLITE_OK) c->rc = SQLITE_NOMEM;
      return;
    }
    x = aOwn;
    y = aOwn + n;
  }
  for (i = 0; i < n; i++) {
    if (poll(c, 1) != SQLITE_OK) break;
    x[i].iPlayer = a[i];
    for (h = 0; h < SORT_INLINE; h++) {
      /* the first is compared at once; the next may never be needed */
      size_t j = h == 0 && k0 < k1 ? value_at(c, k0, a[i])
                                   : value_index(c->nPlayer, k0 + h, a[i]);
      x[i].r[h] = k0 + h < k1 ? c->aValue[j] : 0.0;
      x[i].f[h] = k0 + h < k1 ? c->aFlag[j] : 0;
    }
  }
  s.c = c;
  s.k0 = k0;
  s.k1 = k1;
  if (c->rc == SQLITE_OK) {
    x = tb_merge_sort(x, y, n, (int)sizeof(SortItem), 1, items_before, &s,
                      c->pEvent->pProbe, &rc);
    if (rc != SQLITE_OK) {
      c->rc = rc;
    } else {
      for (i = 0; i < n; i++) a[i] = x[i].iPlayer;
    }
  }
  sqlite3_free(aOwn);
}

/* A player and one value as an unsigned integer that sorts like it. */
typedef struct KeyItem {
  sqlite3_uint64 key;
  int iPlayer;
} KeyItem;

/* The bits of r, flipped so that unsigned order is the order of doubles. */
static sqlite3_uint64 order_bits(double r) {
  sqlite3_uint64 u;
  memcpy(&u, &r, sizeof(u));
  return (u >> 63) ? ~u : u | ((sqlite3_uint64)1 << 63);
}

/* From this many players, sort_on_double() sorts by radix. */
#define RADIX_MIN 4096

/*
** Sort x[0..n) by key, least significant byte first, through y; returns
** the buffer holding the result.  A byte that every key shares (most of
** the high bytes of doubles in a narrow range) costs no pass.
*/
/* Items a radix pass handles between polls, less one (a mask): a pass over
** 800,000 players scatters 13 MB into pages written for the first time. */
#define RADIX_SLICE 0xffff

static KeyItem *radix_sort(RankCtx *c, KeyItem *x, KeyItem *y, int n) {
  static const int nByte = (int)sizeof(sqlite3_uint64);
  int aCount[sizeof(sqlite3_uint64)][256];
  int b, i;
  memset(aCount, 0, sizeof(aCount));
  for (i = 0; i < n; i++) {
    sqlite3_uint64 key = x[i].key;
    for (b = 0; b < nByte; b++) aCount[b][(key >> (8 * b)) & 0xff]++;
    if ((i & RADIX_SLICE) == RADIX_SLICE && poll(c, RADIX_SLICE) != SQLITE_OK) {
      return x;
    }
  }
  for (b = 0; b < nByte; b++) {
    int *aPos = aCount[b], sum = 0, v;
    KeyItem *t;
    if (aPos[(x[0].key >> (8 * b)) & 0xff] == n) continue;
    for (v = 0; v < 256; v++) {
      int nv = aPos[v];
      aPos[v] = sum;
      sum += nv;
    }
    for (i = 0; i < n; i++) {
      y[aPos[(x[i].key >> (8 * b)) & 0xff]++] = x[i];
      /* x stays whole while y is written */
      if ((i & RADIX_SLICE) == RADIX_SLICE && poll(c, RADIX_SLICE) != SQLITE_OK) {
        return x;
      }
    }
    t = x;
    x = y;
    y = t;
    if (poll(c, n) != SQLITE_OK) break; /* x is whole after a pass */
  }
  return x;
}

/*
** Sort a[0..n) on the doubles of the k-th tiebreaker alone, best first:
** integer comparisons, no exact values, through x and y (n items each).
*/
static void sort_keys(RankCtx *c, int k, int *a, int n, KeyItem *x,
                      KeyItem *y) {
  sqlite3_uint64 flip = c->pPolicy->aTiebreaker[k]->bLowerIsBetter ? 0 : ~(sqlite3_uint64)0;
  int w, i;
  for (i = 0; i < n; i++) {
    if (poll(c, 1) != SQLITE_OK) return;
    if (c->bPending) prefetch_pending(c, k, a, i, n);
    x[i].key = order_bits(c->aValue[value_at(c, k, a[i])]) ^ flip;
    x[i].iPlayer = a[i];
  }
  if (n >= RADIX_MIN) {
    if (poll(c, n) != SQLITE_OK) return;
    x = radix_sort(c, x, y, n);
    if (c->rc != SQLITE_OK) return;
    for (i = 0; i < n; i++) a[i] = x[i].iPlayer;
    return;
  }
  /* runs of 16 by insertion first: small groups are the common case */
  for (i = 0; i < n; i += 16) {
    int e = i + 16 < n ? i + 16 : n, j;
    for (j = i + 1; j < e; j++) {
      KeyItem t = x[j];
      int h = j - 1;
      while (h >= i && x[h].key > t.key) {
        x[h + 1] = x[h];
        h--;
      }
      x[h + 1] = t;
    }
  }
  for (w = 16; w < n; w *= 2) {
    KeyItem *t;
    for (i = 0; i < n; i += 2 * w) {
      int lo = i, mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
      int l = lo, r = mid, o = lo;
      while (l < mid && r < hi) {
        int o0 = o, nStop = o + TB_POLL_WORK;
        while (l < mid && r < hi && o < nStop) {
          /* no branch on the comparison: it goes either way at random */
          int bRight = x[r].key < x[l].key;
          y[o++] = *(bRight ? &x[r] : &x[l]);
          r += bRight;
          l += !bRight;
        }
        if (poll(c, o - o0) != SQLITE_OK) return;
      }
      while (l < mid) y[o++] = x[l++];
      while (r < hi) y[o++] = x[r++];
    }
    t = x;
    x = y;
    y = t;
  }
  for (i = 0; i < n; i++) a[i] = x[i].iPlayer;
}

/* sort_keys() with buffers of its own (n > SORT_DIRECT). */
static void sort_on_double(RankCtx *c, int k, int *a, int n) {
  KeyItem *aBuf = sqlite3_malloc64(sizeof(KeyItem) * 2 * (sqlite3_uint64)n);
  if (aBuf == 0) {
    if (c->rc == SQLITE_OK) c->rc = SQLITE_NOMEM;
    return;
  }
  sort_keys(c, k, a, n, aBuf, aBuf + n);
  sqlite3_free(aBuf);
}

/*
** Whether the players a[0..n), whose doubles of the k-th tiebreaker are all
** equal but not all exact, are exactly tied on it: each compared with the
** first (their exact values computed once each).  A run of equal doubles
** is most often a true tie (Pokemon's owps of equal points), which is then
** sorted on the next tiebreaker's doubles instead of by a full sort that
** compares every pair it meets exactly.
*/
static int exact_tie(RankCtx *c, int k, const int *a, int n) {
  size_t j0 = value_index(c->nPlayer, k, a[0]);
  int i;
  for (i = 1; i < n && c->rc == SQLITE_OK; i++) {
    size_t j = value_index(c->nPlayer, k, a[i]);
    if (compare_exact(c, k, a[0], c->aFlag[j0], a[i], c->aFlag[j]) != 0) return 0;
  }
  return c->rc == SQLITE_OK;
}

/* Below this many players, sort_players() compares them directly. */
#define SORT_DIRECT 8

/*
** Sort a[0..n) on tiebreakers [k0, k1), then by id.  Most comparisons are
** settled by the doubles alone, so sort on the first tiebreaker's doubles,
** then cut the list wherever neighbours are too far apart to be ordered
** otherwise by their exact values (the doubles are sorted, so everything
** before a cut is then exactly above everything after it).  A run between
** cuts whose values are exact and equal is a true tie, sorted on the next
** tiebreaker the same way; any other run (values close but not known
** equal) is sorted by full comparisons, exact where needed.
*/
static void sort_players(RankCtx *c, int k0, int k1, int *a, int n) {
  int s, e;
  if (k0 == k1 || n <= SORT_DIRECT) {
    sort_full(c, k0, k1, a, n);
    return;
  }
  sort_on_double(c, k0, a, n);
  for (s = 0; s < n && c->rc == SQLITE_OK; s = e) {
    size_t i0 = value_index(c->nPlayer, k0, a[s]);
    double r0 = c->aValue[i0];
    int bTie = (c->aFlag[i0] & TB_VALUE_EXACT) != 0, bSame = 1;
    if (poll(c, 1) != SQLITE_OK) return;
    for (e = s + 1; e < n; e++) {
      size_t i = value_index(c->nPlayer, k0, a[e]);
      double rPrev = c->aValue[value_index(c->nPlayer, k0, a[e - 1])];
      if (!too_close(rPrev, c->aValue[i])) break;
      if (c->aValue[i] != r0) bSame = 0;
      if (!(c->aFlag[i] & TB_VALUE_EXACT)) bTie = 0;
    }
    if (e - s == 1) continue;
    /* a run of equal doubles is a tie if they are exact, or if the exact
    ** values they round are equal */
    bTie = bSame && (bTie || exact_tie(c, k0, a + s, e - s));
    if (c->rc != SQLITE_OK) return;
    if (bTie) {
      sort_players(c, k0 + 1, k1, a + s, e - s);
    } else {
      sort_full(c, k0, k1, a + s, e - s);
    }
  }
}

/* Groups of up to this many players are valued in a local array: most
** groups are of one player (tied with nobody), a malloc each otherwise. */
#define GROUP_LOCAL 8

/* Values of the policy's k-th (group) tiebreaker for one tied group. */
static int group_values(RankCtx *c, int k, const int *a, int n) {
  const TbTiebreaker *t = c->pPolicy->aTiebreaker[k];
  int i, rc;
  TbFrac aLocal[GROUP_LOCAL];
  TbFrac *aOut = n <= GROUP_LOCAL
                     ? aLocal
                     : sqlite3_malloc64(sizeof(TbFrac) * (sqlite3_uint64)(n + 1));
  if (aOut == 0 || exact_alloc(c, k) != SQLITE_OK) {
    if (aOut != aLocal) sqlite3_free(aOut);
    return c->rc = SQLITE_NOMEM;
  }
  rc = t->xGroup(c->pEvent, &c->pPolicy->aParams[k], a, n, aOut);
  if (rc != SQLITE_OK || poll(c, n) != SQLITE_OK) {
    if (aOut != aLocal) sqlite3_free(aOut);
    if (c->rc == SQLITE_OK) c->rc = rc;
    return c->rc;
  }
  for (i = 0; i < n && poll(c, 1) == SQLITE_OK; i++) {
    /* a group's values are places or 0/1: whole, and 128 bits hold them */
    size_t j = value_index(c->nPlayer, k, a[i]);
    c->aValue[j] = (double)aOut[i].num / (double)aOut[i].den;
    /* whole values below 2^53: their doubles order them, ties included,
    ** and are their exact values (exact_or_zero), so only others are kept */
    c->aFlag[j] = aOut[i].den == 1 && aOut[i].num >= -((i128)1 << 53) &&
                          aOut[i].num <= ((i128)1 << 53)
                      ? TB_VALUE_EXACT
                      : 0;
    if (c->aFlag[j] != TB_VALUE_EXACT) {
      TbQ q;
      q.q = aOut[i];
      q.pBig = 0;
      if (exact_set(c, k, a[i], &q) != SQLITE_OK) break;
    } else if (c->aSlot[k][a[i]] > 0) {
      /* valued again (a later group): the kept value is stale */
      tb_q_free(&c->aExact[k][c->aSlot[k][a[i]] - 1]);
      c->aSlot[k][a[i]] = 0;
    }
  }
  if (aOut != aLocal) sqlite3_free(aOut);
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
    for (e = s + 1; e < n && compare_players(c, k0, g, a[s], a[e]) == 0; e++) {
      if (poll(c, 1) != SQLITE_OK) return c->rc;
    }
    if (poll(c, e - s) != SQLITE_OK) return c->rc;
    if (group_values(c, g, a + s, e - s) != SQLITE_OK) return c->rc;
    if (rank_range(c, g, 1, a + s, e - s) != SQLITE_OK) return c->rc;
  }
  return c->rc;
}

/*
** Rank every player into a: one ranking, or with divisions or
** disqualified players (tb_player_class) one per class, classes in order:
** the values span the whole event, the places and the groups of tied
** players (head-to-head) stay within a class.
*/
static int rank_classes(RankCtx *c, int *a) {
  const TbEvent *e = c->pEvent;
  int n = e->nPlayer, nClass = 2 * e->nDivision + 2, i, s;
  int *aStart;
  if (!e->bClasses) {
    for (i = 0; i < n; i++) a[i] = i;
    return rank_range(c, 0, 0, a, n);
  }
  /* a counting sort by class */
  aStart = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)nClass + 1));
  if (aStart == 0) return SQLITE_NOMEM;
  memset(aStart, 0, sizeof(int) * ((size_t)nClass + 1));
  for (i = 0; i < n; i++) aStart[tb_player_class(e, i) + 1]++;
  for (i = 0; i < nClass; i++) aStart[i + 1] += aStart[i];
  for (i = 0; i < n; i++) a[aStart[tb_player_class(e, i)]++] = i;
  /* aStart[k] is now the end of class k */
  for (i = 0, s = 0; i < nClass && c->rc == SQLITE_OK; s = aStart[i++]) {
    if (aStart[i] > s) rank_range(c, 0, 0, a + s, aStart[i] - s);
  }
  sqlite3_free(aStart);
  return c->rc;
}

/*
** The columns of values kept: the policy's tiebreakers in its order, then
** those it only displays.
*/
static void set_columns(const TbPolicy *pPolicy, TbStandings *pOut) {
  int k, h;
  pOut->nCol = 0;
  for (k = 0; k < pPolicy->nTiebreaker; k++) {
    pOut->aColTb[pOut->nCol++] = tb_index(pPolicy->aTiebreaker[k]);
  }
  for (k = 0; k < pPolicy->nDisplay; k++) {
    int j = tb_index(pPolicy->aDisplay[k]);
    for (h = 0; h < pOut->nCol && pOut->aColTb[h] != j; h++) {
    }
    if (h == pOut->nCol) pOut->aColTb[pOut->nCol++] = j;
  }
}

/*
** One player's value of tiebreaker t, rounded: the fast pass's double when
** it is certainly the nearest double to the exact value, else the exact
** value's, rounded correctly (rare: the double-double is within its error
** bound of a midpoint between two doubles).  So every value shown is the
** correctly rounded double of its exact value, however its sums were
** ordered, and two equal values are equal doubles.
*/
static int fast_value(const TbEvent *e, const TbTiebreaker *t,
                      const TbParams *p, int i, double *pr,
                      unsigned char *pf) {
  TbAcc acc;
  int rc = SQLITE_OK;
  *pr = 0.0;
  *pf = TB_VALUE_NULL | TB_VALUE_EXACT; /* ranks as an exact 0 */
  if (t->xValue == 0) return SQLITE_OK;
  e = value_event(e, i);
  tb_acc_init(&acc, 0);
  acc.pProbe = e->pProbe; /* the exact values some values are made of */
  t->xValue(e, p, i, &acc);
  if (acc.bNoMem) return tb_acc_error(&acc);
  if (acc.bNull) return SQLITE_OK;
  tb_acc_normalize(&acc);
  *pr = acc.r;
  *pf = tb_acc_inexact(&acc) ? 0 : TB_VALUE_EXACT;
  if (!tb_acc_rounded(&acc)) {
    TbQ q;
    tb_acc_init(&acc, 1);
    acc.pProbe = e->pProbe;
    t->xValue(e, p, i, &acc);
    tb_acc_take(&acc, &q);
    if (!acc.bNoMem) *pr = tb_q_double_polled(&q, e->pProbe, &rc);
    tb_q_free(&q);
    if (acc.bNoMem) rc = tb_acc_error(&acc);
  }
  return rc;
}

/*
** Is column h computed only when needed (bLazy)?  Not the policy's first
** two tiebreakers, which rank nearly every player (the second breaks the
** ties of the first, points), nor a group tiebreaker (NULL until a group
** reaches it).
*/
#define EAGER_COLUMNS 2
static int column_pending(const TbStandings *pOut, int bLazy, int h) {
  return bLazy && h >= EAGER_COLUMNS && tb_aTiebreaker[pOut->aColTb[h]].xValue != 0;
}

/* The parameters column h is computed with: a policy tiebreaker's own. */
static const TbParams *column_params(const TbPolicy *pPolicy, int h) {
  return h < pPolicy->nTiebreaker ? &pPolicy->aParams[h] : &pPolicy->params;
}

/* Values of columns aCol[0..nNow) for every player whose value is pending
** (every player, when the flags were just set so). */
static int fill_columns(const TbEvent *e, const TbParams *const *apParams,
                        const int *aCol, int nNow, TbStandings *pOut) {
  int i, n, h, rc = SQLITE_OK;
  /* player by player: a player's values read the same opponents' terms,
  ** so the first brings them into the cache for the others (the players
  ** and their seats are read in order) */
  for (i = 0; i < e->nPlayer && rc == SQLITE_OK; i++) {
    if ((rc = tb_poll(e->pProbe, (i64)nNow * (1 + e->aPlayer[i].nSeat)))) {
      return rc;
    }
    for (n = 0; n < nNow && rc == SQLITE_OK; n++) {
      size_t j = value_index(e->nPlayer, h = aCol[n], i);
      if (!(pOut->aFlag[j] & TB_VALUE_PENDING)) continue;
      rc = fast_value(e, &tb_aTiebreaker[pOut->aColTb[h]], apParams[n], i,
                      &pOut->aValue[j], &pOut->aFlag[j]);
    }
  }
  return rc;
}

/* Fast values of every column computed now for every player.  Group
** tiebreakers stay NULL until a group reaches them. */
static int fast_values(const TbEvent *e, const TbPolicy *pPolicy, int bLazy,
                       TbStandings *pOut) {
  const TbParams *apParams[2 * TB_MAX_TIEBREAKERS];
  int aCol[2 * TB_MAX_TIEBREAKERS], nNow = 0; /* the columns computed now */
  int h;
  for (h = 0; h < pOut->nCol; h++) {
    /* only the flags: the values are written when computed */
    memset(&pOut->aFlag[value_index(e->nPlayer, h, 0)],
           TB_VALUE_PENDING | TB_VALUE_NULL, (size_t)e->nPlayer);
    if (!column_pending(pOut, bLazy, h)) {
      apParams[nNow] = column_params(pPolicy, h);
      aCol[nNow++] = h;
    }
  }
  return nNow ? fill_columns(e, apParams, aCol, nNow, pOut) : SQLITE_OK;
}

/*
** Keep what computing the pending values later needs: each column's
** parameters (the policy may not outlive the ranking).
*/
static int keep_pending(const TbPolicy *pPolicy, TbStandings *pOut) {
  int h;
  pOut->aParams = sqlite3_malloc64(sizeof(TbParams) * ((sqlite3_uint64)pOut->nCol + 1));
  if (pOut->aParams == 0) return SQLITE_NOMEM;
  for (h = 0; h < pOut->nCol; h++) pOut->aParams[h] = *column_params(pPolicy, h);
  return SQLITE_OK;
}

/* The column of tiebreaker iTiebreaker, or -1. */
int tb_standings_column(const TbStandings *p, int iTiebreaker) {
  int h;
  for (h = 0; h < p->nCol && p->aColTb[h] != iTiebreaker; h++) {
  }
  return h < p->nCol ? h : -1;
}

/* Is player iPlayer's value of column h still to be computed? */
int tb_standings_pending(const TbStandings *p, int iPlayer, int h) {
  return (p->aFlag[value_index(p->nPlayer, h, iPlayer)] & TB_VALUE_PENDING) != 0;
}

/*
** Compute every value no comparison needed, the first time a statement
** reads one: a statement that reads a tiebreaker's column reads most of
** them (a crosstable), and one pass computes a player's values together,
** from the same opponents' records.  e is the event ranked, as it was.
*/
int tb_standings_fill(TbStandings *p, const TbEvent *e) {
  const TbParams *apParams[2 * TB_MAX_TIEBREAKERS];
  int aCol[2 * TB_MAX_TIEBREAKERS], n = 0, h;
  if (p->aParams == 0) return SQLITE_OK; /* nothing is pending */
  for (h = 0; h < p->nCol; h++) {
    apParams[n] = &p->aParams[h];
    aCol[n++] = h;
  }
  return fill_columns(e, apParams, aCol, n, p);
}

/* Player iPlayer's value of tiebreaker iTiebreaker: 0 when NULL or not
** computed, else 1 with the value in *pr. */
int tb_standings_value(const TbStandings *p, int iPlayer, int iTiebreaker,
                       double *pr) {
  int h = tb_standings_column(p, iTiebreaker);
  /* NULL, or not computed (TB_VALUE_PENDING is NULL too) */
  if (h < 0 || (p->aFlag[value_index(p->nPlayer, h, iPlayer)] & TB_VALUE_NULL)) {
    return 0;
  }
  *pr = p->aValue[value_index(p->nPlayer, h, iPlayer)];
  return 1;
}

void tb_standings_free(TbStandings *p) {
  sqlite3_free(p->aOrder);
  sqlite3_free(p->aRank);
  sqlite3_free(p->aDecidedBy);
  sqlite3_free(p->aValue);
  sqlite3_free(p->aFlag);
  sqlite3_free(p->aSwissRank);
  sqlite3_free(p->aParams);
  memset(p, 0, sizeof(*p));
}

/* Room for each place's rank and deciding tiebreaker: SQLITE_NOMEM. */
static int alloc_ranks(TbStandings *pOut, sqlite3_uint64 n) {
  pOut->aRank = sqlite3_malloc64(sizeof(int) * (n + 1));
  pOut->aDecidedBy = sqlite3_malloc64(sizeof(TbTiebreaker *) * (n + 1));
  return pOut->aRank && pOut->aDecidedBy ? SQLITE_OK : SQLITE_NOMEM;
}

int tb_rank(const TbEvent *pEvent, const TbPolicy *pPolicy, int bLazy,
            TbStandings *pOut, char **pzErr) {
  sqlite3_uint64 n = (sqlite3_uint64)pEvent->nPlayer;
  sqlite3_uint64 nVal;
  RankCtx c;
  int i, i0, k;

  memset(pOut, 0, sizeof(*pOut));
  memset(&c, 0, sizeof(c));
  c.zero.q.den = 1;
  set_columns(pPolicy, pOut);
  nVal = n * (sqlite3_uint64)pOut->nCol;
  pOut->nPlayer = pEvent->nPlayer;
  pOut->nPointScale = pPolicy->params.nPointScale;
  pOut->aOrder = sqlite3_malloc64(sizeof(int) * (n + 1));
  pOut->aValue = sqlite3_malloc64(sizeof(double) * (nVal + 1));
  pOut->aFlag = sqlite3_malloc64(nVal + 1);
  if (!pOut->aOrder || !pOut->aValue || !pOut->aFlag) {
    tb_standings_free(pOut);
    return SQLITE_NOMEM;
  }
  c.rc = fast_values(pEvent, pPolicy, bLazy, pOut);
  for (k = 0; k < pOut->nCol; k++) c.bPending |= column_pending(pOut, bLazy, k);
  /* aParams set: some values are pending (tb_standings_fill) */
  if (c.rc == SQLITE_OK && c.bPending) c.rc = keep_pending(pPolicy, pOut);

  c.pEvent = pEvent;
  c.pPolicy = pPolicy;
  c.nPlayer = pEvent->nPlayer;
  c.aValue = pOut->aValue;
  c.aFlag = pOut->aFlag;
  if (c.rc == SQLITE_OK) c.rc = rank_classes(&c, pOut->aOrder);
  /* the ranks once the values are computed: not held beside what
  ** computing them needs (Pokemon's sweep peaks there) */
  if (c.rc == SQLITE_OK) c.rc = alloc_ranks(pOut, n);

  for (i = 0, i0 = 0; i < pEvent->nPlayer && poll(&c, 1) == SQLITE_OK; i++) {
    int iClass = tb_player_class(pEvent, pOut->aOrder[i]);
    pOut->aRank[i] = i - i0 + 1;
    pOut->aDecidedBy[i] = 0;
    if (i == 0 || iClass != tb_player_class(pEvent, pOut->aOrder[i - 1])) {
      i0 = i; /* the first of a division */
      pOut->aRank[i] = 1;
    } else {
      for (k = 0; k < pPolicy->nTiebreaker; k++) {
        if (compare_on(&c, k, pOut->aOrder[i - 1], pOut->aOrder[i])) break;
      }
      if (k < pPolicy->nTiebreaker) {
        pOut->aDecidedBy[i] = pPolicy->aTiebreaker[k];
      } else {
        pOut->aRank[i] = pOut->aRank[i - 1];
      }
    }
    if (iClass & 1) { /* disqualified: no place */
      pOut->aRank[i] = 0;
      pOut->aDecidedBy[i] = 0;
    }
  }

  for (k = 0; k < TB_MAX_TIEBREAKERS; k++) {
    for (i = 0; i < c.nExact[k]; i++) tb_q_free(&c.aExact[k][i]);
    sqlite3_free(c.aExact[k]);
    sqlite3_free(c.aSlot[k]);
  }
  (void)pzErr;
  if (c.rc != SQLITE_OK) tb_standings_free(pOut);
  return c.rc;
}
