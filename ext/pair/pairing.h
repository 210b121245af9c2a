/*
** pairing.h: what every pairing system reads and writes.
**
** pairings() builds the state before the round to pair (TbPairState) from
** the same tables and file readers as standings(): the players in
** pairing-number order, each with the rounds already played and what the
** arbiter entered for the round to pair (a requested bye, an absence).  A
** system reads that state and fills the round's tables (TbPairRound); one
** file per system, registered by one line in the systems table.  Systems
** that choose among many pairings at once use the matching core
** (matching.c); none reads SQL, so each is tested on states built by hand.
*/
#ifndef TIEBREAK_PAIRING_H
#define TIEBREAK_PAIRING_H

#include "tiebreak_int.h"

/* The colour of a seat (chess: player_a is White). */
enum { TB_COLOUR_BLACK = -1, TB_COLOUR_NONE = 0, TB_COLOUR_WHITE = 1 };

/* One player's one earlier round. */
typedef struct TbPairHistory {
  int iOpp;                   /* opponent's index in aPlayer, -1: none (a bye,
                              ** an absence, a loss with no opponent) */
  signed char eColour;        /* TB_COLOUR_*: the seat, NONE without a game */
  unsigned char eKind;        /* TB_PLAYED, TB_PAB, TB_HALF_BYE, TB_ZERO_BYE,
                              ** TB_FORFEIT_WIN, TB_FORFEIT_LOSS (tiebreak_int.h) */
  unsigned char eOutcome;     /* TB_WIN, TB_DRAW, TB_LOSS */
  i64 nPoints;                /* points the round gave, 1/nPointScale units */
} TbPairHistory;

/* Whether the round was a game played over the board (not a forfeit, a bye
** or an absence): it gives colours, and for the Dutch system only such a game
** is a meeting (a forfeit is not, C.04.3 C1). */
int tb_pair_game_played(const TbPairHistory *h);

/* One player as the round to pair sees them. */
typedef struct TbPairPlayer {
  int iPlayer;                /* index in the event's aPlayer: the id */
  i64 nScore;                 /* points before the round, 1/nPointScale units */
  int bRated;                 /* iRating was given */
  i64 iRating;
  int iStanding;              /* place in the standings before the round, from
                              ** 1 (seeds a bracket, ranks for the bye) */
  int iDivision;              /* age division in a combined pod; 0: none */
  int bAbsent;                /* not paired this round: a requested bye or an
                              ** absence entered for it, dropped, withdrawn */
  TbPairHistory *aHist;       /* rounds 1 .. iRound - 1: aHist[r - 1] */
  const i64 *aVirtual;        /* virtual points (acceleration) counted before
                              ** rounds 1 .. iRound: aVirtual[r - 1], as a
                              ** TRF's 250 or XXA records give them; NULL:
                              ** only nAccelerated's (Baku) */
} TbPairPlayer;

/* The state before the round to pair. */
typedef struct TbPairState {
  int nPlayer;
  TbPairPlayer *aPlayer;      /* pairing-number order: aPlayer[0] is number 1 */
  int iRound;                 /* the round to pair, from 1 */
  int nRounds;                /* rounds scheduled; 0: not known */
  int eFirstColour;           /* colour of pairing number 1 in round 1: TRF
                              ** XXC or 152, else (dutch) as the first round
                              ** with a game gave it, else TB_COLOUR_WHITE */
  i64 nPointScale;            /* points are counted in 1/nPointScale */
  i64 nWin, nDraw, nLoss, nPab; /* what a round gives, in those units */
  int nForbidden;             /* pairs that must not meet (TRF-2026) ... */
  const int *aForbidden;      /* ... as index pairs: aForbidden[2k], [2k+1] */
  int nAccelerated;           /* Baku acceleration (C.04.5.1): the rounds
                              ** accelerated, ceil(nRounds / 2) by the rule;
                              ** 0: none (players with aVirtual: theirs) */
  sqlite3_uint64 iSeed;       /* makes every random choice repeatable */
  TbProbe *pProbe;            /* interrupts: tb_poll() in every long loop */
  int iFirstPlayoff;          /* first playoff round (phase 'playoff'):
                              ** earlier or the round to pair; 0: none */
  int nTop;                   /* bracket: players in the top cut (top=N) */
} TbPairState;

/* One table of the round. */
typedef struct TbPairTable {
  int iA, iB;                 /* indexes in aPlayer; iA is White in chess;
                              ** iB -1: the pairing-allocated bye */
  const char *zWhy;           /* why this pair (static text), or NULL */
} TbPairTable;

/* The round a system makes, in table order (the first table first). */
typedef struct TbPairRound {
  int nTable, nAlloc;
  TbPairTable *aTable;        /* sqlite3_malloc64; tb_pair_round_free() */
} TbPairRound;

/* A system: pairs the round the state asks for.  Returns SQLITE_OK, or an
** error code with *pzErr (sqlite3_malloc'd) naming the problem. */
typedef int (*TbPairFn)(const TbPairState *pState, TbPairRound *pRound,
                        char **pzErr);

typedef struct TbPairSystem {
  const char *zName;          /* as pairings() takes it: 'dutch', 'berger' */
  TbPairFn xPair;
} TbPairSystem;

/* systems.c: a round's tables (tb_pair_round_add appends one) and the
** systems table. */
int tb_pair_round_add(TbPairRound *pRound, int iA, int iB, const char *zWhy);
void tb_pair_round_free(TbPairRound *pRound);

/* The systems (one file each). */
int tb_pair_berger(const TbPairState *pState, TbPairRound *pRound,
                   char **pzErr);
int tb_pair_bracket(const TbPairState *pState, TbPairRound *pRound,
                    char **pzErr);
int tb_pair_dutch(const TbPairState *pState, TbPairRound *pRound,
                  char **pzErr);                       /* dutch.c */

/* ------------------------------------------------------ the matching core */

/*
** matching.c: exact maximum-weight matchings (Edmonds' blossom algorithm,
** integer duals kept doubled), for every system that pairs by weights.
** A weight is an integer of nW 64-bit words, least significant first:
** one word (int64) for an edge list, as many as the criteria need for the
** dense form.  Every call returns SQLITE_OK, SQLITE_NOMEM, the probe's
** error (an interrupt) or SQLITE_MISUSE (arguments out of range).
*/
typedef sqlite3_uint64 TbWord;

/* One candidate pair of a matching: vertices i and j (i != j), weight w. */
typedef struct TbMatchEdge {
  int i, j;
  i64 w;
} TbMatchEdge;

/* tb_match_weighted() flags. */
#define TB_MATCH_MAXCARD 1    /* the most edges first, then the most weight */
#define TB_MATCH_WMAX ((i64)1 << 58)   /* |w| at most this */
#define TB_MATCH_NMAX (1 << 28)        /* vertices at most this */
#define TB_MATCH_DENSE_NMAX 32767      /* the dense form's (pair i*n+j an int) */

/*
** The edge-list form, solved once.  aMate[v] receives v's partner or -1.
** aDual, when not NULL, receives the vertex duals, doubled: every edge
** (i, j, w) of the graph satisfies aDual[i] + aDual[j] + (blossom terms,
** >= 0) >= 2 w, with equality on matched edges; a pair outside the graph
** for which aDual[i] + aDual[j] >= 2 w holds could not improve a perfect
** matching.  SQLITE_MISUSE: an edge out of range, a loop, a weight beyond
** WMAX.
*/
int tb_match_weighted(int nVertex, int nEdge, const TbMatchEdge *aEdge,
                      int mFlags, TbProbe *pProbe, int *aMate, i64 *aDual);

/* The same, with each vertex's outermost blossom at the end (aTop[v], the
** vertex itself when in none) and that blossom's doubled dual (aTopZ[v],
** 0 for none): two vertices of one outermost blossom have at least
** aTopZ more slack than their vertex duals say. */
int tb_match_weighted_ex(int nVertex, int nEdge, const TbMatchEdge *aEdge,
                         int mFlags, TbProbe *pProbe, int *aMate, i64 *aDual,
                         int *aTop, i64 *aTopZ);

/*
** The dense form: the complete graph on n vertices whose pair {i,j} weighs
** aWeight[(i*n + j)*nW ...] (the caller's matrix, symmetric; zero: no
** pair), kept with its optimal duals between solves so that a change at a
** few vertices costs a few augmentations.  The weights must leave their
** five top bits clear (duals stay below twice the largest weight, slacks
** within four times it either way).  After changing the pairs of vertex
** v, call tb_match_touch(v) (v's dual covers its new weights; v keeps its
** partner when that pair still needs the largest dual of v's pairs, else
** v and its partner leave the matching and their blossoms), then solve
** again.  A pair is in the graph while its weight is not zero.  Beside
** the caller's weights the matcher keeps O(n) per vertex, nothing a pair.
**
**   tb_match_open_dense(n, nW, aWeight, pProbe, &pMatcher);
**   tb_match_solve(pMatcher);          ... tb_match_mate(pMatcher, v) ...
**   (change the pairs of v)  tb_match_touch(pMatcher, v);  tb_match_solve(pMatcher);
**   tb_match_remove(pMatcher, v);      v leaves the graph for good
**   tb_match_close(pMatcher);
** A stage after a solve's first grows its trees along tight pairs only and
** scans every pair of its vertices only when it needs a dual step;
** tb_match_full_scans(pMatcher) makes each stage scan every pair at once,
** the pairs to labeled T-vertices too: the same matching, slower (tests
** compare the two).
*/
typedef struct TbMatcher TbMatcher;
int tb_match_open_dense(int nVertex, int nW, const TbWord *aWeight, TbProbe *pProbe,
                        TbMatcher **ppOut);
int tb_match_solve(TbMatcher *p);
int tb_match_mate(const TbMatcher *p, int v);
void tb_match_touch(TbMatcher *p, int v);
void tb_match_remove(TbMatcher *p, int v);
void tb_match_full_scans(TbMatcher *p);
void tb_match_close(TbMatcher *p);

/*
** The dense form without the matrix: xWeight(pArg, i, j, aOut) gives pair
** {i,j}'s weight (i != j, either order: the same value, the same rules as
** the matrix's), written into aOut (nW words) or kept by the caller; the
** pointer it returns is read before the next call.  The caller keeps what
** makes the weights, O(n) or what it needs, instead of n x n of them.
*/
typedef const TbWord *(*TbMatchWeightFn)(void *pArg, int i, int j, TbWord *aOut);
int tb_match_open_dense_fn(int nVertex, int nW, TbMatchWeightFn xWeight, void *pArg,
                           TbProbe *pProbe, TbMatcher **ppOut);

/*
** With the weight function, optionally the caller's slack of pair {i,j}
** under the duals ui and uj (nW words each): r = ui + uj - 2 w(i,j) in one
** pass over what makes the weight, instead of the weight made, then read
** again; returns 0, or -1 when the pair has no weight (r as it was).  The
** scans of the pairs ask it; the weight function serves the rest.
*/
typedef int (*TbMatchSlackFn)(void *pArg, int i, int j, const TbWord *ui, const TbWord *uj,
                              TbWord *r);
void tb_match_slack_fn(TbMatcher *p, TbMatchSlackFn xSlack);

/*
** And optionally the sign of pair {i,j}'s slack under the duals ui and uj
** (-1, 0 or 1), or -2 when the pair has no weight.  A list of a vertex's
** tight pairs (slack 0 or less) asks it of every other vertex, and a
** vertex's new dual (the least that covers its pairs) whether each pair
** needs more: most need not, and the caller tells them without summing
** every word.  It must be exact: a pair called tight that is not breaks
** the matching (and one missed costs a stage scanned again in full).
*/
typedef int (*TbMatchSignFn)(void *pArg, int i, int j, const TbWord *ui, const TbWord *uj);
void tb_match_sign_fn(TbMatcher *p, TbMatchSignFn xSign);

/* ------------------------------------------------- Swiss for match points */

/* What a Swiss pairing did, for tests and benchmarks. */
typedef struct TbSwissInfo {
  int *aPos;                  /* in: nPlayer entries or NULL; out: each
                              ** present player's place in the layout */
  int nSolve;                 /* matchings computed */
  int nWidth;                 /* candidate width that was certified */
  int bRematchPass;           /* rematch pairs were candidates */
  int bCertified;             /* the optimum over every pair, proved */
  int nByeCap;                /* bye ranks counted (all eligible players
                              ** unless the weights could not hold them) */
} TbSwissInfo;

/* swiss.c: 'mtg' and 'pokemon' (docs/pairing-swiss.md). */
int tb_pair_mtg(const TbPairState *pState, TbPairRound *pRound, char **pzErr);
int tb_pair_pokemon(const TbPairState *pState, TbPairRound *pRound, char **pzErr);

/* Both, with the first candidate width K0 (>= 2) and what happened. */
int tb_swiss_pair(const TbPairState *pState, int K0, TbPairRound *pRound,
                  char **pzErr, const char *zSystem, TbSwissInfo *pInfo);

#endif /* TIEBREAK_PAIRING_H */
