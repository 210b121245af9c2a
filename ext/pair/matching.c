/*
** pair/matching.c: the matching core every pairing system uses, an exact
** maximum-weight matching in a general graph.
**
** Edmonds' blossom algorithm with dual variables (the primal-dual method of
** Galil, "Efficient algorithms for finding maximum matching in graphs",
** ACM Computing Surveys 1986), O(n^3) in the worst case.  A weight is an
** integer of nW 64-bit words (two's complement, least significant word
** first): one word for the Swiss systems, as many as the Dutch system's
** criteria need.  Duals are kept doubled (slack = u_i + u_j - 2 w), so
** every dual and slack stays an integer.
**
** Two forms of the graph:
**   - an edge list with int64 weights (TbMatchEdge), solved once:
**       TbMatchEdge aEdge[] = {{0, 1, 5}, {1, 2, 7}, {2, 3, 5}};
**       rc = tb_match_weighted(4, 3, aEdge, 0, pProbe, aMate, 0);
**       -- aMate = {1, 0, 3, 2}: weight 10 beats the single edge of 7
**     with TB_MATCH_MAXCARD the most edges come first (negative weights
**     allowed), and the duals can be read as a certificate (swiss.c);
**   - the complete graph as the caller's symmetric n x n matrix of wide
**     weights (zero: no pair), or the caller's function that makes a
**     pair's weight when read, kept with its optimal duals between solves
**     so that a change at a few vertices costs a few augmentations
**     (dutch.c): tb_match_open_dense, tb_match_solve, tb_match_touch ...;
**     it keeps nothing a pair: no list of neighbours (a vertex's pairs
**     are every other vertex, numbered in order) and no flag of the pairs
**     usable this stage (a pair's slack tells, see allow_edge).
**
** Each stage grows alternating trees from the free vertices whose dual is
** positive (all free vertices with TB_MATCH_MAXCARD) and ends with an
** augmentation or, without TB_MATCH_MAXCARD, with one vertex whose dual
** reached 0 left free; it visits only the vertices and blossoms it labeled.
** In the dense form a stage goes on after an augmentation, along tight
** pairs, with the trees that did not augment: the duals stay, so every
** path it finds is as good, and a warm solve that freed many vertices
** regrows its forest once per batch of paths, not once per path.
** Every allocation goes through sqlite3_malloc64; the probe is polled in
** every loop that may be long.
*/
#include "pairing.h"
#include <limits.h>
#include <string.h>

/* The calls a scan makes for each pair it reads, inlined. */
#if defined(__GNUC__)
#define MATCH_INLINE inline __attribute__((always_inline))
#define MATCH_NOINLINE __attribute__((noinline))
#else
#define MATCH_INLINE inline
#define MATCH_NOINLINE
#endif

typedef struct Blossom {
  int nChild;
  int *aChild;        /* sub-blossoms around the cycle, from the base */
  int *aEndp;         /* aEndp[k]: endpoint pair joining child k and k+1 */
  int nBest;
  int *aBest;         /* least-slack edges to other S-blossoms, or NULL */
  int bPending;       /* dense form: aBest not made yet (see pending_best) */
} Blossom;

/* Scratch values (nW words each), by role. */
enum { T_SLACK, T_A, T_B, T_DELTA, T_D, T_WEIGHT, T_COUNT };

struct TbMatcher {
  int n, m, nW;
  int bMaxCard;       /* the most edges first (edge-list form only) */
  int bDense;         /* the graph is the caller's n x n matrix */
  const unsigned char *pWeight;  /* weight number x at pWeight + x*nStride */
  size_t nStride;
  TbMatchWeightFn xWeight;       /* dense form without a matrix: the
                                 ** caller makes pair {v, w}'s weight */
  TbMatchSlackFn xSlack;         /* ... and, if given, its slack */
  TbMatchSignFn xSign;           /* ... and its slack's sign */
  void *pWeightArg;
  const TbMatchEdge *aEdge;      /* edge-list form: the caller's edges */
  void *pVertexBlock;            /* the arrays per vertex or blossom */
  void *pEdgeBlock;              /* the arrays per edge */
  const unsigned char *pEnd;     /* edge-list form: edge k's ends, two
                                 ** ints at pEnd + k*nEndStride */
  size_t nEndStride;
  int *aNbStart;      /* n+1: CSR of the neighbours of each vertex (the
                      ** dense form: v's at v*(n-1), see nb_vertex) */
  int *aNbVertex;     /* 2m, edge-list form: the neighbours */
  int *aNb;           /* 2m, edge-list form: the remote endpoint at aNbVertex[q] */
  int *aMate;         /* n: remote endpoint of the matched edge, or -1 */
  int *aLabel;        /* 2n: 0 none, 1 S, 2 T (5: seen by scan_blossom) */
  int *aLabelEnd;     /* 2n */
  int *aInBlossom;    /* n: top-level blossom of each vertex */
  int *aParent;       /* 2n */
  int *aBase;         /* 2n */
  int *aBestEdge;     /* 2n */
  Blossom *aBlossom;  /* 2n (entries below n unused) */
  int *aUnused;       /* stack of free blossom numbers */
  int nUnused;
  TbWord *aDual;      /* 2n values, doubled */
  TbWord *aBestSlack; /* 2n values: the slack of aCacheEdge[x] ... */
  TbWord *aBestToSlack; /* 2n + 2 values: the slack of aBestTo[x] */
  int *aCacheEdge;    /* ... while aCacheEpoch[x] is the duals' epoch */
  int *aCacheEpoch;
  int iEpoch;         /* counts the dual changes */
  TbWord *aTmp;       /* T_COUNT values */
  unsigned char *aAllow; /* edge-list form: a bit per edge, usable this
                         ** stage (see allow_edge) */
  int *aAllowed;      /* edges whose aAllow was set this stage (the first
                      ** nAllowedMax; beyond, every flag is cleared) */
  int nAllowed, nAllowedMax;
  int *aQueue;
  int nQueue, nQueueAlloc;
  int *aOutside;      /* n: the vertices outside blossom iOutside ... */
  int nOutside, iOutside;
  int iShape;         /* ... while iShape is iOutsideShape (it counts the
                      ** changes of aInBlossom) */
  int iOutsideShape;
  int *aScratch;      /* 2n + 2: leaves, paths */
  int *aScratch2;     /* 2n + 2 */
  int *aBestTo;       /* 2n + 2, all -1 between uses */
  int *aStack;        /* 2n + 2: leaf walks */
  int *aStamp;        /* 2n: the stage that last touched each entry */
  int *aSpent;        /* 2n: the stage in which the tree rooted at this
                      ** top blossom augmented (see spent) */
  int nStageAug;      /* augmentations in this stage so far (the dense
                      ** form's stages go on after one, see scan_queue) */
  int iStamp;
  int *aTouch;        /* 2n: entries labeled or given a best edge this stage */
  int nTouch;
  int *aFree;         /* candidate roots: free vertices (some matched since) */
  int nFree;
  unsigned char *aListed; /* n: on aFree */
  unsigned char *aDead;   /* n: removed from the graph ... */
  int nDead;              /* ... how many */
  int *aLive;             /* n: the vertices not removed, in order (the
                          ** dense form's scans read no removed one) */
  int nLive;
  int bStarted;       /* duals and matching hold */
  int bLazy;          /* dense form: this stage augmented, and reads
                      ** tight pairs only from now on (see scan_queue) ... */
  int bFullScans;     /* ... unless tb_match_full_scans(), which also
                      ** reads the pairs labeled_t() passes over */
  TbProbe *pProbe;
  int rc;
};
typedef TbMatcher Matcher;

/* ------------------------------------------------------------ wide values */

static inline void v_copy(int nW, TbWord *r, const TbWord *a) {
  if (nW == 1) r[0] = a[0];
  else memcpy(r, a, sizeof(TbWord) * (size_t)nW);
}
static inline void v_zero(int nW, TbWord *r) { memset(r, 0, sizeof(TbWord) * (size_t)nW); }
static inline int v_is_zero(int nW, const TbWord *a) {
  int i;
  for (i = 0; i < nW; i++) if (a[i]) return 0;
  return 1;
}
static inline void v_add(int nW, TbWord *r, const TbWord *a) {
  TbWord c = 0;
  int i;
  if (nW == 1) { r[0] += a[0]; return; }
  for (i = 0; i < nW; i++) {
    TbWord s = r[i] + c;
    c = s < c;
    s += a[i];
    c += s < a[i];
    r[i] = s;
  }
}
static inline void v_sub(int nW, TbWord *r, const TbWord *a) {
  TbWord b = 0;
  int i;
  if (nW == 1) { r[0] -= a[0]; return; }
  for (i = 0; i < nW; i++) {
    TbWord x = r[i], y = a[i] + b;
    b = (y < b) || (x < y);
    r[i] = x - y;
  }
}
/* Signed comparison. */
static inline int v_cmp(int nW, const TbWord *a, const TbWord *b) {
  int i = nW - 1;
  if (a[i] != b[i]) return (i64)a[i] < (i64)b[i] ? -1 : 1;
  for (i--; i >= 0; i--) if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}
static inline int v_sign(int nW, const TbWord *a) {
  if ((i64)a[nW - 1] < 0) return -1;
  return !v_is_zero(nW, a);
}
/* Halves r (an arithmetic shift: the floor). */
static inline void v_half(int nW, TbWord *r) {
  int i;
  for (i = 0; i < nW - 1; i++) r[i] = (r[i] >> 1) | (r[i + 1] << 63);
  r[i] = (TbWord)((i64)r[i] >> 1);
}
static void v_inc(int nW, TbWord *r) {
  int i;
  for (i = 0; i < nW && ++r[i] == 0; i++) {}
}
static void v_dec(int nW, TbWord *r) {
  int i;
  for (i = 0; i < nW && r[i]-- == 0; i++) {}
}
/* Rounds r up to an even number. */
static void v_even(int nW, TbWord *r) {
  if (r[0] & 1) v_inc(nW, r);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 WideCarry;
#endif

/* r = a + b - 2 w, the hot spot of a solve. */
static inline void v_slack(int nW, const TbWord *a, const TbWord *b, const TbWord *w, TbWord *r) {
  if (nW == 1) {
    r[0] = a[0] + b[0] - 2 * w[0];
  } else {
#ifdef __SIZEOF_INT128__
    /* one pass, a signed 128-bit carry per word */
    WideCarry c = 0;
    int t;
    for (t = 0; t < nW; t++) {
      c += (WideCarry)a[t] + b[t] - 2 * (WideCarry)w[t];
      r[t] = (TbWord)c;
      c >>= 64;
    }
#else
    v_copy(nW, r, a);
    v_add(nW, r, b);
    v_sub(nW, r, w);
    v_sub(nW, r, w);
#endif
  }
}

/* ------------------------------------------------------------------ graph */

static inline TbWord *dual_of(const Matcher *p, int x) {
  return p->aDual + (size_t)x * (size_t)p->nW;
}
static inline TbWord *tmp(const Matcher *p, int iRole) {
  return p->aTmp + (size_t)iRole * (size_t)p->nW;
}

/* The vertex at endpoint e: edge e/2's first end for e even, its second
** for e odd (e^1 is the other end).  The dense form numbers pair {i, j},
** i < j, as edge i*n + j, so that it keeps no array per edge but the
** neighbour lists; the edge-list form reads the ends in place in the
** caller's list, where they sit beside the weight. */
static inline int endpoint(const Matcher *p, int e) {
  if (p->bDense) {
    int k = e >> 1;
    return (e & 1) ? k % p->n : k / p->n;
  }
  return *(const int *)(p->pEnd + (size_t)(e >> 1) * p->nEndStride
                        + (size_t)(e & 1) * sizeof(int));
}

/* The neighbour at index q of v's list: the dense form keeps no list but
** numbers v's pairs from v*(n-1), every other vertex in order (a pair
** without a weight is not in the graph: live_slack() says -1).  v is
** given, not found from q, which would cost a division a pair read. */
static inline int nb_vertex(const Matcher *p, int v, int q) {
  if (p->bDense) {
    int w = q - v * (p->n - 1);
    return w >= v ? w + 1 : w;
  }
  return p->aNbVertex[q];
}

/* The endpoint at w of the edge between v and its neighbour w = nb_vertex(v, q). */
static inline int nb_end(const Matcher *p, int v, int w, int q) {
  if (!p->bDense) return p->aNb[q];
  return v < w ? 2 * (v * p->n + w) + 1 : 2 * (w * p->n + v);
}

/* The weight of edge k between v and w; the dense matrix is read along
** v's row (a scan of v's pairs reads memory in order).  Made by the
** caller's function, the weight lives in scratch T_WEIGHT until the next
** call: no caller holds two. */
static const TbWord *pair_weight(const Matcher *p, int v, int w, int k) {
  size_t x;
  if (p->xWeight) return p->xWeight(p->pWeightArg, v, w, tmp(p, T_WEIGHT));
  x = p->bDense ? (size_t)v * (size_t)p->n + (size_t)w : (size_t)k;
  return (const TbWord *)(p->pWeight + x * p->nStride);
}

/* The weight of edge k. */
static const TbWord *edge_weight(const Matcher *p, int k) {
  return pair_weight(p, endpoint(p, 2 * k), endpoint(p, 2 * k + 1), k);
}

static inline void pair_slack(const Matcher *p, int v, int w, int k, TbWord *r) {
  if (p->xSlack && p->xSlack(p->pWeightArg, v, w, dual_of(p, v), dual_of(p, w), r) == 0) return;
  v_slack(p->nW, dual_of(p, v), dual_of(p, w), pair_weight(p, v, w, k), r);
}

static inline void edge_slack(const Matcher *p, int k, TbWord *r) {
  pair_slack(p, endpoint(p, 2 * k), endpoint(p, 2 * k + 1), k, r);
}

/* The slack of the pair of v and w, of weight x, into r, and whether it is
** tight (<= 0), or -1 when the pair is not in the graph (x is 0): in one
** pass over the weight, which a scan reads for each of n pairs. */
static inline int weight_slack(const Matcher *p, int v, int w, const TbWord *x, TbWord *r) {
#ifdef __SIZEOF_INT128__
  if (p->bDense && p->nW > 1) {
    const TbWord *a = dual_of(p, v), *b = dual_of(p, w);
    TbWord any = 0, nonzero = 0;
    WideCarry c = 0;
    int t, nW = p->nW;
    for (t = 0; t < nW; t++) {
      any |= x[t];
      c += (WideCarry)a[t] + b[t] - 2 * (WideCarry)x[t];
      r[t] = (TbWord)c;
      nonzero |= r[t];
      c >>= 64;
    }
    if (!any) return -1;
    return (i64)r[nW - 1] < 0 || !nonzero;
  }
#endif
  if (p->bDense && v_is_zero(p->nW, x)) return -1;
  v_slack(p->nW, dual_of(p, v), dual_of(p, w), x, r);
  return v_sign(p->nW, r) <= 0;
}

/* The same for the pair of v and w (edge k), its weight read here. */
static inline int live_slack(const Matcher *p, int v, int w, int k, TbWord *r) {
  if (p->nDead > 0 && p->aDead[w]) return -1;
  if (p->xSlack) {
    if (p->xSlack(p->pWeightArg, v, w, dual_of(p, v), dual_of(p, w), r) < 0) return -1;
    return v_sign(p->nW, r) <= 0;
  }
  return weight_slack(p, v, w, pair_weight(p, v, w, k), r);
}

/* The slack of edge k when weights are one word. */
static inline i64 slack_word(const Matcher *p, int k) {
  int i = endpoint(p, 2 * k), j = endpoint(p, 2 * k + 1);
  return (i64)(p->aDual[i] + p->aDual[j] - 2 * pair_weight(p, i, j, k)[0]);
}

/* Works out the slack of entry x's best edge again, into s. */
static MATCH_NOINLINE void best_slack_make(Matcher *p, int x, TbWord *s) {
  edge_slack(p, p->aBestEdge[x], s);
  p->aCacheEdge[x] = p->aBestEdge[x];
  p->aCacheEpoch[x] = p->iEpoch;
}

/* The slack of entry x's best edge, cached per dual epoch: a scan
** compares many edges with it. */
static MATCH_INLINE const TbWord *best_slack(Matcher *p, int x) {
  TbWord *s = p->aBestSlack + (size_t)x * (size_t)p->nW;
  if (p->aCacheEdge[x] != p->aBestEdge[x] || p->aCacheEpoch[x] != p->iEpoch) {
    best_slack_make(p, x, s);
  }
  return s;
}

/* Makes edge k, of slack ks, x's best edge unless one is as good;
** returns whether it did.  Inlined: a full scan offers most pairs it
** reads, and keeps few. */
static MATCH_INLINE int offer_best_edge(Matcher *p, int x, int k, const TbWord *ks) {
  if (p->nW == 1) {
    if (p->aBestEdge[x] != -1 && (i64)ks[0] >= slack_word(p, p->aBestEdge[x])) return 0;
    p->aBestEdge[x] = k;
    return 1;
  }
  if (p->aBestEdge[x] != -1 && v_cmp(p->nW, ks, best_slack(p, x)) >= 0) return 0;
  p->aBestEdge[x] = k;
  v_copy(p->nW, p->aBestSlack + (size_t)x * (size_t)p->nW, ks);
  p->aCacheEdge[x] = k;
  p->aCacheEpoch[x] = p->iEpoch;
  return 1;
}

/* Writes the vertices inside blossom b to aOut; returns their count. */
static int leaves(Matcher *p, int b, int *aOut) {
  int nOut = 0, nStack = 0;
  p->aStack[nStack++] = b;
  while (nStack > 0) {
    int t = p->aStack[--nStack], k;
    if (t < p->n) { aOut[nOut++] = t; continue; }
    for (k = p->aBlossom[t].nChild - 1; k >= 0; k--) {
      p->aStack[nStack++] = p->aBlossom[t].aChild[k];
    }
  }
  return nOut;
}

/* Records that entry x (vertex or blossom) changed this stage: the dual
** step and the next stage's reset visit only such entries. */
static void touch(Matcher *p, int x) {
  if (p->aStamp[x] != p->iStamp) {
    p->aStamp[x] = p->iStamp;
    p->aTouch[p->nTouch++] = x;
  }
}

/* Appends x to the growing array *pa of *pn ints (room for *pnAlloc). */
static void push_int(Matcher *p, int **pa, int *pn, int *pnAlloc, int x) {
  if (*pn == *pnAlloc) {
    int nNew = *pnAlloc * 2 + 16;
    int *aNew = sqlite3_realloc64(*pa, sizeof(int) * (sqlite3_uint64)nNew);
    if (aNew == 0) { p->rc = SQLITE_NOMEM; return; }
    *pa = aNew;
    *pnAlloc = nNew;
  }
  (*pa)[(*pn)++] = x;
}

static void queue_push(Matcher *p, int v) {
  touch(p, v);
  push_int(p, &p->aQueue, &p->nQueue, &p->nQueueAlloc, v);
}

/* Whether edge k is flagged usable this stage (edge-list form). */
static inline int allowed(const Matcher *p, int k) {
  return (p->aAllow[k >> 3] >> (k & 7)) & 1;
}
static inline void allow_bit(Matcher *p, int k, int bOn) {
  unsigned char m = (unsigned char)(1u << (k & 7));
  if (bOn) p->aAllow[k >> 3] |= m; else p->aAllow[k >> 3] &= (unsigned char)~m;
}

/*
** Flags edge k, found tight, as usable for the rest of the stage.  A
** flagged edge stays tight until the stage ends: one end is an S-vertex,
** and a dual step moves the other end's dual against it (T), or stops
** before the slack of an S-S or S-free edge would pass 0, and blossoms
** keep their edges' slacks.  So the dense form keeps no flags (they were
** n x n bits): its scans read the slack's sign, which tells the same.
*/
static void allow_edge(Matcher *p, int k) {
  if (p->bDense || allowed(p, k)) return;
  allow_bit(p, k, 1);
  if (p->nAllowed < p->nAllowedMax) p->aAllowed[p->nAllowed] = k;
  p->nAllowed++;
}

/* Clears the flags allow_edge() set this stage. */
static void clear_allowed(Matcher *p) {
  int k;
  if (p->bDense) return;
  if (p->nAllowed <= p->nAllowedMax) {
    for (k = 0; k < p->nAllowed; k++) allow_bit(p, p->aAllowed[k], 0);
  } else {
    memset(p->aAllow, 0, ((size_t)p->m + 7) / 8);
  }
  p->nAllowed = 0;
}

/* ------------------------------------------------------------- the method */

/* Labels vertex w's top blossom t (1: S, 2: T) through endpoint e; a T
** blossom's mate becomes S. */
static void assign_label(Matcher *p, int w, int t, int e) {
  int b = p->aInBlossom[w];
  touch(p, w);
  touch(p, b);
  p->aLabel[w] = p->aLabel[b] = t;
  p->aLabelEnd[w] = p->aLabelEnd[b] = e;
  p->aBestEdge[w] = p->aBestEdge[b] = -1;
  if (t == 1) {
    int nLeaf = leaves(p, b, p->aScratch), k;
    for (k = 0; k < nLeaf && p->rc == SQLITE_OK; k++) {
      queue_push(p, p->aScratch[k]);
    }
  } else {
    int base = p->aBase[b], nLeaf = leaves(p, b, p->aScratch), k;
    for (k = 0; k < nLeaf; k++) touch(p, p->aScratch[k]);
    assign_label(p, endpoint(p, p->aMate[base]), 1, p->aMate[base] ^ 1);
  }
}

/* Traces back from v and w to the roots: the base of the new blossom, or
** -1 when the path is augmenting. */
static int scan_blossom(Matcher *p, int v, int w) {
  int nPath = 0, base = -1, k;
  int *aPath = p->aScratch2;
  while (v != -1 || w != -1) {
    int b = p->aInBlossom[v];
    if (p->aLabel[b] & 4) { base = p->aBase[b]; break; }
    aPath[nPath++] = b;
    p->aLabel[b] = 5;
    if (p->aLabelEnd[b] == -1) {
      v = -1;
    } else {
      v = endpoint(p, p->aLabelEnd[b]);
      b = p->aInBlossom[v];
      v = endpoint(p, p->aLabelEnd[b]);
    }
    if (w != -1) { int t = v; v = w; w = t; }
  }
  for (k = 0; k < nPath; k++) p->aLabel[aPath[k]] = 1;
  return base;
}

static void reverse_ints(int *a, int n) {
  int i;
  for (i = 0; i < n / 2; i++) { int t = a[i]; a[i] = a[n - 1 - i]; a[n - 1 - i] = t; }
}

/* Offers edge k from vertex i to vertex j to the least-slack table of the
** new blossom b.  Each offer computes one slack, read along i's row; the
** slack of each blossom's best edge so far is kept beside it. */
static void offer_best(Matcher *p, int b, int k, int i, int j, int *aTouched,
                       int *pnTouched) {
  int bj, nW = p->nW;
  TbWord *ks, *best;
  if (p->aInBlossom[j] == b) { int t = i; i = j; j = t; }
  bj = p->aInBlossom[j];
  if (bj == b || p->aLabel[bj] != 1) return;
  ks = tmp(p, T_A);
  if (live_slack(p, i, j, k, ks) < 0) return;     /* one ask of the weight */
  best = p->aBestToSlack + (size_t)bj * (size_t)nW;
  if (p->aBestTo[bj] == -1) {
    aTouched[(*pnTouched)++] = bj;
    p->aBestTo[bj] = k;
    v_copy(nW, best, ks);
    return;
  }
  if (v_cmp(nW, ks, best) < 0) {
    p->aBestTo[bj] = k;
    v_copy(nW, best, ks);
  }
}

/* The least-slack edges from the new S-blossom b to every other S-blossom. */
static void blossom_best_edges(Matcher *p, int b) {
  Blossom *pB = &p->aBlossom[b];
  int *aTouched = p->aScratch2, nTouched = 0, c, k, nS = 0;
  /* the dense form: the S-vertices outside b, in order, once for every
  ** leaf (the second half of the scratch; the blossoms touched take at
  ** most the first) */
  int *aS = p->aScratch2 + p->n + 1;
  if (p->bDense) {
    int w;
    for (w = 0; w < p->n; w++) {
      int bw = p->aInBlossom[w];
      if (bw != b && p->aLabel[bw] == 1 && !(p->nDead > 0 && p->aDead[w])) aS[nS++] = w;
    }
  }
  for (c = 0; c < pB->nChild; c++) {
    int bv = pB->aChild[c];
    Blossom *pC = bv >= p->n ? &p->aBlossom[bv] : 0;
    if (pC && pC->aBest) {
      for (k = 0; k < pC->nBest; k++) {
        int e = pC->aBest[k];
        offer_best(p, b, e, endpoint(p, 2 * e), endpoint(p, 2 * e + 1), aTouched, &nTouched);
      }
    } else {
      int nLeaf = leaves(p, bv, p->aScratch), l;
      for (l = 0; l < nLeaf; l++) {
        int v = p->aScratch[l], q, t;
        if (p->bDense) {
          /* every other vertex is v's neighbour: the S ones, in order */
          for (t = 0; t < nS; t++) {
            int w = aS[t];
            offer_best(p, b, nb_end(p, v, w, 0) / 2, v, w, aTouched, &nTouched);
          }
          continue;
        }
        for (q = p->aNbStart[v]; q < p->aNbStart[v + 1]; q++) {
          int w = nb_vertex(p, v, q);
          offer_best(p, b, nb_end(p, v, w, q) / 2, v, w, aTouched, &nTouched);
        }
      }
    }
    if (pC) { sqlite3_free(pC->aBest); pC->aBest = 0; pC->nBest = 0; }
    p->aBestEdge[bv] = -1;
  }
  pB->aBest = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(nTouched + 1));
  if (pB->aBest == 0) {
    p->rc = SQLITE_NOMEM;
    for (k = 0; k < nTouched; k++) p->aBestTo[aTouched[k]] = -1;
    return;
  }
  pB->nBest = 0;
  p->aBestEdge[b] = -1;
  for (k = 0; k < nTouched; k++) {
    int e = p->aBestTo[aTouched[k]];
    p->aBestTo[aTouched[k]] = -1;
    pB->aBest[pB->nBest++] = e;
    offer_best_edge(p, b, e, p->aBestToSlack + (size_t)aTouched[k] * (size_t)p->nW);
  }
}

/* Makes a blossom of the odd cycle closed by edge k, with the given base. */
static void add_blossom(Matcher *p, int base, int k) {
  int v = endpoint(p, 2 * k), w = endpoint(p, 2 * k + 1);
  int bb = p->aInBlossom[base], bv = p->aInBlossom[v], bw = p->aInBlossom[w];
  int b, nPath = 0, nEndp = 0, nLeaf, l;
  int *aPath = p->aScratch, *aEndp = p->aScratch2;
  Blossom *pB;
  b = p->aUnused[--p->nUnused];
  touch(p, b);
  pB = &p->aBlossom[b];
  p->aBase[b] = base;
  p->aParent[b] = -1;
  p->aParent[bb] = b;
  while (bv != bb) {
    p->aParent[bv] = b;
    aPath[nPath++] = bv;
    aEndp[nEndp++] = p->aLabelEnd[bv];
    v = endpoint(p, p->aLabelEnd[bv]);
    bv = p->aInBlossom[v];
  }
  aPath[nPath++] = bb;
  reverse_ints(aPath, nPath);
  reverse_ints(aEndp, nEndp);
  aEndp[nEndp++] = 2 * k;
  while (bw != bb) {
    p->aParent[bw] = b;
    aPath[nPath++] = bw;
    aEndp[nEndp++] = p->aLabelEnd[bw] ^ 1;
    w = endpoint(p, p->aLabelEnd[bw]);
    bw = p->aInBlossom[w];
  }
  pB->aChild = sqlite3_malloc64(sizeof(int) * 2 * (sqlite3_uint64)nPath);
  if (pB->aChild == 0) { p->rc = SQLITE_NOMEM; return; }
  pB->aEndp = pB->aChild + nPath;
  pB->nChild = nPath;
  memcpy(pB->aChild, aPath, sizeof(int) * (size_t)nPath);
  memcpy(pB->aEndp, aEndp, sizeof(int) * (size_t)nEndp);
  p->aLabel[b] = 1;
  p->aLabelEnd[b] = p->aLabelEnd[bb];
  p->aBestEdge[b] = -1;
  v_zero(p->nW, dual_of(p, b));
  nLeaf = leaves(p, b, p->aScratch);
  p->iShape++;
  for (l = 0; l < nLeaf; l++) {
    int x = p->aScratch[l];
    if (p->aLabel[p->aInBlossom[x]] == 2) {
      /* a T-vertex inside the new S-blossom is scanned from now on; the
      ** leaves are copied first, as queue_push() may not touch aScratch */
      queue_push(p, x);
      if (p->rc) return;
    }
    p->aInBlossom[x] = b;
  }
  if (p->bDense) pB->bPending = 1;
  else blossom_best_edges(p, b);
}

/* The dense form makes a new S-blossom's least-slack edges only when a
** dual step needs them: most stages of a warm solve end in an
** augmentation before any, and each list costs a scan of n pairs per
** vertex inside.  Made then, over the same leaves, they see every S-blossom
** of that moment, a superset of those at the blossom's making. */
static void pending_best(Matcher *p) {
  int t;
  for (t = 0; t < p->nTouch && p->rc == SQLITE_OK; t++) {
    int b = p->aTouch[t];
    if (b >= p->n && p->aBlossom[b].bPending && p->aParent[b] == -1
        && p->aBase[b] >= 0 && p->aLabel[b] == 1) {
      p->aBlossom[b].bPending = 0;
      blossom_best_edges(p, b);
    }
  }
}

static int child_at(const Blossom *pB, int j) {
  int n = pB->nChild;
  return pB->aChild[((j % n) + n) % n];
}

static int endp_at(const Blossom *pB, int j) {
  int n = pB->nChild;
  return pB->aEndp[((j % n) + n) % n];
}

static int child_index(const Blossom *pB, int t) {
  int j;
  for (j = 0; j < pB->nChild; j++) if (pB->aChild[j] == t) return j;
  return -1;
}

/* Returns blossom b's number to the unused ones, its lists freed. */
static void release_blossom(Matcher *p, int b) {
  Blossom *pB = &p->aBlossom[b];
  p->aLabel[b] = p->aLabelEnd[b] = -1;
  sqlite3_free(pB->aChild);
  pB->aChild = pB->aEndp = 0;
  pB->nChild = 0;
  sqlite3_free(pB->aBest);
  pB->aBest = 0;
  pB->nBest = 0;
  pB->bPending = 0;
  p->aBase[b] = -1;
  p->aBestEdge[b] = -1;
  p->aUnused[p->nUnused++] = b;
}

/* In mid-stage, the children of T-blossom b along the even path from the
** child it was entered by keep T labels (and their mates S). */
static void relabel_expanded(Matcher *p, int b) {
  Blossom *pB = &p->aBlossom[b];
  int entry = p->aInBlossom[endpoint(p, p->aLabelEnd[b] ^ 1)];
  int j = child_index(pB, entry), jstep, trick, e, bv;
  if (j & 1) { j -= pB->nChild; jstep = 1; trick = 0; }
  else { jstep = -1; trick = 1; }
  e = p->aLabelEnd[b];
  while (j != 0) {
    p->aLabel[endpoint(p, e ^ 1)] = 0;
    p->aLabel[endpoint(p, endp_at(pB, j - trick) ^ trick ^ 1)] = 0;
    assign_label(p, endpoint(p, e ^ 1), 2, e);
    allow_edge(p, endp_at(pB, j - trick) / 2);
    j += jstep;
    e = endp_at(pB, j - trick) ^ trick;
    allow_edge(p, e / 2);
    j += jstep;
  }
  bv = child_at(pB, j);
  p->aLabel[endpoint(p, e ^ 1)] = p->aLabel[bv] = 2;
  p->aLabelEnd[endpoint(p, e ^ 1)] = p->aLabelEnd[bv] = e;
  p->aBestEdge[bv] = -1;
  j += jstep;
  while (child_at(pB, j) != entry) {
    int nLeaf, l, v = -1;
    bv = child_at(pB, j);
    if (p->aLabel[bv] == 1) { j += jstep; continue; }
    nLeaf = leaves(p, bv, p->aScratch);
    for (l = 0; l < nLeaf; l++) {
      if (p->aLabel[p->aScratch[l]] != 0) { v = p->aScratch[l]; break; }
    }
    if (v >= 0) {
      p->aLabel[v] = 0;
      p->aLabel[endpoint(p, p->aMate[p->aBase[bv]])] = 0;
      assign_label(p, v, 2, p->aLabelEnd[v]);
    }
    j += jstep;
  }
}

/* Dissolves blossom b into its children (at the end of a stage, also the
** children whose dual is zero). */
static void expand_blossom(Matcher *p, int b, int bEndStage) {
  Blossom *pB = &p->aBlossom[b];
  int c;
  p->iShape++;
  for (c = 0; c < pB->nChild; c++) {
    int s = pB->aChild[c];
    touch(p, s);
    p->aParent[s] = -1;
    if (s < p->n) {
      p->aInBlossom[s] = s;
    } else if (bEndStage && v_sign(p->nW, dual_of(p, s)) == 0) {
      expand_blossom(p, s, bEndStage);
    } else {
      int nLeaf = leaves(p, s, p->aScratch), l;
      for (l = 0; l < nLeaf; l++) p->aInBlossom[p->aScratch[l]] = s;
    }
  }
  if (!bEndStage && p->aLabel[b] == 2) relabel_expanded(p, b);
  release_blossom(p, b);
}

/* Rotates a[0..n) left by i in place. */
static void rotate_ints(int *a, int n, int i) {
  reverse_ints(a, i);
  reverse_ints(a + i, n - i);
  reverse_ints(a, n);
}

/* Swaps matched and unmatched edges along the even path inside blossom b
** from vertex v to the base; v becomes the base. */
static void augment_blossom(Matcher *p, int b, int v) {
  Blossom *pB = &p->aBlossom[b];
  int t = v, i, j, jstep, trick;
  while (p->aParent[t] != b) t = p->aParent[t];
  if (t >= p->n) augment_blossom(p, t, v);
  i = j = child_index(pB, t);
  if (i & 1) { j -= pB->nChild; jstep = 1; trick = 0; }
  else { jstep = -1; trick = 1; }
  while (j != 0) {
    int e;
    j += jstep;
    t = child_at(pB, j);
    e = endp_at(pB, j - trick) ^ trick;
    if (t >= p->n) augment_blossom(p, t, endpoint(p, e));
    j += jstep;
    t = child_at(pB, j);
    if (t >= p->n) augment_blossom(p, t, endpoint(p, e ^ 1));
    p->aMate[endpoint(p, e)] = e ^ 1;
    p->aMate[endpoint(p, e ^ 1)] = e;
  }
  rotate_ints(pB->aChild, pB->nChild, i);
  rotate_ints(pB->aEndp, pB->nChild, i);
  p->aBase[b] = p->aBase[pB->aChild[0]];
}

/* Swaps matched and unmatched edges on the path from S-vertex s up to the
** root of its tree; s's mate becomes endpoint e (-1: s is left free). */
static void flip_to_root(Matcher *p, int s, int e) {
  for (;;) {
    int bs = p->aInBlossom[s], t, bt, j;
    if (bs >= p->n) augment_blossom(p, bs, s);
    p->aMate[s] = e;
    if (p->aLabelEnd[bs] == -1) break;
    t = endpoint(p, p->aLabelEnd[bs]);
    bt = p->aInBlossom[t];
    s = endpoint(p, p->aLabelEnd[bt]);
    j = endpoint(p, p->aLabelEnd[bt] ^ 1);
    if (bt >= p->n) augment_blossom(p, bt, j);
    p->aMate[j] = p->aLabelEnd[bt];
    e = p->aLabelEnd[bt] ^ 1;
  }
}

/* Augments along the path through edge k (its far end is an S-vertex or
** a free vertex outside the trees). */
static void augment_matching(Matcher *p, int k) {
  flip_to_root(p, endpoint(p, 2 * k), 2 * k + 1);
  flip_to_root(p, endpoint(p, 2 * k + 1), 2 * k);
}

/* The top blossom at the root of the tree that labeled x's top blossom
** (labeled S or T), by the label ends, as scan_blossom() walks them; an
** augmentation changes partners, not label ends. */
static int tree_root(const Matcher *p, int x) {
  int b = p->aInBlossom[x];
  if (p->aLabel[b] == 2) b = p->aInBlossom[endpoint(p, p->aLabelEnd[b])];
  while (p->aLabelEnd[b] != -1) {
    int t = endpoint(p, p->aLabelEnd[b]);
    int bt = p->aInBlossom[t];
    b = p->aInBlossom[endpoint(p, p->aLabelEnd[bt])];
  }
  return b;
}

/* Whether labeled vertex x is in a tree that augmented this stage (no
** longer alternating from a free root). */
static int spent(const Matcher *p, int x) {
  return p->nStageAug > 0 && p->aSpent[tree_root(p, x)] == p->iStamp;
}

/* After an augmentation in this stage, whether w is out of reach: in a
** tree that augmented, or matched by it to such a tree's vertex though
** unlabeled. */
static int blocked(const Matcher *p, int w) {
  int bw = p->aInBlossom[w], m;
  if (p->aLabel[bw] != 0) return spent(p, w);
  m = p->aMate[p->aBase[bw]];
  return m != -1 && p->aLabel[p->aInBlossom[endpoint(p, m)]] != 0;
}

/* Grows the trees along the allowed pair of S-vertex v and its neighbour
** w (remote endpoint e, edge k); returns 1 once the matching augmented. */
static int grow(Matcher *p, int v, int w, int e, int k) {
  int bw = p->aInBlossom[w];
  if (p->nStageAug > 0 && blocked(p, w)) return 0;
  if (p->aLabel[bw] == 0 && p->aMate[p->aBase[bw]] == -1) {
    /* free outside the trees (its dual reached 0 in an earlier stage):
    ** the path to it augments */
    int rv = tree_root(p, v);
    if (bw >= p->n) augment_blossom(p, bw, w);
    p->aMate[w] = e ^ 1;
    flip_to_root(p, v, e);
    p->aSpent[rv] = p->iStamp;
    p->nStageAug++;
    return 1;
  } else if (p->aLabel[bw] == 0) {
    assign_label(p, w, 2, e ^ 1);
  } else if (p->aLabel[bw] == 1) {
    int base = scan_blossom(p, v, w);
    if (base >= 0) {
      add_blossom(p, base, k);
    } else {
      int rv = tree_root(p, v), rw = tree_root(p, w);
      augment_matching(p, k);
      p->aSpent[rv] = p->aSpent[rw] = p->iStamp;
      p->nStageAug++;
      return 1;
    }
  } else if (p->aLabel[w] == 0) {
    p->aLabel[w] = 2;
    p->aLabelEnd[w] = e ^ 1;
  }
  return 0;
}

/* Whether the pair of v and w, of weight x, is tight (slack <= 0), read
** from the top word down: with acc the slack of the words above K bits and
** L that of the K bits below, the slack is acc 2^K + L, -2^(K+1) < L <
** 2^(K+1); so acc >= 2 is a positive slack and acc <= -2 a negative one,
** and only acc in -1..1 reads the next word (acc 2^64 plus its slack).
** A pair far from tight is told from the top word; a tight pair reads
** every word, then whether x is 0 (no pair: not tight). */
static int top_down_tight(const Matcher *p, int v, int w, const TbWord *x) {
#ifdef __SIZEOF_INT128__
  const TbWord *a = dual_of(p, v), *b = dual_of(p, w);
  int t = p->nW - 1;
  WideCarry acc = (WideCarry)(i64)a[t] + (i64)b[t] - 2 * (WideCarry)(i64)x[t];
  while (t > 0 && acc < 2 && acc > -2) {
    t--;
    acc = acc * ((WideCarry)1 << 64) + (WideCarry)a[t] + b[t] - 2 * (WideCarry)x[t];
  }
  if (acc > 0) return 0;
  return !v_is_zero(p->nW, x);
#else
  return weight_slack(p, v, w, x, tmp(p, T_SLACK)) == 1;
#endif
}

/* Whether v's pair with w = nb_vertex(v, q), w alive, is tight for the
** duals of now. */
static int live_tight(const Matcher *p, int v, int w, int q) {
  if (p->xSign) {
    int eSign = p->xSign(p->pWeightArg, v, w, dual_of(p, v), dual_of(p, w));
    return eSign >= -1 && eSign <= 0;
  }
  /* the weight asked once: the caller's function may make it anew */
  return top_down_tight(p, v, w, pair_weight(p, v, w, nb_end(p, v, w, q) / 2));
}

/* Whether w is a labeled vertex of a T-blossom: a pair from an S-vertex to
** it grows nothing and offers no least-slack edge, and a dual step keeps
** its slack (the S end loses what the T end gains), so a full scan of the
** dense form passes over it without its weight; should w turn S, w's own
** scan reads the pair and finds what this scan would have.  A scan of the
** tight pairs passes over it too: grow() along such a pair does nothing. */
static inline int labeled_t(const Matcher *p, int w) {
  return p->aLabel[w] == 2 && p->aLabel[p->aInBlossom[w]] == 2;
}

/*
** The dense form's live vertices outside v's blossom bv (>= n), in order,
** kept while no blossom changes: the vertices of a blossom are scanned one
** after another, and each would pass over the pairs inside it one by one.
** Blossoms only grow during a scan, so the list holds every pair the scan
** takes (it still tells those that joined v's blossom meanwhile).
*/
static const int *outside_of(Matcher *p, int bv, int *pn) {
  if (p->iOutside != bv || p->iOutsideShape != p->iShape) {
    int t, n = 0;
    for (t = 0; t < p->nLive; t++) {
      int w = p->aLive[t];
      if (p->aInBlossom[w] != bv) p->aOutside[n++] = w;
    }
    p->nOutside = n;
    p->iOutside = bv;
    p->iOutsideShape = p->iShape;
  }
  *pn = p->nOutside;
  return p->aOutside;
}

/* The vertices a scan of v reads in the dense form, in order: the live
** ones, or those outside v's blossom (outside_of); NULL for the edge-list
** form, whose scans read v's list. */
static const int *scan_list(Matcher *p, int v, int *pn) {
  if (!p->bDense) { *pn = 0; return 0; }
  if (p->aInBlossom[v] >= p->n) return outside_of(p, p->aInBlossom[v], pn);
  *pn = p->nLive;
  return p->aLive;
}

/* The dense form's scan of S-vertex v once its stage augmented: its tight
** pairs only, in the order of a full scan, which they grow the trees in
** the same way (the other pairs give only least-slack edges, which a stage
** ending in an augmentation never reads).  Each is told by the sign of its
** slack, read again at each scan: a list of the tight pairs kept until the
** duals move took an int a pair where most pairs are tight, and cost more
** to make than the signs it saved (round 9 of 1,000 players: 11.8 G
** instructions with the lists, 9.6 G without).  Returns 1 once the
** matching augmented again. */
static int scan_tight(Matcher *p, int v) {
  int t, nOut;
  const int *aOut = scan_list(p, v, &nOut);
  for (t = 0; t < nOut && p->rc == SQLITE_OK; t++) {
    int w = aOut[t], e;
    if (p->aInBlossom[v] == p->aInBlossom[w] || labeled_t(p, w)) continue;
    /* out of reach since the augmentation: grow() would do nothing */
    if ((p->nStageAug > 0 && blocked(p, w)) || !live_tight(p, v, w, 0)) continue;
    e = nb_end(p, v, w, 0);
    if (grow(p, v, w, e, e / 2)) return 1;
  }
  return 0;
}

/* Whether x has no best edge or one of more slack than ks (nW > 1). */
static MATCH_INLINE int beats_best(Matcher *p, int x, const TbWord *ks) {
  return p->aBestEdge[x] == -1 || v_cmp(p->nW, ks, best_slack(p, x)) < 0;
}

/* offer_best_edge() for the dense pair of v and w, whose number is made
** only when kept. */
static MATCH_INLINE int offer_pair(Matcher *p, int x, int v, int w, const TbWord *ks) {
  if (p->nW > 1 && !beats_best(p, x, ks)) return 0;
  return offer_best_edge(p, x, nb_end(p, v, w, 0) / 2, ks);
}

/* A full scan of S-vertex v in the dense form, as scan_queue()'s loop
** for the edge-list form: v's blossom and dual read once (only a growth
** moves v's blossom), no removed vertex on the list, and a pair's number
** made only for a pair that grows the trees or is kept as a best edge
** (a scan offers most pairs it reads, and keeps few).  Returns 1 once the
** matching augmented. */
static int scan_dense(Matcher *p, int v) {
  TbWord *kslack = tmp(p, T_SLACK);
  const TbWord *uv = dual_of(p, v);
  int nOut, t, bv = p->aInBlossom[v], nW = p->nW;
  const int *aOut = scan_list(p, v, &nOut);
  for (t = 0; t < nOut && p->rc == SQLITE_OK; t++) {
    int w = aOut[t], bw = p->aInBlossom[w], bTight;
    if (bw == bv) continue;
    /* no flags: the slack's sign tells (see allow_edge) */
    if (!p->bFullScans && labeled_t(p, w)) continue;
    if (p->xSlack) {
      if (p->xSlack(p->pWeightArg, v, w, uv, dual_of(p, w), kslack) < 0) continue;
      bTight = v_sign(nW, kslack) <= 0;
    } else {
      int k = nb_end(p, v, w, 0) / 2;
      if ((bTight = weight_slack(p, v, w, pair_weight(p, v, w, k), kslack)) < 0) continue;
    }
    if (bTight) {
      int e = nb_end(p, v, w, 0);
      if (grow(p, v, w, e, e / 2)) return 1;
      bv = p->aInBlossom[v];
    } else if (p->aLabel[bw] == 1) {
      offer_pair(p, bv, v, w, kslack);
    } else if (p->aLabel[w] == 0) {
      if (offer_pair(p, w, v, w, kslack)) touch(p, w);
    }
  }
  return 0;
}

/* Scans the queue of S-vertices; returns 1 once the matching augmented. */
static int scan_queue(Matcher *p) {
  TbWord *kslack = tmp(p, T_SLACK);
  while (p->nQueue > 0 && p->rc == SQLITE_OK) {
    int v = p->aQueue[--p->nQueue], q;
    if (spent(p, v)) continue;
    p->rc = tb_poll(p->pProbe, 1 + p->aNbStart[v + 1] - p->aNbStart[v]);
    if (p->bLazy) {
      scan_tight(p, v);
      continue;
    }
    if (p->bDense) {
      if (scan_dense(p, v)) {
        /* the dense form goes on along tight pairs: no dual step
        ** follows an augmentation, so no least-slack edge is needed */
        p->bLazy = !p->bFullScans;
      }
      continue;
    }
    for (q = p->aNbStart[v]; q < p->aNbStart[v + 1] && p->rc == SQLITE_OK; q++) {
      int w = nb_vertex(p, v, q), e, k, bTight;
      if (p->aInBlossom[v] == p->aInBlossom[w]) continue;
      e = nb_end(p, v, w, q);
      k = e / 2;
      if (!(bTight = allowed(p, k))) {
        /* a flagged edge was found tight: only the others read weights */
        if ((bTight = live_slack(p, v, w, k, kslack)) < 0) continue;
        if (bTight) allow_edge(p, k);
      }
      if (bTight) {
        if (grow(p, v, w, e, k)) return 1;
      } else if (p->aLabel[p->aInBlossom[w]] == 1) {
        offer_best_edge(p, p->aInBlossom[v], k, kslack);
      } else if (p->aLabel[w] == 0) {
        if (offer_best_edge(p, w, k, kslack)) touch(p, w);
      }
    }
  }
  return p->nStageAug > 0;
}

/* The least dual of every vertex, into r. */
static void least_dual(const Matcher *p, TbWord *r) {
  int v;
  v_copy(p->nW, r, dual_of(p, 0));
  for (v = 1; v < p->n; v++) {
    if (v_cmp(p->nW, dual_of(p, v), r) < 0) v_copy(p->nW, r, dual_of(p, v));
  }
}

/* The least dual of an S-vertex (a free one first among equals), into
** delta; returns that vertex. */
static int least_s_dual(const Matcher *p, TbWord *delta) {
  int t, best = -1;
  for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t], c;
    if (x >= p->n || p->aLabel[p->aInBlossom[x]] != 1) continue;
    c = best < 0 ? -1 : v_cmp(p->nW, dual_of(p, x), delta);
    if (c < 0 || (c == 0 && p->aMate[best] != -1 && p->aMate[x] == -1)) {
      v_copy(p->nW, delta, dual_of(p, x));
      best = x;
    }
  }
  return best;
}

/* Moves the duals of the labeled entries by delta. */
static void apply_delta(Matcher *p, const TbWord *delta) {
  int n = p->n, nW = p->nW, t;
  p->iEpoch++;
  if (nW == 1) {
    /* one word: the same in place, without a call per value */
    TbWord d = delta[0], *u = p->aDual;
    for (t = 0; t < p->nTouch; t++) {
      int x = p->aTouch[t];
      if (x < n) {
        int l = p->aLabel[p->aInBlossom[x]];
        if (l == 1) u[x] -= d;
        else if (l == 2) u[x] += d;
      } else if (p->aBase[x] >= 0 && p->aParent[x] == -1) {
        if (p->aLabel[x] == 1) u[x] += d;
        else if (p->aLabel[x] == 2) u[x] -= d;
      }
    }
    return;
  }
  for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t];
    if (x < n) {
      int l = p->aLabel[p->aInBlossom[x]];
      if (l == 1) v_sub(nW, dual_of(p, x), delta);
      else if (l == 2) v_add(nW, dual_of(p, x), delta);
    } else if (p->aBase[x] >= 0 && p->aParent[x] == -1) {
      if (p->aLabel[x] == 1) v_add(nW, dual_of(p, x), delta);
      else if (p->aLabel[x] == 2) v_sub(nW, dual_of(p, x), delta);
    }
  }
}

/* The dual step's candidates of types 2, 3 and 4 (as below) when the
** weights are one word: one loop on plain integers, the hot spot of the
** Swiss systems' solves. */
static void steps_word(const Matcher *p, int *pType, int *pEdge, int *pBlossom,
                       TbWord *delta) {
  int n = p->n, t, type = *pType, edge = *pEdge, b4 = -1;
  i64 best = (i64)delta[0], d4 = 0;
  for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t], k = p->aBestEdge[x];
    if (x >= n && p->aLabel[x] == 2 && p->aBase[x] >= 0 && p->aParent[x] == -1
        && (b4 < 0 || (i64)p->aDual[x] < d4)) {
      d4 = (i64)p->aDual[x];
      b4 = x;
    }
    if (k == -1) continue;
    if (x < n && p->aLabel[p->aInBlossom[x]] == 0) {
      i64 d = slack_word(p, k);
      if (type == -1 || d < best) { best = d; type = 2; edge = k; }
    }
    if (p->aParent[x] == -1 && p->aLabel[x] == 1 && (x < n || p->aBase[x] >= 0)) {
      i64 d = slack_word(p, k) / 2;
      if (type == -1 || d < best) { best = d; type = 3; edge = k; }
    }
  }
  /* a blossom to expand only when strictly closer than every edge */
  if (b4 >= 0 && (type == -1 || d4 < best)) {
    best = d4;
    type = 4;
    *pBlossom = b4;
  }
  *pType = type;
  *pEdge = edge;
  delta[0] = (TbWord)best;
}

/* The dual step: 1 when the stage ends without an augmentation (with
** TB_MATCH_MAXCARD: the optimum; without: an S-vertex's dual reached 0,
** and it is left free), 2/3 an edge made tight, 4 a T-blossom to expand.
** Only the entries touched this stage can be labeled or hold a best edge,
** so only they are visited. */
static int dual_step(Matcher *p) {
  int n = p->n, nW = p->nW, t, type = -1, edge = -1, blossom = -1, dvertex = -1;
  TbWord *delta = tmp(p, T_DELTA), *d = tmp(p, T_D);
  if (p->bDense) {
    pending_best(p);
    if (p->rc) return 1;
  }
  if (!p->bMaxCard) {
    dvertex = least_s_dual(p, delta);
    if (dvertex >= 0) type = 1;
  }
  if (nW == 1) {
    steps_word(p, &type, &edge, &blossom, delta);
  } else for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t];
    if (x < n && p->aLabel[p->aInBlossom[x]] == 0 && p->aBestEdge[x] != -1) {
      v_copy(nW, d, best_slack(p, x));
      if (type == -1 || v_cmp(nW, d, delta) < 0) {
        v_copy(nW, delta, d); type = 2; edge = p->aBestEdge[x];
      }
    }
    if (p->aParent[x] == -1 && p->aLabel[x] == 1 && p->aBestEdge[x] != -1
        && (x < n || p->aBase[x] >= 0)) {
      v_copy(nW, d, best_slack(p, x));
      v_half(nW, d);
      if (type == -1 || v_cmp(nW, d, delta) < 0) {
        v_copy(nW, delta, d); type = 3; edge = p->aBestEdge[x];
      }
    }
  }
  for (t = 0; t < p->nTouch && nW > 1; t++) {
    int b = p->aTouch[t];
    if (b >= n && p->aBase[b] >= 0 && p->aParent[b] == -1 && p->aLabel[b] == 2
        && (type == -1 || v_cmp(nW, dual_of(p, b), delta) < 0)) {
      v_copy(nW, delta, dual_of(p, b));
      type = 4;
      blossom = b;
    }
  }
  if (type == -1) {
    /* maximum cardinality reached: a last step keeps the duals checkable */
    type = 1;
    least_dual(p, delta);
  }
  if (type == 1 && v_sign(nW, delta) < 0) v_zero(nW, delta);
  apply_delta(p, delta);
  p->rc = tb_poll(p->pProbe, 2 * p->nTouch + 1);
  if (type == 1) {
    if (dvertex >= 0 && p->aMate[dvertex] != -1) flip_to_root(p, dvertex, -1);
  } else if (type == 2 || type == 3) {
    int i = endpoint(p, 2 * edge), j = endpoint(p, 2 * edge + 1);
    allow_edge(p, edge);
    if (type == 2 && p->aLabel[p->aInBlossom[i]] == 0) i = j;
    queue_push(p, i);
  } else {
    expand_blossom(p, blossom, 0);
  }
  return type;
}

/* Whether free vertex v roots a tree: with TB_MATCH_MAXCARD every free
** vertex, without it those whose dual is still positive (a free vertex
** whose dual reached 0 is optimal as it is). */
static int is_root(const Matcher *p, int v) {
  if (p->aMate[v] != -1 || p->aDead[v]) return 0;
  return p->bMaxCard || v_sign(p->nW, dual_of(p, v)) > 0;
}

/* Clears what the last stage touched, then labels every root S; returns
** how many there are. */
static int start_stage(Matcher *p) {
  int n = p->n, t, k, nFree = 0, nRoot = 0;
  for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t];
    p->aLabel[x] = 0;
    p->aLabelEnd[x] = -1;
    p->aBestEdge[x] = -1;
    if (x >= n) {
      sqlite3_free(p->aBlossom[x].aBest);
      p->aBlossom[x].aBest = 0;
      p->aBlossom[x].nBest = 0;
      p->aBlossom[x].bPending = 0;
    }
  }
  p->nTouch = 0;
  p->iStamp++;
  p->nStageAug = 0;
  clear_allowed(p);
  p->nQueue = 0;
  for (k = 0; k < p->nFree && p->rc == SQLITE_OK; k++) {
    int v = p->aFree[k];
    if (!is_root(p, v)) { p->aListed[v] = 0; continue; }
    p->aFree[nFree++] = v;
    nRoot++;
    if (p->aLabel[p->aInBlossom[v]] == 0) assign_label(p, v, 1, -1);
  }
  p->nFree = nFree;
  return nRoot;
}

/* Ends a stage: S-blossoms whose dual reached zero are dissolved. */
static void end_stage(Matcher *p) {
  int t;
  for (t = 0; t < p->nTouch; t++) {
    int b = p->aTouch[t];
    if (b >= p->n && p->aParent[b] == -1 && p->aBase[b] >= 0 && p->aLabel[b] == 1
        && v_sign(p->nW, dual_of(p, b)) == 0) {
      expand_blossom(p, b, 1);
    }
  }
}

/* One stage: grows the forest until an augmentation or a dual step that
** ends it.  Returns 0 once the matching is optimal.  Its S-vertices are
** scanned in full until the first augmentation (then, in the dense form,
** their tight pairs only).  A try of a stage along tight pairs first,
** undone when it needed a dual step, cost more than it saved: a pair's
** sign costs about as much as its slack, and the tries that needed the
** step read half the signs (the endorsed engine's 1,000-player file: 66.2
** G instructions without the tries, 75.0 G with them; 178 of 292 tries
** failed, and every matching is the same either way). */
static int run_stage(Matcher *p) {
  p->bLazy = 0;
  if (start_stage(p) == 0) return 0;
  while (p->rc == SQLITE_OK) {
    if (scan_queue(p)) return 1;
    if (p->rc) break;
    if (dual_step(p) == 1) return !p->bMaxCard;
  }
  return 0;
}

/* ------------------------------------------------------------ the arrays */

/* One array of a block: where its pointer goes, how many elements of
** what size.  The same table sizes the block and carves it. */
typedef struct Carve {
  void *pField;
  sqlite3_uint64 nElem;
  sqlite3_uint64 szElem;
} Carve;

static sqlite3_uint64 carve_bytes(const Carve *c) {
  return (c->nElem * c->szElem + 7) & ~(sqlite3_uint64)7;   /* 8-aligned */
}

/* One allocation for every array of the table, each field pointed at its
** part; NULL when out of memory. */
static void *carve_block(const Carve *aCarve, int nCarve) {
  sqlite3_uint64 nByte = 0;
  unsigned char *pBlock, *pAt;
  int i;
  for (i = 0; i < nCarve; i++) nByte += carve_bytes(&aCarve[i]);
  pBlock = sqlite3_malloc64(nByte + 8);
  if (pBlock == 0) return 0;
  pAt = pBlock;
  for (i = 0; i < nCarve; i++) {
    void *pArray = pAt;
    memcpy(aCarve[i].pField, &pArray, sizeof(pArray));
    pAt += carve_bytes(&aCarve[i]);
  }
  return pBlock;
}

#define CARVE(field, n) { &(field), (sqlite3_uint64)(n), sizeof(*(field)) }

/* The arrays per vertex and blossom. */
static int alloc_vertices(Matcher *p) {
  sqlite3_uint64 N = (sqlite3_uint64)p->n, W = (sqlite3_uint64)p->nW;
  Carve aCarve[] = {
    CARVE(p->aDual, 2 * N * W),
    CARVE(p->aBestSlack, 2 * N * W),
    CARVE(p->aBestToSlack, (2 * N + 2) * W),
    CARVE(p->aTmp, T_COUNT * W),
    CARVE(p->aBlossom, 2 * N),
    CARVE(p->aNbStart, N + 1),
    CARVE(p->aMate, N),
    CARVE(p->aLabel, 2 * N),
    CARVE(p->aLabelEnd, 2 * N),
    CARVE(p->aParent, 2 * N),
    CARVE(p->aBase, 2 * N),
    CARVE(p->aBestEdge, 2 * N),
    CARVE(p->aInBlossom, N),
    CARVE(p->aUnused, N),
    CARVE(p->aOutside, N),
    CARVE(p->aScratch, 2 * N + 2),
    CARVE(p->aScratch2, 2 * N + 2),
    CARVE(p->aBestTo, 2 * N + 2),
    CARVE(p->aStack, 2 * N + 2),
    CARVE(p->aStamp, 2 * N),
    CARVE(p->aSpent, 2 * N),
    CARVE(p->aTouch, 2 * N),
    CARVE(p->aFree, N),
    CARVE(p->aCacheEdge, 2 * N),
    CARVE(p->aCacheEpoch, 2 * N),
    CARVE(p->aListed, N),
    CARVE(p->aDead, N),
    CARVE(p->aLive, N),
  };
  p->pVertexBlock = carve_block(aCarve, (int)(sizeof(aCarve) / sizeof(aCarve[0])));
  if (p->pVertexBlock == 0) return SQLITE_NOMEM;
  /* zeroed: tb_match_close() reads the blossoms' lists */
  memset(p->aBlossom, 0, sizeof(Blossom) * 2 * N);
  memset(p->aDead, 0, (size_t)N);
  for (p->nLive = 0; p->nLive < p->n; p->nLive++) p->aLive[p->nLive] = p->nLive;
  return SQLITE_OK;
}

/* The arrays per edge. */
static int alloc_edges(Matcher *p) {
  /* the dense form has no edge arrays (see allow_edge) */
  sqlite3_uint64 M = p->bDense ? 0 : (sqlite3_uint64)p->m;
  p->nAllowedMax = p->m < 8 * p->n ? p->m : 8 * p->n;
  Carve aCarve[] = {
    CARVE(p->aNb, 2 * M),
    CARVE(p->aNbVertex, 2 * M),
    CARVE(p->aAllowed, M ? p->nAllowedMax : 0),
    CARVE(p->aAllow, (M + 7) / 8),
  };
  p->pEdgeBlock = carve_block(aCarve, (int)(sizeof(aCarve) / sizeof(aCarve[0])));
  if (p->pEdgeBlock == 0) return SQLITE_NOMEM;
  memset(p->aAllow, 0, (size_t)(M + 7) / 8);
  return SQLITE_OK;
}

/* ------------------------------------------------------------- the start */

/* The graph as lists of remote endpoints per vertex. */
static void build_neighbours(Matcher *p) {
  int n = p->n, m = p->m, v, k;
  int *aPos = p->aScratch;   /* n + 1 counters */
  for (v = 0; v <= n; v++) aPos[v] = 0;
  for (k = 0; k < m; k++) {
    aPos[endpoint(p, 2 * k) + 1]++;
    aPos[endpoint(p, 2 * k + 1) + 1]++;
  }
  for (v = 0; v < n; v++) aPos[v + 1] += aPos[v];
  for (v = 0; v <= n; v++) p->aNbStart[v] = aPos[v];
  for (k = 0; k < m; k++) {
    int i = endpoint(p, 2 * k), j = endpoint(p, 2 * k + 1);
    p->aNbVertex[aPos[i]] = j;
    p->aNb[aPos[i]++] = 2 * k + 1;
    p->aNbVertex[aPos[j]] = i;
    p->aNb[aPos[j]++] = 2 * k;
  }
}

/* The dense form's graph: every pair, v's numbered from v*(n-1) (see
** nb_vertex); a pair is in the graph while it has a weight. */
static int dense_edges(Matcher *p) {
  int n = p->n, v;
  p->m = (int)((sqlite3_uint64)n * (sqlite3_uint64)(n > 0 ? n - 1 : 0) / 2);
  for (v = 0; v <= n; v++) p->aNbStart[v] = v * (n > 0 ? n - 1 : 0);
  return alloc_edges(p);
}

/* The weight of v's pair at index q with x = nb_vertex(v, q) for the
** first solve, or 0 when it leaves the pair out: in the dense form, a
** pair with a removed vertex or without a weight.  The weight is asked
** once (the caller's function may make it anew). */
static const TbWord *start_weight(const Matcher *p, int v, int x, int q) {
  const TbWord *w;
  if (p->bDense && (p->aDead[v] || p->aDead[x])) return 0;
  w = pair_weight(p, v, x, nb_end(p, v, x, q) / 2);
  return p->bDense && v_is_zero(p->nW, w) ? 0 : w;
}

/* The first duals: with TB_MATCH_MAXCARD every vertex at the largest
** weight (the free vertices must hold equal duals), else each vertex at
** its own largest weight, at least 0. */
static int first_duals(Matcher *p) {
  int n = p->n, nW = p->nW, v, q, k, rc;
  if (p->bMaxCard) {
    TbWord *maxw = tmp(p, T_A);
    if (p->m > 0) v_copy(nW, maxw, edge_weight(p, 0));
    else v_zero(nW, maxw);
    for (k = 1; k < p->m; k++) {
      const TbWord *w = edge_weight(p, k);
      if (v_cmp(nW, w, maxw) > 0) v_copy(nW, maxw, w);
    }
    for (v = 0; v < n; v++) v_copy(nW, dual_of(p, v), maxw);
    return SQLITE_OK;
  }
  for (v = 0; v < n; v++) {
    TbWord *u = dual_of(p, v);
    if ((rc = tb_poll(p->pProbe, 1 + p->aNbStart[v + 1] - p->aNbStart[v])) != SQLITE_OK) {
      return rc;
    }
    v_zero(nW, u);
    for (q = p->aNbStart[v]; q < p->aNbStart[v + 1]; q++) {
      const TbWord *w = start_weight(p, v, nb_vertex(p, v, q), q);
      if (w && v_cmp(nW, w, u) > 0) v_copy(nW, u, w);
    }
  }
  return SQLITE_OK;
}

/* Every vertex its own blossom, the first duals (every slack >= 0), and
** the pairs tight at once matched greedily, vertex by vertex: the state
** the first stages would reach, one edge each, in O(m). */
static int cold_start(Matcher *p) {
  int n = p->n, v, b, q, rc;
  if (p->bDense && (rc = dense_edges(p)) != SQLITE_OK) return rc;
  if ((rc = first_duals(p)) != SQLITE_OK) return rc;
  p->iShape++;
  for (v = 0; v < n; v++) {
    p->aMate[v] = -1;
    p->aInBlossom[v] = v;
    p->aUnused[v] = 2 * n - 1 - v;
  }
  p->nUnused = n;
  for (b = 0; b < 2 * n; b++) {
    p->aParent[b] = -1;
    p->aBase[b] = b < n ? b : -1;
    p->aLabel[b] = 0;
    p->aLabelEnd[b] = -1;
    p->aBestEdge[b] = -1;
    p->aBestTo[b] = -1;
    p->aStamp[b] = 0;
    p->aSpent[b] = 0;
    p->aCacheEdge[b] = -1;
    p->aCacheEpoch[b] = 0;
    if (b >= n) v_zero(p->nW, dual_of(p, b));
  }
  for (v = 0; v < n; v++) {
    if ((rc = tb_poll(p->pProbe, 1 + p->aNbStart[v + 1] - p->aNbStart[v])) != SQLITE_OK) {
      return rc;
    }
    for (q = p->aNbStart[v]; q < p->aNbStart[v + 1] && p->aMate[v] == -1; q++) {
      int w = nb_vertex(p, v, q), e = nb_end(p, v, w, q);
      const TbWord *x;
      if (p->aMate[w] != -1 || (x = start_weight(p, v, w, q)) == 0) continue;
      v_slack(p->nW, dual_of(p, v), dual_of(p, w), x, tmp(p, T_A));
      if (v_sign(p->nW, tmp(p, T_A)) == 0) {
        p->aMate[v] = e;
        p->aMate[w] = e ^ 1;
      }
    }
  }
  p->iStamp = 0;
  p->iEpoch = 1;
  p->nTouch = 0;
  p->nFree = 0;
  for (v = 0; v < n; v++) {
    p->aListed[v] = p->aMate[v] == -1 && !p->aDead[v];
    if (p->aListed[v]) p->aFree[p->nFree++] = v;
    /* the roots' duals share their parity (see make_even) */
    if (p->aListed[v] && !p->bMaxCard) v_even(p->nW, dual_of(p, v));
  }
  p->bStarted = 1;
  return SQLITE_OK;
}

/* ------------------------------------------------------------ warm starts */

/* Adds blossom b's dual to each of its vertices and dissolves it: the
** slacks inside stay as they were, those leaving b grow. */
static void dissolve(Matcher *p, int b) {
  Blossom *pB = &p->aBlossom[b];
  const TbWord *z = dual_of(p, b);
  int i, c, bDual = !v_is_zero(p->nW, z);
  p->iShape++;
  /* b's leaves are its children's: one walk of each child's */
  for (c = 0; c < pB->nChild; c++) {
    int s = pB->aChild[c], nLeaf = leaves(p, s, p->aScratch);
    p->aParent[s] = -1;
    for (i = 0; i < nLeaf; i++) {
      int x = p->aScratch[i];
      if (bDual) v_add(p->nW, dual_of(p, x), z);
      p->aInBlossom[x] = s;
    }
  }
  v_zero(p->nW, dual_of(p, b));
  release_blossom(p, b);
}

static int top_of(const Matcher *p, int v) {
  int b = p->aInBlossom[v];
  while (p->aParent[b] != -1) b = p->aParent[b];
  return b;
}

/* Makes v the base of every blossom round it, then dissolves them from
** the outside in (v's is the first child once v is the base). */
static void leave_blossoms(Matcher *p, int v) {
  int top = p->aInBlossom[v];
  if (top == v) return;
  augment_blossom(p, top, v);
  while (top != v) {
    int c = p->aBlossom[top].aChild[0];
    dissolve(p, top);
    top = c;
  }
}

/* Makes free vertex x's dual even (the roots of a stage must share their
** parity: an edge between two trees then has an even slack, halved by
** the dual step) and keeps every tight edge inside its blossoms tight: an
** outermost blossom of zero dual dissolves (that moves no dual); else
** each vertex inside it gains 1 and its dual loses 1, so that only the
** slacks of the edges leaving it grow. */
static void make_even(Matcher *p, int x) {
  int nW = p->nW, top, nLeaf, i;
  if ((dual_of(p, x)[0] & 1) == 0) return;
  while ((top = p->aInBlossom[x]) != x && v_sign(nW, dual_of(p, top)) == 0) {
    dissolve(p, top);
  }
  if (top == x) { v_inc(nW, dual_of(p, x)); return; }
  nLeaf = leaves(p, top, p->aScratch);
  for (i = 0; i < nLeaf; i++) v_inc(nW, dual_of(p, p->aScratch[i]));
  v_dec(nW, dual_of(p, top));
}

/* Puts free vertex v on the list of candidate roots, kept in vertex
** order: the stages grow their trees from the roots in that order, which
** forms fewer blossoms than the order of the touches (a fifth fewer on
** the Dutch replays). */
static void list_free(Matcher *p, int v) {
  int k;
  if (p->aListed[v]) return;
  p->aListed[v] = 1;
  for (k = p->nFree; k > 0 && p->aFree[k - 1] > v; k--) p->aFree[k] = p->aFree[k - 1];
  p->aFree[k] = v;
  p->nFree++;
}

/* 2 w(v, w) - dual(w), into r: the least dual of v that covers the pair
** of v and its neighbour w = nb_vertex(v, q); 0 (r as it was) when the pair
** is not in the graph now (w removed, or in the dense form the pair has
** no weight left), from one ask of its weight. */
static int live_cover(const Matcher *p, int v, int w, int q, TbWord *r) {
  const TbWord *wt;
  if (p->nDead > 0 && p->aDead[w]) return 0;
  wt = pair_weight(p, v, w, nb_end(p, v, w, q) / 2);
  if (p->bDense && v_is_zero(p->nW, wt)) return 0;
  v_copy(p->nW, r, wt);
  v_add(p->nW, r, wt);
  v_sub(p->nW, r, dual_of(p, w));
  return 1;
}

/* Whether dual d for v certainly covers its pair with w (d + dual(w) - 2w
** not below 0), or there is no pair, as the caller's xSign tells without
** the weight; 0: not known, live_cover() says. */
static int covers(const Matcher *p, int v, int w, const TbWord *d) {
  int eSign;
  if (p->xSign == 0 || (p->nDead > 0 && p->aDead[w])) return 0;
  eSign = p->xSign(p->pWeightArg, v, w, d, dual_of(p, w));
  return eSign >= 0 || eSign == -2;
}

/* Whether matched vertex v, in no blossom, keeps its partner under its new
** weights: when the matched pair still needs the largest dual of v's
** pairs, v's dual set to it keeps every slack >= 0 and that pair tight, so
** the matching stays optimal as it is (the Dutch system's steps that
** confirm a player's partner then cost O(n), not a search). */
static int keeps_mate(Matcher *p, int v) {
  int nW = p->nW, m, q, qm = -1;
  TbWord *need = tmp(p, T_B), *val = tmp(p, T_A);
  if (p->aMate[v] < 0 || p->aInBlossom[v] != v) return 0;
  m = endpoint(p, p->aMate[v]);
  for (q = p->aNbStart[v]; q < p->aNbStart[v + 1] && qm < 0; q++) {
    if (nb_vertex(p, v, q) == m) qm = q;
  }
  if (qm < 0 || !live_cover(p, v, m, qm, need)) return 0;
  if (v_sign(nW, need) < 0) return 0;
  for (q = p->aNbStart[v]; q < p->aNbStart[v + 1]; q++) {
    if (covers(p, v, nb_vertex(p, v, q), need)) continue;
    if (!live_cover(p, v, nb_vertex(p, v, q), q, val)) continue;
    if (v_cmp(nW, val, need) > 0) return 0;
  }
  v_copy(nW, dual_of(p, v), need);
  return 1;
}

/* v and its partner leave the matching and their blossoms; v's dual
** covers its new weights. */
static void release(TbMatcher *p, int v) {
  int nW = p->nW, x, q;
  TbWord *u, *val = tmp(p, T_A);
  /* x: the partner of v's outermost blossom, whose base v becomes */
  x = p->aMate[p->aBase[top_of(p, v)]];
  x = x >= 0 ? endpoint(p, x) : -1;
  leave_blossoms(p, v);
  p->aMate[v] = -1;
  list_free(p, v);
  if (x >= 0) {
    p->aMate[x] = -1;
    make_even(p, x);
    list_free(p, x);
  }
  /* v's dual: the least that covers each of its pairs, 2w - dual(u) */
  u = dual_of(p, v);
  v_zero(nW, u);
  for (q = p->aNbStart[v]; q < p->aNbStart[v + 1]; q++) {
    if (covers(p, v, nb_vertex(p, v, q), u)) continue;
    if (!live_cover(p, v, nb_vertex(p, v, q), q, val)) continue;
    if (v_cmp(nW, val, u) > 0) v_copy(nW, u, val);
  }
  v_even(nW, u);
}

void tb_match_touch(TbMatcher *p, int v) {
  if (!p->bStarted || p->aDead[v]) return;
  /* two passes over v's pairs at most; the next solve reports a stop */
  if (p->rc == SQLITE_OK) p->rc = tb_poll(p->pProbe, 1 + 2 * (i64)p->n);
  if (keeps_mate(p, v)) return;
  release(p, v);
}

/* Takes removed vertex v off the list of the live ones. */
static void unlist_live(Matcher *p, int v) {
  int k = 0;
  while (k < p->nLive && p->aLive[k] != v) k++;
  if (k == p->nLive) return;
  memmove(p->aLive + k, p->aLive + k + 1, sizeof(int) * (size_t)(p->nLive - k - 1));
  p->nLive--;
  p->iShape++;              /* the lists of outside vertices drop it too */
}

void tb_match_remove(TbMatcher *p, int v) {
  if (p->bStarted && !p->aDead[v]) release(p, v);
  if (!p->aDead[v]) unlist_live(p, v);
  p->nDead += !p->aDead[v];
  p->aDead[v] = 1;
  v_zero(p->nW, dual_of(p, v));
}

/* The remote endpoint, seen from v, of the dense pair of v and w. */
static int dense_end(const Matcher *p, int v, int w) {
  return v < w ? 2 * (v * p->n + w) + 1 : 2 * (w * p->n + v);
}

/* Whether the dense pair of v and w, in different blossoms, is tight. */
static int dense_tight(Matcher *p, int v, int w) {
  return live_slack(p, v, w, dense_end(p, v, w) / 2, tmp(p, T_A)) == 1
         && v_sign(p->nW, tmp(p, T_A)) == 0;
}

/* Matches the free vertices joined by a tight pair at once, as cold_start
** does: the vertices a warm start freed would otherwise cost a stage each,
** and every stage grows the trees of all the free vertices again.  Each
** is the base of its outermost blossom, so the pair may be matched as it
** is; its slack is 0, the duals stay as they are. */
static int match_tight_free(Matcher *p) {
  int k, j, rc;
  for (k = 0; k < p->nFree; k++) {
    int v = p->aFree[k];
    if (p->aMate[v] != -1 || p->aDead[v]) continue;
    if ((rc = tb_poll(p->pProbe, 1 + p->nFree - k)) != SQLITE_OK) return rc;
    for (j = k + 1; j < p->nFree; j++) {
      int w = p->aFree[j];
      if (p->aMate[w] != -1 || p->aDead[w] || p->aInBlossom[v] == p->aInBlossom[w]) continue;
      if (!dense_tight(p, v, w)) continue;
      p->aMate[v] = dense_end(p, v, w);
      p->aMate[w] = dense_end(p, w, v);
      break;
    }
  }
  return SQLITE_OK;
}

/* A free vertex y other than v, in no blossom, tight with m; or -1. */
static int tight_free(Matcher *p, int m, int v) {
  int y;
  for (y = 0; y < p->n; y++) {
    if (y == v || y == m || p->aMate[y] != -1 || p->aDead[y] || p->aInBlossom[y] != y) continue;
    if (dense_tight(p, m, y)) return y;
  }
  return -1;
}

/* Augments along tight paths of three pairs, free v - c = m - free y, all
** four in no blossom: the path a stage would find first when the pairs of
** one vertex changed, without growing the trees of every free vertex
** (each scans n pairs a vertex). */
static int match_tight_paths(Matcher *p) {
  int k, c, rc;
  for (k = 0; k < p->nFree; k++) {
    int v = p->aFree[k], nTry = 0;
    if (p->aMate[v] != -1 || p->aDead[v] || p->aInBlossom[v] != v) continue;
    if ((rc = tb_poll(p->pProbe, 1 + 5 * (i64)p->n)) != SQLITE_OK) return rc;
    for (c = 0; c < p->n && nTry < 4; c++) {
      int m, y;
      if (c == v || p->aMate[c] < 0 || p->aDead[c] || p->aInBlossom[c] != c) continue;
      m = endpoint(p, p->aMate[c]);
      if (p->aInBlossom[m] != m || m == v || !dense_tight(p, v, c)) continue;
      nTry++;
      if ((y = tight_free(p, m, v)) < 0) continue;
      p->aMate[v] = dense_end(p, v, c);
      p->aMate[c] = dense_end(p, c, v);
      p->aMate[m] = dense_end(p, m, y);
      p->aMate[y] = dense_end(p, y, m);
      break;
    }
  }
  return SQLITE_OK;
}

int tb_match_solve(TbMatcher *p) {
  if (p->rc) return p->rc;
  if (!p->bStarted) p->rc = cold_start(p);
  else if (p->bDense) {
    p->rc = match_tight_free(p);
    if (p->rc == SQLITE_OK) p->rc = match_tight_paths(p);
  }
  p->iEpoch++;              /* the weights may have changed since */
  while (p->rc == SQLITE_OK && run_stage(p) && p->rc == SQLITE_OK) end_stage(p);
  return p->rc;
}

int tb_match_mate(const TbMatcher *p, int v) {
  return p->aMate[v] >= 0 ? endpoint(p, p->aMate[v]) : -1;
}

/* A matcher on n vertices with weights of nW words. */
static int matcher_new(int n, int nW, TbProbe *pProbe, TbMatcher **ppOut) {
  Matcher *p = sqlite3_malloc64(sizeof(Matcher));
  *ppOut = 0;
  if (p == 0) return SQLITE_NOMEM;
  memset(p, 0, sizeof(Matcher));
  p->n = n;
  p->nW = nW;
  p->pProbe = pProbe;
  if (alloc_vertices(p) != SQLITE_OK) {
    sqlite3_free(p);
    return SQLITE_NOMEM;
  }
  *ppOut = p;
  return SQLITE_OK;
}

int tb_match_open_dense(int nVertex, int nW, const TbWord *aWeight, TbProbe *pProbe,
                        TbMatcher **ppOut) {
  int rc;
  if (nVertex < 0 || nVertex > TB_MATCH_DENSE_NMAX || nW < 1) return SQLITE_MISUSE;
  rc = matcher_new(nVertex, nW, pProbe, ppOut);
  if (rc == SQLITE_OK) {
    (*ppOut)->bDense = 1;
    (*ppOut)->pWeight = (const unsigned char *)aWeight;
    (*ppOut)->nStride = sizeof(TbWord) * (size_t)nW;
  }
  return rc;
}

int tb_match_open_dense_fn(int nVertex, int nW, TbMatchWeightFn xWeight, void *pArg,
                           TbProbe *pProbe, TbMatcher **ppOut) {
  int rc;
  if (xWeight == 0) return SQLITE_MISUSE;
  rc = tb_match_open_dense(nVertex, nW, 0, pProbe, ppOut);
  if (rc == SQLITE_OK) {
    (*ppOut)->xWeight = xWeight;
    (*ppOut)->pWeightArg = pArg;
  }
  return rc;
}

void tb_match_slack_fn(TbMatcher *p, TbMatchSlackFn xSlack) {
  if (p->bDense && p->xWeight) p->xSlack = xSlack;
}

void tb_match_sign_fn(TbMatcher *p, TbMatchSignFn xSign) {
  if (p->bDense && p->xWeight) p->xSign = xSign;
}

void tb_match_full_scans(TbMatcher *p) {
  p->bFullScans = 1;
}

void tb_match_close(TbMatcher *p) {
  int b;
  if (p == 0) return;
  for (b = p->n; b < 2 * p->n; b++) {
    sqlite3_free(p->aBlossom[b].aChild);
    sqlite3_free(p->aBlossom[b].aBest);
  }
  sqlite3_free(p->aQueue);
  sqlite3_free(p->pEdgeBlock);
  sqlite3_free(p->pVertexBlock);
  sqlite3_free(p);
}

/* ------------------------------------------------------ the edge-list form */

/* Whether the edge list is one the algorithm takes. */
static int edges_valid(int n, int m, const TbMatchEdge *aEdge) {
  int k;
  for (k = 0; k < m; k++) {
    const TbMatchEdge *e = &aEdge[k];
    if (e->i < 0 || e->j < 0 || e->i >= n || e->j >= n || e->i == e->j) return 0;
    if (e->w > TB_MATCH_WMAX || e->w < -TB_MATCH_WMAX) return 0;
  }
  return 1;
}

/* A matcher on the edge list: its ends and one-word weights read in place. */
static int open_edges(int n, int m, const TbMatchEdge *aEdge, int mFlags, TbProbe *pProbe,
                      TbMatcher **ppOut) {
  Matcher *p;
  int rc = matcher_new(n, 1, pProbe, ppOut);
  if (rc) return rc;
  p = *ppOut;
  p->m = m;
  p->aEdge = aEdge;
  p->bMaxCard = (mFlags & TB_MATCH_MAXCARD) != 0;
  p->pWeight = m > 0 ? (const unsigned char *)&aEdge[0].w : 0;
  p->nStride = sizeof(TbMatchEdge);
  p->pEnd = m > 0 ? (const unsigned char *)&aEdge[0].i : 0;
  p->nEndStride = sizeof(TbMatchEdge);
  if (alloc_edges(p) != SQLITE_OK) {
    tb_match_close(p);
    *ppOut = 0;
    return SQLITE_NOMEM;
  }
  build_neighbours(p);
  return SQLITE_OK;
}

/* Each vertex's outermost blossom (or the vertex) and its doubled dual. */
static void write_tops(const Matcher *p, int *aTop, i64 *aTopZ) {
  int v;
  for (v = 0; v < p->n; v++) {
    int b = top_of(p, v);
    aTop[v] = b;
    aTopZ[v] = b >= p->n ? 2 * (i64)dual_of(p, b)[0] : 0;
  }
}

int tb_match_weighted(int nVertex, int nEdge, const TbMatchEdge *aEdge,
                      int mFlags, TbProbe *pProbe, int *aMate, i64 *aDual) {
  return tb_match_weighted_ex(nVertex, nEdge, aEdge, mFlags, pProbe, aMate, aDual, 0, 0);
}

int tb_match_weighted_ex(int nVertex, int nEdge, const TbMatchEdge *aEdge,
                         int mFlags, TbProbe *pProbe, int *aMate, i64 *aDual,
                         int *aTop, i64 *aTopZ) {
  TbMatcher *p;
  int v, rc;
  if (nVertex < 0 || nEdge < 0 || nVertex > TB_MATCH_NMAX
      || !edges_valid(nVertex, nEdge, aEdge)) {
    return SQLITE_MISUSE;
  }
  rc = open_edges(nVertex, nEdge, aEdge, mFlags, pProbe, &p);
  if (rc == SQLITE_OK) rc = tb_match_solve(p);
  if (rc == SQLITE_OK) {
    for (v = 0; v < nVertex; v++) {
      aMate[v] = tb_match_mate(p, v);
      if (aDual) aDual[v] = (i64)dual_of(p, v)[0];
    }
    if (aTop && aTopZ) write_tops(p, aTop, aTopZ);
  }
  tb_match_close(p);
  return rc;
}
