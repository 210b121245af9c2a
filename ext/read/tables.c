/*
** read/tables.c: reading the user's tables.
**
** This is the only file that runs SQL.  It reads one event's rows of the
** matches table (and of the games table when there is one) into a TbEvent,
** or every event's rows in one pass over the table into a set of events.
** The rows of matches reach the model through an internal aggregate,
** tiebreak_rows(), inside SQLite's own step (see rows_step).  Before
** returning to SQLite the caller finalizes the statements
** (tb_reader_close), or resets them to keep them for its next call
** (tb_reader_reset; a standings() cursor does), so no statement is left
** running to block a DROP TABLE or VACUUM.  Table names come from SQL
** arguments and are always quoted as identifiers (%w); the extension never
** writes.  Only the requested event's rows are read: with an index on
** matches(event_id, round) that is a range scan.
*/
#include "../tiebreak_int.h"

#include <string.h>

/* A value as it would be written in SQL, for messages. */
static char *value_literal(sqlite3_value *v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL: return sqlite3_mprintf("NULL");
    case SQLITE_INTEGER: return sqlite3_mprintf("%lld", sqlite3_value_int64(v));
    case SQLITE_FLOAT: return sqlite3_mprintf("%!.15g", sqlite3_value_double(v));
    case SQLITE_TEXT: return sqlite3_mprintf("%Q", sqlite3_value_text(v));
  }
  return sqlite3_mprintf("a blob");
}

/*
** An INTEGER, or a REAL holding a whole number: clients such as Node bind
** every number as REAL, and 1.0 = 1 in SQL, so both name event 1.
*/
int tb_value_is_integral(sqlite3_value *v) {
  double r;
  if (sqlite3_value_type(v) == SQLITE_INTEGER) return 1;
  if (sqlite3_value_type(v) != SQLITE_FLOAT) return 0;
  r = sqlite3_value_double(v);
  return r >= -9007199254740992.0 && r <= 9007199254740992.0 &&
         r == (double)(i64)r;
}

static int set_error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/*
** An error of an inner statement: SQLite's message, and its code kept, so
** that SQLITE_BUSY, SQLITE_INTERRUPT or SQLITE_NOMEM reach the caller as
** such.
*/
static int db_error(sqlite3 *db, int rc, char **pzErr) {
  if (rc == SQLITE_NOMEM) return rc;
  *pzErr = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  return *pzErr ? rc : SQLITE_NOMEM;
}

/*
** Which of the wanted columns the table has: bit i of *pMask is set when
** azCol[i] exists.  *pbTable is 0 when there is no such table or view.
*/
static int table_columns(TbReader *r, const char *zTable, const char **azCol,
                         int nCol, int *pbTable, unsigned *pMask,
                         char **pzErr) {
  int rc = SQLITE_OK;
  *pbTable = 0;
  *pMask = 0;
  if (r->pXinfo == 0) {
    rc = sqlite3_prepare_v2(r->db, "SELECT name FROM pragma_table_xinfo(?1)",
                            -1, &r->pXinfo, 0);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_bind_text(r->pXinfo, 1, zTable, -1, SQLITE_STATIC);
  }
  while (rc == SQLITE_OK && (rc = sqlite3_step(r->pXinfo)) == SQLITE_ROW) {
    const char *zName = (const char *)sqlite3_column_text(r->pXinfo, 0);
    int i;
    rc = SQLITE_OK;
    *pbTable = 1;
    for (i = 0; zName && i < nCol; i++) {
      if (sqlite3_stricmp(zName, azCol[i]) == 0) *pMask |= 1u << i;
    }
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc != SQLITE_OK) rc = db_error(r->db, rc, pzErr);
  if (r->pXinfo) {
    sqlite3_reset(r->pXinfo);
    sqlite3_clear_bindings(r->pXinfo); /* zTable is not ours to keep */
  }
  return rc;
}

/* Check that a table has the required columns (the first nRequired). */
static int check_table(TbReader *r, const char *zTable, const char **azCol,
                       int nCol, int nRequired, int *pbTable, unsigned *pMask,
                       char **pzErr) {
  int rc = table_columns(r, zTable, azCol, nCol, pbTable, pMask, pzErr);
  int i;
  if (rc != SQLITE_OK || !*pbTable) return rc;
  for (i = 0; i < nRequired; i++) {
    if ((*pMask & (1u << i)) == 0) {
      return set_error(pzErr, sqlite3_mprintf("table %s has no column %s",
                                              zTable, azCol[i]));
    }
  }
  return SQLITE_OK;
}

/*
** Prepare "SELECT <cols> FROM <table> WHERE event_id = ?1", with "AND
** round <= ?2" as of a round; bAll: every event, no event_id term.
*/
static int prepare_event_query(TbReader *r, const char *zCols,
                               const char *zTable, int bAll,
                               sqlite3_stmt **ppStmt, char **pzErr) {
  static const char *azWhere[2][2] = {
      {" WHERE event_id = ?1", " WHERE event_id = ?1 AND round <= ?2"},
      {"", " WHERE round <= ?2"}};
  char *zSql = sqlite3_mprintf("SELECT %s FROM \"%w\"%s", zCols, zTable,
                               azWhere[bAll != 0][r->bAsOf != 0]);
  int rc;
  if (zSql == 0) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(r->db, zSql, -1, ppStmt, 0);
  sqlite3_free(zSql);
  if (rc != SQLITE_OK) {
    rc = db_error(r->db, rc, pzErr);
    sqlite3_finalize(*ppStmt);
    *ppStmt = 0;
  }
  return rc;
}

/* The name a kept statement reads, copied; 0 (and *pz unchanged) or NOMEM. */
static int set_name(char **pz, const char *zName) {
  char *z = sqlite3_mprintf("%s", zName);
  if (z == 0) return SQLITE_NOMEM;
  sqlite3_free(*pz);
  *pz = z;
  return SQLITE_OK;
}

/* Finalize a kept statement: its table or columns changed. */
static void drop_stmt(sqlite3_stmt **ppStmt) {
  sqlite3_finalize(*ppStmt);
  *ppStmt = 0;
}

/* Round of the current row: an integer from 1 up. */
static int round_error(sqlite3_value *v, char **pzErr) {
  char *zLit = value_literal(v);
  int rc;
  if (zLit == 0) return SQLITE_NOMEM;
  rc = set_error(pzErr, sqlite3_mprintf("round must be an integer from 1 to 1000000000, "
                                        "got %s", zLit));
  sqlite3_free(zLit);
  return rc;
}

static inline int read_round(sqlite3_value *v, int *piRound, char **pzErr) {
  i64 r = sqlite3_value_int64(v);
  if (sqlite3_value_type(v) != SQLITE_INTEGER || r < 1 || r > 1000000000) {
    return round_error(v, pzErr);
  }
  *piRound = (int)r;
  return SQLITE_OK;
}

/*
** Where the rows of an event query go: the event being read, or for the
** query of every event the set of events; and the first error.
*/
typedef struct TbRowSink {
  TbEvent *pEvent;            /* one event's query */
  TbEventSet *pSet;           /* every event's: each row kept in the set */
  int iLast;                  /* pSet: the event of the last row, or -1 */
  int bResult, bPhase;        /* the optional columns read */
  i64 nRows;                  /* rows taken */
  int rc;
  char **pzErr;
} TbRowSink;

static int set_id_add(TbEventSet *s, sqlite3_value *v, int *piId);

/*
** Find or add the player named in column zCol.  zCol NULL: the column is
** player_b, where NULL is a bye (*piPlayer is left as it is).  For the set
** of every event the id is kept in the set: *piPlayer is its index there,
** and *pbRef is set.
*/
static int read_player_slow(TbRowSink *p, sqlite3_value *v, int eType,
                            const char *zCol, int iRound, int *piPlayer,
                            unsigned char *pbRef) {
  int rc;
  char *zLit;
  if (eType == SQLITE_NULL) {
    if (zCol == 0) return SQLITE_OK;
    return set_error(p->pzErr, sqlite3_mprintf("NULL %s in round %d", zCol,
                                               iRound));
  }
  if (zCol == 0) zCol = "player_b";
  if (p->pEvent) {
    rc = tb_event_player(p->pEvent, v, piPlayer);
  } else if (eType == SQLITE_INTEGER || eType == SQLITE_TEXT) {
    rc = set_id_add(p->pSet, v, piPlayer);
    *pbRef = 1;
  } else {
    rc = SQLITE_MISMATCH;
  }
  if (rc != SQLITE_MISMATCH) return rc;
  if ((zLit = value_literal(v)) == 0) return SQLITE_NOMEM;
  rc = set_error(p->pzErr, sqlite3_mprintf("%s must be an INTEGER or TEXT id, "
                                           "got %s in round %d",
                                           zCol, zLit, iRound));
  sqlite3_free(zLit);
  return rc;
}

/* Integer ids inline; text ids, byes and errors in read_player_slow(). */
static inline int read_player(TbRowSink *p, sqlite3_value *v,
                              const char *zCol, int iRound, int *piPlayer,
                              unsigned char *pbRef) {
  int eType = sqlite3_value_type(v);
  if (eType == SQLITE_INTEGER) {
    i64 iVal = sqlite3_value_int64(v);
    if (p->pEvent) return tb_event_player_later(p->pEvent, iVal, piPlayer);
    if (iVal >= 0 && iVal <= TB_DEFER_MAX) { /* as tb_event_player_later */
      *piPlayer = -(int)iVal - 3;
      return SQLITE_OK;
    }
  }
  return read_player_slow(p, v, eType, zCol, iRound, piPlayer, pbRef);
}

static int count_error(sqlite3_value *v, const char *zCol, int iRound,
                       char **pzErr) {
  char *zLit = value_literal(v);
  int rc;
  if (zLit == 0) return SQLITE_NOMEM;
  rc = set_error(pzErr, sqlite3_mprintf("%s must be a game count from 0 to "
                                        "1000000, got %s in round %d",
                                        zCol, zLit, iRound));
  sqlite3_free(zLit);
  return rc;
}

/* A game count: an integer (NULL reads as 0).  Inline, the message aside:
** three per row. */
static inline int read_count(sqlite3_value *v, const char *zCol, int iRound,
                             int *pn, char **pzErr) {
  int eType = sqlite3_value_type(v);
  if (eType == SQLITE_INTEGER) {
    i64 n = sqlite3_value_int64(v);
    if (n >= -1000000 && n <= 1000000) {
      *pn = (int)n;
      return SQLITE_OK;
    }
  } else if (eType == SQLITE_NULL) {
    *pn = 0;
    return SQLITE_OK;
  }
  return count_error(v, zCol, iRound, pzErr);
}

/* The result column; pA (player_a) names the match in a message. */
static int read_result(sqlite3_value *v, sqlite3_value *pA, const TbMatch *m,
                       int *peResult, char **pzErr) {
  static const struct {
    const char *zName;
    int eResult;
  } aResult[] = {
      {"a", TB_RESULT_A},
      {"b", TB_RESULT_B},
      {"draw", TB_RESULT_DRAW},
      {"double_loss", TB_RESULT_DOUBLE_LOSS},
      {"forfeit_a", TB_RESULT_FORFEIT_A},
      {"forfeit_b", TB_RESULT_FORFEIT_B},
      {"double_forfeit", TB_RESULT_DOUBLE_FORFEIT},
      {"half_bye", TB_RESULT_HALF_BYE},
      {"zero_bye", TB_RESULT_ZERO_BYE},
      {"loss", TB_RESULT_LOSS},
  };
  const char *z;
  char *zLit, *zId;
  size_t i;
  *peResult = TB_RESULT_GAMES;
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(v) == SQLITE_TEXT) {
    z = (const char *)sqlite3_value_text(v);
    for (i = 0; z && i < sizeof(aResult) / sizeof(aResult[0]); i++) {
      if (strcmp(z, aResult[i].zName) == 0) {
        *peResult = aResult[i].eResult;
        return SQLITE_OK;
      }
    }
  }
  zLit = value_literal(v);
  zId = value_literal(pA);
  if (zLit && zId) {
    *pzErr = sqlite3_mprintf("unknown result %s in round %d match of player %s "
                             "(expected NULL, 'a', 'b', 'draw', "
                             "'double_loss', 'forfeit_a', 'forfeit_b', "
                             "'double_forfeit', 'half_bye', 'zero_bye' or "
                             "'loss')",
                             zLit, m->iRound, zId);
  }
  sqlite3_free(zLit);
  sqlite3_free(zId);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/*
** End a read loop: a step error becomes the message of SQLite, and the
** statement is reset so that it holds no lock between events.
*/
static int finish(sqlite3 *db, sqlite3_stmt *pStmt, int rc, char **pzErr) {
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc != SQLITE_OK && *pzErr == 0) rc = db_error(db, rc, pzErr);
  sqlite3_reset(pStmt);
  return rc;
}

/* The id of the event to read: a value, or the key of an event of a set. */
typedef struct TbEventId {
  sqlite3_value *pValue;
  const TbKey *pKey;
} TbEventId;

/* Bind the event to a prepared event query. */
static int bind_event(TbReader *r, sqlite3_stmt *pStmt, const TbEventId *pId,
                      char **pzErr) {
  const TbKey *k = pId->pKey;
  int rc;
  if (pId->pValue) {
    rc = sqlite3_bind_value(pStmt, 1, pId->pValue);
  } else if (k->eType == SQLITE_INTEGER) {
    rc = sqlite3_bind_int64(pStmt, 1, k->i);
  } else {
    rc = sqlite3_bind_text(pStmt, 1, k->z, k->n, SQLITE_STATIC);
  }
  return rc == SQLITE_OK ? rc : db_error(r->db, rc, pzErr);
}

static const char *azMatchCol[] = {"event_id", "round",  "player_a", "player_b",
                                   "a_wins",   "b_wins", "draws",    "result",
                                   "phase"};

/* The aggregate call over the columns of a matches row (see rows_step):
** the optional result and phase columns when the table has them; bAll:
** every event's query, which also passes event_id, last. */
static const char *match_columns(int bResult, int bPhase, int bAll) {
  static const char *azCall[8] = {
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws)",
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws, "
      "result)",
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws, "
      "phase)",
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws, "
      "result, phase)",
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws, "
      "event_id)",
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws, "
      "result, event_id)",
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws, "
      "phase, event_id)",
      "tiebreak_rows(?3, round, player_a, player_b, a_wins, b_wins, draws, "
      "result, phase, event_id)"};
  return azCall[(bResult != 0) + 2 * (bPhase != 0) + 4 * (bAll != 0)];
}

static int open_matches(TbReader *r, const TbSource *pSrc, char **pzErr) {
  const char *zTable = pSrc->zMatches;
  unsigned mask;
  int bTable, rc, bResult, bPhase;

  rc = check_table(r, zTable, azMatchCol, 9, 7, &bTable, &mask, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (!bTable) return set_error(pzErr, sqlite3_mprintf("no such table: %s", zTable));
  bResult = (mask >> 7) & 1;
  bPhase = (mask >> 8) & 1;
  if (r->pMatches && r->bResult == bResult && r->bPhase == bPhase &&
      strcmp(r->zMatches, zTable) == 0) {
    return SQLITE_OK; /* the kept statements read this table */
  }
  drop_stmt(&r->pMatches);
  drop_stmt(&r->pAll);
  if ((rc = set_name(&r->zMatches, zTable)) != SQLITE_OK) return rc;
  r->bResult = bResult;
  r->bPhase = bPhase;
  return prepare_event_query(r, match_columns(r->bResult, r->bPhase, 0),
                             zTable, 0, &r->pMatches, pzErr);
}

/* The phase column: NULL, 'swiss' or 'playoff' (TB_PHASE_*). */
static int read_phase(sqlite3_value *v, TbMatch *m, char **pzErr) {
  const char *z;
  char *zLit;
  int rc;
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(v) == SQLITE_TEXT) {
    if ((z = (const char *)sqlite3_value_text(v)) == 0) return SQLITE_NOMEM;
    if (strcmp(z, "swiss") == 0 || strcmp(z, "playoff") == 0) {
      m->ePhase = z[0] == 's' ? TB_PHASE_SWISS : TB_PHASE_PLAYOFF;
      return SQLITE_OK;
    }
  }
  if ((zLit = value_literal(v)) == 0) return SQLITE_NOMEM;
  rc = set_error(pzErr, sqlite3_mprintf("phase must be 'swiss', 'playoff' or "
                                        "NULL, got %s in round %d",
                                        zLit, m->iRound));
  sqlite3_free(zLit);
  return rc;
}

/*
** One row of the matches table, argv[0..6] in the order of azMatchCol[1..],
** then result and phase if the table has them, into m; aRef[0], aRef[1]:
** player_a, player_b is an id of the set.
*/
static int read_match_row(TbRowSink *p, TbMatch *m, unsigned char *aRef,
                          sqlite3_value **a) {
  char **pzErr = p->pzErr;
  int rc, eResult;
  m->iB = -1;
  if ((rc = read_round(a[0], &m->iRound, pzErr)) != SQLITE_OK) return rc;
  rc = read_player(p, a[1], "player_a", m->iRound, &m->iA, &aRef[0]);
  if (rc != SQLITE_OK) return rc;
  rc = read_player(p, a[2], 0, m->iRound, &m->iB, &aRef[1]);
  if (rc != SQLITE_OK) return rc;
  if ((rc = read_count(a[3], "a_wins", m->iRound, &m->nAWins, pzErr)) ||
      (rc = read_count(a[4], "b_wins", m->iRound, &m->nBWins, pzErr)) ||
      (rc = read_count(a[5], "draws", m->iRound, &m->nDraws, pzErr))) {
    return rc;
  }
  if (p->bResult) {
    if ((rc = read_result(a[6], a[1], m, &eResult, pzErr)) != SQLITE_OK) return rc;
    m->eResult = (unsigned char)eResult;
  }
  if (p->bPhase) return read_phase(a[6 + (p->bResult != 0)], m, pzErr);
  return SQLITE_OK;
}

/* ------------------------------------------------------------- event set */

/*
** The set keeps every event's rows compactly (TbSetRow, 36 bytes; ids other
** than small integers once per occurrence in aId and aText) and builds one
** event at a time from them (tb_event_set_build), so that memory holds the
** rows and the largest event, not every event's players and tables.
*/

/* Room for one more element of an array that doubles as it grows. */
static int grow(void **pa, int *pnAlloc, int n, size_t sz, int nFirst) {
  if (n >= *pnAlloc) {
    int nNew = *pnAlloc ? *pnAlloc * 2 : nFirst;
    void *aNew;
    if (nNew <= *pnAlloc) return SQLITE_NOMEM; /* past 2^31 elements */
    aNew = sqlite3_realloc64(*pa, sz * (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    *pa = aNew;
    *pnAlloc = nNew;
  }
  return SQLITE_OK;
}

/* Copy text into the set's arena: *piOff is where it starts. */
static int set_text(TbEventSet *s, const char *z, int n, i64 *piOff) {
  if (s->nText + n + 1 > s->nTextAlloc) {
    i64 nNew = s->nTextAlloc ? s->nTextAlloc * 2 : 4096;
    char *aNew;
    while (nNew < s->nText + n + 1) nNew *= 2;
    aNew = sqlite3_realloc64(s->aText, (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    s->aText = aNew;
    s->nTextAlloc = nNew;
  }
  memcpy(s->aText + s->nText, z, (size_t)n);
  s->aText[s->nText + n] = 0;
  *piOff = s->nText;
  s->nText += n + 1;
  return SQLITE_OK;
}

/* An INTEGER or TEXT value as an id of the set (its text copied). */
static int set_id(TbEventSet *s, sqlite3_value *v, TbSetId *pId) {
  pId->eType = sqlite3_value_type(v);
  pId->n = 0;
  if (pId->eType == SQLITE_TEXT) {
    const char *z = (const char *)sqlite3_value_text(v);
    if (z == 0) return SQLITE_NOMEM;
    pId->n = sqlite3_value_bytes(v);
    return set_text(s, z, pId->n, &pId->i);
  }
  pId->eType = SQLITE_INTEGER; /* whole REALs too (event ids) */
  pId->i = sqlite3_value_int64(v);
  return SQLITE_OK;
}

/* A player id that is not a small integer: kept in aId. */
static int set_id_add(TbEventSet *s, sqlite3_value *v, int *piId) {
  int rc = grow((void **)&s->aId, &s->nIdAlloc, s->nId, sizeof(TbSetId), 64);
  if (rc == SQLITE_OK) rc = set_id(s, v, &s->aId[s->nId]);
  if (rc == SQLITE_OK) *piId = s->nId++;
  return rc;
}

/* An id of the set as a key (its text in the arena: valid until it grows). */
static void set_key(const TbEventSet *s, const TbSetId *pId, TbKey *k) {
  memset(k, 0, sizeof(*k));
  k->eType = pId->eType;
  if (pId->eType == SQLITE_TEXT) {
    k->n = pId->n;
    k->z = s->aText + pId->i;
  } else {
    k->i = pId->i;
  }
}

void tb_event_set_key(const TbEventSet *s, int iEvent, TbKey *pKey) {
  set_key(s, &s->aEvent[iEvent].id, pKey);
}

/* An event id as a key: INTEGER (whole REALs too) or TEXT. */
static int key_of(sqlite3_value *v, TbKey *k) {
  memset(k, 0, sizeof(*k));
  k->eType = sqlite3_value_type(v);
  if (k->eType == SQLITE_TEXT) {
    k->z = (const char *)sqlite3_value_text(v);
    k->n = sqlite3_value_bytes(v);
    return k->z ? SQLITE_OK : SQLITE_NOMEM;
  }
  if (k->eType == SQLITE_INTEGER || tb_value_is_integral(v)) {
    k->eType = SQLITE_INTEGER;
    k->i = sqlite3_value_int64(v);
  }
  return SQLITE_OK;
}

static int key_equal(const TbKey *a, const TbKey *b) {
  if (a->eType != b->eType) return 0;
  if (a->eType == SQLITE_INTEGER) return a->i == b->i;
  return a->n == b->n && memcmp(a->z, b->z, (size_t)a->n) == 0;
}

static sqlite3_uint64 key_hash(const TbKey *k) {
  return k->eType == SQLITE_INTEGER ? tb_hash_int(k->i) : tb_hash_text(k->z, k->n);
}

/* Slot of the id k in the set's hash, or of the empty slot for it. */
static int set_slot(const TbEventSet *s, const TbKey *k) {
  int j = (int)(key_hash(k) & (sqlite3_uint64)(s->nHash - 1));
  while (s->aHash[j]) {
    TbKey e;
    set_key(s, &s->aEvent[s->aHash[j] - 1].id, &e);
    if (key_equal(&e, k)) break;
    j = (j + 1) & (s->nHash - 1);
  }
  return j;
}

/* Rebuild the hash at twice the size. */
static int set_rehash(TbEventSet *s) {
  int nNew = s->nHash ? s->nHash * 2 : 64, i;
  int *aNew = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)nNew);
  if (aNew == 0) return SQLITE_NOMEM;
  memset(aNew, 0, sizeof(int) * (size_t)nNew);
  sqlite3_free(s->aHash);
  s->aHash = aNew;
  s->nHash = nNew;
  for (i = 0; i < s->nEvent; i++) {
    TbKey k;
    set_key(s, &s->aEvent[i].id, &k);
    s->aHash[set_slot(s, &k)] = i + 1;
  }
  return SQLITE_OK;
}

/* The index of the event whose id is v (key k), added if new. */
static int set_event(TbEventSet *s, sqlite3_value *v, const TbKey *k,
                     int *piEvent) {
  int j, rc;
  if ((s->nEvent + 1) * 2 > s->nHash && (rc = set_rehash(s)) != SQLITE_OK) {
    return rc;
  }
  j = set_slot(s, k);
  if (s->aHash[j] == 0) {
    TbSetEvent *e;
    rc = grow((void **)&s->aEvent, &s->nEventAlloc, s->nEvent,
              sizeof(TbSetEvent), 16);
    if (rc != SQLITE_OK) return rc;
    e = &s->aEvent[s->nEvent];
    memset(e, 0, sizeof(*e));
    if ((rc = set_id(s, v, &e->id)) != SQLITE_OK) return rc;
    e->bReal = sqlite3_value_type(v) == SQLITE_FLOAT;
    e->iFirst = e->iLast = -1;
    s->aHash[j] = ++s->nEvent;
  }
  *piEvent = s->aHash[j] - 1;
  return SQLITE_OK;
}

/* A new row at the end of event iEvent's rows. */
static TbSetRow *set_row(TbEventSet *s, int iEvent) {
  TbSetEvent *e = &s->aEvent[iEvent];
  TbSetRow *pRow;
  if (grow((void **)&s->aRow, &s->nRowAlloc, s->nRow, sizeof(TbSetRow), 256)) {
    return 0;
  }
  pRow = &s->aRow[s->nRow];
  memset(pRow, 0, sizeof(*pRow));
  pRow->iNext = -1;
  if (e->iLast >= 0) {
    s->aRow[e->iLast].iNext = s->nRow;
  } else {
    e->iFirst = s->nRow;
  }
  e->iLast = s->nRow++;
  return pRow;
}

void tb_event_set_free(TbEventSet *s) {
  sqlite3_free(s->aEvent);
  sqlite3_free(s->aHash);
  sqlite3_free(s->aOrder);
  sqlite3_free(s->aRow);
  sqlite3_free(s->aId);
  sqlite3_free(s->aText);
  memset(s, 0, sizeof(*s));
}

/* Order the events by id (merge sort of their indexes into aOrder). */
static int set_sort(TbEventSet *s, TbProbe *pProbe) {
  int n = s->nEvent, w, i, rc;
  int *a = sqlite3_malloc64(sizeof(int) * 2 * ((sqlite3_uint64)n + 1));
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < n; i++) a[i] = i;
  for (w = 1; w < n; w *= 2) {
    int *x = a, *y = a + n + 1;
    for (i = 0; i < n; i += 2 * w) {
      int lo = i, mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
      int l = lo, r = mid, o = lo;
      while (l < mid && r < hi) {
        int o0 = o, nStop = o + TB_POLL_WORK;
        while (l < mid && r < hi && o < nStop) {
          TbKey kl, kr;
          set_key(s, &s->aEvent[x[l]].id, &kl);
          set_key(s, &s->aEvent[x[r]].id, &kr);
          y[o++] = tb_key_compare(&kr, &kl) < 0 ? x[r++] : x[l++];
        }
        if ((rc = tb_poll(pProbe, o - o0)) != SQLITE_OK) {
          sqlite3_free(a);
          return rc;
        }
      }
      while (l < mid) y[o++] = x[l++];
      while (r < hi) y[o++] = x[r++];
    }
    memcpy(a, y, sizeof(int) * (size_t)n);
  }
  /* the hash is not needed any more; the order keeps n ints of the 2n */
  sqlite3_free(s->aHash);
  s->aHash = 0;
  s->nHash = 0;
  s->aOrder = sqlite3_realloc64(a, sizeof(int) * ((sqlite3_uint64)n + 1));
  if (s->aOrder == 0) s->aOrder = a;
  return SQLITE_OK;
}

/* A player of a kept row into the event being built. */
static int build_player(const TbEventSet *s, TbEvent *p, int bRef,
                        int *piPlayer) {
  const TbSetId *pId;
  if (!bRef) {
    if (*piPlayer <= -3) p->bDeferred = 1; /* see tb_event_player_later */
    return SQLITE_OK;
  }
  pId = &s->aId[*piPlayer];
  if (pId->eType == SQLITE_INTEGER) {
    return tb_event_player_int(p, pId->i, piPlayer);
  }
  return tb_event_player_text(p, s->aText + pId->i, pId->n, piPlayer);
}

/*
** Event iEvent of the set, from its rows, into an empty event: its matches
** and players as tb_reader_event() would read them (rows in table order).
*/
int tb_event_set_build(const TbEventSet *s, int iEvent, TbEvent *p) {
  int i, rc;
  for (i = s->aEvent[iEvent].iFirst; i >= 0; i = s->aRow[i].iNext) {
    const TbSetRow *pRow = &s->aRow[i];
    TbMatch *m = tb_event_new_match(p);
    if (m == 0) return tb_event_match_error(p);
    *m = pRow->m;
    if ((rc = build_player(s, p, pRow->aRef[0], &m->iA)) != SQLITE_OK ||
        (rc = build_player(s, p, pRow->aRef[1], &m->iB)) != SQLITE_OK) {
      return rc;
    }
  }
  p->bRowsRead = 1;
  return SQLITE_OK;
}

/*
** The event of a row of the all-events query: *piEvent, or -1 for a row
** whose event_id is NULL (it belongs to no event, as a query for one event
** would never read it).
*/
static int sink_event(TbRowSink *p, sqlite3_value *v, int *piEvent) {
  TbKey k;
  int rc;
  *piEvent = -1;
  if ((rc = key_of(v, &k)) != SQLITE_OK) return rc;
  if (k.eType == SQLITE_NULL) return SQLITE_OK;
  if (k.eType != SQLITE_INTEGER && k.eType != SQLITE_TEXT) {
    char *zLit = value_literal(v);
    if (zLit == 0) return SQLITE_NOMEM;
    rc = set_error(p->pzErr, sqlite3_mprintf("event_id must be INTEGER or "
                                             "TEXT, got %s", zLit));
    sqlite3_free(zLit);
    return rc;
  }
  /* rows of one event usually come together */
  if (p->iLast >= 0) {
    TbKey kLast;
    set_key(p->pSet, &p->pSet->aEvent[p->iLast].id, &kLast);
    if (key_equal(&kLast, &k)) {
      *piEvent = p->iLast;
      return SQLITE_OK;
    }
  }
  if ((rc = set_event(p->pSet, v, &k, &p->iLast)) != SQLITE_OK) return rc;
  *piEvent = p->iLast;
  return SQLITE_OK;
}

/* "event 7: <message>": an error met in one of many events names it
** (*pzErr replaced; SQLITE_ERROR, or SQLITE_NOMEM). */
int tb_name_event(const TbKey *pKey, char **pzErr) {
  char *zId = tb_key_text(pKey);
  char *z = zId && *pzErr ? sqlite3_mprintf("event %s: %s", zId, *pzErr) : 0;
  sqlite3_free(zId);
  sqlite3_free(*pzErr);
  *pzErr = z;
  return z ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* "event 7: " before the message of the error rc, the event given as the
** argument pEvent, a TEXT id quoted as tb_name_event() does ('e'); a
** file's text as the event is not shown.  Returns rc, or SQLITE_NOMEM. */
int tb_name_event_value(sqlite3_value *pEvent, int rc, char **pzErr) {
  const char *z = (const char *)sqlite3_value_text(pEvent);
  char *zNew;
  if (z == 0) return SQLITE_NOMEM;
  /* an inner call's message (a recursion) names its own function */
  if (sqlite3_strglob("[a-z_]*(): *", *pzErr) == 0) return rc;
  if (tb_value_is_integral(pEvent)) {
    zNew = sqlite3_mprintf("event %lld: %s", sqlite3_value_int64(pEvent),
                           *pzErr);
  } else if (strlen(z) > 40 || strchr(z, '\n')) {
    zNew = sqlite3_mprintf("the event of the file: %s", *pzErr);
  } else {
    zNew = sqlite3_mprintf("event %Q: %s", z, *pzErr);
  }
  sqlite3_free(*pzErr);
  *pzErr = zNew;
  return zNew ? rc : SQLITE_NOMEM;
}

/* One row of the all-events query, kept in the set. */
static int sink_set_row(TbRowSink *p, int argc, sqlite3_value **argv) {
  TbSetRow *pRow;
  int iEvent;
  int rc = sink_event(p, argv[argc - 1], &iEvent);
  if (rc != SQLITE_OK || iEvent < 0) return rc;
  if ((pRow = set_row(p->pSet, iEvent)) == 0) return SQLITE_NOMEM;
  rc = read_match_row(p, &pRow->m, pRow->aRef, argv + 1);
  if (rc == SQLITE_ERROR) {
    TbKey k;
    tb_event_set_key(p->pSet, iEvent, &k);
    rc = tb_name_event(&k, p->pzErr);
  }
  return rc;
}

/* One row of one event's query. */
static int sink_event_row(TbRowSink *p, sqlite3_value **argv) {
  TbMatch *m = tb_event_new_match(p->pEvent);
  unsigned char aRef[2];
  if (m == 0) return tb_event_match_error(p->pEvent);
  return read_match_row(p, m, aRef, argv + 1);
}

#define TB_ROW_SINK "tiebreak_rows"

/*
** tiebreak_rows(sink, round, player_a, ...): the aggregate the event query
** runs, so that each row reaches read_match_row() as the values SQLite
** already holds, inside one sqlite3_step().  Fetching them with
** sqlite3_column_value() instead costs a call and a mutex per column and
** made reading alone take half again as long as scanning the rows.  The
** sink travels as a pointer bound with sqlite3_bind_pointer(): SQL cannot
** forge one, so the function does nothing useful outside the extension.
*/
static void rows_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  /* the sink, found once per query: sqlite3_value_pointer() compares
  ** type names, a cost per row otherwise */
  TbRowSink **pp;
  TbRowSink *p;
  if (argc < 1) { /* from SQL only: the extension's own calls pass the sink */
    sqlite3_result_error(ctx, "tiebreak_rows() is internal to tiebreak", -1);
    return;
  }
  pp = sqlite3_aggregate_context(ctx, sizeof(TbRowSink *));
  if (pp == 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (*pp == 0) *pp = sqlite3_value_pointer(argv[0], TB_ROW_SINK);
  if ((p = *pp) == 0) {
    sqlite3_result_error(ctx, "tiebreak_rows() is internal to tiebreak", -1);
    return;
  }
  if (p->rc != SQLITE_OK) return;
  p->nRows++;
  p->rc = p->pSet ? sink_set_row(p, argc, argv) : sink_event_row(p, argv);
  if (p->rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(ctx);
  } else if (p->rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, p->rc); /* stops the scan */
  }
}

/* The rows the sink took, which run_rows() checks: a function of the same
** name defined later by the application would take none, silently. */
static void rows_final(sqlite3_context *ctx) {
  TbRowSink **pp = sqlite3_aggregate_context(ctx, 0);
  sqlite3_result_int64(ctx, pp && *pp ? (*pp)->nRows : 0);
}

int tb_register_reader(sqlite3 *db) {
  return sqlite3_create_function(db, "tiebreak_rows", -1,
                                 SQLITE_UTF8 | SQLITE_DIRECTONLY, 0, 0,
                                 rows_step, rows_final);
}

/* Run an event query, its rows going to the sink. */
static int run_rows(TbReader *r, sqlite3_stmt *pStmt, TbRowSink *pSink) {
  char **pzErr = pSink->pzErr;
  int rc = sqlite3_bind_pointer(pStmt, 3, pSink, TB_ROW_SINK, 0);
  if (rc != SQLITE_OK) return db_error(r->db, rc, pzErr);
  rc = sqlite3_step(pStmt);
  if (pSink->rc != SQLITE_OK) {
    rc = pSink->rc;
  } else if (rc == SQLITE_ROW) {
    rc = SQLITE_OK;
    if (sqlite3_column_type(pStmt, 0) != SQLITE_INTEGER ||
        sqlite3_column_int64(pStmt, 0) != pSink->nRows) {
      rc = set_error(pzErr, sqlite3_mprintf("tiebreak_rows() is not "
                                            "tiebreak's: was the function "
                                            "defined again?"));
    }
  }
  rc = finish(r->db, pStmt, rc, pzErr);
  sqlite3_bind_null(pStmt, 3); /* the sink dies with this call */
  return rc;
}

static int read_matches(TbReader *r, const TbEventId *pId, TbEvent *pEvent,
                        char **pzErr) {
  TbRowSink sink;
  int rc = bind_event(r, r->pMatches, pId, pzErr);
  if (rc != SQLITE_OK) return rc;
  memset(&sink, 0, sizeof(sink));
  sink.pEvent = pEvent;
  sink.bResult = r->bResult;
  sink.bPhase = r->bPhase;
  sink.pzErr = pzErr;
  return run_rows(r, r->pMatches, &sink);
}

/*
** Every event's matches in one pass over the table, in its own order (a
** scan, where one query per event would look each event up in the index),
** into a set sorted by event id.
*/
int tb_reader_all(TbReader *r, TbEventSet *pSet, char **pzErr) {
  TbRowSink sink;
  int rc;
  if (r->pAll == 0) {
    rc = prepare_event_query(r, match_columns(r->bResult, r->bPhase, 1),
                             r->zMatches, 1, &r->pAll, pzErr);
    if (rc != SQLITE_OK) return rc;
  }
  if (r->bAsOf && (rc = sqlite3_bind_int64(r->pAll, 2, r->iAsOfRound))) {
    return db_error(r->db, rc, pzErr);
  }
  memset(&sink, 0, sizeof(sink));
  sink.pSet = pSet;
  sink.iLast = -1;
  sink.bResult = r->bResult;
  sink.bPhase = r->bPhase;
  sink.pzErr = pzErr;
  if ((rc = run_rows(r, r->pAll, &sink)) != SQLITE_OK) return rc;
  rc = set_sort(pSet, &r->probe);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    return set_error(pzErr, sqlite3_mprintf("%s", sqlite3_errstr(rc))) ==
                   SQLITE_NOMEM ? SQLITE_NOMEM : rc;
  }
  return rc;
}

static const char *azGameCol[] = {"event_id", "round", "player_a", "game",
                                  "winner"};

/* The most games of one kind (won by either player, drawn) in a match, as
** a_wins, b_wins and draws of the matches table. */
#define TB_MAX_GAME_COUNT 1000000

/*
** The games of one event's rows, by match: (match + 1) << 32 | game, in
** open addressing (0: empty), so that a game listed twice is found.
*/
typedef struct TbGamesSeen {
  sqlite3_uint64 *aKey;
  int nKey, nSlot;
} TbGamesSeen;

/* Add match iMatch's game iGame: 1 if it was there, 0, or SQLITE_NOMEM. */
static int games_seen_add(TbGamesSeen *p, int iMatch, i64 iGame) {
  sqlite3_uint64 k = ((sqlite3_uint64)(iMatch + 1) << 32) | (sqlite3_uint64)iGame;
  int j;
  if ((p->nKey + 1) * 2 > p->nSlot) {
    int nNew = p->nSlot ? p->nSlot * 2 : 256, i;
    sqlite3_uint64 *a = sqlite3_malloc64(sizeof(*a) * (sqlite3_uint64)nNew);
    if (a == 0) return SQLITE_NOMEM;
    memset(a, 0, sizeof(*a) * (size_t)nNew);
    for (i = 0; i < p->nSlot; i++) {
      if (p->aKey[i] == 0) continue;
      j = (int)((p->aKey[i] * 0x9e3779b97f4a7c15ULL) >> 32) & (nNew - 1);
      while (a[j]) j = (j + 1) & (nNew - 1);
      a[j] = p->aKey[i];
    }
    sqlite3_free(p->aKey);
    p->aKey = a;
    p->nSlot = nNew;
  }
  j = (int)((k * 0x9e3779b97f4a7c15ULL) >> 32) & (p->nSlot - 1);
  while (p->aKey[j] && p->aKey[j] != k) j = (j + 1) & (p->nSlot - 1);
  if (p->aKey[j]) return 1;
  p->aKey[j] = k;
  p->nKey++;
  return 0;
}

/* "games table: <zMsg> in round N match of player X" (zMsg freed). */
static int game_error(const TbEvent *pEvent, const TbMatch *m, int iRound,
                      char *zMsg, char **pzErr) {
  char *zId = zMsg ? tb_key_text(&pEvent->aPlayer[m->iA].key) : 0;
  if (zId) {
    *pzErr = sqlite3_mprintf("games table: %s in round %d match of player %s",
                             zMsg, iRound, zId);
  }
  sqlite3_free(zMsg);
  sqlite3_free(zId);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* game_error() of a message about value v: zFmt has one %s, for v. */
static int game_value_error(const TbEvent *pEvent, const TbMatch *m,
                            int iRound, const char *zFmt, sqlite3_value *v,
                            char **pzErr) {
  char *zLit = value_literal(v);
  char *zMsg = zLit ? sqlite3_mprintf(zFmt, zLit) : 0;
  sqlite3_free(zLit);
  return game_error(pEvent, m, iRound, zMsg, pzErr);
}

/* The game number of a row: an integer from 1 to 1000000000, once a match. */
static int read_game_number(TbEvent *pEvent, const TbMatch *m, int iMatch,
                            int iRound, sqlite3_value *v, TbGamesSeen *pSeen,
                            char **pzErr) {
  i64 iGame = sqlite3_value_int64(v);
  int rc;
  if (sqlite3_value_type(v) != SQLITE_INTEGER || iGame < 1 ||
      iGame > 1000000000) {
    return game_value_error(pEvent, m, iRound, "game must be an integer from "
                            "1 to 1000000000, got %s", v, pzErr);
  }
  rc = games_seen_add(pSeen, iMatch, iGame);
  if (rc == 1) {
    return game_error(pEvent, m, iRound,
                      sqlite3_mprintf("game %lld is listed twice", iGame),
                      pzErr);
  }
  return rc;
}

/* Count each game row into its match (see match_settle in event.c). */
static int apply_game(TbEvent *pEvent, sqlite3_stmt *pStmt, TbGamesSeen *pSeen,
                      char **pzErr) {
  int iRound = 0, iPlayer, iWinner, iMatch, *pn;
  const TbSeat *pSeat;
  const TbMatch *m;
  TbGameCount *g;
  sqlite3_value *pWinner;
  int rc = read_round(sqlite3_column_value(pStmt, 0), &iRound, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (sqlite3_column_type(pStmt, 1) == SQLITE_NULL) {
    return set_error(pzErr, sqlite3_mprintf("NULL player_a in round %d of the "
                                            "games table", iRound));
  }
  iPlayer = tb_event_find(pEvent, sqlite3_column_value(pStmt, 1));
  pSeat = iPlayer < 0 ? 0 : tb_event_seat(pEvent, iPlayer, iRound);
  if (pSeat == 0 || pSeat->iOpp < 0) {
    char *zLit = value_literal(sqlite3_column_value(pStmt, 1));
    if (zLit == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("games table: no match of player %s "
                                          "in round %d",
                                          zLit, iRound));
    sqlite3_free(zLit);
    return rc;
  }
  iMatch = pEvent->aSeatMatch[pSeat - pEvent->aSeat];
  m = &pEvent->aMatch[iMatch];
  rc = read_game_number(pEvent, m, iMatch, iRound,
                        sqlite3_column_value(pStmt, 3), pSeen, pzErr);
  if (rc != SQLITE_OK) return rc;
  if ((g = tb_event_game_count(pEvent, iMatch)) == 0) return SQLITE_NOMEM;
  pWinner = sqlite3_column_value(pStmt, 2);
  iWinner = sqlite3_value_type(pWinner) == SQLITE_NULL
                ? -2
                : tb_event_find(pEvent, pWinner);
  pn = iWinner == -2 ? &g->nD : iWinner == m->iA ? &g->nA
                                  : iWinner == m->iB ? &g->nB : 0;
  if (pn == 0) {
    return game_value_error(pEvent, m, iRound, "winner %s did not play",
                            pWinner, pzErr);
  }
  if (*pn >= TB_MAX_GAME_COUNT) {
    return game_error(pEvent, m, iRound,
                      sqlite3_mprintf("more than %d games %s", TB_MAX_GAME_COUNT,
                                      pn == &g->nD ? "drawn" : "won by one "
                                      "player"),
                      pzErr);
  }
  (*pn)++;
  g->nRows++;
  return SQLITE_OK;
}

/* The games table, if any: the default one is optional, a named one not. */
static int open_games(TbReader *r, const TbSource *pSrc, char **pzErr) {
  const char *zGames = pSrc->zGames ? pSrc->zGames : "games";
  unsigned mask;
  int bTable, rc;

  if (zGames[0] == 0) {
    drop_stmt(&r->pGames);
    return SQLITE_OK;
  }
  rc = check_table(r, zGames, azGameCol, 5, 5, &bTable, &mask, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (!bTable) {
    drop_stmt(&r->pGames);
    if (pSrc->zGames == 0) return SQLITE_OK;
    return set_error(pzErr, sqlite3_mprintf("no such table: %s", zGames));
  }
  if (r->pGames && strcmp(r->zGames, zGames) == 0) return SQLITE_OK;
  drop_stmt(&r->pGames);
  if ((rc = set_name(&r->zGames, zGames)) != SQLITE_OK) return rc;
  return prepare_event_query(r, "round, player_a, winner, game", zGames, 0,
                             &r->pGames, pzErr);
}

static int read_games(TbReader *r, const TbEventId *pId, TbEvent *pEvent,
                      char **pzErr) {
  sqlite3_stmt *pStmt = r->pGames;
  TbGamesSeen seen = {0, 0, 0};
  int rc;
  if (pStmt == 0) return SQLITE_OK;
  if ((rc = bind_event(r, pStmt, pId, pzErr)) != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    /* games find their matches through the seats, laid out for them */
    if (pEvent->aSeat == 0 && (rc = tb_event_seats(pEvent, pzErr)) != SQLITE_OK) {
      break;
    }
    if ((rc = apply_game(pEvent, pStmt, &seen, pzErr)) != SQLITE_OK) break;
  }
  sqlite3_free(seen.aKey);
  tb_event_drop_seats(pEvent); /* scoring lays them out again */
  return finish(r->db, pStmt, rc, pzErr);
}

/*
** The players table: registrations.  event_id and player are required;
** the other columns are read when the table has them.  The default table
** (players) is optional, and ignored when it lacks those two columns (a
** table of another shape by that name) unless a tiebreaker needs ratings.
*/
static const char *azPlayerCol[] = {"event_id", "player",  "rating",
                                    "name",     "division", "status",
                                    "dropped_after"};
#define N_PLAYER_COL 7

/* The error of a players table row, naming the player (*pzErr set). */
static int player_row_error(sqlite3_value *pPlayer, const char *zFmt,
                            sqlite3_value *v, char **pzErr) {
  char *zId = value_literal(pPlayer);
  char *zLit = v ? value_literal(v) : sqlite3_mprintf("");
  char *zMsg = zId && zLit ? sqlite3_mprintf(zFmt, zLit) : 0;
  int rc = SQLITE_NOMEM;
  if (zMsg) rc = set_error(pzErr, sqlite3_mprintf("players table: player %s %s",
                                                  zId, zMsg));
  sqlite3_free(zId);
  sqlite3_free(zLit);
  sqlite3_free(zMsg);
  return rc;
}

static int open_players(TbReader *r, const TbSource *pSrc, int bRatings,
                        char **pzErr) {
  const char *zTable = pSrc->zPlayers ? pSrc->zPlayers : "players";
  unsigned mask;
  int bTable, i;
  sqlite3_str *pSql;
  char *zSql;
  int rc = table_columns(r, zTable, azPlayerCol, N_PLAYER_COL, &bTable, &mask,
                         pzErr);
  if (rc != SQLITE_OK) return rc;
  if (bTable && (mask & 3) != 3 && pSrc->zPlayers == 0 && !bRatings) {
    bTable = 0; /* a players table of another kind: not ours to read */
  }
  if (!bTable) {
    drop_stmt(&r->pPlayers);
    if (pSrc->zPlayers == 0 && !bRatings) return SQLITE_OK;
    return set_error(pzErr, sqlite3_mprintf("no such table: %s%s", zTable,
                                            bRatings ? " (a tiebreaker of the "
                                                       "policy needs ratings)"
                                                     : ""));
  }
  for (i = 0; i < (bRatings ? 3 : 2); i++) {
    if ((mask & (1u << i)) == 0) {
      return set_error(pzErr, sqlite3_mprintf("table %s has no column %s",
                                              zTable, azPlayerCol[i]));
    }
  }
  if (r->pPlayers && r->mPlayerCols == mask && strcmp(r->zPlayers, zTable) == 0) {
    return SQLITE_OK;
  }
  drop_stmt(&r->pPlayers);
  if ((rc = set_name(&r->zPlayers, zTable)) != SQLITE_OK) return rc;
  r->mPlayerCols = mask;
  /* the columns it lacks read as NULL */
  pSql = sqlite3_str_new(r->db);
  sqlite3_str_appendall(pSql, "SELECT player");
  for (i = 2; i < N_PLAYER_COL; i++) {
    if (mask & (1u << i)) {
      sqlite3_str_appendf(pSql, ", \"%w\"", azPlayerCol[i]);
    } else {
      sqlite3_str_appendall(pSql, ", NULL");
    }
  }
  sqlite3_str_appendf(pSql, " FROM \"%w\" WHERE event_id = ?1", zTable);
  if ((zSql = sqlite3_str_finish(pSql)) == 0) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(r->db, zSql, -1, &r->pPlayers, 0);
  sqlite3_free(zSql);
  return rc == SQLITE_OK ? rc : db_error(r->db, rc, pzErr);
}

/* A name or division: TEXT (kept in the event) or NULL. */
static int read_reg_text(TbEvent *pEvent, sqlite3_value *pPlayer,
                         sqlite3_value *v, const char *zCol,
                         unsigned char *pbSet, i64 *piOff, int *pn,
                         char **pzErr) {
  const char *z;
  char zFmt[64];
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    sqlite3_snprintf(sizeof(zFmt), zFmt, "has %s %%s (expected TEXT or NULL)",
                     zCol);
    return player_row_error(pPlayer, zFmt, v, pzErr);
  }
  if ((z = (const char *)sqlite3_value_text(v)) == 0) return SQLITE_NOMEM;
  *pn = sqlite3_value_bytes(v);
  *pbSet = 1;
  return tb_event_reg_text(pEvent, z, *pn, piOff);
}

/* status: NULL, 'active', 'dropped' or 'disqualified' (any case). */
static int read_status(sqlite3_value *pPlayer, sqlite3_value *v,
                       unsigned char *peStatus, char **pzErr) {
  static const char *azStatus[] = {"active", "dropped", "disqualified"};
  const char *z;
  int i;
  *peStatus = TB_STATUS_NONE;
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(v) == SQLITE_TEXT) {
    if ((z = (const char *)sqlite3_value_text(v)) == 0) return SQLITE_NOMEM;
    for (i = 0; i < 3; i++) {
      if (sqlite3_stricmp(z, azStatus[i]) == 0) {
        *peStatus = (unsigned char)(TB_STATUS_ACTIVE + i);
        return SQLITE_OK;
      }
    }
  }
  return player_row_error(pPlayer,
                          "has status %s (expected NULL, 'active', 'dropped' "
                          "or 'disqualified')",
                          v, pzErr);
}

/* A whole number in [lo, hi], or NULL (*pbSet 0); else the error. */
static int read_reg_int(sqlite3_value *pPlayer, sqlite3_value *v,
                        const char *zFmt, i64 lo, i64 hi, int *pbSet, i64 *pi,
                        char **pzErr) {
  *pbSet = 0;
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  *pi = sqlite3_value_int64(v);
  if (!tb_value_is_integral(v) || *pi < lo || *pi > hi) {
    return player_row_error(pPlayer, zFmt, v, pzErr);
  }
  *pbSet = 1;
  return SQLITE_OK;
}

/* One row of the players table: player, rating, name, division, status,
** dropped_after. */
static int read_player_row(TbEvent *pEvent, sqlite3_stmt *pStmt,
                           char **pzErr) {
  sqlite3_value *pId = sqlite3_column_value(pStmt, 0);
  int eType = sqlite3_value_type(pId), iPlayer, bSet, rc;
  i64 iVal;
  TbReg *pReg;
  if (eType != SQLITE_INTEGER && eType != SQLITE_TEXT) {
    char *zLit = value_literal(pId);
    if (zLit == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("players table: player must be an "
                                          "INTEGER or TEXT id, got %s",
                                          zLit));
    sqlite3_free(zLit);
    return rc;
  }
  /* as the matches name the player, in either form ('7' finds 7) */
  iPlayer = tb_event_find(pEvent, pId);
  if (iPlayer < 0 && (rc = tb_event_player(pEvent, pId, &iPlayer)) != SQLITE_OK) {
    return rc;
  }
  if ((pReg = tb_event_reg(pEvent, iPlayer)) == 0) return SQLITE_NOMEM;
  if (pReg->bRegistered) {
    return player_row_error(pId, "is registered twice%s", 0, pzErr);
  }
  pReg->bRegistered = 1;
  pReg->iRow = ++pEvent->nRegistered;
  rc = read_reg_int(pId, sqlite3_column_value(pStmt, 1),
                    "has rating %s (expected an integer from "
                    "-4611686018427387904 to 4611686018427387904)",
                    -((i64)1 << 62),
                    (i64)1 << 62, &bSet, &iVal, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (bSet) {
    pReg->bRated = 1;
    pReg->iRating = iVal;
  }
  if ((rc = read_reg_text(pEvent, pId, sqlite3_column_value(pStmt, 2), "name",
                          &pReg->bName, &pReg->iName, &pReg->nName, pzErr)) ||
      (rc = read_reg_text(pEvent, pId, sqlite3_column_value(pStmt, 3),
                          "division", &pReg->bDiv, &pReg->iDiv, &pReg->nDiv,
                          pzErr)) ||
      (rc = read_status(pId, sqlite3_column_value(pStmt, 4), &pReg->eStatus,
                        pzErr)) ||
      (rc = read_reg_int(pId, sqlite3_column_value(pStmt, 5),
                         "has dropped_after %s (expected a round from 0 to "
                         "1000000000)",
                         0, 1000000000, &bSet, &iVal, pzErr))) {
    return rc;
  }
  if (!bSet) return SQLITE_OK;
  if (pReg->eStatus == TB_STATUS_ACTIVE) {
    return player_row_error(pId, "has status 'active' and dropped_after %s",
                            sqlite3_column_value(pStmt, 5), pzErr);
  }
  if (pReg->eStatus == TB_STATUS_NONE) pReg->eStatus = TB_STATUS_DROPPED;
  pReg->iDroppedAfter1 = (int)iVal + 1;
  return SQLITE_OK;
}

/*
** The event's rows of the players table: ratings (chess ARO reads them),
** and registered players with no match rows, who are added.  A player
** without a row, or with a NULL rating, is unrated.
*/
static int read_players(TbReader *r, const TbEventId *pId, TbEvent *pEvent,
                        char **pzErr) {
  sqlite3_stmt *pStmt = r->pPlayers;
  int rc;
  if (pStmt == 0) return SQLITE_OK;
  if ((rc = bind_event(r, pStmt, pId, pzErr)) != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    if ((rc = tb_poll(pEvent->pProbe, 1)) != SQLITE_OK ||
        (rc = read_player_row(pEvent, pStmt, pzErr)) != SQLITE_OK) {
      break;
    }
  }
  rc = finish(r->db, pStmt, rc, pzErr);
  return rc == SQLITE_OK ? tb_event_registered(pEvent, pzErr) : rc;
}

/* ----------------------------------------------------------------- reader */

void tb_reader_init(TbReader *r, sqlite3 *db) {
  memset(r, 0, sizeof(*r));
  r->db = db;
  r->probe.db = db;
}

/* Whether two table arguments are the same (NULL: the default). */
static int same_arg(const char *a, const char *b) {
  return a == 0 ? b == 0 : b != 0 && strcmp(a, b) == 0;
}

/* Whether the last open checked these very tables, read the same way. */
static int same_check(const TbReader *r, const TbSource *pSrc, int bRatings) {
  return r->bChecked && r->bAsOf == (pSrc->iAsOfRound != 0) &&
         r->bCheckedRatings == bRatings &&
         same_arg(r->zCheckedPlayers, pSrc->zPlayers) &&
         strcmp(r->zMatches, pSrc->zMatches) == 0 &&
         same_arg(r->zCheckedGames, pSrc->zGames);
}
/* The round limit of as_of_round, bound to the kept statements. */
static int bind_as_of(TbReader *r, const TbSource *pSrc, char **pzErr) {
  int rc = SQLITE_OK;
  r->iAsOfRound = pSrc->iAsOfRound;
  if (!r->bAsOf) return rc;
  rc = sqlite3_bind_int64(r->pMatches, 2, pSrc->iAsOfRound);
  if (rc == SQLITE_OK && r->pGames) {
    rc = sqlite3_bind_int64(r->pGames, 2, pSrc->iAsOfRound);
  }
  return rc == SQLITE_OK ? rc : db_error(r->db, rc, pzErr);
}

/*
** Check the tables and prepare the queries, for one event or many.  A
** reader kept from an earlier call checks the tables again (their columns
** may have changed) unless it checked the same ones last, and keeps the
** statements that still read the same tables and columns: SQLite prepares
** those again itself after a schema change.  (A standings() cursor, which
** keeps its reader, lives for one run of the statement that opened it.)
** The caller runs tb_reader_reset() or tb_reader_close() before returning
** to SQLite, whatever this returns.
*/
int tb_reader_open(TbReader *r, const TbSource *pSrc, int bRatings,
                   char **pzErr) {
  int rc;
  if (same_check(r, pSrc, bRatings)) {
    /* the same tables as the last call, within one statement: the schema
    ** cannot have changed (a change would make SQLite prepare the kept
    ** statements again, and report what it finds missing) */
    return bind_as_of(r, pSrc, pzErr);
  }
  r->bChecked = 0;
  if (r->bAsOf != (pSrc->iAsOfRound != 0)) {
    drop_stmt(&r->pMatches);
    drop_stmt(&r->pGames);
    drop_stmt(&r->pAll);
    r->bAsOf = pSrc->iAsOfRound != 0;
  }
  rc = open_matches(r, pSrc, pzErr);
  if (rc == SQLITE_OK) rc = open_games(r, pSrc, pzErr);
  if (rc == SQLITE_OK) rc = open_players(r, pSrc, bRatings, pzErr);
  if (rc == SQLITE_OK) rc = bind_as_of(r, pSrc, pzErr);
  if (rc == SQLITE_OK) {
    sqlite3_free(r->zCheckedGames);
    sqlite3_free(r->zCheckedPlayers);
    r->zCheckedGames = r->zCheckedPlayers = 0;
    if ((pSrc->zGames && (rc = set_name(&r->zCheckedGames, pSrc->zGames))) ||
        (pSrc->zPlayers &&
         (rc = set_name(&r->zCheckedPlayers, pSrc->zPlayers)))) {
      return rc;
    }
    r->bCheckedRatings = bRatings;
    r->bChecked = 1;
  }
  return rc;
}

/* Leave every statement reset, holding no lock and no value of the call. */
void tb_reader_reset(TbReader *r) {
  sqlite3_stmt *aStmt[4];
  int i;
  aStmt[0] = r->pMatches;
  aStmt[1] = r->pGames;
  aStmt[2] = r->pPlayers;
  aStmt[3] = r->pAll;
  for (i = 0; i < 4; i++) {
    if (aStmt[i] == 0) continue;
    sqlite3_reset(aStmt[i]);
    sqlite3_clear_bindings(aStmt[i]);
  }
  /* the probe is reset after each step; an interrupt ends with the call */
  r->probe.rc = SQLITE_OK;
  r->probe.nWork = 0;
}

void tb_reader_close(TbReader *r) {
  sqlite3_finalize(r->pXinfo);
  sqlite3_finalize(r->pMatches);
  sqlite3_finalize(r->pGames);
  sqlite3_finalize(r->pPlayers);
  sqlite3_finalize(r->pAll);
  tb_probe_close(&r->probe);
  sqlite3_free(r->zMatches);
  sqlite3_free(r->zGames);
  sqlite3_free(r->zCheckedGames);
  sqlite3_free(r->zCheckedPlayers);
  sqlite3_free(r->zPlayers);
  tb_reader_init(r, r->db);
}

/* Read one event, named by pEventId or else by pKey: its matches (unless
** they were built from a set), their seats, its games and players. */
int tb_reader_event(TbReader *r, sqlite3_value *pEventId, const TbKey *pKey,
                    TbEvent *pEvent, char **pzErr) {
  TbEventId id;
  int rc;
  id.pValue = pEventId;
  id.pKey = pKey;
  rc = pEvent->bRowsRead ? SQLITE_OK : read_matches(r, &id, pEvent, pzErr);
  if (rc == SQLITE_OK) rc = tb_event_index(pEvent, pzErr);
  if (rc == SQLITE_OK) rc = read_games(r, &id, pEvent, pzErr);
  if (rc == SQLITE_OK) rc = read_players(r, &id, pEvent, pzErr);
  return rc;
}
