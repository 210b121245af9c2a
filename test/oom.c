/*
** oom.c: every allocation of a workload fails in turn.
**
** SQLite's allocator is wrapped (SQLITE_CONFIG_MALLOC around the default
** methods) with a counter that makes the Nth allocation fail: in persistent
** mode it and every later one, in single mode only it.  The workload opens a
** database, registers the extension with sqlite3_tiebreak_init(), loads
** events (without failures: that is SQLite's work) and runs standings() and
** the scalars, including failing calls.  It runs once without failures to
** record what each statement returns, then for N = 1, 2, 3 ... until a run
** meets no injected failure.  Every statement of every run must return
** exactly what it returned without failures, or stop with an out-of-memory
** error after a prefix of those rows; the database must close cleanly with
** no allocation outstanding.
**
** Lookaside is disabled so that every small allocation is a failure point.
**
** Where it pays (forking_pays), the sweeps fork: a second run without
** failures stops at each failure point and forks a child per mode, which
** fails that allocation and runs the workload to its end, then reports its
** checks through a pipe.  A child starts where a fresh run failing the Nth
** allocation would be (the workload is deterministic, which the second run
** checks), so only the work after the failure is repeated.  SQLite runs
** single-threaded here, so a child holds no lock of its parent's.
**
**   test_oom                        every failure point, both modes
**   test_oom shard K M              every Mth failure point from the Kth,
**                                   both modes
**   test_oom persistent|single N    only the Nth (a reproducer; in a
**                                   debugger, "break oom_injected")
**   test_oom --workload NAME ...    any of these on another workload
**                                   (aWorkload below; default "standings",
**                                   the first part of the first workload)
*/
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tiebreak.h"

/* ------------------------------------------------------------ allocator */

static sqlite3_mem_methods defaultMem;
static struct {
  long long nCall;        /* allocation attempts in this run */
  long long iFail;        /* 1-based attempt to fail; 0 = none */
  int bPersist;           /* fail every attempt from iFail on */
  int nInjected;          /* failures injected in this run */
  int bPaused;            /* not counting: SQLite's own work */
  long long nOutstanding; /* live allocations */
} mem;

/* A place for a debugger's breakpoint: "break oom_injected". */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void oom_injected(void) {
  mem.nInjected++;
}

static int fork_point(void);

static int should_fail(void) {
  if (mem.bPaused) return 0;
  mem.nCall++;
  if (fork_point()) {
    oom_injected();
    return 1;
  }
  if (mem.iFail == 0) return 0;
  if (mem.nCall == mem.iFail || (mem.bPersist && mem.nCall > mem.iFail)) {
    oom_injected();
    return 1;
  }
  return 0;
}

static void *oom_malloc(int n) {
  void *p;
  if (should_fail()) return 0;
  p = defaultMem.xMalloc(n);
  if (p) mem.nOutstanding++;
  return p;
}

static void oom_free(void *p) {
  if (p) mem.nOutstanding--;
  defaultMem.xFree(p);
}

/* A failed realloc leaves the block allocated, as SQLite expects. */
static void *oom_realloc(void *p, int n) {
  if (p == 0) return oom_malloc(n);
  if (should_fail()) return 0;
  return defaultMem.xRealloc(p, n);
}

static int oom_size(void *p) { return defaultMem.xSize(p); }
static int oom_roundup(int n) { return defaultMem.xRoundup(n); }
static int oom_init(void *pAppData) {
  (void)pAppData;
  return defaultMem.xInit(defaultMem.pAppData);
}
static void oom_shutdown(void *pAppData) {
  (void)pAppData;
  defaultMem.xShutdown(defaultMem.pAppData);
}

/* --------------------------------------------------------------- output */

/* Text grown with libc's allocator, outside the counted one. */
typedef struct Buf {
  char *z;
  size_t n, nAlloc;
} Buf;

static void buf_printf(Buf *b, const char *zFmt, ...);

/* Empty the buffer, keeping it a valid string. */
static void buf_reset(Buf *b) {
  b->n = 0;
  buf_printf(b, "%s", "");
}

static void buf_printf(Buf *b, const char *zFmt, ...) {
  va_list ap;
  int n;
  va_start(ap, zFmt);
  n = vsnprintf(0, 0, zFmt, ap);
  va_end(ap);
  if (b->n + (size_t)n + 1 > b->nAlloc) {
    b->nAlloc = (b->n + (size_t)n + 1) * 2;
    b->z = realloc(b->z, b->nAlloc);
    if (b->z == 0) {
      fprintf(stderr, "oom: out of real memory\n");
      exit(2);
    }
  }
  va_start(ap, zFmt);
  vsnprintf(b->z + b->n, (size_t)n + 1, zFmt, ap);
  va_end(ap);
  b->n += (size_t)n;
}

/* ------------------------------------------------------------- workload */

/* Setup: SQLite's own work, run without failures (they would test SQLite,
** and cost a run each). */
static const char *azSetup[] = {
  "CREATE TABLE matches(event_id NOT NULL, round INTEGER NOT NULL,"
  " player_a NOT NULL, player_b, a_wins INTEGER NOT NULL DEFAULT 0,"
  " b_wins INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,"
  " result TEXT);"
  "CREATE INDEX matches_event_round ON matches(event_id, round);"
  "CREATE TABLE games(event_id NOT NULL, round INTEGER NOT NULL,"
  " player_a NOT NULL, game INTEGER NOT NULL, winner,"
  " PRIMARY KEY(event_id, round, player_a, game));",

  /* Event 1: byes (0-0-0 and 2-0-0), a drop (Dan after round 2), a late
  ** entry (Eve from round 2), an intentional draw 0-0-3, a 0-0-0 draw, a
  ** 1-1-1 draw, a double loss, game counts from the games table. */
  "INSERT INTO matches VALUES"
  " (1, 1, 'Ann', 'Bob', 2, 1, 0, NULL), (1, 1, 'Cat', 'Dan', 0, 0, 3, NULL),"
  " (1, 1, 'Fay', NULL, 0, 0, 0, NULL),"
  " (1, 2, 'Ann', 'Cat', 0, 0, 0, NULL), (1, 2, 'Bob', 'Dan', 1, 1, 1, NULL),"
  " (1, 2, 'Eve', 'Fay', 0, 0, 0, 'double_loss'),"
  " (1, 3, 'Ann', 'Eve', 0, 0, 0, NULL), (1, 3, 'Bob', 'Fay', 0, 0, 0, 'draw'),"
  " (1, 3, 'Cat', NULL, 2, 0, 0, 'a'), (1, 3, 'Dan', NULL, 0, 0, 0, 'loss');"
  "INSERT INTO games VALUES (1, 3, 'Ann', 1, 'Eve'), (1, 3, 'Ann', 2, 'Ann'),"
  " (1, 3, 'Ann', 3, 'Eve');",

  /* Event 'T': integer ids and exact ties. */
  "INSERT INTO matches VALUES"
  " ('T', 1, 1, 2, 2, 0, 0, NULL), ('T', 1, 3, 4, 2, 0, 0, NULL),"
  " ('T', 2, 1, 4, 0, 2, 0, NULL), ('T', 2, 3, 2, 0, 2, 0, NULL);",

  /* Event 'R': a rematch, a player with only a bye, a cut after round 2. */
  "INSERT INTO matches VALUES"
  " ('R', 1, 'A', 'B', 2, 0, 0, NULL), ('R', 1, 'C', 'D', 2, 1, 0, NULL),"
  " ('R', 1, 'E', NULL, 2, 0, 0, NULL), ('R', 2, 'A', 'C', 2, 1, 0, NULL),"
  " ('R', 2, 'B', 'D', 2, 0, 0, NULL), ('R', 3, 'B', 'A', 2, 1, 0, NULL);",

  /* Event 2: a player paired twice (an error). */
  "INSERT INTO matches VALUES (2, 1, 'X', 'Y', 2, 0, 0, NULL),"
  " (2, 1, 'X', 'Z', 2, 0, 0, NULL);",

  /* Event 3: 80 players with long names, 8 rounds, 320 matches: the
  ** extension's arrays, hash and text arena all grow. */
  "WITH RECURSIVE p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < 79),"
  " r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 8)"
  " INSERT INTO matches SELECT 3, n, printf('player %060d', i),"
  " printf('player %060d', (i | n) - (i & n)), (i * 7 + n) % 3, (i * 5 + n * 3) % 3,"
  " (i + n) % 2, NULL FROM p, r WHERE i < (i | n) - (i & n);",

  /* Table po, with a phase column: event 'P', a Top 4 after three Swiss
  ** rounds, one semifinal decided by the games table; event 'Q', a Swiss
  ** round after the playoff (an error); event 'W', a day-2 cut after
  ** round 2. */
  "CREATE TABLE po(event_id, round, player_a, player_b, a_wins, b_wins, draws,"
  " result, phase);"
  "INSERT INTO po VALUES"
  " ('P', 1, 'A', 'B', 2, 0, 0, NULL, NULL), ('P', 1, 'C', 'D', 2, 0, 0, NULL, NULL),"
  " ('P', 1, 'E', 'F', 2, 1, 0, NULL, NULL), ('P', 1, 'G', 'H', 2, 1, 0, NULL, NULL),"
  " ('P', 2, 'A', 'C', 2, 1, 0, NULL, NULL), ('P', 2, 'E', 'G', 2, 0, 0, NULL, 'swiss'),"
  " ('P', 2, 'B', 'D', 2, 0, 0, NULL, NULL), ('P', 2, 'F', 'H', 2, 0, 0, NULL, NULL),"
  " ('P', 3, 'A', 'E', 2, 0, 0, NULL, NULL), ('P', 3, 'C', 'G', 2, 1, 0, NULL, NULL),"
  " ('P', 3, 'B', 'F', 2, 1, 0, NULL, NULL), ('P', 3, 'D', 'H', 2, 0, 0, NULL, NULL),"
  " ('P', 4, 'A', 'B', 0, 0, 0, NULL, 'playoff'), ('P', 4, 'C', 'E', 2, 1, 0, 'a', 'playoff'),"
  " ('P', 5, 'B', 'C', 2, 0, 0, NULL, 'playoff'), ('Q', 1, 'A', 'B', 2, 0, 0, NULL, 'playoff'),"
  " ('Q', 2, 'A', NULL, 0, 0, 0, NULL, NULL),"
  " ('W', 1, 'A', 'B', 2, 0, 0, NULL, NULL), ('W', 1, 'C', 'D', 2, 0, 0, NULL, NULL),"
  " ('W', 2, 'A', 'C', 2, 0, 0, NULL, NULL), ('W', 2, 'B', 'D', 2, 0, 0, NULL, NULL),"
  " ('W', 3, 'A', 'C', 2, 1, 0, NULL, NULL);"
  "CREATE TABLE po_games(event_id, round, player_a, game, winner);"
  "INSERT INTO po_games VALUES ('P', 4, 'A', 1, 'B'), ('P', 4, 'A', 2, 'B');",

  /* Event 'c': chess from TRF text, with ratings. */
  "CREATE TABLE trf(x);"
  "INSERT INTO trf VALUES ('"
  "012 Example Open (five players, three rounds)\n"
  "042 2026/03/07\n"
  "062 5\n"
  "XXR 3\n"
  "202 BH/C1,BH,SB,DE\n"
  "001    1 m    Adams, Ann                        2100 NOR                         2.5    1     2 w 1     5 b 1     3 w =\n"
  "001    2 m    Brown, Bob                        1950 NOR                         1.0    3     1 b 0     3 w +     0 - Z\n"
  "001    3 m    Clark, Cleo                       1900 NOR                         1.0    4     4 w =     2 b -     1 b =\n"
  "001    4 m    Davis, Dan                        1800 NOR                         2.0    2     3 b =     0 - H     5 w 1\n"
  "001    5 m    Evans, Eve                             NOR                         1.0    5     0 - U     1 w 0     4 b 0\n');"
  "CREATE VIEW trf_m AS SELECT 'c' AS event_id, * FROM trf_matches((SELECT x FROM trf));"
  "CREATE TABLE players AS SELECT 'c' AS event_id, player, rating"
  " FROM trf_players((SELECT x FROM trf));"
  /* a double round robin, detected from its pairings */
  "CREATE VIEW rr_m(event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws, result) AS VALUES ('r', 1, 'A', 'B', 1, 0, 0, NULL),"
  " ('r', 2, 'B', 'C', 0, 0, 1, NULL), ('r', 3, 'C', 'A', 0, 1, 0, NULL),"
  " ('r', 4, 'B', 'A', 0, 0, 0, 'forfeit_b'), ('r', 5, 'C', 'B', 1, 0, 0, NULL),"
  " ('r', 6, 'A', 'C', 0, 0, 1, NULL);",
  /* Event 4: chess, 40 players drawn in round 1, 10 games in round 10^9
  ** (every other round absent), a forfeit: groups of more than 16 tied
  ** players for direct encounter, Art. 16 adjusted scores kept per player. */
  "WITH RECURSIVE p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < 19)"
  " INSERT INTO matches SELECT 4, 1, 2 * i, 2 * i + 1, 0, 0, 1, NULL FROM p"
  " UNION ALL SELECT 4, 1000000000, i, i + 20, 1, 0, 0, NULL FROM p WHERE i < 10"
  " UNION ALL SELECT 4, 999999999, 38, 39, 0, 0, 0, 'forfeit_a';",

  /* Event 5: one player (0) against 40 others, one a round, each of whom
  ** drops after it, three of them met twice: the opponents' averages go
  ** through the one player (Pokemon's owps as of earlier rounds, HCT's T1
  ** and T2, KTS's exact OOMW%). */
  "WITH RECURSIVE p(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM p WHERE i < 40)"
  " INSERT INTO matches SELECT 5, i, 0, i, (i * 7) % 3, (i * 5) % 3, i % 2, NULL"
  " FROM p UNION ALL SELECT 5, 40 + i, i, 0, 2, 0, 0, NULL FROM p WHERE i <= 3;",

  /* Event 4: game counts up to 10^6 and a twin of every player (other id,
  ** rounds reversed): the exact comparisons of OGW% pass 128 bits and go
  ** on in rationals of any size (exact.c). */
  "WITH RECURSIVE p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < 7),"
  " r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 6)"
  " INSERT INTO matches SELECT 4, n, i, (i | n) - (i & n),"
  " (i * 7919 + n * 104729) % 1000000, (i * 104723 + n * 7907) % 999983,"
  " (i * 31 + n) % 5, NULL FROM p, r WHERE i < (i | n) - (i & n);"
  "INSERT INTO matches SELECT 4, 7 - round, player_a + 100, player_b + 100,"
  " a_wins, b_wins, draws, NULL FROM matches WHERE event_id = 4;",

  /* Registrations: names, divisions, a disqualified player, a drop after
  ** rounds without rows, no-shows; event 3's many divisions and names grow
  ** the registrations' arrays and arena, and sort the divisions. */
  "CREATE TABLE regs(event_id, player, name, division, rating, status,"
  " dropped_after);"
  "INSERT INTO regs VALUES (1, 'Ann', 'Ann A', 'Seniors', 1500, NULL, NULL),"
  " (1, 'Bob', 'Bob B', 'Juniors', NULL, 'active', NULL),"
  " (1, 'Cat', NULL, 'Seniors', NULL, 'disqualified', NULL),"
  " (1, 'Eve', 'Eve E', NULL, NULL, 'dropped', 3),"
  " (1, 'Fay', 'Fay F', 'Juniors', NULL, 'Dropped', NULL),"
  " (1, 'Zed', 'Zed Z', 'Juniors', NULL, NULL, NULL),"
  " (5, 7, 'Seven', NULL, NULL, NULL, 20), (5, '8', 'Eight', NULL, 1, NULL, NULL),"
  " (5, 99, 'No-show', NULL, NULL, NULL, NULL);"
  "WITH RECURSIVE p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < 89)"
  " INSERT INTO regs SELECT 3, printf('player %060d', i), printf('name %0100d', i),"
  " printf('division %d', i % 7), NULL,"
  " CASE WHEN i % 17 = 0 THEN 'disqualified' END, NULL FROM p;"
  "CREATE TABLE badregs AS SELECT * FROM regs WHERE event_id = 1;"
  "INSERT INTO badregs VALUES (1, 'Dan', NULL, NULL, NULL, 'gone', NULL);",

  /* Event 6: two players against the same 1,000 opponents, opponent i losing
  ** (i+1)-i to each: equal OGW% sums of fractions of distinct denominators,
  ** long enough to be summed in a balanced tree, with split products.  In a
  ** table of its own, so that only its own statement pays for its rows at
  ** each of the sweep's runs. */
  "CREATE TABLE tie_matches AS SELECT * FROM matches WHERE 0;"
  "WITH RECURSIVE p(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM p WHERE i < 1000)"
  " INSERT INTO tie_matches SELECT 6, i, 'X', 'o' || i, i + 1, i, 0, NULL FROM p"
  " UNION ALL SELECT 6, 1000 + i, 'Y', 'o' || i, i + 1, i, 0, NULL FROM p;",

  /* Event from a TOM file: three divisions in one pod, a bye, a tie, a
  ** late loss, a drop, TOM's standings, an entity and a comment. */
  "CREATE TABLE tdf(x);"
  "INSERT INTO tdf VALUES ('<?xml version=\"1.0\"?><!-- TOM -->"
  "<tournament><data><startdate>03/14/2026</startdate></data><players>"
  "<player userid=\"1\"><firstname>A&amp;A</firstname><lastname>Z</lastname>"
  "<birthdate>02/27/1990</birthdate></player>"
  "<player userid=\"2\"><firstname>B</firstname><birthdate>02/27/2011</birthdate>"
  "<dropped><status>1</status><round>1</round></dropped></player>"
  "<player userid=\"3\"><firstname>C</firstname><birthdate>02/27/2015</birthdate></player>"
  "<player userid=\"4\"><firstname>D</firstname><birthdate>02/27/1980</birthdate></player>"
  "<player userid=\"5\"><firstname>E</firstname><birthdate>02/27/2012</birthdate></player>"
  "</players><pods><pod category=\"8\"><subgroups><subgroup><players>"
  "<player userid=\"1\"/><player userid=\"2\"/><player userid=\"3\"/><player userid=\"4\"/>"
  "<player userid=\"5\"/></players></subgroup></subgroups><rounds>"
  "<round number=\"1\" type=\"3\"><matches>"
  "<match outcome=\"1\"><player1 userid=\"1\"/><player2 userid=\"2\"/><tablenumber>1</tablenumber></match>"
  "<match outcome=\"3\"><player1 userid=\"3\"/><player2 userid=\"4\"/></match>"
  "<match outcome=\"8\"><player userid=\"5\"/></match></matches></round>"
  "<round number=\"2\" type=\"3\"><matches>"
  "<match outcome=\"2\"><player1 userid=\"1\"/><player2 userid=\"3\"/></match>"
  "<match outcome=\"1\"><player1 userid=\"5\"/><player2 userid=\"4\"/></match></matches></round>"
  "<round number=\"3\" type=\"1\"><matches>"
  "<match outcome=\"1\"><player1 userid=\"3\"/><player2 userid=\"5\"/></match>"
  "<match outcome=\"5\"><player userid=\"1\"/></match></matches></round>"
  "</rounds></pod></pods><standings><pod category=\"2\" type=\"finished\">"
  "<player id=\"1\" place=\"1\"/><player id=\"4\" place=\"2\"/></pod>"
  "<pod category=\"1\" type=\"dnf\"><player id=\"2\"/></pod></standings></tournament>');",
  "CREATE TEMP VIEW recursive_matches AS"
  " SELECT 1 AS event_id, 1 AS round, player AS player_a, NULL AS player_b,"
  " 0 AS a_wins, 0 AS b_wins, 0 AS draws FROM standings(1, 'mtg');",
};

static const char *azQuery[] = {
  "SELECT * FROM standings(1, 'mtg');",
  "SELECT rank, player, omwp, gwp, ogwp FROM standings(1, 'mtg', '1/3', 2);",
  "SELECT rank, player, decided_by FROM standings('T', "
  "'mtg(floor=1/3, game_draw_points=0, own_gwp_floor=0)', 0.33, NULL, "
  "'matches', 'games');",
  "SELECT rank, player, gwp FROM standings WHERE event_id = 1 AND policy = "
  "'mtg' AND floor = 0 AND games_table = '';",
  "SELECT e.id, s.rank, s.player FROM (SELECT 1 AS id UNION ALL SELECT 'T') "
  "AS e, standings(e.id, 'mtg') AS s;",
  "SELECT rank, player, match_points, omwp, ogwp FROM standings(3, 'mtg');",
  "SELECT rank, player, ogwp, decided_by FROM standings(4, 'mtg');",
  "SELECT rank, player, ogwp FROM standings(6, 'mtg', NULL, NULL, 'tie_matches') "
  "LIMIT 3;",
  /* every event in one pass: the event set, its hash and its sort */
  "SELECT event_id, rank, player FROM standings WHERE policy = 'mtg';",
  "SELECT count(*) FROM standings WHERE policy = 'mtg' AND as_of_round = 1;",
  "SELECT mwp(5, 2, 1), gwp(1, 2, 0), mwp(1, 3, 0, '1/3'), gwp(2, 1, 0, 0.5);",
  "SELECT mwp(1, 'Ann'), gwp(1, 'Ann'), omwp(1, 'Eve'), ogwp(1, 'Eve'), "
  "omwp(1, 'Fay', 'mtg(floor=1/3)'), ogwp('T', 2, 'mtg');",
  /* one computation per statement, cached for every row (auxdata) */
  "SELECT player_a, omwp(1, player_a), ogwp(1, player_a, 'mtg(floor=0)') "
  "FROM matches WHERE event_id = 1;",
  /* the event from a column: each event once per statement, two policies */
  "SELECT player_a, omwp(event_id, player_a), ogwp(event_id, player_a, "
  "'mtg(floor=0)'), mwp(event_id, player_b) FROM matches WHERE event_id <> 2;",
  /* five policies, some spelled alike: their aliases, keys and order of use */
  "SELECT player_a, omwp(event_id, player_a, 'MTG'), ogwp(event_id, player_a, "
  "' mtg '), omwp(event_id, player_a, 'melee'), omwp(event_id, player_a, "
  "'yugioh'), ogwp(event_id, player_a, 'battlefy'), omwp(event_id, player_a, "
  "'mtg(floor=0)') FROM matches WHERE event_id <> 2;",
  /* a REAL floor of 17 digits: the value rounded from its exact fraction */
  "SELECT mwp(0, 3, 0, 0.1 + 0.2), gwp(1, 2, 0, 0.4999999999999999);",
  "SELECT tiebreak_version(), length(tiebreak_debug()) > 0;",
  /* chess: TRF text, the C.07 tiebreakers */
  "SELECT * FROM trf_matches((SELECT x FROM trf));",
  "SELECT * FROM trf_players((SELECT x FROM trf));",
  "SELECT * FROM trf_records((SELECT x FROM trf));",
  "SELECT trf_policy(x), trf_policy('212 PTS BH/C1' || char(10) || x) FROM trf;",
  /* a name of several bytes a character: the columns mapped */
  "SELECT name FROM trf_players('001    1 m    M\xc3\xbcller, J\xc3\xb6rg');",
  "SELECT rank, player FROM standings('c', (SELECT trf_policy(x) FROM trf), NULL,"
  " NULL, 'trf_m');",
  "SELECT rank, player, fore_buchholz, aob, tpr, ptp, apro, appo, koya, decided_by"
  " FROM standings('c', 'PTS,FB,AOB,TPR,PTP,APRO,APPO,KS,ARO/M1,BWG,REP,FB/C1,"
  "SB/C1,BH/C1,DE(unrated=1500)', NULL, NULL, 'trf_m');",
  "SELECT name, code FROM tiebreakers;",
  "SELECT rank, player, koya FROM standings('c', 'fide_rr', NULL, NULL, 'trf_m');",
  "SELECT rank, player, games_won FROM standings('r', 'fide', NULL, NULL, 'rr_m');",
  "SELECT player, aro FROM standings('c', 'points,aro', NULL, NULL, 'trf_m', NULL,"
  " 'players');",
  "SELECT * FROM standings('c', 'fide(floor=0.3)', NULL, NULL, 'trf_m');",
  /* every good event and the bad ones' errors; ids given as text */
  "SELECT event_id, rank, player, error FROM standings WHERE policy = 'mtg' "
  "AND on_error = 'skip';",
  "SELECT rank, player FROM standings('1', 'mtg');",
  "SELECT mwp('T', '2'), omwp(1, 'Dan');",
  "SELECT player, dropped, win_pct FROM standings(1, 'pokemon(cut_after=2)');",
  /* a playoff (phase column, swiss_rounds) and a day-2 cut */
  "SELECT rank, player, swiss_rank, decided_by, omwp FROM standings('P', 'mtg',"
  " NULL, NULL, 'po', 'po_games');",
  "SELECT event_id, rank, player, swiss_rank, omwp, dropped FROM standings"
  " WHERE policy = 'mtg(swiss_rounds=3, cut_after=2)' AND matches_table = 'po'"
  " AND games_table = 'po_games' AND on_error = 'skip';",
  "SELECT player, owp, oowp FROM standings('W', 'pokemon(cut_after=2,"
  " freeze_drops=0)', NULL, NULL, 'po', '');",
  /* a Melee file: mirrored rows, '-' bye and loss, a playoff, a round the
  ** published record counts and the rows leave out */
  "SELECT rank, player, omwp FROM standings('{\"Rounds\": ["
  "{\"RoundName\": \"Round 1\", \"Matches\": ["
  "{\"Player1\": \"A\", \"Player2\": \"B\", \"Result\": \"1-1-1\"},"
  "{\"Player1\": \"B\", \"Player2\": \"A\", \"Result\": \"1-1-1\"},"
  "{\"Player1\": \"C\", \"Player2\": \"-\", \"Result\": \"2-0-0\"}]},"
  "{\"RoundName\": \"Round 2\", \"Matches\": ["
  "{\"Player1\": \"A\", \"Player2\": \"C\", \"Result\": \"2-0-0\"},"
  "{\"Player1\": \"D\", \"Player2\": \"-\", \"Result\": \"0-2-0\"}]},"
  "{\"RoundName\": \"Finals\", \"Matches\": ["
  "{\"Player1\": \"A\", \"Player2\": \"D\", \"Result\": \"2-0-0\"}]}],"
  "\"Standings\": [{\"Player\": \"D\", \"Wins\": 1, \"Losses\": 2}]}', "
  "'melee_2024(cut_after=1)', NULL, NULL, 'melee_matches', '');",
  "SELECT * FROM melee_players('{\"Standings\": [{\"Player\": \"A\", "
  "\"Rank\": 1, \"OMWP\": 0.5}, {\"Player\": \"B\"}]}');",
  "SELECT * FROM melee_players('{\"Standings\": [{\"Player\": 1}]}');",
  /* a rematch counted once, an opponentless player, a cut */
  "SELECT rank, player, omwp, ogwp FROM standings('R', 'melee(cut_after=2)');",
  "SELECT omwp('R', 'C', 'melee(cut_after=2)'), ogwp('R', 'E', 'melee');",
  "SELECT * FROM melee_matches('{\"Rounds\": [{\"Matches\": [{\"Player1\": "
  "\"A\", \"Player2\": \"B\", \"Result\": \"x\"}]}]}');",
  "SELECT * FROM melee_matches('{\"Rounds\": [{\"Matches\": 3}]}');",
  "SELECT * FROM melee_players('{\"Standings\": [1,]}');",
  /* a TOM file: its rows, its standings in one statement, its errors */
  "SELECT * FROM tom_players((SELECT x FROM tdf));",
  "SELECT rank, player, owp, oowp FROM standings((SELECT x FROM tdf), 'pokemon', "
  "NULL, NULL, 'tom_matches', '', 'tom_players');",
  "SELECT * FROM tom_matches('<tournament><players><player userid=\"1\"/>"
  "</players><pods><pod><rounds><round number=\"1\"><matches><match outcome=\"1\">"
  "<player1 userid=\"1\"/><player2 userid=\"9\"/></match></matches></round>"
  "</rounds></pod></pods></tournament>');",
  /* group tiebreakers, sparse rounds, terms kept per player */
  "SELECT rank, player, points, buchholz, direct_encounter FROM standings(4, "
  "'points,direct_encounter,buchholz_cut1,sonneborn_berger');",
  "SELECT rank, player, direct_encounter FROM standings(4, 'fide');",
  "SELECT rank, player, owp, oowp FROM standings(5, 'pokemon');",
  "SELECT rank, player, hct_t1, hct_t2 FROM standings(5, 'hct');",
  "SELECT rank, player, kts, oomwp FROM standings(5, 'yugioh');",
  /* registrations: players with no rows, divisions, no place */
  "SELECT rank, player, name, division, status, dropped FROM standings(1, "
  "'mtg', NULL, NULL, NULL, NULL, 'regs');",
  "SELECT rank, player, name, division FROM standings(3, 'mtg', NULL, NULL,"
  " NULL, NULL, 'regs');",
  "SELECT rank, player, owp, oowp, dropped FROM standings(5, 'pokemon', NULL,"
  " NULL, NULL, NULL, 'regs');",
  "SELECT event_id, rank, player, division, error FROM standings WHERE policy ="
  " 'mtg' AND players_table = 'regs' AND on_error = 'skip';",
  /* errors */
  "SELECT * FROM standings(1, 'mtg', NULL, NULL, NULL, NULL, 'badregs');",
  "SELECT * FROM trf_matches('001    1');",
  "SELECT * FROM standings('c', 'PTS,nope', NULL, NULL, 'trf_m');",
  "SELECT * FROM standings(2, 'mtg');",
  "SELECT * FROM standings(1, 'nope');",
  "SELECT * FROM standings(1, 'mtg(floor=2)');",
  "SELECT * FROM standings(1, 'mtg', NULL, NULL, 'nosuch');",
  "SELECT * FROM standings(1, 'mtg', NULL, NULL, 'recursive_matches');",
  "SELECT omwp(2, 'X');",
  "SELECT mwp(1, -1, 0);",
  /* last, as it leaves a TEMP table behind: a matches table without an
  ** index, so after the first event's scan every event in one pass (the
  ** event set), errors kept per event */
  "CREATE TEMP TABLE matches AS SELECT * FROM main.matches;"
  "SELECT count(omwp(event_id, player_a)), count(ogwp(event_id, player_b, "
  "'mtg(floor=0)')) FROM temp.matches WHERE event_id <> 2;"
  "SELECT omwp(event_id, player_a) FROM temp.matches WHERE event_id = 2;",
};
#define COUNT(a) ((int)(sizeof(a) / sizeof(a[0])))
#define STANDINGS_PART (COUNT(azQuery) / 3)

/* "melee": a Top 4 named "Round 4", "Round 5" found by its cut and
** valued as Melee does, rows and Standings entries left out and listed,
** the preset of a date. */
#define MELEE_TOP4                                                            \
  "'{\"Tournament\": {\"Date\": \"2025-03-01\"}, \"Rounds\": ["            \
  "{\"RoundName\": \"Round 1\", \"Matches\": ["                            \
  "{\"Player1\": \"A\", \"Player2\": \"B\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"C\", \"Player2\": \"D\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"E\", \"Player2\": \"F\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"G\", \"Player2\": \"H\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"G\", \"Player2\": \"X\", \"Result\": \"2-0-0\"}]},"    \
  "{\"RoundName\": \"Round 2\", \"Matches\": ["                            \
  "{\"Player1\": \"A\", \"Player2\": \"C\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"E\", \"Player2\": \"G\", \"Result\": \"2-1-0\"},"      \
  "{\"Player1\": \"G\", \"Player2\": \"E\", \"Result\": \"1-2-0\"},"      \
  "{\"Player1\": \"B\", \"Player2\": \"D\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"F\", \"Player2\": \"H\", \"Result\": \"2-x\"}]},"      \
  "{\"RoundName\": \"Round 3\", \"Matches\": ["                            \
  "{\"Player1\": \"A\", \"Player2\": \"E\", \"Result\": \"2-1-0\"},"      \
  "{\"Player1\": \"C\", \"Player2\": \"B\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"G\", \"Player2\": \"F\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"D\", \"Player2\": \"H\", \"Result\": \"2-0-0\"}]},"    \
  "{\"RoundName\": \"Round 4\", \"Matches\": ["                            \
  "{\"Player1\": \"A\", \"Player2\": \"G\", \"Result\": \"2-0-0\"},"      \
  "{\"Player1\": \"E\", \"Player2\": \"C\", \"Result\": \"2-0-0\"}]},"    \
  "{\"RoundName\": \"Round 5\", \"Matches\": ["                            \
  "{\"Player1\": \"E\", \"Player2\": \"A\", \"Result\": \"2-1-0\"}]}],"  \
  "\"Standings\": [{\"Player\": \"B\", \"Wins\": 2, \"Losses\": 2},"    \
  "{\"Player\": \"H\", \"Points\": \"x\"}, {\"Rank\": 9}]}'"
static const char *azMeleeSetup[] = {
  "CREATE TABLE f(text); INSERT INTO f VALUES (" MELEE_TOP4 ");",
};
static const char *azMeleeQuery[] = {
  "SELECT round, phase, source FROM f, melee_matches(f.text);",
  "SELECT round, player1, player2, problem FROM f, melee_problems(f.text);",
  "SELECT melee_policy(text) FROM f;",
  "SELECT player, rank FROM f, melee_players(f.text);",
  "SELECT rank, player, omwp, dropped FROM f, standings(f.text, melee_policy(f.text), "
  "NULL, NULL, 'melee_matches', '');",
};

/* "trf_event": a TRF file's event values, and its policy with the rule year
** of its dates and the points of its record 162 (trf.c). */
static const char *azTrfEventSetup[] = {
  "CREATE TABLE f(x);"
  "INSERT INTO f VALUES ('012 Club 3-1-0' || char(10) || '042 2025/10/04' ||"
  " char(10) || '142 2' || char(10) || '162  W 3.0    D 1.0    L 0.0' ||"
  " char(10) || '202 BH/C1 BH' || char(10) ||"
  " printf('%-89s', '001    1      A') || '     2 w 1  0000 - +' || char(10) ||"
  " printf('%-89s', '001    2      B') || '     1 b 0  0000 - U' || char(10));"
  "CREATE VIEW fm AS SELECT 'f' AS event_id, * FROM trf_matches((SELECT x FROM f));",
};
static const char *azTrfEventQuery[] = {
  "SELECT * FROM trf_event((SELECT x FROM f));",
  "SELECT trf_policy(x), trf_policy(x, 'fide(unrated=1000),ARO') FROM f;",
  "SELECT rank, player, points, buchholz FROM standings('f', "
  "(SELECT trf_policy(x) FROM f), NULL, NULL, 'fm');",
  "SELECT trf_policy(replace(x, '202 BH/C1 BH', '012 x')) FROM f;",
  "SELECT trf_policy(replace(x, 'L 0.0', 'L 1.0'), 'fide') FROM f;",
};

/*
** "tom_cut": a TOM file with a late entry, a drop, a player in no pod and a
** top cut per division, read in one statement, and its finals options; the
** policy of its date, and of a truncated file (an error).
*/
static const char *azTomSetup[] = {
  "CREATE TABLE t(x TEXT);"
  "INSERT INTO t VALUES ('<tournament><data><startdate>03/14/2026</startdate>"
  "</data><players>"
  "<player userid=\"1\"><birthdate>02/27/1990</birthdate></player>"
  "<player userid=\"2\"><birthdate>02/27/1990</birthdate></player>"
  "<player userid=\"3\"><birthdate>02/27/1990</birthdate></player>"
  "<player userid=\"4\"><birthdate>02/27/1990</birthdate><dropped><round>1"
  "</round></dropped></player>"
  "<player userid=\"5\"><birthdate>02/27/2016</birthdate></player>"
  "<player userid=\"6\"><birthdate>02/27/2016</birthdate></player>"
  "<player userid=\"7\"><birthdate>02/27/1990</birthdate></player>"
  "<player userid=\"9\"><birthdate>02/27/1990</birthdate></player>"
  "</players><pods><pod category=\"8\"><rounds>"
  "<round number=\"1\" type=\"3\"><matches>"
  "<match outcome=\"1\"><player1 userid=\"1\"/><player2 userid=\"2\"/></match>"
  "<match outcome=\"2\"><player1 userid=\"3\"/><player2 userid=\"4\"/></match>"
  "<match outcome=\"1\"><player1 userid=\"5\"/><player2 userid=\"6\"/></match>"
  "<match outcome=\"8\"><player userid=\"7\"/></match></matches></round>"
  "<round number=\"2\" type=\"3\"><matches>"
  "<match outcome=\"1\"><player1 userid=\"1\"/><player2 userid=\"7\"/></match>"
  "<match outcome=\"3\"><player1 userid=\"2\"/><player2 userid=\"3\"/></match>"
  "<match outcome=\"2\"><player1 userid=\"5\"/><player2 userid=\"6\"/></match>"
  "</matches></round><round number=\"3\" type=\"1\"><matches>"
  "<match outcome=\"2\"><player1 userid=\"1\"/><player2 userid=\"2\"/></match>"
  "</matches></round></rounds></pod></pods><finalsoptions>"
  "<categorycut key=\"2\"><cut>2</cut></categorycut></finalsoptions>"
  "</tournament>');",
};
static const char *azTomQuery[] = {
  "SELECT division, rank, player, win_pct, owp, oowp, swiss_rank, decided_by"
  " FROM standings((SELECT x FROM t), 'pokemon', NULL, NULL, 'tom_matches',"
  " '', 'tom_players');",
  "SELECT player, top_cut FROM tom_players((SELECT x FROM t));",
  "SELECT tom_policy(x), tom_policy(replace(x, '03/14/2026', '06/10/2023')) FROM t;",
  "SELECT tom_policy(substr(x, 1, 60)) FROM t;",
};

/* pokemon_drops: owps as of a drop round, in whole numbers by passes over
** the players (event 1: drops after rounds 2 and 3), opponent by opponent
** (event 2: one player met by a new one each round), and as fractions (event
** 3: 45 rounds, past a common denominator of 64 bits). */
static const char *azPokemonSetup[] = {
  "CREATE TABLE pk (event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws);",
  "WITH RECURSIVE r(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM r WHERE r < 5),"
  " t(t) AS (SELECT 0 UNION ALL SELECT t + 1 FROM t WHERE t < 3)"
  " INSERT INTO pk SELECT 1, r, (t * 2 + r) % 8, (t * 2 + r * 3 + 1) % 8,"
  " (t + r) % 3, (t * r) % 3, 0 FROM r, t"
  " WHERE (t * 2 + r) % 8 != (t * 2 + r * 3 + 1) % 8"
  " AND NOT (r > 2 AND 5 IN ((t * 2 + r) % 8, (t * 2 + r * 3 + 1) % 8))"
  " AND NOT (r > 3 AND 6 IN ((t * 2 + r) % 8, (t * 2 + r * 3 + 1) % 8));",
  "WITH RECURSIVE r(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM r WHERE r < 12)"
  " INSERT INTO pk SELECT 2, r, 'hub', 'p' || r, r % 3, (r + 1) % 3, 0 FROM r;",
  "WITH RECURSIVE r(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM r WHERE r < 45)"
  " INSERT INTO pk SELECT 3, r, 'a', CASE WHEN r < 3 THEN 'c' ELSE 'b' END,"
  " r % 3, (r + 1) % 3, 0 FROM r;",
};
static const char *azPokemonQuery[] = {
  "SELECT rank, player, owp, oowp FROM standings(1, 'pokemon', NULL, NULL,"
  " 'pk', '');",
  "SELECT rank, player, owp, oowp FROM standings(2, 'pokemon', NULL, NULL,"
  " 'pk', '');",
  "SELECT rank, player, owp, oowp FROM standings(3, 'pokemon_2023', NULL,"
  " NULL, 'pk', '');",
};

/* pairings(): berger with a free round, a bracket with byes and its next
** round, pairing_check() over a round off the table, errors. */
static const char *azPairSetup[] = {
  "CREATE TABLE players (event_id, player, name, rating, status, dropped_after);",
  "INSERT INTO players (event_id, player, rating) VALUES (1, 'a', 2000),"
  " (1, 'b', 1900), (1, 'c', 1800), (1, 'd', 1700), (1, 'e', 1600),"
  " (2, 'p', 1), (2, 'q', 2), (2, 'r', 3), (2, 's', 4), (2, 't', 5), (2, 'u', 6);",
  "CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws, result, phase);",
  /* event 1: rounds 1 and 2 of the Berger table of five (d free, e-c, a-b) */
  "INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES"
  " (1, 1, 'b', 'e', 'a'), (1, 1, 'c', 'd', 'draw'), (1, 1, 'a', NULL,"
  " 'zero_bye'), (1, 2, 'a', 'b', 'draw'), (1, 2, 'e', 'c', 'b'),"
  " (1, 2, 'd', NULL, 'zero_bye'),"
  " (2, 1, 'u', 't', 'a'), (2, 1, 's', 'r', 'a'), (2, 1, 'q', 'p', 'a');",
  /* event 3: event 2 with the first playoff round bracket(top=5) paired */
  "INSERT INTO players SELECT 3, player, name, rating, status, dropped_after"
  " FROM players WHERE event_id = 2;",
  "INSERT INTO matches SELECT 3, round, player_a, player_b, a_wins, b_wins,"
  " draws, result, phase FROM matches WHERE event_id = 2;",
  "INSERT INTO matches (event_id, round, player_a, player_b, result, phase)"
  " VALUES (3, 2, 'q', NULL, NULL, 'playoff'), (3, 2, 'p', 'r', 'a',"
  " 'playoff'), (3, 2, 's', NULL, NULL, 'playoff'), (3, 2, 'u', NULL, NULL,"
  " 'playoff');",
  /* event 4: a player twice in a round */
  "INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES"
  " (4, 1, 'x', 'y', 'a'), (4, 1, 'x', 'z', 'a'), (4, 2, 'y', 'y', 'a');",
  /* event 5: gaps in the rounds (2, then 5 to 6) */
  "INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES"
  " (5, 1, 'x', 'y', 'a'), (5, 3, 'x', 'y', 'a'), (5, 4, 'y', 'x', 'a'),"
  " (5, 7, 'x', 'y', 'a');",
  /* event 6: a Magic Swiss (a 2-0-0 bye), no round robin for berger */
  "INSERT INTO matches (event_id, round, player_a, player_b, a_wins) VALUES"
  " (6, 1, 'x', 'z', 2), (6, 1, 'y', NULL, 2);",
};
static const char *azPairQuery[] = {
  "SELECT table_number, player_a, player_b, score_a, colours_b, result"
  " FROM pairings(1, 'berger');",
  "SELECT * FROM pairing_check(1, 'berger(rounds=10)');",
  "SELECT table_number, player_a, player_b, why FROM pairings(2,"
  " 'bracket(top=5)');",
  "SELECT player_a, player_b FROM pairings(3, 'bracket');",
  "SELECT * FROM pairing_check(3, 'bracket');",
  "SELECT * FROM pairings(1, 'nope(x=1)');",
  "SELECT * FROM pairings(1, 'berger', 1);",
  "SELECT * FROM pairings(9, 'berger');",
  "SELECT * FROM pairing_check(4, 'berger');",
  "SELECT * FROM pairings(5, 'mtg');",
  "SELECT * FROM pairing_check(5, 'mtg');",
  "SELECT * FROM pairings(6, 'berger');",
  "SELECT * FROM pairings(1.0, 'dutch(accelerated=3, rounds=2)');",
  /* a TRF file: start numbers, XXR, 152, 240 and 260 records */
  "SELECT * FROM pairing_check('XXR 6' || char(10) || '152 B' || char(10) ||"
  " '260 001 002    1    4' || char(10) || '240 H 001    2' || char(10) ||"
  " printf('%-89s', '001    1      A') || '     4 b 1' || char(10) ||"
  " printf('%-89s', '001    2      B') || '     3 b =' || char(10) ||"
  " printf('%-89s', '001    3      C') || '     2 w =' || char(10) ||"
  " printf('%-89s', '001    4      D') || '     1 w 0' || char(10),"
  " 'berger', 'trf_matches', 'trf_players');",
  /* a record that does not read: its error, formatted */
  "SELECT * FROM pairings('240 H 001 2 abc' || char(10) ||"
  " printf('%-89s', '001    1      A') || char(10) ||"
  " printf('%-89s', '001    2      B') || char(10),"
  " 'mtg', NULL, 'trf_matches', 'trf_players');",
};

/* pair_swiss: 'mtg' and 'pokemon' on a 7-player event after two rounds
** (a bye, a draw, a dropped player, a rematch to avoid). */
static const char *azSwissSetup[] = {
  "CREATE TABLE players (event_id, player, status, dropped_after);",
  "INSERT INTO players (event_id, player) VALUES (1, 'a'), (1, 'b'), (1, 'c'),"
  " (1, 'd'), (1, 'e'), (1, 'f'), (1, 'g'), (1, 'h');",
  "UPDATE players SET dropped_after = 2 WHERE player = 'h';",
  "CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws, result);",
  "INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws) VALUES (1, 1, 'a', 'b', 2, 0, 0), (1, 1, 'c', 'd', 2, 1, 0),"
  " (1, 1, 'e', 'f', 1, 1, 1), (1, 1, 'g', 'h', 0, 2, 0),"
  " (1, 2, 'a', 'c', 2, 0, 0), (1, 2, 'h', 'e', 2, 0, 0),"
  " (1, 2, 'b', 'd', 0, 2, 0), (1, 2, 'f', 'g', 2, 0, 0);",
};
static const char *azSwissQuery[] = {
  "SELECT table_number, player_a, player_b, score_a, score_b, why"
  " FROM pairings(1, 'mtg(seed=5)');",
  "SELECT player_a, player_b FROM pairings(1, 'pokemon');",
  "SELECT * FROM pairing_check(1, 'mtg');",
  "SELECT * FROM pairings(1, 'mtg(top=2)');",
};

/* pair_baku: a TRF file's virtual points (250 and XXA records) in the Dutch
** system: the next round paired, the option as well (an error), a record
** that does not read. */
static const char *azBakuSetup[] = {
  "CREATE TABLE t(x);",
  "INSERT INTO t VALUES ('XXR 5' || char(10) ||"
  " '250       1.0 001 002 0001 0004' || char(10) ||"
  " 'XXA 0005  0.0  0.0' || char(10) ||"
  " printf('%-89s', '001    1      A') || '     3 w 1' || char(10) ||"
  " printf('%-89s', '001    2      B') || '     4 b =' || char(10) ||"
  " printf('%-89s', '001    3      C') || '     1 b 0' || char(10) ||"
  " printf('%-89s', '001    4      D') || '     2 w =' || char(10) ||"
  " printf('%-89s', '001    5      E') || '     6 w 1' || char(10) ||"
  " printf('%-89s', '001    6      F') || '     5 b 0' || char(10));",
};
static const char *azBakuQuery[] = {
  "SELECT number_a, number_b FROM pairings((SELECT x FROM t), 'dutch', NULL,"
  " 'trf_matches', 'trf_players');",
  "SELECT * FROM pairings((SELECT x FROM t), 'dutch(accelerated=3)', NULL,"
  " 'trf_matches', 'trf_players');",
  "SELECT * FROM pairings((SELECT x FROM t) || '250 1.0 3 1 1 4' || char(10),"
  " 'dutch', NULL, 'trf_matches', 'trf_players');",
};

/* pair_input: what pairing refuses to read silently: a TRF record listing
** a player twice, a bye of a round its player played, an XXC setting, a
** round past XXR, a reader's error, a chess game without a result. */
static const char *azPairInputSetup[] = {
  "CREATE TABLE t(x);",
  "INSERT INTO t VALUES ("
  " printf('%-89s', '001    1      A') || '     4 w 1' || char(10) ||"
  " printf('%-89s', '001    2      B') || '     3 w =' || char(10) ||"
  " printf('%-89s', '001    3      C') || '     2 b =' || char(10) ||"
  " printf('%-89s', '001    4      D') || '     1 b 0' || char(10));",
  "CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws, result);",
  "INSERT INTO matches VALUES (1, 1, 'a', 'b', 0, 0, 0, NULL),"
  " (1, 1, 'c', 'd', 0, 0, 0, NULL), (1, 1, 'e', NULL, 0, 0, 0, NULL);",
};
static const char *azPairInputQuery[] = {
  "SELECT player_a, player_b FROM pairings('XXC black1' || char(10) ||"
  " (SELECT x FROM t), 'dutch', NULL, 'trf_matches', 'trf_players');",
  "SELECT * FROM pairings('260 1 3 2 2' || char(10) || (SELECT x FROM t),"
  " 'dutch', NULL, 'trf_matches', 'trf_players');",
  "SELECT * FROM pairing_check('240 H 1 2' || char(10) || (SELECT x FROM t),"
  " 'dutch', 'trf_matches', 'trf_players');",
  "SELECT * FROM pairings('XXC rank' || char(10) || (SELECT x FROM t),"
  " 'dutch', NULL, 'trf_matches', 'trf_players');",
  "SELECT * FROM pairings('XXR 1' || char(10) || (SELECT x FROM t), 'mtg',"
  " NULL, 'trf_matches', 'trf_players');",
  "SELECT * FROM pairings('001 x' || char(10) || (SELECT x FROM t), 'dutch',"
  " NULL, 'trf_matches', 'trf_players');",
  "SELECT * FROM pairings(1, 'dutch');",
  "SELECT * FROM pairing_check(1, 'dutch');",
};

/* event_errors: a fault in one event's data named in every function's
** message, and the readers' refusal of NULL text. */
static const char *azEventErrorsSetup[] = {
  "CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws);",
  "INSERT INTO matches VALUES (7, 1, 'A', 'A', 2, 0, 0),"
  " ('t', 1, 'A', 'B', -1, 0, 0);",
};
static const char *azEventErrorsQuery[] = {
  "SELECT * FROM standings(7, 'mtg');",
  "SELECT * FROM standings('t', 'mtg');",
  "SELECT omwp(7, 'A');",
  "SELECT count(*) FROM melee_matches(NULL);",
  "SELECT tom_policy(NULL);",
};

/* standings_check(): a players table with published values, some wrong. */
static const char *azCheckSetup[] = {
  "CREATE TABLE matches(event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws, result);"
  "INSERT INTO matches VALUES (1, 1, 'A', 'B', 2, 0, 0, NULL),"
  " (1, 1, 'C', 'D', 2, 1, 0, NULL), (1, 2, 'A', 'C', 2, 1, 0, NULL),"
  " (1, 2, 'B', NULL, 2, 0, 0, NULL), (1, 3, 'A', 'D', 0, 0, 3, 'draw');"
  "CREATE TABLE players(event_id, player, published_rank,"
  " published_match_points, published_wins, published_losses,"
  " published_draws, published_omwp);"
  "INSERT INTO players VALUES (1, 'A', 1, 7, 2, 0, 1, 0.5556),"
  " (1, 'B', 3, 6, 2, 1, 0, 0.8), (1, 'C', 2, 3, 1, 1, 0, '0.5'),"
  " (1, 'D', 4, 1, 0, 1, 1, 0.6667);",
};
static const char *azCheckQuery[] = {
  "SELECT player, what, published, computed, reason FROM standings_check(1,"
  " 'mtg');",
  "SELECT event_id, player, what FROM standings_check WHERE policy = 'mtg';",
  /* a TRF round written 0000 - - and scored; places out of order */
  "SELECT player, what, published, computed, reason FROM standings_check("
  "'001    1 m    A                                      NOR              "
  "           2.0    1     2 w 1  0000 - -' || char(10) ||"
  "'001    2 m    B                                      NOR              "
  "           0.0    2     1 b 0     0 - U', 'PTS,BH', 'trf_matches',"
  " 'trf_players');",
  /* a Melee file: a round the rows leave out, a mark for a no-show */
  "SELECT player, what, reason FROM standings_check('{\"Rounds\": ["
  "{\"RoundName\": \"Round 1\", \"Matches\": ["
  "{\"Player1\": \"A\", \"Player2\": \"B\", \"Result\": \"2-0-0\"}]}],"
  "\"Standings\": [{\"Rank\": 1, \"Player\": \"A\", \"Wins\": 2,"
  " \"OMWP\": 0.5}, {\"Rank\": 2, \"Player\": \"B\", \"Losses\": 1,"
  " \"GWP\": -0.2}]}', 'melee_2024', 'melee_matches', 'melee_players');",
  "SELECT * FROM standings_check(1, 'mtg', 'matches', 'matches');",
  "SELECT * FROM standings_check(1, 'nope');",
};

/* Scoring lays the seats out over the settled rows: games counts found
** through seats laid out for them (player_a of the games table on either
** side), the event as of a cut built from the rows and their games counts
** before scoring, a playoff split off, a registration without rows. */
static const char *azGamesCutSetup[] = {
  "CREATE TABLE matches(event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws, result, phase);"
  "INSERT INTO matches VALUES (1, 1, 'A', 'B', 0, 0, 0, NULL, NULL),"
  " (1, 1, 'C', 'D', 2, 1, 0, NULL, NULL), (1, 1, 'E', NULL, 0, 0, 0, NULL, NULL),"
  " (1, 2, 'C', 'A', 0, 2, 0, NULL, NULL), (1, 2, 'B', 'E', 1, 2, 0, NULL, NULL),"
  " (1, 2, 'D', NULL, 2, 0, 0, NULL, NULL), (1, 3, 'A', 'B', 0, 0, 3, 'draw', NULL),"
  " (1, 3, 'C', 'E', 2, 0, 0, NULL, NULL), (1, 4, 'A', 'C', 2, 0, 0, NULL, 'playoff');"
  "CREATE TABLE games(event_id, round, player_a, game, winner);"
  "INSERT INTO games VALUES (1, 1, 'B', 1, 'A'), (1, 1, 'A', 2, 'B'),"
  " (1, 1, 'A', 3, 'A');"
  "CREATE TABLE players(event_id, player, status, dropped_after);"
  "INSERT INTO players VALUES (1, 'D', 'dropped', 2), (1, 'F', NULL, NULL);",
};
static const char *azGamesCutQuery[] = {
  "SELECT rank, player, match_points, omwp, gwp, ogwp, dropped FROM"
  " standings(1, 'mtg(cut_after=2, freeze_cut=1)');",
  "SELECT rank, player, swiss_rank, decided_by FROM standings(1, 'mtg');",
  "SELECT omwp(1, 'E', 'mtg(cut_after=2)'), gwp(1, 'A');",
};

/* An event whose 70,000 rows are read in blocks and joined (event.c),
** integer ids looked up after the read; a small page cache, so that the
** sweep's allocations are the computation's, not pages read. */
static const char *azRowBlocksSetup[] = {
  "PRAGMA cache_size = 8;"
  "CREATE TABLE matches(event_id, round, player_a, player_b, a_wins, b_wins,"
  " draws);"
  "WITH RECURSIVE r(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM r"
  " WHERE k < 69999)"
  " INSERT INTO matches SELECT 1, 1 + k / 7000, k % 7000,"
  " 7000 + (k % 7000 + k / 7000) % 7000, 2 - k % 3 / 2, k % 3 / 2 * 2, 0"
  " FROM r;",
};
static const char *azRowBlocksQuery[] = {
  "SELECT count(*), sum(match_points), max(omwp), min(ogwp)"
  " FROM standings(1, 'mtg');",
};

/*
** The workloads: "standings" (the one above, in three parts), and one small
** workload per later feature, so that a new
** feature's failure points do not rerun the whole of the first (a sweep
** costs allocations x runs).  A new workload is two arrays and a line here.
*/
static const struct Workload {
  const char *zName;
  const char **azSetup;
  int nSetup;
  const char **azQuery;
  int nQuery;
} aWorkload[] = {
  /* the first workload in three parts: each sweep reruns only its part, so
  ** the three cost a third of one sweep over the whole (allocations x runs) */
  {"standings", azSetup, COUNT(azSetup), azQuery, STANDINGS_PART},
  {"standings_2", azSetup, COUNT(azSetup), azQuery + STANDINGS_PART,
   STANDINGS_PART},
  {"standings_3", azSetup, COUNT(azSetup), azQuery + 2 * STANDINGS_PART,
   COUNT(azQuery) - 2 * STANDINGS_PART},
  {"melee", azMeleeSetup, COUNT(azMeleeSetup), azMeleeQuery, COUNT(azMeleeQuery)},
  {"trf_event", azTrfEventSetup, COUNT(azTrfEventSetup), azTrfEventQuery,
   COUNT(azTrfEventQuery)},
  {"tom_cut", azTomSetup, COUNT(azTomSetup), azTomQuery, COUNT(azTomQuery)},
  {"pairings", azPairSetup, COUNT(azPairSetup), azPairQuery, COUNT(azPairQuery)},
  {"pair_swiss", azSwissSetup, COUNT(azSwissSetup), azSwissQuery, COUNT(azSwissQuery)},
  {"pair_baku", azBakuSetup, COUNT(azBakuSetup), azBakuQuery, COUNT(azBakuQuery)},
  {"check", azCheckSetup, COUNT(azCheckSetup), azCheckQuery, COUNT(azCheckQuery)},
  {"pokemon_drops", azPokemonSetup, COUNT(azPokemonSetup), azPokemonQuery,
   COUNT(azPokemonQuery)},
  {"games_cut", azGamesCutSetup, COUNT(azGamesCutSetup), azGamesCutQuery,
   COUNT(azGamesCutQuery)},
  {"row_blocks", azRowBlocksSetup, COUNT(azRowBlocksSetup), azRowBlocksQuery,
   COUNT(azRowBlocksQuery)},
  {"event_errors", azEventErrorsSetup, COUNT(azEventErrorsSetup),
   azEventErrorsQuery, COUNT(azEventErrorsQuery)},
  {"pair_input", azPairInputSetup, COUNT(azPairInputSetup), azPairInputQuery,
   COUNT(azPairInputQuery)},
};
static const struct Workload *pWork = &aWorkload[0];

/* Outcome of each statement when nothing fails. */
static char **azExpect;

/* Run every statement of zSql, printing rows and the error (if any) into
** pOut, one line each.  Returns the error code or SQLITE_OK. */
static int run_sql(sqlite3 *db, const char *zSql, Buf *pOut) {
  const char *zTail = zSql;
  while (zTail && *zTail) {
    sqlite3_stmt *pStmt = 0;
    int rc = sqlite3_prepare_v2(db, zTail, -1, &pStmt, &zTail);
    if (rc != SQLITE_OK) {
      buf_printf(pOut, "error %d: %s\n", rc, sqlite3_errmsg(db));
      return rc;
    }
    if (pStmt == 0) break; /* only white space left */
    while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
      int i, n = sqlite3_column_count(pStmt);
      size_t nRowStart = pOut->n;
      for (i = 0; i < n; i++) {
        const char *zSep = i ? "|" : "";
        switch (sqlite3_column_type(pStmt, i)) {
          case SQLITE_INTEGER:
            buf_printf(pOut, "%s%lld", zSep, sqlite3_column_int64(pStmt, i));
            break;
          case SQLITE_FLOAT:
            buf_printf(pOut, "%s%.17g", zSep, sqlite3_column_double(pStmt, i));
            break;
          case SQLITE_TEXT: {
            /* may allocate (to add a terminator) and fail */
            const unsigned char *z = sqlite3_column_text(pStmt, i);
            if (z == 0) {
              rc = sqlite3_errcode(db);
              pOut->n = nRowStart; /* drop the partial row */
              buf_printf(pOut, "error %d: %s (column %d)\n", rc,
                         sqlite3_errmsg(db), i);
              sqlite3_finalize(pStmt);
              return rc;
            }
            buf_printf(pOut, "%s'%s'", zSep, (const char *)z);
            break;
          }
          case SQLITE_NULL:
            buf_printf(pOut, "%sNULL", zSep);
            break;
          default:
            buf_printf(pOut, "%s(blob)", zSep);
        }
      }
      buf_printf(pOut, "\n");
    }
    if (rc != SQLITE_DONE) {
      buf_printf(pOut, "error %d: %s\n", rc, sqlite3_errmsg(db));
      sqlite3_finalize(pStmt);
      return rc;
    }
    sqlite3_finalize(pStmt);
  }
  return SQLITE_OK;
}

/* --------------------------------------------------------------- checks */

enum { OOM_NOMEM, OOM_AS_ERROR, OOM_LOST_MESSAGE };

typedef struct Tally {
  long long nRun;         /* runs with a failure injected */
  long long aKind[3];     /* statements stopped by each OOM_* kind of error */
  long long nSame;        /* statements identical despite an injected failure */
  int nProblem;
  int bVerbose;           /* print every statement the failure changed */
} Tally;
static Tally tally;

/* The forking sweep (see the header comment). */
static struct {
  int bOn;                /* the parent's run forks at each failure point */
  int bChild;             /* this process is a child failing mem.iFail */
  long long iFirst, nStep;  /* the failure points: iFirst, iFirst + nStep ... */
  long long aRun[2];      /* children run, by mode: single, persistent */
  int fdReport;           /* a child's end of the pipe for its tally */
} fk;

static void problem(const char *zMode, long long iFail, const char *zWhat,
                    const char *zSql, const char *zWant, const char *zGot) {
  if (fk.bChild) { /* the run's arguments are the parent's */
    zMode = mem.bPersist ? "persistent" : "single";
    iFail = mem.iFail;
  }
  tally.nProblem++;
  if (tally.nProblem > 20) return;
  fprintf(stderr, "oom: %s mode, allocation %lld failed: %s\n", zMode, iFail,
          zWhat);
  if (zSql) fprintf(stderr, "  statement: %s\n", zSql);
  if (zWant) fprintf(stderr, "  without failure:\n%s", zWant);
  if (zGot) fprintf(stderr, "  got:\n%s", zGot);
}

/* The last line of z, which must be an error line ("error RC: MSG\n"). */
static const char *last_line(const char *z) {
  size_t n = strlen(z);
  const char *p;
  if (n == 0) return z;
  for (p = z + n - 1; p > z && p[-1] != '\n'; p--) {
  }
  return p;
}

/*
** An error that says memory ran out.  When SQLite cannot allocate the copy
** of an error message it keeps the code with its generic text ("SQL logic
** error"), which an extension copying sqlite3_errmsg() may prefix.
*/
static int is_oom_error(const char *zLine, int *peKind) {
  int rc, n;
  const char *zGeneric, *zMsg;
  size_t nMsg, nGeneric;
  if (sscanf(zLine, "error %d: %n", &rc, &n) != 1) return 0;
  zMsg = zLine + n;
  nMsg = strcspn(zMsg, "\n");
  zGeneric = sqlite3_errstr(rc);
  nGeneric = strlen(zGeneric);
  if (rc == SQLITE_NOMEM) {
    *peKind = OOM_NOMEM;
  } else if (strstr(zLine, "out of memory")) {
    *peKind = OOM_AS_ERROR;
  } else if (nMsg >= nGeneric &&
             strncmp(zMsg + nMsg - nGeneric, zGeneric, nGeneric) == 0) {
    *peKind = OOM_LOST_MESSAGE;
  } else {
    return 0;
  }
  return 1;
}

/* Check one statement's output against the run without failures. */
static void check_output(const char *zMode, long long iFail, const char *zSql,
                         const char *zWant, const char *zGot) {
  const char *zLast;
  int eKind = 0;
  size_t nPrefix;
  if (strcmp(zWant, zGot) == 0) {
    tally.nSame++;
    return;
  }
  if (tally.bVerbose) printf("%s\n  -> %s", zSql, last_line(zGot));
  zLast = last_line(zGot);
  nPrefix = (size_t)(zLast - zGot);
  if (!is_oom_error(zLast, &eKind)) {
    problem(zMode, iFail, "wrong result or error", zSql, zWant, zGot);
    return;
  }
  if (strncmp(zWant, zGot, nPrefix) != 0) {
    problem(zMode, iFail, "rows before the error differ", zSql, zWant, zGot);
    return;
  }
  tally.aKind[eKind]++;
}

/* One run of the workload.  With bRecord, store each statement's output. */
static void run_workload(const char *zMode, long long iFail, int bRecord) {
  sqlite3 *db = 0;
  char *zErr = 0;
  Buf out = {0, 0, 0};
  int rc, i;

  rc = sqlite3_open_v2(":memory:", &db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 0);
  if (rc != SQLITE_OK) {
    if (rc != SQLITE_NOMEM) {
      problem(zMode, iFail, "sqlite3_open_v2 failed", 0, 0,
              db ? sqlite3_errmsg(db) : "");
    }
    goto done;
  }
  rc = sqlite3_tiebreak_init(db, &zErr, 0);
  sqlite3_free(zErr);
  if (rc != SQLITE_OK) {
    if (rc != SQLITE_NOMEM) {
      problem(zMode, iFail, "sqlite3_tiebreak_init failed without NOMEM", 0, 0,
              sqlite3_errmsg(db));
    }
    if (bRecord) problem(zMode, 0, "registration failed", 0, 0, 0);
    goto done;
  }
  mem.bPaused = 1;
  for (i = 0; i < pWork->nSetup; i++) {
    buf_reset(&out);
    rc = run_sql(db, pWork->azSetup[i], &out);
    if (rc != SQLITE_OK) {
      mem.bPaused = 0;
      problem(zMode, iFail, "setup failed", pWork->azSetup[i], "", out.z);
      goto done;
    }
  }
  mem.bPaused = 0;
  for (i = 0; i < pWork->nQuery; i++) {
    buf_reset(&out);
    run_sql(db, pWork->azQuery[i], &out);
    if (bRecord) {
      azExpect[i] = strdup(out.z);
    } else {
      check_output(zMode, iFail, pWork->azQuery[i], azExpect[i], out.z);
    }
  }

done:
  free(out.z);
  if (db) {
    /* The extension must not leave statements open. */
    rc = sqlite3_close(db);
    if (rc != SQLITE_OK) {
      problem(zMode, iFail, "sqlite3_close failed", 0, 0, sqlite3_errstr(rc));
    }
  }
}

/* ---------------------------------------------------------- crash report */

/* Where the sweep is, written before each run so that a crash can say it. */
static char zWhere[512];
static const char *zArgv0 = "test_oom";

static void where_set(const char *zMode, long long iFail) {
  snprintf(zWhere, sizeof(zWhere),
           "\noom: crashed in %s mode, allocation %lld failed; reproduce with: "
           "%s --workload %s %s %lld\n", zMode, iFail, zArgv0, pWork->zName,
           zMode, iFail);
}

static void where_print(void) {
  if (write(2, zWhere, strlen(zWhere)) < 0) return;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OOM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define OOM_ASAN 1
#endif

#ifdef OOM_ASAN
/* AddressSanitizer calls this before its report (which has the stack). */
void __asan_on_error(void);
void __asan_on_error(void) { where_print(); }
static void crash_handlers(void) {}
#else
static void on_crash(int sig) {
  where_print();
  signal(sig, SIG_DFL);
  raise(sig);
}
static void crash_handlers(void) {
  signal(SIGSEGV, on_crash);
  signal(SIGBUS, on_crash);
  signal(SIGABRT, on_crash);
  signal(SIGFPE, on_crash);
}
#endif

/* Child pid's exit status, waited for through signals. */
static int child_status(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

/* In the forking run, at a failure point: fork a child for each mode.  In a
** child, returns 1 (fail this allocation); in the parent, waits for the
** child, adds its tally and returns 0. */
static int fork_point(void) {
  int bPersist;
  /* Twenty problems tell enough; a sanitizer's report each would flood. */
  if (!fk.bOn || fk.bChild || tally.nProblem >= 20 || mem.nCall < fk.iFirst ||
      (mem.nCall - fk.iFirst) % fk.nStep != 0) {
    return 0;
  }
  for (bPersist = 1; bPersist >= 0; bPersist--) {
    const char *zMode = bPersist ? "persistent" : "single";
    int aFd[2], status = 0, bVerbose = tally.bVerbose;
    size_t nGot = 0;
    ssize_t n;
    pid_t pid;
    Tally sub;
    fflush(stdout);
    fflush(stderr);
    if (pipe(aFd) != 0 || (pid = fork()) < 0) {
      perror("oom: fork");
      exit(2);
    }
    if (pid == 0) {
      /* A failure path that never ends fails the sweep, which waits. */
      alarm(600);
#ifdef __linux__
      prctl(PR_SET_PDEATHSIG, SIGKILL); /* gone with a killed parent */
#endif
      close(aFd[0]);
      fk.bChild = 1;
      fk.fdReport = aFd[1];
      mem.iFail = mem.nCall;
      mem.bPersist = bPersist;
      memset(&tally, 0, sizeof(tally));
      tally.bVerbose = bVerbose;
      where_set(zMode, mem.nCall);
      return 1;
    }
    close(aFd[1]);
    while (nGot < sizeof(sub) &&
           (n = read(aFd[0], (char *)&sub + nGot, sizeof(sub) - nGot)) > 0) {
      nGot += (size_t)n;
    }
    close(aFd[0]);
    status = child_status(pid);
    if (nGot != sizeof(sub) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      char z[160];
      snprintf(z, sizeof(z), "the run ended without its report (%s %d); "
               "reproduce with: %s --workload %s %s %lld",
               WIFSIGNALED(status) ? "signal" : "exit status",
               WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
               zArgv0, pWork->zName, zMode, mem.nCall);
      problem(zMode, mem.nCall, z, 0, 0, 0);
      continue;
    }
    tally.nRun += sub.nRun;
    tally.aKind[0] += sub.aKind[0];
    tally.aKind[1] += sub.aKind[1];
    tally.aKind[2] += sub.aKind[2];
    tally.nSame += sub.nSame;
    tally.nProblem += sub.nProblem;
    fk.aRun[bPersist] += sub.nRun;
  }
  where_set("clean", 0);
  return 0;
}

/* A problem if a run left allocations beyond nBaseline; returns those
** outstanding now (the next run's baseline). */
static long long report_leaks(const char *zMode, long long iFail,
                              long long nBaseline) {
  if (mem.nOutstanding != nBaseline) {
    char z[64];
    snprintf(z, sizeof(z), "%lld allocations leaked",
             mem.nOutstanding - nBaseline);
    problem(zMode, iFail, z, 0, 0, 0);
  }
  return mem.nOutstanding;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Whether forking at each failure point beats rerunning the workload.  A
** rerun costs about half a run a point, a child about a quarter of one plus
** twice a bare fork (its pages copied as it writes them): a bare fork costs
** 0.2-0.4 ms, 2-7 ms under the sanitizers, whose shadow memory is copied
** too; so short workloads rerun there.  TIEBREAK_OOM_SWEEP=fork or rerun
** decides instead. */
static int forking_pays(void) {
  const char *z = getenv("TIEBREAK_OOM_SWEEP");
  double t0, tRun, tFork = 1e9;
  int k;
  if (z && strcmp(z, "fork") == 0) return 1;
  if (z && strcmp(z, "rerun") == 0) return 0;
  if (z && *z) {
    fprintf(stderr, "oom: TIEBREAK_OOM_SWEEP is '%s', not fork or rerun\n", z);
    exit(2);
  }
  t0 = now_ms();
  run_workload("clean", 0, 0);
  tRun = now_ms() - t0;
  for (k = 0; k < 3; k++) {
    pid_t pid;
    t0 = now_ms();
    if ((pid = fork()) == 0) _exit(0);
    if (pid < 0) return 0;
    child_status(pid);
    if (now_ms() - t0 < tFork) tFork = now_ms() - t0;
  }
  return tRun > 4 * tFork;
}

/* Every failure point from iFirst in steps of nStep, in both modes, by one
** run without failures that forks a child at each (fork_point).  A child
** checks the rest of the run and its leaks, reports, and exits here. */
static void fork_sweep(long long nBaseline, long long iFirst, long long nStep) {
  fk.bOn = 1;
  fk.iFirst = iFirst;
  fk.nStep = nStep;
  mem.nCall = 0;
  where_set("clean", 0);
  run_workload("clean", 0, 0);
  if (fk.bChild) {
    const char *p = (const char *)&tally;
    size_t nLeft = sizeof(tally);
    ssize_t n;
    report_leaks(0, 0, nBaseline);
    if (mem.nInjected) tally.nRun++;
    for (; nLeft > 0 && (n = write(fk.fdReport, p, nLeft)) > 0; nLeft -= (size_t)n) {
      p += n;
    }
    fflush(stdout);
    _exit(nLeft == 0 ? 0 : 2);
  }
  fk.bOn = 0;
  if (mem.nOutstanding != nBaseline) {
    problem("clean", 0, "allocations leaked without failures", 0, 0, 0);
  }
}

/* Fail the Nth allocation for N = iFirst, iFirst + nStep, ... until a run
** completes with no failure injected (or N passes iLast); returns the
** number of failure points exercised. */
static long long sweep(int bPersist, long long nBaseline, long long iFirst,
                       long long iLast, long long nStep) {
  const char *zMode = bPersist ? "persistent" : "single";
  long long iFail, nRun = 0;
  for (iFail = iFirst; iLast == 0 || iFail <= iLast; iFail += nStep) {
    mem.nCall = 0;
    mem.nInjected = 0;
    mem.iFail = iFail;
    mem.bPersist = bPersist;
    where_set(zMode, iFail);
    run_workload(zMode, iFail, 0);
    mem.iFail = 0;
    nBaseline = report_leaks(zMode, iFail, nBaseline);
    if (mem.nInjected == 0) break;
    tally.nRun++;
    nRun++;
  }
  return nRun;
}

int main(int argc, char **argv) {
  static sqlite3_mem_methods oomMem = {oom_malloc, oom_free, oom_realloc,
                                       oom_size, oom_roundup, oom_init,
                                       oom_shutdown, 0};
  long long nBaseline, nClean, nPersist, nSingle, iFirst = 1, nStep = 1;

  zArgv0 = argv[0];
  crash_handlers();
  if (argc >= 3 && strcmp(argv[1], "--workload") == 0) {
    int k, nWork = COUNT(aWorkload);
    for (k = 0; k < nWork && strcmp(aWorkload[k].zName, argv[2]) != 0; k++) {}
    if (k == nWork) {
      fprintf(stderr, "%s: no workload named %s\n", argv[0], argv[2]);
      return 2;
    }
    pWork = &aWorkload[k];
    argc -= 2;
    argv += 2;
  }
  azExpect = calloc((size_t)pWork->nQuery, sizeof(char *));
  if (azExpect == 0) return 2;

  /* Single-threaded: no mutex, so a child forked inside an allocation holds
  ** no lock that only its parent could release. */
  if (sqlite3_config(SQLITE_CONFIG_SINGLETHREAD) != SQLITE_OK ||
      sqlite3_config(SQLITE_CONFIG_GETMALLOC, &defaultMem) != SQLITE_OK ||
      sqlite3_config(SQLITE_CONFIG_MALLOC, &oomMem) != SQLITE_OK ||
      sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0) != SQLITE_OK ||
      sqlite3_initialize() != SQLITE_OK) {
    fprintf(stderr, "oom: cannot install the allocator\n");
    return 2;
  }
  nBaseline = mem.nOutstanding;

  run_workload("recording", 0, 1);
  nClean = mem.nCall;
  if (mem.nOutstanding != nBaseline) {
    problem("recording", 0, "allocations leaked without failures", 0, 0, 0);
  }
  if (tally.nProblem) return 1;

  if (argc == 4 && strcmp(argv[1], "shard") == 0) {
    iFirst = atoll(argv[2]);
    nStep = atoll(argv[3]);
    if (nStep < 1 || iFirst < 1 || iFirst > nStep) {
      fprintf(stderr, "usage: %s shard K M (1 <= K <= M)\n", zArgv0);
      return 2;
    }
  } else if (argc == 3) {
    long long iFail = atoll(argv[2]);
    int bPersist = strcmp(argv[1], "persistent") == 0;
    if (!bPersist && strcmp(argv[1], "single") != 0) {
      fprintf(stderr, "usage: %s [persistent|single N]\n", zArgv0);
      return 2;
    }
    tally.bVerbose = 1;
    sweep(bPersist, nBaseline, iFail, iFail, 1);
    printf("oom: %s mode, allocation %lld of the %lld of workload %s: %s\n",
           argv[1], iFail, nClean, pWork->zName, tally.nProblem ? "problem" : "ok");
    return tally.nProblem != 0;
  }
  if (forking_pays()) {
    fork_sweep(nBaseline, iFirst, nStep);
    nPersist = fk.aRun[1];
    nSingle = fk.aRun[0];
  } else {
    nPersist = sweep(1, nBaseline, iFirst, 0, nStep);
    nSingle = sweep(0, nBaseline, iFirst, 0, nStep);
  }

  printf("oom: workload %s of %lld allocations; failure points exercised: "
         "%lld persistent + %lld single = %lld\n",
         pWork->zName, nClean, nPersist, nSingle, nPersist + nSingle);
  printf("oom: statements stopped by SQLITE_NOMEM %lld, by another code "
         "saying \"out of memory\" %lld, by an error whose message SQLite "
         "could not keep %lld; unaffected %lld\n",
         tally.aKind[OOM_NOMEM], tally.aKind[OOM_AS_ERROR],
         tally.aKind[OOM_LOST_MESSAGE], tally.nSame);
  if (tally.nProblem) {
    printf("oom: %d problems\n", tally.nProblem);
    return 1;
  }
  sqlite3_shutdown();
  return 0;
}
