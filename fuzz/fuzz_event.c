/*
** fuzz_event.c: random small Swiss events built from the input bytes, then
** standings() and the scalars over them.
**
** Input (missing bytes read as 0):
**   [0] players 2..16  [1] rounds 1..6  [2] flags  [3] policy and floor
**   then, per round: one byte per swap of a shuffle of the players, a byte
**   saying how many sit the round out, and one byte per pairing (outcome,
**   and whether its games go to the games table) or bye.
** Most inputs are valid events; a few outcome bytes make invalid rows
** (negative counts, contradicting results, bad byes), so errors are
** exercised too.
**
** Checks on success: the invariants of fuzz_common.h with the policy's game
** points and percentages in [0, 1]; one row per player; the table-reading
** scalars equal the standings() columns; as_of_round at the last round
** changes nothing; standings() of every event, read in one pass, gives this
** event's rows.
*/
#include <stdint.h>

#include "fuzz_common.h"

#define MAX_PLAYERS 16
#define MAX_ROUNDS 6

typedef struct Outcome {
  int aw, bw, d;
  const char *zResult;
} Outcome;

/* Indexed by a byte modulo 64: valid outcomes, then three invalid rows. */
static const Outcome aOutcome[64] = {
  {2, 0, 0, 0}, {2, 1, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {1, 1, 1, 0},
  {0, 0, 3, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0},
  {2, 0, 1, 0}, {0, 1, 2, 0}, {1, 0, 2, 0}, {0, 0, 1, 0}, {3, 2, 0, 0},
  {2, 2, 1, 0}, {0, 0, 0, "double_loss"}, {1, 1, 0, "double_loss"},
  {2, 0, 0, "double_loss"}, {0, 0, 0, "a"}, {0, 0, 0, "b"}, {2, 1, 0, "a"},
  {1, 2, 0, "b"}, {1, 1, 1, "a"}, {0, 0, 3, "b"}, {0, 0, 0, "draw"},
  {0, 0, 3, "draw"}, {2, 1, 0, "draw"}, {1, 0, 0, "draw"}, {7, 5, 9, 0},
  {0, 0, 0, "a"}, {2, 0, 0, "a"}, {2, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
  {1, 2, 0, 0}, {2, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 1, 1, 0},
  {0, 0, 3, 0}, {2, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0},
  {2, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 1, 1, 0}, {0, 0, 3, 0},
  {2, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {2, 1, 0, 0},
  {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 1, 1, 0}, {0, 0, 3, 0}, {2, 1, 0, 0},
  {2, 0, 0, 0},
  /* invalid */
  {-1, 2, 0, 0}, {0, 2, 0, "a"}, {2, 0, 0, "lost"},
};

/* A bye's row, by a byte modulo 8: 0-0-0 or 2-0-0, result NULL or 'a';
** the last one is invalid. */
static const Outcome aBye[8] = {
  {0, 0, 0, 0}, {2, 0, 0, 0}, {0, 0, 0, "a"}, {2, 0, 0, "a"},
  {0, 0, 0, 0}, {2, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0},
};

static const struct {
  const char *zPolicy;
  long long gdp;
} aPolicy[4] = {
  {"mtg", 1},
  {"mtg(game_draw_points=0)", 0},
  {"mtg(own_gwp_floor=0)", 1},
  {"mtg(floor=1/3, game_draw_points=0, own_gwp_floor=1/2)", 0},
};
static const char *azFloor[4] = {0, "1/3", "0", "1"};

static sqlite3 *db;
static sqlite3_stmt *pInsMatch, *pInsGame, *pStandings, *pScalars, *pAsOf,
    *pEvery,
    *pCount;

static void setup(void) {
  db = fuzz_open();
  fuzz_exec(db,
            "CREATE TABLE matches(event_id NOT NULL, round INTEGER NOT NULL,"
            " player_a NOT NULL, player_b, a_wins INTEGER NOT NULL DEFAULT 0,"
            " b_wins INTEGER NOT NULL DEFAULT 0,"
            " draws INTEGER NOT NULL DEFAULT 0, result TEXT);"
            "CREATE INDEX matches_event_round ON matches(event_id, round);"
            "CREATE TABLE games(event_id NOT NULL, round INTEGER NOT NULL,"
            " player_a NOT NULL, game INTEGER NOT NULL, winner,"
            " PRIMARY KEY(event_id, round, player_a, game));"
            /* another event, never read */
            "INSERT INTO matches VALUES ('other', 1, 'A', 'A', -5, 0, 0, 'x');"
            /* the event alone, for standings() of every event */
            "CREATE TEMP VIEW valid_matches AS"
            " SELECT * FROM matches WHERE event_id IS NOT 'other';");
  pInsMatch = fuzz_prepare(db, "INSERT INTO matches VALUES (?1, ?2, ?3, ?4, "
                               "?5, ?6, ?7, ?8)");
  pInsGame = fuzz_prepare(db, "INSERT INTO games VALUES (?1, ?2, ?3, ?4, ?5)");
  pStandings = fuzz_prepare(db, "SELECT * FROM standings(?1, ?2, ?3, ?4)");
  pScalars = fuzz_prepare(
      db, "SELECT count(*) FROM standings(?1, 'mtg') AS s WHERE"
          " s.mwp IS NOT mwp(?1, s.player) OR s.gwp IS NOT gwp(?1, s.player)"
          " OR s.omwp IS NOT omwp(?1, s.player)"
          " OR s.ogwp IS NOT ogwp(?1, s.player, 'mtg')");
  pAsOf = fuzz_prepare(
      db, "SELECT (SELECT count(*) FROM standings(?1, 'mtg')),"
          " (SELECT count(*) FROM (SELECT * FROM standings(?1, 'mtg') EXCEPT"
          " SELECT * FROM standings(?1, 'mtg', NULL, ?2)))");
  pEvery = fuzz_prepare(
      db, "SELECT (SELECT count(*) FROM standings(?1, ?2, NULL, NULL,"
          " 'valid_matches')), (SELECT count(*) FROM (SELECT * FROM"
          " standings(?1, ?2, NULL, NULL, 'valid_matches') EXCEPT SELECT *"
          " FROM standings WHERE policy = ?2 AND matches_table ="
          " 'valid_matches'))");
  pCount = fuzz_prepare(
      db, "SELECT count(*) FROM (SELECT player_a FROM matches WHERE event_id"
          " = ?1 AND round <= ?2 UNION SELECT player_b FROM matches WHERE"
          " event_id = ?1 AND round <= ?2 AND player_b IS NOT NULL)");
}

/* Reads the input a byte at a time; 0 once it runs out. */
typedef struct Reader {
  const uint8_t *a;
  size_t n, i;
} Reader;

static unsigned next(Reader *p) {
  return p->i < p->n ? p->a[p->i++] : 0;
}

static void bind_id(sqlite3_stmt *pStmt, int iParam, int eKind, int iPlayer) {
  static const char *azName[MAX_PLAYERS] = {
      "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal",
      "Ivy", "", "O'Neil", "\xc3\xa9mile", "Ann ", "ann", "1", "\xf0\x9f\x83\x8f"};
  switch (eKind) {
    case 0:
      sqlite3_bind_int(pStmt, iParam, iPlayer);
      break;
    case 1:
      sqlite3_bind_text(pStmt, iParam, azName[iPlayer], -1, SQLITE_STATIC);
      break;
    case 2: /* mixed: 1 and '1' are different players */
      if (iPlayer % 2) sqlite3_bind_int(pStmt, iParam, iPlayer);
      else sqlite3_bind_text(pStmt, iParam, azName[iPlayer], -1, SQLITE_STATIC);
      break;
    default:
      sqlite3_bind_int64(pStmt, iParam,
                         (long long)(0x7fffffffffffff00ULL - (unsigned)iPlayer * 0x1000000000000ULL));
      break;
  }
}

static void bind_event(sqlite3_stmt *pStmt, int iParam, int bText) {
  if (bText) sqlite3_bind_text(pStmt, iParam, "E", -1, SQLITE_STATIC);
  else sqlite3_bind_int(pStmt, iParam, 7);
}

static void step_done(sqlite3_stmt *pStmt) {
  int rc = sqlite3_step(pStmt);
  FUZZ_CHECK(rc == SQLITE_DONE, "insert: %s", sqlite3_errmsg(db));
  sqlite3_reset(pStmt);
}

static void insert_match(int bTextEvent, int eKind, int iRound, int a, int b,
                         const Outcome *o, int bGames) {
  sqlite3_stmt *p = pInsMatch;
  bind_event(p, 1, bTextEvent);
  sqlite3_bind_int(p, 2, iRound);
  bind_id(p, 3, eKind, a);
  if (b < 0) sqlite3_bind_null(p, 4); else bind_id(p, 4, eKind, b);
  if (bGames) {
    /* the counts come from game rows: A's wins, B's wins, then draws */
    int g = 0, i;
    sqlite3_bind_int(p, 5, 0);
    sqlite3_bind_int(p, 6, 0);
    sqlite3_bind_int(p, 7, 0);
    for (i = 0; i < o->aw + o->bw + o->d; i++) {
      bind_event(pInsGame, 1, bTextEvent);
      sqlite3_bind_int(pInsGame, 2, iRound);
      bind_id(pInsGame, 3, eKind, a);
      sqlite3_bind_int(pInsGame, 4, ++g);
      if (i < o->aw) bind_id(pInsGame, 5, eKind, a);
      else if (i < o->aw + o->bw) bind_id(pInsGame, 5, eKind, b);
      else sqlite3_bind_null(pInsGame, 5);
      step_done(pInsGame);
    }
  } else {
    sqlite3_bind_int(p, 5, o->aw);
    sqlite3_bind_int(p, 6, o->bw);
    sqlite3_bind_int(p, 7, o->d);
  }
  if (o->zResult) sqlite3_bind_text(p, 8, o->zResult, -1, SQLITE_STATIC);
  else sqlite3_bind_null(p, 8);
  step_done(p);
}

static long long single_int(sqlite3_stmt *pStmt, int iCol, int *pbOk) {
  long long v = 0;
  int rc = sqlite3_step(pStmt);
  *pbOk = rc == SQLITE_ROW;
  if (rc == SQLITE_ROW) {
    v = sqlite3_column_int64(pStmt, iCol);
  } else {
    const char *zMsg = sqlite3_errmsg(db);
    FUZZ_CHECK(rc == SQLITE_ERROR && (strstr(zMsg, "standings(): ") ||
                                      strstr(zMsg, "mwp(): ") ||
                                      strstr(zMsg, "gwp(): ")),
               "rc %d: %s", rc, zMsg);
  }
  return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  Reader in = {aData, nData, 0};
  int nPlayer = 2 + (int)(next(&in) % (MAX_PLAYERS - 1));
  int nRound = 1 + (int)(next(&in) % MAX_ROUNDS);
  unsigned flags = next(&in), pol = next(&in);
  int eKind = flags & 3, bTextEvent = (flags >> 2) & 1;
  int bAsOf = (flags >> 3) & 1, iGamesBits = (flags >> 4) & 3;
  int iPolicy = pol & 3, iFloor = (pol >> 2) & 3;
  int iAsOf = 1 + (int)((pol >> 4) % (unsigned)nRound);
  int aSeat[MAX_PLAYERS], r, i, nRow, bOk;
  long long nExpect, nBad;
  CheckOpts opts;

  if (db == 0) setup();
  fuzz_exec(db, "DELETE FROM matches WHERE event_id IS NOT 'other';"
                "DELETE FROM games;");

  for (r = 1; r <= nRound; r++) {
    int nSeat = nPlayer, nOut;
    for (i = 0; i < nPlayer; i++) aSeat[i] = i;
    for (i = nPlayer - 1; i > 0; i--) {
      int j = (int)(next(&in) % (unsigned)(i + 1)), t = aSeat[i];
      aSeat[i] = aSeat[j];
      aSeat[j] = t;
    }
    /* late entries, drops, absences: the last seats sit out */
    nOut = next(&in);
    nSeat -= (nOut & 3) == 3 ? (int)((nOut >> 2) % (unsigned)(nPlayer + 1)) : 0;
    for (i = 0; i + 1 < nSeat; i += 2) {
      unsigned o = next(&in);
      /* iGamesBits: never, sometimes or always through the games table */
      int bGames = iGamesBits == 1 ? (o >> 6) & 1 : iGamesBits >= 2;
      insert_match(bTextEvent, eKind, r, aSeat[i], aSeat[i + 1],
                   &aOutcome[o % 64], bGames);
    }
    if (i < nSeat) {
      insert_match(bTextEvent, eKind, r, aSeat[i], -1, &aBye[next(&in) % 8], 0);
    }
  }

  /* standings(event, policy, floor, as_of_round) */
  bind_event(pStandings, 1, bTextEvent);
  sqlite3_bind_text(pStandings, 2, aPolicy[iPolicy].zPolicy, -1, SQLITE_STATIC);
  if (azFloor[iFloor]) {
    sqlite3_bind_text(pStandings, 3, azFloor[iFloor], -1, SQLITE_STATIC);
  } else {
    sqlite3_bind_null(pStandings, 3);
  }
  if (bAsOf) sqlite3_bind_int(pStandings, 4, iAsOf);
  else sqlite3_bind_null(pStandings, 4);
  opts.bMtg = 1;
  opts.gdp = aPolicy[iPolicy].gdp;
  nRow = check_standings(db, pStandings, &opts);

  /* one row per player (rows of the event up to as_of_round) */
  bind_event(pCount, 1, bTextEvent);
  sqlite3_bind_int(pCount, 2, bAsOf ? iAsOf : nRound);
  nExpect = single_int(pCount, 0, &bOk);
  sqlite3_reset(pCount);
  FUZZ_CHECK(!bOk || nRow < 0 || nRow == nExpect, "%d rows for %lld players",
             nRow, nExpect);

  /* the scalars read what standings() computes */
  bind_event(pScalars, 1, bTextEvent);
  nBad = single_int(pScalars, 0, &bOk);
  sqlite3_reset(pScalars);
  FUZZ_CHECK(nBad == 0, "%lld players whose scalars differ", nBad);

  /* every event at once (one pass over the table) is this event alone */
  bind_event(pEvery, 1, bTextEvent);
  sqlite3_bind_text(pEvery, 2, aPolicy[iPolicy].zPolicy, -1, SQLITE_STATIC);
  nBad = single_int(pEvery, 1, &bOk);
  FUZZ_CHECK(!bOk || nBad == 0, "every event at once differs in %lld rows",
             nBad);
  sqlite3_reset(pEvery);

  /* as_of_round at (or after) the last round is the whole event */
  bind_event(pAsOf, 1, bTextEvent);
  sqlite3_bind_int(pAsOf, 2, nRound);
  nBad = single_int(pAsOf, 1, &bOk);
  FUZZ_CHECK(!bOk || nBad == 0, "as_of_round %d differs in %lld rows", nRound,
             nBad);
  sqlite3_reset(pAsOf);
  return 0;
}
