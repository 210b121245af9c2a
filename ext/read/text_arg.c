/*
** read/text_arg.c: the plan of a file reader's table-valued function.
**
** melee_matches(), trf_matches(), tom_matches() and their siblings take a
** file's text through a hidden column, as  fn(text)  or  WHERE col = text
** (standings() asks its matches table for WHERE event_id = ?).  That
** equality is required: without it there is nothing to read.  They share
** their table's life too: declared from a schema, innocuous (they read
** nothing but their argument, so views and triggers may use them under
** PRAGMA trusted_schema=OFF), freed whole.
*/
#include "../tiebreak_int.h"

#include <string.h>

/* xConnect: declare zSchema and allocate the table, nBytes zeroed (its
** struct, which begins with the sqlite3_vtab). */
int tb_text_arg_connect(sqlite3 *db, const char *zSchema, size_t nBytes,
                        sqlite3_vtab **ppVtab) {
  int rc = sqlite3_declare_vtab(db, zSchema);
  if (rc != SQLITE_OK) return rc;
  *ppVtab = sqlite3_malloc64(nBytes);
  if (*ppVtab == 0) return SQLITE_NOMEM;
  memset(*ppVtab, 0, nBytes);
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  return SQLITE_OK;
}

int tb_text_arg_disconnect(sqlite3_vtab *pVtab) {
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

/*
** Whether a constraint passes its value as an argument: = and IS alike (a
** NULL argument is refused either way).
*/
int tb_op_is_eq(int op) {
  return op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_IS;
}

/*
** Use the usable equality (= or IS) on column iCol as argv[0].  No such equality at
** all: a plan with other constraints only is refused (a join has another
** plan that passes the text), and with none the message is
** "<zFunc>(): <zWhat> is required, e.g. <zFunc>(readfile('<zFile>'))".
*/
int tb_text_arg_best_index(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo,
                           int iCol, const char *zFunc, const char *zWhat,
                           const char *zFile) {
  int i, iUsable = -1, bSeen = 0;
  for (i = 0; i < pInfo->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &pInfo->aConstraint[i];
    if (c->iColumn != iCol || !tb_op_is_eq(c->op)) continue;
    bSeen = 1;
    if (c->usable) iUsable = i;
  }
  if (!bSeen) {
    if (pInfo->nConstraint > 0) return SQLITE_CONSTRAINT;
    sqlite3_free(pVtab->zErrMsg);
    pVtab->zErrMsg = sqlite3_mprintf("%s(): %s is required, e.g. %s(readfile('%s'))",
                                     zFunc, zWhat, zFunc, zFile);
    return pVtab->zErrMsg ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (iUsable < 0) return SQLITE_CONSTRAINT;
  pInfo->aConstraintUsage[iUsable].argvIndex = 1;
  pInfo->aConstraintUsage[iUsable].omit = 1;
  pInfo->estimatedCost = 1000.0;
  pInfo->estimatedRows = 200;
  return SQLITE_OK;
}

/*
** The readers sort what they read (players by id, seats by player) before
** checking it: rank.c's merge sort, which polls the probe as it merges, so
** that a sort of a million items answers an interrupt too (qsort cannot).
*/
int tb_text_arg_sort(void **pa, int n, int nSize, TbBefore xBefore,
                     TbProbe *pProbe) {
  void *y, *pSorted;
  int rc;
  if (n < 2) return SQLITE_OK;
  y = sqlite3_malloc64((sqlite3_uint64)n * (sqlite3_uint64)nSize);
  if (y == 0) return SQLITE_NOMEM;
  pSorted = tb_merge_sort(*pa, y, n, nSize, 1, xBefore, 0, pProbe, &rc);
  if (pSorted == y) {
    sqlite3_free(*pa);
    *pa = y;
  } else {
    sqlite3_free(y);
  }
  return rc;
}

/* Bytes copied between two polls of the probe. */
#define TB_COPY_SLICE 65536

/*
** A NUL-terminated copy of the n bytes at p in *pz (to sqlite3_free), and
** whether they hold a NUL (*pbNul).  A file of a hundred megabytes takes
** long enough to copy to delay an interrupt: the copy goes in slices,
** each one step of the probe.
*/
int tb_text_arg_copy(const void *p, int n, TbProbe *pProbe, char **pz,
                     int *pbNul) {
  char *z = sqlite3_malloc64((sqlite3_uint64)n + 1);
  int i, rc = SQLITE_OK;
  *pz = z;
  *pbNul = 0;
  if (z == 0) return SQLITE_NOMEM;
  for (i = 0; i < n && rc == SQLITE_OK; i += TB_COPY_SLICE) {
    int k = n - i < TB_COPY_SLICE ? n - i : TB_COPY_SLICE;
    memcpy(z + i, (const char *)p + i, (size_t)k);
    if (memchr(z + i, 0, (size_t)k)) *pbNul = 1;
    rc = tb_poll(pProbe, TB_POLL_WORK);
  }
  z[n] = 0;
  return rc;
}

/*
** The error of a scalar reader (melee_policy(), tom_policy()) that failed
** with rc: SQLITE_NOMEM as such, else "zFunc(): zErr" (the code's own
** message when zErr is NULL: an interrupt) with the code kept.
*/
void tb_text_arg_result_error(sqlite3_context *ctx, const char *zFunc, int rc,
                              const char *zErr) {
  char *zMsg;
  if (rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  zMsg = sqlite3_mprintf("%s(): %s", zFunc, zErr ? zErr : sqlite3_errstr(rc));
  if (zMsg == 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_error(ctx, zMsg, -1);
  if (rc != SQLITE_ERROR) sqlite3_result_error_code(ctx, rc);
  sqlite3_free(zMsg);
}

/*
** Why a reader refuses its argument, of type eType (not TEXT nor BLOB):
** "<zExpected>, got NULL (...)" or ", got a number".  NULL is most often
** readfile() of a path that cannot be read, as standings() says of a NULL
** event: every reader says so, rather than giving no rows.
*/
char *tb_text_arg_refusal(const char *zExpected, int eType) {
  return eType == SQLITE_NULL
             ? sqlite3_mprintf("%s, got NULL (" TB_READFILE_NULL ")", zExpected)
             : sqlite3_mprintf("%s, got a number", zExpected);
}
