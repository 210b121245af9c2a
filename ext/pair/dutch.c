/*
** dutch.c: the FIDE Dutch System (C.04.3, in force from 1 February 2026).
**
**   SELECT * FROM pairings('dutch', ...);   -- the round to pair, by table
**
** The rules pair the score brackets from the top down; each bracket picks,
** among the pairings that keep the rest of the round pairable, the one that
** best meets the quality criteria in their order, then the first in the
** order of transpositions and exchanges.  Here every criterion is a field
** of one wide integer weight per pair of players, the more important
** criteria in the higher bits, so that a maximum-weight matching meets
** them in their order (the matching core, matching.c).  Bracket by bracket, the weights
** of the bracket's pairs are set, and the bracket's choices (which players
** move down, which are exchanged between S1 and S2, who meets whom) are
** fixed one player at a time by nudging one player's weights and solving
** again, so that the round stays completable at every step.  No weight is
** stored: a pair's key of 32 bits (which criteria's weight, and what the
** steps added) is made when the matcher reads the pair, from the round's
** and the bracket's O(n) state (key_of), and the weight from the key and
** the two players.
**
** Readings of the rules are in docs/pairing-dutch.md.
*/
#include "pairing.h"
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#ifdef DUTCH_CHECK_KEYS
#include <stdio.h>
#endif

enum { FLOAT_DOWN, FLOAT_UP, FLOAT_NONE };

/* A pair's key is made on every read of its weight, slack or sign: the
** small functions it is made of are inlined into the matcher's calls. */
#if defined(__GNUC__)
#define DUTCH_INLINE inline __attribute__((always_inline))
#else
#define DUTCH_INLINE inline
#endif
#if defined(_MSC_VER)
#define DUTCH_NOINLINE __declspec(noinline)
#elif defined(__GNUC__)
#define DUTCH_NOINLINE __attribute__((noinline))
#else
#define DUTCH_NOINLINE
#endif

#ifdef __SIZEOF_INT128__
/* A signed carry along a wide value's 64-bit words. */
__extension__ typedef __int128 DutchCarry;
#endif

/* One player who takes part in the round, as the criteria see them. */
typedef struct DutchPlayer {
  int iPlayer;                /* index in aPlayer: the pairing number - 1 */
  int iNumber;                /* pairing number among the players who take
                              ** part in the event so far, from 0 */
  i64 nScore;                 /* with the acceleration's virtual points */
  i64 nRaw;                   /* without them (the order of the tables) */
  int nImbalance;             /* |whites - blacks| */
  int ePref;                  /* the colour preference, TB_COLOUR_* */
  int eRepeated;              /* colour of the last two games, if equal */
  int bAbsolute, bStrong;
  int nPlayed;                /* games played */
  int bByeEligible;           /* no PAB, no point without playing, yet */
  int eFloat1, eFloat2;       /* the float one and two rounds back */
} DutchPlayer;

/* What a pair's key reads of each player (key_of), in one place. */
typedef struct KeyPlayer {
  sqlite3_uint64 mask;        /* bit y % 64 set for each y on the player's
                              ** list of pairs that may not meet: most
                              ** pairs need no search of it */
  int pos;                    /* position in the bracket, or -1 */
  unsigned char absolute;     /* the absolute colour preference: 1 white,
                              ** 2 black, 0 none */
  unsigned char c9;           /* C9's term is not 0 in the player's pairs
                              ** (the bye's score, a game rank) */
} KeyPlayer;

/* A weight made lately, kept while its pair's key is the same (a scan of
** a player's pairs reads them again stage after stage). */
typedef struct WeightSlot { int h, l; unsigned x; } WeightSlot;

/* The fields of a pair's weight (weight_make), from the top: C4-C5 (the
** bye), C6-C7 in the bracket and in the next (N), C9, colours C10-C13,
** floats C14-C17 (F: counts, S: by score; 1 and 2 rounds back).  F_C7,
** F_N7, F_S*: a bit a score group (aShift) above the field's lowest, for
** the score groups of the bracket being paired (bracket_layout). */
enum {
  F_TOP, F_C6, F_C7, F_N6, F_N7, F_C9, F_C10, F_C11, F_C12, F_C13,
  F_FA1, F_FB1, F_FA2, F_FB2, F_SA1, F_SB1, F_SA2, F_SB2, F_COUNT
};

typedef struct Dutch {
  const TbPairState *pState;
  int nPlayedRounds;          /* iRound - 1 */
  int n;                      /* players in the round, sorted */
  DutchPlayer *a;
  int *aNoMeetStart;          /* n+1: player i's pairs that may not meet
                              ** (met before, forbidden) are ... */
  int *aNoMeet;               /* ... aNoMeet[aNoMeetStart[i] ..
                              ** aNoMeetStart[i+1]), sorted: O(rows) */
  KeyPlayer *aKP;             /* per player: what the keys read */
  int *aShift;                /* per player in the bracket: the bit of
                              ** their score group in F_C7 ... */
  int *aScoreRank;            /* per player: the same over every score
                              ** group, the first solve's (start_odd_parts) */
  int nSizeBits, nGroupBits;  /* B: bits of the largest score group; G,
                              ** the bits of every score group's size */
  int nFieldBits;             /* the bits of F_C7 and its like: G, or what
                              ** a bracket's score groups need if less */
  int nW;                     /* words of a weight */
  int nWeightBits;            /* the weights' width, weight_bits() */
  int eOutside;               /* the kind of the pairs of a player out
                              ** of the bracket (key_of): K_ZERO before
                              ** the first weights */
  const struct Bracket *pBracket; /* the bracket being paired, or NULL */
  unsigned aOutsideKey[2];    /* the key of a pair out of the bracket that
                              ** may meet, without and with a player of
                              ** C9's term (outside_keys) ... */
  unsigned aBye[2];           /* ... and its C9 bit */
#ifdef DUTCH_CHECK_KEYS
  unsigned *aKey;             /* n*n: each key as the steps set it, to
                              ** check key_of() against on every read */
#endif
  WeightSlot *aSlot;          /* mSlot+1 weights made lately ... */
  TbWord *aSlotWeight;        /* ... their values, nW words each */
  size_t mSlot;
  const TbWord *aZeroWeight;  /* nW words 0: the weight of no pair */
  TbWord *aSeatWeight;        /* nW words: the weight of a pair with the
                              ** bye's seat, after the first solve (see
                              ** seat_weight) */
  TbWord *aSeatScratch;       /* nW words: a seat's slack made */
  int bSeatChanged;           /* the seat's weights changed since the
                              ** last solve: it is reconsidered */
  int aAt[F_COUNT];           /* each field's lowest bit (field_bits) */
  TbWord *aPart;              /* the weights' parts (part_weights), nW
                              ** words each: per player, then the table */
  TbWord *aPairTab;           /* ... of the pair terms by their code */
  unsigned char *aKind;       /* per player: the kind (code_table) */
  unsigned short *aCode;      /* nKind x nKind x 2: a pair's code, and
                              ** P_HIGH's variant << 8 */
  int nKind;                  /* 0: no table */
  TbMatcher *pSolver;          /* the matching, kept between solves */
  int *aStable;               /* the last matching: mate, or self */
  unsigned char *aDirty;      /* whose pairs changed since the last solve */
  int nDirty;
  int *aFinal;                /* the mate fixed for good, or -1 */
  i64 nByeScore;
  int bSingleBye;             /* C9's ranks of unplayed games count */
  int *aGameRank;             /* by games played */
  TbProbe *pProbe;
} Dutch;

/* ------------------------------------------------------------ the weights */

static void wz(const Dutch *p, TbWord *x) { memset(x, 0, sizeof(TbWord) * (size_t)p->nW); }
/* x += v << s (v >= 0, small). */
static inline void wadd(const Dutch *p, TbWord *x, TbWord v, int s) {
  int i = s / 64, r = s % 64;
  TbWord lo = v << r, hi = r ? v >> (64 - r) : 0, c;
  if (v == 0 || i >= p->nW) return;
  x[i] += lo; c = x[i] < lo;
  for (i++; i < p->nW && (hi || c); i++) {
    TbWord t = x[i] + hi; TbWord c2 = t < hi;
    t += c; c2 += t < c; x[i] = t; c = c2; hi = 0;
  }
}
/* x -= v (v small). */
static void wsub(const Dutch *p, TbWord *x, TbWord v) {
  int i;
  for (i = 0; i < p->nW && v; i++) {
    TbWord b = x[i] < v;
    x[i] -= v; v = b;
  }
}
/*
** A pair's weight is named by a key of 32 bits (key_of), from which
** dutch_weight() makes it when the matcher reads it: which of the criteria's
** weights (the kind: weight_make() for the pair's place, or the first
** solve's), whether C9's term was in it, and the offset the bracket's
** steps added in the low bits (the order of transpositions and exchanges,
** the nudges), a signed integer below 2^27 in size (2^25 and a few times
** the players at most).  Keys are canonical, one per weight: 0 for no
** pair, the C9 bit only where the term is not 0; so a key that did not
** change is a weight that did not change, as the matching needs to know.
*/
enum { K_ZERO, K_START_ODD, K_OTHER, K_CUR, K_NEXT };
#define KEY_ZERO 0u
#define KEY_KIND(x) ((x) & 7u)
#define KEY_BYE 8u
#define KEY_BIAS ((i64)1 << 27)

/* The key with d added to its offset (d signed, small). */
static DUTCH_INLINE unsigned key_add(unsigned x, int d) {
  return x == KEY_ZERO ? x : x + ((unsigned)d << 4);
}
static DUTCH_INLINE unsigned key_of(const Dutch *p, int x, int y);

/* Player i's weights changed: the matching reconsiders i at the next
** solve. */
static void mark_dirty(Dutch *p, int i) {
  if (!p->aDirty[i]) { p->aDirty[i] = 1; p->nDirty++; }
}

/* A step is about to make the key of {i,j} x: i is the player whose pairs
** it rewrites, the one the matching reconsiders at the next solve if the
** key changes.  The step then sets the state key_of() reads, so that its
** key is x. */
static void kset(Dutch *p, int i, int j, unsigned x) {
#ifdef DUTCH_CHECK_KEYS
  p->aKey[(size_t)i * (size_t)p->n + (size_t)j] = x;
  p->aKey[(size_t)j * (size_t)p->n + (size_t)i] = x;
#endif
  if (!p->aDirty[i] && key_of(p, i, j) != x) mark_dirty(p, i);
}

/* Whether kset() on player i's pairs has anything to do: i is not yet to
** be reconsidered (a loop that only sets keys stops there; the check build
** stores every key). */
static int kset_wanted(const Dutch *p, int i) {
#ifdef DUTCH_CHECK_KEYS
  (void)p; (void)i;
  return 1;
#else
  return !p->aDirty[i];
#endif
}

static int bits_for(i64 x) { int b = 0; while (x > 0) { b++; x >>= 1; } return b; }

/* Whether x and y neither met before nor are forbidden to meet: a binary
** search of x's list, one entry a round or forbidden pair. */
static DUTCH_INLINE int may_meet(const Dutch *p, int x, int y) {
  int lo = p->aNoMeetStart[x], hi = p->aNoMeetStart[x + 1];
  if (x == y) return 0;
  if (!(p->aKP[x].mask >> (y & 63) & 1)) return 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (p->aNoMeet[mid] == y) return 0;
    if (p->aNoMeet[mid] < y) lo = mid + 1; else hi = mid;
  }
  return 1;
}

/* Whether the absolute criteria let the two meet (C1, C3, forbidden pairs).
** In the last round, a player with more than half the possible points may
** get a third colour in a row or an imbalance of three (C3's exception). */
static DUTCH_INLINE int compatible(const Dutch *p, int x, int y) {
  const TbPairState *s = p->pState;
  i64 nTop;
  if (!may_meet(p, x, y)) return 0;
  if (!p->aKP[x].absolute || p->aKP[x].absolute != p->aKP[y].absolute) return 1;
  if (s->nRounds <= 0 || p->nPlayedRounds < s->nRounds - 1) return 0;
  nTop = (i64)p->nPlayedRounds * (s->nWin > s->nDraw ? s->nWin : s->nDraw);
  return 2 * p->a[x].nScore > nTop || 2 * p->a[y].nScore > nTop;
}

static int is_bye_candidate(const Dutch *p, int x) {
  return p->a[x].bByeEligible && p->a[x].nScore <= p->nByeScore;
}


/* The bits of the fields below the top one (field_bits) with fields of G
** bits a score group's: the weights' width. */
static int weight_bits(const Dutch *p, int G) {
  int B = p->nSizeBits, t;
  t = B + G + B + G + 2 * B + 4 * B + 3 * B + 1;
  if (p->nPlayedRounds >= 1) t += 2 * B + 2 * G;
  if (p->nPlayedRounds >= 2) t += 2 * B + 2 * G;
  /* the first solve's weights (start_odd_parts) fit too */
  return t > p->nGroupBits + B ? t : p->nGroupBits + B;
}

/* The words of a weight (weight_bits).  Duals stay below twice the largest
** weight and slacks within four times it either way: five bits over the
** weights are room enough. */
static int weight_words(const Dutch *p, int G) {
  return (weight_bits(p, G) + 5 + 63) / 64;
}

/* Whether C9's term of the pair (h, l) is not 0. */
static DUTCH_INLINE int bye_term(const Dutch *p, int h, int l) {
  return p->bSingleBye && (p->aKP[h].c9 | p->aKP[l].c9);
}

/* The key of a pair that may meet, of kind eKind, with C9's bit bye (the
** first solve's weights have no C9 term), offset 0. */
static DUTCH_INLINE unsigned key_compose(int eKind, unsigned bye) {
  if (eKind == K_START_ODD) bye = 0;
  return (unsigned)eKind | bye | ((unsigned)KEY_BIAS << 4);
}

/* The key of the weight of kind eKind of the pair of x and y, offset 0. */
static DUTCH_INLINE unsigned pair_key(const Dutch *p, int x, int y, int eKind) {
  if (!compatible(p, x, y)) return KEY_ZERO;
  return key_compose(eKind, bye_term(p, x, y) ? KEY_BYE : 0);
}

/* Each field's lowest bit, aAt[F_*], fixed for the round: B bits a count
** of pairs (a score group's size), G a bit a score group; the floats' only
** for rounds played.  The lowest 3B+1 bits are room for the order of
** transpositions and exchanges (C.04.3 4.2-4.3). */
static void field_bits(Dutch *p) {
  int B = p->nSizeBits, G = p->nFieldBits, at = p->nWeightBits, k;
  int nBack = p->nPlayedRounds < 2 ? p->nPlayedRounds : 2;
  p->aAt[F_TOP] = at;
  p->aAt[F_C6] = at -= B; p->aAt[F_C7] = at -= G;
  p->aAt[F_N6] = at -= B; p->aAt[F_N7] = at -= G;
  p->aAt[F_C9] = at -= 2 * B;
  for (k = F_C10; k <= F_C13; k++) p->aAt[k] = at -= B;
  for (k = 0; k < 2 * nBack; k++) p->aAt[F_FA1 + k] = at -= B;
  for (k = 0; k < 2 * nBack; k++) p->aAt[F_SA1 + k] = at -= G;
}

/* x += 1 << s, or nothing if !v; s below the weights' width. */
static inline void wbit(const Dutch *p, TbWord *x, int v, int s) {
  int i = s >> 6;
  TbWord lo = (TbWord)(v != 0) << (s & 63);
  x[i] += lo;
  if (x[i] < lo) {
    for (i++; i < p->nW; i++) if (++x[i] != 0) break;
  }
}

/*
** The weight of a pair (h, l), h above l in the order of the round, a pair
** that may meet, of a kind (l in the bracket being paired, in the next
** score group, or other), with C9's term if the key says so: each field's
** term at its bit (field_bits).  C4-C5: as many pairs as possible, the bye
** to an eligible player; C6-C7: the most pairs in the bracket, the highest
** scores paired; the same for the next bracket (its completion); in the
** bracket, the colours C10-C13 and the floats C14-C17 (pair_code).
**
** It is made in parts, added up for each weight made (three sums of nW
** words, not a score of terms each placed with its carry): per player,
** P_HIGH + m as the pair's higher player in the bracket (its terms of C4-
** C7 and the floats, m: bit k set when the pair's lower player floated up
** k+1 rounds back and scores less, C14's !bUp then 0), P_LOW its terms as
** the lower (C5 and the floats), P_NEXT and P_OTHER as the higher of the
** other kinds, P_TOP as their lower (C5), P_ODD as the lower of the first
** solve's with an odd count (start_odd_parts); and a table
** of the terms of the pair at fixed bits, by their code (pair_code).
*/
enum { P_HIGH = 0, P_LOW = 4, P_NEXT, P_OTHER, P_TOP, P_ODD, P_COUNT };
#define PAIR_CODES 256

static DUTCH_INLINE TbWord *part_of(const Dutch *p, int i, int k) {
  /* by part, then player: a scan of one player's pairs reads the other
  ** players' same part in order */
  return p->aPart + ((size_t)k * (size_t)p->n + (size_t)i) * (size_t)p->nW;
}

/* The code of the pair's terms at fixed bits: C10-C13 (bits 0-3), and
** for each round back k the float counts of the pair (bits 4 + 2k, 5 + 2k);
** into *pm the mask of P_HIGH's variant. */
static unsigned code_of(const Dutch *p, const DutchPlayer *a, const DutchPlayer *b, int bAbove,
                        int *pm) {
  unsigned c = 0;
  int k, v, nBack = p->nPlayedRounds < 2 ? p->nPlayedRounds : 2;
  /* C10-C13, each 1 when met: the lower player's preference first */
  const DutchPlayer *ca = b, *cb = a;
  c |= (unsigned)(ca->nImbalance <= 1 || cb->nImbalance <= 1 || ca->ePref != cb->ePref);
  if (!ca->bAbsolute || !cb->bAbsolute || ca->ePref != cb->ePref) {
    v = 1;
  } else if (ca->nImbalance == cb->nImbalance) {
    v = ca->eRepeated == TB_COLOUR_NONE || ca->eRepeated != cb->eRepeated;
  } else {
    const DutchPlayer *cc = ca->nImbalance > cb->nImbalance ? cb : ca;
    v = cc->eRepeated != -ca->ePref;
  }
  c |= (unsigned)v << 1;
  c |= (unsigned)(ca->ePref != cb->ePref || ca->ePref == TB_COLOUR_NONE
                  || cb->ePref == TB_COLOUR_NONE) << 2;
  c |= (unsigned)((!ca->bStrong && !ca->bAbsolute) || (!cb->bStrong && !cb->bAbsolute)
                  || (ca->bAbsolute && cb->bAbsolute) || ca->ePref != cb->ePref) << 3;
  *pm = 0;
  for (k = 0; k < nBack; k++) {
    int fh = k == 0 ? a->eFloat1 : a->eFloat2, fl = k == 0 ? b->eFloat1 : b->eFloat2;
    int bUp = bAbove && fl == FLOAT_UP;
    c |= (unsigned)(!bAbove && fh == FLOAT_DOWN) << (4 + 2 * k);
    c |= (unsigned)!bUp << (5 + 2 * k);
    *pm |= bUp << k;
  }
  return c;
}

/* Whether x and y have the same terms in every pair (code_of's inputs). */
static int same_terms(const DutchPlayer *x, const DutchPlayer *y) {
  return x->ePref == y->ePref && x->nImbalance == y->nImbalance
      && x->eRepeated == y->eRepeated && x->bAbsolute == y->bAbsolute
      && x->bStrong == y->bStrong && x->eFloat1 == y->eFloat1 && x->eFloat2 == y->eFloat2;
}

/* The players' kinds by code_of's inputs, and each pair of kinds' code in a
** table (a scan asks a pair's code for each pair it reads); with more than
** DUTCH_KINDS kinds, no table: each code is worked out when asked. */
#define DUTCH_KINDS 128
static int code_table(Dutch *p) {
  int aRep[DUTCH_KINDS], nKind = 0, i, k, x, y, m;
  p->nKind = 0;
  for (i = 0; i < p->n; i++) {
    for (k = 0; k < nKind && !same_terms(&p->a[aRep[k]], &p->a[i]); k++) {}
    if (k == nKind) {
      if (nKind == DUTCH_KINDS) return SQLITE_OK;
      aRep[nKind++] = i;
    }
    p->aKind[i] = (unsigned char)k;
  }
  if (nKind == 0) return SQLITE_OK;
  p->aCode = sqlite3_malloc64(sizeof(unsigned short) * 2 * (size_t)nKind * (size_t)nKind);
  if (p->aCode == 0) return SQLITE_NOMEM;
  for (x = 0; x < nKind; x++) {
    for (y = 0; y < nKind; y++) {
      for (k = 0; k < 2; k++) {
        unsigned c = code_of(p, &p->a[aRep[x]], &p->a[aRep[y]], k, &m);
        p->aCode[(x * nKind + y) * 2 + k] = (unsigned short)(c | (unsigned)m << 8);
      }
    }
  }
  p->nKind = nKind;
  return SQLITE_OK;
}

/* The code of the pair (h, l), h above l: from the table by the players'
** kinds, else worked out. */
static DUTCH_INLINE unsigned pair_code(const Dutch *p, int h, int l, int *pm) {
  const DutchPlayer *a = &p->a[h], *b = &p->a[l];
  int bAbove = a->nScore > b->nScore;
  if (p->nKind > 0) {
    unsigned c = p->aCode[(p->aKind[h] * p->nKind + p->aKind[l]) * 2 + bAbove];
    *pm = (int)(c >> 8);
    return c & 0xff;
  }
  return code_of(p, a, b, bAbove, pm);
}

/*
** The first solve with an odd count asks whether the round is completable
** (C1-C5) and the lowest score that can take the bye.  Every pair (h, l),
** h < l, weighs 2 at bit G + B, and 1 more if l (so both) has the top
** score: the lower player's part, here.  The bye's seat weighs the rest
** (seat_weight).
*/
static void start_odd_parts(Dutch *p, int i) {
  TbWord *w = part_of(p, i, P_ODD);
  wz(p, w);
  wadd(p, w, 2, p->nGroupBits + p->nSizeBits);
  wadd(p, w, (TbWord)(p->a[i].nScore >= p->a[0].nScore), 0);
}

/* Makes player i's parts. */
static void player_parts(Dutch *p, int i) {
  const int *at = p->aAt;
  int k, m, nBack = p->nPlayedRounds < 2 ? p->nPlayedRounds : 2;
  const DutchPlayer *a = &p->a[i];
  int bNot = !is_bye_candidate(p, i);
  TbWord *w;
  for (m = 0; m < (1 << nBack); m++) {
    w = part_of(p, i, P_HIGH + m);
    wz(p, w);
    wadd(p, w, (TbWord)(1 + bNot), at[F_TOP]);
    wbit(p, w, 1, at[F_C6]);
    wbit(p, w, 1, at[F_C7] + p->aShift[i]);
    for (k = 0; k < nBack; k++) {
      int fh = k == 0 ? a->eFloat1 : a->eFloat2;
      wbit(p, w, fh == FLOAT_DOWN, at[F_SA1 + 2 * k] + p->aShift[i]);
      wbit(p, w, !(m >> k & 1), at[F_SB1 + 2 * k] + p->aShift[i]);
    }
  }
  w = part_of(p, i, P_LOW);
  wz(p, w);
  wadd(p, w, (TbWord)bNot, at[F_TOP]);
  for (k = 0; k < nBack; k++) {
    int fl = k == 0 ? a->eFloat1 : a->eFloat2;
    wbit(p, w, fl == FLOAT_DOWN, at[F_FA1 + 2 * k]);
    wbit(p, w, fl == FLOAT_DOWN, at[F_SA1 + 2 * k] + p->aShift[i]);
  }
  w = part_of(p, i, P_NEXT);
  wz(p, w);
  wadd(p, w, (TbWord)(1 + bNot), at[F_TOP]);
  wbit(p, w, 1, at[F_N6]);
  wbit(p, w, 1, at[F_N7] + p->aShift[i]);
  w = part_of(p, i, P_OTHER);
  wz(p, w);
  wadd(p, w, (TbWord)(1 + bNot), at[F_TOP]);
  w = part_of(p, i, P_TOP);
  wz(p, w);
  wadd(p, w, (TbWord)bNot, at[F_TOP]);
}

/* Makes the parts: at the start of the round and when the bye's score
** changes (C5's bye candidates). */
static void part_weights(Dutch *p) {
  const int *at = p->aAt;
  int i, k, nBack = p->nPlayedRounds < 2 ? p->nPlayedRounds : 2;
  unsigned c;
  for (i = 0; i < p->n; i++) {
    player_parts(p, i);
    start_odd_parts(p, i);  /* fixed for the round: not with a bracket's */
  }
  for (c = 0; c < PAIR_CODES; c++) {
    TbWord *w = p->aPairTab + c * (size_t)p->nW;
    wz(p, w);
    for (k = 0; k < 4; k++) wbit(p, w, (int)(c >> k & 1), at[F_C10 + k]);
    for (k = 0; k < nBack; k++) {
      wbit(p, w, (int)(c >> (4 + 2 * k) & 1), at[F_FA1 + 2 * k]);
      wbit(p, w, (int)(c >> (5 + 2 * k) & 1), at[F_FB1 + 2 * k]);
    }
  }
}

/* The parts a weight of kind eKind (not K_ZERO) of the pair (h, l) adds
** up: the higher player's, the lower's, and for a pair in the bracket the
** table's row of its code (else *pc is NULL). */
static DUTCH_INLINE void pair_parts(const Dutch *p, int h, int l, int eKind, const TbWord **pa,
                              const TbWord **pb, const TbWord **pc) {
  if (eKind == K_CUR) {
    int m;
    *pc = p->aPairTab + pair_code(p, h, l, &m) * (size_t)p->nW;
    *pa = part_of(p, h, P_HIGH + m);
    *pb = part_of(p, l, P_LOW);
  } else if (eKind == K_START_ODD) {
    *pc = 0;
    *pa = p->aZeroWeight;
    *pb = part_of(p, l, P_ODD);
  } else {
    *pc = 0;
    *pa = part_of(p, h, eKind == K_NEXT ? P_NEXT : P_OTHER);
    *pb = part_of(p, l, P_TOP);
  }
}

/* C9's term of the pair (h, l), a key with KEY_BYE: the game ranks of its
** players at the bye's score, added at bit F_C9. */
static inline TbWord bye_count(const Dutch *p, int h, int l) {
  TbWord n = 0;
  if (p->a[h].nScore == p->nByeScore) n += (TbWord)p->aGameRank[p->a[h].nPlayed];
  if (p->a[l].nScore == p->nByeScore) n += (TbWord)p->aGameRank[p->a[l].nPlayed];
  return n;
}

/* w += nOff, the key's offset (signed, small). */
static inline void add_offset(const Dutch *p, TbWord *w, i64 nOff) {
  if (nOff > 0) wadd(p, w, (TbWord)nOff, 0);
  else if (nOff < 0) wsub(p, w, (TbWord)-nOff);
}

/* w = x + y (+ z when not NULL), nW words, then + nOff (signed, small). */
static inline void wsum(const Dutch *p, TbWord *w, const TbWord *x, const TbWord *y,
                        const TbWord *z, i64 nOff) {
  TbWord c = 0;
  int t;
  for (t = 0; t < p->nW; t++) {
    TbWord s = x[t] + c, c2 = s < c;
    TbWord u = s + y[t];
    c2 += u < s;
    if (z) { TbWord v = u + z[t]; c2 += v < u; u = v; }
    w[t] = u;
    c = c2;
  }
  add_offset(p, w, nOff);
}

/* The weight of the pair (h, l) made from its key x (not 0: a pair that
** may meet) into slot iSlot: the same integer as the steps' additions to
** the criteria's weight. */
static DUTCH_NOINLINE const TbWord *weight_make(Dutch *p, int h, int l, unsigned x, size_t iSlot) {
  WeightSlot *pSlot = &p->aSlot[iSlot];
  TbWord *w = p->aSlotWeight + iSlot * (size_t)p->nW;
  const TbWord *a, *b, *c;
  int eKind = (int)KEY_KIND(x);
  i64 nOff = (i64)(x >> 4) - KEY_BIAS;
  pSlot->h = h; pSlot->l = l; pSlot->x = x;
  pair_parts(p, h, l, eKind, &a, &b, &c);
  wsum(p, w, a, b, c, nOff);
  if (x & KEY_BYE) wadd(p, w, bye_count(p, h, l), p->aAt[F_C9]);
  return w;
}

/* The key of {i, j} the matcher reads (key_of); checked against the keys
** the steps set in a build with DUTCH_CHECK_KEYS. */
static DUTCH_INLINE unsigned key_read(const Dutch *p, int i, int j) {
  unsigned x = key_of(p, i, j);
#ifdef DUTCH_CHECK_KEYS
  if (x != p->aKey[(size_t)i * (size_t)p->n + (size_t)j]) {
    fprintf(stderr, "dutch: key of %d-%d is %08x, set %08x\n", i, j, x,
            p->aKey[(size_t)i * (size_t)p->n + (size_t)j]);
    abort();
  }
#endif
  return x;
}

/*
** With an odd count the matching has one more vertex, n: the bye's seat,
** whose pair with a player is that player's bye.  The optimum is the same:
** every matching that leaves one player out pays the seat's weight once.
** In the first solve (K_START_ODD) the seat's pair with x weighs 1, plus 1
** at bit G + B if x may take the bye, plus G less the rank of x's score
** group at bit B: the total is then a constant less the bye's terms, as
** when each pair carried both players' (less a pair of 2 at bit G + B, so
** that the most pairs still come first).  The pairs weigh alike, so the
** first duals make most of them tight at once (1,000 players: 0.02 s, not
** 0.5-0.9 s with the ranks on the pairs).  After it the seat weighs one
** pair at C4's bit (aSeatWeight): the player left free no longer has to
** bring their dual down to 0 at the end of every solve (rounds 3-5 of
** gen-1000p: 1.1-1.5 s of 2.2-2.7 s; no gain with the seat's weight below
** C4's bit).  Returns the weight, made in w if it depends on x.
*/
static const TbWord *seat_weight(const Dutch *p, int x, TbWord *w) {
  if (p->eOutside != K_START_ODD) return p->aSeatWeight;
  wz(p, w);
  wadd(p, w, 1, 0);
  wadd(p, w, (TbWord)p->a[x].bByeEligible, p->nGroupBits + p->nSizeBits);
  wadd(p, w, (TbWord)(p->nGroupBits - p->aScoreRank[x]), p->nSizeBits);
  return w;
}

/* The matcher's weight of pair {i, j}: 0 for no pair, else the weight
** kept for the pair if its key is the same, else made anew (the making
** out of line keeps this path short). */
static const TbWord *dutch_weight(void *pArg, int i, int j, TbWord *w) {
  Dutch *p = pArg;
  unsigned x;
  int h = i < j ? i : j, l = i < j ? j : i;
  size_t iSlot = ((size_t)h * (size_t)p->n + (size_t)l) & p->mSlot;
  const WeightSlot *pSlot = &p->aSlot[iSlot];
  if (l == p->n) return seat_weight(p, h, w);
  x = key_read(p, i, j);
  if (KEY_KIND(x) == K_ZERO) return p->aZeroWeight;
  if (pSlot->h == h && pSlot->l == l && pSlot->x == x) {
    return p->aSlotWeight + iSlot * (size_t)p->nW;
  }
  return weight_make(p, h, l, x, iSlot);
}

#ifdef __SIZEOF_INT128__
/* What the slack of a pair is summed from: the parts of its weight (a, b,
** c, nW words each), the key's offset, and C9's term (bye, from word iBye;
** iBye -1: none). */
typedef struct SlackTerms {
  const TbWord *a, *b, *c;
  i64 nOff;
  int iBye;
  DutchCarry bye;
} SlackTerms;

/* The terms of pair {i, j}'s slack into *s: 0, or -1 for no pair. */
static DUTCH_INLINE int slack_terms(Dutch *p, int i, int j, SlackTerms *s) {
  unsigned x = key_read(p, i, j);
  int h = i < j ? i : j, l = i < j ? j : i, eKind = (int)KEY_KIND(x);
  if (eKind == K_ZERO) return -1;
  s->nOff = (i64)(x >> 4) - KEY_BIAS;
  s->iBye = -1;
  pair_parts(p, h, l, eKind, &s->a, &s->b, &s->c);
  if (s->c == 0) s->c = p->aZeroWeight;
  if (x & KEY_BYE) {
    s->iBye = p->aAt[F_C9] >> 6;
    s->bye = (DutchCarry)(2 * bye_count(p, h, l)) << (p->aAt[F_C9] & 63);
  }
  return 0;
}

/* The slack of a pair with the bye's seat under the duals ui, uj into r:
** ui + uj minus twice the seat's weight. */
static void seat_slack(const Dutch *p, int x, const TbWord *ui, const TbWord *uj,
                       TbWord *r) {
  const TbWord *w = seat_weight(p, x, r);
  DutchCarry cy = 0;
  int t;
  for (t = 0; t < p->nW; t++) {
    cy += (DutchCarry)ui[t] + uj[t] - 2 * (DutchCarry)w[t];
    r[t] = (TbWord)cy;
    cy >>= 64;
  }
}

/* Its sign (-1, 0 or 1), the top word signed as the matcher reads it. */
static int seat_sign(Dutch *p, int x, const TbWord *ui, const TbWord *uj) {
  TbWord *r = p->aSeatScratch;
  int t;
  seat_slack(p, x, ui, uj, r);
  if ((i64)r[p->nW - 1] < 0) return -1;
  for (t = 0; t < p->nW; t++) {
    if (r[t]) return 1;
  }
  return 0;
}

/* One word of a slack: ui + uj - 2 (a + b + c) + cy, cy a signed carry in
** from the word below; the word into *r, the carry out returned (between
** -8 and 4).  Plain 64-bit operations with their carries: the compilers'
** 128-bit sums spilled to memory, and a slack is summed for most pairs a
** scan reads. */
static DUTCH_INLINE i64 slack_word(TbWord ui, TbWord uj, TbWord a, TbWord b, TbWord c,
                                   i64 cy, TbWord *r) {
  TbWord s = ui + uj, w = a + b, w2, d, x;
  i64 hi = s < ui;                        /* s + hi 2^64 = ui + uj */
  int cw = w < a;
  w2 = w + c;
  cw += w2 < w;                           /* w2 + cw 2^64 = a + b + c */
  hi -= (i64)(w2 >> 63) + 2 * (i64)cw;    /* less twice that: (w2 << 1) ... */
  d = s - (w2 << 1);
  hi -= d > s;                            /* ... with its borrow */
  x = d + (TbWord)cy;                     /* the carry in, signed */
  hi += (i64)(x < d) + (cy >> 63);
  *r = x;
  return hi;
}

/* The slack of a pair with C9's term (a few in a hundred): the same sum
** with the term's 128 bits at its word. */
static DUTCH_NOINLINE void slack_bye(const Dutch *p, const SlackTerms *s, const TbWord *ui,
                                     const TbWord *uj, TbWord *r) {
  DutchCarry cy = -2 * (DutchCarry)s->nOff;
  int t;
  for (t = 0; t < p->nW; t++) {
    if (t == s->iBye) cy -= s->bye;
    cy += (DutchCarry)ui[t] + uj[t] - 2 * ((DutchCarry)s->a[t] + s->b[t] + s->c[t]);
    r[t] = (TbWord)cy;
    cy >>= 64;
  }
}

/* The words of the slack of a pair without C9's term (dutch_slack), the
** table's part c read only when bC (a constant where it is inlined: the
** pairs out of the bracket, most of those a scan reads, have none). */
static DUTCH_INLINE void slack_words(const Dutch *p, const SlackTerms *s, const TbWord *ui,
                                     const TbWord *uj, TbWord *r, int bC) {
  const TbWord *a = s->a, *b = s->b, *c = s->c;
  int t;
  /* the offset (signed) starts the carry */
  i64 cy = -2 * s->nOff;
#define DUTCH_SLACK_WORDS(NW) \
  for (t = 0; t < (NW); t++) { \
    cy = slack_word(ui[t], uj[t], a[t], b[t], bC ? c[t] : 0, cy, &r[t]); \
  }
  /* a loop of a known length for the usual widths (3 to 5 words at 1,000
  ** players): unrolled, in registers; the round's time is mostly here */
  switch (p->nW) {
    case 2: DUTCH_SLACK_WORDS(2); break;
    case 3: DUTCH_SLACK_WORDS(3); break;
    case 4: DUTCH_SLACK_WORDS(4); break;
    case 5: DUTCH_SLACK_WORDS(5); break;
    case 6: DUTCH_SLACK_WORDS(6); break;
    default: DUTCH_SLACK_WORDS(p->nW); break;
  }
#undef DUTCH_SLACK_WORDS
}

/* The matcher's slack of pair {i, j} under the duals ui, uj: ui + uj minus
** twice the weight weight_make() would make, in one pass over the parts
** (no weight made and read again); -1 for no pair. */
static int dutch_slack(void *pArg, int i, int j, const TbWord *ui, const TbWord *uj,
                       TbWord *r) {
  Dutch *p = pArg;
  SlackTerms s;
  if (i == p->n || j == p->n) {
    seat_slack(p, i < j ? i : j, ui, uj, r);
    return 0;
  }
  if (slack_terms(p, i, j, &s) < 0) return -1;
  if (s.iBye >= 0) slack_bye(p, &s, ui, uj, r);
  else if (s.c == p->aZeroWeight) slack_words(p, &s, ui, uj, r, 0);
  else slack_words(p, &s, ui, uj, r, 1);
  return 0;
}

/* The sign of a pair's slack with C9's term, from the top word down as
** dutch_sign() reads the others. */
static DUTCH_NOINLINE int sign_bye(const Dutch *p, const SlackTerms *s, const TbWord *ui,
                                   const TbWord *uj) {
  const TbWord *a = s->a, *b = s->b, *c = s->c;
  int t = p->nW - 1, iBye = s->iBye;
  TbWord aBye[2];
  DutchCarry acc;
  aBye[0] = (TbWord)s->bye;
  aBye[1] = (TbWord)(s->bye >> 64);
  acc = (DutchCarry)(i64)ui[t] + (i64)uj[t] -
        2 * ((DutchCarry)(i64)a[t] + (i64)b[t] + (i64)c[t]);
  for (;;) {
    if (t == iBye) acc -= aBye[0];
    if (t == iBye + 1) acc -= aBye[1];
    if (t == 0) {
      acc -= 2 * (DutchCarry)s->nOff;
      return (acc > 0) - (acc < 0);
    }
    if (acc >= 8) return 1;
    if (acc <= -3) return -1;
    t--;
    acc = acc * ((DutchCarry)1 << 64) + (DutchCarry)ui[t] + uj[t] -
          2 * ((DutchCarry)a[t] + b[t] + c[t]);
  }
}

/*
** The sign of a pair's slack (without C9's term) under the duals ui, uj
** (-1, 0 or 1), the slack dutch_slack() sums; read from the top word down,
** the table's part c only when bC (as slack_words).  A word's term (ui +
** uj - 2 (a + b + c), with the parts of the offset and of C9's term that
** fall in it) lies between -7 and 2.01 of the word's units, so the words
** below word t add between -7.01 and 2.01 of word t's: with acc the slack
** of the words from t up, in word t's units, acc >= 8 is a positive slack
** and acc <= -3 a negative one, and only the rest reads the next word.  A lazy scan (a player's tight pairs, a read
** of the whole row) tells most pairs from their top word or two, and makes
** no weight.  Each word's term is slack_word()'s, hi 2^64 + d: acc is then
** (acc + hi) 2^64 + d, and one that goes on, between -3 and 8, is d as a
** signed word.
*/
static DUTCH_INLINE int sign_words(const Dutch *p, const SlackTerms *s, const TbWord *ui,
                                   const TbWord *uj, int bC) {
  const TbWord *a = s->a, *b = s->b, *c = s->c;
  int t = p->nW - 1;
  TbWord d;
  i64 acc, hi;
  /* the top words signed, as the matcher reads a value: each word whose
  ** top bit is set counts 2^64 less */
  hi = slack_word(ui[t], uj[t], a[t], b[t], bC ? c[t] : 0, t == 0 ? -2 * s->nOff : 0, &d);
  hi -= (i64)(ui[t] >> 63) + (i64)(uj[t] >> 63);
  hi += 2 * ((i64)(a[t] >> 63) + (i64)(b[t] >> 63) + (bC ? (i64)(c[t] >> 63) : 0));
  acc = 0;
  for (;;) {
    acc += hi;                            /* the value: acc 2^64 + d */
    if (t == 0) return acc != 0 ? (acc > 0) - (acc < 0) : d != 0;
    if (acc > 0 || (acc == 0 && d >= 8)) return 1;
    if (acc < -1 || (acc == -1 && d <= (TbWord)-3)) return -1;
    acc = (i64)d;
    t--;
    hi = slack_word(ui[t], uj[t], a[t], b[t], bC ? c[t] : 0, t == 0 ? -2 * s->nOff : 0, &d);
  }
}

/* The matcher's sign of pair {i, j}'s slack (sign_words), -2 for no pair. */
static int dutch_sign(void *pArg, int i, int j, const TbWord *ui, const TbWord *uj) {
  Dutch *p = pArg;
  SlackTerms s;
  if (i == p->n || j == p->n) return seat_sign(p, i < j ? i : j, ui, uj);
  if (slack_terms(p, i, j, &s) < 0) return -2;
  if (s.iBye >= 0) return sign_bye(p, &s, ui, uj);
  if (s.c == p->aZeroWeight) return sign_words(p, &s, ui, uj, 0);
  return sign_words(p, &s, ui, uj, 1);
}
#endif

/* Forgets the weights made: what makes them changed (the bye's score). */
static void slots_forget(Dutch *p) {
  size_t i;
  for (i = 0; i <= p->mSlot; i++) p->aSlot[i].h = -1;
}

/* The weights kept once made: DUTCH_SLOTS_PER_PLAYER a player, rounded up
** to a power of two. */
#define DUTCH_SLOTS_PER_PLAYER 32
static int weight_slots(Dutch *p) {
  size_t nSlot = 1;
  while (nSlot < (size_t)p->n * DUTCH_SLOTS_PER_PLAYER) nSlot <<= 1;
  p->aSlotWeight = sqlite3_malloc64(sizeof(WeightSlot) * nSlot
                                    + sizeof(TbWord) * (size_t)p->nW * (nSlot + 1));
  if (p->aSlotWeight == 0) return SQLITE_NOMEM;
  p->aZeroWeight = p->aSlotWeight + nSlot * (size_t)p->nW;
  wz(p, p->aSlotWeight + nSlot * (size_t)p->nW);
  p->aSlot = (WeightSlot *)(p->aSlotWeight + (nSlot + 1) * (size_t)p->nW);
  p->mSlot = nSlot - 1;
  slots_forget(p);
  return SQLITE_OK;
}

/* ---------------------------------------------------------- the matching */

/* Solves for the players not yet fixed; aStable[v]: mate or v itself.
** The matching starts from the last one: each player whose pairs changed
** leaves it and comes back by augmentation; when most changed, afresh. */
static int solve(Dutch *p) {
  int n = p->n, i, rc;
  for (i = 0; i < n; i++) {
    if (!p->aDirty[i]) continue;
    p->aDirty[i] = 0;
    tb_match_touch(p->pSolver, i);
  }
  p->nDirty = 0;
  if (p->bSeatChanged) tb_match_touch(p->pSolver, n);
  p->bSeatChanged = 0;
  if ((rc = tb_match_solve(p->pSolver)) != 0) return rc;
  for (i = 0; i < n; i++) {
    int m = p->aFinal[i] >= 0 ? p->aFinal[i] : tb_match_mate(p->pSolver, i);
    /* the player at the bye's seat (m == n) is unpaired */
    p->aStable[i] = m >= 0 && m < n ? m : i;
  }
  return SQLITE_OK;
}

/* Fixes v and u as a pair: they leave the matching. */
static void finalize(Dutch *p, int v, int u) {
  tb_match_remove(p->pSolver, v);
  tb_match_remove(p->pSolver, u);
  p->aFinal[v] = u;
  p->aFinal[u] = v;
}

/* ------------------------------------------------------- the state, sorted */

/* Whether aPlayer[i] is on the list Baku acceleration splits: paired in
** round 1 (a game, a forfeit, the bye), or to be paired in it. */
static int paired_in_round_one(const TbPairState *s, int i) {
  const TbPairPlayer *pl = &s->aPlayer[i];
  if (s->iRound == 1) return !pl->bAbsent;
  return pl->aHist[0].iOpp >= 0 || pl->aHist[0].eKind == TB_PAB;
}

/* The index of the last player of group A (C.04.5.1), -1 for none: the
** first half of the players paired in round 1, rounded up to an even
** number (2 * ceil(m / 4)).  A player who joins later keeps the place their
** pairing number gives: above that player, in group A.  O(nPlayer). */
static int last_of_group_a(const TbPairState *s) {
  int m = 0, i, nLeft;
  for (i = 0; i < s->nPlayer; i++) m += paired_in_round_one(s, i);
  nLeft = 2 * ((m + 3) / 4);
  for (i = 0; i < s->nPlayer && nLeft > 0; i++) {
    if (paired_in_round_one(s, i) && --nLeft == 0) return i;
  }
  return -1;
}

/* The virtual points of aPlayer[iPlayer] before round iRoundIdx+1 (0-based):
** those the state gives the player, else Baku's (C.04.5.1): group A gets a
** win's points in the first half (rounded up) of the accelerated rounds and
** a draw's in the rest. */
static i64 acceleration(const TbPairState *s, int iPlayer, int iRoundIdx) {
  const i64 *aVirtual = s->aPlayer[iPlayer].aVirtual;
  if (aVirtual) return aVirtual[iRoundIdx];
  if (iRoundIdx >= s->nAccelerated) return 0;
  if (iPlayer > last_of_group_a(s)) return 0;
  return iRoundIdx < (s->nAccelerated + 1) / 2 ? s->nWin : s->nDraw;
}

/* Score of aPlayer[i] before round iRoundIdx+1 (0-based), accelerated. */
static i64 score_at(const TbPairState *s, int i, int iRoundIdx) {
  const TbPairPlayer *pl = &s->aPlayer[i];
  i64 t = 0; int r;
  for (r = 0; r < iRoundIdx; r++) t += pl->aHist[r].nPoints;
  return t + acceleration(s, i, iRoundIdx);
}

static int float_of(const TbPairState *s, int i, int iBack) {
  int r = s->iRound - 1 - iBack;
  const TbPairHistory *h = &s->aPlayer[i].aHist[r];
  i64 a, b;
  if (!tb_pair_game_played(h)) return h->nPoints > s->nLoss ? FLOAT_DOWN : FLOAT_NONE;
  a = score_at(s, i, r);
  b = score_at(s, h->iOpp, r);
  return a > b ? FLOAT_DOWN : a < b ? FLOAT_UP : FLOAT_NONE;
}

static void describe(const TbPairState *s, int i, DutchPlayer *d) {
  const TbPairPlayer *pl = &s->aPlayer[i];
  int nr = s->iRound - 1, r, nWhite = 0, nBlack = 0, nRun = 0, eLast = 0, eLower;
  memset(d, 0, sizeof *d);
  d->iPlayer = i;
  d->nScore = score_at(s, i, nr);
  d->nRaw = d->nScore - acceleration(s, i, nr);
  d->bByeEligible = 1;
  for (r = 0; r < nr; r++) {
    const TbPairHistory *h = &pl->aHist[r];
    if (tb_pair_game_played(h)) {
      d->nPlayed++;
      if (h->eColour == TB_COLOUR_WHITE) nWhite++; else nBlack++;
      nRun = (nRun == 0 || h->eColour != eLast) ? 1 : nRun + 1;
      eLast = h->eColour;
    } else if (h->nPoints >= s->nWin || h->eKind == TB_PAB) {
      d->bByeEligible = 0;
    }
  }
  eLower = nWhite > nBlack ? TB_COLOUR_BLACK : TB_COLOUR_WHITE;
  d->nImbalance = nWhite > nBlack ? nWhite - nBlack : nBlack - nWhite;
  d->ePref = d->nImbalance > 1 ? eLower
           : nRun > 1 ? -eLast
           : d->nImbalance > 0 ? eLower
           : nRun ? -eLast : TB_COLOUR_NONE;
  d->eRepeated = nRun > 1 ? eLast : TB_COLOUR_NONE;
  d->bAbsolute = d->nImbalance > 1 || d->eRepeated != TB_COLOUR_NONE;
  d->bStrong = !d->bAbsolute && d->nImbalance > 0;
  d->eFloat1 = nr >= 1 ? float_of(s, i, 1) : FLOAT_NONE;
  d->eFloat2 = nr >= 2 ? float_of(s, i, 2) : FLOAT_NONE;
}

/* Score descending, then pairing number. */
static int player_cmp(const void *x, const void *y) {
  const DutchPlayer *a = x, *b = y;
  if (a->nScore != b->nScore) return a->nScore > b->nScore ? -1 : 1;
  return a->iPlayer - b->iPlayer;
}

/* ---------------------------------------------------------------- colours */

/* The colours of x and y in the latest round, counting back over played
** games each, in which they differed (NONE: none). */
static void first_difference(const TbPairState *s, int x, int y, int *pcx, int *pcy) {
  const TbPairHistory *hx = s->aPlayer[x].aHist, *hy = s->aPlayer[y].aHist;
  int i = s->iRound - 2, j = s->iRound - 2;
  for (;;) {
    while (i >= 0 && !tb_pair_game_played(&hx[i])) i--;
    while (j >= 0 && !tb_pair_game_played(&hy[j])) j--;
    if (i < 0 || j < 0 || hx[i].eColour != hy[j].eColour) break;
    i--; j--;
  }
  *pcx = i >= 0 ? hx[i].eColour : TB_COLOUR_NONE;
  *pcy = j >= 0 ? hy[j].eColour : TB_COLOUR_NONE;
}

/* Whether x ranks above y (score, then pairing number). */
static int ranks_above(const DutchPlayer *x, const DutchPlayer *y) {
  if (x->nScore != y->nScore) return x->nScore > y->nScore;
  return x->iPlayer < y->iPlayer;
}

/* The colour of x against y: C.04.3 5.2 (the rules of colour allocation). */
static int colour_of(const Dutch *p, const DutchPlayer *x, const DutchPlayer *y) {
  const TbPairState *s = p->pState;
  int e = TB_COLOUR_NONE;
  if (x->ePref != y->ePref || x->ePref == TB_COLOUR_NONE || y->ePref == TB_COLOUR_NONE) {
    if (x->ePref != TB_COLOUR_NONE) e = x->ePref;
    else if (y->ePref != TB_COLOUR_NONE) e = -y->ePref;
  } else if (x->bAbsolute && (x->nImbalance > y->nImbalance || !y->bAbsolute)) {
    e = x->ePref;
  } else if (y->bAbsolute && (y->nImbalance > x->nImbalance || !x->bAbsolute)) {
    e = -y->ePref;
  } else if (x->bStrong && !y->bStrong) {
    e = x->ePref;
  } else if (y->bStrong && !x->bStrong) {
    e = -y->ePref;
  } else {
    int cx, cy;
    first_difference(s, x->iPlayer, y->iPlayer, &cx, &cy);
    if (cx != TB_COLOUR_NONE && cy != TB_COLOUR_NONE) e = cy;
  }
  if (e != TB_COLOUR_NONE) return e;
  /* 5.2.5: the higher-ranked player's preference; with none, the initial
  ** colour by the parity of the higher-ranked player's pairing number. */
  if (x->ePref == TB_COLOUR_NONE) {
    const DutchPlayer *hi = ranks_above(x, y) ? x : y;
    int c = (hi->iNumber & 1) ? -s->eFirstColour : s->eFirstColour;
    return hi == x ? c : -c;
  }
  return ranks_above(x, y) ? x->ePref : -y->ePref;
}

/* ------------------------------------------------------------ the brackets */

typedef struct Bracket {
  int *aVtx;                  /* players of the bracket and the next group */
  int nVtx;
  int nBegin;                 /* moved-down players: aVtx[0 .. nBegin) */
  int nNextBegin;             /* next score group: aVtx[nNextBegin ..) */
  int iBeginV, iNextBeginV;   /* the same as player indexes */
  int *aRem;                  /* the remainder's positions, ascending */
  int *aRemOf;                /* by position: index in aRem, or -1 */
  unsigned char *aDrop;       /* by position: which of its pairs a step
                              ** ruled out (DROP_*, see dropped) */
  int bFixed;                 /* S1 and S2 of the remainder are fixed */
  unsigned char *aMatched;    /* per player */
  /* The offsets the steps add to the base keys (bracket_key): */
  int *aMdpOff;               /* by moved-down position: to its pairs in
                              ** the score group (C6-C7's steps) */
  int bExchange;              /* the order of the exchanges on the
                              ** remainder's pairs (exchange_off) */
  int nRemPairs;              /* the remainder's pairs, S1's size */
  int iActive;                /* the position whose pairs a step tries
                              ** (-1: none) ... */
  int *aActiveOff;            /* ... with each position: the offset, or
                              ** OFF_NONE for the others' */
} Bracket;
#define OFF_NONE INT_MIN

/* What the steps ruled out, per remainder player: an S1 player exchanged
** drops its pairs with the later ones of the remainder, an S2 player
** exchanged its pairs with the earlier ones and the next score group;
** once S1 and S2 are fixed, only S1 - S2 pairs of the remainder are left
** (DROP_S1: the player was in S1 then).  O(n) a bracket, not a bit a pair. */
#define DROP_LATER 1
#define DROP_EARLIER_NEXT 2
#define DROP_S1 4

/* Whether a step ruled out the pair at positions iRow > iCol, with S1 and
** S2 fixed or not. */
static DUTCH_INLINE int dropped(const Bracket *k, int iRow, int iCol, int bFixed) {
  int c = k->aRemOf[iCol], r;
  if (c < 0) return 0;
  if (iRow >= k->nNextBegin) return (k->aDrop[iCol] & DROP_EARLIER_NEXT) != 0;
  r = k->aRemOf[iRow];
  if (r < 0) return 0;
  if ((k->aDrop[iCol] & DROP_LATER) || (k->aDrop[iRow] & DROP_EARLIER_NEXT)) return 1;
  return bFixed && !((k->aDrop[iCol] & DROP_S1) && !(k->aDrop[iRow] & DROP_S1));
}

/* The base weight of the pair at positions iRow > iCol of the bracket, as
** a key: the criteria's weight (the row in the bracket, or in the next
** score group), or 0 once a step ruled the pair out. */
static DUTCH_INLINE unsigned placed_key(const Bracket *k, int iRow, int iCol, int bFixed,
                                       unsigned bye) {
  if (dropped(k, iRow, iCol, bFixed)) return KEY_ZERO;
  return key_compose(iRow < k->nNextBegin ? K_CUR : K_NEXT, bye);
}
/* The same for any pair of the bracket (bye: placed_key's, for a pair that
** may meet). */
static DUTCH_INLINE unsigned base_as(const Dutch *p, const Bracket *k, int iRow, int iCol, int bFixed) {
  int h = k->aVtx[iCol], l = k->aVtx[iRow];
  if (!compatible(p, h, l)) return KEY_ZERO;
  return placed_key(k, iRow, iCol, bFixed, bye_term(p, h, l) ? KEY_BYE : 0);
}
static DUTCH_INLINE unsigned base(const Dutch *p, const Bracket *k, int iRow, int iCol) {
  return base_as(p, k, iRow, iCol, k->bFixed);
}

/* The order of the exchanges (4.3) as an offset of the remainder's pairs
** whose higher player is at position s: S1 players of the remainder
** first, the smaller their remainder index the better. */
static DUTCH_INLINE int exchange_off(const Dutch *p, const Bracket *k, int s) {
  int iRemS = k->aRemOf[s];
  return (iRemS < k->nRemPairs ? 1 << (2 * p->nSizeBits + 1) : 0) - 2 * iRemS;
}

/* base(l, s) with the order of the exchanges. */
static unsigned exchange_weight(const Dutch *p, const Bracket *k, int s, int l) {
  unsigned w = base(p, k, l, s);
  return w == KEY_ZERO ? w : key_add(w, exchange_off(p, k, s));
}

/* The key of the pair at positions iRow > iCol of the bracket, as the
** steps so far made it: its base, and the offset of the step that tries
** the higher player's pairs, or of the moved-down player's C6-C7 step, or
** of the order of the exchanges. */
static DUTCH_INLINE unsigned bracket_key(const Dutch *p, const Bracket *k, int iRow, int iCol, unsigned bye) {
  unsigned w = placed_key(k, iRow, iCol, k->bFixed, bye);
  if (w == KEY_ZERO) return w;
  if (iCol == k->iActive && k->aActiveOff[iRow] != OFF_NONE) {
    return key_add(w, k->aActiveOff[iRow]);
  }
  if (iCol < k->nBegin) {
    int bGroup = iRow >= k->nBegin && iRow < k->nNextBegin;
    return bGroup ? key_add(w, k->aMdpOff[iCol]) : w;
  }
  if (k->bExchange && k->aRemOf[iRow] >= 0 && k->aRemOf[iCol] >= 0) {
    return key_add(w, exchange_off(p, k, iCol));
  }
  return w;
}

/* The key of pair {x, y}: no weight kept a pair, a function of the round
** and of the bracket's O(n) state.  Only the bracket's pairs have offsets;
** the others' are of the kind the round's phase gives them. */
static DUTCH_INLINE unsigned key_of(const Dutch *p, int x, int y) {
  int h = x < y ? x : y, l = x < y ? y : x;
  const KeyPlayer *a = &p->aKP[h], *b = &p->aKP[l];
  if (h == l || ((a->mask >> (l & 63) & 1) && !may_meet(p, h, l))) return KEY_ZERO;
  if (a->absolute && a->absolute == b->absolute && !compatible(p, h, l)) return KEY_ZERO;
  /* in the bracket (positions set only then) the players are in the
  ** order of the round: a's position below b's */
  if ((a->pos | b->pos) >= 0) return bracket_key(p, p->pBracket, b->pos, a->pos, p->aBye[a->c9 | b->c9]);
  return p->aOutsideKey[a->c9 | b->c9];
}

/* The step that tried position iCol's pairs is over. */
static void clear_active(Bracket *k) {
  int i;
  for (i = 0; i < k->nVtx; i++) k->aActiveOff[i] = OFF_NONE;
  k->iActive = -1;
}

static int in_cur(const Bracket *k, int v) {
  return v >= k->iBeginV && v < k->iNextBeginV;
}

static int pair_bracket(Dutch *p, Bracket *k) {
  int nV = k->nVtx, nb = k->nBegin, nn = k->nNextBegin;
  int *vtx = k->aVtx, rc, i, j;
  unsigned w;
  i64 mdScore = 0;
  int remAll = 0, remMatched = 0, nRem = 0, nRemPairs = 0, fg, exchanges, left;

  for (i = 0; i < nV; i++) {
    k->aRemOf[i] = -1; k->aDrop[i] = 0; k->aMdpOff[i] = 0; k->aActiveOff[i] = OFF_NONE;
  }
  k->bFixed = k->bExchange = k->nRemPairs = 0;
  k->iActive = -1;

  /* Every pair of the bracket to its base, from the kinds of the pairs out
  ** of a bracket (the last bracket's keys are not kept) */
  for (i = 1; i < nV; i++) {
    if (tb_poll(p->pProbe, i + 1)) return p->pProbe->rc;
    for (j = 0; j < i && kset_wanted(p, vtx[i]); j++) {
      kset(p, vtx[i], vtx[j], base(p, k, i, j));
    }
  }
  for (i = 0; i < nV; i++) p->aKP[vtx[i]].pos = i;
  p->pBracket = k;
  if ((rc = solve(p)) != 0) return rc;

  /* Which moved-down players are paired in the bracket (C6, C7). */
  for (i = 0; i < nb; i++) {
    int v = vtx[i];
    if (i == 0 || p->a[v].nScore < mdScore) {
      mdScore = p->a[v].nScore;
      remMatched = remAll = 0;
      for (j = i; j < nV && p->a[vtx[j]].nScore >= mdScore; j++) {
        remAll++;
        if (in_cur(k, p->aStable[vtx[j]])) remMatched++;
      }
    }
    if (remMatched == 0) continue;
    if (remAll <= remMatched) { k->aMatched[v] = 1; continue; }
    remAll--;
    if (!in_cur(k, p->aStable[v])) {
      for (j = nb; j < nn; j++) {
        w = base(p, k, j, i);
        if (w) kset(p, v, vtx[j], key_add(w, 1));
      }
      k->aMdpOff[i] = 1;
      if ((rc = solve(p)) != 0) return rc;
    }
    if (in_cur(k, p->aStable[v])) {
      k->aMatched[v] = 1;
      remMatched--;
      for (j = nb; j < nn; j++) {
        w = base(p, k, j, i);
        if (w) kset(p, v, vtx[j], key_add(w, nn - nb + 1));
      }
      k->aMdpOff[i] = nn - nb + 1;
    }
  }

  /* Their opponents: the first in the order of S2 that keeps the rest. */
  for (i = 0; i < nb; i++) {
    int v = vtx[i], u;
    int addend = nV;
    if (!k->aMatched[v]) continue;
    k->iActive = i;
    for (j = nn - 1; j >= nb; j--) {
      if (k->aMatched[vtx[j]]) continue;
      w = base(p, k, j, i);
      if (w) {
        kset(p, v, vtx[j], key_add(w, addend));
        k->aActiveOff[j] = addend++;
      }
    }
    if ((rc = solve(p)) != 0) return rc;
    u = p->aStable[v];
    k->aMatched[u] = 1;
    finalize(p, v, u);
    clear_active(k);
  }

  /* The remainder: S1 are its players paired with a later one. */
  for (i = nb; i < nn; i++) {
    int v = vtx[i];
    if (p->aStable[v] < k->iBeginV) continue;
    k->aRemOf[i] = nRem;
    k->aRem[nRem++] = i;
    if (p->aStable[v] < v) nRemPairs++;
  }
  fg = nRemPairs;
  k->nRemPairs = nRemPairs;
  for (i = 0; i < nRem; i++) {
    for (j = 0; j < i; j++) {
      if (!kset_wanted(p, vtx[k->aRem[j]])) continue;
      w = exchange_weight(p, k, k->aRem[j], k->aRem[i]);
      kset(p, vtx[k->aRem[j]], vtx[k->aRem[i]], w);
    }
  }
  k->bExchange = 1;
  if ((rc = solve(p)) != 0) return rc;
  exchanges = 0;
  for (i = 0; i < nRem && i < fg; i++) {
    int v = vtx[k->aRem[i]];
    exchanges += p->aStable[v] <= v || p->aStable[v] >= k->iNextBeginV;
  }

  /* 4.3: exchange the lowest players of S1 where possible. */
  left = exchanges;
  for (i = fg; i > 0 && left; ) {
    int o = i, v, ex;
    i--;
    v = vtx[k->aRem[i]];
    if (p->aStable[v] > v && p->aStable[v] < k->iNextBeginV) {
      k->iActive = k->aRem[i];
      for (; o < nRem; o++) {
        w = exchange_weight(p, k, k->aRem[i], k->aRem[o]);
        if (w) {
          kset(p, v, vtx[k->aRem[o]], key_add(w, -1));
          k->aActiveOff[k->aRem[o]] = exchange_off(p, k, k->aRem[i]) - 1;
        }
      }
      if ((rc = solve(p)) != 0) return rc;
    }
    ex = p->aStable[v] <= v || p->aStable[v] >= k->iNextBeginV;
    left -= ex;
    /* back to the order of the exchanges; an exchanged player's pairs with
    ** the later ones drop (DROP_LATER) */
    for (o = i + 1; o < nRem; o++) {
      w = ex ? KEY_ZERO : exchange_weight(p, k, k->aRem[i], k->aRem[o]);
      kset(p, v, vtx[k->aRem[o]], w);
    }
    if (ex) k->aDrop[k->aRem[i]] |= DROP_LATER;
    clear_active(k);
  }

  /* ... and the highest players of S2. */
  left = exchanges;
  for (i = fg; i < nRem && left > 1; i++) {
    int v = vtx[k->aRem[i]], o, ex;
    int already = p->aStable[v] > v && p->aStable[v] < k->iNextBeginV;
    if (!already) {
      k->iActive = k->aRem[i];
      for (o = i + 1; o < nRem; o++) {
        w = exchange_weight(p, k, k->aRem[i], k->aRem[o]);
        if (w) {
          kset(p, v, vtx[k->aRem[o]], key_add(w, 1));
          k->aActiveOff[k->aRem[o]] = exchange_off(p, k, k->aRem[i]) + 1;
        }
      }
      if ((rc = solve(p)) != 0) return rc;
    }
    ex = p->aStable[v] > v && p->aStable[v] < k->iNextBeginV;
    if (ex) {
      /* its pairs with the earlier ones and the next score group drop */
      left--;
      for (o = 0; o < i; o++) kset(p, v, vtx[k->aRem[o]], KEY_ZERO);
      for (o = nn; o < nV; o++) kset(p, v, vtx[o], KEY_ZERO);
      k->aDrop[k->aRem[i]] |= DROP_EARLIER_NEXT;
    }
    if (!already) {
      for (o = i + 1; o < nRem; o++) {
        w = exchange_weight(p, k, k->aRem[i], k->aRem[o]);
        kset(p, v, vtx[k->aRem[o]], w);
      }
      clear_active(k);
    }
  }

  /* Fix S1 and S2 as found; the other pairs of the remainder drop, and
  ** the order of the exchanges is over. */
  for (i = 0; i < nRem; i++) {
    int v = vtx[k->aRem[i]];
    if (p->aStable[v] > v && p->aStable[v] < k->iNextBeginV) k->aDrop[k->aRem[i]] |= DROP_S1;
  }
  for (i = 0; i < nRem; i++) {
    int v = vtx[k->aRem[i]], o;
    for (o = i + 1; o < nRem && kset_wanted(p, v); o++) {
      kset(p, v, vtx[k->aRem[o]], base_as(p, k, k->aRem[o], k->aRem[i], 1));
    }
  }
  k->bFixed = 1;
  k->bExchange = 0;

  /* Each S1 player, in order, meets the first of S2 that keeps the rest. */
  for (i = 0; i < nRem; i++) {
    int pi = k->aRem[i], v = vtx[pi], o, u;
    int addend = 0;
    if (!(p->aStable[v] > v && p->aStable[v] < k->iNextBeginV)) continue;
    k->iActive = pi;
    for (o = nRem - 1; o >= 0; o--) {
      int oi = k->aRem[o];
      if (oi <= pi || k->aMatched[vtx[oi]]) continue;
      w = base(p, k, oi, pi);
      if (w) {
        kset(p, v, vtx[oi], key_add(w, addend));
        k->aActiveOff[oi] = addend;
      }
      addend++;
    }
    if ((rc = solve(p)) != 0) return rc;
    u = p->aStable[v];
    k->aMatched[v] = k->aMatched[u] = 1;
    finalize(p, v, u);
    clear_active(k);
  }
  return SQLITE_OK;
}

/* ------------------------------------------------------------ the round */

static int set_error(char **pzErr, const char *zMsg) {
  if (pzErr) *pzErr = sqlite3_mprintf("dutch: %s", zMsg);
  return SQLITE_ERROR;
}

/* The keys of the pairs out of the bracket that may meet, and the C9 bit,
** for the round's phase and C9's rule now (key_of). */
static void outside_keys(Dutch *p) {
  int c;
  p->aBye[0] = 0;
  p->aBye[1] = p->bSingleBye ? KEY_BYE : 0;
  for (c = 0; c < 2; c++) {
    p->aOutsideKey[c] = p->eOutside == K_ZERO ? KEY_ZERO : key_compose(p->eOutside, p->aBye[c]);
  }
}

/* Every pair's key to the kind eKind (no bracket yet). */
static int outside_kind(Dutch *p, int eKind) {
  int n = p->n, i, j;
  for (i = 0; i < n; i++) {
    if (tb_poll(p->pProbe, i + 1)) return p->pProbe->rc;
    for (j = 0; j < i && kset_wanted(p, i); j++) kset(p, i, j, pair_key(p, j, i, eKind));
  }
  p->eOutside = eKind;
  outside_keys(p);
  return SQLITE_OK;
}

/* The first weights: the round must be completable (C1-C5); with an odd
** count, the lowest score that can take the bye. */
static int initial_weights(Dutch *p) {
  return outside_kind(p, (p->n & 1) ? K_START_ODD : K_OTHER);
}

/* With an odd count: the bye's score, and whether C9 applies at once. */
static int bye_setup(Dutch *p) {
  int n = p->n, i, j, b = -1;
  for (i = 0; i < n; i++) if (p->aStable[i] == i) { b = i; break; }
  p->nByeScore = p->a[b].nScore;
  p->bSingleBye = 0;
  if (p->nByeScore >= p->a[0].nScore) {
    p->bSingleBye = 1;
    for (i = 0; i < n && p->a[i].nScore >= p->a[0].nScore; i++) {
      if (p->a[p->aStable[i]].nScore < p->a[0].nScore) { p->bSingleBye = 0; break; }
    }
  }
  /* Ranks of the games played among the bye's score: most games first. */
  {
    int nr = p->nPlayedRounds, g, r = 0;
    for (g = nr; g >= 0; g--) {
      for (j = 0; j < n; j++) {
        if (p->a[j].nScore == p->nByeScore && p->a[j].nPlayed == g) p->aGameRank[g] = r++;
      }
    }
  }
  for (j = 0; j < n; j++) {
    p->aKP[j].c9 = p->a[j].nScore == p->nByeScore && p->aGameRank[p->a[j].nPlayed] != 0;
  }
  slots_forget(p);
  part_weights(p);
  p->bSeatChanged = 1;
  return outside_kind(p, K_OTHER);
}

static int field_width(const Dutch *p, int nNeed);
static int open_weights(Dutch *p);

/* The bits of F_C7 and its like for the bracket's players (its moved-down
** players, its score group and the next; aVtx is in order of scores): from
** the lowest score up, each score group the bits of how many of its
** players are there.  A player whose bit moved has its parts made again
** and is reconsidered at the next solve; more bits than the weights hold
** widen them.  Weights as wide as every score group needs keep each
** group's bit of the round (aScoreRank). */
static int bracket_layout(Dutch *p, const Bracket *k) {
  int i, j, run = 0, nNeed = 0, bMoved = 0;
  if (p->nFieldBits >= p->nGroupBits) return SQLITE_OK; /* every group's */
  for (i = k->nVtx - 1; i >= 0; i--) {
    run++;
    if (i > 0 && p->a[k->aVtx[i - 1]].nScore == p->a[k->aVtx[i]].nScore) continue;
    for (j = i; j < i + run; j++) {
      int v = k->aVtx[j];
      if (p->aShift[v] == nNeed) continue;
      p->aShift[v] = nNeed;
      bMoved = 1;
      if (!p->aDirty[v]) { p->aDirty[v] = 1; p->nDirty++; }
    }
    nNeed += bits_for(run);
    run = 0;
  }
  if (nNeed > p->nFieldBits) {
    p->nFieldBits = field_width(p, nNeed);
    if (p->nFieldBits >= p->nGroupBits) {
      memcpy(p->aShift, p->aScoreRank, sizeof(int) * (size_t)p->n);
    }
    return open_weights(p);
  }
  /* parts only now: a bit past the fields' width would be past the weight */
  if (!bMoved) return SQLITE_OK;
  for (i = 0; i < k->nVtx; i++) {
    if (p->aDirty[k->aVtx[i]]) player_parts(p, k->aVtx[i]);
  }
  slots_forget(p);
  return SQLITE_OK;
}

static int round_complete(const Dutch *p) {
  int i, nFree = 0;
  for (i = 0; i < p->n; i++) {
    if (p->aStable[i] == i) {
      if (nFree++ || !p->a[i].bByeEligible) return 0;
    }
  }
  return 1;
}

/* Whether C9 applies changed (bSingle): the keys of the pairs with a
** player whose C9 term is not 0 gain or lose the term.  Each such pair's
** lower player is reconsidered at the next solve: every player from the
** first with a term down (pairs that may not meet included, a few more). */
static void bye_rule_change(Dutch *p, int bSingle) {
  int n = p->n, i, iFirst = -1, nAbove = 0;
#ifdef DUTCH_CHECK_KEYS
  int j;
  p->bSingleBye = bSingle;
  for (i = 0; i < n; i++) {
    if (p->aFinal[i] >= 0) continue;
    for (j = 0; j < i; j++) {
      if (p->aFinal[j] < 0) kset(p, i, j, pair_key(p, j, i, p->eOutside));
    }
  }
  p->bSingleBye = !bSingle;
#endif
  for (i = 0; i < n && iFirst < 0; i++) {
    if (p->aFinal[i] >= 0) continue;
    if (p->aKP[i].c9) iFirst = i;
    else nAbove++;
  }
  for (i = iFirst; i >= 0 && i < n; i++) {
    if (p->aFinal[i] < 0 && (i > iFirst || nAbove > 0)) mark_dirty(p, i);
  }
  p->bSingleBye = bSingle;
  outside_keys(p);
}

static int pair_all(Dutch *p, int *aPartner) {
  int n = p->n, rc, nVtx = 0, nextIt = 0, nBegin = 0, iBeginV = 0, i;
  Bracket k;
  void *pMem;
  if (n < 1) return SQLITE_OK;
  memset(&k, 0, sizeof k);
  pMem = sqlite3_malloc64((size_t)n * 6 * sizeof(int) + 2 * (size_t)n);
  if (pMem == 0) return SQLITE_NOMEM;
  k.aVtx = (int *)pMem;
  k.aRem = k.aVtx + n;
  k.aRemOf = k.aRem + n;
  k.aMdpOff = k.aRemOf + n;
  k.aActiveOff = k.aMdpOff + n;
  {
    int *aNew = k.aActiveOff + n;
    k.aMatched = (unsigned char *)(aNew + n);
    k.aDrop = k.aMatched + n;
    memset(k.aMatched, 0, (size_t)n);
    while (nextIt < n && p->a[nextIt].nScore >= p->a[0].nScore) k.aVtx[nVtx++] = nextIt++;
    while (nVtx > 1 || nextIt != n) {
      int nn = nVtx, sg = nextIt, nNew = 0, bSingle;
      k.nBegin = nBegin;
      k.nNextBegin = nn;
      k.iBeginV = iBeginV;
      k.iNextBeginV = iBeginV + (nn - nBegin);
      while (nextIt < n && p->a[nextIt].nScore >= p->a[sg].nScore) k.aVtx[nVtx++] = nextIt++;
      k.nVtx = nVtx;
      rc = bracket_layout(p, &k);
      if (rc == SQLITE_OK) rc = pair_bracket(p, &k);
      p->pBracket = 0;
      for (i = 0; i < nVtx; i++) p->aKP[k.aVtx[i]].pos = -1;
      if (rc) { sqlite3_free(pMem); return rc; }
      bSingle = (n & 1) && sg != n && p->nByeScore >= p->a[sg].nScore;
      nBegin = 0;
      for (i = 0; i < nVtx; i++) {
        int v = k.aVtx[i];
        if (i < nn && k.aMatched[v]) {
          aPartner[v] = p->aStable[v];
          aPartner[p->aStable[v]] = v;
        } else {
          aNew[nNew++] = v;
          if (i < nn) nBegin++;
          if (bSingle && p->a[p->aStable[v]].nScore < p->a[sg].nScore) bSingle = 0;
        }
      }
      if (bSingle != p->bSingleBye) bye_rule_change(p, bSingle);
      memcpy(k.aVtx, aNew, sizeof(int) * (size_t)nNew);
      nVtx = nNew;
      iBeginV = k.iNextBeginV;
    }
  }
  sqlite3_free(pMem);
  return SQLITE_OK;
}

/* Table order (C.04.2): the higher score of the pair, then the lower
** score, then the rank of the pair's higher player; the bye last. */
typedef struct TableKey { i64 nHi, nLo; int iHi; int iA, iB; int bFloat; } TableKey;
static int table_cmp(const void *x, const void *y) {
  const TableKey *a = x, *b = y;
  if ((a->iB < 0) != (b->iB < 0)) return a->iB < 0 ? 1 : -1;
  if (a->nHi != b->nHi) return a->nHi > b->nHi ? -1 : 1;
  if (a->nLo != b->nLo) return a->nLo > b->nLo ? -1 : 1;
  return a->iHi - b->iHi;
}

static int raw_above(const DutchPlayer *x, const DutchPlayer *y) {
  if (x->nRaw != y->nRaw) return x->nRaw > y->nRaw;
  return x->iPlayer < y->iPlayer;
}

static int emit(Dutch *p, const int *aPartner, TbPairRound *pRound) {
  int n = p->n, i, nT = 0;
  TableKey *aK = sqlite3_malloc64(sizeof(TableKey) * (size_t)(n + 1));
  if (aK == 0) return SQLITE_NOMEM;
  for (i = 0; i < n; i++) {
    int u = aPartner[i];
    TableKey *t = &aK[nT];
    if (u < 0) {
      t->iA = p->a[i].iPlayer; t->iB = -1;
      t->nHi = p->a[i].nRaw; t->nLo = 0; t->iHi = p->a[i].iPlayer;
      t->bFloat = 0;
      nT++;
    } else if (p->a[i].iPlayer < p->a[u].iPlayer) {
      const DutchPlayer *x = &p->a[i], *y = &p->a[u];
      const DutchPlayer *hi = raw_above(x, y) ? x : y, *lo = hi == x ? y : x;
      int c = colour_of(p, x, y);
      t->iA = c == TB_COLOUR_WHITE ? x->iPlayer : y->iPlayer;
      t->iB = c == TB_COLOUR_WHITE ? y->iPlayer : x->iPlayer;
      t->nHi = hi->nRaw; t->nLo = lo->nRaw; t->iHi = hi->iPlayer;
      t->bFloat = x->nScore != y->nScore; /* brackets: virtual points in */
      nT++;
    }
  }
  qsort(aK, (size_t)nT, sizeof(TableKey), table_cmp);
  if (pRound->nAlloc < pRound->nTable + nT) {
    TbPairTable *aNew = sqlite3_realloc64(pRound->aTable,
                                          sizeof(TbPairTable) * (size_t)(pRound->nTable + nT));
    if (aNew == 0) { sqlite3_free(aK); return SQLITE_NOMEM; }
    pRound->aTable = aNew;
    pRound->nAlloc = pRound->nTable + nT;
  }
  for (i = 0; i < nT; i++) {
    TbPairTable *t = &pRound->aTable[pRound->nTable++];
    t->iA = aK[i].iA;
    t->iB = aK[i].iB;
    t->zWhy = aK[i].iB < 0 ? "pairing-allocated bye"
              : aK[i].bFloat ? "float: different scores" : 0;
  }
  sqlite3_free(aK);
  return SQLITE_OK;
}

/* Fills the players of the round, sorted, and what the weights need. */
/* Whether aPlayer[i] counts for the pairing numbers: paired now, or in an
** earlier round (a game, a forfeit, the bye).  A player absent from the
** start holds no number yet, so the initial colour alternates over the
** players present (5.2.5 with pairing numbers given to those who play). */
static int takes_part(const TbPairState *s, int i) {
  const TbPairPlayer *pl = &s->aPlayer[i];
  int r;
  if (!pl->bAbsent) return 1;
  for (r = 0; r < s->iRound - 1; r++) {
    if (pl->aHist[r].iOpp >= 0 || pl->aHist[r].eKind == TB_PAB) return 1;
  }
  return 0;
}

/*
** The players a round takes.  No pair keeps anything, here (key_of makes
** its key when read) or in the matcher (its dense form's arrays are a
** vertex's): O(n x width + rows), the players, the pairs that may not meet,
** DUTCH_SLOTS_PER_PLAYER weights a player made lately.  The keys' offsets
** hold 2^25 and a few times the players: score groups of at most 4,095.
** The time keeps the limit: rounds 1 and 2 of 3,000 players took 3.7 and
** 8.2 s, growing as n^3 at worst.
*/
#define DUTCH_MAX_PLAYERS 3000

/* A round past DUTCH_MAX_PLAYERS is refused before anything is allocated. */
static int within_limit(int n, char **pzErr) {
  if (n <= DUTCH_MAX_PLAYERS) return SQLITE_OK;
  if (pzErr) {
    *pzErr = sqlite3_mprintf("dutch: %d players to pair, more than the %d it "
                             "pairs (a round's time grows as the cube of the "
                             "players at worst)", n, DUTCH_MAX_PLAYERS);
    if (*pzErr == 0) return SQLITE_NOMEM;
  }
  return SQLITE_ERROR;
}

static int int_cmp(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

/* Each pair that may not meet (the games of the earlier rounds, the
** forbidden pairs), both ways: counted in aAt[x + 1] while p->aNoMeet is
** NULL, else written at the cursors aAt[x]. */
static void each_no_meet(Dutch *p, const TbPairState *s, const int *aPosAll, int *aAt) {
  int n = p->n, i, j;
  for (i = 0; i < n; i++) {
    const TbPairPlayer *pl = &s->aPlayer[p->a[i].iPlayer];
    for (j = 0; j < s->iRound - 1; j++) {
      const TbPairHistory *h = &pl->aHist[j];
      if (tb_pair_game_played(h) && h->iOpp < s->nPlayer && aPosAll[h->iOpp] >= 0) {
        int o = aPosAll[h->iOpp];
        if (p->aNoMeet) { p->aNoMeet[aAt[i]++] = o; p->aNoMeet[aAt[o]++] = i; }
        else { aAt[i + 1]++; aAt[o + 1]++; }
      }
    }
  }
  for (i = 0; i < s->nForbidden; i++) {
    int x = s->aForbidden[2 * i], y = s->aForbidden[2 * i + 1];
    if (x < 0 || y < 0 || x >= s->nPlayer || y >= s->nPlayer) continue;
    x = aPosAll[x]; y = aPosAll[y];
    if (x < 0 || y < 0) continue;
    if (p->aNoMeet) { p->aNoMeet[aAt[x]++] = y; p->aNoMeet[aAt[y]++] = x; }
    else { aAt[x + 1]++; aAt[y + 1]++; }
  }
}

/* Who may not meet (earlier games, forbidden pairs) as a sorted list per
** player: counted, then filled, in one block of O(n + rows) ints. */
static int no_meet_lists(Dutch *p, const TbPairState *s) {
  int n = p->n, i, *aPosAll, *aAt;
  size_t nList;
  aPosAll = sqlite3_malloc64(sizeof(int) * ((size_t)s->nPlayer + (size_t)n + 2));
  if (aPosAll == 0) return SQLITE_NOMEM;
  aAt = aPosAll + s->nPlayer;
  for (i = 0; i < s->nPlayer; i++) aPosAll[i] = -1;
  for (i = 0; i < n; i++) aPosAll[p->a[i].iPlayer] = i;
  for (i = 0; i <= n; i++) aAt[i] = 0;
  p->aNoMeet = 0;
  each_no_meet(p, s, aPosAll, aAt);
  for (i = 0; i < n; i++) aAt[i + 1] += aAt[i];
  nList = (size_t)aAt[n];
  p->aKP = sqlite3_malloc64(sizeof(KeyPlayer) * ((size_t)n + 1)
                            + sizeof(int) * ((size_t)n + 1 + nList));
  if (p->aKP == 0) { sqlite3_free(aPosAll); return SQLITE_NOMEM; }
  p->aNoMeetStart = (int *)(p->aKP + n + 1);
  memcpy(p->aNoMeetStart, aAt, sizeof(int) * ((size_t)n + 1));
  p->aNoMeet = p->aNoMeetStart + n + 1;
  each_no_meet(p, s, aPosAll, aAt);
  for (i = 0; i < n; i++) {
    int a = p->aNoMeetStart[i], e = p->aNoMeetStart[i + 1], t;
    qsort(p->aNoMeet + a, (size_t)(e - a), sizeof(int), int_cmp);
    p->aKP[i].mask = 0;
    for (t = a; t < e; t++) p->aKP[i].mask |= (sqlite3_uint64)1 << (p->aNoMeet[t] & 63);
  }
  sqlite3_free(aPosAll);
  return SQLITE_OK;
}

/*
** F_C7 and the other fields of a bit a score group hold the score groups
** of one bracket at a time (bracket_layout): its moved-down players', its
** own and the next one's.  Two groups' sizes take 2B bits at most, the
** moved-down players' groups a few more: DUTCH_FIELD_SPARE bits are kept
** for them, or G where that saves no word of the weights (few score
** groups; the brackets then keep every group's bit).  A bracket that needs
** more widens the weights (open_weights again, its matching made afresh).
** The narrower the weights, the fewer words each slack reads: at 1,000
** players in round 9 of an event with draws, G is 84 bits and a bracket
** needs 17 at most, 4 words a weight in place of 10.
*/
#define DUTCH_FIELD_SPARE 4
static int field_width(const Dutch *p, int nNeed) {
  int nBound = 2 * p->nSizeBits + DUTCH_FIELD_SPARE, G = p->nGroupBits;
  if (nNeed < nBound) nNeed = nBound;
  /* no fewer words: every group's bit, no layout a bracket */
  if (nNeed >= G || weight_words(p, nNeed) >= weight_words(p, G)) return G;
  return nNeed;
}

/* Makes the weights' width, parts and kept weights, and opens the matching
** on them; again when a bracket widens the weights: the players fixed in
** pairs leave the new matching, and its next solve starts afresh. */
static int open_weights(Dutch *p) {
  int n = p->n, i, rc;
  p->nWeightBits = weight_bits(p, p->nFieldBits);
  p->nW = weight_words(p, p->nFieldBits);
  sqlite3_free(p->aSlotWeight);
  sqlite3_free(p->aPart);
  tb_match_close(p->pSolver);
  p->aSlotWeight = 0;
  p->aPart = 0;
  p->pSolver = 0;
  if ((rc = weight_slots(p)) != SQLITE_OK) return rc;
  field_bits(p);
  p->aPart = sqlite3_malloc64(sizeof(TbWord) * (size_t)p->nW
                              * ((size_t)n * P_COUNT + PAIR_CODES + 2));
  if (p->aPart == 0) return SQLITE_NOMEM;
  p->aPairTab = p->aPart + (size_t)n * P_COUNT * (size_t)p->nW;
  p->aSeatWeight = p->aPairTab + PAIR_CODES * (size_t)p->nW;
  p->aSeatScratch = p->aSeatWeight + p->nW;
  wz(p, p->aSeatWeight);
  wadd(p, p->aSeatWeight, 1, p->aAt[F_TOP]);
  part_weights(p);
  /* an odd count: a seat for the bye, paired with whoever takes it */
  rc = tb_match_open_dense_fn(n + (n & 1), p->nW, dutch_weight, p, p->pProbe,
                              &p->pSolver);
  if (rc) return rc;
#ifdef __SIZEOF_INT128__
  tb_match_slack_fn(p->pSolver, dutch_slack);
  tb_match_sign_fn(p->pSolver, dutch_sign);
#endif
  for (i = 0; i < n; i++) {
    if (p->aFinal[i] >= 0) tb_match_remove(p->pSolver, i);
  }
  return SQLITE_OK;
}

static int setup(Dutch *p, const TbPairState *s, char **pzErr) {
  int n = 0, i, j, maxGroup = 0, run = 0, nNumber = 0, rc;
  for (i = 0; i < s->nPlayer; i++) if (!s->aPlayer[i].bAbsent) n++;
  if ((rc = within_limit(n, pzErr)) != SQLITE_OK) return rc;
  p->n = n;
  p->nPlayedRounds = s->iRound - 1;
  p->pState = s;
  p->pProbe = s->pProbe;
  p->a = sqlite3_malloc64(sizeof(DutchPlayer) * (size_t)(n + 1));
  p->aShift = sqlite3_malloc64(sizeof(int) * (size_t)(4 * n + s->iRound + 2) + 2 * (size_t)n);
  if (!p->a || !p->aShift) return SQLITE_NOMEM;
  p->aStable = p->aShift + n;
  p->aFinal = p->aStable + n;
  p->aGameRank = p->aFinal + n;
  p->aScoreRank = p->aGameRank + s->iRound + 2;
  p->aDirty = (unsigned char *)(p->aScoreRank + n);
  memset(p->aDirty, 0, (size_t)n);
  p->aKind = p->aDirty + n;
  p->nDirty = 0;
  for (i = 0, j = 0; i < s->nPlayer; i++) {
    if (!s->aPlayer[i].bAbsent) { describe(s, i, &p->a[j]); p->a[j++].iNumber = nNumber; }
    if (takes_part(s, i)) nNumber++;
  }
  qsort(p->a, (size_t)n, sizeof(DutchPlayer), player_cmp);
  if ((rc = code_table(p)) != SQLITE_OK) return rc;
  if ((rc = no_meet_lists(p, s)) != SQLITE_OK) return rc;
  for (i = 0; i < n; i++) {
    KeyPlayer *kp = &p->aKP[i];
    kp->pos = -1;
    kp->absolute = !p->a[i].bAbsolute ? 0 : p->a[i].ePref == TB_COLOUR_WHITE ? 1 : 2;
    kp->c9 = 0;                 /* bye_setup */
  }
  /* Score groups, from the lowest: each gets the bits of its size. */
  p->nGroupBits = 0;
  for (i = n - 1; i >= 0; i--) {
    run++;
    if (i == 0 || p->a[i - 1].nScore > p->a[i].nScore) {
      for (j = i; j < i + run; j++) p->aScoreRank[j] = p->nGroupBits;
      if (run > maxGroup) maxGroup = run;
      p->nGroupBits += bits_for(run);
      run = 0;
    }
  }
  p->nSizeBits = bits_for(maxGroup);
  p->nFieldBits = field_width(p, 0);
  /* every group's bit, or none until a bracket lays its groups out */
  for (i = 0; i < n; i++) p->aShift[i] = p->nFieldBits < p->nGroupBits ? 0 : p->aScoreRank[i];
#ifdef DUTCH_CHECK_KEYS
  {
    size_t nn = (size_t)n * (size_t)n;
    p->aKey = sqlite3_malloc64(sizeof(unsigned) * (nn + 1));
    if (p->aKey == 0) return SQLITE_NOMEM;
    memset(p->aKey, 0, sizeof(unsigned) * nn);
  }
#endif
  p->eOutside = K_ZERO;
  outside_keys(p);
  for (i = 0; i < n; i++) { p->aFinal[i] = -1; p->aStable[i] = i; }
  if ((rc = open_weights(p)) != SQLITE_OK) return rc;
  for (i = 0; i <= s->iRound; i++) p->aGameRank[i] = 0;
  return SQLITE_OK;
}

static void cleanup(Dutch *p) {
  sqlite3_free(p->a);
  sqlite3_free(p->aShift);
  sqlite3_free(p->aKP);
#ifdef DUTCH_CHECK_KEYS
  sqlite3_free(p->aKey);
#endif
  sqlite3_free(p->aSlotWeight);
  sqlite3_free(p->aPart);
  sqlite3_free(p->aCode);
  tb_match_close(p->pSolver);
}

int tb_pair_dutch(const TbPairState *pState, TbPairRound *pRound, char **pzErr) {
  Dutch d;
  int rc, i, *aPartner = 0;
  memset(&d, 0, sizeof d);
  if (pState->iRound < 1) return set_error(pzErr, "the round to pair must be 1 or later");
  rc = setup(&d, pState, pzErr);
  if (rc == SQLITE_OK && d.n > 0) {
    aPartner = sqlite3_malloc64(sizeof(int) * (size_t)d.n);
    if (aPartner == 0) rc = SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK && d.n > 0) {
    for (i = 0; i < d.n; i++) aPartner[i] = -1;
    rc = initial_weights(&d);
    if (rc == SQLITE_OK) rc = solve(&d);
    if (rc == SQLITE_OK && !round_complete(&d)) {
      if (pzErr) {
        *pzErr = sqlite3_mprintf("dutch: no pairing of round %d meets the absolute "
                                 "criteria (C1-C3)", pState->iRound);
      }
      rc = SQLITE_ERROR;
    }
    if (rc == SQLITE_OK) {
      if (d.n & 1) rc = bye_setup(&d);
      else { d.nByeScore = 0; d.bSingleBye = 0; }
      if (rc == SQLITE_OK) rc = pair_all(&d, aPartner);
    }
    if (rc == SQLITE_OK) rc = emit(&d, aPartner, pRound);
  }
  if (rc != SQLITE_OK && pzErr && *pzErr == 0) {
    *pzErr = sqlite3_mprintf("dutch: %s", sqlite3_errstr(rc));
  }
  sqlite3_free(aPartner);
  cleanup(&d);
  return rc;
}
