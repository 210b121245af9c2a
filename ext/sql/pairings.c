/*
** sql/pairings.c: the pairings() and pairing_check() table-valued functions.
**
**   SELECT table_number, player_a, player_b, why
**     FROM pairings(1, 'berger');            -- the next round of event 1
**
**   INSERT INTO matches (event_id, round, player_a, player_b)
**     SELECT 1, round, player_a, player_b FROM pairings(1, 'berger');
**
**   SELECT * FROM pairing_check(1, 'berger'); -- the rounds played: problems
**
** pairings(event_id, system [, round [, matches_table [, players_table]]])
** reads the event as standings() does (the same tables, or a file reader:
** 'trf_matches' with the file's text as the event), builds the state before
** the round (pair/state.c) and runs the system (pair/systems.c).  The round
** is the one after the last round paired unless given; an earlier one is
** refused (pairing_check() checks those).  One row per table, in table
** order; player_b NULL is the pairing-allocated bye.
**
** pairing_check(event_id, system [, matches_table [, players_table]])
** yields one row per problem in the rounds played: round, player_a,
** player_b, reason.  Arguments are hidden columns, as standings()'s.
*/
#include "../pair/systems.h"

#include <string.h>

/* Which function a table serves. */
enum { KIND_PAIRINGS = 0, KIND_CHECK = 1 };

/* pairings(): visible columns, then the arguments (hidden). */
enum { COL_TABLE, COL_PLAYER_A, COL_PLAYER_B, COL_NUMBER_A, COL_NUMBER_B,
       COL_SCORE_A, COL_SCORE_B, COL_RANK_A, COL_RANK_B, COL_COLOURS_A,
       COL_COLOURS_B, COL_RESULT, COL_PHASE, COL_WHY, N_COL };
enum { ARG_EVENT, ARG_SYSTEM, ARG_ROUND, ARG_MATCHES, ARG_PLAYERS, N_ARG };
static const char zPairingsSchema[] =
    "CREATE TABLE x(table_number, player_a, player_b, number_a, number_b, "
    "score_a, score_b, rank_a, rank_b, colours_a, colours_b, result, phase, "
    "why, event_id BLOB HIDDEN, system BLOB HIDDEN, round BLOB HIDDEN, "
    "matches_table BLOB HIDDEN, players_table BLOB HIDDEN)";

/* pairing_check(): its columns, then its arguments (ARG_ROUND absent). */
enum { CHK_ROUND, CHK_PLAYER_A, CHK_PLAYER_B, CHK_REASON, N_CHK };
static const char zCheckSchema[] =
    "CREATE TABLE x(round, player_a, player_b, reason, event_id BLOB HIDDEN, "
    "system BLOB HIDDEN, matches_table BLOB HIDDEN, "
    "players_table BLOB HIDDEN)";

static const char *azFunc[] = {"pairings", "pairing_check"};

typedef struct PairVtab {
  sqlite3_vtab base;
  sqlite3 *db;
  TbConn *pConn;
  int eKind;
} PairVtab;

/* A problem pairing_check() found. */
typedef struct CheckRow {
  int iRound;
  int iA, iB;                 /* event player indexes, -1: none */
  sqlite3_value *pA;          /* or player_a as read (iA -1), or NULL */
  char *zReason;
} CheckRow;

typedef struct PairCursor {
  sqlite3_vtab_cursor base;
  sqlite3_value *apArg[N_ARG];
  TbSource src;
  TbPairSpec spec;
  TbPairBuild build;
  TbPairRound round;          /* pairings() */
  CheckRow *aCheck;           /* pairing_check() */
  int nCheck, nCheckAlloc;
  int iRow;
  TbReader reader;
} PairCursor;

/* The argument of hidden column iArg of a table of eKind, or -1. */
static int arg_of_column(int eKind, int iCol) {
  int iArg = iCol - (eKind == KIND_PAIRINGS ? N_COL : N_CHK);
  if (iArg < 0) return -1;
  if (eKind == KIND_CHECK && iArg >= ARG_ROUND) iArg++;
  return iArg < N_ARG ? iArg : -1;
}

/* Set the error message, prefixed with the function's name once. */
static int vtab_error(sqlite3_vtab *pVtab, int rc, char *zMsg) {
  const char *zFunc = azFunc[((PairVtab *)pVtab)->eKind];
  size_t n = strlen(zFunc);
  sqlite3_free(pVtab->zErrMsg);
  if (zMsg == 0) return SQLITE_NOMEM;
  pVtab->zErrMsg = strncmp(zMsg, zFunc, n) == 0 && strncmp(zMsg + n, "(): ", 4) == 0
                       ? sqlite3_mprintf("%s", zMsg)
                       : sqlite3_mprintf("%s(): %s", zFunc, zMsg);
  sqlite3_free(zMsg);
  return pVtab->zErrMsg ? rc : SQLITE_NOMEM;
}

/* ------------------------------------------------------------- connect */

/* What a module is registered with: the connection's state, which function. */
typedef struct PairAux {
  TbConn *pConn;
  int eKind;
} PairAux;

static int pairConnect(sqlite3 *db, void *pAux, int argc,
                       const char *const *argv, sqlite3_vtab **ppVtab,
                       char **pzErr) {
  const PairAux *pA = (const PairAux *)pAux;
  PairVtab *pNew;
  int rc;
  (void)argc;
  (void)argv;
  (void)pzErr;
  rc = sqlite3_declare_vtab(db, pA->eKind == KIND_PAIRINGS ? zPairingsSchema
                                                           : zCheckSchema);
  if (rc != SQLITE_OK) return rc;
  pNew = sqlite3_malloc64(sizeof(*pNew));
  if (pNew == 0) return SQLITE_NOMEM;
  memset(pNew, 0, sizeof(*pNew));
  pNew->db = db;
  pNew->pConn = pA->pConn;
  pNew->eKind = pA->eKind;
  *ppVtab = &pNew->base;
  return SQLITE_OK;
}

static int pairDisconnect(sqlite3_vtab *pVtab) {
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

/* ---------------------------------------------------------- best index */

/*
** Arguments are equality constraints on the hidden columns; idxNum is the
** bitmask of the arguments given (bit i: azArg[i]), passed in that order.
** event_id and system are required; an argument given but not usable yet
** refuses the plan (SQLITE_CONSTRAINT), as standings() does.
*/
static int arg_of_table_column(const void *pCtx, int iCol) {
  return arg_of_column(((const PairVtab *)pCtx)->eKind, iCol);
}

static int pairBestIndex(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo) {
  PairVtab *pTab = (PairVtab *)pVtab;
  int aIdx[N_ARG];
  int seen, usable;
  const int mRequired = (1 << ARG_EVENT) | (1 << ARG_SYSTEM);
  tb_args_scan(pInfo, arg_of_table_column, pTab, N_ARG, aIdx, &seen, &usable);
  if ((seen & mRequired) != mRequired) {
    if (seen == 0 && pInfo->nConstraint > 0) return SQLITE_CONSTRAINT;
    return vtab_error(pVtab, SQLITE_ERROR,
                      sqlite3_mprintf("the event_id and system arguments are "
                                      "required, e.g. %s(1, 'berger')",
                                      azFunc[pTab->eKind]));
  }
  if (seen & ~usable) return SQLITE_CONSTRAINT;
  tb_args_use(pInfo, aIdx, N_ARG);
  pInfo->idxNum = usable;
  pInfo->estimatedCost = 1000.0;
  pInfo->estimatedRows = 50;
  return SQLITE_OK;
}

/* -------------------------------------------------------------- cursor */

static int pairOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor) {
  PairCursor *pCur = sqlite3_malloc64(sizeof(*pCur));
  if (pCur == 0) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  tb_reader_init(&pCur->reader, ((PairVtab *)pVtab)->db);
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

static void cursor_reset(PairCursor *pCur) {
  int i;
  for (i = 0; i < N_ARG; i++) {
    sqlite3_value_free(pCur->apArg[i]);
    pCur->apArg[i] = 0;
  }
  for (i = 0; i < pCur->nCheck; i++) {
    sqlite3_free(pCur->aCheck[i].zReason);
    sqlite3_value_free(pCur->aCheck[i].pA);
  }
  sqlite3_free(pCur->aCheck);
  pCur->aCheck = 0;
  pCur->nCheck = pCur->nCheckAlloc = 0;
  tb_pair_round_free(&pCur->round);
  tb_pair_build_free(&pCur->build);
  pCur->iRow = 0;
}

static int pairClose(sqlite3_vtab_cursor *cur) {
  PairCursor *pCur = (PairCursor *)cur;
  cursor_reset(pCur);
  tb_reader_close(&pCur->reader);
  sqlite3_free(pCur);
  return SQLITE_OK;
}

static int set_error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* A table name argument: NULL for the default, else TEXT. */
static int table_arg(sqlite3_value *v, const char *zArg, const char **pz,
                     char **pzErr) {
  *pz = 0;
  if (v == 0 || sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    return set_error(pzErr, sqlite3_mprintf("%s must be text", zArg));
  }
  return tb_value_text(v, zArg, pz, pzErr);
}

/* The arguments: what to read, the system, the round asked (0: next). */
static int parse_args(PairCursor *pCur, int *piRound, char **pzErr) {
  sqlite3_value *pEvent = pCur->apArg[ARG_EVENT];
  sqlite3_value *pSys = pCur->apArg[ARG_SYSTEM];
  sqlite3_value *pRound = pCur->apArg[ARG_ROUND];
  const char *zSystem;
  int rc;
  memset(&pCur->src, 0, sizeof(pCur->src));
  *piRound = 0;
  if ((rc = tb_event_id_check(pEvent, pzErr)) != SQLITE_OK) return rc;
  /* from here on every error names the event */
  pCur->src.pEvent = pEvent;
  if (sqlite3_value_type(pSys) != SQLITE_TEXT) {
    return set_error(pzErr, sqlite3_mprintf("system must be text, e.g. "
                                            "'berger' or 'dutch(rounds=9)'"));
  }
  if ((rc = tb_value_text(pSys, "system", &zSystem, pzErr)) != SQLITE_OK ||
      (rc = tb_pair_spec_parse(zSystem, &pCur->spec, pzErr)) != SQLITE_OK) {
    return rc;
  }
  if (pRound && sqlite3_value_type(pRound) != SQLITE_NULL) {
    i64 r = 0;
    if (!tb_value_whole(pRound, &r, &rc) || r < 1 || r > 1000000000) {
      if (rc != SQLITE_OK) return rc;
      return set_error(pzErr, sqlite3_mprintf("round must be a positive "
                                              "integer (1 to 1000000000)"));
    }
    *piRound = (int)r;
  }
  rc = table_arg(pCur->apArg[ARG_MATCHES], "matches_table",
                 &pCur->src.zMatches, pzErr);
  if (rc == SQLITE_OK) {
    rc = table_arg(pCur->apArg[ARG_PLAYERS], "players_table",
                   &pCur->src.zPlayers, pzErr);
  }
  if (pCur->src.zMatches == 0) pCur->src.zMatches = "matches";
  /* a file reader's matches: no games table */
  if (rc == SQLITE_OK && sqlite3_strglob("*_matches", pCur->src.zMatches) == 0 &&
      (sqlite3_stricmp(pCur->src.zMatches, "trf_matches") == 0 ||
       sqlite3_stricmp(pCur->src.zMatches, "tom_matches") == 0 ||
       sqlite3_stricmp(pCur->src.zMatches, "melee_matches") == 0)) {
    pCur->src.zGames = "";
  }
  return rc;
}

/* The round pairings() pairs: the next, or the one asked if it is that. */
static int round_to_pair(const TbPairBuild *b, int iAsked, int *piRound,
                         char **pzErr) {
  int iNext = b->iLastPlayed + 1;
  if (iAsked == 0 || iAsked == iNext) {
    *piRound = iNext;
    return SQLITE_OK;
  }
  if (iAsked < iNext) {
    return set_error(pzErr, sqlite3_mprintf(
        "round %d was paired already (rounds to %d have games); "
        "pairing_check() checks the rounds played", iAsked, b->iLastPlayed));
  }
  return set_error(pzErr, sqlite3_mprintf("round %d is beyond the next round "
                                          "(%d)", iAsked, iNext));
}

/* ---------------------------------------------------- rounds without rows */

/* TbBefore of ints, ascending. */
static int int_before(void *pCtx, const void *a, const void *b) {
  (void)pCtx;
  return *(const int *)a < *(const int *)b;
}

/* The round of row i of the event: its seats, then its playoff matches. */
static int row_round(const TbEvent *e, int i) {
  return i < e->nSeat ? e->aSeat[i].iRound : e->aPlayoff[i - e->nSeat].iRound;
}

/*
** The rounds before iBefore that have a row of the event (a seat or a
** playoff match), sorted, each once: *paRound (sqlite3_free), *pn.  A gap
** among them would make the state O(players x rounds) of nothing (one row
** of round 10^6) and every player absent in it.  With no more rounds than
** rows (no gap is possible otherwise) a mark per round; else a sort.
*/
static int rounds_with_rows(const TbEvent *e, int iBefore, TbProbe *pProbe,
                            int **paRound, int *pn) {
  int nRow = e->nSeat + e->nPlayoff, i, n = 0, rc = SQLITE_OK;
  int *a = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)nRow + 1));
  unsigned char *aMark = 0;
  *paRound = 0;
  *pn = 0;
  if (a && iBefore - 1 <= nRow) {
    aMark = sqlite3_malloc64((sqlite3_uint64)iBefore + 1);
    if (aMark == 0) rc = SQLITE_NOMEM;
  }
  if (a == 0 || rc != SQLITE_OK) {
    sqlite3_free(a);
    return SQLITE_NOMEM;
  }
  if (aMark) {
    memset(aMark, 0, (size_t)iBefore + 1);
    for (i = 0; i < nRow; i++) {
      if (row_round(e, i) < iBefore) aMark[row_round(e, i)] = 1;
    }
    for (i = 1; i < iBefore; i++) {
      if (aMark[i]) a[n++] = i;
    }
    sqlite3_free(aMark);
  } else {
    for (i = 0; i < nRow; i++) {
      if (row_round(e, i) < iBefore) a[n++] = row_round(e, i);
    }
    rc = tb_text_arg_sort((void **)&a, n, (int)sizeof(int), int_before, pProbe);
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(a);
    return rc;
  }
  for (i = 0, *pn = 0; i < n; i++) {
    if (*pn == 0 || a[*pn - 1] != a[i]) a[(*pn)++] = a[i];
  }
  *paRound = a;
  return SQLITE_OK;
}

/* Why rounds iFrom to iNext - 1 are a problem: no row in them. */
static char *gap_message(int iFrom, int iNext) {
  if (iFrom == iNext - 1) {
    return sqlite3_mprintf("round %d has no rows, round %d has: rounds are "
                           "numbered 1, 2, 3 ... without a gap", iFrom, iNext);
  }
  return sqlite3_mprintf("rounds %d to %d have no rows, round %d has: rounds "
                         "are numbered 1, 2, 3 ... without a gap", iFrom,
                         iNext - 1, iNext);
}

/*
** The gaps among the rounds before iBefore (the rounds paired): xGap is
** called with each (first round without rows, next round with rows) and
** pCtx until it returns other than SQLITE_OK.  *pnGap: gaps found.
*/
static int each_gap(const TbPairBuild *b, int iBefore,
                    int (*xGap)(void *, int, int), void *pCtx, int *pnGap) {
  int *aRound = 0, n = 0, i, iExpect = 1, rc;
  *pnGap = 0;
  rc = rounds_with_rows(&b->event, iBefore, b->state.pProbe, &aRound, &n);
  for (i = 0; rc == SQLITE_OK && i < n; i++) {
    if (aRound[i] > iExpect) {
      (*pnGap)++;
      rc = xGap(pCtx, iExpect, aRound[i]);
    }
    iExpect = aRound[i] + 1;
  }
  sqlite3_free(aRound);
  return rc;
}

/* pairings(): the first gap is the error. */
static int gap_error(void *pCtx, int iFrom, int iNext) {
  return set_error((char **)pCtx, gap_message(iFrom, iNext));
}

/* Run the system on the state; its error names the system. */
static int run_system(PairCursor *pCur, TbPairRound *pRound, char **pzErr) {
  char *zSys = 0;
  int rc = pCur->spec.pSystem->xPair(&pCur->build.state, pRound, &zSys);
  if (rc == SQLITE_OK || rc == SQLITE_NOMEM) {
    sqlite3_free(zSys);
    return rc;
  }
  if (zSys == 0) zSys = sqlite3_mprintf("%s", sqlite3_errstr(rc));
  *pzErr = zSys;
  return zSys ? rc : SQLITE_NOMEM;
}

/* Check that every table names players of the state, once each. */
static int check_round(const TbPairState *s, const TbPairRound *r,
                       char **pzErr) {
  int i;
  unsigned char *aSeen = sqlite3_malloc64((sqlite3_uint64)s->nPlayer + 1);
  if (aSeen == 0) return SQLITE_NOMEM;
  memset(aSeen, 0, (size_t)s->nPlayer + 1);
  for (i = 0; i < r->nTable; i++) {
    int iA = r->aTable[i].iA, iB = r->aTable[i].iB;
    if (iA < 0 || iA >= s->nPlayer || iB < -1 || iB >= s->nPlayer ||
        iA == iB || aSeen[iA] || (iB >= 0 && aSeen[iB])) {
      sqlite3_free(aSeen);
      return set_error(pzErr, sqlite3_mprintf("the system paired table %d "
                                              "wrongly", i + 1));
    }
    aSeen[iA] = 1;
    if (iB >= 0) aSeen[iB] = 1;
  }
  sqlite3_free(aSeen);
  return SQLITE_OK;
}

/*
** Why the event's first round with a game of no result (counts 0-0-0,
** result NULL: a row inserted from the pairings before its result) is a
** problem, for a system whose rows are one game each (TB_PAIR_ONE_GAME):
** the policy reads it as a draw, which a chess game entered as a draw
** never is (result 'draw', or counts 0-0-1).  iRound: the round to pair,
** 0 for pairing_check().  NULL: no such game (*pbNoMem: no memory).
*/
static char *open_game_message(const PairCursor *pCur, const TbPairBuild *b,
                               int iRound, int *pbNoMem) {
  const TbEvent *e = &b->event;
  char *zA, *zB, *z = 0;
  *pbNoMem = 0;
  if (!(pCur->spec.mFlags & TB_PAIR_ONE_GAME) || e->iOpenRound == 0) return 0;
  zA = tb_key_text(&e->aPlayer[e->iOpenA].key);
  zB = tb_key_text(&e->aPlayer[e->iOpenB].key);
  if (zA && zB) {
    char *zWhat = e->nOpen == 1
                      ? sqlite3_mprintf("a game without a result (game counts "
                                        "0-0-0, result NULL): %s against %s",
                                        zA, zB)
                      : sqlite3_mprintf("%d games without a result (game "
                                        "counts 0-0-0, result NULL), the "
                                        "first %s against %s", e->nOpen, zA,
                                        zB);
    if (zWhat && iRound > 0) {
      z = sqlite3_mprintf("round %d has %s; enter its results (a draw as "
                          "result 'draw') before pairing round %d",
                          e->iOpenRound, zWhat, iRound);
    } else if (zWhat) {
      z = e->nOpen == 1
              ? sqlite3_mprintf("no result (game counts 0-0-0, result NULL): "
                                "read as a draw until one is entered (a draw "
                                "as result 'draw')")
              : sqlite3_mprintf("no result (game counts 0-0-0, result NULL), "
                                "nor have %d other games of the round: read "
                                "as draws until entered (a draw as result "
                                "'draw')", e->nOpen - 1);
    }
    sqlite3_free(zWhat);
  }
  sqlite3_free(zA);
  sqlite3_free(zB);
  *pbNoMem = z == 0;
  return z;
}

static int schedule_followed(const PairCursor *pCur, const TbPairBuild *b,
                             char **pzErr);
static int schedule_diagnosis(PairCursor *pCur, TbConn *pConn, int rc,
                              char **pzErr);

static int pairings_filter(PairCursor *pCur, TbConn *pConn, int iAsked,
                           char **pzErr) {
  int iRound, rc;
  int nGap;
  rc = tb_pair_build_open(pConn, &pCur->reader, &pCur->src, &pCur->spec,
                          &pCur->build, pzErr);
  if (rc != SQLITE_OK) return schedule_diagnosis(pCur, pConn, rc, pzErr);
  rc = round_to_pair(&pCur->build, iAsked, &iRound, pzErr);
  if (rc == SQLITE_OK) {
    rc = tb_pair_round_scheduled(&pCur->spec, pCur->build.state.nRounds,
                                 iRound, pzErr);
  }
  if (rc == SQLITE_OK) {
    rc = each_gap(&pCur->build, iRound, gap_error, pzErr, &nGap);
  }
  if (rc == SQLITE_OK) {
    int bNoMem;
    *pzErr = open_game_message(pCur, &pCur->build, iRound, &bNoMem);
    if (*pzErr) rc = SQLITE_ERROR; else if (bNoMem) rc = SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK) rc = schedule_followed(pCur, &pCur->build, pzErr);
  if (rc == SQLITE_OK) {
    rc = tb_pair_build_round(pConn, &pCur->reader, &pCur->src, &pCur->spec,
                             iRound, &pCur->build, pzErr);
  }
  if (rc == SQLITE_OK) rc = run_system(pCur, &pCur->round, pzErr);
  if (rc == SQLITE_OK) rc = check_round(&pCur->build.state, &pCur->round, pzErr);
  return rc;
}

static int pairing_check_run(PairCursor *pCur, TbConn *pConn, char **pzErr);

static int pairFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                      int argc, sqlite3_value **argv) {
  PairCursor *pCur = (PairCursor *)cur;
  PairVtab *pTab = (PairVtab *)cur->pVtab;
  char *zErr = 0;
  int i, j = 0, rc, iAsked = 0;
  (void)idxStr;
  cursor_reset(pCur);
  for (i = 0; i < N_ARG && j < argc; i++) {
    if ((idxNum & (1 << i)) == 0) continue;
    pCur->apArg[i] = sqlite3_value_dup(argv[j++]);
    if (pCur->apArg[i] == 0) return SQLITE_NOMEM;
  }
  rc = parse_args(pCur, &iAsked, &zErr);
  if (rc == SQLITE_OK) {
    rc = pTab->eKind == KIND_PAIRINGS
             ? pairings_filter(pCur, pTab->pConn, iAsked, &zErr)
             : pairing_check_run(pCur, pTab->pConn, &zErr);
  }
  /* an interrupt has no message, and is no fault of the event */
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && zErr && pCur->src.pEvent) {
    rc = tb_name_event_value(pCur->src.pEvent, rc, &zErr);
  }
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && zErr == 0) {
    zErr = sqlite3_mprintf("%s", sqlite3_errstr(rc));
  }
  tb_reader_reset(&pCur->reader);
  if (rc != SQLITE_OK) {
    cursor_reset(pCur);
    pCur->iRow = 0;
    pCur->round.nTable = 0;
    if (zErr) return vtab_error(cur->pVtab, rc, zErr);
  }
  return rc;
}

static int pairNext(sqlite3_vtab_cursor *cur) {
  ((PairCursor *)cur)->iRow++;
  return SQLITE_OK;
}

static int pairEof(sqlite3_vtab_cursor *cur) {
  PairCursor *pCur = (PairCursor *)cur;
  int eKind = ((PairVtab *)cur->pVtab)->eKind;
  return pCur->iRow >= (eKind == KIND_PAIRINGS ? pCur->round.nTable
                                               : pCur->nCheck);
}

static int pairRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  *pRowid = ((PairCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

static void result_key(sqlite3_context *ctx, const TbKey *k) {
  if (k->eType == SQLITE_INTEGER) {
    sqlite3_result_int64(ctx, k->i);
  } else {
    sqlite3_result_text(ctx, k->z, k->n, SQLITE_TRANSIENT);
  }
}

/* Points in units of 1/scale: INTEGER when whole units. */
static void result_points(sqlite3_context *ctx, i64 n, i64 nScale) {
  if (nScale == 1) {
    sqlite3_result_int64(ctx, n);
  } else {
    sqlite3_result_double(ctx, (double)n / (double)nScale);
  }
}

/* A player's colours so far: W, B, or - for a round without a game. */
static void result_colours(sqlite3_context *ctx, const TbPairState *s,
                           const TbPairPlayer *p) {
  int k, n = s->iRound - 1;
  char *z = sqlite3_malloc64((sqlite3_uint64)n + 1);
  if (z == 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  for (k = 0; k < n; k++) {
    int c = p->aHist[k].eColour;
    z[k] = c == TB_COLOUR_WHITE ? 'W' : c == TB_COLOUR_BLACK ? 'B' : '-';
  }
  sqlite3_result_text(ctx, z, n, sqlite3_free);
}

/* A player column of pairings(): iSide 0 for player_a, 1 for player_b. */
static void pairings_player(sqlite3_context *ctx, const PairCursor *pCur,
                            int iState, int iCol) {
  const TbPairState *s = &pCur->build.state;
  const TbPairPlayer *p;
  if (iState < 0) return; /* NULL: the bye's opponent */
  p = &s->aPlayer[iState];
  switch (iCol) {
    case COL_PLAYER_A: case COL_PLAYER_B:
      result_key(ctx, &pCur->build.event.aPlayer[p->iPlayer].key);
      break;
    case COL_NUMBER_A: case COL_NUMBER_B:
      sqlite3_result_int(ctx, iState + 1);
      break;
    case COL_SCORE_A: case COL_SCORE_B:
      result_points(ctx, p->nScore, s->nPointScale);
      break;
    case COL_RANK_A: case COL_RANK_B:
      sqlite3_result_int(ctx, p->iStanding);
      break;
    case COL_COLOURS_A: case COL_COLOURS_B:
      result_colours(ctx, s, p);
      break;
  }
}

static void pairings_column(sqlite3_context *ctx, const PairCursor *pCur,
                            int iCol) {
  const TbPairTable *t = &pCur->round.aTable[pCur->iRow];
  switch (iCol) {
    case COL_TABLE: sqlite3_result_int(ctx, pCur->iRow + 1); return;
    case COL_RESULT:
      if (t->iB < 0 && (pCur->spec.mFlags & TB_PAIR_ZERO_BYE)) {
        sqlite3_result_text(ctx, "zero_bye", -1, SQLITE_STATIC);
      }
      return;
    case COL_PHASE:
      if (pCur->spec.mFlags & TB_PAIR_PLAYOFF) {
        sqlite3_result_text(ctx, "playoff", -1, SQLITE_STATIC);
      }
      return;
    case COL_WHY:
      if (t->zWhy) sqlite3_result_text(ctx, t->zWhy, -1, SQLITE_STATIC);
      return;
  }
  /* the columns of player_a and player_b alternate from COL_PLAYER_A */
  pairings_player(ctx, pCur, (iCol - COL_PLAYER_A) % 2 ? t->iB : t->iA,
                  iCol);
}

static void check_column(sqlite3_context *ctx, const PairCursor *pCur,
                         int iCol) {
  const CheckRow *r = &pCur->aCheck[pCur->iRow];
  const TbEvent *e = &pCur->build.event;
  switch (iCol) {
    case CHK_ROUND: sqlite3_result_int(ctx, r->iRound); break;
    case CHK_PLAYER_A:
      if (r->iA >= 0) result_key(ctx, &e->aPlayer[r->iA].key);
      if (r->pA) sqlite3_result_value(ctx, r->pA);
      break;
    case CHK_PLAYER_B:
      if (r->iB >= 0) result_key(ctx, &e->aPlayer[r->iB].key);
      break;
    case CHK_REASON:
      sqlite3_result_text(ctx, r->zReason, -1, SQLITE_TRANSIENT);
      break;
  }
}

static int pairColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                      int iCol) {
  PairCursor *pCur = (PairCursor *)cur;
  int eKind = ((PairVtab *)cur->pVtab)->eKind;
  int iArg = arg_of_column(eKind, iCol);
  if (iArg == ARG_ROUND) {
    sqlite3_result_int(ctx, pCur->build.state.iRound);
  } else if (iArg >= 0) {
    if (pCur->apArg[iArg]) sqlite3_result_value(ctx, pCur->apArg[iArg]);
  } else if (eKind == KIND_PAIRINGS) {
    pairings_column(ctx, pCur, iCol);
  } else {
    check_column(ctx, pCur, iCol);
  }
  return SQLITE_OK;
}

/* ------------------------------------------------------- pairing_check */

/* Add a problem row; zReason is taken (NULL: no memory). */
static int check_add(PairCursor *pCur, int iRound, int iA, int iB,
                     char *zReason) {
  CheckRow *r;
  if (zReason == 0) return SQLITE_NOMEM;
  if (pCur->nCheck >= pCur->nCheckAlloc) {
    int nNew = pCur->nCheckAlloc ? 2 * pCur->nCheckAlloc : 16;
    CheckRow *aNew = sqlite3_realloc64(pCur->aCheck,
                                       sizeof(CheckRow) * (sqlite3_uint64)nNew);
    if (aNew == 0) {
      sqlite3_free(zReason);
      return SQLITE_NOMEM;
    }
    pCur->aCheck = aNew;
    pCur->nCheckAlloc = nNew;
  }
  r = &pCur->aCheck[pCur->nCheck++];
  r->iRound = iRound;
  r->iA = iA;
  r->iB = iB;
  r->pA = 0;
  r->zReason = zReason;
  return SQLITE_OK;
}

/* The pairing of round r of the event as the state's players: white, black
** (-1: a bye); the seats and the playoff's matches.  aOpp[i] = opponent of
** state player i + 2, 1: a bye, 0: not paired; aWhite[i]: sat as player_a. */
static void actual_round(const TbPairBuild *b, int iRound, int *aOpp,
                         unsigned char *aWhite) {
  const TbEvent *e = &b->event;
  int i;
  for (i = 0; i < b->state.nPlayer; i++) {
    const TbSeat *t = tb_event_seat(e, b->state.aPlayer[i].iPlayer, iRound);
    aOpp[i] = 0;
    aWhite[i] = 0;
    if (t == 0 || (t->iOpp < 0 && t->eKind != TB_PAB)) continue;
    aOpp[i] = t->iOpp >= 0 ? b->aPlace[t->iOpp] + 2 : 1;
    aWhite[i] = t->bFirst;
  }
  for (i = 0; i < e->nPlayoff; i++) {
    const TbMatch *m = &e->aPlayoff[i];
    int a = b->aPlace[m->iA];
    if (m->iRound != iRound) continue;
    aOpp[a] = m->iB >= 0 ? b->aPlace[m->iB] + 2 : 1;
    aWhite[a] = 1;
    if (m->iB >= 0) aOpp[b->aPlace[m->iB]] = a + 2;
  }
}

/* ------------------------------------------------------ a fixed schedule */

/* Why round iRound does not follow the schedule: state player i met iGot
** (actual_round's form: opponent + 2, 1 a bye) where the schedule pairs
** them with iWant (the same form; 1: the free round). */
static char *schedule_message(const PairCursor *pCur, const TbPairBuild *b,
                              int iRound, int i, int iGot, int iWant) {
  const TbEvent *e = &b->event;
  const char *zSys = pCur->spec.pSystem->zName;
  char *zA = tb_key_text(&e->aPlayer[b->state.aPlayer[i].iPlayer].key);
  char *zGot = iGot >= 2 ? tb_key_text(&e->aPlayer[b->state.aPlayer[iGot - 2]
                                                       .iPlayer].key)
                         : 0;
  char *zWant = iWant >= 2 ? tb_key_text(&e->aPlayer[b->state.aPlayer[iWant - 2]
                                                         .iPlayer].key)
                           : 0;
  char *z = zA && (zGot || iGot < 2) && (zWant || iWant < 2)
                ? sqlite3_mprintf("%s: the event is not a round robin of its "
                                  "table: in round %d player %s %s%s, where "
                                  "the table %s%s (pairing numbers %s); pair "
                                  "a Swiss with mtg, pokemon or dutch",
                                  zSys, iRound, zA,
                                  zGot ? "met " : "had a bye", zGot ? zGot : "",
                                  zWant ? "pairs them with "
                                        : "gives them the free round",
                                  zWant ? zWant : "",
                                  b->bStartNumbers ? "the file's start numbers"
                                                   : "by rating, then id")
                : 0;
  sqlite3_free(zA);
  sqlite3_free(zGot);
  sqlite3_free(zWant);
  return z;
}

/* The schedule's round iRound, in actual_round's form (aWant). */
static int schedule_round(const PairCursor *pCur, const TbPairBuild *b,
                          int iRound, int *aWant, char **pzErr) {
  TbPairState st = b->state;
  TbPairRound want;
  int i, rc;
  memset(&want, 0, sizeof(want));
  st.iRound = iRound;
  rc = pCur->spec.pSystem->xPair(&st, &want, pzErr);
  for (i = 0; i < st.nPlayer; i++) aWant[i] = 0;
  for (i = 0; rc == SQLITE_OK && i < want.nTable; i++) {
    const TbPairTable *t = &want.aTable[i];
    aWant[t->iA] = t->iB >= 0 ? t->iB + 2 : 1;
    if (t->iB >= 0) aWant[t->iB] = t->iA + 2;
  }
  tb_pair_round_free(&want);
  return rc;
}

/*
** A system whose rounds are a schedule of the pairing numbers
** (TB_PAIR_SCHEDULE: berger) continues an event whose rounds played follow
** it; the first player of the first round that does not is the error.
** Pairs are compared, not colours (an arbiter may swap them); a player
** without a game (no row, a forfeit not entered) contradicts nothing.
*/
static int schedule_followed(const PairCursor *pCur, const TbPairBuild *b,
                             char **pzErr) {
  const TbPairState *s = &b->state;
  int n = s->nPlayer, iLast = b->iLastPlayed, iRound, i, rc = SQLITE_OK;
  int *aWant;
  int *aGot;
  unsigned char *aWhite;
  if (!(pCur->spec.mFlags & TB_PAIR_SCHEDULE)) return SQLITE_OK;
  if (s->iFirstPlayoff > 0 && s->iFirstPlayoff <= iLast) {
    iLast = s->iFirstPlayoff - 1;
  }
  aWant = sqlite3_malloc64(sizeof(int) * 2 * ((sqlite3_uint64)n + 1));
  aWhite = sqlite3_malloc64((sqlite3_uint64)n + 1);
  if (aWant == 0 || aWhite == 0) {
    sqlite3_free(aWant);
    sqlite3_free(aWhite);
    return SQLITE_NOMEM;
  }
  aGot = aWant + n + 1;
  for (iRound = 1; rc == SQLITE_OK && iRound <= iLast; iRound++) {
    rc = schedule_round(pCur, b, iRound, aWant, pzErr);
    if (rc == SQLITE_OK) rc = tb_poll(s->pProbe, 1 + n);
    if (rc != SQLITE_OK) break;
    actual_round(b, iRound, aGot, aWhite);
    for (i = 0; i < n; i++) {
      int bBye = aGot[i] == 1 && aWant[i] != 1;
      if ((aGot[i] >= 2 && aGot[i] != aWant[i]) || bBye) {
        *pzErr = schedule_message(pCur, b, iRound, i, aGot[i], aWant[i]);
        rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
        break;
      }
    }
  }
  sqlite3_free(aWant);
  sqlite3_free(aWhite);
  return rc;
}

/*
** pairings() of a scheduled system on an event its policy cannot read (a
** Magic bye of 2-0-0 games under the chess policy): when the rows, read as
** Magic's, do not follow the schedule, that is the error the user needs;
** otherwise the reading's own error (rc, *pzErr) stands.
*/
static int schedule_diagnosis(PairCursor *pCur, TbConn *pConn, int rc,
                              char **pzErr) {
  TbPairSpec lenient = pCur->spec;
  TbPairBuild tmp;
  char *zErr = 0;
  int rc2;
  if (rc != SQLITE_ERROR || !(pCur->spec.mFlags & TB_PAIR_SCHEDULE) ||
      tb_stopped(&pCur->reader.probe)) {
    return rc;
  }
  memset(&tmp, 0, sizeof(tmp));
  rc2 = tb_policy_parse("mtg", &lenient.policy, &zErr);
  if (rc2 == SQLITE_OK) {
    rc2 = tb_pair_build_open(pConn, &pCur->reader, &pCur->src, &lenient, &tmp,
                             &zErr);
  }
  sqlite3_free(zErr);
  zErr = 0;
  if (rc2 == SQLITE_OK) rc2 = schedule_followed(pCur, &tmp, &zErr);
  tb_pair_build_free(&tmp);
  if (rc2 == SQLITE_NOMEM) return rc2;
  if (rc2 == SQLITE_ERROR && zErr) {
    sqlite3_free(*pzErr);
    *pzErr = zErr;
  } else {
    sqlite3_free(zErr);
  }
  return rc;
}

/* The event index of state player i. */
static int ev(const TbPairBuild *b, int i) {
  return i < 0 ? -1 : b->state.aPlayer[i].iPlayer;
}

/* Whether a 260 record prohibits i and j (one problem, however many
** records say so). */
static int is_forbidden(const TbPairState *s, int i, int j) {
  int k;
  for (k = 0; k < s->nForbidden; k++) {
    int x = s->aForbidden[2 * k], y = s->aForbidden[2 * k + 1];
    if ((x == i && y == j) || (x == j && y == i)) return 1;
  }
  return 0;
}

/* The absolute rules over round r's actual pairing. */
static int check_rules(PairCursor *pCur, int iRound, const int *aOpp,
                       const unsigned char *aWhite) {
  const TbPairBuild *b = &pCur->build;
  const TbPairState *s = &b->state;
  int i, k, rc = SQLITE_OK;
  (void)aWhite;
  for (i = 0; rc == SQLITE_OK && i < s->nPlayer; i++) {
    const TbPairPlayer *p = &s->aPlayer[i];
    int j = aOpp[i] - 2;
    if (aOpp[i] == 0) continue;
    if (p->bAbsent && (j < 0 || j > i || !s->aPlayer[j].bAbsent)) {
      rc = check_add(pCur, iRound, ev(b, i), ev(b, j),
                     sqlite3_mprintf("player paired while absent (a bye "
                                     "requested, dropped or disqualified)"));
    }
    if (j > i && is_forbidden(s, i, j)) {
      rc = check_add(pCur, iRound, ev(b, i), ev(b, j),
                     sqlite3_mprintf("a prohibited pairing (TRF record 260)"));
    }
    if (rc != SQLITE_OK || !(pCur->spec.mFlags & TB_PAIR_SWISS)) continue;
    for (k = 0; rc == SQLITE_OK && k < iRound - 1; k++) {
      if (j >= 0 && j > i && p->aHist[k].iOpp == j
          && (!(pCur->spec.mFlags & TB_PAIR_GAMES_MEET) || tb_pair_game_played(&p->aHist[k]))) {
        rc = check_add(pCur, iRound, ev(b, i), ev(b, j),
                       sqlite3_mprintf("rematch: they met in round %d", k + 1));
      } else if (j < 0 && p->aHist[k].eKind == TB_PAB) {
        rc = check_add(pCur, iRound, ev(b, i), -1,
                       sqlite3_mprintf("second pairing-allocated bye (the "
                                       "first in round %d)", k + 1));
      }
    }
  }
  return rc;
}

/* A deterministic system's round against the round played. */
static int check_against_system(PairCursor *pCur, int iRound, const int *aOpp,
                                const unsigned char *aWhite) {
  const TbPairBuild *b = &pCur->build;
  TbPairRound want;
  char *zErr = 0;
  int i, rc;
  memset(&want, 0, sizeof(want));
  rc = pCur->spec.pSystem->xPair(&b->state, &want, &zErr);
  if (rc != SQLITE_OK) {
    if (rc == SQLITE_NOMEM || tb_stopped(b->state.pProbe)) {
      sqlite3_free(zErr);
      tb_pair_round_free(&want);
      return rc;
    }
    rc = check_add(pCur, iRound, -1, -1,
                   zErr ? zErr : sqlite3_mprintf("%s", sqlite3_errstr(rc)));
    tb_pair_round_free(&want);
    return rc;
  }
  for (i = 0; rc == SQLITE_OK && i < want.nTable; i++) {
    const TbPairTable *t = &want.aTable[i];
    /* a bye: pairing-allocated, or a round without a game (a round
    ** robin's free round, entered as a zero_bye or not at all) */
    int bSame = t->iB < 0 ? aOpp[t->iA] == 1 ||
                                (aOpp[t->iA] == 0 &&
                                 (pCur->spec.mFlags & TB_PAIR_ZERO_BYE))
                          : aOpp[t->iA] == t->iB + 2 && aWhite[t->iA];
    if (bSame) continue;
    rc = check_add(pCur, iRound, ev(b, t->iA), ev(b, t->iB),
                   sqlite3_mprintf("%s pairs %s at table %d, the round "
                                   "played does not",
                                   pCur->spec.pSystem->zName,
                                   t->iB < 0 ? "player_a's bye"
                                             : "them (player_a White)",
                                   i + 1));
  }
  tb_pair_round_free(&want);
  return rc;
}

/* Players with a pairing (a game or a bye) in the round aOpp describes. */
static int players_paired(const TbPairState *s, const int *aOpp) {
  int i, n = 0;
  for (i = 0; i < s->nPlayer; i++) n += aOpp[i] != 0;
  return n;
}

/*
** Players paired twice in a round, found in the rows themselves: the event
** cannot be read with them (tb_event_seats), so each is a problem row and
** the rest is not checked.  The event's id is taken as the reader takes
** it: in its other form ('1' for 1) when the matches have no row of it.
** *pnFound: how many.
*/
static const char zTwiceSql[] =
    "WITH ev(id) AS (SELECT CASE WHEN ?2 IS NULL OR EXISTS (SELECT 1 FROM "
    "\"%w\" WHERE event_id = ?1) THEN ?1 ELSE ?2 END) "
    "SELECT round, player, count(*), max(self) FROM ("
    "SELECT round, player_a AS player, player_a IS player_b AS self FROM "
    "\"%w\" WHERE event_id = (SELECT id FROM ev) UNION ALL "
    "SELECT round, player_b, 0 FROM \"%w\" WHERE event_id = (SELECT id FROM "
    "ev) AND player_b IS NOT NULL) "
    "GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1, 2";

/* The reason of a twice-paired row: nTimes, or against themself. */
static char *twice_reason(int nTimes, int bSelf) {
  if (bSelf && nTimes == 2) {
    return sqlite3_mprintf("paired with themself (player_a is player_b)");
  }
  return sqlite3_mprintf("paired %d times in the round", nTimes);
}

static int check_twice_paired(PairCursor *pCur, TbConn *pConn, int *pnFound,
                              char **pzErr) {
  sqlite3 *db = ((PairVtab *)pCur->base.pVtab)->db;
  const char *zT = pCur->src.zMatches;
  sqlite3_stmt *pStmt = 0;
  sqlite3_value *pOther = 0;
  char *zSql;
  int rc = tb_enter(pConn, pzErr);
  *pnFound = 0;
  if (rc != SQLITE_OK) return rc;
  zSql = sqlite3_mprintf(zTwiceSql, zT, zT, zT);
  rc = zSql ? sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0) : SQLITE_NOMEM;
  sqlite3_free(zSql);
  /* no such table or column: the reader says so, in its words */
  if (rc != SQLITE_OK) {
    tb_leave(pConn);
    return rc == SQLITE_NOMEM ? rc : SQLITE_OK;
  }
  rc = tb_id_other_form(db, pCur->src.pEvent, &pOther);
  if (rc == SQLITE_OK) rc = sqlite3_bind_value(pStmt, 1, pCur->src.pEvent);
  if (rc == SQLITE_OK && pOther) rc = sqlite3_bind_value(pStmt, 2, pOther);
  while (rc == SQLITE_OK && sqlite3_step(pStmt) == SQLITE_ROW) {
    rc = check_add(pCur, sqlite3_column_int(pStmt, 0), -1, -1,
                   twice_reason(sqlite3_column_int(pStmt, 2),
                                sqlite3_column_int(pStmt, 3)));
    if (rc == SQLITE_OK) {
      CheckRow *r = &pCur->aCheck[pCur->nCheck - 1];
      r->pA = sqlite3_value_dup(sqlite3_column_value(pStmt, 1));
      if (r->pA == 0) rc = SQLITE_NOMEM;
    }
    (*pnFound)++;
  }
  if (rc == SQLITE_OK) rc = sqlite3_finalize(pStmt); else sqlite3_finalize(pStmt);
  sqlite3_value_free(pOther);
  tb_leave(pConn);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    *pzErr = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    if (*pzErr == 0) rc = SQLITE_NOMEM;
  }
  return rc;
}

/* pairing_check(): a gap is a problem row, at its first round. */
static int gap_row(void *pCtx, int iFrom, int iNext) {
  return check_add((PairCursor *)pCtx, iFrom, -1, -1,
                   gap_message(iFrom, iNext));
}

/* The first round played past the rounds scheduled (a Swiss's; a round
** robin checks its own): a problem row, as pairings() of it is an error. */
static int check_scheduled(PairCursor *pCur, int iRound) {
  char *zWhy = 0;
  int rc = tb_pair_round_scheduled(&pCur->spec, pCur->build.state.nRounds,
                                   iRound, &zWhy);
  if (rc != SQLITE_ERROR) return rc;
  return check_add(pCur, iRound, -1, -1, zWhy);
}

/* The first game without a result (open_game_message): a problem row at
** its round, with its players. */
static int check_open_game(PairCursor *pCur) {
  const TbEvent *e = &pCur->build.event;
  int bNoMem;
  char *zWhy = open_game_message(pCur, &pCur->build, 0, &bNoMem);
  if (zWhy == 0) return bNoMem ? SQLITE_NOMEM : SQLITE_OK;
  return check_add(pCur, e->iOpenRound, e->iOpenA, e->iOpenB, zWhy);
}

/* Every round played: the state before it, then its problems (none past
** a gap: the rounds' numbers are to be fixed first). */
static int pairing_check_run(PairCursor *pCur, TbConn *pConn, char **pzErr) {
  TbPairBuild *b = &pCur->build;
  int *aOpp = 0, iRound, rc, nTwice, nGap = 0;
  unsigned char *aWhite = 0;
  rc = check_twice_paired(pCur, pConn, &nTwice, pzErr);
  if (rc != SQLITE_OK || nTwice > 0) return rc;
  rc = tb_pair_build_open(pConn, &pCur->reader, &pCur->src, &pCur->spec, b,
                          pzErr);
  if (rc != SQLITE_OK) return schedule_diagnosis(pCur, pConn, rc, pzErr);
  rc = each_gap(b, b->iLastPlayed + 1, gap_row, pCur, &nGap);
  if (rc != SQLITE_OK || nGap > 0) return rc;
  rc = check_open_game(pCur);
  if (rc != SQLITE_OK) return rc;
  aOpp = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)b->state.nPlayer + 1));
  aWhite = sqlite3_malloc64((sqlite3_uint64)b->state.nPlayer + 1);
  if (aOpp == 0 || aWhite == 0) rc = SQLITE_NOMEM;
  for (iRound = 1; rc == SQLITE_OK && iRound <= b->iLastPlayed; iRound++) {
    int iFirst = b->state.iFirstPlayoff;
    /* a playoff system checks the playoff's rounds; the others, the Swiss */
    int bOwn = (pCur->spec.mFlags & TB_PAIR_PLAYOFF)
                   ? iFirst > 0 && iRound >= iFirst
                   : iFirst == 0 || iRound < iFirst;
    if (!bOwn) continue;
    rc = tb_pair_build_round(pConn, &pCur->reader, &pCur->src, &pCur->spec,
                             iRound, b, pzErr);
    b->state.iFirstPlayoff = iFirst;
    if (rc != SQLITE_OK) break;
    actual_round(b, iRound, aOpp, aWhite);
    if (iRound == iFirst && pCur->spec.nTop == 0) {
      b->state.nTop = players_paired(&b->state, aOpp); /* the cut played */
    }
    rc = check_rules(pCur, iRound, aOpp, aWhite);
    if (rc == SQLITE_OK && iRound == b->state.nRounds + 1) {
      rc = check_scheduled(pCur, iRound);
    }
    if (rc == SQLITE_OK && (pCur->spec.mFlags & TB_PAIR_DETERMINISTIC)) {
      rc = check_against_system(pCur, iRound, aOpp, aWhite);
    }
  }
  sqlite3_free(aOpp);
  sqlite3_free(aWhite);
  return rc;
}

/* ------------------------------------------------------------ register */

/* One module, registered as each function (PairAux says which). */
static sqlite3_module pairModule = {
  .iVersion = 0,
  .xConnect = pairConnect,
  .xBestIndex = pairBestIndex,
  .xDisconnect = pairDisconnect,
  .xOpen = pairOpen,
  .xClose = pairClose,
  .xFilter = pairFilter,
  .xNext = pairNext,
  .xEof = pairEof,
  .xColumn = pairColumn,
  .xRowid = pairRowid,
};

/* Neither innocuous nor direct-only, as standings(): they read the tables
** their arguments name, and write nothing. */
int tb_register_pairings(sqlite3 *db, TbConn *pConn) {
  int eKind, rc = SQLITE_OK;
  for (eKind = KIND_PAIRINGS; rc == SQLITE_OK && eKind <= KIND_CHECK; eKind++) {
    PairAux *pAux = sqlite3_malloc64(sizeof(*pAux));
    if (pAux == 0) return SQLITE_NOMEM;
    pAux->pConn = pConn;
    pAux->eKind = eKind;
    /* the module frees pAux, even when registering fails */
    rc = sqlite3_create_module_v2(db, azFunc[eKind], &pairModule, pAux,
                                  sqlite3_free);
  }
  return rc;
}
