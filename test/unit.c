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
  tb_acc_init(&x, 1);
  for (i = 1; i <= n; i++) tb_acc_add(&x, 1, 2 * i - 1);
  for (i = 1; i <= n; i++) tb_acc_add(&x, -1, 2 * i + 1);
  tb_acc_take(&x, &qx);
  CHECK(!x.bNoMem && qx.pBig != 0);
  q.pBig = 0;
  q.q.num = 2 * n;
  q.q.den = 2 * n + 1;
  CHECK(tb_q_cmp(&qx, &q, &rc) == 0 && tb_q_cmp(&q, &qx, &rc) == 0);
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

int main(void) {
  test_frac();
  test_acc();
  test_long_sums();
  test_static_registration();
  test_every_event_memory();
  printf("%d passed, %d failed\n", nPass, nFail);
  return nFail != 0;
}
