/*
** tiebreakers/tiebreakers.c: one function per tiebreaker, and the table listing them.
**
** A tiebreaker computes one player's value into an accumulator (exact.c).
** It reads only the event model and the policy's parameters, so the same
** function serves the fast pass, the exact pass, the standings() columns and
** the scalar functions.  Adding a tiebreaker is one function here and one
** line in tb_aTiebreaker[].
**
** Rules are MTR Appendix C unless a comment says otherwise.
*/
#include "../tiebreak_int.h"
#include "tiebreakers.h"

#include <string.h>

/* max(MP / (points of a win x rounds), floor): byes count as won rounds. */
void tb_add_mwp(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  const TbRecord *r = &e->aPlayer[i].rec;
  tb_acc_add_floored(pAcc, r->nMatchPoints, p->nMatchWin * r->nRound, &p->floor);
}

/*
** max(GP / (points of a game win x games), floor).  A player who played no
** game (only 0-0-0 draws) has no percentage; the floor stands in, so that
** their opponents' averages keep one term per opponent.
*/
static void add_gwp_floored(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                            int i, const TbFrac *pFloor) {
  const TbRecord *r = &e->aPlayer[i].rec;
  if (r->nGame == 0) {
    tb_acc_add_floored(pAcc, 0, 1, pFloor);
  } else {
    tb_acc_add_floored(pAcc, r->nGamePoints, p->nGameWin * r->nGame, pFloor);
  }
}

static void add_gwp(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  add_gwp_floored(pAcc, e, p, i, &p->floor);
}

/*
** Opponents' averages add one term per opponent, the opponent's own
** percentage: computing it at every seat repeats each player's term once per
** opponent, reading records scattered over the event.  While an event is
** ranked, the fast pass instead computes each kind of term once per player,
** in player order, into a column.  The column holds what the term function
** would have added: the same double-double and error bound, so the sums are
** unchanged.  The exact pass keeps each exact term it computes beside it:
** without them an opponent's opponents' average would walk the whole event
** again for every player tied with another (a player met by thousands is a
** term of each of their averages).
*/
#define TB_TERM_COLUMNS 8
#define TB_TERM_ALIASES 4

/*
** An exact term, 16 bytes: num/den when both fit 64 bits (the usual: points
** over rounds), else num is its index in aBig.  Many players' exact terms
** are asked (an exact OMW% reads each opponent's), so they are kept small.
*/
typedef struct TbTermExact {
  i64 num, den;
} TbTermExact;
enum { TB_EXACT_NOT_YET = 0, TB_EXACT_SMALL, TB_EXACT_NULL, TB_EXACT_BIG };

typedef struct TbTermColumn {
  TbTermFn f;                 /* term function ... */
  const TbParams *p;          /* ... and its parameters: &params ... */
  TbParams params;            /* ... a copy, as the caller's may be gone
                              ** when a later column is filled */
  TbTermValue *aTerm;         /* term of each player */
  const TbParams *apAlias[TB_TERM_ALIASES]; /* other parameters found equal */
  TbTermExact *aExact;        /* exact terms (NULL until one is asked) ... */
  unsigned char *aExactDone;  /* ... TB_EXACT_*: how aExact[i] holds it */
  int nExact;                 /* players aExactDone covers */
  TbQ *aBig;                  /* exact terms past 64 bits (owned) */
  int nBig, nBigAlloc;
} TbTermColumn;

/* What a family keeps for one ranking (tb_terms_extra). */
#define TB_TERM_EXTRAS 4
typedef struct TbTermExtra {
  const void *pKey;
  void *p;
  void (*xFree)(void*);
} TbTermExtra;

struct TbTermCache {
  int nCol;
  int bFull;                  /* no room or memory for more: compute */
  TbTermColumn *pLast;        /* the column found last, and the parameters */
  const TbParams *pLastP;     /* it was asked with (another tiebreaker's) */
  TbTermColumn aCol[TB_TERM_COLUMNS];
  TbTermExtra aExtra[TB_TERM_EXTRAS];
};

TbTermCache *tb_terms_new(void) {
  TbTermCache *p = sqlite3_malloc64(sizeof(*p));
  if (p) memset(p, 0, sizeof(*p));
  return p;
}

void tb_terms_free(TbTermCache *p) {
  int i;
  if (p == 0) return;
  for (i = 0; i < p->nCol; i++) {
    sqlite3_free(p->aCol[i].aTerm);
    int j;
    for (j = 0; j < p->aCol[i].nBig; j++) tb_q_free(&p->aCol[i].aBig[j]);
    sqlite3_free(p->aCol[i].aBig);
    sqlite3_free(p->aCol[i].aExact);
    sqlite3_free(p->aCol[i].aExactDone);
  }
  for (i = 0; i < TB_TERM_EXTRAS; i++) {
    if (p->aExtra[i].xFree) p->aExtra[i].xFree(p->aExtra[i].p);
  }
  sqlite3_free(p);
}

/* What was kept under pKey for this ranking, or NULL. */
void *tb_terms_extra(const TbEvent *e, const void *pKey) {
  int i;
  if (e->pTerms == 0) return 0;
  for (i = 0; i < TB_TERM_EXTRAS; i++) {
    if (e->pTerms->aExtra[i].pKey == pKey) return e->pTerms->aExtra[i].p;
  }
  return 0;
}

/* Keep p under pKey until the ranking ends; SQLITE_FULL (p freed): no room. */
int tb_terms_set_extra(const TbEvent *e, const void *pKey, void *p,
                       void (*xFree)(void*)) {
  int i;
  for (i = 0; e->pTerms && i < TB_TERM_EXTRAS; i++) {
    TbTermExtra *x = &e->pTerms->aExtra[i];
    if (x->pKey) continue;
    x->pKey = pKey;
    x->p = p;
    x->xFree = xFree;
    return SQLITE_OK;
  }
  xFree(p);
  return SQLITE_FULL;
}

/* The column of f's terms, computed now if new; NULL: call f instead. */
static TbTermColumn *term_column(const TbEvent *e, TbTermFn f,
                                 const TbParams *p) {
  TbTermCache *c = e->pTerms;
  TbTermColumn *col;
  sqlite3_uint64 n = (sqlite3_uint64)e->nPlayer + 1;
  int i;
  if (c == 0) return 0;
  /* asked once per opponent: the last answer first */
  if (c->pLast && c->pLast->f == f && c->pLastP == p) return c->pLast;
  for (i = 0; i < c->nCol; i++) {
    /* the same parameters, even of another tiebreaker of the policy: each
    ** tiebreaker's are compared once, then known by their address */
    TbTermColumn *x = &c->aCol[i];
    int h;
    if (x->f != f) continue;
    for (h = 0; h < TB_TERM_ALIASES && x->apAlias[h] && x->apAlias[h] != p; h++) {
    }
    if (x->p == p || (h < TB_TERM_ALIASES && x->apAlias[h] == p) ||
        memcmp(x->p, p, sizeof(*p)) == 0) {
      if (h < TB_TERM_ALIASES && x->p != p) x->apAlias[h] = p;
      c->pLast = x;
      c->pLastP = p;
      return x;
    }
  }
  if (c->bFull || c->nCol == TB_TERM_COLUMNS) return 0;
  col = &c->aCol[c->nCol];
  col->f = 0; /* matches no function until filled */
  col->aTerm = sqlite3_malloc64(sizeof(TbTermValue) * n);
  if (col->aTerm == 0) {
    /* a cache only: without memory for it, the terms are computed */
    c->bFull = 1;
    return 0;
  }
  /* taken before it is filled: a term may itself be a mean over opponents
  ** (OOMW%'s terms are OMW%s) and take a column of its own meanwhile */
  c->nCol++;
  for (i = 0; i < e->nPlayer; i++) {
    TbAcc acc;
    /* an interrupt stops the ranking, which checks it: not cached */
    if (tb_poll(e->pProbe, 1 + e->aPlayer[i].nSeat) != SQLITE_OK) return 0;
    tb_acc_init(&acc, 0);
    f(&acc, e, p, i);
    /* aerr < 0: a NULL term (chess TPR without a rated game) */
    col->aTerm[i].r = acc.bNull ? 0.0 : acc.r;
    col->aTerm[i].lo = acc.bNull ? 0.0 : acc.lo;
    col->aTerm[i].err = acc.bNull ? -1.0 : acc.err;
  }
  col->f = f;
  col->params = *p;
  col->p = &col->params;
  return col;
}

/* The integer term f of player i (never NULL), from the cache if it can
** hold it: integers below 2^53, as points and counts are, are exact. */
i64 tb_term_int(const TbEvent *e, TbTermFn f, const TbParams *p, int i) {
  const TbTermColumn *col = term_column(e, f, p);
  TbAcc acc;
  if (col) return (i64)col->aTerm[i].r;
  tb_acc_init(&acc, 0);
  f(&acc, e, p, i);
  return (i64)acc.r;
}

/* The integer terms f of every player while ranking (the term cache's
** column, filled now if new), or NULL: ask tb_term_int.  For loops over
** opponents, which would otherwise look the column up at every seat.
** A term's err is below 0 where it is NULL. */
const TbTermValue *tb_term_ints(const TbEvent *e, TbTermFn f,
                                const TbParams *p) {
  const TbTermColumn *col = term_column(e, f, p);
  return col ? col->aTerm : 0;
}

/* Keep player i's exact term, computed into acc (taken from it). */
static int exact_keep(TbTermColumn *col, int i, TbAcc *acc) {
  TbTermExact *x = &col->aExact[i];
  if (acc->bNull) {
    tb_acc_clear(acc);
    col->aExactDone[i] = TB_EXACT_NULL;
  } else if (acc->pBig == 0 && acc->q.num >= -((i128)1 << 63) &&
             acc->q.num < ((i128)1 << 63) && acc->q.den < ((i128)1 << 63)) {
    x->num = (i64)acc->q.num;
    x->den = (i64)acc->q.den;
    col->aExactDone[i] = TB_EXACT_SMALL;
  } else {
    if (col->nBig == col->nBigAlloc) {
      int nNew = col->nBigAlloc ? 2 * col->nBigAlloc : 16;
      TbQ *aNew = sqlite3_realloc64(col->aBig, sizeof(TbQ) * (sqlite3_uint64)nNew);
      if (aNew == 0) {
        tb_acc_clear(acc);
        return SQLITE_NOMEM;
      }
      col->aBig = aNew;
      col->nBigAlloc = nNew;
    }
    tb_acc_take(acc, &col->aBig[col->nBig]);
    x->num = col->nBig++;
    col->aExactDone[i] = TB_EXACT_BIG;
  }
  return SQLITE_OK;
}

/*
** value += the exact term f of player i, computed once and kept; returns 0
** when it cannot be kept (no memory for the column: the caller computes it).
*/
static int add_exact_term(TbAcc *pAcc, TbTermColumn *col, const TbEvent *e,
                          TbTermFn f, const TbParams *p, int i) {
  sqlite3_uint64 n = (sqlite3_uint64)e->nPlayer + 1;
  const TbTermExact *x;
  if (col->aExact == 0) {
    col->aExact = sqlite3_malloc64(sizeof(TbTermExact) * n);
    col->aExactDone = sqlite3_malloc64(n);
    if (col->aExact == 0 || col->aExactDone == 0) {
      sqlite3_free(col->aExact);
      sqlite3_free(col->aExactDone);
      col->aExact = 0;
      col->aExactDone = 0;
      return 0;
    }
    memset(col->aExactDone, 0, (size_t)n);
    col->nExact = e->nPlayer;
  }
  if (col->aExactDone[i] == TB_EXACT_NOT_YET) {
    TbAcc acc;
    tb_acc_init(&acc, 1);
    acc.pProbe = e->pProbe;
    f(&acc, e, p, i);
    tb_acc_settle(&acc);
    if (acc.bNoMem || exact_keep(col, i, &acc) != SQLITE_OK) {
      tb_acc_clear(&acc);
      pAcc->bNoMem = 1;
      return 1;
    }
  }
  x = &col->aExact[i];
  switch (col->aExactDone[i]) {
    case TB_EXACT_NULL:
      pAcc->bNull = 1;
      break;
    case TB_EXACT_SMALL:
      tb_acc_add_exact(pAcc, x->num, x->den);
      break;
    default:
      tb_acc_add_q(pAcc, &col->aBig[x->num]);
      break;
  }
  return 1;
}

/* value += the term f of player i, from col (NULL: computed). */
static inline void add_term(TbAcc *pAcc, TbTermColumn *col, const TbEvent *e,
                            TbTermFn f, const TbParams *p, int i) {
  if (col && !pAcc->bExact) {
    const TbTermValue *t = &col->aTerm[i];
    if (t->err < 0) {
      pAcc->bNull = 1; /* as f would have set it */
    } else {
      tb_acc_add_dd(pAcc, t->r, t->lo, t->err);
    }
  } else if (!col || !add_exact_term(pAcc, col, e, f, p, i)) {
    f(pAcc, e, p, i);
  }
}

/* value += the term f of player i, in the accumulator's mode, kept in the
** cache for the next time it is asked. */
void tb_term_add(TbAcc *pAcc, const TbEvent *e, TbTermFn f, const TbParams *p,
                 int i) {
  add_term(pAcc, term_column(e, f, p), e, f, p, i);
}

/* Mean of f over the player's opponents, one term per match; byes skipped,
** and under distinct_opponents an opponent met again (bRepeat). */
void tb_opponents_mean(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i,
                       TbTermFn f) {
  const TbPlayer *pl = &e->aPlayer[i];
  TbTermColumn *col = term_column(e, f, p);
  int j, n = 0;
  if (tb_stopped(e->pProbe)) return;
  if (col && !pAcc->bExact) {
    /* summed in a local: stores through pAcc could alias the columns, and
    ** would make every step reload the sum */
    const TbSeat *aSeat = &e->aSeat[pl->iSeat];
    TbAcc acc = *pAcc;
    const TbTermValue *aTerm = col->aTerm;
    for (j = 0; j < pl->nSeat; j++) {
      int iOpp = aSeat[j].iOpp;
      if (iOpp < 0 || aSeat[j].bRepeat) continue;
      if (aTerm[iOpp].err < 0) {
        acc.bNull = 1; /* as f would have set it */
      } else {
        tb_acc_add_dd(&acc, aTerm[iOpp].r, aTerm[iOpp].lo, aTerm[iOpp].err);
      }
      n++;
    }
    *pAcc = acc;
  } else {
    for (j = 0; j < pl->nSeat; j++) {
      int iOpp = e->aSeat[pl->iSeat + j].iOpp;
      if (iOpp < 0 || e->aSeat[pl->iSeat + j].bRepeat) continue;
      /* an exact term costs many seats of the fast pass: a player met by
      ** thousands polls as the terms are added (an interrupt: no value) */
      if (pAcc->bExact && tb_poll(e->pProbe, 1) != SQLITE_OK) {
        pAcc->bNoMem = 1;
        return;
      }
      add_term(pAcc, col, e, f, p, iOpp);
      n++;
    }
  }
  tb_acc_mean(pAcc, n);
}

/* The same over the games played over the board only (chess: AOB). */
void tb_opponents_mean_played(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                              int i, TbTermFn f) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbTermColumn *col = pAcc->bExact ? 0 : term_column(e, f, p);
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iOpp < 0 || s->eKind != TB_PLAYED) continue;
    const TbTermValue *t = col ? &col->aTerm[s->iOpp] : 0;
    if (t && t->err < 0) {
      pAcc->bNull = 1;
    } else if (t) {
      tb_acc_add_dd(pAcc, t->r, t->lo, t->err);
    } else {
      f(pAcc, e, p, s->iOpp);
    }
    n++;
  }
  tb_acc_mean(pAcc, n);
}

static void tb_match_points(const TbEvent *e, const TbParams *p, int i,
                            TbAcc *pAcc) {
  tb_acc_add(pAcc, e->aPlayer[i].rec.nMatchPoints, p->nPointScale);
}

/* A registered player with no round (a no-show) has no percentage of their
** own: NULL, which ranks as 0.  Opponents always have a round. */
static void tb_mwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  if (e->aPlayer[i].rec.nRound == 0) {
    pAcc->bNull = 1;
    return;
  }
  tb_add_mwp(pAcc, e, p, i);
}

/*
** The player's own gwp may have its own floor: from late 2024 Melee.gg
** prints and ranks it unfloored while still flooring it inside OGW%.
*/
static void tb_gwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  if (e->aPlayer[i].rec.nRound == 0) {
    pAcc->bNull = 1;
    return;
  }
  add_gwp_floored(pAcc, e, p, i, p->bOwnGwpFloor ? &p->ownGwpFloor : &p->floor);
}

/* Has player i an opponent (a seat that is not a bye)? */
static int has_opponent(const TbEvent *e, int i) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    if (e->aSeat[pl->iSeat + j].iOpp >= 0) return 1;
  }
  return 0;
}

/*
** An opponents' mean, or for a player without opponents (byes only, or
** registered with no match) the value of option no_opponents: NULL by
** default, the floor on Melee.gg since 2024 (docs/policy-mtg.md).
*/
static void opponents_mean_or(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                              int i, TbTermFn f) {
  if (p->bNoOpp && !has_opponent(e, i)) {
    tb_acc_add(pAcc, (i64)p->noOpp.num, (i64)p->noOpp.den);
    return;
  }
  tb_opponents_mean(pAcc, e, p, i, f);
}

static void tb_omwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  opponents_mean_or(pAcc, e, p, i, tb_add_mwp);
}

static void tb_ogwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  opponents_mean_or(pAcc, e, p, i, add_gwp);
}

/*
** The order of this table is the order of the standings() value columns.
** name, alias, family, value, group, lower is better, type, needs, options,
** definition.
*/
const TbTiebreaker tb_aTiebreaker[] = {
  {"match_points", "mp", "mtg", tb_match_points, 0, 0, TB_POINTS, 0, "",
   "points of matches: a win (byes included), a draw, a loss"},
  {"mwp", "mw", "mtg", tb_mwp, 0, 0, TB_REAL, 0, "floor",
   "match-win %: match points / (3 x rounds played), at least the floor"},
  {"gwp", "gw", "mtg", tb_gwp, 0, 0, TB_REAL, 0, "floor, own_gwp_floor",
   "game-win %: game points / (3 x games played), at least the floor"},
  {"omwp", "omw", "mtg", tb_omwp, 0, 0, TB_REAL, 0,
   "floor, distinct_opponents, no_opponents, freeze_cut",
   "opponents' match-win %: mean of each opponent's floored mwp, byes skipped"},
  {"ogwp", "ogw", "mtg", tb_ogwp, 0, 0, TB_REAL, 0,
   "floor, distinct_opponents, no_opponents, freeze_cut",
   "opponents' game-win %: mean of each opponent's floored gwp, byes skipped"},
  {"oomwp", "oomw", "battlefy", tb_tcg_oomwp, 0, 0, TB_REAL, 0,
   "floor, distinct_opponents",
   "opponents' opponents' match-win %: mean of each opponent's omwp"},
  {"kts", "", "yugioh", tb_yugioh_kts, 0, 0, TB_INTEGER, 0,
   "floor, kts_truncate",
   "Konami's XXYYYZZZ: points, omwp and oomwp in per mille"},
  {"match_wins", "", "hct", tb_hct_match_wins, 0, 0, TB_INTEGER, 0, "",
   "matches won, byes included"},
  {"hct_t1", "", "hct", tb_hct_t1, 0, 0, TB_INTEGER, 0,
   "t1_floor, opponent_bye_is_win",
   "sum over opponents of max(their wins - losses, -3); a bye adds 0"},
  {"hct_t2", "", "hct", tb_hct_t2, 0, 0, TB_INTEGER, 0,
   "t1_floor, opponent_bye_is_win", "sum of the opponents' hct_t1"},
  {"hct_t3", "", "hct", tb_hct_t3, 0, 0, TB_INTEGER, 0, "",
   "sum of the squares of the rounds lost (later losses rank higher)"},
  {"win_pct", "", "pokemon", tb_pokemon_win_pct, 0, 0, TB_REAL, 0,
   "floor, cap, tie_credit, late_loss",
   "own win % as opponents count it: byes removed, floor 25 %, cap 75 % if dropped"},
  {"owp", "", "pokemon", tb_pokemon_owp, 0, 0, TB_REAL, 0,
   "floor, cap, tie_credit, freeze_drops, late_loss",
   "opponents' win %: mean of each opponent's win_pct, byes skipped"},
  {"oowp", "", "pokemon", tb_pokemon_oowp, 0, 0, TB_REAL, 0,
   "floor, cap, tie_credit, freeze_drops, late_loss",
   "opponents' opponents' win %: mean of each opponent's owp"},
  {"head_to_head", "", "pokemon", 0, tb_pokemon_head_to_head, 0, TB_INTEGER, 0,
   "", "1 for the winner when exactly two tied players met, else 0"},
  {"active", "", "pokemon", tb_pokemon_active, 0, 0, TB_INTEGER, 0, "",
   "1 for a player who played the last round (not dropped), 0 for a dropped one"},
  {"registration_order", "", "pokemon", tb_registration_order, 0, 1,
   TB_INTEGER, 0, "",
   "the number of the player's row in the players table (lower first)"},
  {"points", "pts", "fide", tb_fide_points, 0, 0, TB_POINTS, 0, "",
   "the chess score: 1 a win (byes and forfeits as awarded), 1/2 a draw"},
  {"buchholz", "bh", "fide", tb_fide_buchholz, 0, 0, TB_POINTS, 0,
   "rules, round_robin, forfeits_played",
   "FIDE 8.1: sum of the opponents' scores, unplayed rounds per Art. 16"},
  {"buchholz_cut1", "bh_c1", "fide", tb_fide_buchholz_cut1, 0, 0, TB_POINTS, 0,
   "rules, round_robin, forfeits_played",
   "FIDE 14.1: buchholz less its least significant value (16.5)"},
  {"buchholz_cut2", "bh_c2", "fide", tb_fide_buchholz_cut2, 0, 0, TB_POINTS, 0,
   "rules, round_robin, forfeits_played",
   "FIDE 14.2: buchholz less its two least significant values"},
  {"buchholz_median1", "bh_m1", "fide", tb_fide_buchholz_median1, 0, 0,
   TB_POINTS, 0, "rules, round_robin, forfeits_played",
   "FIDE 14.3: buchholz less its least and its most significant value"},
  {"buchholz_median2", "bh_m2", "fide", tb_fide_buchholz_median2, 0, 0,
   TB_POINTS, 0, "rules, round_robin, forfeits_played",
   "FIDE 14.4: buchholz less its two least and two most significant values"},
  {"sonneborn_berger", "sb", "fide", tb_fide_sonneborn_berger, 0, 0, TB_POINTS,
   0, "rules, round_robin, forfeits_played",
   "FIDE 9.1: sum of opponent's score x points scored against them"},
  {"sonneborn_berger_cut1", "sb_c1", "fide", tb_fide_sonneborn_berger_cut1, 0,
   0, TB_POINTS, 0, "rules, round_robin, forfeits_played",
   "FIDE 14.1: sonneborn_berger less the lowest-scoring opponent's part (16.5)"},
  {"sonneborn_berger_cut2", "sb_c2", "fide", tb_fide_sonneborn_berger_cut2, 0,
   0, TB_POINTS, 0, "rules, round_robin, forfeits_played",
   "FIDE 14.2: sonneborn_berger less its two least significant parts (16.5)"},
  {"sonneborn_berger_median1", "sb_m1", "fide",
   tb_fide_sonneborn_berger_median1, 0, 0, TB_POINTS, 0,
   "rules, round_robin, forfeits_played",
   "FIDE 14.3: sonneborn_berger less its least, then its most significant part"},
  {"sonneborn_berger_median2", "sb_m2", "fide",
   tb_fide_sonneborn_berger_median2, 0, 0, TB_POINTS, 0,
   "rules, round_robin, forfeits_played",
   "FIDE 14.4: sonneborn_berger less two least, then two most significant parts"},
  {"progressive", "ps", "fide", tb_fide_progressive, 0, 0, TB_POINTS, 0, "",
   "FIDE 7.5: sum of the running score after each round"},
  {"progressive_cut1", "ps_c1", "fide", tb_fide_progressive_cut1, 0, 0,
   TB_POINTS, 0, "", "FIDE 14.1: progressive less the score after round 1"},
  {"progressive_cut2", "ps_c2", "fide", tb_fide_progressive_cut2, 0, 0,
   TB_POINTS, 0, "", "FIDE 14.2: progressive less the scores after rounds 1, 2"},
  {"direct_encounter", "de", "fide", 0, tb_fide_direct_encounter, 1, TB_INTEGER,
   0, "round_robin, forfeits_played",
   "FIDE 6: place among the tied players by their games together"},
  {"rounds_won", "win", "fide", tb_fide_rounds_won, 0, 0, TB_INTEGER, 0, "",
   "FIDE 7.1: rounds with a win's points, played or not"},
  {"games_won", "won", "fide", tb_fide_games_won, 0, 0, TB_INTEGER, 0, "round_robin",
   "FIDE 7.2: games won over the board"},
  {"black_games", "bpg", "fide", tb_fide_black_games, 0, 0, TB_INTEGER, 0, "round_robin",
   "FIDE 7.3: games played over the board with Black (as player_b)"},
  {"black_wins", "bwg", "fide", tb_fide_black_wins, 0, 0, TB_INTEGER, 0, "round_robin",
   "FIDE 7.4: games won over the board with Black"},
  {"rounds_elected", "rep", "fide", tb_fide_rounds_elected, 0, 0, TB_INTEGER,
   0, "", "FIDE 7.6: rounds less voluntary unplayed rounds (GE in 2024)"},
  {"aob", "", "fide", tb_fide_aob, 0, 0, TB_REAL, 0, "rules, round_robin", "FIDE 8.2: mean Buchholz of the opponents met over the board"},
  {"aob_fore", "aob_f", "fide", tb_fide_aob_fore, 0, 0, TB_REAL, 0, "rules",
   "FIDE 8.2 (2026) AOB/F: mean Fore Buchholz of the opponents met over the board"},
  {"fore_buchholz", "fb", "fide", tb_fide_fore_buchholz, 0, 0, TB_POINTS, 0,
   "rules", "FIDE 8.3: buchholz as if every game of the last round were drawn"},
  {"fore_buchholz_cut1", "fb_c1", "fide", tb_fide_fore_buchholz_cut1, 0, 0,
   TB_POINTS, 0, "rules", "FIDE 14.1: fore_buchholz less its least significant value"},
  {"fore_buchholz_cut2", "fb_c2", "fide", tb_fide_fore_buchholz_cut2, 0, 0,
   TB_POINTS, 0, "rules", "FIDE 14.2: fore_buchholz less its two least significant values"},
  {"fore_buchholz_median1", "fb_m1", "fide", tb_fide_fore_buchholz_median1, 0,
   0, TB_POINTS, 0, "rules", "FIDE 14.3: fore_buchholz less its least and most significant"},
  {"fore_buchholz_median2", "fb_m2", "fide", tb_fide_fore_buchholz_median2, 0,
   0, TB_POINTS, 0, "rules", "FIDE 14.4: fore_buchholz less two least and two most significant"},
  {"koya", "ks", "fide", tb_fide_koya, 0, 0, TB_POINTS, 0,
   "ks_limit, ks_percent",
   "FIDE 9.2: points against opponents who scored at least half the maximum"},
  {"aro", "", "fide", tb_fide_aro, 0, 0, TB_INTEGER, TB_NEEDS_RATINGS,
   "unrated", "FIDE 10.1: mean rating of opponents met over the board, rounded"},
  {"aro_cut1", "aro_c1", "fide", tb_fide_aro_cut1, 0, 0, TB_INTEGER,
   TB_NEEDS_RATINGS, "unrated", "FIDE 14.1: aro less the lowest rating"},
  {"aro_cut2", "aro_c2", "fide", tb_fide_aro_cut2, 0, 0, TB_INTEGER,
   TB_NEEDS_RATINGS, "unrated", "FIDE 14.2: aro less the two lowest ratings"},
  {"aro_median1", "aro_m1", "fide", tb_fide_aro_median1, 0, 0, TB_INTEGER,
   TB_NEEDS_RATINGS, "unrated",
   "FIDE 14.3: aro less the lowest and the highest rating"},
  {"aro_median2", "aro_m2", "fide", tb_fide_aro_median2, 0, 0, TB_INTEGER,
   TB_NEEDS_RATINGS, "unrated",
   "FIDE 14.4: aro less the two lowest and the two highest ratings"},
  {"tpr", "", "fide", tb_fide_tpr, 0, 0, TB_INTEGER, TB_NEEDS_RATINGS,
   "unrated", "FIDE 10.2: performance: aro + dp of the score (B.02 8.1.a)"},
  {"ptp", "", "fide", tb_fide_ptp, 0, 0, TB_INTEGER, TB_NEEDS_RATINGS,
   "unrated", "FIDE 10.3: lowest rating whose expected score reaches the score"},
  {"apro", "", "fide", tb_fide_apro, 0, 0, TB_INTEGER, TB_NEEDS_RATINGS,
   "unrated", "FIDE 10.4: mean tpr of the opponents met over the board"},
  {"appo", "", "fide", tb_fide_appo, 0, 0, TB_INTEGER, TB_NEEDS_RATINGS,
   "unrated", "FIDE 10.5: mean ptp of the opponents met over the board"},
  {"own_rating", "rtng", "fide", tb_fide_rating, 0, 0, TB_INTEGER,
   TB_NEEDS_RATINGS, "unrated", "FIDE 2026 RTNG: the player's own rating"},
  {"pairing_number", "tpn", "fide", tb_fide_pairing_number, 0, 1, TB_INTEGER,
   0, "", "FIDE 2026 TPN: the start number (an integer id), lower first"},
  {"standard_points", "std", "fide", tb_fide_standard_points, 0, 0, TB_POINTS,
   0, "", "FIDE 2026 7.7 STD: 1 a round scored above the opponent, 1/2 level"},
};
const int tb_nTiebreaker = sizeof(tb_aTiebreaker) / sizeof(tb_aTiebreaker[0]);

/*
** Does the word z[0..n) name zName?  Case does not matter, and '-', '/'
** and '_' are one character, so that FIDE's codes (BH/C1, BH-C1) name the
** tiebreakers whose alias is the code (bh_c1).
*/
static int name_is(const char *zName, const char *z, int n) {
  int k;
  for (k = 0; k < n; k++) {
    char a = zName[k], b = z[k];
    if (a == 0) return 0;
    if (a == '-' || a == '/') a = '_';
    if (b == '-' || b == '/') b = '_';
    if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
    if (a != b) return 0;
  }
  return zName[n] == 0;
}

/* Codes of the 2024 rules renamed in 2026: the old code still names it. */
static const char *const azOldCode[][2] = {{"ge", "rep"}};

/* The tiebreaker called zName (its name, alias or code), or NULL. */
const TbTiebreaker *tb_tiebreaker_find(const char *zName, int nName) {
  int i;
  if (nName == 0) return 0;
  for (i = 0; i < (int)(sizeof(azOldCode) / sizeof(azOldCode[0])); i++) {
    if (name_is(azOldCode[i][0], zName, nName)) {
      zName = azOldCode[i][1];
      nName = (int)strlen(zName);
    }
  }
  for (i = 0; i < tb_nTiebreaker; i++) {
    const TbTiebreaker *t = &tb_aTiebreaker[i];
    if (name_is(t->zName, zName, nName) || name_is(t->zAlias, zName, nName)) {
      return t;
    }
  }
  return 0;
}

/*
** The FIDE C.07 code of a chess tiebreaker (BH/C1), from its alias or
** name, into z (at least 16 bytes); "" for the other families.
*/
void tb_tiebreaker_code(const TbTiebreaker *t, char *z) {
  const char *zFrom = t->zAlias[0] ? t->zAlias : t->zName;
  int k;
  z[0] = 0;
  if (strcmp(t->zFamily, "fide") != 0 || strlen(zFrom) > 15) return;
  for (k = 0; zFrom[k]; k++) {
    char c = zFrom[k];
    z[k] = c == '_' ? '/' : (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
  }
  z[k] = 0;
}
