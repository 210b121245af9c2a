/*
** tiebreakers/tcg.c: tiebreakers of the Battlefy "Default" and Yu-Gi-Oh! (KTS)
** policies.
**
** Both rank by match points, then opponents' match-win percentage, then a
** second level of it: opponents' opponents' match-win percentage (OOMW%),
** the mean over a player's opponents of their own OMW%.  Battlefy puts the
** player's game-win percentage between the two; Konami's software packs
** points, OMW% and OOMW% into one 8-digit number, XXYYYZZZ.
**
** Byes follow the Magic rules, as neither source describes them: a bye is a
** won round in the player's own match-win percentage and no opponent in any
** average (docs/policy-battlefy.md, docs/policy-yugioh.md).
*/
#include "../tiebreak_int.h"
#include "tiebreakers.h"


/* Mean of the opponents' floored match-win %, one term per match played;
** a bye is a won round in the player's own match-win %. */
static void omwp_into(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  tb_opponents_mean(pAcc, e, p, i, tb_add_mwp);
}

/* A player's OMW%, as a term of their opponents' OOMW%. */
static void add_omwp(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  TbAcc child;
  tb_acc_init_child(&child, pAcc);
  omwp_into(&child, e, p, i);
  tb_acc_add_acc(pAcc, &child);
  tb_acc_clear(&child);
}

/* Mean of the opponents' OMW%: how strong the player's opponents' schedules
** were.  An opponent always has an OMW% (they met this player); while an
** event is ranked each player's OMW% is computed once (tb_opponents_mean). */
static void oomwp_into(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  tb_opponents_mean(pAcc, e, p, i, add_omwp);
}

/*
** Battlefy Default's third tiebreaker (and Konami's second), where Magic
** uses OGW%: it needs no game scores, so it works for best-of-one events.
*/
void tb_tcg_oomwp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  oomwp_into(pAcc, e, p, i);
}

typedef void (*MeanFn)(TbAcc*, const TbEvent*, const TbParams*, int);

/*
** floor(1000 x value) or floor(1000 x value + 1/2), from the exact value so
** that a percentage such as 72.65 % is never taken for 72.6499... %.  A
** value of 100 % gives 999: the field has three digits, and letting it
** carry into the points would rank the player as if they had more points.
** Out of memory: 0, and *pbNoMem is set.
*/
static i64 per_mille(const TbEvent *e, const TbParams *p, int i, MeanFn f,
                     int *pbNoMem) {
  TbAcc acc;
  TbQ q;
  int rc = SQLITE_OK;
  i64 v;
  tb_acc_init(&acc, 1);
  acc.pProbe = e->pProbe;
  f(&acc, e, p, i);
  tb_acc_take(&acc, &q);
  v = acc.bNull || acc.bNoMem ? 0 : tb_q_floor(&q, 1000, !p->bKtsTruncate, &rc);
  tb_q_free(&q);
  if (acc.bNoMem || rc != SQLITE_OK) *pbNoMem = 1;
  if (v < 0) v = 0;
  if (v > 999) v = 999;
  return v;
}

/*
** Konami's tie-breaker number XXYYYZZZ: points, then OMW% and OOMW% in per
** mille.  Ranking by it alone ('kts' as a custom order) reproduces KTS,
** including its ties between players whose percentages share three digits.
** Points past 99 simply lengthen the number, which keeps the order.
*/
void tb_yugioh_kts(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  i64 nPoints = e->aPlayer[i].rec.nMatchPoints / p->nPointScale;
  int bNoMem = 0;
  i64 nOmw = per_mille(e, p, i, omwp_into, &bNoMem);
  i64 nOomw = per_mille(e, p, i, oomwp_into, &bNoMem);
  if (bNoMem) pAcc->bNoMem = 1;
  tb_acc_add(pAcc, nPoints * 1000000 + nOmw * 1000 + nOomw, 1);
}
