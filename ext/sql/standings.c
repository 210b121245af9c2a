/*
** sql/standings.c: the standings() table-valued function.
**
**   SELECT rank, player, match_points, omwp, gwp, ogwp, decided_by
**     FROM standings(1, 'mtg');                 -- event 1, MTR Appendix C
**
**   SELECT * FROM standings(1, 'mtg', '1/3');   -- floor 1/3 (Melee.gg)
**
**   SELECT * FROM standings                     -- arguments by name
**    WHERE event_id = 'GP-2026' AND policy = 'mtg'
**      AND as_of_round = 3 AND matches_table = 'results';
**
** Arguments are hidden columns, in this order (positional arguments fill
** them left to right):
**
**   event_id       optional  the event whose matches are read; without
**                            it, every event (event_id = the row's event)
**   policy         required  'mtg' or 'mtg(floor=1/3, game_draw_points=0)'
**   floor          optional  overrides the policy's floor: 0.33, '1/3'
**   as_of_round    optional  standings after that round
**   matches_table  optional  default 'matches'
**   games_table    optional  default 'games' (skipped if absent; '' = none)
**   players_table  optional  default 'players': registrations (players
**                            with no rows, name, division, rating, status,
**                            dropped_after; docs/registrations.md); the
**                            default table is skipped if absent
**   on_error       optional  'stop' (default) or 'skip' (every event)
**   ratings_table  optional  the old name of players_table
**
** NULL in an optional argument means its default.  xFilter reads the rows
** (of every event: kept compactly) and computes the first event; without an
** event argument xNext computes each next event from its kept rows, reading
** only its games and ratings.  A tiebreaker is computed for a player when
** the ranking needs it, and for everyone when xColumn first reads its column
** (from the event kept meanwhile).  Inner statements are reset before
** xFilter, xNext or xColumn returns.
*/
#include "../tiebreak_int.h"

#include <math.h>
#include <string.h>

/* Columns of the player's record, in schema order. */
enum {
  COL_RANK, COL_PLAYER, COL_MATCH_POINTS, COL_WINS, COL_LOSSES, COL_DRAWS,
  COL_BYES, COL_ROUNDS, COL_GAME_WINS, COL_GAME_LOSSES, COL_GAME_DRAWS,
  COL_GAME_POINTS, COL_GAMES, N_RECORD_COL
};
static const char *azRecordCol[N_RECORD_COL] = {
  "rank", "player", "match_points", "wins", "losses", "draws", "byes",
  "rounds", "game_wins", "game_losses", "game_draws", "game_points", "games"};

/* After the record: one REAL column per tiebreaker not already above,
** then these, then the hidden arguments. */
static const char *azTailCol[] = {"dropped", "decided_by", "name", "division",
                                  "status", "swiss_rank"};
#define N_TAIL_COL 6
enum { TAIL_DROPPED, TAIL_DECIDED_BY, TAIL_NAME, TAIL_DIVISION, TAIL_STATUS,
       TAIL_SWISS_RANK };

/* Room for the visible columns: the record, every tiebreaker, the tail. */
#define TB_MAX_COLUMNS 128

enum { ARG_EVENT, ARG_POLICY, ARG_FLOOR, ARG_ROUND, ARG_MATCHES, ARG_GAMES,
       ARG_PLAYERS, ARG_ON_ERROR, ARG_RATINGS, N_ARG };
static const char *azArg[N_ARG] = {"event_id", "policy", "floor", "as_of_round",
                                   "matches_table", "games_table",
                                   "players_table", "on_error",
                                   "ratings_table"};
#define ARGS_REQUIRED (1 << ARG_POLICY)

typedef struct StandingsVtab {
  sqlite3_vtab base;
  sqlite3 *db;
  TbConn *pConn;
  int nCol;                   /* visible columns */
  int iFirstArg;              /* column of the first hidden argument */
  int iFirstTail;             /* column of the first of azTailCol */
  int aColTb[TB_MAX_COLUMNS];   /* column -> tiebreaker index, -1 */
} StandingsVtab;

/* The standings of one event, as the cursor walks them; or, with
** on_error='skip', why it has none (one row, only event_id and error). */
typedef struct EventResult {
  int iEvent;                   /* index in the cursor's set, or -1 */
  TbEvent event;
  TbStandings standings;
  int bFilled;                  /* no value is pending any more */
  char *zError;
} EventResult;

typedef struct StandingsCursor {
  sqlite3_vtab_cursor base;
  EventResult res;              /* the event whose rows are walked */
  int iRow;                     /* current row of res, or past its end */
  int bEof;
  int bSkip;                    /* on_error='skip': a bad event is a row */
  /*
  ** Without an event argument: every event's rows, read in xFilter; each
  ** event is computed when the walk reaches it (in xNext, order of ids)
  ** and freed when it leaves, so memory holds one event at a time.
  */
  TbEventSet set;
  int iOrder;                   /* next event of set.aOrder to compute */
  sqlite3_value *apArg[N_ARG];  /* argument values, returned by xColumn */
  TbSource src;                 /* parsed from apArg */
  TbPolicy policy;
  /*
  ** Kept from one xFilter to the next, for a join that calls standings()
  ** once per event: checked again every time, reset before xFilter or
  ** xNext returns, finalized by xClose.  Not kept in the table, whose
  ** xDisconnect SQLite before 3.41 runs only after sqlite3_close() has
  ** found the statements still open.
  */
  TbReader reader;
} StandingsCursor;

/* Set the error message, prefixed with the function name once. */
static int vtab_error(sqlite3_vtab *pVtab, int rc, char *zMsg) {
  static const char zPrefix[] = "standings(): ";
  sqlite3_free(pVtab->zErrMsg);
  if (zMsg == 0) return SQLITE_NOMEM;
  pVtab->zErrMsg = strncmp(zMsg, zPrefix, sizeof(zPrefix) - 1) == 0
                       ? sqlite3_mprintf("%s", zMsg)
                       : sqlite3_mprintf("%s%s", zPrefix, zMsg);
  sqlite3_free(zMsg);
  return pVtab->zErrMsg ? rc : SQLITE_NOMEM;
}

/* ------------------------------------------------------------- connect */

static int standingsConnect(sqlite3 *db, void *pAux, int argc,
                            const char *const *argv, sqlite3_vtab **ppVtab,
                            char **pzErr) {
  StandingsVtab *pNew;
  sqlite3_str *pSql = sqlite3_str_new(db);
  char *zSql;
  int i, iCol, rc;
  (void)argc;
  (void)argv;

  if (N_RECORD_COL + tb_nTiebreaker + N_TAIL_COL > TB_MAX_COLUMNS) {
    *pzErr = sqlite3_mprintf("standings(): more than %d columns",
                             TB_MAX_COLUMNS);
    sqlite3_free(sqlite3_str_finish(pSql));
    return SQLITE_ERROR;
  }
  pNew = sqlite3_malloc64(sizeof(*pNew));
  if (pNew == 0) {
    sqlite3_free(sqlite3_str_finish(pSql));
    return SQLITE_NOMEM;
  }
  memset(pNew, 0, sizeof(*pNew));
  for (i = 0; i < (int)(sizeof(pNew->aColTb) / sizeof(int)); i++) pNew->aColTb[i] = -1;

  sqlite3_str_appendall(pSql, "CREATE TABLE x(");
  for (iCol = 0; iCol < N_RECORD_COL; iCol++) {
    sqlite3_str_appendf(pSql, "%s%s", iCol ? "," : "", azRecordCol[iCol]);
  }
  for (i = 0; i < tb_nTiebreaker; i++) {
    if (strcmp(tb_aTiebreaker[i].zName, "match_points") == 0) continue;
    sqlite3_str_appendf(pSql, ",%s", tb_aTiebreaker[i].zName);
    pNew->aColTb[iCol++] = i;
  }
  pNew->iFirstTail = iCol;
  for (i = 0; i < N_TAIL_COL; i++) {
    sqlite3_str_appendf(pSql, ",%s", azTailCol[i]);
    iCol++;
  }
  pNew->nCol = iCol;
  pNew->iFirstArg = iCol;
  /* BLOB: no affinity, as the visible columns (a type of just HIDDEN would
  ** be NUMERIC), so that a comparison SQLite makes itself (event_id IS NOT
  ** 1) tells the text '1' from 1 as the arguments do */
  for (i = 0; i < N_ARG; i++) {
    sqlite3_str_appendf(pSql, ",%s BLOB HIDDEN", azArg[i]);
  }
  sqlite3_str_appendall(pSql, ",error HIDDEN)");
  zSql = sqlite3_str_finish(pSql);
  if (zSql == 0) {
    sqlite3_free(pNew);
    return SQLITE_NOMEM;
  }
  rc = sqlite3_declare_vtab(db, zSql);
  sqlite3_free(zSql);
  if (rc != SQLITE_OK) {
    sqlite3_free(pNew);
    return rc;
  }
  pNew->db = db;
  pNew->pConn = (TbConn *)pAux;
  *ppVtab = &pNew->base;
  return SQLITE_OK;
}

static int standingsDisconnect(sqlite3_vtab *pVtab) {
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

/* ---------------------------------------------------------- best index */

/*
** Arguments are equality constraints on the hidden columns (= or IS, the
** same: left to SQLite, IS would compare under the column's affinity, so
** that event_id IS 1 would also take the text event '1').  idxNum is a
** bitmask of the arguments present (bit i = azArg[i]); xFilter receives
** them in argv in that bit order.
**
**   required argument absent           -> SQLITE_ERROR with a message
**                                         (else "no query solution")
**   any argument present but unusable  -> SQLITE_CONSTRAINT, so that the
**                                         planner puts its source first
*/
/* The columns iFirstArg .. iFirstArg + nArg - 1 are the arguments. */
typedef struct ArgColumns {
  int iFirstArg, nArg;
} ArgColumns;

static int arg_of_column(const void *pCtx, int iColumn) {
  const ArgColumns *p = (const ArgColumns *)pCtx;
  int iArg = iColumn - p->iFirstArg;
  return iArg >= 0 && iArg < p->nArg ? iArg : -1;
}

int tb_args_best_index(sqlite3_index_info *pInfo, int iFirstArg, int nArg,
                       int mRequired) {
  ArgColumns cols;
  int aIdx[32];
  int seen, usable;

  cols.iFirstArg = iFirstArg;
  cols.nArg = nArg;
  tb_args_scan(pInfo, arg_of_column, &cols, nArg, aIdx, &seen, &usable);
  if ((seen & mRequired) != mRequired) {
    /*
    ** No argument at all but other constraints: SQLite may be planning one
    ** branch of an OR (WHERE wins = 1 OR losses = 1), which it asks about
    ** alone.  Refusing that plan leaves the plan with the arguments.
    */
    if (seen == 0 && pInfo->nConstraint > 0) return SQLITE_CONSTRAINT;
    return SQLITE_ERROR;
  }
  if (seen & ~usable) return SQLITE_CONSTRAINT;
  tb_args_use(pInfo, aIdx, nArg);
  pInfo->idxNum = usable;
  return SQLITE_OK;
}

static int standingsBestIndex(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo) {
  StandingsVtab *pTab = (StandingsVtab *)pVtab;
  int rc = tb_args_best_index(pInfo, pTab->iFirstArg, N_ARG, ARGS_REQUIRED);
  if (rc == SQLITE_ERROR) {
    return vtab_error(pVtab, SQLITE_ERROR,
                      sqlite3_mprintf("the policy argument is required, e.g. "
                                      "standings(1, 'mtg') or WHERE policy = "
                                      "'mtg' for every event"));
  }
  if (rc != SQLITE_OK) return rc;
  /* every event costs more than one */
  pInfo->estimatedCost = (pInfo->idxNum & (1 << ARG_EVENT)) ? 1000.0 : 1e6;
  pInfo->estimatedRows = (pInfo->idxNum & (1 << ARG_EVENT)) ? 100 : 100000;
  return SQLITE_OK;
}

/* -------------------------------------------------------------- cursor */

static int standingsOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor) {
  StandingsCursor *pCur = sqlite3_malloc64(sizeof(*pCur));
  if (pCur == 0) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  tb_reader_init(&pCur->reader, ((StandingsVtab *)pVtab)->db);
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

static void result_free(EventResult *p) {
  tb_standings_free(&p->standings);
  tb_compute_release(&p->event);
  tb_event_free(&p->event);
  sqlite3_free(p->zError);
  memset(p, 0, sizeof(*p));
  p->iEvent = -1;
}

static void cursor_reset(StandingsCursor *pCur) {
  int i;
  result_free(&pCur->res);
  tb_event_set_free(&pCur->set);
  for (i = 0; i < N_ARG; i++) {
    sqlite3_value_free(pCur->apArg[i]);
    pCur->apArg[i] = 0;
  }
  pCur->iOrder = pCur->iRow = 0;
  pCur->bEof = 1;
  pCur->bSkip = 0;
}

/* The rows of a result: its players, or the one row of its error. */
static int result_rows(const EventResult *p) {
  return p->zError ? 1 : p->standings.nPlayer;
}

/*
** Compute the result of the event argument (iEvent < 0), or of event
** iEvent of the set, built from the rows read.
*/
static int compute_result(StandingsCursor *pCur, TbConn *pConn, int iEvent,
                          char **pzErr) {
  EventResult *p = &pCur->res;
  TbKey key;
  int rc = SQLITE_OK;
  memset(&key, 0, sizeof(key));
  result_free(p);
  p->iEvent = iEvent;
  if (iEvent >= 0) {
    tb_event_set_key(&pCur->set, iEvent, &key);
    rc = tb_event_set_build(&pCur->set, iEvent, &p->event);
  }
  if (rc == SQLITE_OK) {
    p->event.bDropHash = 1; /* rows name players by index from here on */
    rc = tb_compute_event(pConn, &pCur->reader,
                          iEvent >= 0 ? 0 : pCur->src.pEvent, &key,
                          &pCur->policy, 1, &p->event, &p->standings, pzErr);
  }
  /* kept whole while values are pending: xColumn computes them */
  if (rc != SQLITE_OK || p->standings.aParams == 0) {
    tb_compute_release(&p->event);
    tb_event_trim(&p->event);
  }
  if (rc == SQLITE_ERROR && pCur->bSkip && *pzErr) {
    /* a fault of this event's data: kept as its row, the others go on */
    tb_standings_free(&p->standings);
    memset(&p->standings, 0, sizeof(p->standings));
    tb_event_free(&p->event);
    p->zError = *pzErr;
    *pzErr = 0;
    rc = SQLITE_OK;
  } else if (rc == SQLITE_ERROR && *pzErr) {
    /* which event, as pairings() and the scalars say it */
    rc = iEvent >= 0 ? tb_name_event(&key, pzErr)
                     : tb_name_event_value(pCur->src.pEvent, rc, pzErr);
  }
  return rc;
}

/*
** Open the cursor's reader on the tables of the arguments: for xFilter, and
** again in xNext for the games and ratings of the next event (a reader of
** the same tables only binds as_of_round again).  Entered first: a call
** from within the tables it reads stops here, while that reader is in use.
*/
static int open_reader(StandingsCursor *pCur, TbConn *pConn, char **pzErr) {
  int rc = tb_enter(pConn, pzErr);
  if (rc != SQLITE_OK) return rc;
  rc = tb_reader_open(&pCur->reader, &pCur->src,
                      tb_policy_needs(&pCur->policy) & TB_NEEDS_RATINGS, pzErr);
  if (rc == SQLITE_OK && pCur->src.pEvent == 0) {
    rc = tb_reader_all(&pCur->reader, &pCur->set, pzErr);
  }
  tb_leave(pConn);
  return rc;
}

/*
** Move to a row: past the end of an event, compute the next event of the
** set (events without rows are skipped) or reach the end.
*/
static int cursor_settle(StandingsCursor *pCur, TbConn *pConn, char **pzErr) {
  int rc = SQLITE_OK;
  while (rc == SQLITE_OK && pCur->iRow >= result_rows(&pCur->res)) {
    if (pCur->src.pEvent || pCur->iOrder >= pCur->set.nEvent) {
      result_free(&pCur->res);
      tb_event_set_free(&pCur->set);
      pCur->bEof = 1;
      return SQLITE_OK;
    }
    if (pCur->iOrder > 0) { /* the reader is open already: bind again */
      rc = tb_enter(pConn, pzErr);
      if (rc == SQLITE_OK) {
        rc = tb_reader_open(&pCur->reader, &pCur->src,
                            tb_policy_needs(&pCur->policy) & TB_NEEDS_RATINGS,
                            pzErr);
        tb_leave(pConn);
      }
    }
    if (rc == SQLITE_OK) {
      rc = compute_result(pCur, pConn, pCur->set.aOrder[pCur->iOrder++], pzErr);
    }
    pCur->iRow = 0;
  }
  return rc;
}

static int standingsClose(sqlite3_vtab_cursor *cur) {
  cursor_reset((StandingsCursor *)cur);
  tb_reader_close(&((StandingsCursor *)cur)->reader);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* A text argument, or NULL for the default; other types are an error. */
static int text_arg(sqlite3_value *v, const char *zArg, const char **pz,
                    char **pzErr) {
  *pz = 0;
  if (v == 0 || sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    *pzErr = sqlite3_mprintf("%s must be text", zArg);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  return tb_value_text(v, zArg, pz, pzErr);
}

/* on_error: NULL or 'stop' (0), 'skip' (1). */
static int on_error_arg(sqlite3_value *v, int *pbSkip, char **pzErr) {
  const char *z = 0;
  int rc = text_arg(v, "on_error", &z, pzErr);
  *pbSkip = 0;
  if (rc != SQLITE_OK || z == 0 || strcmp(z, "stop") == 0) return rc;
  if (strcmp(z, "skip") == 0) {
    *pbSkip = 1;
    return SQLITE_OK;
  }
  *pzErr = sqlite3_mprintf("on_error must be 'stop' or 'skip', got %Q", z);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/*
** players_table, or ratings_table, its old name: either, or both naming
** the same table.
*/
static int players_arg(sqlite3_value **apArg, const char **pz, char **pzErr) {
  const char *zOld = 0;
  int rc = text_arg(apArg[ARG_PLAYERS], "players_table", pz, pzErr);
  if (rc == SQLITE_OK) {
    rc = text_arg(apArg[ARG_RATINGS], "ratings_table", &zOld, pzErr);
  }
  if (rc != SQLITE_OK || zOld == 0) return rc;
  if (*pz && strcmp(*pz, zOld) != 0) {
    *pzErr = sqlite3_mprintf("players_table %Q and ratings_table %Q differ "
                             "(ratings_table is the old name of "
                             "players_table)", *pz, zOld);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  *pz = zOld;
  return SQLITE_OK;
}

/* Turn the arguments into what to read and how to rank. */
static int parse_args(sqlite3_value **apArg, TbSource *pSrc, TbPolicy *pPolicy,
                      char **pzErr) {
  sqlite3_value *pEvent = apArg[ARG_EVENT], *pPol = apArg[ARG_POLICY];
  const char *zPolicy;
  int rc;

  memset(pSrc, 0, sizeof(*pSrc));
  /* absent: every event of the table */
  if (pEvent && (rc = tb_event_id_check(pEvent, pzErr)) != SQLITE_OK) return rc;
  if (sqlite3_value_type(pPol) == SQLITE_NULL) {
    *pzErr = sqlite3_mprintf("policy is NULL");
  } else if (sqlite3_value_type(pPol) != SQLITE_TEXT) {
    *pzErr = sqlite3_mprintf("policy must be text, e.g. 'mtg'");
  } else {
    goto args_ok;
  }
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;

args_ok:
  pSrc->pEvent = pEvent;
  if ((rc = tb_value_text(pPol, "policy", &zPolicy, pzErr)) != SQLITE_OK) {
    return rc;
  }
  if ((rc = tb_policy_parse(zPolicy, pPolicy, pzErr)) != SQLITE_OK) return rc;
  if (apArg[ARG_FLOOR] && sqlite3_value_type(apArg[ARG_FLOOR]) != SQLITE_NULL) {
    TbFrac floor;
    rc = tb_floor_from_value(apArg[ARG_FLOOR], &floor, pzErr);
    if (rc != SQLITE_OK) return rc;
    tb_policy_set_floor(pPolicy, &floor);
  }
  if (apArg[ARG_ROUND] && sqlite3_value_type(apArg[ARG_ROUND]) != SQLITE_NULL) {
    i64 r = 0;
    if (!tb_value_whole(apArg[ARG_ROUND], &r, &rc) || r < 1) {
      if (rc != SQLITE_OK) return rc;
      *pzErr = sqlite3_mprintf("as_of_round must be a positive integer");
      return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    pSrc->iAsOfRound = r;
  }
  rc = text_arg(apArg[ARG_MATCHES], "matches_table", &pSrc->zMatches, pzErr);
  if (rc == SQLITE_OK) {
    rc = text_arg(apArg[ARG_GAMES], "games_table", &pSrc->zGames, pzErr);
  }
  if (rc == SQLITE_OK) rc = players_arg(apArg, &pSrc->zPlayers, pzErr);
  if (rc == SQLITE_OK && pSrc->zMatches == 0) pSrc->zMatches = "matches";
  return rc;
}

/* An error of xFilter or xNext: the cursor ends, the message is set. */
static int cursor_error(StandingsCursor *pCur, int rc, char *zErr) {
  cursor_reset(pCur);
  if (zErr) return vtab_error(pCur->base.pVtab, rc, zErr);
  return rc;
}

static int standingsFilter(sqlite3_vtab_cursor *cur, int idxNum,
                           const char *idxStr, int argc, sqlite3_value **argv) {
  StandingsCursor *pCur = (StandingsCursor *)cur;
  TbConn *pConn = ((StandingsVtab *)cur->pVtab)->pConn;
  char *zErr = 0;
  int i, j = 0, rc;
  (void)idxStr;

  cursor_reset(pCur);
  for (i = 0; i < N_ARG && j < argc; i++) {
    if ((idxNum & (1 << i)) == 0) continue;
    pCur->apArg[i] = sqlite3_value_dup(argv[j++]);
    if (pCur->apArg[i] == 0) return SQLITE_NOMEM;
  }
  pCur->bEof = 0;
  rc = parse_args(pCur->apArg, &pCur->src, &pCur->policy, &zErr);
  if (rc == SQLITE_OK) {
    rc = on_error_arg(pCur->apArg[ARG_ON_ERROR], &pCur->bSkip, &zErr);
  }
  if (rc == SQLITE_OK) rc = open_reader(pCur, pConn, &zErr);
  if (rc == SQLITE_OK && pCur->src.pEvent) {
    rc = compute_result(pCur, pConn, -1, &zErr);
  }
  if (rc == SQLITE_OK) rc = cursor_settle(pCur, pConn, &zErr);
  /* Kept for the next call: nothing left running, no value held. */
  tb_reader_reset(&pCur->reader);
  return rc == SQLITE_OK ? rc : cursor_error(pCur, rc, zErr);
}

static int standingsNext(sqlite3_vtab_cursor *cur) {
  StandingsCursor *pCur = (StandingsCursor *)cur;
  char *zErr = 0;
  int rc;
  pCur->iRow++;
  rc = cursor_settle(pCur, ((StandingsVtab *)cur->pVtab)->pConn, &zErr);
  tb_reader_reset(&pCur->reader);
  return rc == SQLITE_OK ? rc : cursor_error(pCur, rc, zErr);
}

static int standingsEof(sqlite3_vtab_cursor *cur) {
  return ((StandingsCursor *)cur)->bEof;
}

static int standingsRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  *pRowid = ((StandingsCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

/* Points counted in units of 1/scale: INTEGER when whole units. */
static void result_points(sqlite3_context *ctx, i64 n, i64 nScale) {
  if (nScale == 1) {
    sqlite3_result_int64(ctx, n);
  } else {
    sqlite3_result_double(ctx, (double)n / (double)nScale);
  }
}

static void result_key(sqlite3_context *ctx, const TbKey *k) {
  if (k->eType == SQLITE_INTEGER) {
    sqlite3_result_int64(ctx, k->i);
  } else {
    sqlite3_result_text(ctx, k->z, k->n, SQLITE_TRANSIENT);
  }
}

/* The id of an event of the set, of the type read (a whole REAL stays one). */
static void result_event_id(sqlite3_context *ctx, const TbEventSet *pSet,
                            int iEvent) {
  TbKey k;
  tb_event_set_key(pSet, iEvent, &k);
  if (pSet->aEvent[iEvent].bReal) {
    sqlite3_result_double(ctx, (double)k.i);
  } else {
    result_key(ctx, &k);
  }
}

/* A column of azTailCol for row iRow of the standings. */
static void tail_column(sqlite3_context *ctx, const TbEvent *e,
                        const TbStandings *s, int iRow, int iTail) {
  static const char *azStatus[] = {0, "active", "dropped", "disqualified"};
  int iPlayer = s->aOrder[iRow];
  const TbReg *pReg = e->aReg ? &e->aReg[iPlayer] : 0;
  switch (iTail) {
    case TAIL_DROPPED:
      sqlite3_result_int(ctx, tb_dropped(e, iPlayer));
      break;
    case TAIL_DECIDED_BY:
      if (s->aDecidedBy[iRow]) {
        sqlite3_result_text(ctx, s->aDecidedBy[iRow]->zName, -1, SQLITE_STATIC);
      }
      break;
    case TAIL_NAME:
      if (pReg && pReg->bName) {
        sqlite3_result_text(ctx, e->aRegText + pReg->iName, pReg->nName,
                            SQLITE_TRANSIENT);
      }
      break;
    case TAIL_DIVISION:
      if (pReg && pReg->bDiv) {
        sqlite3_result_text(ctx, e->aRegText + pReg->iDiv, pReg->nDiv,
                            SQLITE_TRANSIENT);
      }
      break;
    case TAIL_STATUS:
      if (pReg && azStatus[pReg->eStatus]) {
        sqlite3_result_text(ctx, azStatus[pReg->eStatus], -1, SQLITE_STATIC);
      }
      break;
    case TAIL_SWISS_RANK: {
      /* with a playoff, rank is the final place; else the two agree.  0:
      ** no place (disqualified), NULL as rank is */
      int iRank = s->aSwissRank ? s->aSwissRank[iRow] : s->aRank[iRow];
      if (iRank) sqlite3_result_int(ctx, iRank);
      break;
    }
  }
}

/*
** A value no comparison needed is computed when the statement first reads
** one, with every other such value (tb_standings_fill): interruptible
** through the reader's probe, as the ranking was.
*/
static int pending_column(StandingsCursor *pCur, int iPlayer, int iTiebreaker) {
  EventResult *pRes = &pCur->res;
  int h, rc;
  if (pRes->bFilled) return SQLITE_OK;
  h = tb_standings_column(&pRes->standings, iTiebreaker);
  if (h < 0 || !tb_standings_pending(&pRes->standings, iPlayer, h)) return SQLITE_OK;
  pRes->event.pProbe = &pCur->reader.probe;
  if (pRes->event.pCut) pRes->event.pCut->pProbe = &pCur->reader.probe;
  rc = tb_standings_fill(&pRes->standings, &pRes->event);
  pRes->bFilled = rc == SQLITE_OK;
  pRes->event.pProbe = 0;
  if (pRes->event.pCut) pRes->event.pCut->pProbe = 0;
  tb_reader_reset(&pCur->reader);
  return rc;
}

static int standingsColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                           int iCol) {
  StandingsCursor *pCur = (StandingsCursor *)cur;
  StandingsVtab *pTab = (StandingsVtab *)cur->pVtab;
  const EventResult *pRes = &pCur->res;
  const TbStandings *s = &pRes->standings;
  int iPlayer;
  const TbPlayer *pl;
  const TbRecord *r;

  if (iCol == pTab->iFirstArg + N_ARG) { /* error */
    if (pRes->zError) sqlite3_result_text(ctx, pRes->zError, -1, SQLITE_TRANSIENT);
    return SQLITE_OK;
  }
  if (iCol >= pTab->iFirstArg) {
    sqlite3_value *v = pCur->apArg[iCol - pTab->iFirstArg];
    if (iCol - pTab->iFirstArg == ARG_EVENT && pRes->iEvent >= 0) {
      result_event_id(ctx, &pCur->set, pRes->iEvent);
    } else if (v) {
      sqlite3_result_value(ctx, v);
    }
    return SQLITE_OK;
  }
  if (pRes->zError) return SQLITE_OK; /* a failed event's row: NULLs */
  iPlayer = s->aOrder[pCur->iRow];
  pl = &pRes->event.aPlayer[iPlayer];
  r = &pl->rec;
  switch (iCol) {
    case COL_RANK:
      if (s->aRank[pCur->iRow]) sqlite3_result_int(ctx, s->aRank[pCur->iRow]);
      return SQLITE_OK;
    case COL_PLAYER: result_key(ctx, &pl->key); return SQLITE_OK;
    case COL_MATCH_POINTS:
      result_points(ctx, r->nMatchPoints, s->nPointScale);
      return SQLITE_OK;
    case COL_WINS: sqlite3_result_int(ctx, r->nWin); return SQLITE_OK;
    case COL_LOSSES: sqlite3_result_int(ctx, r->nLoss); return SQLITE_OK;
    case COL_DRAWS: sqlite3_result_int(ctx, r->nDraw); return SQLITE_OK;
    case COL_BYES: sqlite3_result_int(ctx, r->nBye); return SQLITE_OK;
    case COL_ROUNDS: sqlite3_result_int(ctx, r->nRound); return SQLITE_OK;
    case COL_GAME_WINS: sqlite3_result_int64(ctx, r->nGW); return SQLITE_OK;
    case COL_GAME_LOSSES: sqlite3_result_int64(ctx, r->nGL); return SQLITE_OK;
    case COL_GAME_DRAWS: sqlite3_result_int64(ctx, r->nGD); return SQLITE_OK;
    case COL_GAME_POINTS: sqlite3_result_int64(ctx, r->nGamePoints); return SQLITE_OK;
    case COL_GAMES: sqlite3_result_int64(ctx, r->nGame); return SQLITE_OK;
  }
  if (iCol >= pTab->iFirstTail) {
    tail_column(ctx, &pRes->event, s, pCur->iRow, iCol - pTab->iFirstTail);
  } else if (pTab->aColTb[iCol] >= 0) {
    const TbTiebreaker *t = &tb_aTiebreaker[pTab->aColTb[iCol]];
    double r;
    int rc = pending_column(pCur, iPlayer, pTab->aColTb[iCol]);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return rc;
    }
    if (!tb_standings_value(s, iPlayer, pTab->aColTb[iCol], &r)) return SQLITE_OK;
    /* a whole number is INTEGER while a double holds it exactly; past 2^53
    ** (hct_t3 of losses in rounds past 10^8) it is the nearest double */
    if ((t->eType == TB_INTEGER || (t->eType == TB_POINTS && s->nPointScale == 1)) &&
        r > -9007199254740992.0 && r < 9007199254740992.0) {
      sqlite3_result_int64(ctx, (i64)llround(r));
    } else {
      sqlite3_result_double(ctx, r);
    }
  }
  return SQLITE_OK;
}

static sqlite3_module standingsModule = {
  .iVersion = 0,
  .xCreate = 0, /* eponymous only: CREATE VIRTUAL TABLE is refused */
  .xConnect = standingsConnect,
  .xBestIndex = standingsBestIndex,
  .xDisconnect = standingsDisconnect,
  .xDestroy = 0,
  .xOpen = standingsOpen,
  .xClose = standingsClose,
  .xFilter = standingsFilter,
  .xNext = standingsNext,
  .xEof = standingsEof,
  .xColumn = standingsColumn,
  .xRowid = standingsRowid,
};

/*
** Neither SQLITE_VTAB_INNOCUOUS nor SQLITE_VTAB_DIRECTONLY.  standings()
** reads tables named by its arguments, so a hostile database's views or
** triggers could use it to read tables of another attached database: it is
** not innocuous, and with PRAGMA trusted_schema=OFF SQLite refuses it in
** persistent views and triggers ("unsafe use").  It has no side effects, so
** in a trusted schema (the default) it stays usable in views and triggers,
** which organizers use for standing reports; TEMP views always work.
*/
int tb_register_standings(sqlite3 *db, TbConn *pConn) {
  return sqlite3_create_module_v2(db, "standings", &standingsModule, pConn,
                                  sqlite3_free);
}
