/*
** tiebreakers/hct.c: tiebreakers of Battlefy's "HCT" format (Hearthstone
** Championship Tour), help.battlefy.com "Swiss tie breaker formats".
**
** Players are ranked by match wins, then by three integer sums:
**
**   T1  win/loss sum        each opponent adds wins - losses, at least -3
**   T2  first-tiebreaker    each opponent adds their own T1
**   T3  timing              each lost round r adds r^2: later losses rank
**                           higher
**
** A bye is no opponent: it adds nothing to T1 or T2, and is not a lost
** round for T3.  Every value is an integer, so ties are exact.
*/
#include "../tiebreak_int.h"
#include "tiebreakers.h"

/*
** Match wins, byes included (Battlefy records a bye as a win).  Hearthstone
** has no draws, so wins order players as points would.
*/
void tb_hct_match_wins(const TbEvent *e, const TbParams *p, int i,
                       TbAcc *pAcc) {
  (void)p;
  tb_acc_add(pAcc, e->aPlayer[i].rec.nWin, 1);
}

/* Rounds the player won by a bye (a pairing-allocated bye). */
static int bye_wins(const TbEvent *e, int i) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iOpp < 0 && s->eOutcome == TB_WIN) n++;
  }
  return n;
}

/*
** What one opponent adds to T1: +1 per win, -1 per loss, at least the floor
** (-3), so one collapsed opponent cannot sink a player.  Whether the
** opponent's own byes are wins here is not stated; they are by default
** (option opponent_bye_is_win).
*/
static i64 t1_term(const TbEvent *e, const TbParams *p, int iOpp) {
  const TbRecord *r = &e->aPlayer[iOpp].rec;
  i64 n = (i64)r->nWin - r->nLoss;
  if (!p->bOppByeIsWin) n -= bye_wins(e, iOpp);
  return n < p->nT1Floor ? p->nT1Floor : n;
}

/*
** Every opponent reads a player's term, and T2 every opponent's T1: both
** are kept per player while an event is ranked (tb_term_int), so a
** player met by thousands is walked once, not once per opponent.  The
** values are integers, exact as doubles.
*/
static void add_t1_term(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                        int q) {
  tb_acc_add(pAcc, t1_term(e, p, q), 1);
}

/* The sum of f's terms over player i's opponents: the column taken once
** (tb_term_ints), not looked up at every seat. */
static i64 sum_over_opponents(const TbEvent *e, const TbParams *p, int i,
                              TbTermFn f) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  const TbTermValue *aTerm = tb_term_ints(e, f, p);
  i64 n = 0;
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    int iOpp = a[j].iOpp;
    if (iOpp < 0) continue;
    n += aTerm ? (i64)aTerm[iOpp].r : tb_term_int(e, f, p, iOpp);
  }
  return n;
}

static i64 t1_of(const TbEvent *e, const TbParams *p, int i) {
  return sum_over_opponents(e, p, i, add_t1_term);
}

static void add_t1(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  tb_acc_add(pAcc, t1_of(e, p, i), 1);
}

/* T1, strength of schedule: opponents that won more are worth more. */
void tb_hct_t1(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  tb_acc_add(pAcc, t1_of(e, p, i), 1);
}

/* T2: the opponents' own schedules, as the sum of their T1. */
void tb_hct_t2(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  tb_acc_add(pAcc, sum_over_opponents(e, p, i, add_t1), 1);
}

/*
** T3, timing: sum of the squares of the rounds lost.  Losing late means
** having been paired against strong players late, so higher ranks higher.
** A round is at most 10^9, so each square fits 64 bits but their sum may
** not (ten losses near round 10^9 pass 2^63): the squares are added one by
** one, which the accumulator sums exactly (exact.c).
*/
void tb_hct_t3(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j;
  (void)p;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iOpp >= 0 && s->eOutcome == TB_LOSS) {
      tb_acc_add(pAcc, (i64)s->iRound * s->iRound, 1);
    }
  }
}
