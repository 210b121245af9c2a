/*
** scalars.c: mwp(), gwp(), omwp(), ogwp().
**
** Pure formulas, deterministic and innocuous:
**
**   SELECT mwp(5, 2, 1);            -- 16/24 = 0.666...
**   SELECT gwp(1, 2, 0);            -- 3/9 -> floor 0.33
**   SELECT mwp(1, 3, 0, '1/3');     -- with another floor
**
** Values read from the user's tables (policy 'mtg' unless given):
**
**   SELECT player, omwp(1, player) FROM (SELECT DISTINCT player_a AS player
**                                         FROM matches WHERE event_id = 1);
**   SELECT ogwp(1, 'Ann', 'mtg(floor=1/3)');
**
** The table-reading functions compute the whole event once per statement
** when the event argument is a constant (SQLite's auxdata), so calling them
** for every player of an event stays linear in its size.
*/
#include "tiebreak_int.h"

#include <string.h>

/* --------------------------------------------------------- pure formulas */

/*
** mwp(wins, losses, draws [, floor]) and gwp(...): max(points / (3 * n),
** floor), with points 3 per win and 1 per draw.  NULL in, NULL out; no match
** (or game) at all has no percentage: NULL.
*/
static void formula_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zName = (const char *)sqlite3_user_data(ctx);
  TbFrac floor = {33, 100};
  i64 a[3];
  int i;
  TbAcc acc;

  for (i = 0; i < argc; i++) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return;
  }
  for (i = 0; i < 3; i++) {
    a[i] = sqlite3_value_int64(argv[i]);
    if (sqlite3_value_type(argv[i]) != SQLITE_INTEGER || a[i] < 0 ||
        a[i] > 1000000000) {
      char *zMsg = sqlite3_mprintf("%s(): counts must be integers from 0 to "
                                   "1000000000", zName);
      if (zMsg) sqlite3_result_error(ctx, zMsg, -1);
      else sqlite3_result_error_nomem(ctx);
      sqlite3_free(zMsg);
      return;
    }
  }
  if (argc == 4) {
    char *zErr = 0;
    if (tb_floor_from_value(argv[3], &floor, &zErr) != SQLITE_OK) {
      char *zMsg = zErr ? sqlite3_mprintf("%s(): %s", zName, zErr) : 0;
      if (zMsg) sqlite3_result_error(ctx, zMsg, -1);
      else sqlite3_result_error_nomem(ctx);
      sqlite3_free(zErr);
      sqlite3_free(zMsg);
      return;
    }
  }
  if (a[0] + a[1] + a[2] == 0) return;
  tb_acc_init(&acc, 0);
  tb_acc_add_floored(&acc, 3 * a[0] + a[2], 3 * (a[0] + a[1] + a[2]), &floor);
  /* one quotient of integers below 2^53: r is correctly rounded */
  sqlite3_result_double(ctx, acc.r);
}

/* ------------------------------------------------ values from the tables */

/* What a table-reading function returns: a column of tb_aTiebreaker. */
typedef struct TbFuncData {
  TbConn *pConn;
  const char *zName;
  int iTiebreaker;
} TbFuncData;

/* One event computed under one policy: kept for the statement's duration. */
typedef struct EventCache {
  char *zPolicy;
  TbEvent event;
  TbStandings standings;
} EventCache;

static void cache_free(void *p) {
  EventCache *pCache = (EventCache *)p;
  tb_standings_free(&pCache->standings);
  tb_event_free(&pCache->event);
  sqlite3_free(pCache->zPolicy);
  sqlite3_free(pCache);
}

static void func_error(sqlite3_context *ctx, const TbFuncData *pData,
                       int rc, char *zErr) {
  if (rc == SQLITE_NOMEM || zErr == 0) {
    sqlite3_result_error_nomem(ctx);
  } else {
    /* An error from a nested call may already carry this prefix. */
    size_t n = strlen(pData->zName);
    int bPrefixed = strncmp(zErr, pData->zName, n) == 0 &&
                    strncmp(zErr + n, "(): ", 4) == 0;
    char *zMsg = bPrefixed ? sqlite3_mprintf("%s", zErr)
                           : sqlite3_mprintf("%s(): %s", pData->zName, zErr);
    if (zMsg) {
      sqlite3_result_error(ctx, zMsg, -1);
      /* keep SQLITE_BUSY, SQLITE_INTERRUPT ... from the inner query */
      if (rc != SQLITE_ERROR) sqlite3_result_error_code(ctx, rc);
    } else {
      sqlite3_result_error_nomem(ctx);
    }
    sqlite3_free(zMsg);
  }
  sqlite3_free(zErr);
}

/* Compute the event of argv[0] under zPolicy (argv[2] or 'mtg'). */
static int cache_build(sqlite3_context *ctx, const TbFuncData *pData,
                       sqlite3_value *pEvent, const char *zPolicy,
                       EventCache **ppCache, char **pzErr) {
  EventCache *pCache = sqlite3_malloc64(sizeof(*pCache));
  TbSource src;
  TbPolicy policy;
  int rc;

  if (pCache == 0) return SQLITE_NOMEM;
  memset(pCache, 0, sizeof(*pCache));
  pCache->zPolicy = sqlite3_mprintf("%s", zPolicy);
  if (pCache->zPolicy == 0) {
    cache_free(pCache);
    return SQLITE_NOMEM;
  }
  memset(&src, 0, sizeof(src));
  src.pEvent = pEvent;
  src.zMatches = "matches";
  rc = tb_policy_parse(zPolicy, &policy, pzErr);
  if (rc == SQLITE_OK) {
    rc = tb_compute(pData->pConn, sqlite3_context_db_handle(ctx), &src, &policy,
                    &pCache->event, &pCache->standings, pzErr);
  }
  if (rc != SQLITE_OK) {
    cache_free(pCache);
    return rc;
  }
  *ppCache = pCache;
  return SQLITE_OK;
}

/* mwp(event, player), gwp(...), omwp(event, player [, policy]), ogwp(...) */
static void table_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const TbFuncData *pData = (const TbFuncData *)sqlite3_user_data(ctx);
  const char *zPolicy = "mtg";
  EventCache *pCache;
  char *zErr = 0;
  int eType = sqlite3_value_type(argv[0]);
  int bNew = 0, iPlayer, rc;
  double r;

  if (eType == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  if (eType != SQLITE_INTEGER && eType != SQLITE_TEXT &&
      !tb_value_is_integral(argv[0])) {
    func_error(ctx, pData, SQLITE_ERROR,
               sqlite3_mprintf("event_id must be INTEGER or TEXT"));
    return;
  }
  if (argc > 2) {
    if (sqlite3_value_type(argv[2]) != SQLITE_TEXT) {
      func_error(ctx, pData, SQLITE_ERROR,
                 sqlite3_mprintf("policy must be text, e.g. 'mtg'"));
      return;
    }
    zPolicy = (const char *)sqlite3_value_text(argv[2]);
    if (zPolicy == 0) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
  }
  pCache = (EventCache *)sqlite3_get_auxdata(ctx, 0);
  if (pCache == 0 || strcmp(pCache->zPolicy, zPolicy) != 0) {
    rc = cache_build(ctx, pData, argv[0], zPolicy, &pCache, &zErr);
    if (rc != SQLITE_OK) {
      func_error(ctx, pData, rc, zErr);
      return;
    }
    bNew = 1;
  }
  iPlayer = tb_event_find(&pCache->event, argv[1]);
  if (iPlayer >= 0 &&
      tb_standings_value(&pCache->standings, iPlayer, pData->iTiebreaker, &r)) {
    sqlite3_result_double(ctx, r);
  }
  /* Last: SQLite may free the cache at once if it cannot keep it. */
  if (bNew) sqlite3_set_auxdata(ctx, 0, pCache, cache_free);
}

/* ------------------------------------------------------------ registering */

int tb_register_scalars(sqlite3 *db, TbConn *pConn) {
  static const struct {
    const char *zName;
    int nArg;
  } aFormula[] = {{"mwp", 3}, {"mwp", 4}, {"gwp", 3}, {"gwp", 4}};
  static const struct {
    const char *zName;
    int nArg;
  } aTable[] = {{"mwp", 2}, {"gwp", 2}, {"omwp", 2}, {"omwp", 3},
                {"ogwp", 2}, {"ogwp", 3}};
  const int flagsPure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = SQLITE_OK;
  size_t i;

  for (i = 0; rc == SQLITE_OK && i < sizeof(aFormula) / sizeof(aFormula[0]); i++) {
    rc = sqlite3_create_function(db, aFormula[i].zName, aFormula[i].nArg,
                                 flagsPure, (void *)aFormula[i].zName,
                                 formula_func, 0, 0);
  }
  /*
  ** Not DETERMINISTIC: the result depends on table contents.  Not INNOCUOUS:
  ** they read tables, so with trusted_schema=OFF a schema cannot make them
  ** run inside its views and triggers (see docs/troubleshooting.md).
  */
  for (i = 0; rc == SQLITE_OK && i < sizeof(aTable) / sizeof(aTable[0]); i++) {
    const TbTiebreaker *t = tb_tiebreaker_find(aTable[i].zName,
                                               (int)strlen(aTable[i].zName));
    TbFuncData *pData = sqlite3_malloc64(sizeof(*pData));
    if (pData == 0) return SQLITE_NOMEM;
    pData->pConn = pConn;
    pData->zName = aTable[i].zName;
    pData->iTiebreaker = (int)(t - tb_aTiebreaker);
    rc = sqlite3_create_function_v2(db, aTable[i].zName, aTable[i].nArg,
                                    SQLITE_UTF8, pData, table_func, 0, 0,
                                    sqlite3_free);
  }
  return rc;
}
