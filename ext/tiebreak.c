/*
** tiebreak: Swiss-tournament standings and tiebreakers inside SQLite.
**
** Load it and ask for an event's standings, straight from your results:
**
**   .load ./build/tiebreak
**   SELECT rank, player, match_points, round(omwp, 4) AS omw
**     FROM standings(1, 'mtg');
**
**   SELECT mwp(5, 2, 1);              -- 0.666..., MTR Appendix C
**   SELECT omwp(1, 'Ann');            -- one player's OMW% in event 1
**   SELECT tiebreak_version(), tiebreak_debug();
**
** The tables it reads are described in sql/schema.sql; every function is
** documented in docs/.  This file holds the entry point and the two meta
** functions; see tiebreak_int.h for the map of the other files.
*/
#include "tiebreak_int.h"
#ifndef SQLITE_CORE
SQLITE_EXTENSION_INIT1
#endif

#include <string.h>

#include "tiebreak.h"

#ifndef TIEBREAK_SOURCE_ID
#define TIEBREAK_SOURCE_ID "unknown"
#endif

static void version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_text(ctx, TIEBREAK_VERSION, -1, SQLITE_STATIC);
}

/* Version, source, the SQLite it was built for and runs on, and limits. */
static void debug_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  char *z;
  (void)argc;
  (void)argv;
  z = sqlite3_mprintf("tiebreak %s\n"
                      "source: %s\n"
                      "sqlite headers: %s\n"
                      "sqlite library: %s\n"
                      "arithmetic: exact, 128-bit rationals\n"
#ifdef SQLITE_CORE
                      "build: static (SQLITE_CORE)",
#else
                      "build: loadable",
#endif
                      TIEBREAK_VERSION, TIEBREAK_SOURCE_ID, SQLITE_VERSION,
                      sqlite3_libversion());
  if (z == 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, z, -1, sqlite3_free);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
TIEBREAK_API int sqlite3_tiebreak_init(sqlite3 *db, char **pzErrMsg,
                                       const sqlite3_api_routines *pApi) {
  const int flagsPure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  TbConn *pConn;
  int rc;
#ifndef SQLITE_CORE
  SQLITE_EXTENSION_INIT2(pApi);
#else
  (void)pApi;
#endif
  /* sqlite3_value_dup, sqlite3_str_* and SQLITE_INNOCUOUS need 3.31 */
  if (sqlite3_libversion_number() < 3031000) {
    *pzErrMsg = sqlite3_mprintf("tiebreak needs SQLite 3.31.0 or later, this "
                                "is %s", sqlite3_libversion());
    return SQLITE_ERROR;
  }
  pConn = sqlite3_malloc64(sizeof(*pConn));
  if (pConn == 0) return SQLITE_NOMEM;
  memset(pConn, 0, sizeof(*pConn));
  /* The module owns pConn: it is freed when the connection closes. */
  rc = tb_register_standings(db, pConn);
  if (rc == SQLITE_OK) rc = tb_register_scalars(db, pConn);
  if (rc == SQLITE_OK) rc = tb_register_listings(db);
  if (rc == SQLITE_OK) rc = tb_register_reader(db);
  if (rc == SQLITE_OK) rc = tb_register_trf(db);
  if (rc == SQLITE_OK) rc = tb_register_melee(db);
  if (rc == SQLITE_OK) rc = tb_register_tom(db);
  if (rc == SQLITE_OK) rc = tb_register_pairings(db, pConn);
  if (rc == SQLITE_OK) rc = tb_register_check(db);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "tiebreak_version", 0, flagsPure, 0,
                                 version_func, 0, 0);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "tiebreak_debug", 0,
                                 SQLITE_UTF8 | SQLITE_INNOCUOUS, 0, debug_func,
                                 0, 0);
  }
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    *pzErrMsg = sqlite3_mprintf("tiebreak: cannot register functions: %s",
                                sqlite3_errmsg(db));
  }
  return rc;
}
