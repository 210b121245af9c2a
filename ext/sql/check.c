/*
** sql/check.c: standings_check(), every difference between what an event's
** file (or table) published and what the rules compute.
**
**   -- a Melee.gg file: points, record, OMW%, GW%, OGW% and places
**   SELECT * FROM standings_check(CAST(readfile('event.json') AS TEXT),
**                                 'melee_2024', 'melee_matches', 'melee_players');
**
**   -- a TRF file: points and ranks
**   SELECT * FROM standings_check(CAST(readfile('event.trf') AS TEXT), 'fide',
**                                 'trf_matches', 'trf_players');
**
**   -- your own tables: every event, with the published columns of players
**   SELECT event_id, * FROM standings_check WHERE policy = 'mtg(floor=1/3)';
**
** One row per difference: player, what (the standings() column, or
** 'record' for wins-losses-draws), published, computed, and a reason where
** the rows tell one.  A file that checks clean gives no row.
**
** What is published is read from the players table under one convention:
** a column published_X holds the value the platform printed for the
** standings() column X (published_rank, published_points,
** published_match_points, published_wins, published_omwp, ...).  The file
** readers expose their figures under those names (hidden columns), a user's
** table names its own columns so.  The computed side is standings() itself,
** called with the same tables, so this file is the one place that compares.
**
** Precision: integers (points, records, ranks, Buchholz ...) are compared
** exactly; a REAL value (a percentage) matches when the computed value is
** within half a unit of the last decimal the platform prints, the most
** decimals any published value of that column shows in the event (Melee:
** 8).  See docs/check.md.
*/
#include "../tiebreak_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ARG_EVENT, ARG_POLICY, ARG_MATCHES, ARG_PLAYERS, ARG_ROUND, N_ARG };
enum { COL_PLAYER, COL_WHAT, COL_PUBLISHED, COL_COMPUTED, COL_REASON, N_COL };
#define FIRST_ARG N_COL

/* At most this many published columns are compared. */
#define CHECK_MAX_PUB 64

/* One difference, as a row. */
typedef struct CheckRow {
  sqlite3_value *pEvent;        /* NULL: the event argument's */
  sqlite3_value *pPlayer, *pPublished, *pComputed;
  char *zPub, *zComp;           /* a record's values as text, or NULL */
  char *zWhat;                  /* the standings() column, or "record" */
  char *zReason;                /* or NULL */
  int bDrop;                    /* not a difference after all */
} CheckRow;

/* One published column: where it is in the players and standings rows. */
typedef struct PubCol {
  char *zName;                  /* the standings() column: "omwp" */
  int iStd;                     /* its column in the standings rows */
  int bReal;                    /* compared at the published precision */
  int iRecord;                  /* 0 wins, 1 losses, 2 draws, else -1 */
  double rTol;                  /* this event's tolerance */
} PubCol;

/* A player's published values: the event, the player, then apVal[nPub]. */
typedef struct PubRow {
  sqlite3_value *pEvent, *pPlayer;
  sqlite3_value *apVal[1];
} PubRow;

/* A player's round, from the matches table, for the reasons. */
typedef struct Seat {
  sqlite3_value *pPlayer;       /* owned by the seat list */
  int iRound;
  int bZero;                    /* result 'zero_bye': no game, no point */
  int bFromStandings;           /* source = 'standings': not in the rounds */
  int bPlayoff;                 /* phase = 'playoff' */
  char zEntry[16];              /* as the file writes it, or "" */
} Seat;

/* A player's places, kept until their event ends: a rank row's reason
** depends on the other players'. */
typedef struct RankFact {
  double rPub, rComp;           /* rComp NaN: no place (disqualified) */
  int bOtherDiffers;            /* another value of the player differs */
  int iRow;                     /* the rank row in aRow, or -1 */
} RankFact;

typedef struct CheckCursor {
  sqlite3_vtab_cursor base;
  CheckRow *aRow;
  int nRow, nRowAlloc, iRow;
  sqlite3_value *apArg[N_ARG];
  /* while xFilter runs */
  PubCol aPub[CHECK_MAX_PUB];
  int nPub;
  int iStdPlayer, iStdEvent;
  PubRow **apPub;
  int nPubRow, nPubRowAlloc;
  Seat *aSeat;
  int nSeat, nSeatAlloc;
  int bSeats;                   /* aSeat holds the current event's */
  int bResult, bEntry, bSource, bPhase; /* optional columns of the matches table */
  int iMaxSwissRound;           /* the event's last round not a playoff */
  int bPlayoffValued;           /* the policy counts the playoff in values
                                ** (playoff_values): no reason of its own */
  RankFact *aRank;              /* the current event's players */
  int nRank, nRankAlloc;
  int iPubRank;                 /* the published_rank column, or -1 */
  TbProbe probe;
} CheckCursor;

typedef struct CheckVtab {
  sqlite3_vtab base;
  sqlite3 *db;
} CheckVtab;

/* ------------------------------------------------------------- values */

/* An id as an integer: INTEGER, a whole REAL, or text written as the
** integer prints ('7', not '07'); ids given either way are one player. */
static int id_as_int(sqlite3_value *v, i64 *pi) {
  int e = sqlite3_value_type(v);
  if (e == SQLITE_INTEGER) {
    *pi = sqlite3_value_int64(v);
    return 1;
  }
  if (e == SQLITE_FLOAT) {
    double r = sqlite3_value_double(v);
    if (r != floor(r) || fabs(r) > 9e15) return 0;
    *pi = (i64)r;
    return 1;
  }
  if (e == SQLITE_TEXT) {
    const char *z = (const char *)sqlite3_value_text(v);
    char zBuf[32];
    i64 i;
    int n = sqlite3_value_bytes(v);
    if (z == 0 || n == 0 || n > 20) return 0;
    if (sscanf(z, "%lld", &i) != 1) return 0;
    sqlite3_snprintf(sizeof(zBuf), zBuf, "%lld", i);
    if ((int)strlen(zBuf) != n || memcmp(zBuf, z, (size_t)n) != 0) return 0;
    *pi = i;
    return 1;
  }
  return 0;
}

/* Order of ids: integers, then text, then blobs, each by value. */
static int id_cmp(sqlite3_value *a, sqlite3_value *b) {
  i64 x = 0, y = 0;             /* set by id_as_int() when it returns 1 */
  int ia = id_as_int(a, &x), ib = id_as_int(b, &y), ta, tb, na, nb, c;
  const void *pa, *pb;
  if (ia && ib) return x < y ? -1 : x > y;
  if (ia != ib) return ia ? -1 : 1;
  ta = sqlite3_value_type(a);
  tb = sqlite3_value_type(b);
  if (ta != tb) return ta < tb ? -1 : 1;
  if (ta == SQLITE_NULL) return 0;
  pa = ta == SQLITE_BLOB ? sqlite3_value_blob(a) : (const void *)sqlite3_value_text(a);
  pb = tb == SQLITE_BLOB ? sqlite3_value_blob(b) : (const void *)sqlite3_value_text(b);
  na = sqlite3_value_bytes(a);
  nb = sqlite3_value_bytes(b);
  if (pa == 0 || pb == 0) return (pa != 0) - (pb != 0); /* empty blobs */
  c = memcmp(pa, pb, (size_t)(na < nb ? na : nb));
  return c ? c : (na < nb ? -1 : na > nb);
}

/*
** Events as keys.  With an event argument every row is that event's, and
** the key is NULL: the argument (a file's text, maybe megabytes) is
** neither copied per row nor compared.
*/
static int event_cmp(sqlite3_value *a, sqlite3_value *b) {
  if (a == 0 || b == 0) return (a != 0) - (b != 0);
  return id_cmp(a, b);
}

/*
** The fewest decimals that write r back (Melee's 0.66666667: 8), within a
** few units in the last place: a value computed in floating point
** (0.447449 + 0.01 is 0.45744900000000003) shows the decimals it was
** meant to.
*/
static int decimals_shown(double r) {
  int k;
  char zBuf[64];
  if (!isfinite(r) || fabs(r) > 1e15) return 0;
  for (k = 0; k < 17; k++) {
    snprintf(zBuf, sizeof(zBuf), "%.*f", k, r);
    if (fabs(strtod(zBuf, 0) - r) <= fabs(r) * 0x1p-50) return k;
  }
  return 17;
}

/* A published value as a number: INTEGER or REAL, numeric text read so. */
static int published_number(sqlite3_value *v, double *pr) {
  int e = sqlite3_value_numeric_type(v);
  if (e != SQLITE_INTEGER && e != SQLITE_FLOAT) return 0;
  *pr = sqlite3_value_double(v);
  return 1;
}

/* A value as the reasons print it: 9, 12.5, 0.66666667. */
static char *number_text(double r) {
  return sqlite3_mprintf("%.15g", r);
}

/* ------------------------------------------------------------- errors */

static int check_error(sqlite3_vtab *pVtab, char *zMsg) {
  static const char zInner[] = "standings(): ";
  const char *z = zMsg;
  sqlite3_free(pVtab->zErrMsg);
  if (zMsg == 0) return SQLITE_NOMEM;
  if (strncmp(z, zInner, sizeof(zInner) - 1) == 0) z += sizeof(zInner) - 1;
  pVtab->zErrMsg = sqlite3_mprintf("standings_check(): %s", z);
  sqlite3_free(zMsg);
  return pVtab->zErrMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The error of a statement that failed with rc: its message, passed on. */
static int stmt_error(sqlite3_vtab *pVtab, sqlite3 *db, int rc) {
  if (rc == SQLITE_NOMEM) return rc;
  if (check_error(pVtab, sqlite3_mprintf("%s", sqlite3_errmsg(db))) == SQLITE_NOMEM) {
    return SQLITE_NOMEM;
  }
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_ERROR : rc;
}

/* ------------------------------------------------------------- connect */

static int checkConnect(sqlite3 *db, void *pAux, int argc,
                        const char *const *argv, sqlite3_vtab **ppVtab,
                        char **pzErr) {
  CheckVtab *p;
  int rc = sqlite3_declare_vtab(db,
      "CREATE TABLE x(player, what, published, computed, reason, "
      "event_id BLOB HIDDEN, policy BLOB HIDDEN, matches_table BLOB HIDDEN, "
      "players_table BLOB HIDDEN, as_of_round BLOB HIDDEN)");
  (void)pAux;
  (void)argc;
  (void)argv;
  (void)pzErr;
  if (rc != SQLITE_OK) return rc;
  p = sqlite3_malloc64(sizeof(*p));
  if (p == 0) return SQLITE_NOMEM;
  memset(p, 0, sizeof(*p));
  p->db = db;
  *ppVtab = &p->base;
  return SQLITE_OK;
}

static int checkDisconnect(sqlite3_vtab *pVtab) {
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

/*
** Arguments are = or IS constraints on the hidden columns; idxNum is the
** bitmask of those present, passed to xFilter in bit order.  The policy is
** required; without the event, every event of the tables.
*/
static int checkBestIndex(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo) {
  int rc = tb_args_best_index(pInfo, FIRST_ARG, N_ARG, 1 << ARG_POLICY);
  if (rc == SQLITE_ERROR) {
    return check_error(pVtab, sqlite3_mprintf(
        "the policy argument is required, e.g. standings_check(1, 'mtg') or "
        "WHERE policy = 'mtg' for every event"));
  }
  if (rc != SQLITE_OK) return rc;
  pInfo->estimatedCost = (pInfo->idxNum & (1 << ARG_EVENT)) ? 1000.0 : 1e6;
  pInfo->estimatedRows = 10;
  return SQLITE_OK;
}

/* -------------------------------------------------------------- cursor */

static int checkOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCur) {
  CheckCursor *c = sqlite3_malloc64(sizeof(*c));
  if (c == 0) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  c->probe.db = ((CheckVtab *)pVtab)->db;
  *ppCur = &c->base;
  return SQLITE_OK;
}

static void seats_clear(CheckCursor *c) {
  int i;
  for (i = 0; i < c->nSeat; i++) sqlite3_value_free(c->aSeat[i].pPlayer);
  c->nSeat = 0;
  c->bSeats = 0;
  c->iMaxSwissRound = 0;
}

/* What xFilter builds and no row needs. */
static void work_clear(CheckCursor *c) {
  int i, k;
  for (i = 0; i < c->nPubRow; i++) {
    sqlite3_value_free(c->apPub[i]->pEvent);
    sqlite3_value_free(c->apPub[i]->pPlayer);
    for (k = 0; k < c->nPub; k++) sqlite3_value_free(c->apPub[i]->apVal[k]);
    sqlite3_free(c->apPub[i]);
  }
  sqlite3_free(c->apPub);
  c->apPub = 0;
  c->nPubRow = c->nPubRowAlloc = 0;
  seats_clear(c);
  sqlite3_free(c->aSeat);
  c->aSeat = 0;
  c->nSeatAlloc = 0;
  for (i = 0; i < c->nPub; i++) sqlite3_free(c->aPub[i].zName);
  c->nPub = 0;
  sqlite3_free(c->aRank);
  c->aRank = 0;
  c->nRank = c->nRankAlloc = 0;
}

static void row_free(CheckRow *r) {
  sqlite3_value_free(r->pEvent);
  sqlite3_value_free(r->pPlayer);
  sqlite3_value_free(r->pPublished);
  sqlite3_value_free(r->pComputed);
  sqlite3_free(r->zPub);
  sqlite3_free(r->zComp);
  sqlite3_free(r->zWhat);
  sqlite3_free(r->zReason);
}

static void cursor_reset(CheckCursor *c) {
  int i;
  work_clear(c);
  for (i = 0; i < c->nRow; i++) row_free(&c->aRow[i]);
  sqlite3_free(c->aRow);
  c->aRow = 0;
  c->nRow = c->nRowAlloc = c->iRow = 0;
  for (i = 0; i < N_ARG; i++) {
    sqlite3_value_free(c->apArg[i]);
    c->apArg[i] = 0;
  }
}

static int checkClose(sqlite3_vtab_cursor *cur) {
  CheckCursor *c = (CheckCursor *)cur;
  cursor_reset(c);
  tb_probe_close(&c->probe);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* --------------------------------------------------- published columns */

/* Columns 0 .. of the players table's published_X columns, X a column of
** the standings statement pStd. */
static int find_published(sqlite3_vtab *pVtab, CheckCursor *c, sqlite3 *db,
                          const char *zTable, sqlite3_stmt *pStd) {
  sqlite3_stmt *pInfo = 0;
  int rc, nCol = sqlite3_column_count(pStd), bTable = 0, i;
  rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_xinfo(?1)", -1,
                          &pInfo, 0);
  if (rc != SQLITE_OK) return stmt_error(pVtab, db, rc);
  sqlite3_bind_text(pInfo, 1, zTable, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step(pInfo)) == SQLITE_ROW) {
    const char *zName = (const char *)sqlite3_column_text(pInfo, 0);
    PubCol *p;
    bTable = 1;
    if (zName == 0 || sqlite3_strnicmp(zName, "published_", 10) != 0) continue;
    if (c->nPub == CHECK_MAX_PUB) {
      rc = check_error(pVtab, sqlite3_mprintf("%s has more than %d published_ "
                                              "columns", zTable, CHECK_MAX_PUB));
      break;
    }
    p = &c->aPub[c->nPub];
    memset(p, 0, sizeof(*p));
    p->iStd = -1;
    for (i = 0; i < nCol; i++) {
      if (sqlite3_stricmp(sqlite3_column_name(pStd, i), zName + 10) == 0) p->iStd = i;
    }
    if (p->iStd < 0) {
      rc = check_error(pVtab, sqlite3_mprintf("%s has column %s, but standings() "
                                              "has no column %s", zTable, zName,
                                              zName + 10));
      break;
    }
    p->zName = sqlite3_mprintf("%s", sqlite3_column_name(pStd, p->iStd));
    if (p->zName == 0) {
      rc = SQLITE_NOMEM;
      break;
    }
    if (sqlite3_stricmp(p->zName, "rank") == 0) c->iPubRank = c->nPub;
    c->nPub++;
    {
      const TbTiebreaker *t = tb_tiebreaker_find(p->zName, (int)strlen(p->zName));
      p->bReal = t != 0 && t->eType == TB_REAL;
    }
    p->iRecord = sqlite3_stricmp(p->zName, "wins") == 0     ? 0
                 : sqlite3_stricmp(p->zName, "losses") == 0 ? 1
                 : sqlite3_stricmp(p->zName, "draws") == 0  ? 2 : -1;
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  else if (rc != SQLITE_OK && rc != SQLITE_ERROR && rc != SQLITE_NOMEM) {
    rc = stmt_error(pVtab, db, rc);
  }
  sqlite3_finalize(pInfo);
  if (rc != SQLITE_OK) return rc;
  if (!bTable) {
    return check_error(pVtab, sqlite3_mprintf("no such table: %s", zTable));
  }
  if (c->nPub == 0) {
    return check_error(pVtab, sqlite3_mprintf(
        "%s has no published_ column (published_rank, published_points, "
        "published_omwp, ...): nothing to compare", zTable));
  }
  return SQLITE_OK;
}

static int pub_before(void *pCtx, const void *a, const void *b) {
  const PubRow *x = *(PubRow *const *)a, *y = *(PubRow *const *)b;
  int k = event_cmp(x->pEvent, y->pEvent);
  (void)pCtx;
  return k ? k < 0 : id_cmp(x->pPlayer, y->pPlayer) < 0;
}

/*
** Bind the event's id in its other form (tb_id_other_form: the text '1'
** for the integer 1 or the REAL 1.0, and back), as standings() tries an id
** that finds no rows; 0 if it has none.
*/
static int bind_other_form(sqlite3_stmt *p, sqlite3_value *pEvent) {
  sqlite3_value *pOther = 0;
  int bBound = tb_id_other_form(sqlite3_db_handle(p), pEvent, &pOther) ==
                   SQLITE_OK &&
               pOther && sqlite3_bind_value(p, 1, pOther) == SQLITE_OK;
  sqlite3_value_free(pOther);
  return bBound;
}

/* Every published row (of the event, when given), sorted by event and
** player.  A published value must be a number. */
static int read_published(sqlite3_vtab *pVtab, CheckCursor *c, sqlite3 *db,
                          const char *zTable) {
  sqlite3_str *pSql = sqlite3_str_new(db);
  sqlite3_stmt *pStmt = 0;
  char *zSql;
  int rc, k, bEvent = c->apArg[ARG_EVENT] != 0;
  sqlite3_str_appendf(pSql, "SELECT %s, player", bEvent ? "NULL" : "event_id");
  for (k = 0; k < c->nPub; k++) {
    sqlite3_str_appendf(pSql, ", \"published_%w\"", c->aPub[k].zName);
  }
  sqlite3_str_appendf(pSql, " FROM \"%w\"%s", zTable,
                      bEvent ? " WHERE event_id = ?1" : "");
  zSql = sqlite3_str_finish(pSql);
  if (zSql == 0) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  sqlite3_free(zSql);
  if (rc != SQLITE_OK) return stmt_error(pVtab, db, rc);
  if (bEvent) sqlite3_bind_value(pStmt, 1, c->apArg[ARG_EVENT]);
  rc = sqlite3_step(pStmt);
  if (rc == SQLITE_DONE && bEvent) {
    sqlite3_reset(pStmt);
    if (bind_other_form(pStmt, c->apArg[ARG_EVENT])) rc = sqlite3_step(pStmt);
  }
  for (; rc == SQLITE_ROW; rc = sqlite3_step(pStmt)) {
    PubRow *p;
    if (c->nPubRow == c->nPubRowAlloc) {
      int nNew = c->nPubRowAlloc ? 2 * c->nPubRowAlloc : 64;
      PubRow **ap = sqlite3_realloc64(c->apPub, sizeof(PubRow *) * (sqlite3_uint64)nNew);
      if (ap == 0) { rc = SQLITE_NOMEM; break; }
      c->apPub = ap;
      c->nPubRowAlloc = nNew;
    }
    p = sqlite3_malloc64(sizeof(PubRow) + sizeof(sqlite3_value *) * (sqlite3_uint64)c->nPub);
    if (p == 0) { rc = SQLITE_NOMEM; break; }
    memset(p, 0, sizeof(PubRow) + sizeof(sqlite3_value *) * (sqlite3_uint64)c->nPub);
    c->apPub[c->nPubRow++] = p;
    p->pEvent = bEvent ? 0 : sqlite3_value_dup(sqlite3_column_value(pStmt, 0));
    p->pPlayer = sqlite3_value_dup(sqlite3_column_value(pStmt, 1));
    if ((p->pEvent == 0 && !bEvent) || p->pPlayer == 0) { rc = SQLITE_NOMEM; break; }
    for (k = 0; k < c->nPub; k++) {
      sqlite3_value *v = sqlite3_column_value(pStmt, 2 + k);
      double r;
      if (sqlite3_value_type(v) == SQLITE_NULL) continue;
      if (!published_number(v, &r)) {
        rc = check_error(pVtab, sqlite3_mprintf(
            "%s: published_%s of player '%s' is not a number: '%s'", zTable,
            c->aPub[k].zName, sqlite3_column_text(pStmt, 1),
            sqlite3_value_text(v)));
        break;
      }
      if ((p->apVal[k] = sqlite3_value_dup(v)) == 0) { rc = SQLITE_NOMEM; break; }
    }
    if (rc != SQLITE_ROW) break;
    if ((rc = tb_poll(&c->probe, 1)) != SQLITE_OK) break;
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  else if (rc != SQLITE_OK && rc != SQLITE_ERROR && rc != SQLITE_NOMEM &&
           rc != SQLITE_INTERRUPT) {
    rc = stmt_error(pVtab, db, rc);
  }
  sqlite3_finalize(pStmt);
  if (rc == SQLITE_OK && bEvent && c->nPubRow == 0) {
    /* a wrong table or event would otherwise check clean */
    return check_error(pVtab, sqlite3_mprintf("%s has no row of the event: nothing "
                                              "published to compare", zTable));
  }
  if (rc == SQLITE_OK) {
    rc = tb_text_arg_sort((void **)&c->apPub, c->nPubRow, sizeof(PubRow *),
                          pub_before, &c->probe);
  }
  return rc;
}

/* The first published row of the event at or after index lo. */
static int pub_lower(const CheckCursor *c, sqlite3_value *pEvent,
                     sqlite3_value *pPlayer) {
  int lo = 0, hi = c->nPubRow;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2, k = event_cmp(c->apPub[mid]->pEvent, pEvent);
    if (k == 0 && pPlayer) k = id_cmp(c->apPub[mid]->pPlayer, pPlayer);
    if (k < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Half a unit of the nth decimal: 0.5 x 10^-n, without pow(), whose
** newer glibc symbol would raise the module's glibc requirement. */
static double half_unit(int n) {
  double r = 0.5;
  while (n-- > 0) r /= 10.0;
  return r;
}

/* This event's tolerance per column: half a unit of the last decimal the
** platform prints, the most any of its published values shows. */
static void event_tolerances(CheckCursor *c, sqlite3_value *pEvent) {
  int i = pub_lower(c, pEvent, 0), k;
  int aDec[CHECK_MAX_PUB];
  memset(aDec, 0, sizeof(aDec));
  for (; i < c->nPubRow && event_cmp(c->apPub[i]->pEvent, pEvent) == 0; i++) {
    for (k = 0; k < c->nPub; k++) {
      sqlite3_value *v = c->apPub[i]->apVal[k];
      double r;
      if (v && published_number(v, &r)) {
        int d = decimals_shown(r);
        if (d > aDec[k]) aDec[k] = d;
      }
    }
  }
  for (k = 0; k < c->nPub; k++) {
    c->aPub[k].rTol = c->aPub[k].bReal ? half_unit(aDec[k]) : 0.0;
  }
}

/* ------------------------------------------------------------- seats */

static int seat_before(void *pCtx, const void *a, const void *b) {
  const Seat *x = a, *y = b;
  int k = id_cmp(x->pPlayer, y->pPlayer);
  (void)pCtx;
  return k ? k < 0 : x->iRound < y->iRound;
}

static int add_seat(CheckCursor *c, sqlite3_value *pPlayer, sqlite3_stmt *p) {
  Seat *s;
  const char *zResult = (const char *)sqlite3_column_text(p, 3);
  if (c->nSeat == c->nSeatAlloc) {
    int nNew = c->nSeatAlloc ? 2 * c->nSeatAlloc : 64;
    Seat *a = sqlite3_realloc64(c->aSeat, sizeof(Seat) * (sqlite3_uint64)nNew);
    if (a == 0) return SQLITE_NOMEM;
    c->aSeat = a;
    c->nSeatAlloc = nNew;
  }
  s = &c->aSeat[c->nSeat];
  memset(s, 0, sizeof(*s));
  if ((s->pPlayer = sqlite3_value_dup(pPlayer)) == 0) return SQLITE_NOMEM;
  c->nSeat++;
  s->iRound = sqlite3_column_int(p, 0);
  s->bZero = zResult && strcmp(zResult, "zero_bye") == 0;
  if (c->bEntry && sqlite3_column_type(p, 4) == SQLITE_TEXT) {
    sqlite3_snprintf(sizeof(s->zEntry), s->zEntry, "%s", sqlite3_column_text(p, 4));
  }
  if (c->bSource) {
    const char *z = (const char *)sqlite3_column_text(p, 5);
    s->bFromStandings = z && strcmp(z, "standings") == 0;
  }
  if (c->bPhase) {
    const char *z = (const char *)sqlite3_column_text(p, 6);
    s->bPlayoff = z && strcmp(z, "playoff") == 0;
  }
  if (!s->bPlayoff && s->iRound > c->iMaxSwissRound) c->iMaxSwissRound = s->iRound;
  return SQLITE_OK;
}

/* Whether zTable has column zCol (the matches table's optional ones). */
static int has_column(sqlite3 *db, const char *zTable, const char *zCol, int *pb) {
  sqlite3_stmt *p = 0;
  int rc = sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_xinfo(?1) "
                                  "WHERE name = ?2 COLLATE NOCASE", -1, &p, 0);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_text(p, 1, zTable, -1, SQLITE_STATIC);
  sqlite3_bind_text(p, 2, zCol, -1, SQLITE_STATIC);
  rc = sqlite3_step(p);
  *pb = rc == SQLITE_ROW;
  rc = sqlite3_finalize(p);
  return rc;
}

/* The event's rounds, each player's seat, read once the first difference
** needs a reason. */
static int read_seats(sqlite3_vtab *pVtab, CheckCursor *c, sqlite3 *db,
                      const char *zMatches, sqlite3_value *pEvent) {
  sqlite3_stmt *p = 0;
  char *zSql;
  int rc;
  seats_clear(c);
  zSql = sqlite3_mprintf("SELECT round, player_a, player_b, %s, %s, %s, %s "
                         "FROM \"%w\" WHERE event_id = ?1",
                         c->bResult ? "result" : "NULL",
                         c->bEntry ? "entry" : "NULL", c->bSource ? "source" : "NULL",
                         c->bPhase ? "phase" : "NULL", zMatches);
  if (zSql == 0) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(db, zSql, -1, &p, 0);
  sqlite3_free(zSql);
  if (rc != SQLITE_OK) return stmt_error(pVtab, db, rc);
  sqlite3_bind_value(p, 1, pEvent);
  rc = sqlite3_step(p);
  if (rc == SQLITE_DONE) {
    sqlite3_reset(p);
    if (bind_other_form(p, pEvent)) rc = sqlite3_step(p);
  }
  for (; rc == SQLITE_ROW; rc = sqlite3_step(p)) {
    rc = add_seat(c, sqlite3_column_value(p, 1), p);
    if (rc == SQLITE_OK && sqlite3_column_type(p, 2) != SQLITE_NULL) {
      rc = add_seat(c, sqlite3_column_value(p, 2), p);
    }
    if (rc == SQLITE_OK) rc = tb_poll(&c->probe, 1);
    if (rc != SQLITE_OK) break;
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  else if (rc != SQLITE_OK && rc != SQLITE_NOMEM && rc != SQLITE_INTERRUPT) {
    rc = stmt_error(pVtab, db, rc);
  }
  sqlite3_finalize(p);
  if (rc == SQLITE_OK) {
    rc = tb_text_arg_sort((void **)&c->aSeat, c->nSeat, sizeof(Seat), seat_before,
                          &c->probe);
  }
  c->bSeats = rc == SQLITE_OK;
  return rc;
}

/* The player's seats: [*piFrom, *piTo). */
static void player_seats(const CheckCursor *c, sqlite3_value *pPlayer,
                         int *piFrom, int *piTo) {
  int lo = 0, hi = c->nSeat;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (id_cmp(c->aSeat[mid].pPlayer, pPlayer) < 0) lo = mid + 1;
    else hi = mid;
  }
  *piFrom = lo;
  while (lo < c->nSeat && id_cmp(c->aSeat[lo].pPlayer, pPlayer) == 0) lo++;
  *piTo = lo;
}

/* ------------------------------------------------------------ reasons */

/* What a player's seats say about a points or record difference. */
typedef struct SeatFacts {
  int nZero;                    /* rounds with no game and no point */
  sqlite3_str *pZero;           /* "round 4 (`0000 - -`)" ... */
  sqlite3_str *pMissing;        /* rounds of the event with no seat */
  int nMissing;
  sqlite3_str *pFromStandings;  /* rounds read from the published record */
  int nFromStandings;
  int iFirstPlayoff;            /* 0: none */
} SeatFacts;

#define CHECK_LIST_MAX 5

static void list_round(sqlite3_str *p, int *pn, int iRound, const char *zEntry) {
  if (*pn < CHECK_LIST_MAX) {
    sqlite3_str_appendf(p, "%s%d", *pn ? ", " : "", iRound);
    if (zEntry && zEntry[0]) sqlite3_str_appendf(p, " (`%s`)", zEntry);
  } else if (*pn == CHECK_LIST_MAX) {
    sqlite3_str_appendall(p, ", ...");
  }
  (*pn)++;
}

static int seat_facts(const CheckCursor *c, sqlite3 *db, sqlite3_value *pPlayer,
                      SeatFacts *f) {
  int i, iFrom, iTo, iLast = 0, iMax;
  memset(f, 0, sizeof(*f));
  f->pZero = sqlite3_str_new(db);
  f->pMissing = sqlite3_str_new(db);
  f->pFromStandings = sqlite3_str_new(db);
  iMax = c->iMaxSwissRound;
  player_seats(c, pPlayer, &iFrom, &iTo);
  for (i = iFrom; i < iTo; i++) {
    const Seat *s = &c->aSeat[i];
    int r;
    for (r = iLast + 1; r < s->iRound && r <= iMax; r++) {
      list_round(f->pMissing, &f->nMissing, r, 0);
      if (f->nMissing > CHECK_LIST_MAX) break;
    }
    iLast = s->iRound;
    if (s->bZero) list_round(f->pZero, &f->nZero, s->iRound, s->zEntry);
    if (s->bFromStandings) list_round(f->pFromStandings, &f->nFromStandings, s->iRound, 0);
    if (s->bPlayoff && !c->bPlayoffValued && f->iFirstPlayoff == 0) {
      f->iFirstPlayoff = s->iRound;
    }
  }
  /* rounds after the last too: only a points or record difference reads
  ** the list, and a player who left has no points to miss there */
  for (iLast++; iLast <= iMax && f->nMissing <= CHECK_LIST_MAX; iLast++) {
    list_round(f->pMissing, &f->nMissing, iLast, 0);
  }
  if (sqlite3_str_errcode(f->pZero) || sqlite3_str_errcode(f->pMissing) ||
      sqlite3_str_errcode(f->pFromStandings)) {
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

static void facts_free(SeatFacts *f) {
  sqlite3_free(sqlite3_str_finish(f->pZero));
  sqlite3_free(sqlite3_str_finish(f->pMissing));
  sqlite3_free(sqlite3_str_finish(f->pFromStandings));
}

/*
** Why points (or a record) differ: zGive is "9 points" as the rounds give
** them, zFile what the file says; rMore the published minus the computed
** (points), 0 for a record.
*/
static char *points_reason(const SeatFacts *f, const char *zGive,
                           const char *zFile, double rMore, double rWin,
                           i64 nMoreRounds) {
  if (rMore > 0 && f->nZero > 0) {
    int bWins = rWin > 0 && rMore == rWin * floor(rMore / rWin) &&
                rMore / rWin <= f->nZero;
    return sqlite3_mprintf("the rounds give %s, the file %s: the file scores "
                           "round%s %s as %s (no game and no point by the rules)",
                           zGive, zFile, f->nZero > 1 ? "s" : "",
                           sqlite3_str_value(f->pZero),
                           !bWins ? "points" : rMore > rWin ? "wins" : "a win");
  }
  if (f->iFirstPlayoff > 0) {
    return sqlite3_mprintf("the rounds give %s, the file %s: the player played "
                           "the playoff (round %d on), which the file counts and "
                           "the Swiss values do not", zGive, zFile, f->iFirstPlayoff);
  }
  if (nMoreRounds > 0 && f->nMissing > 0) {
    return sqlite3_mprintf("the rounds give %s, the file %s: a round is missing "
                           "(the file counts %lld round%s more than its rows)",
                           zGive, zFile, nMoreRounds, nMoreRounds > 1 ? "s" : "");
  }
  if (f->nMissing > 0) {
    return sqlite3_mprintf("the rounds give %s, the file %s: a round is missing "
                           "(no row for round%s %s)", zGive, zFile,
                           f->nMissing > 1 ? "s" : "",
                           sqlite3_str_value(f->pMissing));
  }
  return sqlite3_mprintf("the rounds give %s, the file %s", zGive, zFile);
}

/* Why a value (OMW%, a tiebreaker) differs, "" if not known; NULL: no
** memory. */
static char *value_reason(const SeatFacts *f, double rPub, int bComputedNull,
                          int bOtherDiffers) {
  if (rPub < 0) {
    return sqlite3_mprintf("a negative value is a mark, not a value: the "
                           "platform prints it for a player with no game");
  }
  if (bComputedNull) {
    return sqlite3_mprintf("no value computed: the player has no round that "
                           "gives one");
  }
  if (f->nFromStandings > 0) {
    return sqlite3_mprintf("round%s %s of this player %s not in the file's "
                           "rounds: read from the published record as a bye "
                           "or a loss; a match may be missing",
                           f->nFromStandings > 1 ? "s" : "",
                           sqlite3_str_value(f->pFromStandings),
                           f->nFromStandings > 1 ? "are" : "is");
  }
  if (f->iFirstPlayoff > 0) {
    return sqlite3_mprintf("the player played the playoff (round %d on): the "
                           "published value counts rounds the Swiss values do "
                           "not", f->iFirstPlayoff);
  }
  if (bOtherDiffers) return sqlite3_mprintf("the published points or record differ");
  return sqlite3_mprintf("%s", ""); /* not known */
}

/* ------------------------------------------------------------- compare */

/*
** Add a difference.  The values are pPub, pComp, or for a record the texts
** zPub, zComp ("2-1-0"); zReason ("" none, NULL out of memory) and the
** texts are taken (freed on error).
*/
static int add_row(CheckCursor *c, sqlite3_value *pEvent, sqlite3_value *pPlayer,
                   const char *zWhatName, sqlite3_value *pPub, sqlite3_value *pComp,
                   char *zPub, char *zComp, char *zReason) {
  CheckRow *r;
  if (zReason && zReason[0] == 0) {
    sqlite3_free(zReason);
    zReason = 0;
  } else if (zReason == 0) {
    sqlite3_free(zPub);
    sqlite3_free(zComp);
    return SQLITE_NOMEM;
  }
  if (c->nRow == c->nRowAlloc) {
    int nNew = c->nRowAlloc ? 2 * c->nRowAlloc : 16;
    CheckRow *a = sqlite3_realloc64(c->aRow, sizeof(CheckRow) * (sqlite3_uint64)nNew);
    if (a == 0) {
      sqlite3_free(zReason);
      sqlite3_free(zPub);
      sqlite3_free(zComp);
      return SQLITE_NOMEM;
    }
    c->aRow = a;
    c->nRowAlloc = nNew;
  }
  r = &c->aRow[c->nRow++];
  memset(r, 0, sizeof(*r));
  r->zWhat = sqlite3_mprintf("%s", zWhatName);
  r->zReason = zReason;
  r->zPub = zPub;
  r->zComp = zComp;
  r->pEvent = pEvent ? sqlite3_value_dup(pEvent) : 0;
  r->pPlayer = sqlite3_value_dup(pPlayer);
  r->pPublished = pPub ? sqlite3_value_dup(pPub) : 0;
  r->pComputed = pComp ? sqlite3_value_dup(pComp) : 0;
  if (r->zWhat == 0 || (pEvent && r->pEvent == 0) || r->pPlayer == 0 || (pPub && r->pPublished == 0) ||
      (pComp && r->pComputed == 0)) {
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* Whether the published value p differs from the computed one. */
static int value_differs(sqlite3_value *pPub, sqlite3_value *pComp, double rTol) {
  double p = 0, cv;
  if (pPub == 0) return 0; /* not published */
  if (sqlite3_value_type(pComp) == SQLITE_NULL) return 1;
  published_number(pPub, &p);
  cv = sqlite3_value_double(pComp);
  if (rTol == 0.0) return p != cv;
  return fabs(p - cv) > rTol * (1.0 + 1e-9);
}

/* The rounds a record counts (its parts published). */
static i64 record_rounds(sqlite3_value **a) {
  i64 n = 0;
  int k;
  for (k = 0; k < 3; k++) {
    if (a[k] && sqlite3_value_type(a[k]) != SQLITE_NULL) n += sqlite3_value_int64(a[k]);
  }
  return n;
}

/* A record as text: "2-1-0", "?" for a part not published. */
static char *record_text(sqlite3_value *w, sqlite3_value *l, sqlite3_value *d) {
  sqlite3_value *a[3];
  char *z = sqlite3_mprintf("%s", ""), *zNext;
  int k;
  a[0] = w;
  a[1] = l;
  a[2] = d;
  for (k = 0; k < 3 && z; k++) {
    if (a[k] && sqlite3_value_type(a[k]) != SQLITE_NULL) {
      zNext = sqlite3_mprintf("%s%s%lld", z, k ? "-" : "", sqlite3_value_int64(a[k]));
    } else {
      zNext = sqlite3_mprintf("%s%s?", z, k ? "-" : "");
    }
    sqlite3_free(z);
    z = zNext;
  }
  return z;
}

/* The column of the standings statement named zName, or -1. */
static int std_column(sqlite3_stmt *pStd, const char *zName) {
  int i;
  for (i = 0; i < sqlite3_column_count(pStd); i++) {
    if (sqlite3_stricmp(sqlite3_column_name(pStd, i), zName) == 0) return i;
  }
  return -1;
}

static int is_points(const char *zName) {
  return sqlite3_stricmp(zName, "points") == 0 ||
         sqlite3_stricmp(zName, "match_points") == 0;
}

/* The record row of a player whose published record differs. */
static int record_row(CheckCursor *c, sqlite3_stmt *pStd, sqlite3_value *pEvent,
                      const PubRow *pr, const SeatFacts *f) {
  sqlite3_value *apPub[3] = {0, 0, 0}, *apComp[3];
  static const char *azCol[3] = {"wins", "losses", "draws"};
  char *zPub, *zComp, *zReason;
  double rMore = 0;
  int k;
  for (k = 0; k < c->nPub; k++) {
    if (c->aPub[k].iRecord >= 0) apPub[c->aPub[k].iRecord] = pr->apVal[k];
  }
  for (k = 0; k < 3; k++) apComp[k] = sqlite3_column_value(pStd, std_column(pStd, azCol[k]));
  if (apPub[0]) rMore = sqlite3_value_double(apPub[0]) - sqlite3_value_double(apComp[0]);
  zPub = record_text(apPub[0], apPub[1], apPub[2]);
  zComp = record_text(apComp[0], apComp[1], apComp[2]);
  zReason = zPub && zComp ? points_reason(f, zComp, zPub, rMore, 1.0,
                                           record_rounds(apPub) - record_rounds(apComp))
                          : 0;
  if (zReason == 0) {
    sqlite3_free(zPub);
    sqlite3_free(zComp);
    return SQLITE_NOMEM;
  }
  return add_row(c, pEvent, pr->pPlayer, "record", 0, 0, zPub, zComp, zReason);
}

/* The reason of one differing column k (not the record). */
static char *column_reason(CheckCursor *c, int k, sqlite3_value *pPub,
                           sqlite3_value *pComp, const SeatFacts *f,
                           int bPointsDiffer) {
  const char *zName = c->aPub[k].zName;
  double p = 0;
  published_number(pPub, &p);
  if (is_points(zName) && sqlite3_value_type(pComp) != SQLITE_NULL) {
    double cv = sqlite3_value_double(pComp);
    char *zGive = number_text(cv), *zFile = number_text(p), *zAll = 0, *zPubAll = 0;
    char *z = 0;
    if (zGive && zFile) {
      zAll = sqlite3_mprintf("%s point%s", zGive, cv == 1 ? "" : "s");
      zPubAll = sqlite3_mprintf("%s", zFile);
    }
    if (zAll && zPubAll) {
      z = points_reason(f, zAll, zPubAll, p - cv,
                        sqlite3_stricmp(zName, "match_points") == 0 ? 3.0 : 1.0, 0);
    }
    sqlite3_free(zGive);
    sqlite3_free(zFile);
    sqlite3_free(zAll);
    sqlite3_free(zPubAll);
    return z;
  }
  if (k == c->iPubRank) return sqlite3_mprintf("%s", ""); /* rank_reasons() */
  return value_reason(f, p, sqlite3_value_type(pComp) == SQLITE_NULL, bPointsDiffer);
}

static int keep_rank(CheckCursor *c, sqlite3_value *pPub, sqlite3_value *pComp,
                     int bOtherDiffers, int iRow) {
  RankFact *r;
  if (c->nRank == c->nRankAlloc) {
    int nNew = c->nRankAlloc ? 2 * c->nRankAlloc : 64;
    RankFact *a = sqlite3_realloc64(c->aRank, sizeof(RankFact) * (sqlite3_uint64)nNew);
    if (a == 0) return SQLITE_NOMEM;
    c->aRank = a;
    c->nRankAlloc = nNew;
  }
  r = &c->aRank[c->nRank++];
  published_number(pPub, &r->rPub);
  r->rComp = sqlite3_value_type(pComp) == SQLITE_NULL ? NAN : sqlite3_value_double(pComp);
  r->bOtherDiffers = bOtherDiffers;
  r->iRow = iRow;
  return SQLITE_OK;
}

static int before_double(void *pCtx, const void *a, const void *b) {
  (void)pCtx;
  return *(const double *)a < *(const double *)b;
}

/* How many of the n sorted values a[] are below x. */
static int count_below(const double *a, int n, double x) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/*
** The reasons of the event's rank rows.  Among the players whose other
** published values all agree (S), a published place that another order
** puts elsewhere does not follow the tie-break list; a place that keeps
** its position within S was moved by players outside S; a place within a
** group the list leaves tied is the platform's own separation.
*/
static int rank_reasons(CheckCursor *c) {
  double *aPub, *aComp;
  int i, nS = 0, rc = SQLITE_OK;
  if (c->nRank == 0) return SQLITE_OK;
  aPub = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)c->nRank);
  aComp = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)c->nRank);
  if (aPub == 0 || aComp == 0) rc = SQLITE_NOMEM;
  for (i = 0; rc == SQLITE_OK && i < c->nRank; i++) {
    const RankFact *r = &c->aRank[i];
    if (r->bOtherDiffers || isnan(r->rComp)) continue;
    aPub[nS] = r->rPub;
    aComp[nS++] = r->rComp;
  }
  if (rc == SQLITE_OK) {
    rc = tb_text_arg_sort((void **)&aPub, nS, sizeof(double), before_double, &c->probe);
  }
  if (rc == SQLITE_OK) {
    rc = tb_text_arg_sort((void **)&aComp, nS, sizeof(double), before_double, &c->probe);
  }
  for (i = 0; rc == SQLITE_OK && i < c->nRank; i++) {
    const RankFact *r = &c->aRank[i];
    const char *z;
    int nTied;
    if (r->iRow < 0) continue;
    nTied = isnan(r->rComp) ? 0
            : count_below(aComp, nS, nextafter(r->rComp, INFINITY)) -
                  count_below(aComp, nS, r->rComp);
    if (isnan(r->rComp)) {
      z = "no computed place: the player is disqualified";
    } else if (r->bOtherDiffers) {
      z = "the published points, record or values of this player differ";
    } else if (nTied > 1 && r->rPub >= r->rComp && r->rPub < r->rComp + nTied) {
      /* one of the places the tie shares: the list is followed */
      c->aRow[r->iRow].bDrop = 1;
      continue;
    } else if (count_below(aPub, nS, r->rPub) == count_below(aComp, nS, r->rComp)) {
      z = "moved by the places of players whose published values differ";
    } else {
      z = "published places do not follow the tie-break list";
    }
    sqlite3_free(c->aRow[r->iRow].zReason);
    c->aRow[r->iRow].zReason = sqlite3_mprintf("%s", z);
    if (c->aRow[r->iRow].zReason == 0) rc = SQLITE_NOMEM;
  }
  sqlite3_free(aPub);
  sqlite3_free(aComp);
  c->nRank = 0;
  return rc;
}

/* Keep the player's places for rank_reasons(), if a place is published. */
static int keep_player_rank(CheckCursor *c, sqlite3_stmt *pStd, const PubRow *pr,
                            int bOtherDiffers, int iRankRow) {
  if (c->iPubRank < 0 || pr->apVal[c->iPubRank] == 0) return SQLITE_OK;
  return keep_rank(c, pr->apVal[c->iPubRank],
                   sqlite3_column_value(pStd, c->aPub[c->iPubRank].iStd),
                   bOtherDiffers, iRankRow);
}

/* Every difference of the player on the current standings row. */
static int compare_player(sqlite3_vtab *pVtab, CheckCursor *c, sqlite3 *db,
                          sqlite3_stmt *pStd, sqlite3_value *pEvent,
                          const char *zMatches) {
  sqlite3_value *pPlayer = sqlite3_column_value(pStd, c->iStdPlayer);
  int aDiff[CHECK_MAX_PUB], i, k, nDiff = 0, bRecordDiffers = 0;
  int bPointsDiffer = 0, bRecordDone = 0, rc = SQLITE_OK, iRankRow = -1;
  const PubRow *pr;
  SeatFacts f;
  i = pub_lower(c, pEvent, pPlayer);
  if (i >= c->nPubRow || event_cmp(c->apPub[i]->pEvent, pEvent) != 0 ||
      id_cmp(c->apPub[i]->pPlayer, pPlayer) != 0) {
    return SQLITE_OK; /* nothing published for this player */
  }
  pr = c->apPub[i];
  for (k = 0; k < c->nPub; k++) {
    aDiff[k] = value_differs(pr->apVal[k], sqlite3_column_value(pStd, c->aPub[k].iStd),
                             c->aPub[k].rTol);
    nDiff += aDiff[k];
    if (aDiff[k] && c->aPub[k].iRecord >= 0) bRecordDiffers = 1;
    if (aDiff[k] && (c->aPub[k].iRecord >= 0 || is_points(c->aPub[k].zName))) {
      bPointsDiffer = 1;
    }
  }
  if (nDiff == 0) return keep_player_rank(c, pStd, pr, 0, -1);
  if (!c->bSeats) {
    rc = read_seats(pVtab, c, db, zMatches, pEvent ? pEvent : c->apArg[ARG_EVENT]);
    if (rc != SQLITE_OK) return rc;
  }
  rc = seat_facts(c, db, pPlayer, &f);
  for (k = 0; k < c->nPub && rc == SQLITE_OK; k++) {
    sqlite3_value *pComp = sqlite3_column_value(pStd, c->aPub[k].iStd);
    char *zReason;
    if (c->aPub[k].iRecord >= 0) {
      if (bRecordDiffers && !bRecordDone) rc = record_row(c, pStd, pEvent, pr, &f);
      bRecordDone = 1;
      continue;
    }
    if (!aDiff[k]) continue;
    if (k == c->iPubRank) iRankRow = c->nRow;
    zReason = column_reason(c, k, pr->apVal[k], pComp, &f, bPointsDiffer);
    rc = add_row(c, pEvent, pPlayer, c->aPub[k].zName, pr->apVal[k], pComp, 0, 0,
                 zReason);
  }
  facts_free(&f);
  if (rc == SQLITE_OK) {
    rc = keep_player_rank(c, pStd, pr,
                          nDiff - (c->iPubRank >= 0 && aDiff[c->iPubRank]) > 0, iRankRow);
  }
  return rc;
}

/* ------------------------------------------------------------- filter */

/*
** The standings statement: the same tables, the same arguments, its
** columns zCols ("*" to learn their names; the check itself reads only
** the columns it compares, so that no other tiebreaker is computed).
*/
static int prepare_standings(sqlite3_vtab *pVtab, CheckCursor *c, sqlite3 *db,
                             const char *zCols, sqlite3_stmt **ppStd) {
  int rc, k;
  char *zSql = sqlite3_mprintf(
      "SELECT %s, event_id FROM standings WHERE policy = ?2 AND matches_table IS ?3"
      " AND players_table IS ?4 AND as_of_round IS ?5%s", zCols,
      c->apArg[ARG_EVENT] ? " AND event_id = ?1" : "");
  if (zSql == 0) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(db, zSql, -1, ppStd, 0);
  sqlite3_free(zSql);
  if (rc != SQLITE_OK) return stmt_error(pVtab, db, rc);
  for (k = 0; k < N_ARG; k++) {
    if (c->apArg[k]) sqlite3_bind_value(*ppStd, k + 1, c->apArg[k]);
  }
  return SQLITE_OK;
}

/* The columns the check reads: the record's, the division, the published. */
#define STD_FIXED_COLS "player, wins, losses, draws, division"
#define STD_N_FIXED 5

static int prepare_compared(sqlite3_vtab *pVtab, CheckCursor *c, sqlite3 *db,
                            sqlite3_stmt **ppStd) {
  sqlite3_str *pCols = sqlite3_str_new(db);
  char *zCols;
  int k, rc;
  sqlite3_str_appendall(pCols, STD_FIXED_COLS);
  for (k = 0; k < c->nPub; k++) {
    sqlite3_str_appendf(pCols, ", \"%w\"", c->aPub[k].zName);
    c->aPub[k].iStd = STD_N_FIXED + k;
  }
  zCols = sqlite3_str_finish(pCols);
  if (zCols == 0) return SQLITE_NOMEM;
  rc = prepare_standings(pVtab, c, db, zCols, ppStd);
  sqlite3_free(zCols);
  c->iStdPlayer = 0;
  c->iStdEvent = STD_N_FIXED + c->nPub;
  return rc;
}

/* A table name argument: text, or NULL for zDefault. */
static int table_arg(sqlite3_vtab *pVtab, sqlite3_value *v, const char *zArg,
                     const char *zDefault, const char **pz) {
  if (v == 0 || sqlite3_value_type(v) == SQLITE_NULL) {
    *pz = zDefault;
    return SQLITE_OK;
  }
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    return check_error(pVtab, sqlite3_mprintf("%s must be a table name (text)", zArg));
  }
  *pz = (const char *)sqlite3_value_text(v);
  if (*pz == 0) return SQLITE_NOMEM;
  if ((int)strlen(*pz) != sqlite3_value_bytes(v)) {
    return check_error(pVtab, sqlite3_mprintf("%s contains a NUL byte", zArg));
  }
  return SQLITE_OK;
}

/* The optional columns of the matches table that the reasons read. */
static int matches_columns(CheckCursor *c, sqlite3 *db, const char *zMatches) {
  int rc = has_column(db, zMatches, "result", &c->bResult);
  if (rc == SQLITE_OK) rc = has_column(db, zMatches, "entry", &c->bEntry);
  if (rc == SQLITE_OK) rc = has_column(db, zMatches, "source", &c->bSource);
  if (rc == SQLITE_OK) rc = has_column(db, zMatches, "phase", &c->bPhase);
  return rc;
}

/* Whether the row's division differs from *ppDivision (then kept). */
static int division_changes(sqlite3_stmt *pStd, int iCol, sqlite3_value **ppDivision,
                            int *pRc) {
  sqlite3_value *v = sqlite3_column_value(pStd, iCol);
  if (*ppDivision && id_cmp(*ppDivision, v) == 0 &&
      sqlite3_value_type(*ppDivision) == sqlite3_value_type(v)) {
    return 0;
  }
  sqlite3_value_free(*ppDivision);
  if ((*ppDivision = sqlite3_value_dup(v)) == 0) *pRc = SQLITE_NOMEM;
  return 1;
}

/*
** Walk the standings rows, comparing each player's published values.  The
** rows come event by event, division by division: places are compared
** within one (rank_reasons() when it ends).
*/
static int compare_all(sqlite3_vtab *pVtab, CheckCursor *c, sqlite3 *db,
                       sqlite3_stmt *pStd, const char *zMatches, int rc) {
  sqlite3_value *pEvent = 0, *pDivision = 0; /* pEvent: NULL for the argument's */
  int iDivision = std_column(pStd, "division"), bStarted = 0;
  for (; rc == SQLITE_ROW; rc = sqlite3_step(pStd)) {
    sqlite3_value *v = sqlite3_column_value(pStd, c->iStdEvent);
    int bNewDivision = division_changes(pStd, iDivision, &pDivision, &rc);
    if (rc != SQLITE_ROW) break;
    if (bNewDivision && (rc = rank_reasons(c)) != SQLITE_OK) break;
    if (c->apArg[ARG_EVENT] ? c->nRow == 0 && !bStarted : event_cmp(pEvent, v) != 0) {
      bStarted = 1;
      sqlite3_value_free(pEvent);
      pEvent = 0;
      if (!c->apArg[ARG_EVENT] && (pEvent = sqlite3_value_dup(v)) == 0) {
        rc = SQLITE_NOMEM;
        break;
      }
      if ((rc = rank_reasons(c)) != SQLITE_OK) break;
      event_tolerances(c, pEvent);
      seats_clear(c);
    }
    rc = compare_player(pVtab, c, db, pStd, pEvent, zMatches);
    if (rc == SQLITE_OK) rc = tb_poll(&c->probe, 1);
    if (rc != SQLITE_OK) break;
  }
  sqlite3_value_free(pEvent);
  sqlite3_value_free(pDivision);
  if (rc == SQLITE_DONE) rc = rank_reasons(c);
  if (rc == SQLITE_DONE) return SQLITE_OK;
  if (rc == SQLITE_ROW || rc == SQLITE_OK) return SQLITE_OK;
  if (rc == SQLITE_NOMEM || rc == SQLITE_INTERRUPT || pVtab->zErrMsg) return rc;
  return stmt_error(pVtab, db, rc);
}

/* Free the rows marked bDrop and close the gaps. */
static void drop_rows(CheckCursor *c) {
  int i, n = 0;
  for (i = 0; i < c->nRow; i++) {
    CheckRow *r = &c->aRow[i];
    if (!r->bDrop) {
      c->aRow[n++] = *r;
      continue;
    }
    row_free(r);
  }
  c->nRow = n;
}


/* Whether the policy, which standings() has accepted, counts the playoff in
** the values (playoff_values): then the playoff explains no difference. */
static int playoff_valued(CheckCursor *c) {
  sqlite3_value *v = c->apArg[ARG_POLICY];
  const char *zPolicy;
  TbPolicy *pPolicy;
  char *zErr = 0;
  int rc;
  c->bPlayoffValued = 0;
  if (v == 0 || sqlite3_value_type(v) != SQLITE_TEXT) return SQLITE_OK;
  zPolicy = (const char *)sqlite3_value_text(v);
  pPolicy = zPolicy ? sqlite3_malloc64(sizeof(*pPolicy)) : 0;
  if (pPolicy == 0) return SQLITE_NOMEM;
  rc = tb_policy_parse(zPolicy, pPolicy, &zErr);
  if (rc == SQLITE_OK) c->bPlayoffValued = pPolicy->params.bPlayoffValues != 0;
  sqlite3_free(zErr);
  sqlite3_free(pPolicy);
  return rc == SQLITE_NOMEM ? rc : SQLITE_OK;
}
static int checkFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                       int argc, sqlite3_value **argv) {
  CheckCursor *c = (CheckCursor *)cur;
  sqlite3_vtab *pVtab = cur->pVtab;
  sqlite3 *db = ((CheckVtab *)pVtab)->db;
  sqlite3_stmt *pStd = 0;
  const char *zMatches = 0, *zPlayers = 0;
  int rc = SQLITE_OK, k, n = 0;
  (void)idxStr;
  cursor_reset(c);
  tb_probe_close(&c->probe); /* an earlier interrupt stops this call no more */
  c->iPubRank = -1;
  for (k = 0; k < N_ARG; k++) {
    if (!(idxNum & (1 << k)) || n >= argc) continue;
    if ((c->apArg[k] = sqlite3_value_dup(argv[n++])) == 0) return SQLITE_NOMEM;
  }
  rc = table_arg(pVtab, c->apArg[ARG_MATCHES], "matches_table", "matches", &zMatches);
  if (rc == SQLITE_OK) {
    rc = table_arg(pVtab, c->apArg[ARG_PLAYERS], "players_table", "players", &zPlayers);
  }
  /* the published columns, named as standings() names its own */
  if (rc == SQLITE_OK) rc = prepare_standings(pVtab, c, db, "*", &pStd);
  if (rc == SQLITE_OK) rc = find_published(pVtab, c, db, zPlayers, pStd);
  sqlite3_finalize(pStd);
  pStd = 0;
  if (rc == SQLITE_OK) rc = prepare_compared(pVtab, c, db, &pStd);
  if (rc == SQLITE_OK) {
    /* the first step checks the arguments and computes the first event */
    rc = sqlite3_step(pStd);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) rc = stmt_error(pVtab, db, rc);
  }
  if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
    int rcStep = rc;
    rc = playoff_valued(c);
    if (rc == SQLITE_OK) rc = read_published(pVtab, c, db, zPlayers);
    if (rc == SQLITE_OK) rc = matches_columns(c, db, zMatches);
    if (rc == SQLITE_OK) rc = compare_all(pVtab, c, db, pStd, zMatches, rcStep);
  }
  sqlite3_finalize(pStd);
  work_clear(c);
  if (rc == SQLITE_OK) drop_rows(c);
  return rc;
}

static int checkNext(sqlite3_vtab_cursor *cur) {
  ((CheckCursor *)cur)->iRow++;
  return SQLITE_OK;
}

static int checkEof(sqlite3_vtab_cursor *cur) {
  CheckCursor *c = (CheckCursor *)cur;
  return c->iRow >= c->nRow;
}

static void result_value_or_text(sqlite3_context *ctx, sqlite3_value *v,
                                 const char *z) {
  if (z) sqlite3_result_text(ctx, z, -1, SQLITE_TRANSIENT);
  else if (v) sqlite3_result_value(ctx, v);
}

static int checkColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int iCol) {
  CheckCursor *c = (CheckCursor *)cur;
  const CheckRow *r = &c->aRow[c->iRow];
  switch (iCol) {
    case COL_PLAYER: sqlite3_result_value(ctx, r->pPlayer); break;
    case COL_WHAT: sqlite3_result_text(ctx, r->zWhat, -1, SQLITE_TRANSIENT); break;
    case COL_PUBLISHED: result_value_or_text(ctx, r->pPublished, r->zPub); break;
    case COL_COMPUTED: result_value_or_text(ctx, r->pComputed, r->zComp); break;
    case COL_REASON:
      if (r->zReason) sqlite3_result_text(ctx, r->zReason, -1, SQLITE_TRANSIENT);
      break;
    case FIRST_ARG + ARG_EVENT:
      sqlite3_result_value(ctx, r->pEvent ? r->pEvent : c->apArg[ARG_EVENT]);
      break;
    default:
      if (iCol > FIRST_ARG && iCol < FIRST_ARG + N_ARG && c->apArg[iCol - FIRST_ARG]) {
        sqlite3_result_value(ctx, c->apArg[iCol - FIRST_ARG]);
      }
      break;
  }
  return SQLITE_OK;
}

static int checkRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *piRowid) {
  *piRowid = ((CheckCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

static sqlite3_module checkModule = {
  .iVersion = 0,
  .xCreate = 0, /* eponymous only */
  .xConnect = checkConnect,
  .xBestIndex = checkBestIndex,
  .xDisconnect = checkDisconnect,
  .xOpen = checkOpen,
  .xClose = checkClose,
  .xFilter = checkFilter,
  .xNext = checkNext,
  .xEof = checkEof,
  .xColumn = checkColumn,
  .xRowid = checkRowid,
};

int tb_register_check(sqlite3 *db) {
  return sqlite3_create_module(db, "standings_check", &checkModule, 0);
}
