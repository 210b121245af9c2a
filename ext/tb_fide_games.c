/*
** tb_fide_games.c: more chess tiebreakers of FIDE C.07, besides those of
** tb_fide.c.
**
**   black_wins (7.4, BWG)      games won over the board with Black
**   rounds_elected (7.6, REP)  rounds less voluntary unplayed rounds (GE
**                              in the 2024 rules)
**   aob (8.2, AOB)             mean of the Buchholz of the opponents met
**                              over the board
**   koya (9.2, KS)             points scored against the opponents who
**                              scored at least half the maximum
**
** See docs/policy-fide.md.
*/
#include "tiebreak_int.h"
#include "tiebreakers.h"

/* 7.4: Black is the harder colour; a win with it counts here. */
void tb_fide_black_wins(const TbEvent *e, const TbParams *p, int i,
                        TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  (void)p;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    n += s->eKind == TB_PLAYED && s->iOpp >= 0 && !s->bFirst &&
         s->eOutcome == TB_WIN;
  }
  tb_acc_add(pAcc, n, 1);
}

/*
** 7.6: the rounds the player made themselves available for: every round
** but the voluntary unplayed ones (16.1.2: requested byes, which include
** rounds without a row, and forfeit losses).  So a game, a pairing-
** allocated bye or a forfeit win counts.
*/
void tb_fide_rounds_elected(const TbEvent *e, const TbParams *p, int i,
                            TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  (void)p;
  for (j = 0; j < pl->nSeat; j++) {
    int k = e->aSeat[pl->iSeat + j].eKind;
    n += k == TB_PLAYED || k == TB_PAB || k == TB_FORFEIT_WIN;
  }
  tb_acc_add(pAcc, n, 1);
}

/*
** 8.2: the Buchholz of each opponent met over the board (with its own
** Article 16 treatment), averaged: an exact fraction (the exercise prints
** two decimals).  NULL without a game over the board.
*/
void tb_fide_aob(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    TbAcc child;
    if (s->eKind != TB_PLAYED || s->iOpp < 0) continue;
    tb_acc_init(&child, pAcc->bExact);
    tb_fide_buchholz(e, p, s->iOpp, &child);
    tb_acc_add_acc(pAcc, &child);
    n++;
  }
  tb_acc_mean(pAcc, n);
}

/*
** 9.2, for round robins: the points scored against the opponents whose
** score is at least half of what a player could score, that limit moved
** by ks_limit half points (the /L modifier).  A player of a round robin
** plays every round but their byes: with an odd number of players, one
** bye per cycle of nPlayer rounds.  Forfeits count as the points given
** (15.2: in a round robin they are games).
*/
void tb_fide_koya(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  i64 nGames = e->iLastRound, nLimit, nSum = 0;
  int j;
  if (e->nPlayer > 0 && e->iLastRound % e->nPlayer == 0) {
    nGames -= e->iLastRound / e->nPlayer;
  }
  /* score >= win x games / 2 + limit x half point, doubled */
  nLimit = p->nMatchWin * nGames + 2 * p->nKsLimit * p->nMatchDraw;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    const TbRecord *o;
    if (s->iOpp < 0) continue;
    o = &e->aPlayer[s->iOpp].rec;
    if (2 * o->nMatchPoints < nLimit) continue;
    nSum += s->eOutcome == TB_WIN    ? p->nMatchWin
            : s->eOutcome == TB_DRAW ? p->nMatchDraw
                                     : p->nMatchLoss;
  }
  tb_acc_add(pAcc, nSum, p->nPointScale);
}
