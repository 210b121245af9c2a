/*
** pair/systems.c: the pairing systems, one line each, and their options.
**
**   SELECT * FROM pairings(1, 'berger');
**   SELECT * FROM pairings(1, 'bracket(top=8)');
**
** A system string is a name with options, parsed by the policies' option
** parser (policy.c): 'dutch(seed=7, rounds=9)'.  Each line of aSystem[]
** says which options the system reads, the policy that ranks the standings
** it reads, and what its rounds are (TB_PAIR_*).
*/
#include "systems.h"

#include <stddef.h>
#include <string.h>

/* Options (bit i: aOption[i]). */
enum { OPT_SEED = 1, OPT_ROUNDS = 2, OPT_ACCELERATED = 4, OPT_TOP = 8,
       OPT_POLICY = 16 };

static const struct {
  const char *zName;
  unsigned mBit;
  i64 iMin, iMax;
  size_t iOffset;             /* of an i64 (seed) or int field in TbPairSpec */
  int bWide;                  /* i64 */
  const char *zDoc;
} aOption[] = {
  {"seed", OPT_SEED, 0, 0x7fffffffffffffffLL, offsetof(TbPairSpec, iSeed), 1,
   "makes every random choice repeatable"},
  {"rounds", OPT_ROUNDS, 1, 100000, offsetof(TbPairSpec, nRounds), 0,
   "rounds scheduled (TRF XXR)"},
  {"accelerated", OPT_ACCELERATED, 0, 100000,
   offsetof(TbPairSpec, nAccelerated), 0,
   "rounds of Baku acceleration (C.04.5.1), ceil(rounds / 2) by the rule"},
  {"top", OPT_TOP, 2, 1 << 20, offsetof(TbPairSpec, nTop), 0,
   "players in the top cut"},
  {"policy", OPT_POLICY, 0, 0, 0, 0,
   "the policy whose standings seed the round (a name: mtg, fide ...)"},
};
#define N_OPTION ((int)(sizeof(aOption) / sizeof(aOption[0])))

/*
** The systems table: adding a system is one line (its TbPairFn declared in
** pairing.h), e.g. for a Swiss that pairs one way only:
**
**   {{"dutch", tb_pair_dutch}, "fide", OPT_SEED | OPT_ROUNDS |
**    OPT_ACCELERATED, TB_PAIR_DETERMINISTIC | TB_PAIR_SWISS, "..."},
**
** pairing_check() reads the flags: TB_PAIR_SWISS checks rematches and a
** second pairing-allocated bye, TB_PAIR_DETERMINISTIC every round played
** against the system's round.
*/
static const struct {
  TbPairSystem sys;
  const char *zPolicy;        /* ranks the standings the system reads */
  unsigned mOptions;          /* OPT_* it reads */
  unsigned mFlags;            /* TB_PAIR_* */
  const char *zDoc;
} aSystem[] = {
  {{"berger", tb_pair_berger}, "fide", OPT_ROUNDS,
   TB_PAIR_DETERMINISTIC | TB_PAIR_ZERO_BYE | TB_PAIR_SCHEDULE |
       TB_PAIR_ONE_GAME | TB_PAIR_COLOURS_TABLE,
   "round robin by FIDE's Berger tables (C.05 Annex 1)"},
  {{"bracket", tb_pair_bracket}, "mtg", OPT_TOP | OPT_POLICY,
   TB_PAIR_DETERMINISTIC | TB_PAIR_PLAYOFF,
   "single elimination of the top cut, seeded from the standings"},
  {{"mtg", tb_pair_mtg}, "mtg", OPT_SEED, TB_PAIR_SWISS,
   "Magic Swiss: match-point groups, fewest and smallest pair-downs"},
  {{"pokemon", tb_pair_pokemon}, "pokemon", OPT_SEED, TB_PAIR_SWISS,
   "Play! Pokemon Swiss as TOM pairs a pod (age divisions mixed)"},
  {{"dutch", tb_pair_dutch}, "fide", OPT_ROUNDS | OPT_ACCELERATED,
   TB_PAIR_DETERMINISTIC | TB_PAIR_SWISS | TB_PAIR_ONE_GAME | TB_PAIR_GAMES_MEET |
       TB_PAIR_COLOURS_ALTERNATE,
   "FIDE Dutch system (C.04.3, in force from 1 February 2026)"},
};
#define N_SYSTEM ((int)(sizeof(aSystem) / sizeof(aSystem[0])))

int tb_pair_system_count(void) { return N_SYSTEM; }

/* Names of the options in mOptions, comma-separated (sqlite3_malloc). */
static char *option_names(unsigned mOptions) {
  sqlite3_str *pStr = sqlite3_str_new(0);
  int i, n = 0;
  for (i = 0; i < N_OPTION; i++) {
    if (!(mOptions & aOption[i].mBit)) continue;
    sqlite3_str_appendf(pStr, "%s%s", n++ ? ", " : "", aOption[i].zName);
  }
  return sqlite3_str_finish(pStr);
}

static int set_error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

static char *system_names(void) {
  sqlite3_str *pStr = sqlite3_str_new(0);
  int i;
  for (i = 0; i < N_SYSTEM; i++) {
    sqlite3_str_appendf(pStr, "%s%s", i ? ", " : "", aSystem[i].sys.zName);
  }
  return sqlite3_str_finish(pStr);
}

/* What an option of a system string needs (tb_option_list's context). */
typedef struct SpecTarget {
  TbPairSpec *pSpec;
  unsigned mOptions;
  const char *zSpec;
} SpecTarget;

static int apply_option(void *pCtx, const char *zKey, int nKey,
                        const char *zValue, char **pzErr) {
  SpecTarget *t = (SpecTarget *)pCtx;
  TbPairSpec *p = t->pSpec;
  int i, rc;
  i64 v;
  for (i = 0; i < N_OPTION; i++) {
    if (sqlite3_strnicmp(zKey, aOption[i].zName, nKey) == 0 &&
        aOption[i].zName[nKey] == 0 && (t->mOptions & aOption[i].mBit)) {
      break;
    }
  }
  if (i == N_OPTION) {
    char *zNames = option_names(t->mOptions);
    if (zNames == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("unknown option '%.*s' in system "
                                          "'%s' (its options: %s)", nKey, zKey,
                                          t->zSpec, zNames[0] ? zNames
                                                              : "none"));
    sqlite3_free(zNames);
    return rc;
  }
  if (p->mSet & aOption[i].mBit) {
    return set_error(pzErr, sqlite3_mprintf("option %s is given twice in "
                                            "system '%s'", aOption[i].zName,
                                            t->zSpec));
  }
  p->mSet |= aOption[i].mBit;
  if (aOption[i].mBit == OPT_POLICY) {
    return tb_policy_parse(zValue, &p->policy, pzErr);
  }
  rc = tb_option_int(aOption[i].zName, zValue, aOption[i].iMin,
                     aOption[i].iMax, &v, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (aOption[i].bWide) {
    memcpy((char *)p + aOption[i].iOffset, &v, sizeof(v));
  } else {
    int n = (int)v;
    memcpy((char *)p + aOption[i].iOffset, &n, sizeof(n));
  }
  return SQLITE_OK;
}

/* Parse a system string: a name from aSystem[], then options. */
int tb_pair_spec_parse(const char *zSpec, TbPairSpec *pSpec, char **pzErr) {
  const char *z = zSpec;
  SpecTarget t;
  int n, i, rc;
  memset(pSpec, 0, sizeof(*pSpec));
  while (*z == ' ' || *z == '\t' || *z == '\n') z++;
  n = tb_option_word(z);
  for (i = 0; i < N_SYSTEM; i++) {
    const char *zName = aSystem[i].sys.zName;
    if (n > 0 && sqlite3_strnicmp(z, zName, n) == 0 && zName[n] == 0) break;
  }
  if (i == N_SYSTEM) {
    char *zNames = system_names();
    if (zNames == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("unknown system '%s' (known: %s)",
                                          zSpec, zNames));
    sqlite3_free(zNames);
    return rc;
  }
  pSpec->pSystem = &aSystem[i].sys;
  pSpec->mFlags = aSystem[i].mFlags;
  pSpec->mOptions = aSystem[i].mOptions;
  z += n;
  t.pSpec = pSpec;
  t.mOptions = aSystem[i].mOptions;
  t.zSpec = zSpec;
  rc = tb_option_list(&z, apply_option, &t, pzErr);
  if (rc == SQLITE_OK) {
    while (*z == ' ' || *z == '\t' || *z == '\n') z++;
    if (*z) rc = SQLITE_MISUSE;
  }
  if (rc == SQLITE_MISUSE) {
    return set_error(pzErr, sqlite3_mprintf("cannot parse system '%s' "
                                            "(expected a name with options, "
                                            "e.g. 'dutch(seed=7, rounds=9)')",
                                            zSpec));
  }
  if (rc == SQLITE_OK && !(pSpec->mSet & OPT_POLICY)) {
    rc = tb_policy_parse(aSystem[i].zPolicy, &pSpec->policy, pzErr);
  }
  if (rc == SQLITE_OK) rc = tb_pair_schedule_agrees(pSpec, pSpec->nRounds, pzErr);
  return rc;
}

/* ------------------------------------------------- the rounds scheduled */

/* Where the rounds scheduled come from, for a message: the option, or the
** file's record. */
static char *rounds_source(const TbPairSpec *pSpec, int nRounds) {
  return pSpec->nRounds > 0
             ? sqlite3_mprintf("rounds=%d", nRounds)
             : sqlite3_mprintf("the %d round%s the file schedules (XXR or "
                               "142)", nRounds, nRounds == 1 ? "" : "s");
}

/*
** Options that contradict the rounds scheduled, nRounds (rounds=N, or the
** file's; 0: not known): Baku acceleration of more rounds than the event
** has (C.04.5.1 accelerates ceil(rounds / 2) of them).  Checked when the
** system string is parsed, and again once a file gave the rounds.
*/
int tb_pair_schedule_agrees(const TbPairSpec *pSpec, int nRounds,
                            char **pzErr) {
  char *zRounds;
  if (nRounds <= 0 || pSpec->nAccelerated <= nRounds) return SQLITE_OK;
  zRounds = rounds_source(pSpec, nRounds);
  *pzErr = zRounds ? sqlite3_mprintf("accelerated=%d is more rounds than "
                                     "%s: Baku acceleration accelerates "
                                     "ceil(rounds / 2) of the rounds "
                                     "scheduled (%d)", pSpec->nAccelerated,
                                     zRounds, (nRounds + 1) / 2)
                   : 0;
  sqlite3_free(zRounds);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/*
** A Swiss's round to pair within the rounds scheduled, nRounds (rounds=N,
** or the file's XXR or 142; 0: not known): a round past them contradicts
** the schedule, and the Dutch criteria of the last rounds (C.04.3) would
** apply to the wrong round.  rounds=N given decides over the file (the
** arbiter adds a round); a round robin checks its own schedule (berger.c).
*/
int tb_pair_round_scheduled(const TbPairSpec *pSpec, int nRounds, int iRound,
                            char **pzErr) {
  if (nRounds <= 0 || iRound <= nRounds || !(pSpec->mFlags & TB_PAIR_SWISS)) {
    return SQLITE_OK;
  }
  if (pSpec->nRounds > 0) {
    *pzErr = sqlite3_mprintf("round %d is past the rounds scheduled "
                             "(rounds=%d); rounds=N schedules more", iRound,
                             nRounds);
  } else {
    *pzErr = sqlite3_mprintf("round %d is past the %d round%s the file "
                             "schedules (XXR or 142); %s schedules more",
                             iRound, nRounds, nRounds == 1 ? "" : "s",
                             (pSpec->mOptions & OPT_ROUNDS)
                                          ? "rounds=N"
                                          : "a larger XXR or 142");
  }
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* ------------------------------------------------------------ a round */

/* Append a table; SQLITE_NOMEM when it cannot grow. */
int tb_pair_round_add(TbPairRound *pRound, int iA, int iB, const char *zWhy) {
  TbPairTable *t;
  if (pRound->nTable >= pRound->nAlloc) {
    int nNew = pRound->nAlloc ? 2 * pRound->nAlloc : 16;
    TbPairTable *aNew = sqlite3_realloc64(pRound->aTable,
                                          sizeof(TbPairTable) * (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    pRound->aTable = aNew;
    pRound->nAlloc = nNew;
  }
  t = &pRound->aTable[pRound->nTable++];
  t->iA = iA;
  t->iB = iB;
  t->zWhy = zWhy;
  return SQLITE_OK;
}

void tb_pair_round_free(TbPairRound *pRound) {
  sqlite3_free(pRound->aTable);
  memset(pRound, 0, sizeof(*pRound));
}
