/*
** fuzz_readers.c: arbitrary text to the file readers (Melee.gg JSON, TOM
** XML, FIDE TRF) and through standings() with each of them as its tables.
**
** Input: byte 0 picks the format (bits 0-1, modulo 3: Melee, TOM, TRF) and
** how the text is bound (bit 2: as a BLOB, as readfile() gives it, else as
** TEXT); the rest is the file's text.
**
** Checks: no crash or sanitizer report; every error is SQLITE_ERROR with
** the message of the function that failed ("melee_matches(): ...",
** "standings(): ..."); standings() without a players table satisfies the
** invariants of fuzz_common.h that hold for any policy (a player of the
** playoff alone has no round counted); the readers'
** columns hold no BLOB; the database is never modified (TRF's text is kept
** in a TEMP table first, which standings() reads through views).
*/
#include <stdint.h>

#include "fuzz_common.h"

enum { F_MELEE, F_TOM, F_TRF, N_FORMAT };

/* A statement over ?1, the prefix its errors carry, and whether its rows
** are checked as standings() rows (fuzz_common.h: no players table, so no
** divisions and no registered player without a round). */
typedef struct ReaderStmt {
  const char *zSql;
  const char *zPrefix;
  int bStandings;
} ReaderStmt;

static const ReaderStmt aMelee[] = {
  {"SELECT * FROM melee_matches(?1)", "melee_matches(): ", 0},
  {"SELECT * FROM melee_players(?1)", "melee_players(): ", 0},
  {"SELECT * FROM standings(?1, 'mtg', NULL, NULL, 'melee_matches', '')",
   "standings(): ", 1},
  {"SELECT * FROM standings(?1, 'melee_2024(cut_after=2)', NULL, NULL,"
   " 'melee_matches', '', 'melee_players')", "standings(): ", 0},
  {0, 0, 0}};
static const ReaderStmt aTom[] = {
  {"SELECT * FROM tom_matches(?1)", "tom_matches(): ", 0},
  {"SELECT * FROM tom_players(?1)", "tom_players(): ", 0},
  {"SELECT tom_policy(?1)", "tom_policy(): ", 0},
  {"SELECT * FROM standings(?1, 'pokemon', NULL, NULL, 'tom_matches', '')",
   "standings(): ", 1},
  {"SELECT * FROM standings(?1, 'pokemon', NULL, NULL, 'tom_matches', '',"
   " 'tom_players')", "standings(): ", 0},
  {0, 0, 0}};
/* TRF's hidden column is trf, not event_id: standings() reads it through
** views that give the text (kept in a TEMP table) an event id. */
static const ReaderStmt aTrf[] = {
  {"SELECT * FROM trf_matches(?1)", "trf_matches(): ", 0},
  {"SELECT * FROM trf_players(?1)", "trf_players(): ", 0},
  {"SELECT * FROM trf_records(?1)", "trf_records(): ", 0},
  {"SELECT * FROM trf_event(?1)", "trf_event(): ", 0},
  /* the hidden column: the line as written, which pairing reads by columns */
  {"SELECT record, text FROM trf_records(?1)", "trf_records(): ", 0},
  {"SELECT trf_policy(?1)", "trf_policy(): ", 0},
  {"SELECT trf_policy(?1, 'fide(unrated=1500),ARO')", "trf_policy(): ", 0},
  {"SELECT * FROM standings('ex', 'fide', NULL, NULL, 'trf_view', '')",
   "standings(): ", 1},
  /* a named policy: trf_policy() of a file without an order is an error
  ** with its own prefix, checked above */
  {"SELECT * FROM standings('ex', 'fide,ARO', NULL, NULL, 'trf_view', '',"
   " 'trf_players_view')", "standings(): ", 0},
  /* the records pairing reads (XXR, XXC, 192, 240, 250, 260, XXA) */
  {"SELECT * FROM pairings(?1, 'dutch', NULL, 'trf_matches', 'trf_players')",
   "pairings(): ", 0},
  {0, 0, 0}};
static const ReaderStmt *const aFormat[N_FORMAT] = {aMelee, aTom, aTrf};

static const char zSetup[] =
  "CREATE TEMP TABLE fuzz_text(t);"
  "CREATE TEMP VIEW trf_view AS SELECT 'ex' AS event_id, *"
  " FROM trf_matches((SELECT t FROM fuzz_text));"
  "CREATE TEMP VIEW trf_players_view AS SELECT 'ex' AS event_id, player,"
  " rating FROM trf_players((SELECT t FROM fuzz_text));";

static sqlite3 *db;
static sqlite3_stmt *apStmt[N_FORMAT][12], *pKeep;

static void setup(void) {
  int f, i;
  db = fuzz_open();
  fuzz_exec(db, zSetup);
  pKeep = fuzz_prepare(db, "REPLACE INTO fuzz_text(rowid, t) VALUES (1, ?1)");
  for (f = 0; f < N_FORMAT; f++) {
    for (i = 0; aFormat[f][i].zSql; i++) {
      apStmt[f][i] = fuzz_prepare(db, aFormat[f][i].zSql);
    }
  }
}

/* A reader's rows, every column read; an error is the reader's own. */
static void check_reader(sqlite3_stmt *pStmt, const ReaderStmt *p) {
  int rc, i, nRow = 0, nCol = sqlite3_column_count(pStmt);
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    for (i = 0; i < nCol; i++) {
      int eType = sqlite3_column_type(pStmt, i);
      FUZZ_CHECK(eType != SQLITE_BLOB, "row %d of %s: a BLOB in column %d",
                 nRow + 1, p->zPrefix, i);
      if (eType == SQLITE_TEXT) (void)sqlite3_column_text(pStmt, i);
    }
    nRow++;
  }
  fuzz_report(pStmt, nRow, rc);
  if (rc != SQLITE_DONE) {
    const char *zMsg = sqlite3_errmsg(db);
    FUZZ_CHECK(rc == SQLITE_ERROR &&
                   strncmp(zMsg, p->zPrefix, strlen(p->zPrefix)) == 0,
               "rc %d: %s", rc, zMsg);
  }
  sqlite3_reset(pStmt);
}

/* Bind the text, as a BLOB or as TEXT. */
static void bind_input(sqlite3_stmt *pStmt, const char *z, int n, int bBlob) {
  int rc = bBlob ? sqlite3_bind_blob(pStmt, 1, z, n, SQLITE_STATIC)
                 : sqlite3_bind_text(pStmt, 1, z, n, SQLITE_STATIC);
  FUZZ_CHECK(rc == SQLITE_OK, "bind: %d", rc);
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  static const CheckOpts anyPolicy = {0, -1, 1};
  const ReaderStmt *a;
  sqlite3_int64 nChanges;
  int f, i, bBlob;
  const char *z = nData > 1 ? (const char *)aData + 1 : "";
  int n = nData > 1 ? (int)nData - 1 : 0;

  if (db == 0) setup();
  f = nData ? (aData[0] & 3) % N_FORMAT : 0;
  bBlob = nData && (aData[0] & 4);
  a = aFormat[f];
  if (f == F_TRF) {
    bind_input(pKeep, z, n, bBlob);
    FUZZ_CHECK(sqlite3_step(pKeep) == SQLITE_DONE, "keep: %s", sqlite3_errmsg(db));
    sqlite3_reset(pKeep);
    sqlite3_clear_bindings(pKeep);
  }
  nChanges = sqlite3_total_changes64(db);
  for (i = 0; a[i].zSql; i++) {
    sqlite3_stmt *pStmt = apStmt[f][i];
    if (sqlite3_bind_parameter_count(pStmt) > 0) bind_input(pStmt, z, n, bBlob);
    if (a[i].bStandings) {
      check_standings(db, pStmt, &anyPolicy);
    } else {
      check_reader(pStmt, &a[i]);
    }
    sqlite3_clear_bindings(pStmt);
  }
  FUZZ_CHECK(sqlite3_total_changes64(db) == nChanges, "the database changed");
  FUZZ_CHECK(sqlite3_get_autocommit(db), "a transaction was left open");
  return 0;
}
