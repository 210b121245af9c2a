/*
** tiebreakers.c: one function per tiebreaker, and the table listing them.
**
** A tiebreaker computes one player's value into an accumulator (exact.c).
** It reads only the event model and the policy's parameters, so the same
** function serves the fast pass, the exact pass, the standings() columns and
** the scalar functions.  Adding a tiebreaker is one function here and one
** line in tb_aTiebreaker[].
**
** Rules are MTR Appendix C unless a comment says otherwise.
*/
#include "tiebreak_int.h"

#include <string.h>

/* max(MP / (points of a win x rounds), floor): byes count as won rounds. */
static void add_mwp(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
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

typedef void (*AddFn)(TbAcc*, const TbEvent*, const TbParams*, int);

/* Mean of f over the player's opponents, one term per match; byes skipped. */
static void opponents_mean(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                           int i, AddFn f) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    int iOpp = e->aSeat[pl->iSeat + j].iOpp;
    if (iOpp >= 0) {
      f(pAcc, e, p, iOpp);
      n++;
    }
  }
  tb_acc_mean(pAcc, n);
}

static void tb_match_points(const TbEvent *e, const TbParams *p, int i,
                            TbAcc *pAcc) {
  tb_acc_add(pAcc, e->aPlayer[i].rec.nMatchPoints, p->nPointScale);
}

static void tb_mwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  add_mwp(pAcc, e, p, i);
}

/*
** The player's own gwp may have its own floor: from late 2024 Melee.gg
** prints and ranks it unfloored while still flooring it inside OGW%.
*/
static void tb_gwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  add_gwp_floored(pAcc, e, p, i, p->bOwnGwpFloor ? &p->ownGwpFloor : &p->floor);
}

static void tb_omwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  opponents_mean(pAcc, e, p, i, add_mwp);
}

static void tb_ogwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  opponents_mean(pAcc, e, p, i, add_gwp);
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
  {"omwp", "omw", "mtg", tb_omwp, 0, 0, TB_REAL, 0, "floor",
   "opponents' match-win %: mean of each opponent's floored mwp, byes skipped"},
  {"ogwp", "ogw", "mtg", tb_ogwp, 0, 0, TB_REAL, 0, "floor",
   "opponents' game-win %: mean of each opponent's floored gwp, byes skipped"},
};
const int tb_nTiebreaker = sizeof(tb_aTiebreaker) / sizeof(tb_aTiebreaker[0]);

/* The tiebreaker called zName (its name or short alias), or NULL. */
const TbTiebreaker *tb_tiebreaker_find(const char *zName, int nName) {
  int i;
  for (i = 0; i < tb_nTiebreaker; i++) {
    const TbTiebreaker *t = &tb_aTiebreaker[i];
    if (nName == 0) return 0;
    if ((sqlite3_strnicmp(t->zName, zName, nName) == 0 && t->zName[nName] == 0) ||
        (sqlite3_strnicmp(t->zAlias, zName, nName) == 0 && t->zAlias[nName] == 0)) {
      return t;
    }
  }
  return 0;
}
