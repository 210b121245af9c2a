/*
** pair/swiss.c: Swiss pairing for match-point games, 'mtg' and 'pokemon'.
**
**   SELECT * FROM pairings('gp', 'mtg');       -- the next round's tables
**
** The round is the exact maximum-weight matching (matching.c) of the
** present players under documented costs, compared lexicographically
** (docs/pairing-swiss.md):
**
**   1. the bye only to a player who has not had one (a hard rule while
**      one such player is present);
**   2. the fewest rematches (and forbidden pairs);
**   3. the bye to the lowest-ranked such player;
**   4. the fewest pairs of players with different scores (pair-downs);
**   5. the smallest pair-downs: the sum of score differences;
**   6. players adjacent in a random order of their score group: the sum
**      of their distances in that order, each capped at SWISS_CAP.
**
** The costs are folded into one int64 weight per pair, each level worth
** more than the most every lower level can add up to.  Players are laid
** out by score, then by a random key from the seed; only pairs at most K
** places apart are candidates, plus the bye to every eligible player.
** Up to SWISS_EXACT_MAX players the matching's duals then certify the
** result over all pairs (no pair left out could improve it), or K grows
** and the round is paired again (at K >= n - 1 every pair is a candidate):
** the optimum of the full graph.  Above, the optimum over the candidate
** pairs, widened only while it holds a rematch.  A first pass leaves
** rematches out; only when it cannot pair everyone do rematches join, at
** their cost.
*/
#include "pairing.h"
#include <stdlib.h>
#include <string.h>

#define SWISS_K0 8            /* first candidate width */
#define SWISS_CAP 8           /* a distance counts at most this (level 6) */
#define SWISS_WEIGHT_MAX ((i64)1 << 57)
#define SWISS_EXACT_MAX 400    /* up to this many: the full graph's optimum */

typedef struct SwissPlayer {
  int iIdx;                   /* index in pState->aPlayer */
  i64 nScore;
  sqlite3_uint64 iKey;        /* random order within a score */
  int bHadBye;
  int iGroup;                 /* score group, from 0 (the highest) */
  int iByeRank;               /* 0: lowest-ranked eligible; -1: not eligible */
} SwissPlayer;

typedef struct Swiss {
  const TbPairState *pState;
  int n;                      /* present players */
  SwissPlayer *aP;            /* by position: score desc, then key */
  int *aPosOf;                /* aPlayer index -> position, or -1 */
  int *aOppStart, *aOpp;      /* positions met before or forbidden, per position */
  int nGroup;
  int *aGroupStart;           /* nGroup + 1 */
  i64 nUnit;                  /* points per step of score difference */
  int nDiffMax;               /* largest score difference in steps */
  int nElig;
  i64 B3, B4, B5, Brm;        /* the levels' multipliers */
  int nByeCap;                /* bye ranks beyond count as this */
  const int *aMateOut;        /* the matching, while the round is written */
  int bRematch;               /* second pass: rematch pairs are candidates */
} Swiss;

/* splitmix64: the repeatable random source of every choice. */
static sqlite3_uint64 swiss_mix(sqlite3_uint64 x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

static i64 gcd64(i64 a, i64 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) { i64 t = a % b; a = b; b = t; }
  return a;
}

/* The step of score differences: the gcd of what a round can give. */
static i64 score_unit(const TbPairState *s) {
  i64 g = gcd64(gcd64(s->nWin - s->nLoss, s->nDraw - s->nLoss), s->nPab - s->nLoss);
  return g > 0 ? g : 1;
}

static int had_bye(const TbPairPlayer *p, int nRound) {
  int r;
  for (r = 0; r < nRound; r++) if (p->aHist && p->aHist[r].eKind == TB_PAB) return 1;
  return 0;
}

static int cmp_position(const SwissPlayer *a, const SwissPlayer *b) {
  if (a->nScore != b->nScore) return a->nScore > b->nScore ? -1 : 1;
  if (a->iKey != b->iKey) return a->iKey < b->iKey ? -1 : 1;
  return a->iIdx < b->iIdx ? -1 : 1;
}

static int cmp_position_q(const void *a, const void *b) {
  return cmp_position((const SwissPlayer *)a, (const SwissPlayer *)b);
}

/* Sorts the ints a[0..n) so that before(p, x, y) holds for x before y:
** a stable merge sort, O(n log n), with one scratch array. */
static int sort_ints(int *a, int n, const Swiss *p, int (*before)(const Swiss *, int, int)) {
  int *t = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)n + 1));
  int w;
  if (t == 0) return SQLITE_NOMEM;
  for (w = 1; w < n; w *= 2) {
    int lo;
    for (lo = 0; lo < n; lo += 2 * w) {
      int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int x = lo, y = mid, k = lo;
      while (x < mid && y < hi) t[k++] = before(p, a[y], a[x]) ? a[y++] : a[x++];
      while (x < mid) t[k++] = a[x++];
      while (y < hi) t[k++] = a[y++];
    }
    memcpy(a, t, sizeof(int) * (size_t)n);
  }
  sqlite3_free(t);
  return SQLITE_OK;
}

/* The present players laid out by score, then by their random key. */
static int lay_out(Swiss *p) {
  const TbPairState *s = p->pState;
  int i, n = 0, rc;
  sqlite3_uint64 seed = swiss_mix(s->iSeed ^ swiss_mix((sqlite3_uint64)s->iRound));
  p->aP = sqlite3_malloc64(sizeof(SwissPlayer) * ((sqlite3_uint64)s->nPlayer + 1));
  p->aPosOf = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)s->nPlayer + 1));
  if (p->aP == 0 || p->aPosOf == 0) return SQLITE_NOMEM;
  for (i = 0; i < s->nPlayer; i++) {
    const TbPairPlayer *pl = &s->aPlayer[i];
    p->aPosOf[i] = -1;
    if (pl->bAbsent) continue;
    p->aP[n].iIdx = i;
    p->aP[n].nScore = pl->nScore;
    p->aP[n].iKey = swiss_mix(seed ^ (sqlite3_uint64)i);
    p->aP[n].bHadBye = had_bye(pl, s->iRound - 1);
    n++;
  }
  p->n = n;
  qsort(p->aP, (size_t)n, sizeof(SwissPlayer), cmp_position_q);
  rc = tb_poll(s->pProbe, n);
  if (rc) return rc;
  for (i = 0; i < n; i++) p->aPosOf[p->aP[i].iIdx] = i;
  return SQLITE_OK;
}

/* Score groups: contiguous runs of one score. */
static int find_groups(Swiss *p) {
  int i, g = 0;
  p->aGroupStart = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->n + 2));
  if (p->aGroupStart == 0) return SQLITE_NOMEM;
  for (i = 0; i < p->n; i++) {
    if (i == 0 || p->aP[i].nScore != p->aP[i - 1].nScore) p->aGroupStart[g++] = i;
    p->aP[i].iGroup = g - 1;
  }
  p->aGroupStart[g] = p->n;
  p->nGroup = g;
  p->nUnit = score_unit(p->pState);
  p->nDiffMax = 0;
  if (p->n > 0) {
    i64 d = (p->aP[0].nScore - p->aP[p->n - 1].nScore + p->nUnit - 1) / p->nUnit;
    p->nDiffMax = d > 1000000 ? 1000000 : (int)d;
  }
  return SQLITE_OK;
}

/* The lower-ranked of two eligible players for the bye: the larger
** standing, then (equal standings, and round 1) the later position. */
static int bye_lower(const Swiss *p, int a, int b) {
  const TbPairState *s = p->pState;
  if (s->iRound > 1) {
    int sa = s->aPlayer[p->aP[a].iIdx].iStanding, sb = s->aPlayer[p->aP[b].iIdx].iStanding;
    if (sa != sb) return sa > sb;
  }
  return a > b;
}

/* Ranks the players the bye may go to, lowest-ranked first (rank 0). */
static int rank_bye(Swiss *p) {
  int i, nElig = 0, bAll;
  int *a = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->n + 1));
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < p->n; i++) if (!p->aP[i].bHadBye) nElig++;
  bAll = nElig == 0;
  nElig = 0;
  for (i = 0; i < p->n; i++) {
    p->aP[i].iByeRank = -1;
    if (bAll || !p->aP[i].bHadBye) a[nElig++] = i;
  }
  if (sort_ints(a, nElig, p, bye_lower) != SQLITE_OK) {
    sqlite3_free(a);
    return SQLITE_NOMEM;
  }
  for (i = 0; i < nElig; i++) p->aP[a[i]].iByeRank = i;
  p->nElig = nElig;
  sqlite3_free(a);
  return SQLITE_OK;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

/* Per position, the positions of earlier opponents and forbidden partners
** who are present, sorted. */
static int collect_opponents(Swiss *p) {
  const TbPairState *s = p->pState;
  int nHist = s->iRound - 1, i, r, k;
  sqlite3_uint64 nTotal = 0;
  int *aFill;
  p->aOppStart = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->n + 2));
  if (p->aOppStart == 0) return SQLITE_NOMEM;
  memset(p->aOppStart, 0, sizeof(int) * ((size_t)p->n + 2));
  for (i = 0; i < p->n; i++) {
    const TbPairPlayer *pl = &s->aPlayer[p->aP[i].iIdx];
    for (r = 0; r < nHist && pl->aHist; r++) {
      int o = pl->aHist[r].iOpp;
      if (o >= 0 && o < s->nPlayer && p->aPosOf[o] >= 0) p->aOppStart[i + 1]++;
    }
  }
  for (k = 0; k < s->nForbidden; k++) {
    int a = s->aForbidden[2 * k], b = s->aForbidden[2 * k + 1];
    if (a < 0 || b < 0 || a >= s->nPlayer || b >= s->nPlayer) continue;
    if (p->aPosOf[a] < 0 || p->aPosOf[b] < 0 || a == b) continue;
    p->aOppStart[p->aPosOf[a] + 1]++;
    p->aOppStart[p->aPosOf[b] + 1]++;
  }
  for (i = 0; i < p->n; i++) p->aOppStart[i + 1] += p->aOppStart[i];
  nTotal = (sqlite3_uint64)p->aOppStart[p->n];
  p->aOpp = sqlite3_malloc64(sizeof(int) * (nTotal + 1));
  aFill = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->n + 1));
  if (p->aOpp == 0 || aFill == 0) { sqlite3_free(aFill); return SQLITE_NOMEM; }
  for (i = 0; i < p->n; i++) aFill[i] = p->aOppStart[i];
  for (i = 0; i < p->n; i++) {
    const TbPairPlayer *pl = &s->aPlayer[p->aP[i].iIdx];
    for (r = 0; r < nHist && pl->aHist; r++) {
      int o = pl->aHist[r].iOpp;
      if (o >= 0 && o < s->nPlayer && p->aPosOf[o] >= 0) p->aOpp[aFill[i]++] = p->aPosOf[o];
    }
  }
  for (k = 0; k < s->nForbidden; k++) {
    int a = s->aForbidden[2 * k], b = s->aForbidden[2 * k + 1];
    if (a < 0 || b < 0 || a >= s->nPlayer || b >= s->nPlayer) continue;
    if (p->aPosOf[a] < 0 || p->aPosOf[b] < 0 || a == b) continue;
    p->aOpp[aFill[p->aPosOf[a]]++] = p->aPosOf[b];
    p->aOpp[aFill[p->aPosOf[b]]++] = p->aPosOf[a];
  }
  sqlite3_free(aFill);
  for (i = 0; i < p->n; i++) {
    qsort(p->aOpp + p->aOppStart[i], (size_t)(p->aOppStart[i + 1] - p->aOppStart[i]),
          sizeof(int), cmp_int);
  }
  return SQLITE_OK;
}

/* Whether the players at positions a and b met before (or must not meet). */
static int is_rematch(const Swiss *p, int a, int b) {
  int lo = p->aOppStart[a], hi = p->aOppStart[a + 1];
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (p->aOpp[mid] == b) return 1;
    if (p->aOpp[mid] < b) lo = mid + 1; else hi = mid;
  }
  return 0;
}

/* Score difference in steps. */
static i64 diff_steps(const Swiss *p, int a, int b) {
  i64 d = p->aP[a].nScore - p->aP[b].nScore;
  if (d < 0) d = -d;
  return (d + p->nUnit - 1) / p->nUnit;
}

/* Levels 4 to 6 of the pair at positions a < b, without the rematch cost. */
static i64 pair_cost(const Swiss *p, int a, int b) {
  i64 dist = b - a > SWISS_CAP ? SWISS_CAP : b - a;
  i64 d = diff_steps(p, a, b);
  return (d ? p->B4 : 0) + p->B5 * d + dist;
}

/* Each level worth more than all the lower ones together; SQLITE_TOOBIG
** when the largest weight would leave the matching's range. */
static int set_levels(Swiss *p) {
  i128 nPair = p->n / 2 + 1, s6, s5, s4, s3, top;
  s6 = nPair * SWISS_CAP;
  p->B5 = (i64)(s6 + 1);
  s5 = nPair * p->nDiffMax * (i128)p->B5 + s6;
  if (s5 >= SWISS_WEIGHT_MAX) return SQLITE_TOOBIG;
  p->B4 = (i64)(s5 + 1);
  s4 = nPair * (i128)p->B4 + s5;
  if (s4 >= SWISS_WEIGHT_MAX) return SQLITE_TOOBIG;
  p->B3 = (i64)(s4 + 1);
  /* the bye's rank counts up to nByeCap places: every eligible player
  ** while that fits (above some thousands of players, the lowest ones) */
  {
    i128 nFit = ((i128)SWISS_WEIGHT_MAX / 2 - 2 * s4) / p->B3 - 1;
    if (nFit < 1) return SQLITE_TOOBIG;
    p->nByeCap = nFit < p->nElig ? (int)nFit : p->nElig;
  }
  s3 = (i128)(p->nByeCap + 1) * p->B3 + s4;
  if (s3 >= SWISS_WEIGHT_MAX) return SQLITE_TOOBIG;
  p->Brm = (i64)(s3 + 1);
  top = (i128)p->Brm + p->B4 + (i128)p->B5 * p->nDiffMax + SWISS_CAP;
  if (p->bRematch && top >= SWISS_WEIGHT_MAX) return SQLITE_TOOBIG;
  return SQLITE_OK;
}

/* The candidate edges: pairs at most K places apart (rematches only in
** the second pass), and the bye (vertex n) to every eligible player. */
static int build_edges(Swiss *p, int K, TbMatchEdge **paEdge, int *pnEdge) {
  int n = p->n, a, b, nEdge = 0;
  sqlite3_uint64 nMax = (sqlite3_uint64)n * (sqlite3_uint64)(K < n ? K : n) + (sqlite3_uint64)n + 1;
  TbMatchEdge *aEdge = sqlite3_malloc64(sizeof(TbMatchEdge) * nMax);
  if (aEdge == 0) return SQLITE_NOMEM;
  for (a = 0; a < n; a++) {
    int rc = tb_poll(p->pState->pProbe, K);
    if (rc) { sqlite3_free(aEdge); return rc; }
    for (b = a + 1; b < n && b - a <= K; b++) {
      int bRe = is_rematch(p, a, b);
      if (bRe && !p->bRematch) continue;
      aEdge[nEdge].i = a;
      aEdge[nEdge].j = b;
      aEdge[nEdge].w = -(pair_cost(p, a, b) + (bRe ? p->Brm : 0));
      nEdge++;
    }
    if ((n & 1) && p->aP[a].iByeRank >= 0) {
      aEdge[nEdge].i = a;
      aEdge[nEdge].j = n;
      aEdge[nEdge].w = -(p->B3 * (p->aP[a].iByeRank < p->nByeCap ? p->aP[a].iByeRank : p->nByeCap));
      nEdge++;
    }
  }
  *paEdge = aEdge;
  *pnEdge = nEdge;
  return SQLITE_OK;
}

/*
** The dual certificate: no pair more than K places apart could improve the
** perfect matching found.  Such a pair's weight is at most
** W(g, h) = -(level 4 + level 5 + min(K + 1, SWISS_CAP)), which depends
** only on the two score groups g and h, and its slack is at least
** aDual[a] + aDual[b] - 2 W (+ the outermost blossom's doubled dual when
** both are in it; inner blossoms only add).  The check asks it of every
** pair, window or not (a pair inside the window is feasible for its own,
** larger weight, which is at least W), so per player and group the two
** least duals of other blossoms and of the player's own are enough:
** O(n x groups) time.
*/
typedef struct Least { i64 v; int who; } Least;

/* Keeps the two least values of distinct keys (who) in a[0], a[1]. */
static void least_add(Least *a, i64 v, int who) {
  if (a[0].who < 0 || v < a[0].v) {
    if (a[0].who != who) a[1] = a[0];
    a[0].v = v; a[0].who = who;
  } else if (a[0].who != who && (a[1].who < 0 || v < a[1].v)) {
    a[1].v = v; a[1].who = who;
  }
}

/* The least of a[] whose key is not who, or 0 with *pbAny = 0. */
static i64 least_other(const Least *a, int who, int *pbAny) {
  *pbAny = 1;
  if (a[0].who >= 0 && a[0].who != who) return a[0].v;
  if (a[1].who >= 0 && a[1].who != who) return a[1].v;
  *pbAny = 0;
  return 0;
}

static i64 far_weight(const Swiss *p, int a, int h, int K) {
  i64 d = diff_steps(p, a, p->aGroupStart[h]);
  return -((d ? p->B4 : 0) + p->B5 * d + (K + 1 < SWISS_CAP ? K + 1 : SWISS_CAP));
}

static int certify(Swiss *p, int K, const i64 *aDual, const int *aTop,
                   const i64 *aTopZ, int *pbOk) {
  int n = p->n, G = p->nGroup, a, h, x, rc = SQLITE_OK;
  int nV = n + (n & 1), nT = 2 * nV;
  /* per group: least duals by outermost blossom; per blossom, its members */
  Least *aAll = sqlite3_malloc64(sizeof(Least) * 2 * ((sqlite3_uint64)G + 1));
  Least *aOwn = sqlite3_malloc64(sizeof(Least) * 2 * ((sqlite3_uint64)G + 1));
  int *aStart = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)nT + 2));
  int *aMember = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)n + 1));
  *pbOk = 1;
  if (!aAll || !aOwn || !aStart || !aMember) { rc = SQLITE_NOMEM; goto done; }
  for (h = 0; h < 2 * G; h++) aAll[h].who = -1;
  for (a = 0; a < n; a++) least_add(&aAll[2 * p->aP[a].iGroup], aDual[a], aTop[a]);
  memset(aStart, 0, sizeof(int) * ((size_t)nT + 2));
  for (a = 0; a < n; a++) aStart[aTop[a] + 1]++;
  for (x = 0; x < nT; x++) aStart[x + 1] += aStart[x];
  for (a = 0; a < n; a++) aMember[aStart[aTop[a]]++] = a;
  for (x = nT; x > 0; x--) aStart[x] = aStart[x - 1];
  aStart[0] = 0;
  for (x = 0; x < nT && *pbOk; x++) {
    int lo = aStart[x], hi = aStart[x + 1], k;
    if (lo == hi) continue;
    for (h = 0; h < 2 * G; h++) aOwn[h].who = -1;
    for (k = lo; k < hi; k++) {
      a = aMember[k];
      least_add(&aOwn[2 * p->aP[a].iGroup], aDual[a], a);
    }
    for (k = lo; k < hi && *pbOk; k++) {
      a = aMember[k];
      rc = tb_poll(p->pState->pProbe, G);
      if (rc) goto done;
      for (h = 0; h < G; h++) {
        int bOther, bOwn;
        i64 mOther = least_other(&aAll[2 * h], x, &bOther);
        i64 mOwn = least_other(&aOwn[2 * h], a, &bOwn) + aTopZ[a];
        i64 mn = !bOwn || (bOther && mOther < mOwn) ? mOther : mOwn;
        if (!bOther && !bOwn) continue;
        if (aDual[a] + mn < 2 * far_weight(p, a, h, K)) { *pbOk = 0; break; }
      }
    }
  }
done:
  sqlite3_free(aAll);
  sqlite3_free(aOwn);
  sqlite3_free(aStart);
  sqlite3_free(aMember);
  return rc;
}

/* One matching at width K: *pbPerfect when every vertex is matched,
** *pbCertified when the certificate holds as well. */
static int match_at(Swiss *p, int K, int *aMate, int *pbPerfect, int *pbCertified) {
  int bCertifyWanted = pbCertified != 0, bDummy = 0;
  TbMatchEdge *aEdge = 0;
  int nEdge = 0, nV = p->n + (p->n & 1), v, rc;
  i64 *aDual = sqlite3_malloc64(sizeof(i64) * 2 * ((sqlite3_uint64)nV + 1));
  int *aTop = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)nV + 1));
  i64 *aTopZ = aDual ? aDual + nV + 1 : 0;
  if (!bCertifyWanted) pbCertified = &bDummy;
  *pbPerfect = *pbCertified = 0;
  if (aDual == 0 || aTop == 0) {
    sqlite3_free(aDual);
    sqlite3_free(aTop);
    return SQLITE_NOMEM;
  }
  rc = build_edges(p, K, &aEdge, &nEdge);
  if (rc == SQLITE_OK) {
    rc = tb_match_weighted_ex(nV, nEdge, aEdge, TB_MATCH_MAXCARD, p->pState->pProbe,
                              aMate, aDual, aTop, aTopZ);
  }
  sqlite3_free(aEdge);
  if (rc == SQLITE_OK) {
    *pbPerfect = 1;
    for (v = 0; v < nV; v++) if (aMate[v] < 0) *pbPerfect = 0;
    if (*pbPerfect) {
      if (K >= p->n - 1) *pbCertified = 1;
      else if (bCertifyWanted) rc = certify(p, K, aDual, aTop, aTopZ, pbCertified);
    }
  }
  sqlite3_free(aDual);
  sqlite3_free(aTop);
  return rc;
}

/* Whether the round seats two players who met before. */
static int has_rematch(const Swiss *p, const int *aMate) {
  int a;
  for (a = 0; a < p->n; a++) {
    if (aMate[a] > a && aMate[a] < p->n && is_rematch(p, a, aMate[a])) return 1;
  }
  return 0;
}

/*
** Pairs at widths K, 4K, 16K ... (at least n - 1: every pair).  Up to
** SWISS_EXACT_MAX present players it goes on until the certificate holds:
** the full graph's optimum.  Above, it stops at the first width with a
** perfect matching and no rematch (the optimum among the candidate pairs);
** a round with a rematch widens until none is left or every pair is a
** candidate.  The second pass (rematches as candidates) starts when the
** first cannot pair everyone.
*/
static int solve(Swiss *p, int K0, int *aMate, TbSwissInfo *pInfo) {
  int K = K0 < 2 ? 2 : K0, rc, bExact = p->n <= SWISS_EXACT_MAX || K0 >= p->n - 1;
  int bCert = 0;
  p->bRematch = 0;
  for (;;) {
    int bPerfect;
    rc = set_levels(p);
    if (rc) return rc;
    rc = match_at(p, K, aMate, &bPerfect, bExact ? &bCert : 0);
    if (rc) return rc;
    if (pInfo) pInfo->nSolve++;
    if (!bPerfect && !p->bRematch) { p->bRematch = 1; continue; }
    if (bPerfect && K >= p->n - 1) { bCert = 1; break; }
    if (bPerfect && bCert) break;
    if (bPerfect && !bExact && !has_rematch(p, aMate)) break;
    K = K >= p->n / 4 ? p->n : K * 4;
  }
  if (pInfo) {
    pInfo->nByeCap = p->nByeCap;
    pInfo->nWidth = K;
    pInfo->bRematchPass = p->bRematch;
    pInfo->bCertified = bCert;
  }
  return SQLITE_OK;
}

/* The better of two players for seat A and the table's place: the higher
** score, then the better standing, then the earlier position. */
static int seat_before(const Swiss *p, int a, int b) {
  const TbPairState *s = p->pState;
  int sa = s->aPlayer[p->aP[a].iIdx].iStanding, sb = s->aPlayer[p->aP[b].iIdx].iStanding;
  if (p->aP[a].nScore != p->aP[b].nScore) return p->aP[a].nScore > p->aP[b].nScore;
  if (sa != sb) return sa < sb;
  return a < b;
}

/* Whether the table of seat-A player a1 comes before that of a2: the
** higher scores first (the better player's, then the other's).  Reads the
** partners from p->aMateOut. */
static int table_before(const Swiss *p, int a1, int a2) {
  int b1 = p->aMateOut[a1], b2 = p->aMateOut[a2];
  if (p->aP[a1].nScore != p->aP[a2].nScore) return p->aP[a1].nScore > p->aP[a2].nScore;
  if (p->aP[b1].nScore != p->aP[b2].nScore) return p->aP[b1].nScore > p->aP[b2].nScore;
  return seat_before(p, a1, a2);
}

/* Table order (docs/pairing-swiss.md): by scores, highest first; the bye
** last.  Seat A is the player with the higher score (then standing). */
static int write_round(Swiss *p, const int *aMate, TbPairRound *pRound) {
  int a, k, nPair = 0, rc = SQLITE_OK, iBye = -1;
  int *aA = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->n + 1));
  if (aA == 0) return SQLITE_NOMEM;
  p->aMateOut = aMate;
  for (a = 0; a < p->n; a++) {
    int b = aMate[a];
    if (b == p->n) { iBye = a; continue; }
    if (b < a) continue;
    aA[nPair++] = seat_before(p, a, b) ? a : b;
  }
  if (sort_ints(aA, nPair, p, table_before) != SQLITE_OK) {
    sqlite3_free(aA);
    return SQLITE_NOMEM;
  }
  for (k = 0; k < nPair && rc == SQLITE_OK; k++) {
    int x = aA[k], y = aMate[x];
    rc = tb_pair_round_add(pRound, p->aP[x].iIdx, p->aP[y].iIdx,
                           is_rematch(p, x, y) ? "rematch: no pairing avoids it"
                           : p->aP[x].nScore != p->aP[y].nScore ? "pair-down" : 0);
  }
  if (rc == SQLITE_OK && iBye >= 0) {
    rc = tb_pair_round_add(pRound, p->aP[iBye].iIdx, -1,
                           p->aP[iBye].bHadBye ? "bye: every player has had one" : "bye");
  }
  sqlite3_free(aA);
  return rc;
}

static void swiss_free(Swiss *p) {
  sqlite3_free(p->aP);
  sqlite3_free(p->aPosOf);
  sqlite3_free(p->aOppStart);
  sqlite3_free(p->aOpp);
  sqlite3_free(p->aGroupStart);
}

int tb_swiss_pair(const TbPairState *pState, int K0, TbPairRound *pRound,
                  char **pzErr, const char *zSystem, TbSwissInfo *pInfo) {
  Swiss sw;
  int *aMate = 0, rc;
  memset(&sw, 0, sizeof(sw));
  sw.pState = pState;
  if (pInfo) {
    int *aPos = pInfo->aPos;
    memset(pInfo, 0, sizeof(*pInfo));
    pInfo->aPos = aPos;
  }
  rc = lay_out(&sw);
  if (rc == SQLITE_OK) rc = find_groups(&sw);
  if (rc == SQLITE_OK) rc = rank_bye(&sw);
  if (rc == SQLITE_OK) rc = collect_opponents(&sw);
  if (rc == SQLITE_OK && sw.n > 0) {
    aMate = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)sw.n + 2));
    if (aMate == 0) rc = SQLITE_NOMEM;
    else rc = solve(&sw, K0, aMate, pInfo);
  }
  if (rc == SQLITE_OK && sw.n > 0) rc = write_round(&sw, aMate, pRound);
  if (rc == SQLITE_OK && pInfo && pInfo->aPos) {
    int a;
    for (a = 0; a < sw.n; a++) pInfo->aPos[sw.aP[a].iIdx] = a;
  }
  if (rc == SQLITE_TOOBIG && pzErr) {
    *pzErr = sqlite3_mprintf("%d players with scores %lld points apart are "
                             "too many for the '%s' pairing's weights", sw.n,
                             (long long)(sw.n ? sw.aP[0].nScore - sw.aP[sw.n - 1].nScore : 0),
                             zSystem);
  }
  sqlite3_free(aMate);
  swiss_free(&sw);
  return rc;
}

/* Magic Tournament Rules: score groups of match points. */
int tb_pair_mtg(const TbPairState *pState, TbPairRound *pRound, char **pzErr) {
  return tb_swiss_pair(pState, SWISS_K0, pRound, pzErr, "mtg", 0);
}

/* TOM pairs a pod as one field: age divisions of a combined pod are paired
** across each other by record alone (docs/pairing-swiss.md). */
int tb_pair_pokemon(const TbPairState *pState, TbPairRound *pRound, char **pzErr) {
  return tb_swiss_pair(pState, SWISS_K0, pRound, pzErr, "pokemon", 0);
}
