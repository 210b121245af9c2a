/*
** fuzz_policy.c: arbitrary arguments to standings() and the scalar functions
** over a fixed database: policy strings, floors, as_of_round, event ids and
** table names (including names of tables that are malformed, views that
** recurse into standings(), and attempts at SQL injection).
**
** Input: fields separated by the byte 0x01.
**   field 0  control bytes: [0] which statement form (modulo 6), [1..6] the
**            type of each argument, modulo 5: NULL, INTEGER, REAL, TEXT, BLOB
**            (0x00, 0x06, 0x02, 0x03, 0x04 avoid the separator)
**   1..6     event_id, policy, floor, as_of_round, matches_table, games_table
**
** Checks: no crash or sanitizer report; every error is the extension's own
** ("standings(): ...", "omwp(): ..."); successful results satisfy the
** invariants of fuzz_common.h; the database is never modified.
*/
#include <stdint.h>

#include "fuzz_common.h"

#define N_FIELD 7

static const char zSchema[] =
  "CREATE TABLE matches(event_id NOT NULL, round INTEGER NOT NULL,"
  " player_a NOT NULL, player_b, a_wins INTEGER NOT NULL DEFAULT 0,"
  " b_wins INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,"
  " result TEXT);"
  "CREATE TABLE games(event_id NOT NULL, round INTEGER NOT NULL,"
  " player_a NOT NULL, game INTEGER NOT NULL, winner,"
  " PRIMARY KEY(event_id, round, player_a, game));"
  "INSERT INTO matches VALUES"
  " (1, 1, 'Ann', 'Bob', 2, 1, 0, NULL), (1, 1, 'Cat', 'Dan', 0, 0, 3, NULL),"
  " (1, 1, 'Eve', NULL, 0, 0, 0, NULL), (1, 2, 'Ann', 'Cat', 1, 1, 1, NULL),"
  " (1, 2, 'Bob', 'Eve', 0, 0, 0, 'double_loss'), (1, 2, 'Dan', NULL, 2, 0, 0, 'a'),"
  " (1, 3, 'Ann', 'Eve', 0, 0, 0, NULL), (1, 3, 'Bob', 'Dan', 0, 0, 0, 'b'),"
  " (2, 1, 1, 2, 0, 0, 0, NULL), (2, 1, 3, 4, 0, 2, 0, NULL),"
  " (2, 2, 1, 3, 0, 0, 0, 'draw'), (2, 2, 2, 4, 2, 1, 0, NULL),"
  " ('x', 1, 'A', 'A', 2, 0, 0, NULL), ('y', 1, 'A', 'B', 2, 0, 0, 'bogus'),"
  " ('z', 1, 'A', 'B', -1, 0, 0, NULL), ('w', 1, 'A', 'B', 0, 2, 0, 'a'),"
  " ('v', 1, 'A', NULL, 1, 0, 0, NULL), ('u', 1, 'A', 'B', 2, 0, 0, NULL),"
  " ('u', 1, 'A', 'C', 2, 0, 0, NULL), ('g', 1, 'A', 'B', 0, 0, 0, NULL),"
  " ('g', 2, 'A', NULL, 0, 0, 0, NULL);"
  "INSERT INTO games VALUES (1, 3, 'Ann', 1, 'Ann'), (1, 3, 'Ann', 2, 'Eve'),"
  " (1, 3, 'Ann', 3, NULL), (2, 1, 1, 1, 1), (2, 1, 1, 2, NULL),"
  " ('g', 1, 'A', 1, 'Q'), ('g', 2, 'A', 1, 'A');"
  /* tables and views for the table-name arguments */
  "CREATE TABLE \"My Results\"(event_id, round, player_a, player_b, a_wins,"
  " b_wins, draws);"
  "INSERT INTO \"My Results\" SELECT event_id, round, player_a, player_b,"
  " a_wins, b_wins, draws FROM matches;"
  "CREATE TABLE \"a\"\"b\"(x);"
  "CREATE TABLE g2(event_id, round, player_a, game, winner);"
  "INSERT INTO g2 VALUES (1, 1, 'Ann', 1, 'Zed'), (1, 9, 'Ann', 1, 'Ann');"
  "CREATE VIEW v_null AS SELECT event_id, round, player_a, player_b,"
  " NULL AS a_wins, NULL AS b_wins, NULL AS draws FROM matches;"
  "CREATE VIEW v_real AS SELECT event_id, round * 1.5 AS round, player_a,"
  " player_b, a_wins * 0.5 AS a_wins, b_wins, draws, x'00' AS result"
  " FROM matches;"
  "CREATE VIEW v_big AS SELECT event_id, round * 4000000000 AS round,"
  " player_a, player_b, a_wins * 9000000000 AS a_wins, b_wins, draws"
  " FROM matches;"
  "CREATE TEMP VIEW v_rec AS SELECT 1 AS event_id, 1 AS round,"
  " player AS player_a, NULL AS player_b, 0 AS a_wins, 0 AS b_wins,"
  " 0 AS draws FROM standings(1, 'mtg');"
  "CREATE TEMP VIEW v_recs AS SELECT 1 AS event_id, 1 AS round,"
  " 'A' AS player_a, NULL AS player_b, 0 AS a_wins, 0 AS b_wins,"
  " 0 AS draws WHERE omwp(1, 'Ann') IS NOT NULL;";

static const char *azStmt[] = {
  "SELECT * FROM standings(?1, ?2)",
  "SELECT * FROM standings(?1, ?2, ?3)",
  "SELECT * FROM standings(?1, ?2, ?3, ?4)",
  "SELECT * FROM standings(?1, ?2, ?3, ?4, ?5)",
  "SELECT * FROM standings(?1, ?2, ?3, ?4, ?5, ?6)",
  ("SELECT * FROM standings WHERE event_id = ?1 AND policy = ?2 AND floor = ?3"
   " AND as_of_round = ?4 AND matches_table = ?5 AND games_table = ?6"),
};
#define N_STMT ((int)(sizeof(azStmt) / sizeof(azStmt[0])))

/* Every form of every scalar, each error prefixed by its function's name. */
static const char *azScalar[] = {
  "SELECT mwp(?4, ?3, ?1), gwp(?4, ?1, ?3, ?3)",
  "SELECT mwp(?1, ?4, ?4, ?2), gwp(?3, ?3, ?3, ?2)",
  "SELECT mwp(?1, ?5), gwp(?1, ?6)",
  "SELECT omwp(?1, ?5), ogwp(?1, ?6)",
  "SELECT omwp(?1, ?5, ?2), ogwp(?1, ?6, ?2)",
  "SELECT omwp(1, 'Ann', ?2), ogwp(2, 3, ?2)",
};
#define N_SCALAR ((int)(sizeof(azScalar) / sizeof(azScalar[0])))

static const CheckOpts anyPolicy = {0, -1};
static sqlite3 *db;
static sqlite3_stmt *apStmt[N_STMT], *apScalar[N_SCALAR];
static int nChanges;

static void setup(void) {
  int i;
  db = fuzz_open();
  fuzz_exec(db, zSchema);
  for (i = 0; i < N_STMT; i++) apStmt[i] = fuzz_prepare(db, azStmt[i]);
  for (i = 0; i < N_SCALAR; i++) apScalar[i] = fuzz_prepare(db, azScalar[i]);
  nChanges = sqlite3_total_changes(db);
}

static void bind_field(sqlite3_stmt *pStmt, int iParam, int eType,
                       const uint8_t *z, size_t n) {
  char zNum[64];
  size_t k = n < sizeof(zNum) - 1 ? n : sizeof(zNum) - 1;
  memcpy(zNum, z, k);
  zNum[k] = 0;
  switch (eType % 5) {
    case 0:
      sqlite3_bind_null(pStmt, iParam);
      break;
    case 1:
      sqlite3_bind_int64(pStmt, iParam, strtoll(zNum, 0, 0));
      break;
    case 2:
      sqlite3_bind_double(pStmt, iParam, strtod(zNum, 0));
      break;
    case 3:
      /* may hold NUL bytes and invalid UTF-8 */
      sqlite3_bind_text(pStmt, iParam, (const char *)z, (int)n, SQLITE_TRANSIENT);
      break;
    default:
      sqlite3_bind_blob(pStmt, iParam, z, (int)n, SQLITE_TRANSIENT);
      break;
  }
}

static void bind_all(sqlite3_stmt *pStmt, const uint8_t *aCtl, size_t nCtl,
                     const uint8_t **az, const size_t *an) {
  int i, nParam = sqlite3_bind_parameter_count(pStmt);
  sqlite3_reset(pStmt);
  sqlite3_clear_bindings(pStmt);
  for (i = 1; i <= nParam && i < N_FIELD; i++) {
    /* by default: text, as the functions expect */
    int eType = (size_t)i < nCtl ? aCtl[i] : 3;
    bind_field(pStmt, i, eType, az[i], an[i]);
  }
}

/* Errors of the scalar statements come from one of the functions. */
static void check_scalar(sqlite3_stmt *pStmt) {
  int rc, nRow = 0;
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    int i;
    nRow++;
    for (i = 0; i < sqlite3_column_count(pStmt); i++) {
      int eType = sqlite3_column_type(pStmt, i);
      FUZZ_CHECK(eType == SQLITE_NULL || eType == SQLITE_FLOAT,
                 "scalar result type %d", eType);
      if (eType == SQLITE_FLOAT) {
        double r = sqlite3_column_double(pStmt, i);
        /* above 1 only if a policy makes a drawn game worth more than a win */
        FUZZ_CHECK(isfinite(r) && r >= 0.0, "scalar result %.17g", r);
      }
    }
  }
  fuzz_report(pStmt, nRow, rc);
  if (rc != SQLITE_DONE) {
    const char *zMsg = sqlite3_errmsg(db);
    FUZZ_CHECK(rc == SQLITE_ERROR &&
                   (!strncmp(zMsg, "mwp(): ", 7) || !strncmp(zMsg, "gwp(): ", 7) ||
                    !strncmp(zMsg, "omwp(): ", 8) || !strncmp(zMsg, "ogwp(): ", 8)),
               "rc %d: %s", rc, zMsg);
  }
  sqlite3_reset(pStmt);
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  const uint8_t *az[N_FIELD];
  size_t an[N_FIELD];
  size_t i, iStart = 0;
  int nField = 0, iStmt;

  if (db == 0) setup();
  memset(an, 0, sizeof(an));
  for (i = 0; i < N_FIELD; i++) az[i] = (const uint8_t *)"";
  for (i = 0; i <= nData && nField < N_FIELD; i++) {
    if (i == nData || aData[i] == 0x01) {
      az[nField] = aData + iStart;
      an[nField] = i - iStart;
      nField++;
      iStart = i + 1;
    }
  }
  iStmt = an[0] ? az[0][0] % N_STMT : 0;

  bind_all(apStmt[iStmt], az[0], an[0], az, an);
  /* Any policy: the points, the keys and their order are unknown. */
  check_standings(db, apStmt[iStmt], &anyPolicy);

  for (i = 0; i < (size_t)N_SCALAR; i++) {
    bind_all(apScalar[i], az[0], an[0], az, an);
    check_scalar(apScalar[i]);
  }
  FUZZ_CHECK(sqlite3_total_changes(db) == nChanges, "the database changed");
  FUZZ_CHECK(sqlite3_get_autocommit(db), "a transaction was left open");
  return 0;
}
