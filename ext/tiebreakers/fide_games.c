/*
** tiebreakers/fide_games.c: more chess tiebreakers of FIDE C.07, besides those of
** fide.c.
**
**   black_wins (7.4, BWG)      games won over the board with Black
**   rounds_elected (7.6, REP)  rounds less voluntary unplayed rounds (GE
**                              in the 2024 rules)
**   aob (8.2, AOB)             mean of the Buchholz of the opponents met
**                              over the board
**   aob_fore (8.2, AOB/F)      the same of their Fore Buchholz
**   koya (9.2, KS)             points scored against the opponents who
**                              scored at least half the maximum
**
** See docs/policy-fide.md.
*/
#include "../tiebreak_int.h"
#include "tiebreakers.h"

/* 7.4: Black is the harder colour; a win with it counts here (in a round
** robin a forfeit win as Black too, 15.2). */
void tb_fide_black_wins(const TbEvent *e, const TbParams *p, int i,
                        TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int j, n = 0;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    int bGame = s->eKind == TB_PLAYED ||
                (p->bRoundRobin && s->eKind == TB_FORFEIT_WIN); /* 15.2 */
    n += bGame && s->iOpp >= 0 && !s->bFirst && s->eOutcome == TB_WIN;
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
** two decimals).  NULL without a game over the board.  While ranking, each
** player's Buchholz is computed once (the term cache of tiebreakers.c),
** in point units (aCol, or xUnits without the cache): the mean is one
** exact quotient of their sum.  bFore: the opponents' Fore Buchholz
** (AOB/F), whose games of the last round count as played, forfeited or
** not, as Fore Buchholz counts them.
*/
static void aob(const TbEvent *e, const TbParams *p, int i, const TbTermValue *aCol,
                i64 (*xUnits)(const TbEvent*, const TbParams*, int), int bFore,
                TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  TbFrac f;
  i64 n = 0;
  int j;
  f.num = 0;
  for (j = 0; j < pl->nSeat; j++) {
    int q = a[j].iOpp;
    int bGame = a[j].eKind == TB_PLAYED ||
                (bFore && a[j].iRound == e->iLastRound);
    if (q < 0 || !bGame) continue;
    f.num += aCol ? (i64)aCol[q].r : xUnits(e, p, q);
    n++;
  }
  if (n == 0) {
    pAcc->bNull = 1;
    return;
  }
  f.den = (i128)n * p->nPointScale;
  tb_acc_add_frac(pAcc, &f);
}

void tb_fide_aob(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  aob(e, p, i, tb_fide_buchholz_column(e, p), tb_fide_buchholz_units, 0,
      pAcc);
}

/*
** 9.2, for round robins: the points scored against the opponents whose
** score is at least half of what a player could score (ks_percent: that
** percentage of it, an event's own rule), that limit moved by ks_limit
** half points (the /L modifier).  A player of a round robin
** plays every round but their byes: with an odd number n of players, one
** bye per cycle of n rounds, n the players with a row (a registered
** player who never played is no player of the round robin: counting them
** would move the limit).  Forfeits count as the points given (15.2: in a
** round robin they are games).
*/
void tb_fide_koya(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  i64 nGames = e->iLastRound, nLimit, nSum = 0;
  int j;
  if (e->nPlaying % 2 == 1 && e->iLastRound % e->nPlaying == 0) {
    nGames -= e->iLastRound / e->nPlaying;
  }
  /* score >= percent x win x games / 100 + limit x half point, x 100 */
  nLimit = (p->bKsPercent ? p->nKsPercent : 50) * p->nMatchWin * nGames +
           100 * p->nKsLimit * p->nMatchDraw;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    const TbRecord *o;
    if (s->iOpp < 0) continue;
    o = &e->aPlayer[s->iOpp].rec;
    if (100 * o->nMatchPoints < nLimit) continue;
    nSum += s->eOutcome == TB_WIN    ? p->nMatchWin
            : s->eOutcome == TB_DRAW ? p->nMatchDraw
                                     : p->nMatchLoss;
  }
  tb_acc_add(pAcc, nSum, p->nPointScale);
}

/* ------------------------------------------------------ Fore Buchholz */

/*
** 8.3: Buchholz as if every game of the last round had been drawn, so
** that it can be known before that round ends.  A player paired in the
** last round (played or forfeited) scores a draw there instead of its
** result, and is seen as available to the end (no 16.2.5 draws: a
** player paired in the last round has not withdrawn); a game of the last
** round counts as played even if forfeited.  The other players' scores
** are those of 16.3, and unplayed rounds meet the dummy of 16.4, whose
** score is the player's own (so adjusted).
*/

static i64 seat_pts(const TbSeat *s, const TbParams *p) {
  return s->eOutcome == TB_WIN    ? p->nMatchWin
         : s->eOutcome == TB_DRAW ? p->nMatchDraw
                                  : p->nMatchLoss;
}

/* Player q's score with a draw in the last round, if paired in it. */
static int fore_adjusted(const TbEvent *e, const TbParams *p, int q, i64 *pn) {
  const TbSeat *s = tb_event_seat(e, q, e->iLastRound);
  if (s == 0 || s->iOpp < 0) return 0;
  *pn = e->aPlayer[q].rec.nMatchPoints - seat_pts(s, p) + p->nMatchDraw;
  return 1;
}

/* Player q's score as the opponents' Fore Buchholz counts it, as a term:
** each opponent reads it, so it is computed once per player while
** ranking. */
static void add_fore_score(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                           int q) {
  i64 n;
  if (!fore_adjusted(e, p, q, &n)) n = tb_fide_adjusted_score(e, p, q);
  tb_acc_add(pAcc, n, 1);
}

static i64 fore_score(const TbFideCut *c, int q) {
  return c->aScore ? (i64)c->aScore[q].r
                   : tb_term_int(c->e, add_fore_score, c->p, q);
}

/* 16.4: the dummy's score, capped under the 2026 rules. */
static i64 fore_dummy(const TbFideCut *c, const TbSeat *s) {
  i64 nCap;
  if (c->p->iRules < 2026) return c->nOwn;
  if (s && s->iOpp >= 0) {
    nCap = fore_score(c, s->iOpp); /* a forfeit: the scheduled opponent */
  } else {
    nCap = c->p->nMatchDraw * c->e->iLastRound;
  }
  return c->nOwn < nCap ? c->nOwn : nCap;
}

/* Seat s's value, and whether it is a voluntary unplayed round. */
static i64 fore_seat(const TbFideCut *c, const TbSeat *s, int *pbVur) {
  int k = s->eKind;
  /* a game, a game of the last round (forfeited or not), or in a round
  ** robin a forfeit (15.2: a game) */
  if (s->iOpp >= 0 && (k == TB_PLAYED || c->p->bRoundRobin ||
                       s->iRound == c->e->iLastRound)) {
    *pbVur = 0;
    return fore_score(c, s->iOpp);
  }
  *pbVur = k == TB_HALF_BYE || k == TB_ZERO_BYE || k == TB_FORFEIT_LOSS;
  return fore_dummy(c, s);
}

/*
** Fore Buchholz with cut eCut (TB_FIDE_ALL ...) (14.1 to
** 14.4, with 16.5: a voluntary unplayed round is cut first), the cuts of
** the Buchholz family (fide.c).  Rounds without a row are zero-point byes,
** VURs, all with the same dummy.
*/
static i64 fore_buchholz_cut(const TbEvent *e, const TbParams *p, int i,
                             int eCut) {
  TbFideCut c;
  i64 aCut[TB_FIDE_CUTS];
  c.e = e;
  c.p = p;
  c.i = i;
  c.xSeat = fore_seat;
  c.nOwn = e->aPlayer[i].rec.nMatchPoints;
  fore_adjusted(e, p, i, &c.nOwn);
  c.aScore = tb_term_ints(e, add_fore_score, p);
  c.nAbsentValue = fore_dummy(&c, 0);
  c.bAbsentVur = 1;
  tb_fide_cut_sums(&c, aCut);
  return aCut[eCut];
}

static void fore_buchholz(const TbEvent *e, const TbParams *p, int i, int eCut,
                          TbAcc *pAcc) {
  tb_acc_add(pAcc, fore_buchholz_cut(e, p, i, eCut), p->nPointScale);
}

void tb_fide_fore_buchholz(const TbEvent *e, const TbParams *p, int i,
                           TbAcc *pAcc) {
  fore_buchholz(e, p, i, TB_FIDE_ALL, pAcc);
}
void tb_fide_fore_buchholz_cut1(const TbEvent *e, const TbParams *p, int i,
                                TbAcc *pAcc) {
  fore_buchholz(e, p, i, TB_FIDE_CUT1, pAcc);
}
void tb_fide_fore_buchholz_cut2(const TbEvent *e, const TbParams *p, int i,
                                TbAcc *pAcc) {
  fore_buchholz(e, p, i, TB_FIDE_CUT2, pAcc);
}
void tb_fide_fore_buchholz_median1(const TbEvent *e, const TbParams *p, int i,
                                   TbAcc *pAcc) {
  fore_buchholz(e, p, i, TB_FIDE_MEDIAN1, pAcc);
}
void tb_fide_fore_buchholz_median2(const TbEvent *e, const TbParams *p, int i,
                                   TbAcc *pAcc) {
  fore_buchholz(e, p, i, TB_FIDE_MEDIAN2, pAcc);
}

/* Fore Buchholz of player q in point units, as a term: AOB/F averages it
** over the opponents, and the term cache keeps each player's once. */
static i64 fore_buchholz_units(const TbEvent *e, const TbParams *p, int q) {
  return fore_buchholz_cut(e, p, q, TB_FIDE_ALL);
}

static void add_fore_buchholz(TbAcc *pAcc, const TbEvent *e, const TbParams *p,
                              int q) {
  tb_acc_add(pAcc, fore_buchholz_units(e, p, q), 1);
}

/* 8.2 (2026): AOB over the opponents' Fore Buchholz, AOB/F. */
void tb_fide_aob_fore(const TbEvent *e, const TbParams *p, int i,
                      TbAcc *pAcc) {
  aob(e, p, i, tb_term_ints(e, add_fore_buchholz, p), fore_buchholz_units,
      1, pAcc);
}

/*
** TPN (2026 rules): the tournament pairing number, lower first: the start
** number, an integer player id (a TRF file's); a text id is no number, and
** such a player gets NULL (ranked last).  The last resort before lots: it
** separates any two players.
*/
void tb_fide_pairing_number(const TbEvent *e, const TbParams *p, int i,
                            TbAcc *pAcc) {
  const TbKey *k = &e->aPlayer[i].key;
  (void)p;
  if (k->eType != SQLITE_INTEGER) {
    pAcc->bNull = 1;
    return;
  }
  tb_acc_add(pAcc, k->i, 1);
}

/*
** STD (2026 rules, 7.7): standard points, 1 for each round in which the
** player scored more than the scheduled opponent, 1/2 for each round they
** scored the same, and for a round without an opponent the points awarded
** compared with a draw's.  It is the score counted 1, 1/2, 0 whatever the
** event's scoring; with chess's own it differs from the points only where
** both sides of a game scored nothing (a double loss): the same, so 1/2.
** A forfeit is obtained "without playing" (7.7's second clause), so it is
** compared with a draw's points, not with the scheduled opponent's: a
** double forfeit is 0 for both, as their points are (a forfeit lost stays
** unplayed in a round robin's Type B tie-breaks too, 15.2).
*/
void tb_fide_standard_points(const TbEvent *e, const TbParams *p, int i,
                             TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  i64 nHalves = 0;
  int j;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    int eOpp;
    if (s->iOpp < 0 || s->eKind != TB_PLAYED) {
      i64 n = s->eOutcome == TB_WIN    ? p->nMatchWin
              : s->eOutcome == TB_DRAW ? p->nMatchDraw
                                       : p->nMatchLoss;
      nHalves += n > p->nMatchDraw ? 2 : n == p->nMatchDraw;
      continue;
    }
    if (s->eOutcome != TB_LOSS) {
      nHalves += s->eOutcome == TB_WIN ? 2 : 1;
      continue;
    }
    /* a loss: less than the opponent, unless they scored nothing too */
    eOpp = TB_WIN;
    {
      const TbSeat *o = tb_event_seat(e, s->iOpp, s->iRound);
      if (o) eOpp = o->eOutcome;
    }
    nHalves += eOpp == TB_LOSS;
  }
  tb_acc_add(pAcc, nHalves, 2);
}
