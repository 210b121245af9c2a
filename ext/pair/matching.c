/*
** pair/matching.c: an exact maximum-weight matching in a general graph.
**
** Edmonds' blossom algorithm with dual variables (the primal-dual method of
** Galil, "Efficient algorithms for finding maximum matching in graphs",
** ACM Computing Surveys 1986), O(n^3) in the worst case, on an edge list.
** Weights are int64; every dual value and slack stays an integer because
** the duals are kept doubled (slack = u_i + u_j - 2 w).  With
** TB_MATCH_MAXCARD the matching has the most edges first and the largest
** weight among those; negative weights are then allowed.
**
** A system builds its candidate pairs, their weights (each system documents
** them), and calls tb_match_weighted():
**
**   TbMatchEdge aEdge[] = {{0, 1, 5}, {1, 2, 7}, {2, 3, 5}};
**   int aMate[4];
**   rc = tb_match_weighted(4, 3, aEdge, 0, pProbe, aMate, 0);
**   -- aMate = {1, 0, 3, 2}: weight 10 beats the single edge of 7
**
** Every allocation goes through sqlite3_malloc64; the probe is polled in
** every loop that may be long.
*/
#include "pairing.h"
#include <string.h>

typedef struct Blossom {
  int nChild;
  int *aChild;        /* sub-blossoms around the cycle, from the base */
  int *aEndp;         /* aEndp[k]: endpoint pair joining child k and k+1 */
  int nBest;
  int *aBest;         /* least-slack edges to other S-blossoms, or NULL */
} Blossom;

typedef struct Matcher {
  int n, m;
  const TbMatchEdge *aEdge;
  int *aEndpoint;     /* 2m: endpoint p is vertex aEndpoint[p]; p^1 the other */
  int *aNbStart;      /* n+1: CSR of the remote endpoints of each vertex */
  int *aNb;           /* 2m */
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
  i64 *aDual;         /* 2n, doubled */
  unsigned char *aAllow; /* m */
  int *aAllowed;      /* edges whose aAllow was set this stage */
  int nAllowed;
  int *aQueue;
  int nQueue, nQueueAlloc;
  int *aScratch;      /* 2n + 2: leaves, paths */
  int *aScratch2;     /* 2n + 2 */
  int *aBestTo;       /* 2n, all -1 between uses */
  int *aStack;        /* 2n: leaf walks */
  int *aStamp;        /* 2n: the stage that last touched each entry */
  int iStamp;
  int *aTouch;        /* 2n: entries labeled or given a best edge this stage */
  int nTouch;
  int *aFree;         /* free vertices (some matched since) */
  int nFree;
  int bMaxCard;
  TbProbe *pProbe;
  int rc;
} Matcher;

static i64 slack_of(const Matcher *p, int k) {
  const TbMatchEdge *e = &p->aEdge[k];
  return p->aDual[e->i] + p->aDual[e->j] - 2 * e->w;
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

static void queue_push(Matcher *p, int v) {
  touch(p, v);
  if (p->nQueue == p->nQueueAlloc) {
    int nNew = p->nQueueAlloc * 2 + 16;
    int *aNew = sqlite3_realloc64(p->aQueue, sizeof(int) * (sqlite3_uint64)nNew);
    if (aNew == 0) { p->rc = SQLITE_NOMEM; return; }
    p->aQueue = aNew;
    p->nQueueAlloc = nNew;
  }
  p->aQueue[p->nQueue++] = v;
}

static void allow_edge(Matcher *p, int k) {
  if (!p->aAllow[k]) {
    p->aAllow[k] = 1;
    p->aAllowed[p->nAllowed++] = k;
  }
}

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
    assign_label(p, p->aEndpoint[p->aMate[base]], 1, p->aMate[base] ^ 1);
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
      v = p->aEndpoint[p->aLabelEnd[b]];
      b = p->aInBlossom[v];
      v = p->aEndpoint[p->aLabelEnd[b]];
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

/* Offers edge k to the least-slack table of the new blossom b. */
static void offer_best(Matcher *p, int b, int k, int *aTouched, int *pnTouched) {
  int i = p->aEdge[k].i, j = p->aEdge[k].j, bj;
  if (p->aInBlossom[j] == b) { int t = i; i = j; j = t; }
  bj = p->aInBlossom[j];
  if (bj != b && p->aLabel[bj] == 1) {
    if (p->aBestTo[bj] == -1) {
      aTouched[(*pnTouched)++] = bj;
      p->aBestTo[bj] = k;
    } else if (slack_of(p, k) < slack_of(p, p->aBestTo[bj])) {
      p->aBestTo[bj] = k;
    }
  }
}

/* The least-slack edges from the new S-blossom b to every other S-blossom. */
static void blossom_best_edges(Matcher *p, int b) {
  Blossom *pB = &p->aBlossom[b];
  int *aTouched = p->aScratch2, nTouched = 0, c, k;
  for (c = 0; c < pB->nChild; c++) {
    int bv = pB->aChild[c];
    Blossom *pC = bv >= p->n ? &p->aBlossom[bv] : 0;
    if (pC && pC->aBest) {
      for (k = 0; k < pC->nBest; k++) offer_best(p, b, pC->aBest[k], aTouched, &nTouched);
    } else {
      int nLeaf = leaves(p, bv, p->aScratch), l;
      for (l = 0; l < nLeaf; l++) {
        int v = p->aScratch[l], q;
        for (q = p->aNbStart[v]; q < p->aNbStart[v + 1]; q++) {
          offer_best(p, b, p->aNb[q] / 2, aTouched, &nTouched);
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
    if (p->aBestEdge[b] == -1 || slack_of(p, e) < slack_of(p, p->aBestEdge[b])) {
      p->aBestEdge[b] = e;
    }
  }
}

/* Makes a blossom of the odd cycle closed by edge k, with the given base. */
static void add_blossom(Matcher *p, int base, int k) {
  int v = p->aEdge[k].i, w = p->aEdge[k].j;
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
    v = p->aEndpoint[p->aLabelEnd[bv]];
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
    w = p->aEndpoint[p->aLabelEnd[bw]];
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
  p->aDual[b] = 0;
  nLeaf = leaves(p, b, p->aScratch);
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
  blossom_best_edges(p, b);
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

/* Dissolves blossom b into its children; in mid-stage a T-blossom's
** children along the even path keep their labels. */
static void expand_blossom(Matcher *p, int b, int bEndStage) {
  Blossom *pB = &p->aBlossom[b];
  int c;
  for (c = 0; c < pB->nChild; c++) {
    int s = pB->aChild[c];
    touch(p, s);
    p->aParent[s] = -1;
    if (s < p->n) {
      p->aInBlossom[s] = s;
    } else if (bEndStage && p->aDual[s] == 0) {
      expand_blossom(p, s, bEndStage);
    } else {
      int nLeaf = leaves(p, s, p->aScratch), l;
      for (l = 0; l < nLeaf; l++) p->aInBlossom[p->aScratch[l]] = s;
    }
  }
  if (!bEndStage && p->aLabel[b] == 2) {
    int entry = p->aInBlossom[p->aEndpoint[p->aLabelEnd[b] ^ 1]];
    int j = child_index(pB, entry), jstep, trick, e, bv;
    if (j & 1) { j -= pB->nChild; jstep = 1; trick = 0; }
    else { jstep = -1; trick = 1; }
    e = p->aLabelEnd[b];
    while (j != 0) {
      p->aLabel[p->aEndpoint[e ^ 1]] = 0;
      p->aLabel[p->aEndpoint[endp_at(pB, j - trick) ^ trick ^ 1]] = 0;
      assign_label(p, p->aEndpoint[e ^ 1], 2, e);
      allow_edge(p, endp_at(pB, j - trick) / 2);
      j += jstep;
      e = endp_at(pB, j - trick) ^ trick;
      allow_edge(p, e / 2);
      j += jstep;
    }
    bv = child_at(pB, j);
    p->aLabel[p->aEndpoint[e ^ 1]] = p->aLabel[bv] = 2;
    p->aLabelEnd[p->aEndpoint[e ^ 1]] = p->aLabelEnd[bv] = e;
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
        p->aLabel[p->aEndpoint[p->aMate[p->aBase[bv]]]] = 0;
        assign_label(p, v, 2, p->aLabelEnd[v]);
      }
      j += jstep;
    }
  }
  p->aLabel[b] = p->aLabelEnd[b] = -1;
  sqlite3_free(pB->aChild);
  pB->aChild = pB->aEndp = 0;
  pB->nChild = 0;
  sqlite3_free(pB->aBest);
  pB->aBest = 0;
  pB->nBest = 0;
  p->aBase[b] = -1;
  p->aBestEdge[b] = -1;
  p->aUnused[p->nUnused++] = b;
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
    if (t >= p->n) augment_blossom(p, t, p->aEndpoint[e]);
    j += jstep;
    t = child_at(pB, j);
    if (t >= p->n) augment_blossom(p, t, p->aEndpoint[e ^ 1]);
    p->aMate[p->aEndpoint[e]] = e ^ 1;
    p->aMate[p->aEndpoint[e ^ 1]] = e;
  }
  rotate_ints(pB->aChild, pB->nChild, i);
  rotate_ints(pB->aEndp, pB->nChild, i);
  p->aBase[b] = p->aBase[pB->aChild[0]];
}

/* Augments along the path through edge k between two S-vertices. */
static void augment_matching(Matcher *p, int k) {
  int side;
  for (side = 0; side < 2; side++) {
    int s = side == 0 ? p->aEdge[k].i : p->aEdge[k].j;
    int e = side == 0 ? 2 * k + 1 : 2 * k;
    for (;;) {
      int bs = p->aInBlossom[s], t, bt, j;
      if (bs >= p->n) augment_blossom(p, bs, s);
      p->aMate[s] = e;
      if (p->aLabelEnd[bs] == -1) break;
      t = p->aEndpoint[p->aLabelEnd[bs]];
      bt = p->aInBlossom[t];
      s = p->aEndpoint[p->aLabelEnd[bt]];
      j = p->aEndpoint[p->aLabelEnd[bt] ^ 1];
      if (bt >= p->n) augment_blossom(p, bt, j);
      p->aMate[j] = p->aLabelEnd[bt];
      e = p->aLabelEnd[bt] ^ 1;
    }
  }
}

/* Scans the queue of S-vertices; returns 1 once the matching augmented. */
static int scan_queue(Matcher *p) {
  while (p->nQueue > 0 && p->rc == SQLITE_OK) {
    int v = p->aQueue[--p->nQueue], q;
    p->rc = tb_poll(p->pProbe, 1 + p->aNbStart[v + 1] - p->aNbStart[v]);
    for (q = p->aNbStart[v]; q < p->aNbStart[v + 1] && p->rc == SQLITE_OK; q++) {
      int e = p->aNb[q], k = e / 2, w = p->aEndpoint[e];
      i64 kslack = 0;
      if (p->aInBlossom[v] == p->aInBlossom[w]) continue;
      if (!p->aAllow[k]) {
        kslack = slack_of(p, k);
        if (kslack <= 0) allow_edge(p, k);
      }
      if (p->aAllow[k]) {
        int bw = p->aInBlossom[w];
        if (p->aLabel[bw] == 0) {
          assign_label(p, w, 2, e ^ 1);
        } else if (p->aLabel[bw] == 1) {
          int base = scan_blossom(p, v, w);
          if (base >= 0) {
            add_blossom(p, base, k);
          } else {
            augment_matching(p, k);
            return 1;
          }
        } else if (p->aLabel[w] == 0) {
          p->aLabel[w] = 2;
          p->aLabelEnd[w] = e ^ 1;
        }
      } else if (p->aLabel[p->aInBlossom[w]] == 1) {
        int b = p->aInBlossom[v];
        if (p->aBestEdge[b] == -1 || kslack < slack_of(p, p->aBestEdge[b])) {
          p->aBestEdge[b] = k;
        }
      } else if (p->aLabel[w] == 0) {
        if (p->aBestEdge[w] == -1 || kslack < slack_of(p, p->aBestEdge[w])) {
          touch(p, w);
          p->aBestEdge[w] = k;
        }
      }
    }
  }
  return 0;
}

/* The least dual of every vertex. */
static i64 least_dual(const Matcher *p) {
  i64 d = p->aDual[0];
  int v;
  for (v = 1; v < p->n; v++) if (p->aDual[v] < d) d = p->aDual[v];
  return d;
}

/* The dual step: 1 to end (optimum), 2/3 an edge made tight, 4 a
** T-blossom to expand.  Only the entries touched this stage can be
** labeled or hold a best edge, so only they are visited. */
static int dual_step(Matcher *p) {
  int n = p->n, t, type = -1, edge = -1, blossom = -1;
  i64 delta = 0;
  if (!p->bMaxCard) {
    /* the free vertices hold the least dual, and are touched (S roots) */
    type = 1;
    delta = -1;
    for (t = 0; t < p->nTouch; t++) {
      int x = p->aTouch[t];
      if (x < n && (delta < 0 || p->aDual[x] < delta)) delta = p->aDual[x];
    }
    if (delta < 0) delta = least_dual(p);
  }
  for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t];
    if (x < n && p->aLabel[p->aInBlossom[x]] == 0 && p->aBestEdge[x] != -1) {
      i64 d = slack_of(p, p->aBestEdge[x]);
      if (type == -1 || d < delta) { delta = d; type = 2; edge = p->aBestEdge[x]; }
    }
    if (p->aParent[x] == -1 && p->aLabel[x] == 1 && p->aBestEdge[x] != -1
        && (x < n || p->aBase[x] >= 0)) {
      i64 d = slack_of(p, p->aBestEdge[x]) / 2;
      if (type == -1 || d < delta) { delta = d; type = 3; edge = p->aBestEdge[x]; }
    }
  }
  for (t = 0; t < p->nTouch; t++) {
    int b = p->aTouch[t];
    if (b >= n && p->aBase[b] >= 0 && p->aParent[b] == -1 && p->aLabel[b] == 2
        && (type == -1 || p->aDual[b] < delta)) {
      delta = p->aDual[b];
      type = 4;
      blossom = b;
    }
  }
  if (type == -1) {
    /* maximum cardinality reached: a last step keeps the duals checkable */
    type = 1;
    delta = least_dual(p);
    if (delta < 0) delta = 0;
  }
  for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t];
    if (x < n) {
      int l = p->aLabel[p->aInBlossom[x]];
      if (l == 1) p->aDual[x] -= delta;
      else if (l == 2) p->aDual[x] += delta;
    } else if (p->aBase[x] >= 0 && p->aParent[x] == -1) {
      if (p->aLabel[x] == 1) p->aDual[x] += delta;
      else if (p->aLabel[x] == 2) p->aDual[x] -= delta;
    }
  }
  p->rc = tb_poll(p->pProbe, 2 * p->nTouch + 1);
  if (type == 2 || type == 3) {
    int i = p->aEdge[edge].i, j = p->aEdge[edge].j;
    allow_edge(p, edge);
    if (type == 2 && p->aLabel[p->aInBlossom[i]] == 0) i = j;
    queue_push(p, i);
  } else if (type == 4) {
    expand_blossom(p, blossom, 0);
  }
  return type;
}

/* Clears what the last stage touched, then labels every free vertex S:
** the roots of this stage's forest. */
static void start_stage(Matcher *p) {
  int n = p->n, t, k, v, nFree = 0;
  for (t = 0; t < p->nTouch; t++) {
    int x = p->aTouch[t];
    p->aLabel[x] = 0;
    p->aBestEdge[x] = -1;
    if (x >= n) {
      sqlite3_free(p->aBlossom[x].aBest);
      p->aBlossom[x].aBest = 0;
      p->aBlossom[x].nBest = 0;
    }
  }
  p->nTouch = 0;
  p->iStamp++;
  for (k = 0; k < p->nAllowed; k++) p->aAllow[p->aAllowed[k]] = 0;
  p->nAllowed = 0;
  p->nQueue = 0;
  for (k = 0; k < p->nFree && p->rc == SQLITE_OK; k++) {
    v = p->aFree[k];
    if (p->aMate[v] != -1) continue;
    p->aFree[nFree++] = v;
    if (p->aLabel[p->aInBlossom[v]] == 0) assign_label(p, v, 1, -1);
  }
  p->nFree = nFree;
}

/* Ends a stage: S-blossoms whose dual reached zero are dissolved. */
static void end_stage(Matcher *p) {
  int t;
  for (t = 0; t < p->nTouch; t++) {
    int b = p->aTouch[t];
    if (b >= p->n && p->aParent[b] == -1 && p->aBase[b] >= 0 && p->aLabel[b] == 1
        && p->aDual[b] == 0) {
      expand_blossom(p, b, 1);
    }
  }
}

static void matcher_free(Matcher *p) {
  int b;
  if (p->aBlossom) {
    for (b = p->n; b < 2 * p->n; b++) {
      sqlite3_free(p->aBlossom[b].aChild);
      sqlite3_free(p->aBlossom[b].aBest);
    }
  }
  sqlite3_free(p->aBlossom);
  sqlite3_free(p->aQueue);
  sqlite3_free(p->aDual);
}

/* Carves the next nInt ints from *pa. */
static int *carve(int **pa, sqlite3_uint64 nInt) {
  int *a = *pa;
  *pa += nInt;
  return a;
}

/* Allocates every array: the duals, then the ints, then the flags. */
static int matcher_alloc(Matcher *p, int n, int m) {
  sqlite3_uint64 N = (sqlite3_uint64)n, M = (sqlite3_uint64)m;
  sqlite3_uint64 nInt = 4 * M + (N + 1) + N + 5 * (2 * N) + N + N + M + 4 * (2 * N + 2)
                       + 2 * (2 * N) + N;
  int *a;
  p->aDual = sqlite3_malloc64(sizeof(i64) * 2 * N + sizeof(int) * nInt + M + 1);
  p->aBlossom = sqlite3_malloc64(sizeof(Blossom) * 2 * N + 1);
  /* zeroed before anything can fail: matcher_free() reads its lists */
  if (p->aBlossom) memset(p->aBlossom, 0, sizeof(Blossom) * 2 * N);
  if (p->aDual == 0 || p->aBlossom == 0) return SQLITE_NOMEM;
  a = (int *)(p->aDual + 2 * N);
  p->aEndpoint = carve(&a, 2 * M);
  p->aNb = carve(&a, 2 * M);
  p->aNbStart = carve(&a, N + 1);
  p->aMate = carve(&a, N);
  p->aLabel = carve(&a, 2 * N);
  p->aLabelEnd = carve(&a, 2 * N);
  p->aParent = carve(&a, 2 * N);
  p->aBase = carve(&a, 2 * N);
  p->aBestEdge = carve(&a, 2 * N);
  p->aInBlossom = carve(&a, N);
  p->aUnused = carve(&a, N);
  p->aAllowed = carve(&a, M);
  p->aScratch = carve(&a, 2 * N + 2);
  p->aScratch2 = carve(&a, 2 * N + 2);
  p->aBestTo = carve(&a, 2 * N + 2);
  p->aStack = carve(&a, 2 * N + 2);
  p->aStamp = carve(&a, 2 * N);
  p->aTouch = carve(&a, 2 * N);
  p->aFree = carve(&a, N);
  p->aAllow = (unsigned char *)a;
  return SQLITE_OK;
}

/* The graph as lists of remote endpoints per vertex. */
static void build_neighbours(Matcher *p) {
  int n = p->n, m = p->m, v, k;
  int *aPos = p->aScratch;   /* n + 1 counters */
  for (v = 0; v <= n; v++) aPos[v] = 0;
  for (k = 0; k < m; k++) {
    p->aEndpoint[2 * k] = p->aEdge[k].i;
    p->aEndpoint[2 * k + 1] = p->aEdge[k].j;
    aPos[p->aEdge[k].i + 1]++;
    aPos[p->aEdge[k].j + 1]++;
  }
  for (v = 0; v < n; v++) aPos[v + 1] += aPos[v];
  for (v = 0; v <= n; v++) p->aNbStart[v] = aPos[v];
  for (k = 0; k < m; k++) {
    p->aNb[aPos[p->aEdge[k].i]++] = 2 * k + 1;
    p->aNb[aPos[p->aEdge[k].j]++] = 2 * k;
  }
  for (k = 0; k < m; k++) p->aAllow[k] = 0;
}

/* Every vertex its own blossom, every dual at the largest weight (at least
** 0 unless the cardinality comes first: then only the slacks matter), and
** the edges of that weight matched greedily: they are tight, so this is
** the state the first stages would reach, one edge each, in O(m). */
static void initial_state(Matcher *p) {
  int n = p->n, m = p->m, v, b, k;
  i64 maxw = p->bMaxCard && m > 0 ? p->aEdge[0].w : 0;
  for (k = 0; k < m; k++) if (p->aEdge[k].w > maxw) maxw = p->aEdge[k].w;
  for (v = 0; v < n; v++) {
    p->aMate[v] = -1;
    p->aInBlossom[v] = v;
    p->aDual[v] = maxw;
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
    if (b >= n) p->aDual[b] = 0;
  }
  for (k = 0; k < m; k++) {
    int i = p->aEdge[k].i, j = p->aEdge[k].j;
    if (p->aEdge[k].w == maxw && p->aMate[i] == -1 && p->aMate[j] == -1) {
      p->aMate[i] = 2 * k + 1;
      p->aMate[j] = 2 * k;
    }
  }
  for (b = 0; b < 2 * n; b++) p->aStamp[b] = 0;
  p->iStamp = 0;
  p->nTouch = 0;
  p->nFree = 0;
  for (v = 0; v < n; v++) if (p->aMate[v] == -1) p->aFree[p->nFree++] = v;
}

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

/* One stage: grows the forest until an augmentation or the optimum. */
static int run_stage(Matcher *p) {
  start_stage(p);
  while (p->rc == SQLITE_OK) {
    if (scan_queue(p)) return 1;
    if (p->rc) break;
    if (dual_step(p) == 1) break;
  }
  return 0;
}

/* Each vertex's outermost blossom (or the vertex) and its doubled dual. */
static void write_tops(const Matcher *p, int *aTop, i64 *aTopZ) {
  int v;
  for (v = 0; v < p->n; v++) {
    int b = p->aInBlossom[v];
    while (p->aParent[b] != -1) b = p->aParent[b];
    aTop[v] = b;
    aTopZ[v] = b >= p->n ? 2 * p->aDual[b] : 0;
  }
}

int tb_match_weighted(int nVertex, int nEdge, const TbMatchEdge *aEdge,
                      int mFlags, TbProbe *pProbe, int *aMate, i64 *aDual) {
  return tb_match_weighted_ex(nVertex, nEdge, aEdge, mFlags, pProbe, aMate, aDual, 0, 0);
}

int tb_match_weighted_ex(int nVertex, int nEdge, const TbMatchEdge *aEdge,
                         int mFlags, TbProbe *pProbe, int *aMate, i64 *aDual,
                         int *aTop, i64 *aTopZ) {
  Matcher m;
  int v, stage;
  if (nVertex < 0 || nEdge < 0 || nVertex > TB_MATCH_NMAX
      || !edges_valid(nVertex, nEdge, aEdge)) {
    return SQLITE_MISUSE;
  }
  memset(&m, 0, sizeof(m));
  m.n = nVertex; m.m = nEdge; m.aEdge = aEdge;
  m.bMaxCard = (mFlags & TB_MATCH_MAXCARD) != 0;
  m.pProbe = pProbe;
  m.rc = matcher_alloc(&m, nVertex, nEdge);
  if (m.rc == SQLITE_OK) {
    build_neighbours(&m);
    initial_state(&m);
  }
  for (stage = 0; stage < nVertex && m.rc == SQLITE_OK; stage++) {
    if (!run_stage(&m) || m.rc) break;
    end_stage(&m);
  }
  if (m.rc == SQLITE_OK) {
    for (v = 0; v < nVertex; v++) {
      aMate[v] = m.aMate[v] >= 0 ? m.aEndpoint[m.aMate[v]] : -1;
      if (aDual) aDual[v] = m.aDual[v];
    }
    if (aTop && aTopZ) write_tops(&m, aTop, aTopZ);
  }
  matcher_free(&m);
  return m.rc;
}
