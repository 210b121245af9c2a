/*
** tiebreak_int.h: declarations shared by the files of the tiebreak extension.
**
** The extension is split into rooms, a folder for each step of the
** pipeline: read -> event model -> tiebreakers -> policy -> rank -> SQL.
**
**   read/tables.c       the user's matches, games and players tables (the only
**                       SQL it runs), one event or every event in one pass
**   read/melee.c        melee_matches(): a Melee.gg event file's text as rows
**   read/trf.c          trf_matches(), trf_players(): FIDE TRF text as rows
**   read/text_arg.c     what the file readers share: the table, the plan (the
**                       text, required)
**   read/tom.c          tom_matches(), tom_players(): Pokemon TOM (.tdf) XML
**                       text as rows; tom_policy(): the policy of its date
**   model/event.c       the tournament model: players, their rounds, records
**   model/exact.c       exact rational arithmetic and the value accumulator
**   tiebreakers/        one small function per tiebreaker, by family:
**     tiebreakers.c     the table listing them all; Magic's (MTR Appendix C)
**     tcg.c             Battlefy Default and Yu-Gi-Oh! (OOMW%, KTS)
**     hct.c             Battlefy HCT (wins, T1, T2, T3)
**     pokemon.c         Play! Pokemon (win %, OWP, OOWP, head-to-head)
**     fide.c            chess, FIDE C.07 (Buchholz, Sonneborn-Berger, ...)
**     fide_rating.c     chess by rating (ARO cuts, TPR, PTP, APRO, APPO), and
**                       FIDE's rating-difference table
**     fide_games.c      more chess (BWG, REP, AOB, Fore Buchholz, Koya)
**   policy/policy.c     policies: named lists of tiebreakers, with options
**   rank/rank.c         ordering players exactly, shared ranks, decided_by
**   rank/playoff.c      the playoff out of the Swiss, final standings
**   sql/compute.c       the pipeline every SQL function shares
**   sql/standings.c     the standings() table-valued function
**   sql/scalars.c       mwp(), gwp(), omwp(), ogwp()
**   sql/listings.c      the tiebreak_policies and tiebreakers tables
**   sql/pairings.c      pairings() and pairing_check()
**   pair/               pairing: the state before a round (state.c), the
**                       systems table (systems.c), one file per system
**   sql/check.c         standings_check(): published values against computed
**   tiebreak.c          the entry point, tiebreak_version(), tiebreak_debug()
**
** Everything here has hidden visibility: the shared library exports only
** sqlite3_tiebreak_init (see CMakeLists.txt).
*/
#ifndef TIEBREAK_INT_H
#define TIEBREAK_INT_H

#include "sqlite3ext.h"
#ifndef SQLITE_CORE
SQLITE_EXTENSION_INIT3
#endif

#include <stddef.h>
#include <string.h>

/* A hint that *p will be read soon (GCC and Clang, as __int128 below). */
#define TB_PREFETCH(p) __builtin_prefetch(p)

#define TIEBREAK_VERSION "0.1.0"

typedef sqlite3_int64 i64;
/* 8-byte aligned: sqlite3_malloc64() guarantees no more than that. */
__extension__ typedef __int128 i128 __attribute__((aligned(8)));

/* ------------------------------------------------------------------ exact */

/* An exact rational num/den, den > 0 (reduced when it grows large). */
typedef struct TbFrac {
  i128 num;
  i128 den;
} TbFrac;

/* A rational of any size, for values past 128 bits (exact.c). */
typedef struct TbBigQ TbBigQ;

/* Terms of an exact sum waiting to be added in a balanced tree (exact.c). */
typedef struct TbSum TbSum;

/* Interrupts while computing (below). */
typedef struct TbProbe TbProbe;

/* An exact value: q, or *pBig when that is not NULL (then it owns it). */
typedef struct TbQ {
  TbFrac q;
  TbBigQ *pBig;
} TbQ;

TbFrac tb_frac(i64 num, i64 den);
int tb_frac_cmp(const TbFrac *a, const TbFrac *b);
int tb_frac_parse(const char *z, TbFrac *pOut);
int tb_q_cmp(const TbQ *a, const TbQ *b, int *pRc);
int tb_q_cmp_polled(const TbQ *a, const TbQ *b, TbProbe *pProbe, int *pRc);
double tb_q_double(const TbQ *a, int *pRc);
double tb_q_double_polled(const TbQ *a, TbProbe *pProbe, int *pRc);
i64 tb_q_floor(const TbQ *a, i64 nMul, int bHalfUp, int *pRc);
void tb_q_free(TbQ *a);

/*
** An accumulator that computes one tiebreaker value.  The same tiebreaker
** function runs in two modes: fast (double-double) for every player, and
** exact (rational) only for the players whose doubles are too close to
** order, or too close to a rounding midpoint to round (see rank.c).  The
** exact mode works in 128 bits and moves to a rational of any size when a
** sum outgrows them; only running out of memory, or an interrupt met by
** pProbe, stops it (bNoMem; tb_acc_error tells which).
*/
typedef struct TbAcc {
  int bExact;       /* 1: exact mode */
  int bNoMem;       /* exact mode: out of memory, q is meaningless */
  int bNull;        /* value undefined (e.g. a mean over no opponent) */
  double r, lo;     /* fast mode: the value is r + lo ... */
  double err;       /* ... within err (0: exactly r + lo) */
  TbFrac q;         /* exact mode value, while pBig is NULL */
  TbBigQ *pBig;     /* exact mode value once past 128 bits */
  TbSum *pSum;      /* exact mode: terms still to add to it, or NULL */
  TbProbe *pProbe;  /* exact mode: polled by long arithmetic, or NULL */
} TbAcc;

void tb_acc_add_exact(TbAcc *p, i64 num, i64 den);
void tb_acc_add_frac_exact(TbAcc *p, const TbFrac *f);
void tb_acc_add_q(TbAcc *p, const TbQ *a);
void tb_acc_add_acc(TbAcc *p, const TbAcc *pChild);
void tb_acc_mean_exact(TbAcc *p, i64 n);
void tb_acc_clear(TbAcc *p);
void tb_acc_settle(TbAcc *p);
void tb_acc_take(TbAcc *p, TbQ *pOut);
int tb_acc_rounded(const TbAcc *p);

/*
** The fast mode runs for every player and every opponent, so its steps are
** inline (the exact mode is in exact.c).  It keeps the value as an unevaluated
** sum r + lo of two doubles (about 106 bits) with a bound err on its error:
** err 0 and lo 0 mean r is exactly the value, so that two players' doubles
** order them, ties included, with no exact pass (sums of integers and halves,
** as points and counts are); otherwise tb_acc_rounded() tells whether r is
** certainly the correctly rounded double of the value.
**
** The bounds: a sum's low part is rounded at most twice, by at most 2^-53
** of the parts added each time, so 2^-51 of them covers it; a quotient's
** low part is rounded twice as well.  Each bound is 0 when nothing rounded.
*/

/* A zero value, fast or exact.  Inline: every value of every player starts
** here. */
static inline void tb_acc_init(TbAcc *p, int bExact) {
  p->bExact = bExact;
  p->bNoMem = 0;
  p->bNull = 0;
  p->r = 0.0;
  p->lo = 0.0;
  p->err = 0.0;
  p->q.num = 0;
  p->q.den = 1;
  p->pBig = 0;
  p->pSum = 0;
  p->pProbe = 0;
}

/* A nested accumulator: the parent's mode, and its probe. */
static inline void tb_acc_init_child(TbAcc *p, const TbAcc *pParent) {
  tb_acc_init(p, pParent->bExact);
  p->pProbe = pParent->pProbe;
}

/* fast mode: r + lo might not be exactly the value */
static inline int tb_acc_inexact(const TbAcc *p) {
  return p->lo != 0.0 || p->err != 0.0;
}

/*
** fast mode: value += xh + xl, a term known within xe.  The high parts are
** summed with their exact errors moved into lo (Knuth's TwoSum), lo is
** summed plainly: each step then waits on one addition of the step before,
** not on a chain of them.  tb_acc_normalize() makes r the double nearest to
** r + lo when the value is read.
*/
static inline void tb_acc_add_dd(TbAcc *p, double xh, double xl, double xe) {
  double r = p->r, lo = p->lo;
  double s = r + xh;
  double v = s - r;
  double e = (r - (s - v)) + (xh - v);     /* s + e = r + xh exactly */
  p->err += xe + (__builtin_fabs(lo) + __builtin_fabs(xl) +
                  __builtin_fabs(e)) * 0x1p-51;
  p->lo = (lo + xl) + e;
  p->r = s;
}

/* fast mode: r + lo as the double nearest to it, and what is left, exactly */
static inline void tb_acc_normalize(TbAcc *p) {
  double r = p->r, lo = p->lo;
  double h = r + lo;
  double w = h - r;
  p->lo = (r - (h - w)) + (lo - w);
  p->r = h;
}

/* |x| <= 2^53: x is exactly a double */
static inline int tb_is_double(i64 x) {
  return x <= ((i64)1 << 53) && x >= -((i64)1 << 53);
}

/* num/den (den > 0) as the term tb_acc_add adds: *pHi + *pLo within *pErr.
** Apart, for a term kept and added many times. */
static inline void tb_quotient_dd(i64 num, i64 den, double *pHi, double *pLo,
                                  double *pErr) {
  double a = (double)num, b = (double)den, hi = a / b, lo = 0.0, e = 0.0;
  if (tb_is_double(num) && tb_is_double(den)) {
    /* the remainder of a correctly rounded quotient is exact */
    double rem = __builtin_fma(-hi, b, a);
    if (rem != 0.0) {
      lo = rem / b;
      e = __builtin_fabs(lo) * 0x1p-52;
    }
  } else {
    /* num or den rounded to a double: 3 roundings of 2^-53 each at most */
    e = __builtin_fabs(hi) * 0x1p-50;
  }
  *pHi = hi;
  *pLo = lo;
  *pErr = e;
}

/* value += num/den; den > 0 */
static inline void tb_acc_add(TbAcc *p, i64 num, i64 den) {
  double hi, lo, e;
  if (p->bExact) {
    tb_acc_add_exact(p, num, den);
    return;
  }
  tb_quotient_dd(num, den, &hi, &lo, &e);
  tb_acc_add_dd(p, hi, lo, e);
}

/* value /= n; a mean over nothing is NULL */
static inline void tb_acc_mean(TbAcc *p, i64 n) {
  double dn, qh, ql, rem, h;
  if (n == 0) {
    p->bNull = 1;
    return;
  }
  if (p->bExact) {
    tb_acc_mean_exact(p, n);
    return;
  }
  dn = (double)n; /* a count of opponents: exact */
  tb_acc_normalize(p);
  qh = p->r / dn;
  rem = __builtin_fma(-qh, dn, p->r);
  ql = (rem + p->lo) / dn;
  h = qh + ql; /* |ql| is about an ulp of qh at most: Dekker's FastTwoSum */
  p->lo = ql - (h - qh);
  p->r = h;
  p->err = p->err / dn * (1.0 + 0x1p-50) + __builtin_fabs(ql) * 0x1p-51;
}

/*
** value += a/b, a fraction of 128-bit parts (b > 0): as tb_acc_add when
** both fit 64 bits, else exactly, or in fast mode as the quotient of the
** parts rounded to doubles (three roundings of 2^-53 each at most).
*/
static inline void tb_acc_add_frac(TbAcc *p, const TbFrac *f) {
  double hi;
  if (f->num >= -((i128)1 << 63) && f->num < ((i128)1 << 63) &&
      f->den < ((i128)1 << 63)) {
    tb_acc_add(p, (i64)f->num, (i64)f->den);
  } else if (p->bExact) {
    tb_acc_add_frac_exact(p, f);
  } else {
    hi = (double)f->num / (double)f->den;
    tb_acc_add_dd(p, hi, 0.0, __builtin_fabs(hi) * 0x1p-50);
  }
}

/*
** value += max(num/den, floor).  The comparison with the floor is exact in
** both modes, so a value just under the floor is never left unfloored.
*/
static inline void tb_acc_add_floored(TbAcc *p, i64 num, i64 den,
                                      const TbFrac *pFloor) {
  /* a floor is a fraction of 64-bit terms (tb_frac_parse): 64 x 64 bits */
  i64 fnum = (i64)pFloor->num, fden = (i64)pFloor->den;
  /* num/den < floor  <=>  num * floor.den < floor.num * den (den > 0) */
  if ((i128)num * fden < (i128)fnum * den) {
    num = fnum;
    den = fden;
  }
  tb_acc_add(p, num, den);
}

/* ----------------------------------------------------------------- reader */

/* What a standings computation reads, as given by the SQL arguments. */
typedef struct TbSource {
  sqlite3_value *pEvent;      /* event id (INTEGER or TEXT) */
  i64 iAsOfRound;             /* only rounds <= this; 0 = all rounds */
  const char *zMatches;       /* matches table name */
  const char *zGames;         /* games table name, NULL = default, "" = none */
  const char *zPlayers;       /* players (registrations) table name, NULL =
                              ** players, optional then (see open_players) */
} TbSource;

/* Player id as stored by the user: INTEGER or TEXT. */
typedef struct TbKey {
  int eType;                  /* SQLITE_INTEGER or SQLITE_TEXT */
  int n;                      /* text length in bytes */
  i64 i;                      /* integer id */
  const char *z;              /* text id (in the event's arena, or the value's) */
} TbKey;

/* How a match ended, before policy points are applied (column result). */
enum {
  TB_RESULT_GAMES = 0,        /* NULL: decided by game counts */
  TB_RESULT_A,                /* 'a': player_a won */
  TB_RESULT_B,                /* 'b': player_b won */
  TB_RESULT_DRAW,             /* 'draw' */
  TB_RESULT_DOUBLE_LOSS,      /* 'double_loss' */
  TB_RESULT_FORFEIT_A,        /* 'forfeit_a': player_a won, game not played */
  TB_RESULT_FORFEIT_B,        /* 'forfeit_b' */
  TB_RESULT_DOUBLE_FORFEIT,   /* 'double_forfeit': both lose, not played */
  TB_RESULT_HALF_BYE,         /* 'half_bye': a requested half-point bye */
  TB_RESULT_ZERO_BYE,         /* 'zero_bye': a zero-point bye (absent) */
  TB_RESULT_LOSS              /* 'loss': player_a lost a round with no
                              ** opponent (late entry, no-show); not a bye */
};

/* The phase column of a match (NULL: as swiss_rounds says, else Swiss). */
enum { TB_PHASE_NULL = 0, TB_PHASE_PLAYOFF, TB_PHASE_SWISS };

/* One row of the matches table, with players as indexes into aPlayer. */
typedef struct TbMatch {
  int iRound;
  int iA, iB;                 /* iB < 0: bye for iA */
  int nAWins, nBWins, nDraws; /* game counts */
  unsigned char eResult;      /* TB_RESULT_* */
  unsigned char ePhase;       /* TB_PHASE_*: the phase column */
} TbMatch;

/* What the games table says of one match (rows found, games won by
** player_a and player_b, drawn). */
typedef struct TbGameCount {
  int nRows;
  int nA, nB, nD;
} TbGameCount;

/* -------------------------------------------------------------- the model */

/* How a player's round ended. */
enum { TB_LOSS = 0, TB_DRAW = 1, TB_WIN = 2 };

/*
** What kind of round it was.  Magic knows only played rounds and byes;
** chess (FIDE C.07 Art. 16) scores unplayed rounds by their kind.
*/
enum {
  TB_PLAYED = 0,              /* a game or match against an opponent */
  TB_PAB,                     /* pairing-allocated (full-point) bye */
  TB_HALF_BYE,                /* requested half-point bye */
  TB_ZERO_BYE,                /* zero-point bye, or absent */
  TB_FORFEIT_WIN,             /* opponent did not play */
  TB_FORFEIT_LOSS             /* did not play against a paired opponent */
};

/* One round of one player: a seat at a match, or a bye.  Kept small (8
** bytes): the opponents' averages walk every player's seats, and an event
** of 700,000 rows has 1.4 million.  The opponent's index and the flags
** share one word, so an event has at most TB_MAX_PLAYERS players.  Laid out
** when the rows are scored (tb_event_score), over them; its match index,
** which only the games table's lookups need, is in the event's aSeatMatch
** while that table is read. */
typedef struct TbSeat {
  int iRound;
  signed int iOpp : 25;       /* opponent's index, -1 for a bye */
  unsigned int eOutcome : 2;  /* TB_WIN / TB_DRAW / TB_LOSS */
  unsigned int eKind : 3;     /* TB_PLAYED, TB_PAB, ... */
  unsigned int bFirst : 1;    /* was player_a: White in chess */
  unsigned int bRepeat : 1;   /* the opponent was met in an earlier round
                              ** (marked under distinct_opponents only) */
} TbSeat;

/* A hint that the n seats at a are read soon: each line of them, and the
** last (a run may end on a line of its own). */
static inline void tb_prefetch_seats(const TbSeat *a, int n) {
  int j;
  for (j = 0; j < n; j += 64 / (int)sizeof(TbSeat)) TB_PREFETCH(&a[j]);
  if (n > 0) TB_PREFETCH(&a[n - 1]);
}

/* Players an event may have: a seat's opponent index has 25 bits. */
#define TB_MAX_PLAYERS ((1 << 24) - 1)

/* A player's record, the inputs of every tiebreaker.  The fields that
** opponents' averages read come first, on one cache line. */
typedef struct TbRecord {
  i64 nMatchPoints, nGamePoints;
  i64 nGame;                  /* games: up to 3 x 10^6 a match, so 64 bits */
  i64 nGW, nGL, nGD;
  int nRound;
  int nWin, nLoss, nDraw, nBye;
  int iLastRound;
} TbRecord;

/* A registration's status (column status of the players table). */
enum {
  TB_STATUS_NONE = 0,         /* NULL: not given */
  TB_STATUS_ACTIVE,           /* 'active' */
  TB_STATUS_DROPPED,          /* 'dropped', or dropped_after given */
  TB_STATUS_DISQUALIFIED      /* 'disqualified': takes no place */
};

/*
** What the players table says of a player, beside aPlayer (aReg, NULL
** when the event has no registration rows).  Zero: not registered.
*/
typedef struct TbReg {
  i64 iName, iDiv;            /* name, division: offsets in aRegText */
  int nName, nDiv;            /* their bytes */
  int iDivOrder;              /* 0: no division, else its place by name */
  int iDroppedAfter1;         /* dropped after round iDroppedAfter1 - 1;
                              ** 0: not given */
  int iRow;                   /* its row's number in the players table (the
                              ** order the rows were read), from 1 */
  i64 iRating;                /* rating, if bRated */
  unsigned char bRated;       /* a rating was read */
  unsigned char bRegistered;  /* a row of the players table names them */
  unsigned char bName, bDiv;  /* name, division given (not NULL) */
  unsigned char eStatus;      /* TB_STATUS_* */
} TbReg;

/* A player: what ranking reads (the record, the seats) and the id.  A
** rating, read by a few chess tiebreakers, is in the registration (104
** bytes a player, not 120: 1.6 MB at 100,000 players; tb_player_rating). */
typedef struct TbPlayer {
  TbRecord rec;
  TbKey key;
  int iSeat, nSeat;           /* this player's seats: aSeat[iSeat..iSeat+nSeat) */
} TbPlayer;

/*
** Points, floors and options of a policy: what tiebreakers read.  Points
** are counted in units of 1/nPointScale (chess: half points, scale 2).
** Every field settable from SQL has a line in aOption[] (policy.c).
*/
typedef struct TbParams {
  i64 nMatchWin, nMatchDraw, nMatchLoss;
  i64 nPointScale;            /* match points are nMatchPoints / this */
  i64 nGameWin, nGameDraw;
  int nByeGameWins;           /* a bye counts as this many games won */
  i64 nBestOf;                /* games a match is played to; 0: not checked */
  TbFrac floor;               /* minimum MWP / GWP / win % */
  int bOwnGwpFloor;           /* 1: ownGwpFloor replaces floor for gwp */
  TbFrac ownGwpFloor;         /* floor of the player's own gwp tiebreaker */
  TbFrac cap;                 /* maximum win % of a dropped player (Pokemon) */
  TbFrac tieCredit;           /* a tied match in a win % (Pokemon) */
  int bFreezeDrops;           /* opponents see a dropped player as they left */
  int bLateLoss;              /* Pokemon: a round lost with no opponent counts
                              ** in the win %, as an opponent at the floor in
                              ** owp and oowp (RK9) */
  int bOppByeIsWin;           /* HCT T1: an opponent's bye counts as a win */
  i64 nT1Floor;               /* HCT T1: least an opponent contributes */
  int bKtsTruncate;           /* Yu-Gi-Oh KTS digits: 1 truncate, 0 round */
  i64 iRules;                 /* FIDE C.07 rule year: 2024 or 2026 */
  int bUnrated;               /* 1: iUnrated is given */
  i64 iUnrated;               /* FIDE: the rating an unrated player counts with */
  i64 nKsLimit;               /* FIDE Koya: the limit moved by half points */
  int bKsPercent;             /* 1: nKsPercent is given */
  i64 nKsPercent;             /* FIDE Koya: the limit as a percentage of the
                              ** maximum score, for the event's own rules */
  int bRoundRobin;            /* FIDE 15.2: a round robin, forfeits are games;
                              ** -1: detected from the pairings (compute.c) */
  int bForfeitsPlayed;        /* FIDE /P: a forfeit is a game against its
                              ** scheduled opponent (a Swiss event too) */
  i64 nCutAfter;              /* players last seen in this round were cut
                              ** (a day-2 cut), not dropped; 0: no cut */
  i64 nSwissRounds;           /* rounds after this one are playoff; 0: the
                              ** phase column alone says (playoff.c) */
  int bDistinctOpp;           /* an opponent met twice is one opponent */
  int bFreezeCut;             /* players cut (or gone) by round nCutAfter keep
                              ** the OMW%/OGW% they had after it */
  int bPlayoffValues;         /* the playoff counts in the values of its
                              ** players, the others frozen at the last
                              ** Swiss round (Melee.gg; playoff.c) */
  int bNoOpp;                 /* 1: noOpp is given */
  TbFrac noOpp;               /* OMW%/OGW% of a player without opponents */
} TbParams;

/* A hash slot: the id's hash, and its player index + 1 (0 = empty). */
typedef struct TbSlot {
  sqlite3_uint64 h;
  int iPlayer1;
  int eType;
} TbSlot;

typedef struct TbTermCache TbTermCache;

/*
** Interrupts while computing.  SQLite looks at sqlite3_interrupt() and at
** the progress handler only while a statement runs, and scoring and ranking
** run none.  So the long loops report their work to a probe, which every
** TB_POLL_WORK units steps a prepared statement (compute.c): that step
** fails with SQLITE_INTERRUPT once the connection is interrupted or the
** progress handler asks to stop (its VM step counter grows across resets,
** so the handler is reached), on any SQLite version: 3.40 has no
** sqlite3_is_interrupted().  A unit is about one seat or one comparison.
** One probe per reader, prepared on its first step, kept until the reader
** is closed.  Once it has failed, every poll returns its error.
*/
#define TB_POLL_WORK 1024
struct TbProbe {
  sqlite3 *db;
  sqlite3_stmt *pStmt;        /* TB_PROBE_SQL, or NULL until the first step */
  i64 nWork;                  /* units since the last step */
  int rc;                     /* SQLITE_INTERRUPT ... once stopped */
  int bOff;                   /* could not prepare (an authorizer): no polls */
};

int tb_probe_step(TbProbe *p);
void tb_probe_close(TbProbe *p);

/* Whether the probe has stopped the computation: what is left of a value
** is not worth computing, the ranking ends at its next poll. */
#define tb_stopped(p) ((p) != 0 && (p)->rc != SQLITE_OK)

/* Report nWork units done; nonzero (an error code) means stop. */
static inline int tb_poll(TbProbe *p, i64 nWork) {
  if (p == 0) return SQLITE_OK;
  p->nWork += nWork;
  if (p->nWork < TB_POLL_WORK) return p->rc;
  return tb_probe_step(p);
}

/* What stopped an exact accumulator (bNoMem): its probe's interrupt, or
** else no memory. */
static inline int tb_acc_error(const TbAcc *p) {
  return p->pProbe && p->pProbe->rc != SQLITE_OK ? p->pProbe->rc : SQLITE_NOMEM;
}

typedef struct TbEvent TbEvent;
struct TbEvent {
  int nPlayer;
  TbPlayer *aPlayer;
  int nSeat;
  TbSeat *aSeat;
  int iLastRound;             /* last round of the event (as of the round asked) */
  int nPlaying;               /* players with a row: no registered no-shows */
  int nMatch;
  TbMatch *aMatch;            /* the rows; while they are read, the last
                              ** block of them (tb_event_new_match) */
  int nMatchBase;             /* while read: rows in the full blocks, the
                              ** index of aMatch[0] */
  TbMatch **apRowBlock;       /* while read: the full blocks, in order;
                              ** joined into aMatch by tb_event_index() */
  int nRowBlock, nRowBlockAlloc;
  int *aSeatMatch;            /* while the games table is read: per seat of
                              ** aSeat, its index in aMatch; else NULL */
  TbGameCount *aGameCount;    /* per match; NULL until a games row is read */
  char *aText;                /* arena holding text player ids */
  i64 nText, nTextAlloc;
  int nPlayerAlloc, nMatchAlloc;
  struct TbSlot *aHash;       /* open addressing over player ids */
  int nHash;
  int bDropHash;              /* set by a caller that looks no player up by
                              ** id once the tables are read (standings()):
                              ** the hash is freed then, before scoring */
  TbTermCache *pTerms;        /* while ranked: opponents' terms (tiebreakers.c) */
  TbProbe *pProbe;            /* while computed: the reader's, or NULL */
  int bRowsRead;              /* matches read already, by tb_reader_all() */
  int bDeferred;              /* ids wait in aMatch (tb_event_player_later) */
  int iCutAfter;              /* the policy's cut_after, as scored */
  int bFreezeCut;             /* and its freeze_cut */
  TbReg *aReg;                /* per player, or NULL: no registrations */
  int nRegistered;            /* rows of the players table read */
  int *aDivLast;              /* with divisions: per iDivOrder, the last
                              ** round its players reached (tb_event_score);
                              ** NULL: the event's last round for all */
  int nRegAlloc;
  char *aRegText;             /* arena of names and divisions */
  i64 nRegText, nRegTextAlloc;
  int nDivision;              /* distinct divisions among aReg */
  int bClasses;               /* divisions or disqualified players: ranked
                              ** by class (tb_player_class) */
  struct TbEvent *pCut;       /* with a cut: the event as of the cut round,
                              ** whose values cut players keep (owned) */
  const struct TbEvent *pWhole; /* of a pCut: the event it was cut from,
                              ** which has the registrations */
  TbMatch *aPlayoff;          /* the playoff's matches, out of aMatch
                              ** (with playoff_values, copies: they stay) */
  int nPlayoff;
  int iPlayoffCut;            /* with playoff_values, the last Swiss round:
                              ** the cut that cut_after would name */
  int bRepeats;               /* some seat's bRepeat is set */
  int iOpenRound;             /* the first round with a game of no result:
                              ** counts 0-0-0, result NULL (a row inserted
                              ** from the pairings, not yet given one: a
                              ** draw to the policies, equal counts); 0: none */
  int nOpen;                  /* such games in that round */
  int iOpenA, iOpenB;         /* the first of them (row order): its players */
};

/* read/text_arg.c: a file reader's table (xConnect, xDisconnect) and its
** xBestIndex, its text on column iCol */
int tb_text_arg_connect(sqlite3 *db, const char *zSchema, size_t nBytes,
                        sqlite3_vtab **ppVtab);
int tb_text_arg_disconnect(sqlite3_vtab *pVtab);
int tb_op_is_eq(int op);
int tb_text_arg_best_index(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo,
                           int iCol, const char *zFunc, const char *zWhat,
                           const char *zFile);

sqlite3_uint64 tb_hash_int(i64 v);
sqlite3_uint64 tb_hash_text(const char *z, int n);
void tb_event_init(TbEvent *p);
void tb_event_free(TbEvent *p);
void tb_event_trim(TbEvent *p);
void tb_event_drop_matches(TbEvent *p);
int tb_event_player(TbEvent *p, sqlite3_value *pVal, int *piPlayer);
int tb_event_player_int(TbEvent *p, i64 iVal, int *piPlayer);
int tb_event_player_text(TbEvent *p, const char *z, int n, int *piPlayer);
int tb_event_find(const TbEvent *p, sqlite3_value *pVal);
void tb_event_fit_players(TbEvent *p);
int tb_event_grow_matches(TbEvent *p);
/* *pa of nOld bytes grown to nNew: large blocks copied by polled slices
** (a block of many megabytes faults in page by page); left as it was on
** failure. */
int tb_grow_polled(TbProbe *pProbe, void **pa, size_t nOld, size_t nNew);
TbGameCount *tb_event_game_count(TbEvent *p, int iMatch);
int tb_event_index(TbEvent *p, char **pzErr);
int tb_event_score(TbEvent *p, const TbParams *pParams, char **pzErr);
int tb_event_seats(TbEvent *p, char **pzErr);
void tb_event_drop_seats(TbEvent *p);
int tb_event_as_of(const TbEvent *pFrom, int iRound, const TbParams *pParams,
                   TbEvent *pTo, char **pzErr);
int tb_event_round_robin(const TbEvent *p, int *pbRoundRobin);
const TbSeat *tb_event_seat(const TbEvent *p, int iPlayer, int iRound);
void tb_event_prefetch_seats(const TbEvent *p, int iPlayer);
char *tb_key_text(const TbKey *pKey);
int tb_key_compare(const TbKey *a, const TbKey *b);
TbReg *tb_event_reg(TbEvent *p, int iPlayer);
int tb_event_reg_text(TbEvent *p, const char *z, int n, i64 *piOff);
int tb_event_registered(TbEvent *p, char **pzErr);

/* Player i's rating (*pR) if the players table gave one.  The event as of
** a cut reads the registrations of the event it was cut from. */
static inline int tb_player_rating(const TbEvent *p, int i, i64 *pR) {
  const TbEvent *w = p->pWhole ? p->pWhole : p;
  if (w->aReg == 0 || !w->aReg[i].bRated) return 0;
  *pR = w->aReg[i].iRating;
  return 1;
}

/*
** The class a player is ranked in: players are placed division by
** division (by name, no division first), and within a division the
** disqualified take no place and come last.  0 for every player when
** the event has neither.
*/
static inline int tb_player_class(const TbEvent *p, int i) {
  const TbReg *r;
  if (!p->bClasses) return 0;
  r = &p->aReg[i];
  return 2 * r->iDivOrder + (r->eStatus == TB_STATUS_DISQUALIFIED);
}

int tb_value_is_integral(sqlite3_value *v);


/* The round of the event's cut: the policy's cut_after, else with
** playoff_values the last Swiss round before a playoff; 0: none. */
static inline i64 tb_cut_round(const TbEvent *p, const TbParams *pParams) {
  return pParams->nCutAfter > 0 ? pParams->nCutAfter : p->iPlayoffCut;
}

/*
** The last round of player i's division: divisions paired in pods of their
** own end at their own rounds (a TOM file of one pod per division), and a
** player who played their division's last round did not drop.
*/
static inline int tb_division_last_round(const TbEvent *p, int i) {
  return p->aDivLast ? p->aDivLast[p->aReg[i].iDivOrder] : p->iLastRound;
}

/* Player i's last round is the round after which the event was cut
** (option cut_after): they did not drop, they did not advance. */
static inline int tb_cut_at(const TbEvent *p, int iLast) {
  return p->iCutAfter > 0 && iLast == p->iCutAfter && p->iLastRound > p->iCutAfter;
}
static inline int tb_was_cut(const TbEvent *p, int i) {
  return tb_cut_at(p, p->aPlayer[i].rec.iLastRound);
}

/* Did player i, whose last round is iLast, drop: leave before the last
** round of their division, and neither cut (tb_was_cut) nor eliminated in
** a playoff that counts in the values (playoff_values: their last round is
** after the last Swiss round)?  (the standings' dropped column; a caller
** that holds iLast does not read the player's record for it) */
static inline int tb_dropped_after(const TbEvent *p, int i, int iLast) {
  return iLast < tb_division_last_round(p, i) && !tb_cut_at(p, iLast) &&
         !(p->iPlayoffCut > 0 && iLast > p->iPlayoffCut);
}
static inline int tb_dropped(const TbEvent *p, int i) {
  return tb_dropped_after(p, i, p->aPlayer[i].rec.iLastRound);
}

/* Player i's values are those of the event as of the cut (p->pCut): cut
** there, or with freeze_cut gone by then (Melee.gg keeps the values a
** player had when the event went on without them). */
static inline int tb_valued_at_cut(const TbEvent *p, int i) {
  return tb_was_cut(p, i) ||
         (p->bFreezeCut && p->iCutAfter > 0 && p->iLastRound > p->iCutAfter &&
          p->aPlayer[i].rec.iLastRound <= p->iCutAfter);
}

/*
** The per-row calls of the reader, inline (event.c has the rest).
**
** A new match at the end of aMatch, zeroed, or NULL (no memory, or an
** interrupt met while the array grew: tb_event_match_error tells which).
*/
static inline TbMatch *tb_event_new_match(TbEvent *p) {
  TbMatch *m;
  if (p->nMatch >= p->nMatchAlloc && tb_event_grow_matches(p)) return 0;
  m = &p->aMatch[p->nMatch++ - p->nMatchBase];
  memset(m, 0, sizeof(*m));
  return m;
}

/* Why tb_event_new_match returned NULL. */
static inline int tb_event_match_error(const TbEvent *p) {
  return tb_stopped(p->pProbe) ? p->pProbe->rc : SQLITE_NOMEM;
}

/*
** An integer player id as rows are read: each lookup of a large event
** misses the CPU caches, and between two rows SQLite's own work is too long
** for the CPU to start the next lookup early.  So an id from 0 to
** TB_DEFER_MAX waits in the match, as -(id + 3) (-1 is a bye), until
** tb_event_index() looks all of them up in one loop that prefetches ahead.
*/
#define TB_DEFER_MAX ((i64)0x7ffffff0)
static inline int tb_event_player_later(TbEvent *p, i64 iVal, int *piPlayer) {
  if (iVal < 0 || iVal > TB_DEFER_MAX) return tb_event_player_int(p, iVal, piPlayer);
  *piPlayer = -(int)iVal - 3;
  p->bDeferred = 1;
  return SQLITE_OK;
}

/*
** Reads events from the user's tables with statements prepared once for
** many events.  A standings() cursor keeps its reader across the calls of
** a join that asks for one event per row (preparing costs more than
** reading a small event): tb_reader_open() checks the tables every time,
** tb_reader_reset() leaves nothing running between calls, and
** tb_reader_close() finalizes.
*/
typedef struct TbReader {
  sqlite3 *db;
  int bResult;                /* the matches table has a result column */
  int bPhase;                 /* ... and a phase column */
  int bAsOf;                  /* the queries filter on round <= ?2 */
  i64 iAsOfRound;             /* that round */
  char *zMatches, *zGames;    /* tables that pMatches, pGames read */
  int bChecked;               /* the last open checked zMatches and ... */
  char *zCheckedGames;        /* ... this games argument (NULL: default) */
  int bCheckedRatings;        /* ... needing ratings if 1 ... */
  char *zCheckedPlayers;      /* ... and this players argument (NULL: default) */
  char *zPlayers;             /* the table pPlayers reads */
  unsigned mPlayerCols;       /* the columns of it that pPlayers reads */
  sqlite3_stmt *pXinfo;       /* the columns of a table */
  sqlite3_stmt *pMatches, *pGames, *pPlayers;
  sqlite3_stmt *pAll;         /* every event's matches, in table order */
  TbProbe probe;              /* interrupts while its events are computed */
} TbReader;

/* An id kept by a set of events: INTEGER, or TEXT of n bytes at offset i
** of the set's aText. */
typedef struct TbSetId {
  i64 i;
  int n;
  int eType;
} TbSetId;

/* A row of the matches table kept by a set of events. */
typedef struct TbSetRow {
  TbMatch m;                  /* players: as tb_event_player_later() leaves
                              ** them, or with aRef[k] an index in aId */
  int iNext;                  /* next row of the same event, or -1 */
  unsigned char aRef[2];      /* player_a, player_b: an index in aId */
} TbSetRow;

typedef struct TbSetEvent {
  TbSetId id;
  int bReal;                  /* the id was read as a whole REAL */
  int iFirst, iLast;          /* its rows in aRow, in table order */
} TbSetEvent;

/*
** Every event of a matches table, read in one pass by tb_reader_all(): the
** rows kept compactly, each event built from them when its turn comes
** (tb_event_set_build), so that only one event is built at a time.
*/
typedef struct TbEventSet {
  int nEvent, nEventAlloc;
  TbSetEvent *aEvent;
  int *aOrder;                /* after tb_reader_all: events by id */
  int *aHash;                 /* while reading: open addressing, index + 1 */
  int nHash;
  int nRow, nRowAlloc;
  TbSetRow *aRow;
  int nId, nIdAlloc;
  TbSetId *aId;               /* player ids that are not small integers */
  char *aText;                /* text of the ids */
  i64 nText, nTextAlloc;
} TbEventSet;

void tb_event_set_free(TbEventSet *pSet);
int tb_reader_all(TbReader *r, TbEventSet *pSet, char **pzErr);
int tb_event_set_build(const TbEventSet *pSet, int iEvent, TbEvent *pEvent);
void tb_event_set_key(const TbEventSet *pSet, int iEvent, TbKey *pKey);

int tb_register_reader(sqlite3 *db);
void tb_reader_init(TbReader *r, sqlite3 *db);
int tb_reader_open(TbReader *r, const TbSource *pSrc, int bRatings,
                   char **pzErr);
int tb_name_event(const TbKey *pKey, char **pzErr);
int tb_name_event_value(sqlite3_value *pEvent, int rc, char **pzErr);
int tb_reader_event(TbReader *r, sqlite3_value *pEventId, const TbKey *pKey,
                    TbEvent *pEvent, char **pzErr);
void tb_reader_reset(TbReader *r);
void tb_reader_close(TbReader *r);

/* ------------------------------------------------------------ tiebreakers */

/* One player's value, into an accumulator (fast or exact, see exact.c). */
typedef void (*TbValueFn)(const TbEvent*, const TbParams*, int iPlayer, TbAcc*);

/*
** Values that exist only within a group of tied players (head-to-head,
** direct encounter): aOut[i] for aPlayer[i], exact.  Returns SQLITE_OK,
** SQLITE_NOMEM, or the error of an interrupt (TbProbe).
*/
typedef int (*TbGroupFn)(const TbEvent*, const TbParams*, const int *aPlayer,
                          int n, TbFrac *aOut);

/* How a tiebreaker's column is typed. */
enum {
  TB_REAL = 0,                /* a percentage or other fraction */
  TB_INTEGER,                 /* always a whole number */
  TB_POINTS                   /* INTEGER under a point scale of 1, else REAL */
};

/* What a tiebreaker needs read besides the matches. */
#define TB_NEEDS_RATINGS 0x01

typedef struct TbTiebreaker {
  const char *zName;          /* name in policies, decided_by and column */
  const char *zAlias;         /* short name accepted in policies, or "" */
  const char *zFamily;        /* policy whose points a custom order uses */
  TbValueFn xValue;           /* one player's value; NULL for group ones */
  TbGroupFn xGroup;           /* values within a tied group, or NULL */
  int bLowerIsBetter;
  int eType;                  /* TB_REAL, TB_INTEGER, TB_POINTS */
  int mNeeds;                 /* TB_NEEDS_* */
  const char *zOptions;       /* options it reads, e.g. "floor", or "" */
  const char *zDoc;           /* one-line definition */
} TbTiebreaker;

/* Every tiebreaker, in the order of the standings() value columns. */
extern const TbTiebreaker tb_aTiebreaker[];
extern const int tb_nTiebreaker;
const TbTiebreaker *tb_tiebreaker_find(const char *zName, int nName);
void tb_tiebreaker_code(const TbTiebreaker *t, char *z);

/* Opponents' terms cached while an event is ranked (tiebreakers.c). */
TbTermCache *tb_terms_new(void);
void tb_terms_free(TbTermCache *p);

/* ----------------------------------------------------------------- policy */

#define TB_MAX_TIEBREAKERS 16

/*
** A parsed policy: its ranking order, each with its own parameters (a
** custom order may give one tiebreaker its own floor), and the extra
** columns it shows without ranking by them.
*/
typedef struct TbPolicy {
  const char *zName;          /* named policy, or "custom" */
  TbParams params;            /* the policy's parameters */
  int nTiebreaker;
  const TbTiebreaker *aTiebreaker[TB_MAX_TIEBREAKERS];
  TbParams aParams[TB_MAX_TIEBREAKERS];
  int nDisplay;
  const TbTiebreaker *aDisplay[TB_MAX_TIEBREAKERS];
  /* what it computes ends here (tb_policy_key) */
  unsigned mWide;             /* policy-wide options written (bit: option) */
  unsigned mSet;              /* every option written */
  unsigned mLast;             /* options of the tiebreaker being parsed */
} TbPolicy;

int tb_policy_parse(const char *zSpec, TbPolicy *pPolicy, char **pzErr);
/* The option lists of policies, also read by other option strings. */
typedef int (*TbOptionFn)(void *pCtx, const char *zKey, int nKey,
                          const char *zValue, char **pzErr);
int tb_option_list(const char **pz, TbOptionFn xOption, void *pCtx,
                   char **pzErr);
int tb_option_int(const char *zName, const char *zValue, i64 iMin, i64 iMax,
                  i64 *pv, char **pzErr);
int tb_option_word(const char *z);
const void *tb_policy_key(const TbPolicy *pPolicy, int *pnKey);
int tb_policy_needs(const TbPolicy *pPolicy);
void tb_policy_set_floor(TbPolicy *pPolicy, const TbFrac *pFloor);
int tb_floor_from_value(sqlite3_value *pVal, TbFrac *pFloor, char **pzErr);

/* Listing of the named policies and the options (for tiebreak_policies). */
int tb_policy_count(void);
void tb_policy_info(int i, const char **pzName, const char **pzTiebreakers,
                    const char **pzDisplay, const char **pzDoc);

/* ------------------------------------------------------------------- rank */

/* The computed standings of one event. */
typedef struct TbStandings {
  int nPlayer;
  i64 nPointScale;            /* of the policy: types the points columns */
  int *aOrder;                /* player indexes, best first */
  int *aRank;                 /* rank of aOrder[i]; 0: none (disqualified) */
  const TbTiebreaker **aDecidedBy; /* per aOrder[i], NULL when tied/first */
  int nCol;                   /* values kept per player: the policy's */
  int aColTb[2 * TB_MAX_TIEBREAKERS]; /* tiebreaker index of each column,
                              ** the policy's order first, then display */
  double *aValue;             /* [column * nPlayer + player] */
  unsigned char *aFlag;       /* same layout: TB_VALUE_* */
  int *aSwissRank;            /* with a playoff: Swiss rank of aOrder[i]
                              ** (aRank is then the final place); else NULL */
  TbParams *aParams;          /* values pending (ranked lazily): each
                              ** column's parameters, for
                              ** tb_standings_fill(); else NULL */
} TbStandings;

#define TB_VALUE_NULL    0x01 /* NULL (ranks as 0) */
#define TB_VALUE_EXACT   0x02 /* the double is the exact value */
#define TB_VALUE_PENDING 0x04 /* not computed yet (bLazy): NULL until
                              ** tb_standings_fill() */

/*
** bLazy: compute a value when a comparison needs it, and leave the others
** pending for tb_standings_fill() (standings(), which computes a column
** when a statement reads it); else every value now (the scalars).
*/
int tb_rank(const TbEvent *pEvent, const TbPolicy *pPolicy, int bLazy,
            TbStandings *pOut, char **pzErr);
int tb_standings_column(const TbStandings *p, int iTiebreaker);
int tb_standings_pending(const TbStandings *p, int iPlayer, int h);
int tb_standings_fill(TbStandings *p, const TbEvent *pEvent);
/* rank.c's merge sort, for other sorts of players (direct encounter). */
typedef int (*TbBefore)(void *pCtx, const void *a, const void *b);
void *tb_merge_sort(void *x, void *y, int n, int nSize, int w,
                    TbBefore xBefore, void *pCtx, TbProbe *pProbe, int *pRc);
/* read/text_arg.c: the same for the file readers: sort the n items of
** nSize bytes at *pa, answering interrupts; the sorted items end in *pa. */
int tb_text_arg_sort(void **pa, int n, int nSize, TbBefore xBefore,
                     TbProbe *pProbe);
int tb_text_arg_copy(const void *p, int n, TbProbe *pProbe, char **pz,
                     int *pbNul);
void tb_text_arg_result_error(sqlite3_context *ctx, const char *zFunc, int rc,
                              const char *zErr);
/* Why NULL text is no file's: every reader's message and standings()'s. */
#define TB_READFILE_NULL "readfile() gives NULL for a file it cannot read"
char *tb_text_arg_refusal(const char *zExpected, int eType);
int tb_standings_value(const TbStandings *p, int iPlayer, int iTiebreaker,
                       double *pr);
void tb_standings_free(TbStandings *p);

/* The playoff (playoff.c): its rows out of the Swiss, then the final order. */
extern const TbTiebreaker tb_playoffDecider;
int tb_playoff_split(TbEvent *pEvent, const TbParams *pParams, char **pzErr);
int tb_playoff_order(const TbEvent *pEvent, const TbPolicy *pPolicy,
                     TbStandings *pStandings);

/* ---------------------------------------------------------------- surface */

/* Per-connection state shared by the SQL functions (no global state). */
typedef struct TbConn {
  int nDepth;                 /* computations under way: guards recursion */
} TbConn;

int tb_enter(TbConn *pConn, char **pzErr);
void tb_leave(TbConn *pConn);
int tb_compute(TbConn *pConn, sqlite3 *db, const TbSource *pSrc,
               const TbPolicy *pPolicy, TbEvent *pEvent,
               TbStandings *pStandings, char **pzErr);
int tb_compute_event(TbConn *pConn, TbReader *pReader, sqlite3_value *pEventId,
                     const TbKey *pKey, const TbPolicy *pPolicy, int bLazy,
                     TbEvent *pEvent, TbStandings *pStandings, char **pzErr);
void tb_compute_release(TbEvent *pEvent);
int tb_id_other_form(sqlite3 *db, sqlite3_value *v, sqlite3_value **ppOut);
int tb_event_id_check(sqlite3_value *v, char **pzErr);
int tb_value_text(sqlite3_value *v, const char *zWhat, const char **pz,
                  char **pzErr);
int tb_value_whole(sqlite3_value *v, i64 *pi, int *pRc);
typedef int (*TbArgOf)(const void *pCtx, int iColumn);
void tb_args_scan(const sqlite3_index_info *pInfo, TbArgOf xArgOf,
                  const void *pCtx, int nArg, int *aIdx, int *pSeen,
                  int *pUsable);
void tb_args_use(sqlite3_index_info *pInfo, const int *aIdx, int nArg);
int tb_register_standings(sqlite3 *db, TbConn *pConn);
/*
** xBestIndex of a function whose arguments are the nArg (at most 32)
** hidden columns from iFirstArg on, given by = or IS: their constraints
** passed to xFilter in column order, idxNum the bitmask of those present.
** SQLITE_ERROR: a bit of mRequired is missing (the caller says which);
** SQLITE_CONSTRAINT: a plan to refuse (sql/standings.c).
*/
int tb_args_best_index(sqlite3_index_info *pInfo, int iFirstArg, int nArg,
                       int mRequired);
int tb_register_scalars(sqlite3 *db, TbConn *pConn);
int tb_register_listings(sqlite3 *db);
int tb_register_trf(sqlite3 *db);
int tb_register_melee(sqlite3 *db);
int tb_register_tom(sqlite3 *db);
int tb_register_pairings(sqlite3 *db, TbConn *pConn);
int tb_register_check(sqlite3 *db);   /* sql/check.c */

#endif /* TIEBREAK_INT_H */
