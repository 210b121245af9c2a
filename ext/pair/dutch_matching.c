/*
** dutch_matching.c: maximum-weight matching on a dense graph with wide
** integer weights (Edmonds' blossom algorithm with dual variables, in the
** O(n^3) form of Galil, "Efficient algorithms for finding maximum matching
** in graphs", 1986).  The Dutch system encodes its criteria as the bits of
** one weight per pair, far wider than 64 bits, so weights and duals are
** fixed-width multi-word integers here.
**
** Vertices 0..n-1; blossoms n..2n-1.  An edge {i,j}, i<j, is k = i*n+j; its
** endpoints are 2k (vertex i) and 2k+1 (vertex j), so p^1 is the far end.
*/
#include "dutch_matching.h"
#include <string.h>

struct DmSolver {
  int n, nW;
  const DmWord *aWeight;
  TbProbe *pProbe;
  int *mate;                  /* remote endpoint, or -1 */
  int *label, *labelend, *inblossom, *blossomparent, *blossombase;
  int *nChild, *aChild, *aEndp;     /* per blossom b: aChild[(b-n)*n ...] */
  int *bestedge;
  int *nBest, *aBest;               /* blossombestedges; nBest -1: none */
  int *unused, nUnused;
  DmWord *dual;                     /* 2n values of nW words */
  unsigned char *allow;             /* per edge k */
  int *aAllowed, nAllowed;          /* the edges allowed this stage */
  int *queue, nQueue;
  int *nNb, *aNb;                   /* neighbours with a nonzero weight */
  int *leaves, *bestto;
  DmWord *bestSlack;                /* per b: slack of edge cacheEdge[b] ... */
  int *cacheEdge, *cacheEpoch;      /* ... valid while the duals' epoch holds */
  int epoch;                        /* counts the dual changes */
  DmWord *t1, *t2;                  /* scratch values */
  unsigned char *dead;              /* removed from the graph */
  int bStarted;                     /* duals and matching hold */
  int rc;
};
typedef DmSolver Dm;

/* ------------------------------------------------------------ wide values */

static void w_copy(const Dm *p, DmWord *r, const DmWord *a) {
  memcpy(r, a, sizeof(DmWord) * (size_t)p->nW);
}
static void w_add(const Dm *p, DmWord *r, const DmWord *a) {
  DmWord c = 0; int i;
  for (i = 0; i < p->nW; i++) {
    DmWord s = r[i] + c; c = s < c;
    s += a[i]; c += s < a[i]; r[i] = s;
  }
}
static void w_sub(const Dm *p, DmWord *r, const DmWord *a) {
  DmWord b = 0; int i;
  for (i = 0; i < p->nW; i++) {
    DmWord x = r[i], y = a[i] + b;
    DmWord nb = (y < b) || (x < y);
    r[i] = x - y; b = nb;
  }
}
/* Signed comparison (two's complement). */
static int w_cmp(const Dm *p, const DmWord *a, const DmWord *b) {
  int i = p->nW - 1;
  if (a[i] != b[i]) {
    sqlite3_int64 x = (sqlite3_int64)a[i], y = (sqlite3_int64)b[i];
    return x < y ? -1 : 1;
  }
  for (i--; i >= 0; i--) if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}
static int w_sign(const Dm *p, const DmWord *a) {
  int i;
  if ((sqlite3_int64)a[p->nW - 1] < 0) return -1;
  for (i = 0; i < p->nW; i++) if (a[i]) return 1;
  return 0;
}
static void w_half(const Dm *p, DmWord *r) {   /* arithmetic shift right 1 */
  int i;
  for (i = 0; i < p->nW - 1; i++) r[i] = (r[i] >> 1) | (r[i + 1] << 63);
  r[i] = (DmWord)((sqlite3_int64)r[i] >> 1);
}

/* ------------------------------------------------------------------ graph */

static const DmWord *weight_of(const Dm *p, int k) {
  return p->aWeight + (size_t)k * (size_t)p->nW;
}
/* Whether {i,j} weighs 0 (no edge), read in row i (the matrix is
** symmetric, so a scan of i's pairs reads memory in order). */
static int weight_is_zero(const Dm *p, int i, int j) {
  const DmWord *w = p->aWeight + ((size_t)i * p->n + j) * p->nW;
  int t;
  for (t = 0; t < p->nW; t++) if (w[t]) return 0;
  return 1;
}

static int endpoint(const Dm *p, int e) {
  int k = e >> 1;
  return (e & 1) ? k % p->n : k / p->n;
}
static int edge_of(const Dm *p, int i, int j) {
  return i < j ? i * p->n + j : j * p->n + i;
}
/* The endpoint at u of the edge {v,u}. */
static int remote_end(const Dm *p, int v, int u) {
  return 2 * edge_of(p, v, u) + (u > v);
}
static DmWord *dual_of(const Dm *p, int b) {
  return p->dual + (size_t)b * (size_t)p->nW;
}
/* slack(k) = dual(i) + dual(j) - 2 w(k), into r. */
#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 DmWide;
#endif
/* slack({i,j}) = dual(i) + dual(j) - 2 w(i,j), into r; the matrix is
** symmetric, so row i is read in order. */
static void slack_ij(const Dm *p, int i, int j, DmWord *r) {
  const DmWord *w = p->aWeight + ((size_t)i * p->n + j) * p->nW;
#ifdef __SIZEOF_INT128__
  /* One pass, a signed 128-bit carry per word: the hot spot of the solve. */
  const DmWord *a = dual_of(p, i), *b = dual_of(p, j);
  DmWide c = 0;
  int t;
  for (t = 0; t < p->nW; t++) {
    c += (DmWide)a[t] + b[t] - 2 * (DmWide)w[t];
    r[t] = (DmWord)c;
    c >>= 64;
  }
#else
  w_copy(p, r, dual_of(p, i));
  w_add(p, r, dual_of(p, j));
  w_sub(p, r, w);
  w_sub(p, r, w);
#endif
}
static void slack(const Dm *p, int k, DmWord *r) {
  slack_ij(p, k / p->n, k % p->n, r);
}
/* Marks edge k usable for the stage; the list lets the next stage clear
** only what was set (a full clear once it overflows). */
static void set_allow(Dm *p, int k) {
  int i = k / p->n, j = k % p->n;
  if (p->allow[k]) return;
  p->allow[k] = 1;
  p->allow[(size_t)j * p->n + i] = 1;    /* both ways: scans read rows */
  if (p->nAllowed < 8 * p->n) p->aAllowed[p->nAllowed] = k;
  p->nAllowed++;
}
static void clear_allow(Dm *p) {
  int i;
  if (p->nAllowed > 8 * p->n) memset(p->allow, 0, (size_t)p->n * (size_t)p->n);
  else for (i = 0; i < p->nAllowed; i++) {
    int k = p->aAllowed[i];
    p->allow[k] = p->allow[(size_t)(k % p->n) * p->n + k / p->n] = 0;
  }
  p->nAllowed = 0;
}
/* Whether slack(k) < slack(k2). */
static int slack_less(Dm *p, int k, int k2) {
  slack(p, k, p->t1); slack(p, k2, p->t2);
  return w_cmp(p, p->t1, p->t2) < 0;
}
/* Whether the edge whose slack is ks improves on b's best edge; its slack
** is cached per dual epoch, as the scan compares many edges with it. */
static int beats_best(Dm *p, int b, const DmWord *ks) {
  DmWord *bs = p->bestSlack + (size_t)b * p->nW;
  if (p->bestedge[b] == -1) return 1;
  if (p->cacheEdge[b] != p->bestedge[b] || p->cacheEpoch[b] != p->epoch) {
    slack(p, p->bestedge[b], bs);
    p->cacheEdge[b] = p->bestedge[b];
    p->cacheEpoch[b] = p->epoch;
  }
  return w_cmp(p, ks, bs) < 0;
}
static void set_best(Dm *p, int b, int k, const DmWord *ks) {
  p->bestedge[b] = k;
  w_copy(p, p->bestSlack + (size_t)b * p->nW, ks);
  p->cacheEdge[b] = k;
  p->cacheEpoch[b] = p->epoch;
}

static int *childs(const Dm *p, int b) { return p->aChild + (size_t)(b - p->n) * p->n; }
static int *endps(const Dm *p, int b) { return p->aEndp + (size_t)(b - p->n) * p->n; }
static int *bests(const Dm *p, int b) { return p->aBest + (size_t)(b - p->n) * p->n; }

/* Appends the vertices of blossom b to out; returns the new count. */
static int blossom_leaves(const Dm *p, int b, int *out, int nOut) {
  int i;
  if (b < p->n) { out[nOut++] = b; return nOut; }
  for (i = 0; i < p->nChild[b]; i++) nOut = blossom_leaves(p, childs(p, b)[i], out, nOut);
  return nOut;
}
/* Index modulo the child count, for the cyclic walks round a blossom. */
static int cyc(int j, int len) { j %= len; return j < 0 ? j + len : j; }

/* ------------------------------------------------------------- the method */

static void assign_label(Dm *p, int w, int t, int e) {
  int b = p->inblossom[w];
  p->label[w] = p->label[b] = t;
  p->labelend[w] = p->labelend[b] = e;
  p->bestedge[w] = p->bestedge[b] = -1;
  if (t == 1) {
    p->nQueue = blossom_leaves(p, b, p->queue, p->nQueue);
  } else {
    int base = p->blossombase[b];
    assign_label(p, endpoint(p, p->mate[base]), 1, p->mate[base] ^ 1);
  }
}

/* Traces back from v and w to a common base (a new blossom) or the roots
** of two trees (an augmenting path: -1). */
static int scan_blossom(Dm *p, int v, int w) {
  int nPath = 0, base = -1, i;
  int *path = p->leaves;
  while (v != -1 || w != -1) {
    int b = p->inblossom[v];
    if (p->label[b] & 4) { base = p->blossombase[b]; break; }
    path[nPath++] = b;
    p->label[b] = 5;
    if (p->labelend[b] == -1) {
      v = -1;
    } else {
      v = endpoint(p, p->labelend[b]);
      b = p->inblossom[v];
      v = endpoint(p, p->labelend[b]);
    }
    if (w != -1) { int t = v; v = w; w = t; }
  }
  for (i = 0; i < nPath; i++) p->label[path[i]] = 1;
  return base;
}

static void add_blossom(Dm *p, int base, int k) {
  int v = k / p->n, w = k % p->n, i, j, nc = 0;
  int bb = p->inblossom[base], bv = p->inblossom[v], bw = p->inblossom[w];
  int b = p->unused[--p->nUnused];
  int *ch = childs(p, b), *ep = endps(p, b), nLeaf;
  p->blossombase[b] = base;
  p->blossomparent[b] = -1;
  p->blossomparent[bb] = b;
  while (bv != bb) {
    p->blossomparent[bv] = b;
    ch[nc] = bv; ep[nc] = p->labelend[bv]; nc++;
    v = endpoint(p, p->labelend[bv]);
    bv = p->inblossom[v];
  }
  ch[nc] = bb; nc++;
  for (i = 0, j = nc - 1; i < j; i++, j--) { int t = ch[i]; ch[i] = ch[j]; ch[j] = t; }
  for (i = 0, j = nc - 2; i < j; i++, j--) { int t = ep[i]; ep[i] = ep[j]; ep[j] = t; }
  ep[nc - 1] = 2 * k;
  while (bw != bb) {
    p->blossomparent[bw] = b;
    ch[nc] = bw; ep[nc] = p->labelend[bw] ^ 1; nc++;
    w = endpoint(p, p->labelend[bw]);
    bw = p->inblossom[w];
  }
  p->nChild[b] = nc;
  p->label[b] = 1;
  p->labelend[b] = p->labelend[bb];
  memset(dual_of(p, b), 0, sizeof(DmWord) * (size_t)p->nW);
  nLeaf = blossom_leaves(p, b, p->leaves, 0);
  for (i = 0; i < nLeaf; i++) {
    int x = p->leaves[i];
    if (p->label[p->inblossom[x]] == 2) p->queue[p->nQueue++] = x;
    p->inblossom[x] = b;
  }
  /* The least-slack edge from the new blossom to each other S-blossom. */
  for (i = 0; i < 2 * p->n; i++) p->bestto[i] = -1;
  for (i = 0; i < nc; i++) {
    int c = ch[i];
    if (c >= p->n && p->nBest[c] >= 0) {
      int m;
      for (m = 0; m < p->nBest[c]; m++) {
        int kk = bests(p, c)[m], a = kk / p->n, z = kk % p->n, bj;
        if (p->inblossom[z] == b) { int t = a; a = z; z = t; }
        bj = p->inblossom[z];
        if (bj != b && p->label[bj] == 1
            && (p->bestto[bj] == -1 || slack_less(p, kk, p->bestto[bj])))
          p->bestto[bj] = kk;
      }
    } else {
      int nl = blossom_leaves(p, c, p->leaves, 0), l;
      for (l = 0; l < nl; l++) {
        int x = p->leaves[l], m;
        for (m = 0; m < p->nNb[x]; m++) {
          int z = p->aNb[(size_t)x * p->n + m], kk = edge_of(p, x, z), bj;
          if (p->dead[z] || weight_is_zero(p, x, z)) continue;
          bj = p->inblossom[z];
          if (bj != b && p->label[bj] == 1
              && (p->bestto[bj] == -1 || slack_less(p, kk, p->bestto[bj])))
            p->bestto[bj] = kk;
        }
      }
    }
    if (c >= p->n) p->nBest[c] = -1;
    p->bestedge[c] = -1;
  }
  p->nBest[b] = 0;
  p->bestedge[b] = -1;
  for (i = 0; i < 2 * p->n; i++) {
    int kk = p->bestto[i];
    if (kk == -1) continue;
    bests(p, b)[p->nBest[b]++] = kk;
    if (p->bestedge[b] == -1 || slack_less(p, kk, p->bestedge[b])) p->bestedge[b] = kk;
  }
}

/* Returns blossom b's number to the unused ones, its fields cleared. */
static void release_blossom(Dm *p, int b) {
  p->label[b] = p->labelend[b] = -1;
  p->nChild[b] = 0;
  p->blossombase[b] = -1;
  p->nBest[b] = -1;
  p->bestedge[b] = -1;
  p->unused[p->nUnused++] = b;
}

static void expand_blossom(Dm *p, int b, int endstage) {
  int i, nc = p->nChild[b];
  int *ch = childs(p, b), *ep = endps(p, b);
  for (i = 0; i < nc; i++) {
    int s = ch[i];
    p->blossomparent[s] = -1;
    if (s < p->n) {
      p->inblossom[s] = s;
    } else if (endstage && w_sign(p, dual_of(p, s)) == 0) {
      expand_blossom(p, s, endstage);
    } else {
      int nl = blossom_leaves(p, s, p->leaves, 0), l;
      for (l = 0; l < nl; l++) p->inblossom[p->leaves[l]] = s;
    }
  }
  if (!endstage && p->label[b] == 2) {
    int entry = p->inblossom[endpoint(p, p->labelend[b] ^ 1)];
    int j, jstep, trick, e, bv;
    for (j = 0; ch[j] != entry; j++) {}
    if (j & 1) { j -= nc; jstep = 1; trick = 0; }
    else { jstep = -1; trick = 1; }
    e = p->labelend[b];
    while (j != 0) {
      p->label[endpoint(p, e ^ 1)] = 0;
      p->label[endpoint(p, ep[cyc(j - trick, nc)] ^ trick ^ 1)] = 0;
      assign_label(p, endpoint(p, e ^ 1), 2, e);
      set_allow(p, ep[cyc(j - trick, nc)] >> 1);
      j += jstep;
      e = ep[cyc(j - trick, nc)] ^ trick;
      set_allow(p, e >> 1);
      j += jstep;
    }
    bv = ch[cyc(j, nc)];
    p->label[endpoint(p, e ^ 1)] = p->label[bv] = 2;
    p->labelend[endpoint(p, e ^ 1)] = p->labelend[bv] = e;
    p->bestedge[bv] = -1;
    j += jstep;
    while (ch[cyc(j, nc)] != entry) {
      int nl, l, v = -1;
      bv = ch[cyc(j, nc)];
      if (p->label[bv] == 1) { j += jstep; continue; }
      nl = blossom_leaves(p, bv, p->leaves, 0);
      for (l = 0; l < nl; l++) { v = p->leaves[l]; if (p->label[v] != 0) break; }
      if (p->label[v] != 0) {
        p->label[v] = 0;
        p->label[endpoint(p, p->mate[p->blossombase[bv]])] = 0;
        assign_label(p, v, 2, p->labelend[v]);
      }
      j += jstep;
    }
  }
  release_blossom(p, b);
}

/* Swaps matched and unmatched edges on the even path round blossom b from
** vertex v to its base, which becomes v. */
static void augment_blossom(Dm *p, int b, int v) {
  int t = v, i, j, jstep, trick, nc = p->nChild[b];
  int *ch = childs(p, b), *ep = endps(p, b);
  while (p->blossomparent[t] != b) t = p->blossomparent[t];
  if (t >= p->n) augment_blossom(p, t, v);
  for (i = 0; ch[i] != t; i++) {}
  j = i;
  if (i & 1) { j -= nc; jstep = 1; trick = 0; }
  else { jstep = -1; trick = 1; }
  while (j != 0) {
    int e;
    j += jstep;
    t = ch[cyc(j, nc)];
    e = ep[cyc(j - trick, nc)] ^ trick;
    if (t >= p->n) augment_blossom(p, t, endpoint(p, e));
    j += jstep;
    t = ch[cyc(j, nc)];
    if (t >= p->n) augment_blossom(p, t, endpoint(p, e ^ 1));
    p->mate[endpoint(p, e)] = e ^ 1;
    p->mate[endpoint(p, e ^ 1)] = e;
  }
  /* Rotate the children so that t's child (index i) comes first. */
  if (i > 0) {
    int *tmp = p->leaves, m;
    for (m = 0; m < nc; m++) tmp[m] = ch[(i + m) % nc];
    memcpy(ch, tmp, sizeof(int) * (size_t)nc);
    for (m = 0; m < nc; m++) tmp[m] = ep[(i + m) % nc];
    memcpy(ep, tmp, sizeof(int) * (size_t)nc);
  }
  p->blossombase[b] = p->blossombase[ch[0]];
}

/* Swaps matched and unmatched edges on the path from S-vertex s up to the
** root of its tree; s's mate becomes endpoint e (-1: s is left free). */
static void flip_to_root(Dm *p, int s, int e) {
  for (;;) {
    int bs = p->inblossom[s], t, bt, j;
    if (bs >= p->n) augment_blossom(p, bs, s);
    p->mate[s] = e;
    if (p->labelend[bs] == -1) break;
    t = endpoint(p, p->labelend[bs]);
    bt = p->inblossom[t];
    s = endpoint(p, p->labelend[bt]);
    j = endpoint(p, p->labelend[bt] ^ 1);
    if (bt >= p->n) augment_blossom(p, bt, j);
    p->mate[j] = p->labelend[bt];
    e = p->labelend[bt] ^ 1;
  }
}

static void augment_matching(Dm *p, int k) {
  flip_to_root(p, k / p->n, 2 * k + 1);
  flip_to_root(p, k % p->n, 2 * k);
}

/* Scans the S-vertices in the queue; returns 1 once it augmented. */
static int grow_trees(Dm *p) {
  while (p->nQueue > 0) {
    int v = p->queue[--p->nQueue], m;
    if (tb_poll(p->pProbe, p->nNb[v] + 1)) { p->rc = p->pProbe->rc; return 0; }
    for (m = 0; m < p->nNb[v]; m++) {
      int w = p->aNb[(size_t)v * p->n + m];
      int k = edge_of(p, v, w), e = remote_end(p, v, w);
      int kslackSet = 0;
      if (p->inblossom[v] == p->inblossom[w] || p->dead[w]) continue;
      if (!p->allow[(size_t)v * p->n + w]) {
        /* A usable edge has a weight (it was found tight): only the others
        ** read the weights' memory, the cost of a scan at 1,000 players. */
        if (weight_is_zero(p, v, w)) continue;
        slack_ij(p, v, w, p->t1); kslackSet = 1;
        if (w_sign(p, p->t1) <= 0) set_allow(p, k);
      }
      if (p->allow[(size_t)v * p->n + w]) {
        if (p->label[p->inblossom[w]] == 0
            && p->mate[p->blossombase[p->inblossom[w]]] == -1) {
          /* A free vertex whose dual reached 0 earlier: a path to it. */
          augment_matching(p, k); return 1;
        } else if (p->label[p->inblossom[w]] == 0) {
          assign_label(p, w, 2, e ^ 1);
        } else if (p->label[p->inblossom[w]] == 1) {
          int base = scan_blossom(p, v, w);
          if (base >= 0) add_blossom(p, base, k);
          else { augment_matching(p, k); return 1; }
        } else if (p->label[w] == 0) {
          p->label[w] = 2;
          p->labelend[w] = e ^ 1;
        }
      } else if (p->label[p->inblossom[w]] == 1) {
        int b = p->inblossom[v];
        (void)kslackSet;
        if (beats_best(p, b, p->t1)) set_best(p, b, k, p->t1);
      } else if (p->label[w] == 0) {
        if (beats_best(p, w, p->t1)) set_best(p, w, k, p->t1);
      }
    }
  }
  return 0;
}

/* Changes the duals by the largest step that keeps them feasible; returns
** 1 when the stage is over: an S-vertex's dual reached 0, so it may stay
** free (the path from its root is flipped to leave it so). */
static int dual_step(Dm *p) {
  int n = p->n, v, b, type = 1, dedge = -1, dblossom = -1, dvertex = -1;
  DmWord *delta = p->t2 + p->nW, *d = delta + p->nW;
  for (v = 0; v < n; v++) {
    if (p->label[p->inblossom[v]] == 1
        && (dvertex < 0 || w_cmp(p, dual_of(p, v), delta) < 0)) {
      w_copy(p, delta, dual_of(p, v));
      dvertex = v;
    }
  }
  for (v = 0; v < n; v++) {
    if (p->label[p->inblossom[v]] == 0 && p->bestedge[v] != -1) {
      slack(p, p->bestedge[v], d);
      if (w_cmp(p, d, delta) < 0) { w_copy(p, delta, d); type = 2; dedge = p->bestedge[v]; }
    }
  }
  for (b = 0; b < 2 * n; b++) {
    if (p->blossomparent[b] == -1 && p->label[b] == 1 && p->bestedge[b] != -1) {
      slack(p, p->bestedge[b], d);
      w_half(p, d);
      if (w_cmp(p, d, delta) < 0) { w_copy(p, delta, d); type = 3; dedge = p->bestedge[b]; }
    }
  }
  for (b = n; b < 2 * n; b++) {
    if (p->blossombase[b] >= 0 && p->blossomparent[b] == -1 && p->label[b] == 2
        && w_cmp(p, dual_of(p, b), delta) < 0) {
      w_copy(p, delta, dual_of(p, b)); type = 4; dblossom = b;
    }
  }
  if (type == 1 && w_sign(p, delta) < 0) memset(delta, 0, sizeof(DmWord) * (size_t)p->nW);
  p->epoch++;
  for (v = 0; v < n; v++) {
    int l = p->label[p->inblossom[v]];
    if (l == 1) w_sub(p, dual_of(p, v), delta);
    else if (l == 2) w_add(p, dual_of(p, v), delta);
  }
  for (b = n; b < 2 * n; b++) {
    if (p->blossombase[b] >= 0 && p->blossomparent[b] == -1) {
      if (p->label[b] == 1) w_add(p, dual_of(p, b), delta);
      else if (p->label[b] == 2) w_sub(p, dual_of(p, b), delta);
    }
  }
  if (type == 1) {
    if (p->mate[dvertex] != -1) flip_to_root(p, dvertex, -1);
    return 1;
  }
  if (type == 2 || type == 3) {
    int i = dedge / n, j = dedge % n;
    set_allow(p, dedge);
    if (type == 2 && p->label[p->inblossom[i]] == 0) { int t = i; i = j; j = t; }
    p->queue[p->nQueue++] = i;
  } else {
    expand_blossom(p, dblossom, 0);
  }
  return 0;
}

/* Whether v is free with a positive dual: a root of the next stage. */
static int is_root(Dm *p, int v) {
  return !p->dead[v] && p->mate[v] == -1 && w_sign(p, dual_of(p, v)) > 0;
}

/* Stages until every free vertex has dual 0 (then the matching is of
** maximum weight: every slack >= 0, matched pairs tight, blossoms with a
** dual full).  Each stage ends with a path augmented or one free vertex
** retired at dual 0, so there are at most as many as roots at the start. */
static int run(Dm *p) {
  int n = p->n, v, b;
  for (;;) {
    int nRoot = 0;
    for (b = 0; b < 2 * n; b++) { p->label[b] = 0; p->labelend[b] = -1; p->bestedge[b] = -1; }
    for (b = n; b < 2 * n; b++) p->nBest[b] = -1;
    clear_allow(p);
    p->nQueue = 0;
    for (v = 0; v < n; v++) {
      if (is_root(p, v) && p->label[p->inblossom[v]] == 0) { assign_label(p, v, 1, -1); nRoot++; }
    }
    if (nRoot == 0) break;
    for (;;) {
      int augmented = grow_trees(p);
      if (p->rc) return p->rc;
      if (augmented || dual_step(p)) break;
    }
    for (b = n; b < 2 * n; b++) {
      if (p->blossomparent[b] == -1 && p->blossombase[b] >= 0 && p->label[b] == 1
          && w_sign(p, dual_of(p, b)) == 0)
        expand_blossom(p, b, 1);
    }
  }
  return SQLITE_OK;
}

/* ------------------------------------------------------- warm starts */

/* Adds blossom b's dual to each of its vertices and dissolves it: the
** slacks inside stay as they were, those leaving b grow. */
static void dissolve(Dm *p, int b) {
  int nl = blossom_leaves(p, b, p->leaves, 0), i, nc = p->nChild[b];
  int *ch = childs(p, b);
  for (i = 0; i < nl; i++) w_add(p, dual_of(p, p->leaves[i]), dual_of(p, b));
  memset(dual_of(p, b), 0, sizeof(DmWord) * (size_t)p->nW);
  for (i = 0; i < nc; i++) {
    int c = ch[i], l;
    p->blossomparent[c] = -1;
    nl = blossom_leaves(p, c, p->leaves, 0);
    for (l = 0; l < nl; l++) p->inblossom[p->leaves[l]] = c;
  }
  release_blossom(p, b);
}

void dm_touch(DmSolver *p, int v) {
  int top = v, x, j;
  DmWord *best = p->t1, *val = p->t2;
  if (!p->bStarted || p->dead[v]) return;
  while (p->blossomparent[top] != -1) top = p->blossomparent[top];
  x = p->mate[p->blossombase[top]];
  x = x >= 0 ? endpoint(p, x) : -1;
  if (top != v) {
    /* v becomes the base of every blossom round it, then they dissolve
    ** from the outside in (v's is the first child after the rotation). */
    augment_blossom(p, top, v);
    while (top != v) {
      int c = childs(p, top)[0];
      dissolve(p, top);
      top = c;
    }
  }
  p->mate[v] = -1;
  if (x >= 0) p->mate[x] = -1;
  /* v's dual: the least that covers each of its pairs, 2w - dual(j). */
  memset(best, 0, sizeof(DmWord) * (size_t)p->nW);
  for (j = 0; j < p->nNb[v]; j++) {
    int u = p->aNb[(size_t)v * p->n + j];
    const DmWord *w = p->aWeight + ((size_t)v * p->n + u) * p->nW;
    if (p->dead[u] || weight_is_zero(p, v, u)) continue;
    w_copy(p, val, w);
    w_add(p, val, w);
    w_sub(p, val, dual_of(p, u));
    if (w_cmp(p, val, best) > 0) w_copy(p, best, val);
  }
  w_copy(p, dual_of(p, v), best);
}

void dm_remove(DmSolver *p, int v) {
  dm_touch(p, v);
  p->dead[v] = 1;
  memset(dual_of(p, v), 0, sizeof(DmWord) * (size_t)p->nW);
}

/* From scratch: no blossom, each vertex's dual its largest weight (every
** slack >= 0), and the pairs tight at once (each the other's largest
** weight) matched greedily, so that the stages start near the optimum. */
static int cold_start(Dm *p) {
  int n = p->n, v, u, nW = p->nW;
  for (v = 0; v < n; v++) { p->mate[v] = -1; p->inblossom[v] = v; p->nNb[v] = 0; }
  for (v = 0; v < 2 * n; v++) {
    p->blossomparent[v] = -1;
    p->blossombase[v] = v < n ? v : -1;
    p->label[v] = 0;
    p->labelend[v] = -1;
    p->nChild[v] = 0;
    p->nBest[v] = -1;
    p->cacheEdge[v] = -1;
    p->cacheEpoch[v] = -1;
  }
  p->nUnused = 0;
  for (v = 2 * n - 1; v >= n; v--) p->unused[p->nUnused++] = v;
  memset(p->dual, 0, 2 * (size_t)n * nW * sizeof(DmWord));
  for (v = 0; v < n; v++) {
    if (tb_poll(p->pProbe, n - v)) return p->pProbe->rc;
    if (p->dead[v]) continue;
    for (u = v + 1; u < n; u++) {
      int k = v * n + u;
      if (p->dead[u] || weight_is_zero(p, v, u)) continue;
      p->aNb[(size_t)v * n + p->nNb[v]++] = u;
      p->aNb[(size_t)u * n + p->nNb[u]++] = v;
      if (w_cmp(p, weight_of(p, k), dual_of(p, v)) > 0) w_copy(p, dual_of(p, v), weight_of(p, k));
      if (w_cmp(p, weight_of(p, k), dual_of(p, u)) > 0) w_copy(p, dual_of(p, u), weight_of(p, k));
    }
  }
  for (v = 0; v < n; v++) {
    int m;
    if (tb_poll(p->pProbe, p->nNb[v] + 1)) return p->pProbe->rc;
    if (p->mate[v] != -1) continue;
    for (m = 0; m < p->nNb[v]; m++) {
      int w = p->aNb[(size_t)v * n + m];
      if (p->mate[w] != -1) continue;
      slack_ij(p, v, w, p->t1);
      if (w_sign(p, p->t1) == 0) {
        p->mate[v] = remote_end(p, v, w);
        p->mate[w] = remote_end(p, w, v);
        break;
      }
    }
  }
  p->bStarted = 1;
  return SQLITE_OK;
}

int dm_solve(DmSolver *p) {
  if (!p->bStarted && cold_start(p)) return p->pProbe->rc;
  p->rc = SQLITE_OK;
  return run(p);
}

int dm_mate(const DmSolver *p, int v) {
  return p->mate[v] >= 0 ? endpoint(p, p->mate[v]) : -1;
}

int dm_open(int n, int nW, const DmWord *aWeight, TbProbe *pProbe, DmSolver **ppOut) {
  Dm *p;
  size_t nn = (size_t)n * (size_t)n, nInt;
  int *q;
  *ppOut = 0;
  if (n < 1) n = 1;
  nn = (size_t)n * (size_t)n;
  /* One block: the struct, the int arrays, the duals and scratch, flags. */
  nInt = (size_t)n * 1 + 2 * (size_t)n * 5 + (size_t)n + 2 * (size_t)n
       + 3 * nn + 2 * (size_t)n + (size_t)n + 4 * (size_t)n + (size_t)n + nn
       + 2 * (size_t)n + 2 * (size_t)n + 2 * (size_t)n + 2 * (size_t)n + 8 * (size_t)n;
  p = sqlite3_malloc64(sizeof(Dm) + nInt * sizeof(int)
                       + (4 * (size_t)n + 4) * (size_t)nW * sizeof(DmWord) + nn + (size_t)n);
  if (p == 0) return SQLITE_NOMEM;
  memset(p, 0, sizeof(Dm));
  p->n = n; p->nW = nW; p->aWeight = aWeight; p->pProbe = pProbe;
  q = (int *)(p + 1);
  p->mate = q; q += n;
  p->label = q; q += 2 * n;
  p->labelend = q; q += 2 * n;
  p->blossomparent = q; q += 2 * n;
  p->blossombase = q; q += 2 * n;
  p->bestedge = q; q += 2 * n;
  p->inblossom = q; q += n;
  p->nChild = q; q += 2 * n;
  p->aChild = q; q += nn;
  p->aEndp = q; q += nn;
  p->aBest = q; q += nn;
  p->nBest = q; q += 2 * n;
  p->unused = q; q += n;
  p->queue = q; q += 4 * n;   /* room for re-queued vertices */
  p->nNb = q; q += n;
  p->aNb = q; q += nn;
  p->leaves = q; q += 2 * n;
  p->bestto = q; q += 2 * n;
  p->cacheEdge = q; q += 2 * n;
  p->cacheEpoch = q; q += 2 * n;
  p->aAllowed = q; q += 8 * n;
  p->dual = (DmWord *)q;
  p->t1 = p->dual + 2 * (size_t)n * nW;
  p->t2 = p->t1 + nW;          /* t2, then two more values for dual_step */
  p->bestSlack = p->t2 + 3 * (size_t)nW;
  p->allow = (unsigned char *)(p->bestSlack + 2 * (size_t)n * nW);
  p->dead = p->allow + nn;
  memset(p->dead, 0, (size_t)n);
  memset(p->allow, 0, nn);
  *ppOut = p;
  return SQLITE_OK;
}

void dm_close(DmSolver *p) { sqlite3_free(p); }
