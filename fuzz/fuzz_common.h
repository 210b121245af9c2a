/*
** fuzz_common.h: what both fuzz targets share: a connection with the
** extension registered directly (static build, SQLITE_CORE), and the
** invariants every successful standings() result must satisfy.
*/
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiebreak.h"

#define FUZZ_CHECK(cond, ...)                                        \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: invariant failed: %s\n  ", __FILE__,   \
              __LINE__, #cond);                                      \
      fprintf(stderr, __VA_ARGS__);                                  \
      fprintf(stderr, "\n");                                         \
      abort();                                                       \
    }                                                                \
  } while (0)

/* FUZZ_VERBOSE=1 in the environment: print each statement's outcome, to see
** what an input (e.g. a corpus file) exercises. */
static int fuzz_verbose(void) {
  static int bVerbose = -1;
  if (bVerbose < 0) bVerbose = getenv("FUZZ_VERBOSE") != 0;
  return bVerbose;
}

static void fuzz_report(sqlite3_stmt *pStmt, int nRow, int rc) {
  if (!fuzz_verbose()) return;
  {
    char *zSql = sqlite3_expanded_sql(pStmt);
    fprintf(stderr, "%s\n  -> %d rows%s%s\n", zSql ? zSql : sqlite3_sql(pStmt),
            nRow, rc == SQLITE_DONE ? "" : ", error: ",
            rc == SQLITE_DONE ? "" : sqlite3_errmsg(sqlite3_db_handle(pStmt)));
    sqlite3_free(zSql);
  }
}

static sqlite3 *fuzz_open(void) {
  sqlite3 *db = 0;
  char *zErr = 0;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
      sqlite3_tiebreak_init(db, &zErr, 0) != SQLITE_OK) {
    fprintf(stderr, "cannot set up: %s\n", zErr ? zErr : sqlite3_errmsg(db));
    abort();
  }
  /* Runaway statements would only slow the fuzzer down. */
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1000000);
  return db;
}

static void fuzz_exec(sqlite3 *db, const char *zSql) {
  char *zErr = 0;
  if (sqlite3_exec(db, zSql, 0, 0, &zErr) != SQLITE_OK) {
    fprintf(stderr, "setup failed: %s\n%s\n", zErr, zSql);
    abort();
  }
}

static sqlite3_stmt *fuzz_prepare(sqlite3 *db, const char *zSql) {
  sqlite3_stmt *pStmt = 0;
  if (sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0) != SQLITE_OK) {
    fprintf(stderr, "prepare failed: %s\n%s\n", sqlite3_errmsg(db), zSql);
    abort();
  }
  return pStmt;
}

/* Columns of standings() the checks read, found by name (others may exist). */
enum {
  C_RANK, C_PLAYER, C_MATCH_POINTS, C_WINS, C_LOSSES, C_DRAWS, C_BYES,
  C_ROUNDS, C_GAME_WINS, C_GAME_LOSSES, C_GAME_DRAWS, C_GAME_POINTS, C_GAMES,
  C_MWP, C_GWP, C_OMWP, C_OGWP, C_DROPPED, C_DECIDED_BY, N_COL
};
static const char *const azStandingsCol[N_COL] = {
  "rank", "player", "match_points", "wins", "losses", "draws", "byes",
  "rounds", "game_wins", "game_losses", "game_draws", "game_points", "games",
  "mwp", "gwp", "omwp", "ogwp", "dropped", "decided_by"};

/* What a caller knows about the policy, and so can check. */
typedef struct CheckOpts {
  int bMtg;          /* 'mtg' with options: points 3/1/0, known keys */
  long long gdp;     /* points of a drawn game, < 0 unknown */
  int bRoundless;    /* players with no round counted may be listed (a
                     ** playoff-only player of a file with a Top 8) */
} CheckOpts;

/* One standings() statement being checked. */
typedef struct Checker {
  sqlite3_stmt *pStmt;
  const CheckOpts *pOpts;
  int aCol[N_COL];   /* result column of each C_* */
} Checker;

static void checker_init(Checker *p, sqlite3_stmt *pStmt,
                         const CheckOpts *pOpts) {
  int i, j, n = sqlite3_column_count(pStmt);
  p->pStmt = pStmt;
  p->pOpts = pOpts;
  for (i = 0; i < N_COL; i++) {
    for (j = 0; j < n && strcmp(sqlite3_column_name(pStmt, j), azStandingsCol[i]); j++) {
    }
    FUZZ_CHECK(j < n, "no column %s", azStandingsCol[i]);
    p->aCol[i] = j;
  }
}

static int col_type(const Checker *p, int c) {
  return sqlite3_column_type(p->pStmt, p->aCol[c]);
}

static long long col_int(const Checker *p, int c) {
  FUZZ_CHECK(col_type(p, c) == SQLITE_INTEGER, "%s has type %d",
             azStandingsCol[c], col_type(p, c));
  return sqlite3_column_int64(p->pStmt, p->aCol[c]);
}

/* Points: an INTEGER, or under other policies' scales (half points) a
** finite REAL. */
static double col_points(const Checker *p, int c) {
  int eType = col_type(p, c);
  double r = sqlite3_column_double(p->pStmt, p->aCol[c]);
  FUZZ_CHECK(eType == SQLITE_INTEGER || (!p->pOpts->bMtg && eType == SQLITE_FLOAT
                                         && isfinite(r)),
             "%s has type %d", azStandingsCol[c], eType);
  return r;
}

/* A percentage: NULL, or a finite REAL in [0, hi]. */
static void check_pct(const Checker *p, int c, double hi) {
  double r;
  if (col_type(p, c) == SQLITE_NULL) return;
  FUZZ_CHECK(col_type(p, c) == SQLITE_FLOAT, "%s has type %d",
             azStandingsCol[c], col_type(p, c));
  r = sqlite3_column_double(p->pStmt, p->aCol[c]);
  FUZZ_CHECK(isfinite(r) && r >= 0.0 && r <= hi, "%s = %.17g",
             azStandingsCol[c], r);
}

/* The ranking keys of 'mtg', in order; NULL ranks as 0. */
static const int aKeyCol[4] = {C_MATCH_POINTS, C_OMWP, C_GWP, C_OGWP};

static void row_keys(const Checker *p, double *a, int *aNull) {
  int k;
  for (k = 0; k < 4; k++) {
    a[k] = sqlite3_column_double(p->pStmt, p->aCol[aKeyCol[k]]);
    aNull[k] = col_type(p, aKeyCol[k]) == SQLITE_NULL;
  }
}

/* Player ids in SQLite's order: integers, then text by bytes. */
static int player_cmp(sqlite3_value *pPrev, const Checker *p) {
  sqlite3_value *pCur = sqlite3_column_value(p->pStmt, p->aCol[C_PLAYER]);
  int eA = sqlite3_value_type(pPrev), eB = sqlite3_value_type(pCur);
  if (eA != eB) return eA == SQLITE_INTEGER ? -1 : 1;
  if (eA == SQLITE_INTEGER) {
    long long a = sqlite3_value_int64(pPrev), b = sqlite3_value_int64(pCur);
    return a < b ? -1 : a > b;
  } else {
    const unsigned char *a = sqlite3_value_text(pPrev);
    const unsigned char *b = sqlite3_value_text(pCur);
    int nA = sqlite3_value_bytes(pPrev), nB = sqlite3_value_bytes(pCur);
    int c = memcmp(a, b, (size_t)(nA < nB ? nA : nB));
    return c ? c : nA - nB;
  }
}

/* Equal as the doubles of equal fractions summed in different orders. */
static int key_close(double x, double y) {
  return fabs(x - y) <= 1e-12 * (fabs(x) > 1.0 ? fabs(x) : 1.0);
}

/* The 'mtg' order: decided_by names the first key that differs from the
** row above, and it is lower there; tied rows are equal on every key. */
static void check_mtg_order(const Checker *p, int iRow, const double *aPrev,
                            const int *bPrevNull) {
  double aKey[4];
  int bNull[4], j, k;
  const char *z = (const char *)sqlite3_column_text(p->pStmt,
                                                    p->aCol[C_DECIDED_BY]);
  row_keys(p, aKey, bNull);
  if (z == 0) {
    for (k = 0; k < 4; k++) {
      FUZZ_CHECK(key_close(aKey[k], aPrev[k]), "row %d tied, but %s %.17g "
                 "differs from %.17g above", iRow, azStandingsCol[aKeyCol[k]],
                 aKey[k], aPrev[k]);
    }
    return;
  }
  for (j = 0; j < 4 && strcmp(z, azStandingsCol[aKeyCol[j]]); j++) {
  }
  FUZZ_CHECK(j < 4, "decided_by %s", z);
  for (k = 0; k < j; k++) {
    FUZZ_CHECK(key_close(aKey[k], aPrev[k]), "row %d decided by %s, but %s "
               "%.17g differs from %.17g above", iRow, z,
               azStandingsCol[aKeyCol[k]], aKey[k], aPrev[k]);
  }
  /* Distinct fractions of these small events are far apart; NULL against 0
  ** is test_differential.py's to judge. */
  FUZZ_CHECK(aKey[j] < aPrev[j] ||
                 (aKey[j] == aPrev[j] && (bNull[j] || bPrevNull[j])),
             "row %d decided by %s: %.17g, %.17g above", iRow, z, aKey[j],
             aPrev[j]);
}

/*
** Step a standings() statement to the end and check every row:
**   ranks 1, 2, 2, 4 ... (competition ranking, in row order); decided_by
**   NULL exactly on the first row and within a tie; tied rows listed by id;
**   rounds = wins + losses + draws > 0, games = game wins + losses + draws;
**   percentages NULL or finite and >= 0; dropped 0 or 1.
** With pOpts->bMtg, also: integer points, match_points = 3 wins + draws,
**   byes <= wins,
**   game_points = 3 game wins + gdp x game draws (when gdp >= 0), the four
**   percentages present (OMW%/OGW% NULL only for a player with only byes)
**   and in [0, 1] (gwp up to gdp / 3), and the order of check_mtg_order().
** Errors must be the extension's own ("standings(): ..."), never out of
** memory.  Returns the number of rows, or -1 after an error.
*/
static int check_standings(sqlite3 *db, sqlite3_stmt *pStmt,
                           const CheckOpts *pOpts) {
  Checker chk, *p = &chk;
  int rc, nRow = 0;
  long long prevRank = 0;
  double aPrev[4];
  int bPrevNull[4];
  sqlite3_value *pPrevPlayer = 0;
  checker_init(p, pStmt, pOpts);
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    long long rank = col_int(p, C_RANK);
    double mp = col_points(p, C_MATCH_POINTS);
    long long w = col_int(p, C_WINS), l = col_int(p, C_LOSSES);
    long long d = col_int(p, C_DRAWS), byes = col_int(p, C_BYES);
    long long rounds = col_int(p, C_ROUNDS);
    long long gw = col_int(p, C_GAME_WINS), gl = col_int(p, C_GAME_LOSSES);
    long long gd = col_int(p, C_GAME_DRAWS);
    double gp = col_points(p, C_GAME_POINTS);
    long long games = col_int(p, C_GAMES), dropped = col_int(p, C_DROPPED);
    int bDecided = col_type(p, C_DECIDED_BY) != SQLITE_NULL;
    int ePlayer = col_type(p, C_PLAYER);
    double gwpMax = pOpts->gdp > 3 ? pOpts->gdp / 3.0 : 1.0;

    if (nRow == 0) {
      FUZZ_CHECK(rank == 1 && !bDecided, "first row rank %lld", rank);
    } else {
      FUZZ_CHECK(rank == prevRank || rank == nRow + 1,
                 "row %d has rank %lld after %lld", nRow + 1, rank, prevRank);
      FUZZ_CHECK(bDecided == (rank != prevRank), "row %d rank %lld decided_by "
                 "%s", nRow + 1, rank, bDecided ? "set" : "NULL");
      if (!bDecided) {
        FUZZ_CHECK(player_cmp(pPrevPlayer, p) < 0, "row %d tied, but its "
                   "player does not follow the one above", nRow + 1);
      }
      if (pOpts->bMtg) check_mtg_order(p, nRow + 1, aPrev, bPrevNull);
    }
    FUZZ_CHECK(ePlayer == SQLITE_INTEGER || ePlayer == SQLITE_TEXT,
               "player type %d", ePlayer);
    FUZZ_CHECK(rounds == w + l + d && (rounds > 0 || pOpts->bRoundless) &&
                   w >= 0 && l >= 0 && d >= 0,
               "rounds %lld, record %lld-%lld-%lld", rounds, w, l, d);
    FUZZ_CHECK(gw >= 0 && gl >= 0 && gd >= 0 && games == gw + gl + gd,
               "games %lld of %lld-%lld-%lld", games, gw, gl, gd);
    FUZZ_CHECK(dropped == 0 || dropped == 1, "dropped %lld", dropped);
    check_pct(p, C_MWP, pOpts->bMtg ? 1.0 : HUGE_VAL);
    check_pct(p, C_GWP, pOpts->bMtg ? gwpMax : HUGE_VAL);
    check_pct(p, C_OMWP, pOpts->bMtg ? 1.0 : HUGE_VAL);
    check_pct(p, C_OGWP, pOpts->bMtg ? gwpMax : HUGE_VAL);
    if (pOpts->bMtg) {
      int bNoOpp = col_type(p, C_OMWP) == SQLITE_NULL;
      FUZZ_CHECK(mp == 3 * w + d, "match_points %g, record %lld-%lld-%lld",
                 mp, w, l, d);
      FUZZ_CHECK(byes >= 0 && byes <= w, "byes %lld, wins %lld", byes, w);
      FUZZ_CHECK(pOpts->gdp < 0 || gp == 3 * gw + pOpts->gdp * gd,
                 "game_points %g of %lld-%lld-%lld", gp, gw, gl, gd);
      FUZZ_CHECK(col_type(p, C_MWP) != SQLITE_NULL &&
                     col_type(p, C_GWP) != SQLITE_NULL,
                 "mwp or gwp NULL");
      FUZZ_CHECK(bNoOpp == (col_type(p, C_OGWP) == SQLITE_NULL) &&
                     bNoOpp == (byes == rounds),
                 "omwp/ogwp NULL with %lld byes in %lld rounds", byes, rounds);
      row_keys(p, aPrev, bPrevNull);
    }
    prevRank = rank;
    sqlite3_value_free(pPrevPlayer);
    pPrevPlayer = sqlite3_value_dup(sqlite3_column_value(pStmt, p->aCol[C_PLAYER]));
    FUZZ_CHECK(pPrevPlayer != 0, "out of memory");
    nRow++;
  }
  sqlite3_value_free(pPrevPlayer);
  fuzz_report(pStmt, nRow, rc);
  if (rc != SQLITE_DONE) {
    const char *zMsg = sqlite3_errmsg(db);
    FUZZ_CHECK(rc == SQLITE_ERROR && strncmp(zMsg, "standings(): ", 13) == 0,
               "rc %d: %s", rc, zMsg);
  }
  sqlite3_reset(pStmt);
  return rc == SQLITE_DONE ? nRow : -1;
}

#endif /* FUZZ_COMMON_H */
