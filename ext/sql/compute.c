/*
** sql/compute.c: standings from the user's tables.
**
** The pipeline every SQL function shares: read the event (read/tables.c), score
** the players' records under the policy (event.c), rank them (rank.c).
*/
#include "../tiebreak_int.h"

#include <string.h>

/*
** Enter the user's tables.  A view or trigger read by the inner queries
** could call back into the extension; the depth guard turns that endless
** recursion into an error.  Every tb_enter() that succeeds has a tb_leave().
*/
int tb_enter(TbConn *pConn, char **pzErr) {
  if (pConn->nDepth > 0) {
    *pzErr = sqlite3_mprintf("recursive call: the tables it reads must not "
                             "themselves use the tiebreak functions");
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  pConn->nDepth++;
  return SQLITE_OK;
}

void tb_leave(TbConn *pConn) {
  pConn->nDepth--;
}

/*
** The plan of a table-valued function whose arguments are hidden columns
** (standings(), pairings()): the usable equality (= or IS) on each
** argument's column, aIdx[argument] = its constraint or -1, *pSeen and
** *pUsable the bitmasks of the arguments constrained and usable.
** xArgOf maps a column to its argument, or -1.
*/
void tb_args_scan(const sqlite3_index_info *pInfo, TbArgOf xArgOf,
                  const void *pCtx, int nArg, int *aIdx, int *pSeen,
                  int *pUsable) {
  int i;
  *pSeen = *pUsable = 0;
  for (i = 0; i < nArg; i++) aIdx[i] = -1;
  for (i = 0; i < pInfo->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &pInfo->aConstraint[i];
    int iArg = xArgOf(pCtx, c->iColumn);
    if (iArg < 0 || iArg >= nArg || !tb_op_is_eq(c->op)) continue;
    *pSeen |= 1 << iArg;
    if (!c->usable) continue;
    *pUsable |= 1 << iArg;
    aIdx[iArg] = i;
  }
}

/* Pass the arguments found by tb_args_scan() to xFilter, in argument
** order (idxNum is their bitmask), and omit SQLite's own check. */
void tb_args_use(sqlite3_index_info *pInfo, const int *aIdx, int nArg) {
  int i, n = 0;
  for (i = 0; i < nArg; i++) {
    if (aIdx[i] < 0) continue;
    pInfo->aConstraintUsage[aIdx[i]].argvIndex = ++n;
    pInfo->aConstraintUsage[aIdx[i]].omit = 1;
  }
}

/*
** The text of an argument, all of it: a NUL byte inside would cut it short
** for every C string function ('mtg' || char(0) || '(floor=1)' would run
** plain mtg), so it is refused.  v must be TEXT.
*/
int tb_value_text(sqlite3_value *v, const char *zWhat, const char **pz,
                  char **pzErr) {
  const char *z = (const char *)sqlite3_value_text(v);
  *pz = 0;
  if (z == 0) return SQLITE_NOMEM;
  if (strlen(z) != (size_t)sqlite3_value_bytes(v)) {
    *pzErr = sqlite3_mprintf("%s contains a NUL byte", zWhat);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  *pz = z;
  return SQLITE_OK;
}

/* Whether TEXT v is written exactly as the integer *pi prints ('7', '-2';
** not '07', '7.0', ' 7', '7' || char(0)). */
static int text_is_int(sqlite3_value *v, i64 *pi, int *pRc) {
  const char *z = (const char *)sqlite3_value_text(v);
  char *zBack;
  int n = sqlite3_value_bytes(v), bSame;
  *pRc = SQLITE_OK;
  if (z == 0) {
    *pRc = SQLITE_NOMEM;
    return 0;
  }
  if (n < 1 || n > 20 || sqlite3_strglob("*[^0-9-]*", z) == 0) return 0;
  *pi = sqlite3_value_int64(v);
  if ((zBack = sqlite3_mprintf("%lld", *pi)) == 0) {
    *pRc = SQLITE_NOMEM;
    return 0;
  }
  bSame = strlen(zBack) == (size_t)n && memcmp(zBack, z, (size_t)n) == 0;
  sqlite3_free(zBack);
  return bSame;
}

/*
** A whole-number argument as the ids are taken: an INTEGER, a REAL holding
** a whole number (3.0), or a TEXT written as an integer ('3'), since HTTP
** clients and many drivers pass every parameter as text or REAL.  0 if v
** is none of these, or out of memory (*pRc).
*/
int tb_value_whole(sqlite3_value *v, i64 *pi, int *pRc) {
  *pRc = SQLITE_OK;
  if (tb_value_is_integral(v)) {
    *pi = sqlite3_value_int64(v);
    return 1;
  }
  return sqlite3_value_type(v) == SQLITE_TEXT && text_is_int(v, pi, pRc);
}

/*
** The other form of an id: *ppOut is the INTEGER of a TEXT id written as
** one ('7', '-2'; not '07', '7.0', ' 7'), the TEXT of an INTEGER id or of
** a REAL holding a whole number (7.0: '7'; it finds the INTEGER 7 by =
** already), or NULL.  HTTP clients, Datasette and many drivers pass every
** parameter as text, Node every number as REAL, while the ids were stored
** as integers or text.
*/
int tb_id_other_form(sqlite3 *db, sqlite3_value *v, sqlite3_value **ppOut) {
  sqlite3_stmt *pStmt = 0;
  int rc;
  *ppOut = 0;
  if (sqlite3_value_type(v) == SQLITE_TEXT) {
    i64 iVal;
    if (!text_is_int(v, &iVal, &rc)) return rc;
    rc = sqlite3_prepare_v2(db, "SELECT CAST(?1 AS INTEGER)", -1, &pStmt, 0);
  } else if (tb_value_is_integral(v)) {
    rc = sqlite3_prepare_v2(db, "SELECT CAST(CAST(?1 AS INTEGER) AS TEXT)",
                            -1, &pStmt, 0);
  } else {
    return SQLITE_OK;
  }
  if (rc == SQLITE_OK) rc = sqlite3_bind_value(pStmt, 1, v);
  if (rc == SQLITE_OK && sqlite3_step(pStmt) == SQLITE_ROW) {
    *ppOut = sqlite3_value_dup(sqlite3_column_value(pStmt, 0));
    if (*ppOut == 0) rc = SQLITE_NOMEM;
  } else if (rc == SQLITE_OK) {
    rc = sqlite3_errcode(db) == SQLITE_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
  }
  sqlite3_finalize(pStmt);
  return rc == SQLITE_NOMEM ? rc : SQLITE_OK; /* else: no other form */
}

/*
** Whether v can name an event: an INTEGER, a TEXT, or a REAL holding a
** whole number (tb_value_is_integral).  Else SQLITE_ERROR and why in
** *pzErr: NULL (most often readfile() of a path that does not exist), a
** REAL such as 1.5, or a BLOB (readfile()'s result, with how to pass a
** file's text).  standings(), pairings() and the scalars
** share it, so that one id names one event in all of them.
*/
int tb_event_id_check(sqlite3_value *v, char **pzErr) {
  int eType = sqlite3_value_type(v);
  if (eType == SQLITE_INTEGER || eType == SQLITE_TEXT || tb_value_is_integral(v)) {
    return SQLITE_OK;
  }
  *pzErr = eType == SQLITE_NULL
               ? sqlite3_mprintf("event_id is NULL (" TB_READFILE_NULL ")")
           : eType == SQLITE_FLOAT
               ? sqlite3_mprintf("event_id must be INTEGER or TEXT, got %!.15g",
                                 sqlite3_value_double(v))
               : sqlite3_mprintf("event_id must be INTEGER or TEXT, got a BLOB (a "
                                 "file's text as the event: "
                                 "CAST(readfile('f') AS TEXT))");
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/*
** Read one event.  An event id that finds no rows is tried in its other
** form (tb_id_other_form): '1' finds the integer id 1, and 1 the text '1'.
*/
static int read_event(TbReader *pReader, sqlite3_value *pEventId,
                      const TbKey *pKey, TbEvent *pEvent, char **pzErr) {
  sqlite3_value *pOther = 0;
  int bRead = pEvent->bRowsRead;
  int rc = tb_reader_event(pReader, pEventId, pKey, pEvent, pzErr);
  if (rc != SQLITE_OK || bRead || pEventId == 0 || pEvent->nPlayer > 0) {
    return rc;
  }
  rc = tb_id_other_form(pReader->db, pEventId, &pOther);
  if (rc == SQLITE_OK && pOther) {
    tb_event_free(pEvent);
    tb_event_init(pEvent);
    rc = tb_reader_event(pReader, pOther, pKey, pEvent, pzErr);
  }
  sqlite3_value_free(pOther);
  return rc;
}

/*
** The probe's statement.  SQLite calls the progress handler every N virtual
** machine steps, counted across the probe's runs: "SELECT 1" runs 4 a step,
** so a handler of N = 1000 heard from the computation once in 250 probe
** steps, 256,000 units of work, up to a few hundred milliseconds of exact
** arithmetic or scattered reads.  This one runs about 64 cheap steps (a
** comparison and a jump per WHEN), the handler about every 16 probe steps.
*/
#define TB_PROBE_SQL                                                         \
  "SELECT CASE 0 WHEN 1 THEN 1 WHEN 2 THEN 2 WHEN 3 THEN 3 WHEN 4 THEN 4 "   \
  "WHEN 5 THEN 5 WHEN 6 THEN 6 WHEN 7 THEN 7 WHEN 8 THEN 8 WHEN 9 THEN 9 "    \
  "WHEN 10 THEN 10 WHEN 11 THEN 11 WHEN 12 THEN 12 WHEN 13 THEN 13 "          \
  "WHEN 14 THEN 14 WHEN 15 THEN 15 WHEN 16 THEN 16 WHEN 17 THEN 17 "          \
  "WHEN 18 THEN 18 WHEN 19 THEN 19 WHEN 20 THEN 20 WHEN 21 THEN 21 "          \
  "WHEN 22 THEN 22 WHEN 23 THEN 23 WHEN 24 THEN 24 WHEN 25 THEN 25 "          \
  "WHEN 26 THEN 26 WHEN 27 THEN 27 WHEN 28 THEN 28 WHEN 29 THEN 29 "          \
  "WHEN 30 THEN 30 WHEN 31 THEN 31 ELSE 1 END"

/* The probe's slow path: step it (see TbProbe). */
int tb_probe_step(TbProbe *p) {
  int rc;
  p->nWork = 0;
  if (p->rc != SQLITE_OK || p->bOff) return p->rc;
  if (p->pStmt == 0) {
    rc = sqlite3_prepare_v2(p->db, TB_PROBE_SQL, -1, &p->pStmt, 0);
    if (rc == SQLITE_NOMEM || rc == SQLITE_INTERRUPT) return p->rc = rc;
    /* refused (an authorizer): compute on, as before there were probes */
    if (rc != SQLITE_OK) {
      p->bOff = 1;
      return SQLITE_OK;
    }
  }
  rc = sqlite3_step(p->pStmt);
  sqlite3_reset(p->pStmt);
  if (rc != SQLITE_ROW) p->rc = rc == SQLITE_DONE ? SQLITE_ERROR : rc;
  return p->rc;
}

void tb_probe_close(TbProbe *p) {
  sqlite3_finalize(p->pStmt);
  p->pStmt = 0;
  p->nWork = 0;
  p->rc = SQLITE_OK;
  p->bOff = 0;
}

/*
** With a day-2 cut (cut_after=N) and rounds after it: the event as of
** round N, whose values the players cut there keep (rank.c), their
** opponents' records as of N too.
*/
static int cut_event(TbEvent *pEvent, const TbParams *pParams, char **pzErr) {
  i64 nCut = tb_cut_round(pEvent, pParams);
  if (nCut <= 0 || pEvent->iLastRound <= nCut) return SQLITE_OK;
  pEvent->pCut = sqlite3_malloc64(sizeof(TbEvent));
  if (pEvent->pCut == 0) return SQLITE_NOMEM;
  tb_event_init(pEvent->pCut);
  pEvent->pCut->pWhole = pEvent;
  return tb_event_as_of(pEvent, (int)nCut, pParams, pEvent->pCut, pzErr);
}

/*
** A chess policy that no option made a Swiss or a round robin
** (bRoundRobin < 0): the event's pairings decide (tb_event_round_robin),
** in *pCopy, which the policy then points to.
*/
static int resolve_round_robin(const TbEvent *pEvent, const TbPolicy **ppPolicy,
                               TbPolicy *pCopy) {
  int k, bRoundRobin, rc;
  if ((*ppPolicy)->params.bRoundRobin >= 0) return SQLITE_OK;
  rc = tb_event_round_robin(pEvent, &bRoundRobin);
  if (rc != SQLITE_OK) return rc;
  *pCopy = **ppPolicy;
  pCopy->params.bRoundRobin = bRoundRobin;
  for (k = 0; k < pCopy->nTiebreaker; k++) {
    pCopy->aParams[k].bRoundRobin = bRoundRobin;
  }
  *ppPolicy = pCopy;
  return SQLITE_OK;
}

/* One event through an open reader (tb_reader_event names it). */
int tb_compute_event(TbConn *pConn, TbReader *pReader, sqlite3_value *pEventId,
                     const TbKey *pKey, const TbPolicy *pPolicy, int bLazy,
                     TbEvent *pEvent, TbStandings *pStandings, char **pzErr) {
  TbPolicy resolved;
  int rc = tb_enter(pConn, pzErr);
  if (rc != SQLITE_OK) return rc;
  pEvent->pProbe = &pReader->probe;
  rc = read_event(pReader, pEventId, pKey, pEvent, pzErr);
  tb_leave(pConn);
  if (rc == SQLITE_OK) tb_event_fit_players(pEvent); /* all are read */
  if (pEvent->bDropHash) {
    sqlite3_free(pEvent->aHash); /* 16 bytes a slot, 2 slots a player at most */
    pEvent->aHash = 0;
    pEvent->nHash = 0;
  }
  if (rc == SQLITE_OK) rc = tb_playoff_split(pEvent, &pPolicy->params, pzErr);
  /* the cut's event from the rows, before scoring frees them */
  if (rc == SQLITE_OK) rc = cut_event(pEvent, &pPolicy->params, pzErr);
  if (rc == SQLITE_OK) rc = tb_event_score(pEvent, &pPolicy->params, pzErr);
  if (rc == SQLITE_OK) rc = resolve_round_robin(pEvent, &pPolicy, &resolved);
  if (rc == SQLITE_OK) {
    tb_event_drop_matches(pEvent); /* ranking reads the seats */
    pEvent->pTerms = tb_terms_new(); /* NULL: terms computed as needed */
    if (pEvent->pCut) pEvent->pCut->pTerms = tb_terms_new();
    rc = tb_rank(pEvent, pPolicy, bLazy, pStandings, pzErr);
    /* values left pending are computed from the same terms when read */
    if (rc != SQLITE_OK || !bLazy) tb_compute_release(pEvent);
  }
  if (rc == SQLITE_OK && (rc = tb_playoff_order(pEvent, pPolicy, pStandings))) {
    tb_standings_free(pStandings); /* as tb_rank() leaves it on errors */
  }
  /* an interrupt met by the probe, and no message yet */
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && *pzErr == 0) {
    *pzErr = sqlite3_mprintf("%s", sqlite3_errstr(rc));
    if (*pzErr == 0) rc = SQLITE_NOMEM;
  }
  pEvent->pProbe = 0; /* the event may outlive the reader (scalars.c) */
  if (pEvent->pCut) pEvent->pCut->pProbe = 0;
  return rc;
}

/* Free the terms kept for computing the event's values (tb_rank). */
void tb_compute_release(TbEvent *pEvent) {
  tb_terms_free(pEvent->pTerms);
  pEvent->pTerms = 0;
  if (pEvent->pCut) {
    tb_terms_free(pEvent->pCut->pTerms);
    pEvent->pCut->pTerms = 0;
  }
}

/* One event, pSrc->pEvent, with a reader of its own. */
int tb_compute(TbConn *pConn, sqlite3 *db, const TbSource *pSrc,
               const TbPolicy *pPolicy, TbEvent *pEvent,
               TbStandings *pStandings, char **pzErr) {
  TbReader reader;
  int rc = tb_enter(pConn, pzErr);
  if (rc != SQLITE_OK) return rc;
  tb_reader_init(&reader, db);
  rc = tb_reader_open(&reader, pSrc,
                      tb_policy_needs(pPolicy) & TB_NEEDS_RATINGS, pzErr);
  tb_leave(pConn);
  if (rc == SQLITE_OK) {
    rc = tb_compute_event(pConn, &reader, pSrc->pEvent, 0, pPolicy, 0, pEvent,
                          pStandings, pzErr);
    /* a fault of the event's data names it, as standings() does */
    if (rc == SQLITE_ERROR && *pzErr) {
      rc = tb_name_event_value(pSrc->pEvent, rc, pzErr);
    }
  }
  tb_reader_close(&reader);
  return rc;
}
