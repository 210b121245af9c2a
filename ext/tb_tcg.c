/*
** tb_tcg.c: tiebreakers of the Battlefy "Default" and Yu-Gi-Oh! (KTS)
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
#include "tiebreak_int.h"
#include "tiebreakers.h"

#include <math.h>

/* Mean of the opponents' floored match-win %, one term per match played;
** a bye is a won round in the player's own match-win %. */
static void omwp_into(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  tb_opponents_mean(pAcc, e, p, i, tb_add_mwp);
}

/* A player's OMW%, as a term of their opponents' OOMW%. */
static void add_omwp(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  TbAcc child;
  tb_acc_init(&child, pAcc->bExact);
  omwp_into(&child, e, p, i);
  tb_acc_add_acc(pAcc, &child);
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
*/
static i64 per_mille(const TbEvent *e, const TbParams *p, int i, MeanFn f) {
  TbAcc acc;
  i128 num, den, v;
  tb_acc_init(&acc, 1);
  f(&acc, e, p, i);
  if (acc.bNull) return 0;
  /* (2000 q.num + q.den) / (2 q.den) = 1000 x value + 1/2: rounds half up */
  if (acc.bOverflow ||
      __builtin_mul_overflow(acc.q.num, (i128)2000, &num) ||
      __builtin_add_overflow(num, p->bKtsTruncate ? 0 : acc.q.den, &num) ||
      __builtin_mul_overflow(acc.q.den, (i128)2, &den)) {
    /* past 128 bits (not met in real events): from the double instead */
    double r;
    tb_acc_init(&acc, 0);
    f(&acc, e, p, i);
    r = 1000.0 * acc.r;
    v = (i128)(p->bKtsTruncate ? floor(r) : floor(r + 0.5));
  } else {
    v = num / den;
  }
  if (v < 0) v = 0;
  if (v > 999) v = 999;
  return (i64)v;
}

/*
** Konami's tie-breaker number XXYYYZZZ: points, then OMW% and OOMW% in per
** mille.  Ranking by it alone ('kts' as a custom order) reproduces KTS,
** including its ties between players whose percentages share three digits.
** Points past 99 simply lengthen the number, which keeps the order.
*/
void tb_yugioh_kts(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  i64 nPoints = e->aPlayer[i].rec.nMatchPoints / p->nPointScale;
  tb_acc_add(pAcc, nPoints * 1000000 + per_mille(e, p, i, omwp_into) * 1000 +
                       per_mille(e, p, i, oomwp_into), 1);
}
