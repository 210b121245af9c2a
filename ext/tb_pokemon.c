/*
** tb_pokemon.c: tiebreakers of the Play! Pokemon Tournament Rules Handbook
** as its software (TOM) computes them.
**
**   win_pct       a player's own win %, as their opponents see it
**   owp           opponents' win % ("Resistance"): mean of the opponents'
**                 win %
**   oowp          opponents' opponents' win %: mean of the opponents' owp
**   head_to_head  between exactly two tied players who met
**
** Own win %: (wins + tie credit x ties) / rounds, counting only rounds
** against an opponent (a bye is removed from both sides), at least the
** floor (25 %), and at most the cap (75 %) for a player who dropped.
**
** Dropped players are frozen (option freeze_drops): everything about a
** player who left after round L is computed as in the standings after
** round L.  Their own win % cannot change after L anyway; their owp and
** oowp read their opponents' records as of L.  A player's owp is one
** number, so others' oowp average the frozen value too.  See
** docs/policy-pokemon.md.
*/
#include "tiebreak_int.h"
#include "tiebreakers.h"

/* The round a player's values are taken at, within standings as of iRound:
** the round they dropped after when drops are frozen, else iRound. */
static int frozen_round(const TbEvent *e, const TbParams *p, int i, int iRound) {
  int iLast = e->aPlayer[i].rec.iLastRound;
  return p->bFreezeDrops && iLast < iRound ? iLast : iRound;
}

/*
** Player i's win % in the standings as of iRound, into pAcc.  Returns 0
** when the player played no round against an opponent by then (no win %).
*/
static int add_win_pct(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i,
                       int iRound) {
  const TbPlayer *pl = &e->aPlayer[i];
  i64 nWin = 0, nTie = 0, nPlayed = 0, num, den;
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iRound > iRound) break; /* seats are ordered by round */
    if (s->iOpp < 0) continue;
    nPlayed++;
    if (s->eOutcome == TB_WIN) nWin++;
    if (s->eOutcome == TB_DRAW) nTie++;
  }
  if (nPlayed == 0) return 0;
  num = nWin * (i64)p->tieCredit.den + nTie * (i64)p->tieCredit.num;
  den = nPlayed * (i64)p->tieCredit.den;
  /* num/den < floor, and num/den > cap for a player gone before iRound */
  if ((i128)num * p->floor.den < p->floor.num * (i128)den) {
    num = (i64)p->floor.num;
    den = (i64)p->floor.den;
  } else if (pl->rec.iLastRound < iRound && !tb_was_cut(e, i) &&
             (i128)num * p->cap.den > p->cap.num * (i128)den) {
    num = (i64)p->cap.num;
    den = (i64)p->cap.den;
  }
  tb_acc_add(pAcc, num, den);
  return 1;
}

/* Mean of the opponents' win %, from the standings as of iRound. */
static void owp_at(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i,
                   int iRound) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iRound > iRound) break;
    if (s->iOpp < 0) continue;
    /* the opponent played this match by iRound, so has a win % */
    add_win_pct(pAcc, e, p, s->iOpp, iRound);
    n++;
  }
  tb_acc_mean(pAcc, n);
}

/*
** The win % opponents count for this player.  Shown beside the standings
** so that a player can check the number their opponents' owp is built
** from; NULL for a player who only had byes.
*/
void tb_pokemon_win_pct(const TbEvent *e, const TbParams *p, int i,
                        TbAcc *pAcc) {
  if (add_win_pct(pAcc, e, p, i, e->iLastRound) == 0) pAcc->bNull = 1;
}

/* Opponents' win %: the strength of the player's schedule. */
void tb_pokemon_owp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  owp_at(pAcc, e, p, i, frozen_round(e, p, i, e->iLastRound));
}

/*
** Opponents' opponents' win %: the mean of the opponents' owp, each as the
** standings showed it then (frozen if that opponent had dropped).
*/
void tb_pokemon_oowp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int iRound = frozen_round(e, p, i, e->iLastRound);
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    TbAcc child;
    if (s->iRound > iRound) break;
    if (s->iOpp < 0) continue;
    tb_acc_init(&child, pAcc->bExact);
    owp_at(&child, e, p, s->iOpp, frozen_round(e, p, s->iOpp, iRound));
    tb_acc_add_acc(pAcc, &child);
    tb_acc_clear(&child);
    n++;
  }
  tb_acc_mean(pAcc, n);
}

/*
** Head-to-head, only when exactly two players are still tied and they
** met: the winner ranks higher (1, the loser 0).  Met more than once: the
** net result.  Three or more tied, or two who never met: 0 for all, left to
** the organizer's random draw.
*/
void tb_pokemon_head_to_head(const TbEvent *e, const TbParams *p,
                             const int *aPlayer, int n, TbFrac *aOut) {
  int j, k, nNet = 0;
  (void)p;
  for (k = 0; k < n; k++) aOut[k] = tb_frac(0, 1);
  if (n != 2) return;
  for (j = 0; j < e->aPlayer[aPlayer[0]].nSeat; j++) {
    const TbSeat *s = &e->aSeat[e->aPlayer[aPlayer[0]].iSeat + j];
    if (s->iOpp != aPlayer[1]) continue;
    if (s->eOutcome == TB_WIN) nNet++;
    if (s->eOutcome == TB_LOSS) nNet--;
  }
  if (nNet > 0) aOut[0] = tb_frac(1, 1);
  if (nNet < 0) aOut[1] = tb_frac(1, 1);
}
