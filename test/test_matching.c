/*
** test_matching: tb_match_weighted() against a brute force (every matching
** of a small graph, by dynamic programming over vertex subsets) on
** thousands of random graphs with ties and negative weights, with and
** without maximum cardinality first; every allocation failure of one
** graph returns SQLITE_NOMEM and frees what it took.  The dense form
** (two-word weights, kept between solves) against the same brute force
** after each change: a vertex's weights rewritten, a vertex removed.
**
**   test_matching [graphs]
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "pair/pairing.h"

typedef struct Best { int card; i64 w; } Best;

static int better(Best a, Best b, int bCard) {
  if (bCard && a.card != b.card) return a.card > b.card;
  return a.w > b.w;
}

/* The best matching over the vertices in mask (lowest vertex first). */
static Best brute(int n, i64 *W, unsigned char *E, int mask, int bCard, Best *memo,
                  unsigned char *seen) {
  Best best = {0, 0};
  int v, u;
  if (mask == 0) return best;
  if (seen[mask]) return memo[mask];
  for (v = 0; !(mask & (1 << v)); v++) {}
  best = brute(n, W, E, mask & ~(1 << v), bCard, memo, seen);
  for (u = v + 1; u < n; u++) {
    if ((mask & (1 << u)) && E[v * n + u]) {
      Best b = brute(n, W, E, mask & ~(1 << v) & ~(1 << u), bCard, memo, seen);
      b.card += 1;
      b.w += W[v * n + u];
      if (better(b, best, bCard)) best = b;
    }
  }
  seen[mask] = 1;
  memo[mask] = best;
  return best;
}

static unsigned long long rng = 88172645463325252ULL;
static unsigned rnd(unsigned n) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (unsigned)(rng % n);
}

/* Failing allocator: the nFail-th allocation from now fails. */
static sqlite3_mem_methods orig;
static int nAllocLeft = -1;
static void *fail_malloc(int n) {
  if (nAllocLeft == 0) return 0;
  if (nAllocLeft > 0) nAllocLeft--;
  return orig.xMalloc(n);
}
static void *fail_realloc(void *p, int n) {
  if (nAllocLeft == 0) return 0;
  if (nAllocLeft > 0) nAllocLeft--;
  return orig.xRealloc(p, n);
}

/* ------------------------------------------------- the dense, warm form */

__extension__ typedef __int128 Wide;

/* The best total weight over the vertices in mask (W: 0, no pair). */
static Wide brute_wide(int n, const Wide *W, int mask, Wide *memo, unsigned char *seen) {
  Wide best = 0;
  int v, u;
  if (mask == 0) return 0;
  if (seen[mask]) return memo[mask];
  for (v = 0; !(mask & (1 << v)); v++) {}
  best = brute_wide(n, W, mask & ~(1 << v), memo, seen);
  for (u = v + 1; u < n; u++) {
    if ((mask & (1 << u)) && W[v * n + u]) {
      Wide b = W[v * n + u] + brute_wide(n, W, mask & ~(1 << v) & ~(1 << u), memo, seen);
      if (b > best) best = b;
    }
  }
  seen[mask] = 1;
  memo[mask] = best;
  return best;
}

/* Writes pair {i,j}'s weight into the two-word matrix and its mirror. */
static int nDenseW = 2;   /* words of a weight: 2, or 3 with a zero top word */

static void set_pair(int n, TbWord *aMat, Wide *W, int i, int j, Wide w) {
  int t;
  W[i * n + j] = W[j * n + i] = w;
  for (t = 0; t < nDenseW; t++) {
    TbWord x = t == 0 ? (TbWord)w : t == 1 ? (TbWord)(w >> 64) : 0;
    aMat[nDenseW * (i * n + j) + t] = aMat[nDenseW * (j * n + i) + t] = x;
  }
}

/* Whether the graphs' low words lie at their extremes (see wide_weight). */
static int bCarryWeights;

/* A random weight of about 70 bits (ties in the high word are common).
** With bCarryWeights the low word is near 0 or near 2^64 and the high
** words are close: a slack's top word then takes every carry of the
** lower word (-2 to 1), which a scan's test of the top words alone
** (scan_passes in matching.c) must allow for. */
static Wide wide_weight(void) {
  static const TbWord aLow[] = {0, 1, 2, ~(TbWord)0, ~(TbWord)1, ~(TbWord)0 >> 1};
  if (bCarryWeights) {
    TbWord lo = rnd(3) ? aLow[rnd(6)] : ((TbWord)rnd(1u << 30) << 34) | rnd(1u << 30);
    return ((Wide)(1 + rnd(2)) << 64) | lo;
  }
  return ((Wide)(1 + rnd(6)) << 64) | ((Wide)rnd(4) << 40) | rnd(8);
}

/* Whether the matcher's matching is one of the brute force's weight. */
static int dense_agrees(TbMatcher *pM, int n, const Wide *W, int mask) {
  static Wide memo[1 << 12];
  static unsigned char seen[1 << 12];
  Wide got = 0;
  int v;
  memset(seen, 0, sizeof(seen));
  for (v = 0; v < n; v++) {
    int u = tb_match_mate(pM, v);
    if (u < 0) continue;
    if (tb_match_mate(pM, u) != v || !(mask & (1 << v)) || !(mask & (1 << u)) || !W[v * n + u]) {
      return 0;
    }
    if (v < u) got += W[v * n + u];
  }
  return got == brute_wide(n, W, mask, memo, seen);
}

/* The dense form's weights made by the caller (tb_match_open_dense_fn):
** here copied out of the same matrix, so that both forms must agree. */
typedef struct MatrixArg { int n; const TbWord *aMat; int nCall; } MatrixArg;
static const TbWord *matrix_weight(void *pArg, int i, int j, TbWord *aOut) {
  MatrixArg *pM = pArg;
  pM->nCall++;
  memcpy(aOut, pM->aMat + nDenseW * (i * pM->n + j), nDenseW * sizeof(TbWord));
  return aOut;
}

/* The slack of pair {i, j} from the same matrix (tb_match_slack_fn):
** ui + uj - 2 w, or -1 for a pair without a weight. */
static int matrix_slack(void *pArg, int i, int j, const TbWord *ui, const TbWord *uj,
                        TbWord *r) {
  MatrixArg *pM = pArg;
  const TbWord *w = pM->aMat + nDenseW * (i * pM->n + j);
  Wide c = 0;
  int t, bAny = 0;
  pM->nCall++;
  for (t = 0; t < nDenseW; t++) bAny |= w[t] != 0;
  if (!bAny) return -1;
  for (t = 0; t < nDenseW; t++) {
    c += (Wide)ui[t] + uj[t] - 2 * (Wide)w[t];
    r[t] = (TbWord)c;
    c >>= 64;
  }
  return 0;
}

/* The sign of pair {i, j}'s slack (tb_match_sign_fn), from the slack: -1,
** 0 or 1, or -2 for a pair without a weight. */
static int matrix_sign(void *pArg, int i, int j, const TbWord *ui, const TbWord *uj) {
  TbWord r[4]; /* nDenseW words, 3 at most */
  int t, bAny = 0;
  if (matrix_slack(pArg, i, j, ui, uj, r) < 0) return -2;
  for (t = 0; t < nDenseW; t++) bAny |= r[t] != 0;
  return (sqlite3_int64)r[nDenseW - 1] < 0 ? -1 : bAny;
}

/* Opens the dense form on the matrix, read in place (bFn 0), through
** matrix_weight (bFn 1, pArg the MatrixArg), with matrix_slack as well
** (bFn 2), and matrix_sign (bFn 3). */
static int open_form(int n, TbWord *aMat, int bFn, MatrixArg *pArg, TbMatcher **ppM) {
  int rc;
  if (!bFn) return tb_match_open_dense(n, nDenseW, aMat, 0, ppM);
  pArg->n = n;
  pArg->aMat = aMat;
  pArg->nCall = 0;
  rc = tb_match_open_dense_fn(n, nDenseW, matrix_weight, pArg, 0, ppM);
  if (rc == SQLITE_OK && bFn >= 2) tb_match_slack_fn(*ppM, matrix_slack);
  if (rc == SQLITE_OK && bFn == 3) tb_match_sign_fn(*ppM, matrix_sign);
  return rc;
}

/* Every allocation failure of a dense graph's open, solve, touch and
** solve again: SQLITE_NOMEM, and nothing kept once closed. */
static int dense_oom(int n, TbWord *aMat, int bFn) {
  MatrixArg arg;
  int nth;
  sqlite3_int64 before = sqlite3_memory_used();
  for (nth = 0;; nth++) {
    TbMatcher *pM = 0;
    int rc;
    nAllocLeft = nth;
    rc = open_form(n, aMat, bFn, &arg, &pM);
    if (rc == SQLITE_OK) rc = tb_match_solve(pM);
    if (rc == SQLITE_OK) { tb_match_touch(pM, 0); rc = tb_match_solve(pM); }
    nAllocLeft = -1;
    tb_match_close(pM);
    if (sqlite3_memory_used() != before) { printf("dense: leak at %d\n", nth); return 1; }
    if (rc == SQLITE_OK) return 0;
    if (rc != SQLITE_NOMEM) { printf("dense: rc %d at failure %d\n", rc, nth); return 1; }
  }
}

/* Random dense graphs: solved, then changed a vertex at a time and
** solved again (a matched pair's weight raised, a vertex's pairs
** reweighed or removed); every solve must reach the brute force's
** optimum.  bFn: the weights through the caller's function. */
static int dense_checks(int nGraph, int bFn) {
  int g, nSolve = 0;
  long nCall = 0;
  TbMatcher *pBig = 0;
  MatrixArg arg;
  /* a pair i*n + j of the dense form must be an int */
  if (tb_match_open_dense(TB_MATCH_DENSE_NMAX + 1, 1, 0, 0, &pBig) != SQLITE_MISUSE || pBig) {
    return printf("dense: %d vertices accepted\n", TB_MATCH_DENSE_NMAX + 1), 1;
  }
  if (tb_match_open_dense_fn(4, 1, 0, 0, 0, &pBig) != SQLITE_MISUSE || pBig) {
    return printf("dense: no weight function accepted\n"), 1;
  }
  for (g = 0; g < nGraph; g++) {
    int n = 2 + (int)rnd(11), i, j, step, mask = (1 << n) - 1, rc;
    TbWord aMat[3 * 144];
    Wide W[144];
    TbMatcher *pM = 0;
    bCarryWeights = g % 4 != 0;
    /* a third word (zero) puts a carry under the top two words */
    nDenseW = g % 2 ? 3 : 2;
    memset(aMat, 0, sizeof(aMat));
    memset(W, 0, sizeof(W));
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
      if (rnd(4)) set_pair(n, aMat, W, i, j, wide_weight());
    }
    if (g % 50 == 0 && dense_oom(n, aMat, bFn)) return 1;
    if (open_form(n, aMat, bFn, &arg, &pM) != SQLITE_OK) return printf("open\n"), 1;
    if (g % 5 == 1) {
      /* removed before the first solve, its weights left as they are: it
      ** leaves the graph, not only its pairs that lose their weight */
      i = (int)rnd((unsigned)n);
      tb_match_remove(pM, i);
      mask &= ~(1 << i);
    }
    for (step = 0; step < 8; step++) {
      rc = tb_match_solve(pM);
      if (rc != SQLITE_OK) { printf("dense graph %d: rc %d\n", g, rc); return 1; }
      nSolve++;
      if (!dense_agrees(pM, n, W, mask)) {
        printf("dense graph %d (n %d) step %d: not a maximum\n", g, n, step);
        return 1;
      }
      i = (int)rnd((unsigned)n);
      if (!(mask & (1 << i))) continue;
      j = tb_match_mate(pM, i);
      if (j >= 0 && rnd(4) == 0) {
        /* the matched pair gains: the matching stays a maximum, and a
        ** vertex in no blossom keeps its partner without a search */
        set_pair(n, aMat, W, i, j, W[i * n + j] + (Wide)rnd(1u << 20));
        tb_match_touch(pM, i);
        continue;
      }
      if (rnd(5) == 0) {
        tb_match_remove(pM, i);
        mask &= ~(1 << i);
        for (j = 0; j < n; j++) if (j != i) set_pair(n, aMat, W, i, j, 0);
        continue;
      }
      /* the pairs that exist get new weights, or leave (zero); a few
      ** without a weight, even at the first solve, get one: a pair is in
      ** the graph while its weight is not zero */
      for (j = 0; j < n; j++) {
        if (j == i || !(mask & (1 << j))) continue;
        if (!W[i * n + j]) {
          if (rnd(8) == 0) set_pair(n, aMat, W, i, j, wide_weight());
          continue;
        }
        set_pair(n, aMat, W, i, j, rnd(6) ? wide_weight() : 0);
      }
      tb_match_touch(pM, i);
    }
    tb_match_close(pM);
    if (bFn) nCall += arg.nCall;
  }
  if (bFn && nCall == 0) return printf("dense: the weight function never called\n"), 1;
  printf("%d dense graphs%s, %d warm solves: every one a maximum\n", nGraph,
         bFn == 3   ? " (weights, slacks and their signs by function)"
         : bFn == 2 ? " (weights and slacks by function)"
         : bFn      ? " (weights by function)"
                    : "",
         nSolve);
  return 0;
}

/* One of eight weights, their low words at 0 or near 2^64 (every carry
** under the top words); or, in every third graph, a multiple of 2^63, so
** that a tight pair's top words often differ by 1 and the low word by
** -2^64 (the top-down tightness test must read on). */
static int bHalfWords;
static Wide few_weights(void) {
  static const TbWord aLow[] = {0, 2, (TbWord)1 << 63, ~(TbWord)1};
  if (bHalfWords) return (Wide)(1 + rnd(6)) << 63;
  return ((Wide)(1 + rnd(2)) << 64) + aLow[rnd(4)];
}

/* Random dense graphs of few distinct weights (many optima): solved and
** changed a vertex at a time as in dense_checks(), by a matcher whose
** stages try tight pairs first and by one that always scans every pair;
** the two must choose the same matching at every solve. */
static int dense_same(int nGraph) {
  int g, nSolve = 0;
  for (g = 0; g < nGraph; g++) {
    int n = 2 + (int)rnd(11), i, j, step, v;
    TbWord aMat[3 * 144];
    Wide W[144];
    TbMatcher *pLazy = 0, *pFull = 0;
    nDenseW = g % 2 ? 3 : 2;
    bHalfWords = g % 3 == 2;
    memset(aMat, 0, sizeof(aMat));
    memset(W, 0, sizeof(W));
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
      if (rnd(4)) set_pair(n, aMat, W, i, j, few_weights());
    }
    if (tb_match_open_dense(n, nDenseW, aMat, 0, &pLazy) != SQLITE_OK
        || tb_match_open_dense(n, nDenseW, aMat, 0, &pFull) != SQLITE_OK) {
      return printf("open\n"), 1;
    }
    tb_match_full_scans(pFull);
    for (step = 0; step < 8; step++) {
      if (tb_match_solve(pLazy) != SQLITE_OK || tb_match_solve(pFull) != SQLITE_OK) {
        return printf("same %d: solve\n", g), 1;
      }
      nSolve++;
      for (v = 0; v < n; v++) {
        if (tb_match_mate(pLazy, v) != tb_match_mate(pFull, v)) {
          printf("same graph %d (n %d) step %d: vertex %d differs\n", g, n, step, v);
          return 1;
        }
      }
      i = (int)rnd((unsigned)n);
      for (j = 0; j < n; j++) {
        if (j != i && W[i * n + j]) set_pair(n, aMat, W, i, j, few_weights());
      }
      tb_match_touch(pLazy, i);
      tb_match_touch(pFull, i);
    }
    tb_match_close(pLazy);
    tb_match_close(pFull);
  }
  printf("%d dense graphs, %d solves: tight pairs first, the same matching\n", nGraph, nSolve);
  return 0;
}

int main(int argc, char **argv) {
  int nGraph = argc > 1 ? atoi(argv[1]) : 10000, g, nFail = 0;
  int nAgree = 0;
  sqlite3_mem_methods m;
  sqlite3_config(SQLITE_CONFIG_GETMALLOC, &orig);
  m = orig;
  m.xMalloc = fail_malloc;
  m.xRealloc = fail_realloc;
  sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
  sqlite3_initialize();
  for (g = 0; g < nGraph; g++) {
    int n = (int)rnd(13), nE = 0, i, j, flags = (int)rnd(2);
    int density = 1 + (int)rnd(10), range = g % 3 == 0 ? 4 : g % 3 == 1 ? 30 : 1000000;
    int bNeg = rnd(2);
    i64 W[144];
    unsigned char E[144], seen[1 << 12];
    Best memo[1 << 12], want, got = {0, 0};
    TbMatchEdge aEdge[80];
    int aMate[12], rc;
    memset(E, 0, sizeof(E));
    memset(seen, 0, sizeof(seen));
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
      if ((int)rnd(10) < density && nE < 80) {
        i64 w = (i64)rnd((unsigned)range) + 1 - (bNeg ? range / 2 : 0);
        if (flags == 0 && w < 0) w = -w;
        aEdge[nE].i = rnd(2) ? i : j;
        aEdge[nE].j = aEdge[nE].i == i ? j : i;
        aEdge[nE].w = w;
        nE++;
        if (!E[i * n + j] || w > W[i * n + j]) { W[i * n + j] = w; }
        E[i * n + j] = 1;
      }
    }
    want = brute(n, W, E, (1 << n) - 1, flags != 0, memo, seen);
    rc = tb_match_weighted(n, nE, aEdge, flags, 0, aMate, 0);
    if (rc != SQLITE_OK) { printf("graph %d: rc %d\n", g, rc); return 1; }
    for (i = 0; i < n; i++) {
      j = aMate[i];
      if (j < 0) continue;
      if (aMate[j] != i) { printf("graph %d: mate not symmetric\n", g); return 1; }
      if (i < j) {
        if (!E[i * n + j]) { printf("graph %d: not an edge\n", g); return 1; }
        got.card++;
        got.w += W[i * n + j];
      }
    }
    if (got.w != want.w || (flags && got.card != want.card)) {
      printf("graph %d (n %d, flags %d): got %d/%lld want %d/%lld\n", g, n, flags,
             got.card, (long long)got.w, want.card, (long long)want.w);
      nFail++;
    } else {
      nAgree++;
    }
    if (g % 50 == 0) {
      /* every allocation failure: NOMEM and nothing kept */
      int nth;
      sqlite3_int64 before = sqlite3_memory_used();
      for (nth = 0;; nth++) {
        nAllocLeft = nth;
        rc = tb_match_weighted(n, nE, aEdge, flags, 0, aMate, 0);
        nAllocLeft = -1;
        if (sqlite3_memory_used() != before) { printf("graph %d: leak at %d\n", g, nth); return 1; }
        if (rc == SQLITE_OK) break;
        if (rc != SQLITE_NOMEM) { printf("graph %d: rc %d at failure %d\n", g, rc, nth); return 1; }
      }
    }
  }
  {
    /* bad input */
    TbMatchEdge bad[1] = {{0, 0, 1}};
    int aMate[2];
    if (tb_match_weighted(2, 1, bad, 0, 0, aMate, 0) != SQLITE_MISUSE) { printf("loop accepted\n"); return 1; }
    bad[0].j = 2;
    if (tb_match_weighted(2, 1, bad, 0, 0, aMate, 0) != SQLITE_MISUSE) { printf("range accepted\n"); return 1; }
  }
  printf("%d graphs: %d agree with the brute force, %d differ\n", nGraph, nAgree, nFail);
  if (dense_checks(nGraph / 4, 0)) return 1;
  if (dense_checks(nGraph / 4, 1)) return 1;
  if (dense_checks(nGraph / 4, 2)) return 1;
  if (dense_checks(nGraph / 4, 3)) return 1;
  if (dense_same(nGraph / 4)) return 1;
  return nFail != 0;
}
