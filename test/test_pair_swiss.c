/*
** test_pair_swiss: the 'mtg' / 'pokemon' pairing on states built by hand.
**
** Small random events (random earlier rounds with byes, absences, draws,
** forbidden pairs, players absent from the round to pair): the round must
** equal the best of all perfect matchings (a brute force) under the
** documented order of costs, compared as tuples, not as the weights that
** encode them.  Large events: every present player once, no rematch, one
** bye to an eligible player, tables by score.  Every allocation failure
** of a small event returns SQLITE_NOMEM and keeps nothing.
**
**   test_pair_swiss [events]
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "pair/pairing.h"

#define MAXP 2600
#define CAP 8

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (unsigned)(rng % n);
}

typedef struct Ev {
  int n, nRound;              /* players, rounds played */
  TbPairPlayer aP[MAXP];
  TbPairHistory *aH;          /* n * nRound */
  int aForb[16], nForb;
  TbPairState st;
} Ev;

/* Random earlier rounds; standings by score, ties by index. */
static void make_event(Ev *e, int n, int nRound, int bRandomPairs) {
  int r, i, k, perm[MAXP];
  memset(e->aP, 0, sizeof(TbPairPlayer) * (size_t)n);
  e->n = n; e->nRound = nRound;
  e->aH = calloc((size_t)n * (size_t)(nRound + 1), sizeof(TbPairHistory));
  for (i = 0; i < n; i++) { e->aP[i].iPlayer = i; e->aP[i].aHist = e->aH + (size_t)i * (size_t)(nRound + 1); }
  for (r = 0; r < nRound; r++) {
    int m = 0;
    for (i = 0; i < n; i++) {
      if (rnd(12) == 0) {     /* absent that round */
        TbPairHistory *h = &e->aP[i].aHist[r];
        h->iOpp = -1; h->eKind = TB_ZERO_BYE; h->eOutcome = TB_LOSS; h->nPoints = 0;
      } else perm[m++] = i;
    }
    if (bRandomPairs) {
      for (i = m - 1; i > 0; i--) { int j = (int)rnd((unsigned)i + 1), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    } else {
      /* by score, roughly: a Swiss-like history with fewer random rematches */
      for (i = 1; i < m; i++) {
        int j = i, t = perm[i];
        while (j > 0 && e->aP[perm[j - 1]].nScore < e->aP[t].nScore) { perm[j] = perm[j - 1]; j--; }
        perm[j] = t;
      }
    }
    for (k = 0; k + 1 < m; k += 2) {
      int a = perm[k], b = perm[k + 1], o = (int)rnd(7);
      TbPairHistory *ha = &e->aP[a].aHist[r], *hb = &e->aP[b].aHist[r];
      ha->iOpp = b; hb->iOpp = a; ha->eKind = hb->eKind = TB_PLAYED;
      ha->eOutcome = o < 3 ? TB_WIN : o < 6 ? TB_LOSS : TB_DRAW;
      hb->eOutcome = ha->eOutcome == TB_WIN ? TB_LOSS : ha->eOutcome == TB_LOSS ? TB_WIN : TB_DRAW;
      ha->nPoints = ha->eOutcome == TB_WIN ? 3 : ha->eOutcome == TB_DRAW ? 1 : 0;
      hb->nPoints = hb->eOutcome == TB_WIN ? 3 : hb->eOutcome == TB_DRAW ? 1 : 0;
    }
    if (m & 1) {
      TbPairHistory *h = &e->aP[perm[m - 1]].aHist[r];
      h->iOpp = -1; h->eKind = TB_PAB; h->eOutcome = TB_WIN; h->nPoints = 3;
    }
    for (i = 0; i < n; i++) e->aP[i].nScore += e->aP[i].aHist[r].nPoints;
  }
  for (i = 0; i < n; i++) {
    int s = 1;
    for (k = 0; k < n; k++) {
      if (e->aP[k].nScore > e->aP[i].nScore || (e->aP[k].nScore == e->aP[i].nScore && k < i && rnd(4))) s++;
    }
    e->aP[i].iStanding = s;
    e->aP[i].bAbsent = rnd(10) == 0;
    e->aP[i].iDivision = (int)rnd(3);
  }
  memset(&e->st, 0, sizeof(e->st));
  e->st.nPlayer = n; e->st.aPlayer = e->aP; e->st.iRound = nRound + 1;
  e->st.nPointScale = 1; e->st.nWin = 3; e->st.nDraw = 1; e->st.nLoss = 0; e->st.nPab = 3;
  e->st.iSeed = rng;
  e->nForb = 0;
  if (n >= 4 && rnd(3) == 0) {
    for (k = 0; k < 2; k++) { e->aForb[2 * k] = (int)rnd((unsigned)n); e->aForb[2 * k + 1] = (int)rnd((unsigned)n); }
    e->nForb = 2;
  }
  e->st.nForbidden = e->nForb; e->st.aForbidden = e->aForb;
}

static int met(const Ev *e, int a, int b) {
  int r, k;
  for (r = 0; r < e->nRound; r++) if (e->aP[a].aHist[r].iOpp == b) return 1;
  for (k = 0; k < e->nForb; k++) {
    if ((e->aForb[2 * k] == a && e->aForb[2 * k + 1] == b) || (e->aForb[2 * k] == b && e->aForb[2 * k + 1] == a)) return 1;
  }
  return 0;
}
static int had_bye(const Ev *e, int a) {
  int r;
  for (r = 0; r < e->nRound; r++) if (e->aP[a].aHist[r].eKind == TB_PAB) return 1;
  return 0;
}

/* The documented costs of a round, as a tuple. */
typedef struct Cost { long long v[5]; } Cost;
static int cost_less(const Cost *a, const Cost *b) {
  int k;
  for (k = 0; k < 5; k++) if (a->v[k] != b->v[k]) return a->v[k] < b->v[k];
  return 0;
}

static int g_pos[MAXP], g_byeRank[MAXP];

static void add_pair(const Ev *e, Cost *c, int a, int b) {
  long long d = e->aP[a].nScore - e->aP[b].nScore, dist = g_pos[a] - g_pos[b];
  if (d < 0) d = -d;
  if (dist < 0) dist = -dist;
  if (met(e, a, b)) c->v[0]++;
  if (d) c->v[2]++;
  c->v[3] += d;
  c->v[4] += dist > CAP ? CAP : dist;
}

/* Bye ranks, lowest-ranked eligible player 0. */
static void rank_byes(const Ev *e, const int *aPres, int nPres) {
  int i, j, nElig = 0, bAll;
  for (i = 0; i < nPres; i++) if (!had_bye(e, aPres[i])) nElig++;
  bAll = nElig == 0;
  for (i = 0; i < nPres; i++) {
    int a = aPres[i], r = 0;
    g_byeRank[a] = -1;
    if (!bAll && had_bye(e, a)) continue;
    for (j = 0; j < nPres; j++) {
      int b = aPres[j];
      if (b == a || (!bAll && had_bye(e, b))) continue;
      /* b is lower-ranked than a */
      if (e->st.iRound > 1 && e->aP[b].iStanding != e->aP[a].iStanding) {
        if (e->aP[b].iStanding > e->aP[a].iStanding) r++;
      } else if (g_pos[b] > g_pos[a]) r++;
    }
    g_byeRank[a] = r;
  }
}

static Cost best;
static long long nMatchings;
static void enumerate(const Ev *e, int *aLeft, int nLeft, int bByeFree, Cost c) {
  int i, a;
  if (nLeft == 0) {
    nMatchings++;
    if (nMatchings == 1 || cost_less(&c, &best)) best = c;
    return;
  }
  a = aLeft[0];
  if (bByeFree && g_byeRank[a] >= 0) {
    Cost c2 = c;
    c2.v[1] += g_byeRank[a];
    enumerate(e, aLeft + 1, nLeft - 1, 0, c2);
  }
  for (i = 1; i < nLeft; i++) {
    int b = aLeft[i], t;
    Cost c2 = c;
    add_pair(e, &c2, a, b);
    t = aLeft[1]; aLeft[1] = aLeft[i]; aLeft[i] = t;
    enumerate(e, aLeft + 2, nLeft - 2, bByeFree, c2);
    t = aLeft[1]; aLeft[1] = aLeft[i]; aLeft[i] = t;
  }
}

/* Every present player exactly once, absent ones never, one bye at most. */
static int check_legal(const Ev *e, const TbPairRound *pR, const char *zWhat) {
  static int seen[MAXP];
  int i, nPres = 0, nSeen = 0, nBye = 0;
  long long prevHigh = 1LL << 60;
  memset(seen, 0, sizeof(seen));
  for (i = 0; i < e->n; i++) if (!e->aP[i].bAbsent) nPres++;
  for (i = 0; i < pR->nTable; i++) {
    int a = pR->aTable[i].iA, b = pR->aTable[i].iB;
    long long high;
    if (a < 0 || a >= e->n || e->aP[a].bAbsent || seen[a]++) { printf("%s: bad player %d\n", zWhat, a); return 0; }
    nSeen++;
    if (b < 0) { nBye++; if (i != pR->nTable - 1) { printf("%s: bye not last\n", zWhat); return 0; } continue; }
    if (b >= e->n || e->aP[b].bAbsent || seen[b]++) { printf("%s: bad player %d\n", zWhat, b); return 0; }
    nSeen++;
    high = e->aP[a].nScore > e->aP[b].nScore ? e->aP[a].nScore : e->aP[b].nScore;
    if (e->aP[a].nScore < e->aP[b].nScore) { printf("%s: iA lower\n", zWhat); return 0; }
    if (high > prevHigh) { printf("%s: table order\n", zWhat); return 0; }
    prevHigh = high;
  }
  if (nSeen != nPres || nBye != (nPres & 1)) { printf("%s: %d of %d seated, %d byes\n", zWhat, nSeen, nPres, nBye); return 0; }
  return 1;
}

static Cost round_cost(const Ev *e, const TbPairRound *pR) {
  Cost c;
  int i;
  memset(&c, 0, sizeof(c));
  for (i = 0; i < pR->nTable; i++) {
    if (pR->aTable[i].iB < 0) c.v[1] += g_byeRank[pR->aTable[i].iA];
    else add_pair(e, &c, pR->aTable[i].iA, pR->aTable[i].iB);
  }
  return c;
}

static sqlite3_mem_methods orig;
static int nAllocLeft = -1;
static void *fail_malloc(int n) { if (nAllocLeft == 0) return 0; if (nAllocLeft > 0) nAllocLeft--; return orig.xMalloc(n); }
static void *fail_realloc(void *p, int n) { if (nAllocLeft == 0) return 0; if (nAllocLeft > 0) nAllocLeft--; return orig.xRealloc(p, n); }

static Ev ev;

int main(int argc, char **argv) {
  int nEvent = argc > 1 ? atoi(argv[1]) : 4000, t, nAgree = 0, nWiden = 0, nRematchPass = 0;
  long long nRematchRounds = 0;
  sqlite3_mem_methods m;
  sqlite3_config(SQLITE_CONFIG_GETMALLOC, &orig);
  m = orig; m.xMalloc = fail_malloc; m.xRealloc = fail_realloc;
  sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
  sqlite3_initialize();
  for (t = 0; t < nEvent; t++) {
    int n = 1 + (int)rnd(12), nRound = (int)rnd(8), aPres[MAXP], nPres = 0, i, rc, K0 = t % 2 ? 2 : 8;
    TbPairRound R;
    TbSwissInfo info;
    Cost got, z;
    char *zErr = 0;
    make_event(&ev, n, nRound, t % 3 != 0);
    memset(&R, 0, sizeof(R));
    memset(&info, 0, sizeof(info));
    info.aPos = g_pos;
    rc = tb_swiss_pair(&ev.st, K0, &R, &zErr, "mtg", &info);
    if (rc) { printf("event %d: rc %d %s\n", t, rc, zErr ? zErr : ""); return 1; }
    if (!check_legal(&ev, &R, "small")) { printf("event %d\n", t); return 1; }
    for (i = 0; i < n; i++) if (!ev.aP[i].bAbsent) aPres[nPres++] = i;
    rank_byes(&ev, aPres, nPres);
    memset(&z, 0, sizeof(z));
    nMatchings = 0;
    enumerate(&ev, aPres, nPres, nPres & 1, z);
    got = round_cost(&ev, &R);
    if (cost_less(&best, &got) || cost_less(&got, &best)) {
      printf("solves %d width %d rematchpass %d\n", info.nSolve, info.nWidth, info.bRematchPass);
      printf("event %d (n %d, rounds %d, K0 %d): got %lld %lld %lld %lld %lld, best %lld %lld %lld %lld %lld\n",
             t, nPres, nRound, K0, got.v[0], got.v[1], got.v[2], got.v[3], got.v[4],
             best.v[0], best.v[1], best.v[2], best.v[3], best.v[4]);
      return 1;
    }
    nAgree++;
    nWiden += info.nWidth > K0 && info.nWidth > 2;
    nRematchPass += info.bRematchPass;
    nRematchRounds += best.v[0] > 0;
    sqlite3_free(R.aTable);
    if (t % 97 == 0) {
      int nth;
      sqlite3_int64 before = sqlite3_memory_used();
      for (nth = 0;; nth++) {
        memset(&R, 0, sizeof(R));
        nAllocLeft = nth;
        rc = tb_swiss_pair(&ev.st, K0, &R, &zErr, "mtg", 0);
        nAllocLeft = -1;
        sqlite3_free(R.aTable);
        if (sqlite3_memory_used() != before) { printf("event %d: leak at %d\n", t, nth); return 1; }
        if (rc == SQLITE_OK) break;
        if (rc != SQLITE_NOMEM) { printf("event %d: rc %d at failure %d\n", t, rc, nth); return 1; }
      }
    }
    free(ev.aH);
  }
  printf("%d small events: %d equal the brute force's best (%d needed rematches, "
         "%d paired with rematch candidates, %d widened)\n",
         nEvent, nAgree, (int)nRematchRounds, nRematchPass, nWiden);
  {
    /* large events, Swiss histories: legal, no rematch, bye to an eligible player */
    int sizes[3] = {200, 1001, 2501}, s;
    for (s = 0; s < 3; s++) {
      int r;
      for (r = 0; r < 6; r++) {
        TbPairRound R;
        TbSwissInfo info;
        char *zErr = 0;
        int i, rc;
        make_event(&ev, sizes[s], r, 0);
        memset(&R, 0, sizeof(R));
        memset(&info, 0, sizeof(info));
        rc = tb_pair_mtg(&ev.st, &R, &zErr);
        if (rc) { printf("large %d round %d: rc %d\n", sizes[s], r + 1, rc); return 1; }
        if (!check_legal(&ev, &R, "large")) return 1;
        for (i = 0; i < R.nTable; i++) {
          int a = R.aTable[i].iA, b = R.aTable[i].iB;
          if (b >= 0 && met(&ev, a, b)) { printf("large %d: rematch\n", sizes[s]); return 1; }
          if (b < 0 && had_bye(&ev, a)) { printf("large %d: second bye\n", sizes[s]); return 1; }
        }
        sqlite3_free(R.aTable);
        free(ev.aH);
      }
    }
    printf("large events (200, 1001, 2501 players, rounds 1-6): legal\n");
  }
  return 0;
}
