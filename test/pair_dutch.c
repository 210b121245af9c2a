/*
** pair_dutch.c: replays Dutch-system tournaments stored as TRF (every round
** paired by an endorsed engine from the rounds before it) and checks that
** tb_pair_dutch() makes each round again: the same pairs, the same colours,
** the same pairing-allocated bye.
**
**   test_pair_dutch [-v|-vv] FILE.trf ...  prints "rounds identical / total"
**                                         (-vv: and each round's CPU time)
**   test_pair_dutch --cases               small rounds computed by hand
**   test_pair_dutch --oom FILE.trf K      every allocation of pairing round K
**                                         fails in turn (persistent, then
**                                         single): SQLITE_NOMEM, nothing
**                                         left allocated, or the same round
**
** The state before round k: rounds 1..k-1 as played, scores from them; a
** player whose round-k entry is not a game (H, F, Z, or '-' without an
** opponent, or no entry) is absent; XXR gives the rounds scheduled; the
** colour of the first pairing number comes from round 1 as the file has it;
** TRF-2026's 250 records (and the XXA extension) give the virtual points
** of an accelerated event, a 192 record ending in _BAKU the Baku rule's
** (C.04.5.1, nAccelerated).  Where the records are the Baku rule's, the
** rounds are paired a second time from the rule alone.
** Exit status 0 only if every round of every file is identical.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pair/pairing.h"

#define MAXP 2000
#define MAXR 40

typedef struct Entry { int iOpp; char cColour, cResult; int bSet; } Entry;
typedef struct Trf {
  int nPlayer, nRounds, nCols;
  Entry e[MAXP][MAXR];
  int bVirtual;               /* a 250 or XXA record was read */
  int bBakuType;              /* record 192 names Baku acceleration */
  i64 aVirtual[MAXP][MAXR];   /* virtual points, half points, by round */
} Trf;

static Trf trf;

static int parse_int(const char *z, int n) {
  int v = 0, i, any = 0;
  for (i = 0; i < n && z[i]; i++) {
    if (z[i] >= '0' && z[i] <= '9') { v = v * 10 + (z[i] - '0'); any = 1; }
  }
  return any ? v : -1;
}

/* Points "11.5" at z[0..n) in half points, 0 if blank. */
static int half_points(const char *z, int n) {
  int v = 0, i, any = 0;
  for (i = 0; i < n && z[i]; i++) {
    if (z[i] >= '0' && z[i] <= '9') { v = v * 10 + (z[i] - '0'); any = 1; }
  }
  return any ? v / 5 : 0;     /* tenths: the format writes one decimal */
}

/* TRF-2026 record 250 by its columns: game points 10-13, rounds 15-17 to
** 19-21, players 23-26 to 28-31. */
static void read_250(const char *line, size_t len) {
  int v, r1, r2, p1, p2, r, p;
  if (len < 31) return;
  v = half_points(line + 9, 4);
  r1 = parse_int(line + 14, 3); r2 = parse_int(line + 18, 3);
  p1 = parse_int(line + 22, 4); p2 = parse_int(line + 27, 4);
  for (p = p1; p >= 1 && p <= p2 && p <= MAXP; p++) {
    for (r = r1; r >= 1 && r <= r2 && r <= MAXR; r++) trf.aVirtual[p - 1][r - 1] = v;
  }
  trf.bVirtual = 1;
}

/* XXA (the pairing engines' extension): the player (5-8), then the points
** of rounds 1, 2, ... in columns 10-13, 15-18, ... */
static void read_xxa(const char *line, size_t len) {
  int p = parse_int(line + 4, 4), r;
  if (p < 1 || p > MAXP) return;
  for (r = 0; r < MAXR && 9 + 5 * (size_t)r + 4 <= len; r++) {
    trf.aVirtual[p - 1][r] = half_points(line + 9 + 5 * r, 4);
  }
  trf.bVirtual = 1;
}

static int read_trf(const char *zFile) {
  FILE *f = fopen(zFile, "rb");
  char line[4096];
  if (!f) return 1;
  memset(&trf, 0, sizeof trf);
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
    if (strncmp(line, "XXR", 3) == 0) trf.nRounds = atoi(line + 4);
    if (strncmp(line, "250", 3) == 0) read_250(line, len);
    if (strncmp(line, "XXA", 3) == 0) read_xxa(line, len);
    if (strncmp(line, "192", 3) == 0 && len >= 9 && strcmp(line + len - 5, "_BAKU") == 0) {
      trf.bBakuType = 1;
    }
    if (strncmp(line, "001", 3) == 0 && len >= 8) {
      int id = parse_int(line + 4, 4), r;
      if (id < 1 || id > MAXP) continue;
      if (id > trf.nPlayer) trf.nPlayer = id;
      for (r = 0; r < MAXR; r++) {
        size_t at = 91 + 10 * (size_t)r;
        Entry *e = &trf.e[id - 1][r];
        if (at + 8 > len) break;
        e->iOpp = parse_int(line + at, 4);
        e->cColour = line[at + 5];
        e->cResult = line[at + 7];
        e->bSet = e->cResult != ' ';
        if (e->bSet && r + 1 > trf.nCols) trf.nCols = r + 1;
      }
    }
  }
  fclose(f);
  if (trf.nRounds < trf.nCols) trf.nRounds = trf.nCols;
  return 0;
}

static int is_game(const Entry *e) { return e->bSet && e->iOpp > 0; }

static i64 points_of(const Entry *e) {
  switch (e->cResult) {
    case '1': case '+': case 'W': case 'U': case 'F': return 2;
    case '=': case 'D': case 'H': return 1;
    default: return 0;
  }
}

static void history_of(const Entry *e, TbPairHistory *h) {
  memset(h, 0, sizeof *h);
  h->iOpp = -1;
  h->nPoints = points_of(e);
  h->eOutcome = h->nPoints == 2 ? TB_WIN : h->nPoints == 1 ? TB_DRAW : TB_LOSS;
  if (is_game(e)) {
    h->iOpp = e->iOpp - 1;
    if (e->cResult == '+') h->eKind = TB_FORFEIT_WIN;
    else if (e->cResult == '-') h->eKind = TB_FORFEIT_LOSS;
    else {
      h->eKind = TB_PLAYED;
      h->eColour = e->cColour == 'w' ? TB_COLOUR_WHITE : TB_COLOUR_BLACK;
    }
  } else if (e->cResult == 'U') {
    h->eKind = TB_PAB;
  } else if (e->cResult == 'H' || e->cResult == 'F') {
    h->eKind = TB_HALF_BYE;
  } else {
    h->eKind = TB_ZERO_BYE;
  }
}

/* The colour of the first pairing number in round 1, as the pairing made it:
** the first player (in pairing-number order) paired in round 1 shows it,
** inverted for an even position among those paired. */
static int first_colour(void) {
  int i, k = 0;
  for (i = 0; i < trf.nPlayer; i++) {
    const Entry *e = &trf.e[i][0];
    if (!(is_game(e) || e->cResult == 'U')) continue;
    if (is_game(e) && (e->cColour == 'w' || e->cColour == 'b')) {
      int c = e->cColour == 'w' ? TB_COLOUR_WHITE : TB_COLOUR_BLACK;
      return (k & 1) ? -c : c;
    }
    k++;
  }
  return TB_COLOUR_WHITE;
}

static sqlite3_int64 nPeak;   /* the most memory one round's pairing held */

/* Rounds accelerated by the Baku rule: the first half, rounded up. */
static int baku_rounds(void) { return (trf.nRounds + 1) / 2; }

/* Whether the file's virtual points are those of the Baku rule, as read
** here: group A the first 2 * ceil(m / 4) of the m players paired in
** round 1 (and later entries above the last of them), one point in the
** first ceil(A / 2) of the A accelerated rounds, half a point in the rest. */
static int records_are_baku(void) {
  int i, r, m = 0, nLeft, iLast = -1, nAcc = baku_rounds();
  for (i = 0; i < trf.nPlayer; i++) m += is_game(&trf.e[i][0]) || trf.e[i][0].cResult == 'U';
  nLeft = 2 * ((m + 3) / 4);
  for (i = 0; i < trf.nPlayer && nLeft > 0; i++) {
    if ((is_game(&trf.e[i][0]) || trf.e[i][0].cResult == 'U') && --nLeft == 0) iLast = i;
  }
  for (i = 0; i < trf.nPlayer; i++) {
    for (r = 0; r < trf.nCols; r++) {
      i64 v = i > iLast || r >= nAcc ? 0 : r < (nAcc + 1) / 2 ? 2 : 1;
      if (trf.aVirtual[i][r] != v) return 0;
    }
  }
  return 1;
}

/* Pairs round k (1-based); returns 1 if identical to the file.  bRule: the
** virtual points from the Baku rule (nAccelerated), not from the records. */
static int check_round(int k, int bRule, int bVerbose, const char *zFile,
                       double *pSec) {
  static TbPairPlayer aP[MAXP];
  static TbPairHistory aH[MAXP][MAXR];
  TbPairState s;
  TbPairRound r;
  char *zErr = 0;
  int i, rc, ok = 1, nExpected = 0;
  clock_t t0;
  sqlite3_int64 nBase;
  memset(&s, 0, sizeof s);
  memset(&r, 0, sizeof r);
  for (i = 0; i < trf.nPlayer; i++) {
    int j;
    i64 t = 0;
    const Entry *e = &trf.e[i][k - 1];
    memset(&aP[i], 0, sizeof aP[i]);
    aP[i].iPlayer = i;
    aP[i].aHist = aH[i];
    aP[i].aVirtual = trf.bVirtual && !bRule ? trf.aVirtual[i] : 0;
    for (j = 0; j < k - 1; j++) { history_of(&trf.e[i][j], &aH[i][j]); t += aH[i][j].nPoints; }
    aP[i].nScore = t;
    aP[i].bAbsent = !(is_game(e) || e->cResult == 'U');
    if (!aP[i].bAbsent) nExpected++;
  }
  s.nPlayer = trf.nPlayer;
  s.aPlayer = aP;
  s.iRound = k;
  s.nRounds = trf.nRounds;
  s.eFirstColour = first_colour();
  s.nPointScale = 2;
  s.nAccelerated = bRule || (trf.bBakuType && !trf.bVirtual) ? baku_rounds() : 0;
  s.nWin = 2; s.nDraw = 1; s.nLoss = 0; s.nPab = 2;
  nBase = sqlite3_memory_used();
  sqlite3_memory_highwater(1);
  t0 = clock();
  rc = tb_pair_dutch(&s, &r, &zErr);
  *pSec += (double)(clock() - t0) / CLOCKS_PER_SEC;
  if (bVerbose > 1) printf("%s round %d: %.3f s\n", zFile, k, (double)(clock() - t0) / CLOCKS_PER_SEC);
  if (sqlite3_memory_highwater(0) - nBase > nPeak) nPeak = sqlite3_memory_highwater(0) - nBase;
  if (rc != SQLITE_OK) {
    if (bVerbose) printf("%s round %d: error %d %s\n", zFile, k, rc, zErr ? zErr : "");
    sqlite3_free(zErr);
    sqlite3_free(r.aTable);
    return -rc;
  }
  {
    int nSeen = 0;
    for (i = 0; i < r.nTable; i++) {
      const TbPairTable *t = &r.aTable[i];
      const Entry *e = &trf.e[t->iA][k - 1];
      if (t->iB < 0) {
        nSeen += 1;
        if (e->cResult != 'U') ok = 0;
      } else {
        nSeen += 2;
        if (!is_game(e) || e->iOpp - 1 != t->iB || e->cColour != 'w') ok = 0;
      }
      if (bVerbose && !ok) {
        printf("  %s round %d: table %d: %d - %d, file: %d %c %c\n", zFile, k, i + 1,
               t->iA + 1, t->iB + 1, e->iOpp, e->cColour, e->cResult);
        bVerbose = 0;
      }
    }
    if (nSeen != nExpected) ok = 0;
  }
  sqlite3_free(r.aTable);
  return ok;
}

/* ------------------------------------------------------ cases by hand */

/* Pairs n players with no history before round iRound (all present, every
** earlier round a mutual game between 0-1, 2-3 ... when iRound is 2) and
** compares the tables with aWant (iA, iB pairs), or the error text. */
static int hand_case(const char *zName, int n, int iRound, const int *aForbid, int nForbid,
                     const int *aWant, int nWant, const char *zWantErr) {
  TbPairPlayer aP[8];
  TbPairHistory aH[8][2];
  TbPairState s;
  TbPairRound r;
  char *zErr = 0;
  int i, rc, ok = 1;
  memset(&s, 0, sizeof s);
  memset(&r, 0, sizeof r);
  memset(aP, 0, sizeof aP);
  memset(aH, 0, sizeof aH);
  for (i = 0; i < n; i++) {
    aP[i].iPlayer = i;
    aP[i].aHist = aH[i];
    if (iRound == 2) {
      aH[i][0].iOpp = i ^ 1;
      aH[i][0].eKind = TB_PLAYED;
      aH[i][0].eColour = (i & 1) ? TB_COLOUR_BLACK : TB_COLOUR_WHITE;
      aH[i][0].eOutcome = TB_DRAW;
      aH[i][0].nPoints = 1;
      aP[i].nScore = 1;
    }
  }
  s.nPlayer = n; s.aPlayer = aP; s.iRound = iRound; s.nRounds = 5;
  s.eFirstColour = TB_COLOUR_WHITE;
  s.nPointScale = 2; s.nWin = 2; s.nDraw = 1; s.nLoss = 0; s.nPab = 2;
  s.nForbidden = nForbid; s.aForbidden = aForbid;
  rc = tb_pair_dutch(&s, &r, &zErr);
  if (zWantErr) {
    ok = rc == SQLITE_ERROR && zErr && strcmp(zErr, zWantErr) == 0;
  } else if (rc != SQLITE_OK || r.nTable != nWant) {
    ok = 0;
  } else {
    for (i = 0; i < nWant; i++) {
      if (r.aTable[i].iA != aWant[2 * i] || r.aTable[i].iB != aWant[2 * i + 1]) ok = 0;
    }
  }
  if (!ok) {
    printf("case %s: rc %d %s;", zName, rc, zErr ? zErr : "");
    for (i = 0; i < r.nTable; i++) printf(" %d-%d", r.aTable[i].iA, r.aTable[i].iB);
    printf("\n");
  }
  sqlite3_free(zErr);
  sqlite3_free(r.aTable);
  return ok;
}

/* Round 1 by C.04.3: S1 meets S2 in order, the odd numbers of S1 get the
** initial colour; the lowest player takes the bye; a forbidden pair moves
** to the next transposition; two who met cannot meet again. */
static int hand_cases(void) {
  static const int w4[] = {0, 2, 3, 1};
  static const int w5[] = {0, 2, 3, 1, 4, -1};
  static const int f13[] = {0, 2};
  static const int w4f[] = {0, 3, 2, 1};
  int ok = 1;
  ok &= hand_case("4 players", 4, 1, 0, 0, w4, 2, 0);
  ok &= hand_case("5 players, bye", 5, 1, 0, 0, w5, 3, 0);
  ok &= hand_case("forbidden 1-3", 4, 1, f13, 1, w4f, 2, 0);
  ok &= hand_case("no pairing", 2, 2, 0, 0, 0, 0,
                  "dutch: no pairing of round 2 meets the absolute criteria (C1-C3)");
  printf("hand cases: %s\n", ok ? "all as computed by hand" : "FAILED");
  return ok ? 0 : 1;
}

/* ------------------------------------------------- failing allocations */

static sqlite3_mem_methods defaultMem;
static long long nAlloc, iFailAt;
static int bPersistent;

static int should_fail(void) {
  nAlloc++;
  if (iFailAt <= 0) return 0;
  return bPersistent ? nAlloc >= iFailAt : nAlloc == iFailAt;
}
static void *oom_malloc(int n) { return should_fail() ? 0 : defaultMem.xMalloc(n); }
static void *oom_realloc(void *p, int n) { return should_fail() ? 0 : defaultMem.xRealloc(p, n); }

/* Pairs round k of the file loaded, with the Nth allocation failing. */
static int oom_sweep(const char *zFile, int k) {
  sqlite3_mem_methods m;
  long long i;
  int nPoints = 0, mode;
  double sec = 0;
  if (check_round(k, 0, 1, zFile, &sec) != 1) { printf("round %d not identical\n", k); return 1; }
  for (mode = 0; mode < 2; mode++) {
    bPersistent = mode == 0;
    for (i = 1;; i++) {
      sqlite3_int64 nUsed = sqlite3_memory_used();
      int ok;
      nAlloc = 0; iFailAt = i;
      ok = check_round(k, 0, 0, zFile, &sec);
      iFailAt = 0;
      if (sqlite3_memory_used() != nUsed) {
        printf("%s failure %lld: %lld bytes left allocated\n", bPersistent ? "persistent" : "single",
               i, (long long)(sqlite3_memory_used() - nUsed));
        return 1;
      }
      if (nAlloc < i) { if (ok != 1) { printf("no failure yet not identical\n"); return 1; } break; }
      if (ok == 1) continue;   /* a failure the round did not need (the error text) */
      if (ok != -SQLITE_NOMEM) { printf("failure %lld: %d, not SQLITE_NOMEM\n", i, ok); return 1; }
      nPoints++;
    }
  }
  (void)m;
  printf("oom: %d failure points, each SQLITE_NOMEM with nothing left allocated\n", nPoints);
  return 0;
}

int main(int argc, char **argv) {
  int i, bVerbose = 0, nRounds = 0, nSame = 0, nFiles = 0, nFilesSame = 0;
  int nRuleFiles = 0, nRuleRounds = 0, nRuleSame = 0;
  double sec = 0;
  if (argc == 2 && strcmp(argv[1], "--cases") == 0) return hand_cases();
  if (argc == 4 && strcmp(argv[1], "--oom") == 0) {
    sqlite3_mem_methods m;
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &defaultMem) != SQLITE_OK) return 2;
    m = defaultMem;
    m.xMalloc = oom_malloc;
    m.xRealloc = oom_realloc;
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK
        || sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 1) != SQLITE_OK) return 2;
    if (read_trf(argv[2])) return 2;
    return oom_sweep(argv[2], atoi(argv[3]));
  }
  for (i = 1; i < argc; i++) {
    int k, same = 0;
    if (strcmp(argv[i], "-v") == 0) { bVerbose = 1; continue; }
    if (strcmp(argv[i], "-vv") == 0) { bVerbose = 2; continue; }
    if (read_trf(argv[i])) { printf("%s: cannot read\n", argv[i]); return 2; }
    for (k = 1; k <= trf.nCols; k++) {
      int ok = check_round(k, 0, bVerbose, argv[i], &sec);
      same += ok == 1;
    }
    nFiles++;
    nRounds += trf.nCols;
    nSame += same;
    if (same == trf.nCols) nFilesSame++;
    printf("%s: %d / %d rounds identical\n", argv[i], same, trf.nCols);
    if (trf.bVirtual && records_are_baku()) {
      int sameRule = 0;
      for (k = 1; k <= trf.nCols; k++) {
        sameRule += check_round(k, 1, bVerbose, argv[i], &sec) == 1;
      }
      nRuleFiles++;
      nRuleRounds += trf.nCols;
      nRuleSame += sameRule;
      printf("%s: %d / %d rounds identical from the Baku rule alone\n", argv[i],
             sameRule, trf.nCols);
    }
    fflush(stdout);
  }
  printf("total: %d / %d rounds identical, %d / %d tournaments; %.2f s pairing;"
         " peak %lld KiB\n", nSame, nRounds, nFilesSame, nFiles, sec, (long long)(nPeak >> 10));
  if (nRuleFiles) {
    printf("Baku rule alone: %d / %d rounds identical in %d tournaments\n", nRuleSame,
           nRuleRounds, nRuleFiles);
  }
  return nSame == nRounds && nRuleSame == nRuleRounds ? 0 : 1;
}
