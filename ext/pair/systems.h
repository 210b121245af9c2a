/*
** pair/systems.h: what pairings() and pairing_check() know of a system
** besides its function: the systems table (systems.c), a system string
** parsed with its options, and the state builder (state.c).
**
**   SELECT * FROM pairings(1, 'berger');
**   SELECT * FROM pairings(1, 'bracket(top=8)');
**   SELECT * FROM pairing_check(1, 'berger(rounds=10)');
*/
#ifndef TIEBREAK_SYSTEMS_H
#define TIEBREAK_SYSTEMS_H

#include "pairing.h"

/* What a system's rounds are (flags of its line in the systems table). */
#define TB_PAIR_DETERMINISTIC 0x01 /* one pairing for a state: checked
                                   ** against the rounds played */
#define TB_PAIR_SWISS 0x02         /* no rematch, one pairing-allocated bye
                                   ** a player */
#define TB_PAIR_ZERO_BYE 0x04      /* the player without an opponent scores
                                   ** nothing (a round robin's dummy) */
#define TB_PAIR_PLAYOFF 0x08       /* its rounds are the playoff */
#define TB_PAIR_ONE_GAME 0x20      /* a row is one game (chess): counts
                                   ** 0-0-0 with result NULL are a game not
                                   ** played yet, not a draw */
#define TB_PAIR_GAMES_MEET 0x40    /* only a game played is a meeting: a
                                   ** pair whose earlier game was a forfeit
                                   ** may be paired again (Dutch C1) */
#define TB_PAIR_COLOURS_ALTERNATE 0x80 /* round 1's colours alternate down
                                   ** the pairing numbers (Dutch): without
                                   ** XXC, the first colour is read from the
                                   ** rounds played */
#define TB_PAIR_COLOURS_TABLE 0x100 /* the colours are the tables' (berger):
                                   ** without XXC, the first colour is the
                                   ** one most games of the first round
                                   ** played show */
#define TB_PAIR_SCHEDULE 0x10      /* its rounds are a schedule of the
                                   ** pairing numbers alone (a round robin):
                                   ** the rounds played must follow it */

/* A system string parsed: 'dutch(seed=7, rounds=9)'. */
typedef struct TbPairSpec {
  const TbPairSystem *pSystem;
  unsigned mFlags;            /* TB_PAIR_* */
  TbPolicy policy;            /* ranks the standings before the round */
  i64 iSeed;
  int nRounds;                /* 0: not given */
  int nAccelerated;
  int nTop;                   /* 0: not given */
  unsigned mSet;              /* options given (bit per option) */
  unsigned mOptions;          /* options the system reads (bit per option) */
} TbPairSpec;

int tb_pair_spec_parse(const char *zSpec, TbPairSpec *pSpec, char **pzErr);
int tb_pair_schedule_agrees(const TbPairSpec *pSpec, int nRounds,
                            char **pzErr);
int tb_pair_round_scheduled(const TbPairSpec *pSpec, int nRounds, int iRound,
                            char **pzErr);
int tb_pair_system_count(void);

/*
** The state before a round, built from the event's rows (state.c), with
** what it owns.  Read the event through pReader (opened on pSrc), as
** standings() does.
*/
typedef struct TbPairBuild {
  TbPairState state;
  TbEvent event;              /* every row of the event: the players' ids */
  TbStandings standings;      /* of every round: the standings before a
                              ** round after the last row, read once */
  int *aPlace;                /* aPlayer index of event player i, or -1 */
  int iLastPlayed;            /* last round with a game (or a playoff match) */
  TbPairHistory *aHist;       /* every player's history, one block */
  char *zRoundRecords;        /* a TRF file's 240 (byes), 250 and XXA
                              ** (virtual points), 260 (prohibited pairings)
                              ** records, a line each */
  int *aForbidden;            /* state.aForbidden, owned */
  i64 *aVirtual;              /* every player's aVirtual, one block, or NULL */
  int bBakuType;              /* a TRF's record 192 names Baku acceleration */
  int bStartNumbers;          /* pairing numbers are a TRF file's start
                              ** numbers (else by rating, then id) */
} TbPairBuild;

int tb_pair_build_open(TbConn *pConn, TbReader *pReader, const TbSource *pSrc,
                       const TbPairSpec *pSpec, TbPairBuild *pBuild,
                       char **pzErr);
int tb_pair_build_round(TbConn *pConn, TbReader *pReader, const TbSource *pSrc,
                        const TbPairSpec *pSpec, int iRound,
                        TbPairBuild *pBuild, char **pzErr);
void tb_pair_build_free(TbPairBuild *pBuild);

#endif /* TIEBREAK_SYSTEMS_H */
