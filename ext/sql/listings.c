/*
** sql/listings.c: what the extension knows, as tables.
**
**   SELECT * FROM tiebreak_policies;     -- each policy and its order
**   SELECT * FROM tiebreakers;           -- each tiebreaker, its options
**                                        -- and a one-line definition
**
** Both are read-only eponymous virtual tables over the static tables of
** policy.c and tiebreakers.c, so they always tell what this build does.
*/
#include "../tiebreak_int.h"

#include <string.h>

/* One listing: its schema, row count and a cell of a row. */
typedef struct ListingDef {
  const char *zSchema;
  int (*xCount)(void);
  void (*xCell)(sqlite3_context *ctx, int iRow, int iCol);
} ListingDef;

typedef struct ListingVtab {
  sqlite3_vtab base;
  const ListingDef *pDef;
} ListingVtab;

typedef struct ListingCursor {
  sqlite3_vtab_cursor base;
  int iRow;
} ListingCursor;

static void result_text(sqlite3_context *ctx, const char *z) {
  sqlite3_result_text(ctx, z, -1, SQLITE_STATIC);
}

/* ------------------------------------------------------------- policies */

static void policy_cell(sqlite3_context *ctx, int iRow, int iCol) {
  const char *zName, *zTiebreakers, *zDisplay, *zDoc;
  tb_policy_info(iRow, &zName, &zTiebreakers, &zDisplay, &zDoc);
  switch (iCol) {
    case 0: result_text(ctx, zName); break;
    case 1: result_text(ctx, zTiebreakers); break;
    case 2: result_text(ctx, zDisplay); break;
    default: result_text(ctx, zDoc); break;
  }
}

static const ListingDef policiesDef = {
  "CREATE TABLE x(name, tiebreakers, also_shown, description)",
  tb_policy_count, policy_cell};

/* ---------------------------------------------------------- tiebreakers */

static int tiebreaker_count(void) {
  return tb_nTiebreaker;
}

static void tiebreaker_cell(sqlite3_context *ctx, int iRow, int iCol) {
  static const char *azType[] = {"real", "integer", "points"};
  const TbTiebreaker *t = &tb_aTiebreaker[iRow];
  switch (iCol) {
    case 0: result_text(ctx, t->zName); break;
    case 1: result_text(ctx, t->zAlias); break;
    case 2: result_text(ctx, t->zFamily); break;
    case 3: result_text(ctx, t->zOptions); break;
    case 4: result_text(ctx, t->bLowerIsBetter ? "lower" : "higher"); break;
    case 5: sqlite3_result_int(ctx, t->xGroup != 0); break;
    case 6: result_text(ctx, azType[t->eType]); break;
    case 7: result_text(ctx, t->zDoc); break;
    default: { /* the C.07 code, NULL outside chess */
      char zCode[16];
      tb_tiebreaker_code(t, zCode);
      if (zCode[0]) sqlite3_result_text(ctx, zCode, -1, SQLITE_TRANSIENT);
      break;
    }
  }
}

static const ListingDef tiebreakersDef = {
  "CREATE TABLE x(name, alias, family, options, better, among_tied, type, "
  "definition, code)",
  tiebreaker_count, tiebreaker_cell};

/* ------------------------------------------------------------ the module */

static int listingConnect(sqlite3 *db, void *pAux, int argc,
                          const char *const *argv, sqlite3_vtab **ppVtab,
                          char **pzErr) {
  const ListingDef *pDef = (const ListingDef *)pAux;
  ListingVtab *pNew;
  int rc = sqlite3_declare_vtab(db, pDef->zSchema);
  (void)argc;
  (void)argv;
  (void)pzErr;
  if (rc != SQLITE_OK) return rc;
  pNew = sqlite3_malloc64(sizeof(*pNew));
  if (pNew == 0) return SQLITE_NOMEM;
  memset(pNew, 0, sizeof(*pNew));
  pNew->pDef = pDef;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS); /* reads no table */
  *ppVtab = &pNew->base;
  return SQLITE_OK;
}

static int listingDisconnect(sqlite3_vtab *pVtab) {
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

static int listingBestIndex(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo) {
  (void)pVtab;
  pInfo->estimatedCost = 10.0;
  pInfo->estimatedRows = 10;
  return SQLITE_OK;
}

static int listingOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor) {
  ListingCursor *pCur = sqlite3_malloc64(sizeof(*pCur));
  (void)pVtab;
  if (pCur == 0) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

static int listingClose(sqlite3_vtab_cursor *cur) {
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int listingFilter(sqlite3_vtab_cursor *cur, int idxNum,
                         const char *idxStr, int argc, sqlite3_value **argv) {
  (void)idxNum;
  (void)idxStr;
  (void)argc;
  (void)argv;
  ((ListingCursor *)cur)->iRow = 0;
  return SQLITE_OK;
}

static int listingNext(sqlite3_vtab_cursor *cur) {
  ((ListingCursor *)cur)->iRow++;
  return SQLITE_OK;
}

static int listingEof(sqlite3_vtab_cursor *cur) {
  const ListingDef *pDef = ((ListingVtab *)cur->pVtab)->pDef;
  return ((ListingCursor *)cur)->iRow >= pDef->xCount();
}

static int listingColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                         int iCol) {
  const ListingDef *pDef = ((ListingVtab *)cur->pVtab)->pDef;
  pDef->xCell(ctx, ((ListingCursor *)cur)->iRow, iCol);
  return SQLITE_OK;
}

static int listingRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  *pRowid = ((ListingCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

static sqlite3_module listingModule = {
  .iVersion = 0,
  .xCreate = 0, /* eponymous only */
  .xConnect = listingConnect,
  .xBestIndex = listingBestIndex,
  .xDisconnect = listingDisconnect,
  .xDestroy = 0,
  .xOpen = listingOpen,
  .xClose = listingClose,
  .xFilter = listingFilter,
  .xNext = listingNext,
  .xEof = listingEof,
  .xColumn = listingColumn,
  .xRowid = listingRowid,
};

int tb_register_listings(sqlite3 *db) {
  int rc = sqlite3_create_module(db, "tiebreak_policies", &listingModule,
                                 (void *)&policiesDef);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module(db, "tiebreakers", &listingModule,
                               (void *)&tiebreakersDef);
  }
  return rc;
}
