/*
** reader.c: reading the user's tables.
**
** This is the only file that runs SQL.  It reads one event's rows of the
** matches table (and of the games table when there is one) into a TbEvent,
** and the caller finalizes its statements (tb_reader_close) before returning
** to SQLite, so no statement is left open to block a DROP TABLE or VACUUM.  Table names come from SQL
** arguments and are always quoted as identifiers (%w); the extension never
** writes.  Only the requested event's rows are read: with an index on
** matches(event_id, round) that is a range scan.
*/
#include "tiebreak_int.h"

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
** Which of the wanted columns the table has: bit i of *pMask is set when
** azCol[i] exists.  *pbTable is 0 when there is no such table or view.
*/
static int table_columns(sqlite3 *db, const char *zTable, const char **azCol,
                         int nCol, int *pbTable, unsigned *pMask,
                         char **pzErr) {
  sqlite3_stmt *pStmt = 0;
  int rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_xinfo(?1)",
                              -1, &pStmt, 0);
  *pbTable = 0;
  *pMask = 0;
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(pStmt, 1, zTable, -1, SQLITE_STATIC);
  while (rc == SQLITE_OK && sqlite3_step(pStmt) == SQLITE_ROW) {
    const char *zName = (const char *)sqlite3_column_text(pStmt, 0);
    int i;
    *pbTable = 1;
    for (i = 0; zName && i < nCol; i++) {
      if (sqlite3_stricmp(zName, azCol[i]) == 0) *pMask |= 1u << i;
    }
  }
  if (rc == SQLITE_OK) rc = sqlite3_finalize(pStmt); else sqlite3_finalize(pStmt);
  if (rc != SQLITE_OK) return set_error(pzErr, sqlite3_mprintf("%s", sqlite3_errmsg(db)));
  return SQLITE_OK;
}

/* Check that a table has the required columns (the first nRequired). */
static int check_table(sqlite3 *db, const char *zTable, const char **azCol,
                       int nCol, int nRequired, int *pbTable, unsigned *pMask,
                       char **pzErr) {
  int rc = table_columns(db, zTable, azCol, nCol, pbTable, pMask, pzErr);
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

/* Prepare "SELECT <cols> FROM <table> WHERE event_id=?1 [AND round<=?2]". */
static int prepare_event_query(sqlite3 *db, const char *zCols,
                               const char *zTable, const TbSource *pSrc,
                               sqlite3_stmt **ppStmt, char **pzErr) {
  char *zSql = sqlite3_mprintf("SELECT %s FROM \"%w\" WHERE event_id = ?1%s",
                               zCols, zTable,
                               pSrc->iAsOfRound ? " AND round <= ?2" : "");
  int rc;
  if (zSql == 0) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(db, zSql, -1, ppStmt, 0);
  sqlite3_free(zSql);
  if (rc == SQLITE_OK && pSrc->iAsOfRound) {
    rc = sqlite3_bind_int64(*ppStmt, 2, pSrc->iAsOfRound);
  }
  if (rc != SQLITE_OK) {
    if (rc != SQLITE_NOMEM) {
      rc = set_error(pzErr, sqlite3_mprintf("%s", sqlite3_errmsg(db)));
    }
    sqlite3_finalize(*ppStmt);
    *ppStmt = 0;
  }
  return rc;
}

/* Round of the current row: an integer from 1 up. */
static int read_round(sqlite3_stmt *pStmt, int iCol, int *piRound,
                      char **pzErr) {
  sqlite3_value *v = sqlite3_column_value(pStmt, iCol);
  i64 r = sqlite3_value_int64(v);
  if (sqlite3_value_type(v) != SQLITE_INTEGER || r < 1 || r > 1000000000) {
    char *zLit = value_literal(v);
    int rc;
    if (zLit == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("round must be a positive integer, "
                                          "got %s", zLit));
    sqlite3_free(zLit);
    return rc;
  }
  *piRound = (int)r;
  return SQLITE_OK;
}

/* Find or add the player named in a column. */
static int read_player(TbEvent *pEvent, sqlite3_stmt *pStmt, int iCol,
                       const char *zCol, int iRound, int *piPlayer,
                       char **pzErr) {
  sqlite3_value *v = sqlite3_column_value(pStmt, iCol);
  int rc;
  char *zLit;
  if (sqlite3_value_type(v) == SQLITE_NULL) {
    return set_error(pzErr, sqlite3_mprintf("NULL %s in round %d", zCol, iRound));
  }
  rc = tb_event_player(pEvent, v, piPlayer);
  if (rc != SQLITE_MISMATCH) return rc;
  if ((zLit = value_literal(v)) == 0) return SQLITE_NOMEM;
  rc = set_error(pzErr, sqlite3_mprintf("%s must be an INTEGER or TEXT id, "
                                        "got %s in round %d",
                                        zCol, zLit, iRound));
  sqlite3_free(zLit);
  return rc;
}

/* A game count: an integer (NULL reads as 0). */
static int read_count(sqlite3_stmt *pStmt, int iCol, const char *zCol,
                      int iRound, int *pn, char **pzErr) {
  sqlite3_value *v = sqlite3_column_value(pStmt, iCol);
  int eType = sqlite3_value_type(v);
  i64 n = sqlite3_value_int64(v);
  if (eType == SQLITE_NULL) {
    *pn = 0;
    return SQLITE_OK;
  }
  if (eType != SQLITE_INTEGER || n < -1000000 || n > 1000000) {
    char *zLit = value_literal(v);
    int rc;
    if (zLit == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("%s must be a game count, got %s in "
                                          "round %d",
                                          zCol, zLit, iRound));
    sqlite3_free(zLit);
    return rc;
  }
  *pn = (int)n;
  return SQLITE_OK;
}

static int read_result(sqlite3_stmt *pStmt, int iCol, const TbMatch *m,
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
  };
  sqlite3_value *v = sqlite3_column_value(pStmt, iCol);
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
  zId = value_literal(sqlite3_column_value(pStmt, 1)); /* player_a */
  if (zLit && zId) {
    *pzErr = sqlite3_mprintf("unknown result %s in round %d match of player %s "
                             "(expected NULL, 'a', 'b', 'draw', "
                             "'double_loss', 'forfeit_a', 'forfeit_b', "
                             "'double_forfeit', 'half_bye' or 'zero_bye')",
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
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && *pzErr == 0) {
    rc = set_error(pzErr, sqlite3_mprintf("%s", sqlite3_errmsg(db)));
  }
  sqlite3_reset(pStmt);
  return rc;
}

/* Bind the event to a prepared event query. */
static int bind_event(TbReader *r, sqlite3_stmt *pStmt, sqlite3_value *pEvent,
                      char **pzErr) {
  int rc = sqlite3_bind_value(pStmt, 1, pEvent);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    rc = set_error(pzErr, sqlite3_mprintf("%s", sqlite3_errmsg(r->db)));
  }
  return rc;
}

static const char *azMatchCol[] = {"event_id", "round",  "player_a", "player_b",
                                   "a_wins",   "b_wins", "draws",    "result"};

static int open_matches(TbReader *r, char **pzErr) {
  const char *zTable = r->pSrc->zMatches;
  unsigned mask;
  int bTable, rc;

  rc = check_table(r->db, zTable, azMatchCol, 8, 7, &bTable, &mask, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (!bTable) return set_error(pzErr, sqlite3_mprintf("no such table: %s", zTable));
  r->bResult = (mask >> 7) & 1;
  return prepare_event_query(r->db,
                             r->bResult ? "round, player_a, player_b, a_wins, "
                                          "b_wins, draws, result"
                                        : "round, player_a, player_b, a_wins, "
                                          "b_wins, draws",
                             zTable, r->pSrc, &r->pMatches, pzErr);
}

static int read_matches(TbReader *r, sqlite3_value *pEventId, TbEvent *pEvent,
                        char **pzErr) {
  sqlite3_stmt *pStmt = r->pMatches;
  int rc = bind_event(r, pStmt, pEventId, pzErr);
  if (rc != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    TbMatch m;
    memset(&m, 0, sizeof(m));
    m.iB = -1;
    if ((rc = read_round(pStmt, 0, &m.iRound, pzErr)) != SQLITE_OK) break;
    rc = read_player(pEvent, pStmt, 1, "player_a", m.iRound, &m.iA, pzErr);
    if (rc != SQLITE_OK) break;
    if (sqlite3_column_type(pStmt, 2) != SQLITE_NULL) {
      rc = read_player(pEvent, pStmt, 2, "player_b", m.iRound, &m.iB, pzErr);
      if (rc != SQLITE_OK) break;
    }
    if ((rc = read_count(pStmt, 3, "a_wins", m.iRound, &m.nAWins, pzErr)) ||
        (rc = read_count(pStmt, 4, "b_wins", m.iRound, &m.nBWins, pzErr)) ||
        (rc = read_count(pStmt, 5, "draws", m.iRound, &m.nDraws, pzErr))) {
      break;
    }
    if (r->bResult &&
        (rc = read_result(pStmt, 6, &m, &m.eResult, pzErr)) != SQLITE_OK) {
      break;
    }
    if ((rc = tb_event_add_match(pEvent, &m)) != SQLITE_OK) break;
  }
  return finish(r->db, pStmt, rc, pzErr);
}

static const char *azGameCol[] = {"event_id", "round", "player_a", "winner"};

/* Count each game row into its match (see match_settle in event.c). */
static int apply_game(TbEvent *pEvent, sqlite3_stmt *pStmt, char **pzErr) {
  int iRound, iPlayer, iWinner;
  const TbSeat *pSeat;
  TbMatch *m;
  sqlite3_value *pWinner;
  char *zId;
  int rc = read_round(pStmt, 0, &iRound, pzErr);
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
  m = &pEvent->aMatch[pSeat->iMatch];
  m->nGameRows++;
  pWinner = sqlite3_column_value(pStmt, 2);
  if (sqlite3_value_type(pWinner) == SQLITE_NULL) {
    m->nGD++;
    return SQLITE_OK;
  }
  iWinner = tb_event_find(pEvent, pWinner);
  if (iWinner == m->iA) {
    m->nGA++;
    return SQLITE_OK;
  }
  if (iWinner == m->iB) {
    m->nGB++;
    return SQLITE_OK;
  }
  {
    char *zWinner = value_literal(pWinner);
    zId = tb_key_text(&pEvent->aPlayer[m->iA].key);
    if (zWinner && zId) {
      *pzErr = sqlite3_mprintf("games table: winner %s did not play in round "
                               "%d match of player %s",
                               zWinner, iRound, zId);
    }
    sqlite3_free(zWinner);
    sqlite3_free(zId);
  }
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The games table, if any: the default one is optional, a named one not. */
static int open_games(TbReader *r, char **pzErr) {
  const char *zGames = r->pSrc->zGames ? r->pSrc->zGames : "games";
  unsigned mask;
  int bTable, rc;

  if (zGames[0] == 0) return SQLITE_OK;
  rc = check_table(r->db, zGames, azGameCol, 4, 4, &bTable, &mask, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (!bTable) {
    if (r->pSrc->zGames == 0) return SQLITE_OK;
    return set_error(pzErr, sqlite3_mprintf("no such table: %s", zGames));
  }
  return prepare_event_query(r->db, "round, player_a, winner", zGames, r->pSrc,
                             &r->pGames, pzErr);
}

static int read_games(TbReader *r, sqlite3_value *pEventId, TbEvent *pEvent,
                      char **pzErr) {
  sqlite3_stmt *pStmt = r->pGames;
  int rc;
  if (pStmt == 0) return SQLITE_OK;
  if ((rc = bind_event(r, pStmt, pEventId, pzErr)) != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    if ((rc = apply_game(pEvent, pStmt, pzErr)) != SQLITE_OK) break;
  }
  return finish(r->db, pStmt, rc, pzErr);
}

static const char *azPlayerCol[] = {"event_id", "player", "rating"};

/*
** Ratings, for tiebreakers that average them (chess ARO): the optional
** table players(event_id, player, rating).  A player without a row, or
** with a NULL rating, is unrated.
*/
static int open_ratings(TbReader *r, char **pzErr) {
  unsigned mask;
  int bTable;
  int rc = check_table(r->db, "players", azPlayerCol, 3, 3, &bTable, &mask, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (!bTable) {
    return set_error(pzErr, sqlite3_mprintf("no such table: players (a "
                                            "tiebreaker of the policy needs "
                                            "ratings)"));
  }
  rc = sqlite3_prepare_v2(r->db,
                          "SELECT player, rating FROM players WHERE event_id = ?1",
                          -1, &r->pRatings, 0);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    rc = set_error(pzErr, sqlite3_mprintf("%s", sqlite3_errmsg(r->db)));
  }
  return rc;
}

static int read_ratings(TbReader *r, sqlite3_value *pEventId, TbEvent *pEvent,
                        char **pzErr) {
  sqlite3_stmt *pStmt = r->pRatings;
  int rc;
  if (pStmt == 0) return SQLITE_OK;
  if ((rc = bind_event(r, pStmt, pEventId, pzErr)) != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    int iPlayer = tb_event_find(pEvent, sqlite3_column_value(pStmt, 0));
    sqlite3_value *v = sqlite3_column_value(pStmt, 1);
    if (iPlayer < 0 || sqlite3_value_type(v) == SQLITE_NULL) continue;
    if (sqlite3_value_type(v) != SQLITE_INTEGER) {
      char *zLit = value_literal(v);
      if (zLit == 0) {
        rc = SQLITE_NOMEM;
        break;
      }
      rc = set_error(pzErr, sqlite3_mprintf("rating must be an integer, got %s",
                                            zLit));
      sqlite3_free(zLit);
      break;
    }
    pEvent->aPlayer[iPlayer].bRated = 1;
    pEvent->aPlayer[iPlayer].iRating = sqlite3_value_int64(v);
  }
  return finish(r->db, pStmt, rc, pzErr);
}

/* ----------------------------------------------------------------- reader */

/*
** Check the tables and prepare the queries once, for one event or many.
** Every statement is finalized by tb_reader_close(), which the caller runs
** before returning to SQLite.
*/
int tb_reader_open(TbReader *r, sqlite3 *db, const TbSource *pSrc,
                   int bRatings, char **pzErr) {
  int rc;
  memset(r, 0, sizeof(*r));
  r->db = db;
  r->pSrc = pSrc;
  rc = open_matches(r, pzErr);
  if (rc == SQLITE_OK) rc = open_games(r, pzErr);
  if (rc == SQLITE_OK && bRatings) rc = open_ratings(r, pzErr);
  if (rc != SQLITE_OK) tb_reader_close(r);
  return rc;
}

void tb_reader_close(TbReader *r) {
  sqlite3_finalize(r->pMatches);
  sqlite3_finalize(r->pGames);
  sqlite3_finalize(r->pRatings);
  sqlite3_finalize(r->pEvents);
  r->pMatches = r->pGames = r->pRatings = r->pEvents = 0;
}

/*
** The next event of the matches table, in index order, or SQLITE_DONE.
** *ppEvent stays valid until the next call.
*/
int tb_reader_next_event(TbReader *r, sqlite3_value **ppEvent, char **pzErr) {
  int rc;
  if (r->pEvents == 0) {
    char *zSql = sqlite3_mprintf("SELECT DISTINCT event_id FROM \"%w\"",
                                 r->pSrc->zMatches);
    if (zSql == 0) return SQLITE_NOMEM;
    rc = sqlite3_prepare_v2(r->db, zSql, -1, &r->pEvents, 0);
    sqlite3_free(zSql);
    if (rc != SQLITE_OK) return finish(r->db, r->pEvents, rc, pzErr);
  }
  rc = sqlite3_step(r->pEvents);
  if (rc == SQLITE_ROW) {
    *ppEvent = sqlite3_column_value(r->pEvents, 0);
    return rc;
  }
  return finish(r->db, r->pEvents, rc, pzErr) == SQLITE_OK ? SQLITE_DONE : rc;
}

/* Read one event: its matches, their seats, its games and ratings. */
int tb_reader_event(TbReader *r, sqlite3_value *pEventId, TbEvent *pEvent,
                    char **pzErr) {
  int rc = read_matches(r, pEventId, pEvent, pzErr);
  if (rc == SQLITE_OK) rc = tb_event_index(pEvent, pzErr);
  if (rc == SQLITE_OK) rc = read_games(r, pEventId, pEvent, pzErr);
  if (rc == SQLITE_OK) rc = read_ratings(r, pEventId, pEvent, pzErr);
  return rc;
}
