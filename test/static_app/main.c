/*
** A program built against an installed tiebreak: it links the static
** library, registers it with sqlite3_auto_extension() and prints standings.
** With a path argument it also loads that file as a loadable extension.
** Exit code 0 when the standings are the expected ones.
*/
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>
#include <tiebreak.h>

static const char *zSetup =
  "CREATE TABLE matches(event_id, round, player_a, player_b,"
  "                     a_wins, b_wins, draws);"
  "INSERT INTO matches VALUES"
  "  (1, 1, 'Ann', 'Bob', 2, 0, 0), (1, 1, 'Cat', 'Dan', 2, 1, 0),"
  "  (1, 2, 'Ann', 'Cat', 2, 1, 0), (1, 2, 'Bob', 'Dan', 2, 1, 0);";

static const char *zQuery =
  "SELECT group_concat(rank || ' ' || player || ' ' || match_points || ' '"
  "                    || coalesce(decided_by, '-'), '\n')"
  "FROM standings(1, 'mtg')";

/* Ann 6 points; Cat and Bob 3 with equal OMW%, Cat has the better GW%. */
static const char *zExpected =
  "1 Ann 6 -\n"
  "2 Cat 3 match_points\n"
  "3 Bob 3 gwp\n"
  "4 Dan 0 match_points";

static int check_standings(sqlite3 *db, const char *zHow) {
  sqlite3_stmt *pStmt = 0;
  const char *zGot;
  int ok = 0;
  if (sqlite3_exec(db, zSetup, 0, 0, 0) != SQLITE_OK ||
      sqlite3_prepare_v2(db, zQuery, -1, &pStmt, 0) != SQLITE_OK ||
      sqlite3_step(pStmt) != SQLITE_ROW) {
    fprintf(stderr, "%s: %s\n", zHow, sqlite3_errmsg(db));
  } else {
    zGot = (const char *)sqlite3_column_text(pStmt, 0);
    ok = zGot && strcmp(zGot, zExpected) == 0;
    printf("%s:\n%s\n", zHow, zGot ? zGot : "(NULL)");
    if (!ok) fprintf(stderr, "%s: expected\n%s\n", zHow, zExpected);
  }
  sqlite3_finalize(pStmt);
  return ok;
}

int main(int argc, char **argv) {
  sqlite3 *db = 0;
  char *zErr = 0;
  int ok;

  /* Every connection opened from now on has the functions. */
  if (sqlite3_auto_extension((void (*)(void))sqlite3_tiebreak_init) != SQLITE_OK) {
    fprintf(stderr, "sqlite3_auto_extension failed\n");
    return 1;
  }
  sqlite3_open(":memory:", &db);
  ok = check_standings(db, "static library");
  sqlite3_close(db);

  if (ok && argc > 1) {
    sqlite3_reset_auto_extension();
    sqlite3_open(":memory:", &db);
    sqlite3_enable_load_extension(db, 1);
    if (sqlite3_load_extension(db, argv[1], 0, &zErr) != SQLITE_OK) {
      fprintf(stderr, "cannot load %s: %s\n", argv[1], zErr);
      sqlite3_free(zErr);
      ok = 0;
    } else {
      sqlite3_enable_load_extension(db, 0);
      ok = check_standings(db, "loadable module");
    }
    sqlite3_close(db);
  }
  return ok ? 0 : 1;
}
