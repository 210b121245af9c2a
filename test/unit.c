/*
** unit.c: C tests of the exact arithmetic, and of the static library
** registered with sqlite3_auto_extension().
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiebreak.h"
#include "tiebreak_int.h"
#include "pair/pairing.h"

static int nPass, nFail;

#define CHECK(cond)                                                    \
  do {                                                                 \
    if (cond) {                                                        \
      nPass++;                                                         \
    } else {                                                           \
      nFail++;                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
              #cond);                                                  \
    }                                                                  \
  } while (0)

static int frac_is(TbFrac f, long long num, long long den) {
  return f.num == num && f.den == den;
}

static void test_frac(void) {
  TbFrac a, b;
  CHECK(frac_is(tb_frac(6, 8), 3, 4));
  CHECK(frac_is(tb_frac(-6, 8), -3, 4));
  CHECK(frac_is(tb_frac(3, -9), -1, 3));
  a = tb_frac(1, 3);
  b = tb_frac(33, 100);
  CHECK(tb_frac_cmp(&a, &b) > 0);
  CHECK(tb_frac_cmp(&b, &a) < 0);
  CHECK(tb_frac_cmp(&a, &a) == 0);
  a = tb_frac(-1, 2);
  b = tb_frac(-1, 3);
  CHECK(tb_frac_cmp(&a, &b) < 0);
  /* Neighbours that only differ far below double precision. */
  a.num = (i128)1 << 100;
  a.den = a.num + 1;
  b.num = a.num + 1;
  b.den = a.num + 2;
  CHECK(tb_frac_cmp(&a, &b) < 0);
  CHECK(tb_frac_cmp(&b, &a) > 0);
  CHECK(tb_frac_parse("1/3", &a) == 0 && frac_is(a, 1, 3));
  CHECK(tb_frac_parse("0.33", &a) == 0 && frac_is(a, 33, 100));
  CHECK(tb_frac_parse("33/100", &a) == 0 && frac_is(a, 33, 100));
  CHECK(tb_frac_parse(".5", &a) == 0 && frac_is(a, 1, 2));
  CHECK(tb_frac_parse("1", &a) == 0 && frac_is(a, 1, 1));
  CHECK(tb_frac_parse("", &a) != 0);
  CHECK(tb_frac_parse("1/0", &a) != 0);
  CHECK(tb_frac_parse("-1", &a) != 0);
  CHECK(tb_frac_parse("0.3x", &a) != 0);
  CHECK(tb_frac_parse("1/3/4", &a) != 0);
}

/* 1/3 + 1/3 + 1/3 equals 1/2 + 1/2 exactly, as doubles need not. */
static void test_acc(void) {
  TbAcc x, y, z;
  TbFrac floor = {33, 100};
  tb_acc_init(&x, 1);
  tb_acc_add(&x, 1, 10);
  tb_acc_add(&x, 2, 10);
  tb_acc_add(&x, 7, 10);
  tb_acc_init(&y, 1);
  tb_acc_add(&y, 1, 2);
  tb_acc_add(&y, 1, 2);
  CHECK(tb_frac_cmp(&x.q, &y.q) == 0);
  tb_acc_mean(&x, 3);
  CHECK(frac_is(x.q, 1, 3));
  /* floored: 1/4 -> 33/100, 2/3 stays */
  tb_acc_init(&z, 1);
  tb_acc_add_floored(&z, 1, 4, &floor);
  tb_acc_add_floored(&z, 2, 3, &floor);
  tb_acc_mean(&z, 2);
  CHECK(frac_is(z.q, 299, 600));
  tb_acc_init(&z, 0);
  tb_acc_add_floored(&z, 1, 4, &floor);
  CHECK(z.r == 0.33);
  tb_acc_init(&z, 1);
  tb_acc_mean(&z, 0);
  CHECK(z.bNull);
}

/* 1/1 + 1/3 + ... + 1/(2n - 1), less 1/3 + 1/5 + ... + 1/(2n + 1) (those
** forwards or backwards), into an exact accumulator: 1 - 1/(2n + 1). */
static void add_telescoping(TbAcc *x, long long n, int bBackwards) {
  long long i;
  tb_acc_init(x, 1);
  for (i = 1; i <= n; i++) tb_acc_add(x, 1, 2 * i - 1);
  for (i = 1; i <= n; i++) tb_acc_add(x, -1, bBackwards ? 2 * (n + 1 - i) + 1 : 2 * i + 1);
}

/* Does q hold 2n/(2n + 1), what add_telescoping() sums to? */
static int is_telescoped(const TbQ *q, long long n, int *pRc) {
  TbQ want;
  want.pBig = 0;
  want.q.num = 2 * n;
  want.q.den = 2 * n + 1;
  return tb_q_cmp(q, &want, pRc) == 0 && tb_q_cmp(&want, q, pRc) == 0;
}

/*
** Long sums of fractions of distinct denominators, past 128 bits and past
** the size where products split (Karatsuba) and terms wait in a balanced
** sum: 1/1 + 1/3 + ... + 1/(2n - 1), then less 1/3 + 1/5 + ... + 1/(2n + 1),
** is 1 - 1/(2n + 1).
*/
static void test_long_sums(void) {
  const long long n = 20000;
  TbAcc x, y;
  TbQ qx, qy, q;
  long long i;
  int rc = SQLITE_OK;
  add_telescoping(&x, n, 0);
  tb_acc_take(&x, &qx);
  CHECK(!x.bNoMem && qx.pBig != 0);
  CHECK(is_telescoped(&qx, n, &rc));
  q.pBig = 0;
  CHECK(tb_q_double(&qx, &rc) == (double)(2 * n) / (double)(2 * n + 1));
  /* a neighbour 2^-100 away either side */
  q.q.num = ((i128)(2 * n) << 100) + 1;
  q.q.den = (i128)(2 * n + 1) << 100;
  CHECK(tb_q_cmp(&qx, &q, &rc) < 0);
  q.q.num -= 2;
  CHECK(tb_q_cmp(&qx, &q, &rc) > 0);
  tb_q_free(&qx);
  /* the same sum of i/(2i + 1) forwards and backwards: other partial sums,
  ** other (unreduced) denominators, the same value */
  tb_acc_init(&x, 1);
  tb_acc_init(&y, 1);
  for (i = 1; i <= n; i++) {
    tb_acc_add(&x, i, 2 * i + 1);
    tb_acc_add(&y, n + 1 - i, 2 * (n + 1 - i) + 1);
  }
  tb_acc_mean(&x, n);
  tb_acc_mean(&y, n);
  tb_acc_add(&y, 1, 1000000007);
  tb_acc_take(&x, &qx);
  tb_acc_take(&y, &qy);
  CHECK(!x.bNoMem && !y.bNoMem);
  CHECK(tb_q_cmp(&qx, &qy, &rc) < 0 && tb_q_cmp(&qy, &qx, &rc) > 0);
  tb_q_free(&qy);
  tb_acc_init(&y, 1);
  for (i = n; i >= 1; i--) tb_acc_add(&y, i, 2 * i + 1);
  tb_acc_mean(&y, n);
  tb_acc_take(&y, &qy);
  CHECK(tb_q_cmp(&qx, &qy, &rc) == 0);
  CHECK(tb_q_double(&qx, &rc) == tb_q_double(&qy, &rc));
  CHECK(rc == SQLITE_OK);
  tb_q_free(&qx);
  tb_q_free(&qy);
}

/*
** Sums long enough that their top merges multiply by transforms (NTT_MIN
** limbs a side): 60,000 terms of distinct denominators, whose telescoping
** difference is known, and one term moved by 1/(2n + 1)^2, which the sums'
** doubles cannot see.
*/
static void test_transform_sums(void) {
  const long long n = 60000;
  TbAcc x, y;
  TbQ qx, qy;
  long long i;
  int rc = SQLITE_OK;
  add_telescoping(&x, n, 1);
  tb_acc_take(&x, &qx);
  CHECK(!x.bNoMem && is_telescoped(&qx, n, &rc));
  tb_q_free(&qx);
  /* sum of i/(2i + 1), against the same with n/(2n + 1) replaced by
  ** (n + 1)/(2n + 3): larger by 1/((2n + 1)(2n + 3)) */
  tb_acc_init(&x, 1);
  tb_acc_init(&y, 1);
  for (i = 1; i <= n; i++) {
    tb_acc_add(&x, i, 2 * i + 1);
    if (i < n) tb_acc_add(&y, i, 2 * i + 1);
  }
  tb_acc_add(&y, n + 1, 2 * n + 3);
  tb_acc_add(&x, 1, (2 * n + 1) * (2 * n + 3));
  tb_acc_take(&x, &qx);
  tb_acc_take(&y, &qy);
  CHECK(!x.bNoMem && !y.bNoMem && qx.pBig != 0 && qy.pBig != 0);
  CHECK(tb_q_cmp(&qx, &qy, &rc) == 0);
  tb_q_free(&qx);
  tb_acc_init(&x, 1);
  for (i = 1; i <= n; i++) tb_acc_add(&x, i, 2 * i + 1);
  tb_acc_take(&x, &qx);
  CHECK(tb_q_cmp(&qx, &qy, &rc) < 0 && tb_q_cmp(&qy, &qx, &rc) > 0);
  CHECK(rc == SQLITE_OK);
  tb_q_free(&qx);
  tb_q_free(&qy);
}

/* SQLite's allocator, and one that fails the nBigLeft-th allocation of
** 64 KB or more from now (-1: none): the buffers of long products. */
static sqlite3_mem_methods defaultMem;
static int nBigLeft = -1;

static int big_alloc_fails(int n) {
  return n >= 65536 && nBigLeft >= 0 && nBigLeft-- == 0;
}

static void *failing_malloc(int n) {
  return big_alloc_fails(n) ? 0 : defaultMem.xMalloc(n);
}

static void *failing_realloc(void *p, int n) {
  return big_alloc_fails(n) ? 0 : defaultMem.xRealloc(p, n);
}

/*
** Out of memory in the transforms: a sum of 20,000 terms, whose largest
** merges multiply by transforms, with each of its large allocations failing
** in turn, reports no memory (and frees what it held: the sanitizers' and
** valgrind's runs see the leaks); once none fails, its value is right.
*/
static void test_transform_sums_nomem(void) {
  const long long n = 20000;
  sqlite3_mem_methods failing;
  int iFail, bDone = 0, nFailed = 0;
  sqlite3_shutdown();
  CHECK(sqlite3_config(SQLITE_CONFIG_GETMALLOC, &defaultMem) == SQLITE_OK);
  failing = defaultMem;
  failing.xMalloc = failing_malloc;
  failing.xRealloc = failing_realloc;
  CHECK(sqlite3_config(SQLITE_CONFIG_MALLOC, &failing) == SQLITE_OK);
  for (iFail = 0; !bDone && iFail < 1000; iFail++) {
    TbAcc x;
    TbQ qx;
    int rc = SQLITE_OK;
    nBigLeft = iFail;
    add_telescoping(&x, n, 1);
    tb_acc_settle(&x);
    if (x.bNoMem) {
      tb_acc_clear(&x);
      nFailed++;
      continue;
    }
    bDone = nBigLeft >= 0; /* no large allocation left to fail */
    nBigLeft = -1;
    tb_acc_take(&x, &qx);
    CHECK(is_telescoped(&qx, n, &rc) && rc == SQLITE_OK);
    tb_q_free(&qx);
  }
  nBigLeft = -1;
  CHECK(bDone && nFailed > 10);
  sqlite3_shutdown();
  CHECK(sqlite3_config(SQLITE_CONFIG_MALLOC, &defaultMem) == SQLITE_OK);
}

static int exec_int(sqlite3 *db, const char *zSql, long long *pOut) {
  sqlite3_stmt *pStmt;
  int rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  if (rc == SQLITE_OK && sqlite3_step(pStmt) == SQLITE_ROW) {
    *pOut = sqlite3_column_int64(pStmt, 0);
  } else {
    rc = SQLITE_ERROR;
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/* The static library registered for every new connection. */
static void test_static_registration(void) {
  sqlite3 *db;
  long long n = 0;
  CHECK(sqlite3_auto_extension((void (*)(void))sqlite3_tiebreak_init) ==
        SQLITE_OK);
  CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
  CHECK(sqlite3_exec(db,
                     "CREATE TABLE matches(event_id, round, player_a, player_b,"
                     " a_wins, b_wins, draws);"
                     "INSERT INTO matches VALUES(1,1,'A','B',2,0,0),"
                     "(1,1,'C',NULL,2,0,0),(1,2,'A','C',2,1,0),(1,2,'B',NULL,0,0,0);",
                     0, 0, 0) == SQLITE_OK);
  CHECK(exec_int(db, "SELECT match_points FROM standings(1,'mtg') WHERE rank=1",
                 &n) == SQLITE_OK && n == 6);
  CHECK(exec_int(db, "SELECT count(*) FROM standings(1,'mtg')", &n) ==
            SQLITE_OK && n == 3);
  sqlite3_close(db);
  sqlite3_reset_auto_extension();
}

/*
** standings() of every event holds the rows and one event at a time: 10^5
** events of one row with text ids (once 17 KB each, 1.7 GB in all) take
** about 150 bytes each.  Loose bound: 400 bytes an event.
*/
static void test_every_event_memory(void) {
  sqlite3 *db;
  long long n = 0;
  sqlite3_int64 nBase, nPeak;
  const int nEvent = 100000;
  CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
  CHECK(sqlite3_tiebreak_init(db, 0, 0) == SQLITE_OK);
  CHECK(sqlite3_exec(db,
                     "CREATE TABLE matches(event_id, round, player_a, player_b,"
                     " a_wins, b_wins, draws);"
                     "WITH RECURSIVE e(i) AS (SELECT 1 UNION ALL SELECT i + 1"
                     " FROM e WHERE i < 100000)"
                     " INSERT INTO matches SELECT printf('event-%07d', i), 1,"
                     " printf('p%07d', i), printf('q%07d', i), 2, 0, 0 FROM e;",
                     0, 0, 0) == SQLITE_OK);
  nBase = sqlite3_memory_used();
  sqlite3_memory_highwater(1);
  CHECK(exec_int(db, "SELECT count(*) FROM standings WHERE policy = 'mtg'",
                 &n) == SQLITE_OK && n == 2 * nEvent);
  nPeak = sqlite3_memory_highwater(0) - nBase;
  CHECK(nBase > 0 && nPeak > 0); /* SQLite counts its memory */
  if (getenv("TB_SHOW") || nPeak >= 400 * (sqlite3_int64)nEvent) {
    printf("every event: %lld bytes at the peak\n", (long long)nPeak);
  }
  CHECK(nPeak < 400 * (sqlite3_int64)nEvent);
  sqlite3_close(db);
}

/* ---------------------------------------------------------- pairing */

/* A state of n players, pairing numbers = places, before iRound; the
** history (iRound - 1 rounds a player) in aHist, zeroed. */
static void pair_state(TbPairState *s, TbPairPlayer *aPlayer,
                       TbPairHistory *aHist, int n, int iRound) {
  int i;
  memset(s, 0, sizeof(*s));
  memset(aPlayer, 0, sizeof(TbPairPlayer) * (size_t)n);
  for (i = 0; i < n; i++) {
    aPlayer[i].iPlayer = i;
    aPlayer[i].iStanding = i + 1;
    aPlayer[i].aHist = aHist ? &aHist[i * (iRound - 1)] : 0;
  }
  s->nPlayer = n;
  s->aPlayer = aPlayer;
  s->iRound = iRound;
  s->eFirstColour = TB_COLOUR_WHITE;
}

/* The round's tables as "a-b a-b ..." (0-based, -1: a bye). */
static int round_is(const TbPairRound *r, const char *zWant) {
  char z[256];
  int i, n = 0;
  z[0] = 0;
  for (i = 0; i < r->nTable && n < 200; i++) {
    n += snprintf(z + n, sizeof(z) - (size_t)n, "%s%d-%d", i ? " " : "",
                  r->aTable[i].iA, r->aTable[i].iB);
  }
  if (strcmp(z, zWant) != 0) fprintf(stderr, "round: %s, want %s\n", z, zWant);
  return strcmp(z, zWant) == 0;
}

/* Berger on states built by hand: the published table of 6 (round 2:
** 6-4 5-3 1-2), 5 players (the table of 6, 6 a dummy), the second cycle. */
static void test_berger_states(void) {
  TbPairPlayer aPlayer[6];
  TbPairState s;
  TbPairRound r;
  char *zErr = 0;
  memset(&r, 0, sizeof(r));
  pair_state(&s, aPlayer, 0, 6, 2);
  CHECK(tb_pair_berger(&s, &r, &zErr) == SQLITE_OK && round_is(&r, "5-3 4-2 0-1"));
  tb_pair_round_free(&r);
  pair_state(&s, aPlayer, 0, 5, 1);
  CHECK(tb_pair_berger(&s, &r, &zErr) == SQLITE_OK && round_is(&r, "1-4 2-3 0--1"));
  tb_pair_round_free(&r);
  pair_state(&s, aPlayer, 0, 6, 7);
  s.nRounds = 10;
  CHECK(tb_pair_berger(&s, &r, &zErr) == SQLITE_OK && round_is(&r, "3-5 2-4 1-0"));
  tb_pair_round_free(&r);
  s.nRounds = 0;
  CHECK(tb_pair_berger(&s, &r, &zErr) == SQLITE_ERROR && zErr &&
        strstr(zErr, "round 7 is past the last round (5)") != 0);
  sqlite3_free(zErr);
  tb_pair_round_free(&r);
}

/* Bracket: 8 seeds 1-8 4-5 2-7 3-6, then the better seeds' winners. */
static void test_bracket_states(void) {
  static const int aFirst[4][2] = {{0, 7}, {3, 4}, {1, 6}, {2, 5}};
  TbPairPlayer aPlayer[8];
  TbPairHistory aHist[8];
  TbPairState s;
  TbPairRound r;
  char *zErr = 0;
  int k;
  memset(&r, 0, sizeof(r));
  pair_state(&s, aPlayer, 0, 8, 1);
  s.iFirstPlayoff = 1;
  s.nTop = 8;
  CHECK(tb_pair_bracket(&s, &r, &zErr) == SQLITE_OK &&
        round_is(&r, "0-7 3-4 1-6 2-5"));
  tb_pair_round_free(&r);
  pair_state(&s, aPlayer, aHist, 8, 2);
  s.iFirstPlayoff = 1;
  memset(aHist, 0, sizeof(aHist));
  for (k = 0; k < 4; k++) {
    int a = aFirst[k][0], b = aFirst[k][1];
    aHist[a].iOpp = b;
    aHist[b].iOpp = a;
    aHist[a].eOutcome = TB_WIN;      /* the better seed won ... */
    aHist[b].eOutcome = TB_LOSS;
  }
  aHist[4].eOutcome = TB_WIN;        /* ... but 5 beat 4 */
  aHist[3].eOutcome = TB_LOSS;
  CHECK(tb_pair_bracket(&s, &r, &zErr) == SQLITE_OK && round_is(&r, "0-4 1-2"));
  tb_pair_round_free(&r);
  s.nTop = 6;
  CHECK(tb_pair_bracket(&s, &r, &zErr) == SQLITE_ERROR && zErr &&
        strstr(zErr, "top=6, but 8 players played") != 0);
  sqlite3_free(zErr);
  tb_pair_round_free(&r);
}

int main(void) {
  test_frac();
  test_acc();
  test_long_sums();
  test_transform_sums();
  test_transform_sums_nomem();
  test_static_registration();
  test_every_event_memory();
  test_berger_states();
  test_bracket_states();
  printf("%d passed, %d failed\n", nPass, nFail);
  return nFail != 0;
}
