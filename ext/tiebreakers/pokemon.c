/*
** tiebreakers/pokemon.c: tiebreakers of the Play! Pokemon Tournament Rules Handbook
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
#include "../tiebreak_int.h"
#include "tiebreakers.h"

#include <stdlib.h>
#include <string.h>

/* The round a player's values are taken at, within standings as of iRound:
** the round they dropped after when drops are frozen, else iRound. */
static int frozen_round(const TbEvent *e, const TbParams *p, int i, int iRound) {
  int iLast = e->aPlayer[i].rec.iLastRound;
  return p->bFreezeDrops && iLast < iRound ? iLast : iRound;
}

/*
** What the win %s as of a round need, kept while an event is ranked (in
** the term cache, tb_terms_extra): without it a win % as of round R walks
** the player's seats up to R, and the averages ask it once per opponent
** and per round asked.
**
**   aCount    per seat, the player's matches against an opponent, wins and
**             ties up to it: a win % as of R is a binary search;
**   queries   with frozen drops, the owp of player o as of an earlier
**             round R than o's last is asked by the oowp of each opponent
**             who dropped after R.  Each player's such rounds are listed
**             (aQRound[aQStart[o] .. aQStart[o+1]), ascending) and their
**             owps computed for all of them in one sweep over o's seats.
*/
typedef struct PkCount {
  int nPlayed, nWin, nTie;
} PkCount;

typedef struct PkCache {
  TbParams params;            /* the queries' values are under these */
  PkCount *aCount;            /* per seat of aSeat */
  int *aQStart;               /* per player, and one past the last */
  int *aQRound;
  int nQ;                     /* queries: aQRound[0 .. nQ) */
  TbAcc *aQValue[2];          /* [bExact], per query; NULL until needed */
  unsigned char *aQDone[2];   /* [bExact], per player: its queries done */
} PkCache;

static const char pkKey = 0;  /* its key in the term cache */

static void pk_free(void *pArg) {
  PkCache *c = (PkCache *)pArg;
  int m, q;
  if (c == 0) return;
  for (m = 0; m < 2; m++) {
    /* every kept value is a zero from when its array was made, or a value */
    for (q = 0; c->aQValue[m] && q < c->nQ; q++) {
      tb_acc_clear(&c->aQValue[m][q]);
    }
    sqlite3_free(c->aQValue[m]);
    sqlite3_free(c->aQDone[m]);
  }
  sqlite3_free(c->aCount);
  sqlite3_free(c->aQStart);
  sqlite3_free(c->aQRound);
  sqlite3_free(c);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The rounds at which each player's owp is asked before their last. */
static int pk_queries(PkCache *c, const TbEvent *e) {
  int i, j, n = 0;
  c->aQStart = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nPlayer + 1));
  c->aQRound = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nSeat + 1));
  if (c->aQStart == 0 || c->aQRound == 0) return SQLITE_NOMEM;
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    int n0 = n, iLast = pl->rec.iLastRound;
    c->aQStart[i] = n;
    if (!c->params.bFreezeDrops) continue;
    for (j = 0; j < pl->nSeat; j++) {
      int iOpp = e->aSeat[pl->iSeat + j].iOpp;
      if (iOpp < 0) continue;
      if (e->aPlayer[iOpp].rec.iLastRound < iLast) {
        c->aQRound[n++] = e->aPlayer[iOpp].rec.iLastRound;
      }
    }
    if (n - n0 > 1) {
      int k, h = n0 + 1;
      qsort(&c->aQRound[n0], (size_t)(n - n0), sizeof(int), cmp_int);
      for (k = n0 + 1; k < n; k++) {
        if (c->aQRound[k] != c->aQRound[h - 1]) c->aQRound[h++] = c->aQRound[k];
      }
      n = h;
    }
  }
  c->aQStart[e->nPlayer] = n;
  c->nQ = n;
  return SQLITE_OK;
}

/* The cache of this ranking, made on first use; NULL: compute directly. */
static PkCache *pk_cache(const TbEvent *e, const TbParams *p) {
  PkCache *c = (PkCache *)tb_terms_extra(e, &pkKey);
  int i, j;
  if (c) return c;
  if (e->pTerms == 0) return 0;
  c = sqlite3_malloc64(sizeof(*c));
  if (c == 0) return 0;
  memset(c, 0, sizeof(*c));
  c->params = *p;
  c->aCount = sqlite3_malloc64(sizeof(PkCount) * ((sqlite3_uint64)e->nSeat + 1));
  if (c->aCount == 0 || pk_queries(c, e) != SQLITE_OK) {
    pk_free(c);
    return 0;
  }
  for (i = 0; i < e->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[i];
    PkCount n = {0, 0, 0};
    for (j = 0; j < pl->nSeat; j++) {
      const TbSeat *s = &e->aSeat[pl->iSeat + j];
      if (s->iOpp >= 0) {
        n.nPlayed++;
        n.nWin += s->eOutcome == TB_WIN;
        n.nTie += s->eOutcome == TB_DRAW;
      }
      c->aCount[pl->iSeat + j] = n;
    }
  }
  if (tb_terms_set_extra(e, &pkKey, c, pk_free) != SQLITE_OK) return 0;
  return c;
}

/* Player i's matches, wins and ties against opponents up to iRound. */
static PkCount counts_at(const TbEvent *e, const PkCache *c, int i,
                         int iRound) {
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  PkCount n = {0, 0, 0};
  int j;
  if (c) {
    /* the last seat at or before iRound: seats are ordered by round */
    int lo = 0, hi = pl->nSeat;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (a[mid].iRound <= iRound) lo = mid + 1; else hi = mid;
    }
    if (lo > 0) n = c->aCount[pl->iSeat + lo - 1];
    return n;
  }
  for (j = 0; j < pl->nSeat && a[j].iRound <= iRound; j++) {
    if (a[j].iOpp < 0) continue;
    n.nPlayed++;
    n.nWin += a[j].eOutcome == TB_WIN;
    n.nTie += a[j].eOutcome == TB_DRAW;
  }
  return n;
}

/*
** Player i's win % in the standings as of iRound, into pAcc.  Returns 0
** when the player played no round against an opponent by then (no win %).
*/
static int add_win_pct(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i,
                       int iRound) {
  const TbPlayer *pl = &e->aPlayer[i];
  PkCount n = counts_at(e, pk_cache(e, p), i, iRound);
  TbFrac f;
  if (n.nPlayed == 0) return 0;
  /* a tie credit is a fraction of 64-bit terms in [0, 1]: 128 bits hold
  ** counts below 2^31 times either part, and tb_frac_cmp compares any two
  ** such fractions exactly */
  f.num = (i128)n.nWin * p->tieCredit.den + (i128)n.nTie * p->tieCredit.num;
  f.den = (i128)n.nPlayed * p->tieCredit.den;
  /* below the floor, and above the cap for a player gone before iRound */
  if (tb_frac_cmp(&f, &p->floor) < 0) {
    f = p->floor;
  } else if (pl->rec.iLastRound < iRound && !tb_was_cut(e, i) &&
             tb_frac_cmp(&f, &p->cap) > 0) {
    f = p->cap;
  }
  tb_acc_add_frac(pAcc, &f);
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
** The owps of player o as of each of its query rounds, in one walk over its
** seats: an opponent gone before the round asked has its final win % (the
** cap applies) from then on, so it is added once to a running sum; only
** those still playing are computed again for each round.
*/
static int pk_sweep(PkCache *c, const TbEvent *e, const TbParams *p, int o,
                    int bExact) {
  const TbPlayer *pl = &e->aPlayer[o];
  const TbSeat *a = &e->aSeat[pl->iSeat];
  int q0 = c->aQStart[o], q1 = c->aQStart[o + 1], q, j = 0, nOpp = 0;
  int nLive = 0, k, h;
  int *aLive;
  TbAcc settled;
  if (c->aQValue[bExact] == 0) {
    sqlite3_uint64 nQ = (sqlite3_uint64)c->aQStart[e->nPlayer] + 1;
    c->aQValue[bExact] = sqlite3_malloc64(sizeof(TbAcc) * nQ);
    c->aQDone[bExact] = sqlite3_malloc64((sqlite3_uint64)e->nPlayer + 1);
    if (c->aQValue[bExact] == 0 || c->aQDone[bExact] == 0) {
      sqlite3_free(c->aQValue[bExact]);
      sqlite3_free(c->aQDone[bExact]);
      c->aQValue[bExact] = 0;
      c->aQDone[bExact] = 0;
      return SQLITE_NOMEM;
    }
    memset(c->aQDone[bExact], 0, (size_t)e->nPlayer + 1);
    for (q = 0; q < c->nQ; q++) tb_acc_init(&c->aQValue[bExact][q], bExact);
  }
  aLive = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)pl->nSeat + 1));
  if (aLive == 0) return SQLITE_NOMEM;
  tb_acc_init(&settled, bExact);
  for (q = q0; q < q1; q++) {
    int iRound = c->aQRound[q];
    TbAcc *v = &c->aQValue[bExact][q];
    int rc = tb_poll(e->pProbe, 1 + nLive);
    if (rc != SQLITE_OK) {
      tb_acc_clear(&settled);
      sqlite3_free(aLive);
      return rc;
    }
    for (; j < pl->nSeat && a[j].iRound <= iRound; j++) {
      if (a[j].iOpp < 0) continue;
      aLive[nLive++] = a[j].iOpp;
      nOpp++;
    }
    tb_acc_clear(v);
    tb_acc_init(v, bExact);
    for (k = h = 0; k < nLive; k++) {
      int x = aLive[k];
      if (e->aPlayer[x].rec.iLastRound < iRound) {
        add_win_pct(&settled, e, p, x, iRound); /* final from now on */
      } else {
        add_win_pct(v, e, p, x, iRound);
        aLive[h++] = x;
      }
    }
    nLive = h;
    tb_acc_add_acc(v, &settled);
    tb_acc_mean(v, nOpp);
  }
  tb_acc_clear(&settled);
  sqlite3_free(aLive);
  c->aQDone[bExact][o] = 1;
  return SQLITE_OK;
}

/*
** No memory for what the sweep keeps: the computation stops with
** SQLITE_NOMEM (at the ranking's next poll).  Computing the value otherwise
** would add the same terms in another order, and could give another last
** bit than the sweep does when memory suffices.
*/
static int pk_nomem(const TbEvent *e) {
  if (e->pProbe == 0) return 0;
  if (e->pProbe->rc == SQLITE_OK) e->pProbe->rc = SQLITE_NOMEM;
  return 1;
}

/* The owp of player o as of iRound, before o's last round, into pAcc. */
static void add_owp_before_last(TbAcc *pAcc, const TbEvent *e,
                                const TbParams *p, int o, int iRound) {
  PkCache *c = pk_cache(e, p);
  TbAcc child;
  int bExact = pAcc->bExact, rc = SQLITE_OK;
  if (c == 0 && pk_nomem(e)) return;
  if (c && memcmp(&c->params, p, sizeof(*p)) == 0 &&
      ((c->aQDone[bExact] && c->aQDone[bExact][o]) ||
       (rc = pk_sweep(c, e, p, o, bExact)) == SQLITE_OK)) {
    int lo = c->aQStart[o], hi = c->aQStart[o + 1] - 1;
    while (lo <= hi) {
      int mid = (lo + hi) / 2;
      if (c->aQRound[mid] == iRound) {
        tb_acc_add_acc(pAcc, &c->aQValue[bExact][mid]);
        return;
      }
      if (c->aQRound[mid] < iRound) lo = mid + 1; else hi = mid - 1;
    }
  }
  if (rc == SQLITE_NOMEM && pk_nomem(e)) return;
  if (tb_stopped(e->pProbe)) return; /* interrupted: the ranking ends */
  /* not kept (another tiebreaker's parameters, no ranking): computed */
  tb_acc_init(&child, bExact);
  owp_at(&child, e, p, o, iRound);
  tb_acc_add_acc(pAcc, &child);
  tb_acc_clear(&child);
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

/* A player's owp as a term of their opponents' oowp (none: adds 0). */
static void add_owp(TbAcc *pAcc, const TbEvent *e, const TbParams *p, int i) {
  TbAcc child;
  tb_acc_init(&child, pAcc->bExact);
  tb_pokemon_owp(e, p, i, &child);
  tb_acc_add_acc(pAcc, &child);
  tb_acc_clear(&child);
}

/*
** Opponents' opponents' win %: the mean of the opponents' owp, each as the
** standings showed it then (frozen if that opponent had dropped).  That is
** the opponent's own owp (kept per player, tb_term_add) unless this player
** dropped before the opponent's last round: then as of this player's.
*/
void tb_pokemon_oowp(const TbEvent *e, const TbParams *p, int i, TbAcc *pAcc) {
  const TbPlayer *pl = &e->aPlayer[i];
  int iRound = frozen_round(e, p, i, e->iLastRound);
  int j, n = 0;
  if (tb_stopped(e->pProbe)) return;
  for (j = 0; j < pl->nSeat; j++) {
    const TbSeat *s = &e->aSeat[pl->iSeat + j];
    if (s->iRound > iRound) break;
    if (s->iOpp < 0) continue;
    if (frozen_round(e, p, s->iOpp, iRound) ==
        frozen_round(e, p, s->iOpp, e->iLastRound)) {
      tb_term_add(pAcc, e, add_owp, p, s->iOpp);
    } else {
      add_owp_before_last(pAcc, e, p, s->iOpp, iRound);
    }
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
int tb_pokemon_head_to_head(const TbEvent *e, const TbParams *p,
                            const int *aPlayer, int n, TbFrac *aOut) {
  int j, k, nNet = 0;
  (void)p;
  for (k = 0; k < n; k++) aOut[k] = tb_frac(0, 1);
  if (n != 2) return SQLITE_OK;
  for (j = 0; j < e->aPlayer[aPlayer[0]].nSeat; j++) {
    const TbSeat *s = &e->aSeat[e->aPlayer[aPlayer[0]].iSeat + j];
    if (s->iOpp != aPlayer[1]) continue;
    if (s->eOutcome == TB_WIN) nNet++;
    if (s->eOutcome == TB_LOSS) nNet--;
  }
  if (nNet > 0) aOut[0] = tb_frac(1, 1);
  if (nNet < 0) aOut[1] = tb_frac(1, 1);
  return SQLITE_OK;
}
