/*
** policy/policy.c: policies, the rule sets that organizations publish.
**
** A policy is an ordered list of tiebreakers (tiebreakers.c), the points
** and floors they use, and the extra columns it shows.  Adding a policy is
** one line in aPolicy[].  A policy string names a policy, optionally with
** options, or lists tiebreakers for a custom order:
**
**     'mtg'                                  MTR Appendix C, floor 0.33
**     'mtg(floor=1/3)'                       floor 1/3, as Melee.gg prints
**     'mtg(floor=1/3, game_draw_points=0)'   a drawn game worth 0 points
**     'mp,omw(floor=0.25),gw,ogw'            a custom order; options on a
**                                            tiebreaker apply to it alone
**
** A custom order takes its points from the policy of its first tiebreaker
** (for 'points,buchholz_cut1', chess: 1, 1/2, 0).
*/
#include "../tiebreak_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Default parameters of each family of rules. */
static const TbParams mtgParams = {
  .nMatchWin = 3, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 1,
  .nGameWin = 3, .nGameDraw = 1, .nByeGameWins = 2,
  .floor = {33, 100}, .ownGwpFloor = {0, 1}, .cap = {1, 1},
  .tieCredit = {1, 3}, .bFreezeDrops = 0, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2024,
};
static const TbParams pokemonParams = {
  .nMatchWin = 3, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 1,
  .nGameWin = 3, .nGameDraw = 1, .nByeGameWins = 2,
  .floor = {1, 4}, .ownGwpFloor = {0, 1}, .cap = {3, 4},
  .tieCredit = {1, 2}, .bFreezeDrops = 1, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2024,
};
/*
** Melee.gg, by era (docs/policy-mtg.md#melee-gg): the floor 1/3 always; a
** drawn game worth 0 game points until early May 2024; from then to early
** November 2025 the player's own GW% printed and ranked without the floor.
** From May 2024 an opponent met twice counted once in OMW%/OGW%; always,
** with cut_after=N, the players who did not play after round N keep the
** OMW%/OGW% they had after it.  A player without
** opponents is printed with OMW% and OGW% 0 until April 2024, the floor
** 1/3 until 2025, 0.3333 (four digits) in 2026.
*/
static const TbParams meleeParams = {
  .nMatchWin = 3, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 1,
  .nGameWin = 3, .nGameDraw = 1, .nByeGameWins = 2,
  .floor = {1, 3}, .ownGwpFloor = {0, 1}, .cap = {1, 1},
  .tieCredit = {1, 3}, .bFreezeDrops = 0, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2024, .bDistinctOpp = 1, .bFreezeCut = 1,
  .bNoOpp = 1, .noOpp = {3333, 10000},
};
static const TbParams melee2024Params = {
  .nMatchWin = 3, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 1,
  .nGameWin = 3, .nGameDraw = 1, .nByeGameWins = 2,
  .floor = {1, 3}, .bOwnGwpFloor = 1, .ownGwpFloor = {0, 1}, .cap = {1, 1},
  .tieCredit = {1, 3}, .bFreezeDrops = 0, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2024, .bDistinctOpp = 1, .bFreezeCut = 1,
  .bNoOpp = 1, .noOpp = {1, 3},
};
static const TbParams melee2023Params = {
  .nMatchWin = 3, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 1,
  .nGameWin = 3, .nGameDraw = 0, .nByeGameWins = 2,
  .floor = {1, 3}, .ownGwpFloor = {0, 1}, .cap = {1, 1},
  .tieCredit = {1, 3}, .bFreezeDrops = 0, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2024, .bFreezeCut = 1, .bNoOpp = 1, .noOpp = {0, 1},
};
/* Yu-Gi-Oh!: Konami publishes no floor (docs/policy-yugioh.md). */
static const TbParams yugiohParams = {
  .nMatchWin = 3, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 1,
  .nGameWin = 3, .nGameDraw = 1, .nByeGameWins = 2,
  .floor = {0, 1}, .ownGwpFloor = {0, 1}, .cap = {1, 1},
  .tieCredit = {1, 3}, .bFreezeDrops = 0, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2024,
};
static const TbParams chessParams = {
  .nMatchWin = 2, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 2,
  .nGameWin = 3, .nGameDraw = 1, .nByeGameWins = 0,
  .floor = {0, 1}, .ownGwpFloor = {0, 1}, .cap = {1, 1},
  .tieCredit = {1, 2}, .bFreezeDrops = 0, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2026, .bRoundRobin = -1, /* detected from the pairings */
};

/* Chess, a round robin (C.07 15.2). */
static const TbParams chessRoundRobinParams = {
  .nMatchWin = 2, .nMatchDraw = 1, .nMatchLoss = 0, .nPointScale = 2,
  .nGameWin = 3, .nGameDraw = 1, .nByeGameWins = 0,
  .floor = {0, 1}, .ownGwpFloor = {0, 1}, .cap = {1, 1},
  .tieCredit = {1, 2}, .bFreezeDrops = 0, .bOppByeIsWin = 1, .nT1Floor = -3,
  .iRules = 2026, .bRoundRobin = 1,
};

static const struct {
  const char *zName;
  const TbParams *pParams;
  const char *zTiebreakers;   /* ranking order */
  const char *zDisplay;       /* more columns shown, not ranked by */
  const char *zDoc;
} aPolicy[] = {
  {"mtg", &mtgParams, "match_points,omwp,gwp,ogwp", "mwp",
   "Magic: The Gathering, Magic Tournament Rules Appendix C"},
  {"melee", &meleeParams, "match_points,omwp,gwp,ogwp", "mwp",
   "Magic on Melee.gg from November 2025: MTR Appendix C, floor 1/3"},
  {"melee_2024", &melee2024Params, "match_points,omwp,gwp,ogwp", "mwp",
   "Magic on Melee.gg, May 2024 - early November 2025: floor 1/3, own GW% "
   "unfloored"},
  {"melee_2023", &melee2023Params, "match_points,omwp,gwp,ogwp", "mwp",
   "Magic on Melee.gg until early May 2024: floor 1/3, a drawn game worth 0"},
  {"battlefy", &mtgParams, "match_points,omwp,gwp,oomwp", "mwp",
   "Battlefy Swiss, Default tie breaker (OMW%, GW%, OOMW%)"},
  {"hct", &mtgParams, "match_wins,hct_t1,hct_t2,hct_t3", "",
   "Battlefy Swiss, HCT tie breaker (Hearthstone Championship Tour)"},
  {"pokemon", &pokemonParams, "match_points,owp,oowp,head_to_head", "win_pct",
   "Play! Pokemon Tournament Rules Handbook, as TOM computes it"},
  {"yugioh", &yugiohParams, "match_points,omwp,oomwp", "kts",
   "Yu-Gi-Oh! (Konami KTS): points, OMW%, OOMW%"},
  {"fide", &chessParams,
   "points,buchholz_cut1,buchholz,sonneborn_berger,direct_encounter,"
   "rounds_won,games_won,black_games",
   "buchholz_median1,sonneborn_berger_cut1,progressive",
   "Chess, FIDE Tie-Break Regulations C.07 (Swiss; rules=2026 or 2024)"},
  {"fide_rr", &chessRoundRobinParams,
   "points,direct_encounter,rounds_won,sonneborn_berger,koya", "games_won",
   "Chess round robin, FIDE C.07 15.2: forfeits are games, Koya"},
};
#define N_POLICY ((int)(sizeof(aPolicy) / sizeof(aPolicy[0])))

/* How an option's value is read. */
enum { OPT_FRACTION01, OPT_INT, OPT_BOOL,
       OPT_EITHER /* an integer: iMin or iMax, nothing between */ };

/*
** Every option a policy string can set.  Policy-wide options (bScoring)
** change records (the points of a match or game) or the rules every
** tiebreaker follows (chess: the rule year, the rating of unrated players,
** the Koya limit and percentage), so they apply to the whole policy even
** when written on one tiebreaker of a custom order, and may be written once
** only: two tiebreakers of one order never follow different rules.
*/
static const struct {
  const char *zName;
  int eType;
  size_t iOffset;             /* of the field in TbParams */
  size_t iFlag;               /* of an int set to 1 when given, or 0 */
  int bScoring;
  i64 iMin, iMax;             /* for OPT_INT and OPT_EITHER */
} aOption[] = {
  {"floor", OPT_FRACTION01, offsetof(TbParams, floor), 0, 0, 0, 0},
  {"game_draw_points", OPT_INT, offsetof(TbParams, nGameDraw), 0, 1, 0, 1000},
  {"own_gwp_floor", OPT_FRACTION01, offsetof(TbParams, ownGwpFloor),
   offsetof(TbParams, bOwnGwpFloor), 0, 0, 0},
  {"cap", OPT_FRACTION01, offsetof(TbParams, cap), 0, 0, 0, 0},
  {"tie_credit", OPT_FRACTION01, offsetof(TbParams, tieCredit), 0, 0, 0, 0},
  {"freeze_drops", OPT_BOOL, offsetof(TbParams, bFreezeDrops), 0, 0, 0, 0},
  {"opponent_bye_is_win", OPT_BOOL, offsetof(TbParams, bOppByeIsWin), 0, 0, 0,
   0},
  {"t1_floor", OPT_INT, offsetof(TbParams, nT1Floor), 0, 0, -100, 0},
  {"kts_truncate", OPT_BOOL, offsetof(TbParams, bKtsTruncate), 0, 0, 0, 0},
  {"rules", OPT_EITHER, offsetof(TbParams, iRules), 0, 1, 2024, 2026},
  {"best_of", OPT_INT, offsetof(TbParams, nBestOf), 0, 1, 0, 99},
  {"unrated", OPT_INT, offsetof(TbParams, iUnrated),
   offsetof(TbParams, bUnrated), 1, 0, 4000},
  {"ks_limit", OPT_INT, offsetof(TbParams, nKsLimit), 0, 1, -1000, 1000},
  {"ks_percent", OPT_INT, offsetof(TbParams, nKsPercent),
   offsetof(TbParams, bKsPercent), 1, 1, 100},
  {"round_robin", OPT_BOOL, offsetof(TbParams, bRoundRobin), 0, 1, 0, 0},
  {"cut_after", OPT_INT, offsetof(TbParams, nCutAfter), 0, 1, 0, 1000000000},
  {"swiss_rounds", OPT_INT, offsetof(TbParams, nSwissRounds), 0, 1, 0,
   1000000000},
  {"distinct_opponents", OPT_BOOL, offsetof(TbParams, bDistinctOpp), 0, 1, 0,
   0},
  {"no_opponents", OPT_FRACTION01, offsetof(TbParams, noOpp),
   offsetof(TbParams, bNoOpp), 0, 0, 0},
  {"freeze_cut", OPT_BOOL, offsetof(TbParams, bFreezeCut), 0, 1, 0, 0},
  {"forfeits_played", OPT_BOOL, offsetof(TbParams, bForfeitsPlayed), 0, 0, 0, 0},
};
#define N_OPTION ((int)(sizeof(aOption) / sizeof(aOption[0])))

/* Options the records read (the points of a game, the length of a match,
** the round of a cut, where the Swiss ends), so every policy: the others
** must be read by a tiebreaker of the order. */
static int option_read_by_records(int i) {
  return strcmp(aOption[i].zName, "game_draw_points") == 0 ||
         strcmp(aOption[i].zName, "best_of") == 0 ||
         strcmp(aOption[i].zName, "cut_after") == 0 ||
         strcmp(aOption[i].zName, "swiss_rounds") == 0;
}

/* Does tiebreaker t read option i (its options list names it)? */
static int option_read_by(const TbTiebreaker *t, int i) {
  const char *z = t->zOptions;
  int n = (int)strlen(aOption[i].zName);
  while (*z) {
    int k = (int)strcspn(z, ",");
    if (k == n && strncmp(z, aOption[i].zName, (size_t)n) == 0) return 1;
    z += k;
    while (*z == ',' || *z == ' ') z++;
  }
  return 0;
}

static int set_error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/*
** Why a fraction's text was refused: well-formed digits that tb_frac_parse()
** cannot hold in 64-bit terms ('0.0000000000000000001') are too long, not
** out of range.
*/
static char *fraction_error(const char *zName, const char *zText) {
  int i, nTerm = 0, nMost = 0, nSep = 0;
  for (i = 0; zText[i]; i++) {
    if (zText[i] >= '0' && zText[i] <= '9') {
      if (++nTerm > nMost) nMost = nTerm;
    } else if (zText[i] == '.' || zText[i] == '/') {
      nSep++;
      if (zText[i] == '/') nTerm = 0;
    } else if (zText[i] != ' ') {
      break;
    }
  }
  if (zText[i] == 0 && nSep <= 1 && nMost > 18) {
    return sqlite3_mprintf("%s has too many digits to be read exactly (at "
                           "most 18 a term), got '%s'", zName, zText);
  }
  return sqlite3_mprintf("%s must be a number or fraction between 0 and 1, "
                         "got '%s'", zName, zText);
}

/* *pTo = *pFrom, padding included (tb_policy_key compares the bytes). */
static void params_copy(TbParams *pTo, const TbParams *pFrom) {
  memcpy(pTo, pFrom, sizeof(*pTo));
}

/* Check a parsed floor: 0 <= floor <= 1. */
static int floor_check(int bBad, const TbFrac *f, const char *zText,
                       char **pzErr) {
  if (!bBad && f->num >= 0 && f->num <= f->den) return SQLITE_OK;
  return set_error(pzErr, fraction_error("floor", zText));
}

/*
** A REAL floor read through its shortest decimal form: the fewest
** significant digits (15 to 17) that read back as the same double.  0.33
** is 33/100, 0.1 + 0.2 is 30000000000000004/10^17: that fraction rounds
** back to the double passed, so no value floored by it is below that double.
** The C library formats and reads the digits (correctly rounded, unlike a
** 15-digit format); whatever the locale's radix character, only digits and
** the exponent are taken from the text.
*/
static int floor_from_real(double r, TbFrac *pFloor, char **pzErr) {
  char zBuf[64];
  const char *z;
  sqlite3_uint64 m = 0;
  int nPrec, nDigit = 0, iExp, nPlace;
  if (!(r >= 0.0 && r <= 1.0)) {   /* NaN too */
    sqlite3_snprintf(sizeof(zBuf), zBuf, "%!.15g", r);
    return set_error(pzErr, fraction_error("floor", zBuf));
  }
  if (r == 0.0 || r == 1.0) {
    *pFloor = tb_frac(r == 1.0, 1);
    return SQLITE_OK;
  }
  for (nPrec = 15;; nPrec++) {   /* 17 digits always read back */
    snprintf(zBuf, sizeof(zBuf), "%.*e", nPrec - 1, r);
    if (nPrec == 17 || strtod(zBuf, 0) == r) break;
  }
  for (z = zBuf; *z && *z != 'e'; z++) {
    if (*z >= '0' && *z <= '9') {
      m = m * 10 + (sqlite3_uint64)(*z - '0');
      nDigit++;
    }
  }
  iExp = *z == 'e' ? atoi(z + 1) : 0;
  while (m % 10 == 0) {   /* m > 0: r > 0 */
    m /= 10;
    nDigit--;
  }
  /* the decimal places: r = m / 10^nPlace, 0 < r < 1 */
  nPlace = nDigit - 1 - iExp;
  if (nPlace > 18) {
    snprintf(zBuf, sizeof(zBuf), "%.*g", nPrec, r);
    return set_error(pzErr, sqlite3_mprintf("floor %s has more than 18 "
                                            "decimal places: it cannot be "
                                            "held exactly",
                                            zBuf));
  }
  {
    i64 den = 1;
    while (nPlace-- > 0) den *= 10;
    *pFloor = tb_frac((i64)m, den);
  }
  return SQLITE_OK;
}

/* A floor given as an SQL value: 0.33, 1, '1/3', '33/100'. */
int tb_floor_from_value(sqlite3_value *pVal, TbFrac *pFloor, char **pzErr) {
  char zBuf[64];
  const char *z;
  int rc;
  switch (sqlite3_value_type(pVal)) {
    case SQLITE_INTEGER:
      sqlite3_snprintf(sizeof(zBuf), zBuf, "%lld", sqlite3_value_int64(pVal));
      z = zBuf;
      break;
    case SQLITE_FLOAT:
      return floor_from_real(sqlite3_value_double(pVal), pFloor, pzErr);
    case SQLITE_TEXT:
      rc = tb_value_text(pVal, "floor", &z, pzErr);
      if (rc != SQLITE_OK) return rc;
      break;
    default:
      z = "a blob";
      return floor_check(1, pFloor, z, pzErr);
  }
  return floor_check(tb_frac_parse(z, pFloor), pFloor, z, pzErr);
}

/* The floor argument of standings(): every tiebreaker's floor. */
void tb_policy_set_floor(TbPolicy *pPolicy, const TbFrac *pFloor) {
  int k;
  pPolicy->params.floor = *pFloor;
  for (k = 0; k < pPolicy->nTiebreaker; k++) pPolicy->aParams[k].floor = *pFloor;
}

/* Union of what the policy's tiebreakers need read (TB_NEEDS_*). */
int tb_policy_needs(const TbPolicy *pPolicy) {
  int k, m = 0;
  for (k = 0; k < pPolicy->nTiebreaker; k++) m |= pPolicy->aTiebreaker[k]->mNeeds;
  for (k = 0; k < pPolicy->nDisplay; k++) m |= pPolicy->aDisplay[k]->mNeeds;
  return m;
}

int tb_policy_count(void) {
  return N_POLICY;
}

void tb_policy_info(int i, const char **pzName, const char **pzTiebreakers,
                    const char **pzDisplay, const char **pzDoc) {
  *pzName = aPolicy[i].zName;
  *pzTiebreakers = aPolicy[i].zTiebreakers;
  *pzDisplay = aPolicy[i].zDisplay;
  *pzDoc = aPolicy[i].zDoc;
}

/* ---------------------------------------------------------------- parsing */

static const char *skip_space(const char *z) {
  while (*z == ' ' || *z == '\t' || *z == '\n') z++;
  return z;
}

/* Length of the word at z: letters, digits, '_', '/', '.', '-'. */
static int word_len(const char *z) {
  int n = 0;
  while ((z[n] >= 'a' && z[n] <= 'z') || (z[n] >= 'A' && z[n] <= 'Z') ||
         (z[n] >= '0' && z[n] <= '9') || z[n] == '_' || z[n] == '/' ||
         z[n] == '.' || z[n] == '-' || z[n] == '+') {
    n++;
  }
  return n;
}

static int word_is(const char *z, int n, const char *zWord) {
  return n > 0 && sqlite3_strnicmp(z, zWord, n) == 0 && zWord[n] == 0;
}

static int find_policy(const char *z, int n) {
  int i;
  for (i = 0; i < N_POLICY; i++) {
    if (word_is(z, n, aPolicy[i].zName)) return i;
  }
  return -1;
}

/* A comma-separated list of names, for messages. */
static char *option_names(void) {
  sqlite3_str *pStr = sqlite3_str_new(0);
  int i;
  for (i = 0; i < N_OPTION; i++) {
    sqlite3_str_appendf(pStr, "%s%s", i ? ", " : "", aOption[i].zName);
  }
  return sqlite3_str_finish(pStr);
}

static char *policy_names(void) {
  sqlite3_str *pStr = sqlite3_str_new(0);
  int i;
  for (i = 0; i < N_POLICY; i++) {
    sqlite3_str_appendf(pStr, "%s%s", i ? ", " : "", aPolicy[i].zName);
  }
  return sqlite3_str_finish(pStr);
}

static char *tiebreaker_names(void) {
  sqlite3_str *pStr = sqlite3_str_new(0);
  int i;
  for (i = 0; i < tb_nTiebreaker; i++) {
    char zCode[16];
    tb_tiebreaker_code(&tb_aTiebreaker[i], zCode);
    sqlite3_str_appendf(pStr, "%s%s", i ? ", " : "", tb_aTiebreaker[i].zName);
    if (zCode[0]) sqlite3_str_appendf(pStr, " (%s)", zCode);
  }
  return sqlite3_str_finish(pStr);
}

/* An integer's text, signed: nonzero when it is none. */
static int read_integer(const char *zValue, i64 *pv) {
  TbFrac f;
  /* tb_frac_parse() reads no sign: a negative integer is parsed after it */
  int bNeg = zValue[0] == '-';
  int bBad = tb_frac_parse(zValue + bNeg, &f) || f.den != 1;
  *pv = bBad ? 0 : (i64)(bNeg ? -f.num : f.num);
  return bBad;
}

/* An integer option from iMin to iMax (also a pairing system's, systems.c). */
int tb_option_int(const char *zName, const char *zValue, i64 iMin, i64 iMax,
                  i64 *pv, char **pzErr) {
  if (read_integer(zValue, pv) || *pv < iMin || *pv > iMax) {
    return set_error(pzErr, sqlite3_mprintf("%s must be an integer from %lld "
                                            "to %lld, got '%s'",
                                            zName, iMin, iMax, zValue));
  }
  return SQLITE_OK;
}

/* Set one option "key=value" in *pParams (and in the policy if scoring). */
static int apply_option(TbPolicy *pPolicy, TbParams *pParams,
                        const char *zSpec, const char *zKey, int nKey,
                        const char *zValue, char **pzErr) {
  int i, rc;
  TbFrac f;
  for (i = 0; i < N_OPTION; i++) {
    if (word_is(zKey, nKey, aOption[i].zName)) break;
  }
  if (i == N_OPTION) {
    char *zNames = option_names();
    if (zNames == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("unknown option '%.*s' in policy "
                                          "'%s' (known: %s)",
                                          nKey, zKey, zSpec, zNames));
    sqlite3_free(zNames);
    return rc;
  }
  if (aOption[i].eType == OPT_FRACTION01) {
    if (tb_frac_parse(zValue, &f) || f.num < 0 || f.num > f.den) {
      return set_error(pzErr, fraction_error(aOption[i].zName, zValue));
    }
  } else {
    i64 iMin = aOption[i].eType == OPT_BOOL ? 0 : aOption[i].iMin;
    i64 iMax = aOption[i].eType == OPT_BOOL ? 1 : aOption[i].iMax;
    i64 v = 0;
    int bBad = read_integer(zValue, &v);
    if (aOption[i].eType == OPT_EITHER && (bBad || (v != iMin && v != iMax))) {
      return set_error(pzErr, sqlite3_mprintf("%s must be %lld or %lld, got "
                                              "'%s'",
                                              aOption[i].zName, iMin, iMax,
                                              zValue));
    }
    rc = tb_option_int(aOption[i].zName, zValue, iMin, iMax, &v, pzErr);
    if (rc != SQLITE_OK) return rc;
    f.num = v;
    f.den = 1;
  }
  /* written twice on one item: the second would silently win (policy-wide
  ** options are checked below, wherever written) */
  if (!aOption[i].bScoring && (pPolicy->mLast & (1u << i))) {
    return set_error(pzErr, sqlite3_mprintf("option %s is given twice in "
                                            "policy '%s'",
                                            aOption[i].zName, zSpec));
  }
  pPolicy->mLast |= 1u << i;
  pPolicy->mSet |= 1u << i;
  if (aOption[i].bScoring) {
    if (pPolicy->mWide & (1u << i)) {
      return set_error(pzErr, sqlite3_mprintf("option %s is given twice in "
                                              "policy '%s': it applies to the "
                                              "whole policy, write it once",
                                              aOption[i].zName, zSpec));
    }
    pPolicy->mWide |= 1u << i;
  }
  for (;;) {
    char *pBase = (char *)pParams;
    if (aOption[i].eType == OPT_FRACTION01) {
      memcpy(pBase + aOption[i].iOffset, &f, sizeof(f));
    } else if (aOption[i].eType == OPT_INT ||
               aOption[i].eType == OPT_EITHER) {
      i64 v = (i64)f.num;
      memcpy(pBase + aOption[i].iOffset, &v, sizeof(v));
    } else {
      int v = (int)f.num;
      memcpy(pBase + aOption[i].iOffset, &v, sizeof(v));
    }
    if (aOption[i].iFlag) {
      int one = 1;
      memcpy(pBase + aOption[i].iFlag, &one, sizeof(one));
    }
    if (!aOption[i].bScoring || pParams == &pPolicy->params) break;
    pParams = &pPolicy->params;
  }
  return SQLITE_OK;
}

/*
** Scan "( key=value {, key=value} )" at *pz, if present, calling xOption
** for each pair (its value as a NUL-terminated copy); *pz then follows
** the ')'.  Returns SQLITE_OK, xOption's error, or SQLITE_MISUSE for a
** syntax error.  Pairing systems' options are read by it too (systems.c).
*/
int tb_option_list(const char **pz, TbOptionFn xOption, void *pCtx,
                   char **pzErr) {
  const char *z = skip_space(*pz);
  if (*z != '(') return SQLITE_OK;
  z = skip_space(z + 1);
  while (*z != ')') {
    const char *zKey = z, *zVal;
    int nKey = word_len(z), nVal, rc;
    char *zValue;
    z = skip_space(z + nKey);
    if (nKey == 0 || *z != '=') return SQLITE_MISUSE;
    zVal = skip_space(z + 1);
    nVal = word_len(zVal);
    if (nVal == 0) return SQLITE_MISUSE;
    zValue = sqlite3_mprintf("%.*s", nVal, zVal);
    if (zValue == 0) return SQLITE_NOMEM;
    rc = xOption(pCtx, zKey, nKey, zValue, pzErr);
    sqlite3_free(zValue);
    if (rc != SQLITE_OK) return rc;
    z = skip_space(zVal + nVal);
    if (*z == ',') {
      z = skip_space(z + 1);
    } else if (*z != ')') {
      return SQLITE_MISUSE;
    }
  }
  *pz = z + 1;
  return SQLITE_OK;
}

/* What apply_option needs, for tb_option_list. */
typedef struct OptionTarget {
  TbPolicy *pPolicy;
  TbParams *pParams;
  const char *zSpec;
} OptionTarget;

static int option_to_params(void *pCtx, const char *zKey, int nKey,
                            const char *zValue, char **pzErr) {
  OptionTarget *t = (OptionTarget *)pCtx;
  return apply_option(t->pPolicy, t->pParams, t->zSpec, zKey, nKey, zValue,
                      pzErr);
}

/* Parse a policy's or a tiebreaker's options at *pz into pParams. */
static int parse_options(TbPolicy *pPolicy, TbParams *pParams,
                         const char *zSpec, const char **pz, char **pzErr) {
  OptionTarget t;
  t.pPolicy = pPolicy;
  t.pParams = pParams;
  t.zSpec = zSpec;
  return tb_option_list(pz, option_to_params, &t, pzErr);
}

/* The length of the name at z (letters, digits, '_' ...), for the parsers
** of other option strings (systems.c). */
int tb_option_word(const char *z) {
  return word_len(skip_space(z)) + (int)(skip_space(z) - z);
}

/* Append the tiebreakers of a comma-separated list to a policy's order. */
static int add_list(const TbTiebreaker **aOut, int *pn, const char *zList) {
  while (*zList) {
    int n = (int)strcspn(zList, ",");
    const TbTiebreaker *t = tb_tiebreaker_find(zList, n);
    if (t == 0 || *pn >= TB_MAX_TIEBREAKERS) return SQLITE_ERROR;
    aOut[(*pn)++] = t;
    zList += n;
    if (*zList == ',') zList++;
  }
  return SQLITE_OK;
}

static int parse_items(const char *zSpec, const char *z, TbPolicy *pPolicy,
                       char **pzErr);

/* The options written on tiebreaker t alone: t must read them (policy-wide
** ones are checked against the whole order).  An option that would change
** nothing is an error, never ignored. */
static int check_item_options(TbPolicy *pPolicy, const TbTiebreaker *t,
                              const char *zSpec, char **pzErr) {
  int i;
  for (i = 0; i < N_OPTION; i++) {
    if (!(pPolicy->mLast & (1u << i)) || aOption[i].bScoring) continue;
    if (option_read_by(t, i)) continue;
    return set_error(pzErr, sqlite3_mprintf("option %s does nothing on %s in "
                                            "policy '%s': %s does not read it",
                                            aOption[i].zName, t->zName, zSpec,
                                            t->zName));
  }
  return SQLITE_OK;
}

/* Every option written must be read by the records or by a tiebreaker of
** the order or of the columns shown. */
static int check_policy_options(const TbPolicy *pPolicy, unsigned mSet,
                                const char *zSpec, char **pzErr) {
  int i, k;
  for (i = 0; i < N_OPTION; i++) {
    int bRead = option_read_by_records(i);
    if (!(mSet & (1u << i))) continue;
    for (k = 0; !bRead && k < pPolicy->nTiebreaker; k++) {
      bRead = option_read_by(pPolicy->aTiebreaker[k], i);
    }
    for (k = 0; !bRead && k < pPolicy->nDisplay; k++) {
      bRead = option_read_by(pPolicy->aDisplay[k], i);
    }
    if (!bRead) {
      return set_error(pzErr, sqlite3_mprintf("option %s does nothing in "
                                              "policy '%s': no tiebreaker of "
                                              "it reads it",
                                              aOption[i].zName, zSpec));
    }
  }
  return SQLITE_OK;
}

/* A named policy, with options that apply to all its tiebreakers. */
static int parse_named(int iPolicy, const char *zSpec, const char *z,
                       TbPolicy *pPolicy, char **pzErr) {
  int k, rc;
  pPolicy->zName = aPolicy[iPolicy].zName;
  params_copy(&pPolicy->params, aPolicy[iPolicy].pParams);
  if (add_list(pPolicy->aTiebreaker, &pPolicy->nTiebreaker,
               aPolicy[iPolicy].zTiebreakers) != SQLITE_OK ||
      add_list(pPolicy->aDisplay, &pPolicy->nDisplay,
               aPolicy[iPolicy].zDisplay) != SQLITE_OK) {
    return set_error(pzErr, sqlite3_mprintf("policy %s lists an unknown "
                                            "tiebreaker", pPolicy->zName));
  }
  rc = parse_options(pPolicy, &pPolicy->params, zSpec, &z, pzErr);
  if (rc != SQLITE_OK) return rc;
  for (k = 0; k < pPolicy->nTiebreaker; k++) {
    params_copy(&pPolicy->aParams[k], &pPolicy->params);
  }
  z = skip_space(z);
  if (*z == 0) return SQLITE_OK;
  if (*z != ',') return SQLITE_MISUSE;
  /* 'fide(rules=2024),aro_c1': the policy's order, then more tiebreakers
  ** with the policy's options */
  z = skip_space(z + 1);
  if (*z == 0) return SQLITE_MISUSE;
  return parse_items(zSpec, z, pPolicy, pzErr);
}

/*
** C.07 writes two options as modifiers of a code: /P (forfeits are games
** against the scheduled opponent: forfeits_played=1) and Koya's /L+x, /L-x
** (the limit moved by x half points: ks_limit).  The length of the trailing
** modifier of the word z[0..n), or 0 if it ends in none.
*/
static int modifier_len(const char *z, int n) {
  int k = n;
  while (k > 0 && z[k - 1] != '/') k--;
  if (k == 0) return 0;
  if (n - k == 1 && (z[k] == 'P' || z[k] == 'p')) return 2;
  if (n - k >= 3 && (z[k] == 'L' || z[k] == 'l') &&
      (z[k + 1] == '+' || z[k + 1] == '-')) {
    int j;
    for (j = k + 2; j < n && z[j] >= '0' && z[j] <= '9'; j++) {
    }
    if (j == n) return n - k + 1;
  }
  return 0;
}

/* The options of the modifiers z[0..n) (modifier_len), on the tiebreaker
** being parsed. */
static int apply_modifiers(TbPolicy *pPolicy, TbParams *pParams,
                           const char *zSpec, const char *z, int n,
                           char **pzErr) {
  while (n > 0) {
    int k = modifier_len(z, n), rc;
    const char *zMod = z + n - k + 1; /* after its '/' */
    char *zValue;
    if (k == 2) {
      rc = apply_option(pPolicy, pParams, zSpec, "forfeits_played", 15, "1",
                        pzErr);
    } else {
      zValue = sqlite3_mprintf("%.*s", k - 2 - (zMod[1] == '+'),
                               zMod + 1 + (zMod[1] == '+'));
      if (zValue == 0) return SQLITE_NOMEM;
      rc = apply_option(pPolicy, pParams, zSpec, "ks_limit", 8, zValue, pzErr);
      sqlite3_free(zValue);
    }
    if (rc != SQLITE_OK) return rc;
    n -= k;
  }
  return SQLITE_OK;
}

/*
** A custom order: tiebreaker [ (options) ] { , tiebreaker [ (options) ] },
** from z, appended to what pPolicy already has.
*/
static int parse_items(const char *zSpec, const char *z, TbPolicy *pPolicy,
                       char **pzErr) {
  int rc, k;
  while (*z) {
    int n = word_len(z), nName = n, nMod;
    const TbTiebreaker *t = tb_tiebreaker_find(z, n);
    if (n == 0) return SQLITE_MISUSE; /* reported as a syntax error */
    /* BH/C1/P, KS/L-2: the code, then its modifiers */
    while (t == 0 && (nMod = modifier_len(z, nName)) > 0) {
      nName -= nMod;
      t = tb_tiebreaker_find(z, nName);
    }
    if (t == 0) {
      char *zNames = tiebreaker_names();
      char *zPolicies = policy_names();
      if (zNames && zPolicies) {
        rc = set_error(pzErr, sqlite3_mprintf("unknown policy or tiebreaker "
                                              "'%.*s' (policies: %s; "
                                              "tiebreakers: %s)",
                                              n, z, zPolicies, zNames));
      } else {
        rc = SQLITE_NOMEM;
      }
      sqlite3_free(zNames);
      sqlite3_free(zPolicies);
      return rc;
    }
    if (pPolicy->nTiebreaker >= TB_MAX_TIEBREAKERS) {
      return set_error(pzErr, sqlite3_mprintf("too many tiebreakers in policy "
                                              "'%s' (at most %d)",
                                              zSpec, TB_MAX_TIEBREAKERS));
    }
    if (pPolicy->nTiebreaker == 0) {
      /* the first tiebreaker's family gives the points */
      int iFamily = find_policy(t->zFamily, (int)strlen(t->zFamily));
      params_copy(&pPolicy->params, aPolicy[iFamily < 0 ? 0 : iFamily].pParams);
    }
    for (k = 0; k < pPolicy->nTiebreaker; k++) {
      if (pPolicy->aTiebreaker[k] == t) {
        return set_error(pzErr, sqlite3_mprintf("tiebreaker %s is listed twice "
                                                "in policy '%s'",
                                                t->zName, zSpec));
      }
    }
    k = pPolicy->nTiebreaker++;
    pPolicy->aTiebreaker[k] = t;
    params_copy(&pPolicy->aParams[k], &pPolicy->params);
    pPolicy->mLast = 0;
    rc = apply_modifiers(pPolicy, &pPolicy->aParams[k], zSpec, z + nName,
                         n - nName, pzErr);
    if (rc != SQLITE_OK) return rc;
    z += n;
    rc = parse_options(pPolicy, &pPolicy->aParams[k], zSpec, &z, pzErr);
    if (rc != SQLITE_OK) return rc;
    if ((rc = check_item_options(pPolicy, t, zSpec, pzErr)) != SQLITE_OK) return rc;
    z = skip_space(z);
    if (*z == ',') {
      z = skip_space(z + 1);
      if (*z == 0) return SQLITE_MISUSE;
    } else if (*z) {
      return SQLITE_MISUSE;
    }
  }
  /* policy-wide options written on a later tiebreaker reach the earlier ones */
  for (k = 0; k < pPolicy->nTiebreaker; k++) {
    TbParams *q = &pPolicy->aParams[k];
    q->nGameDraw = pPolicy->params.nGameDraw;
    q->nBestOf = pPolicy->params.nBestOf;
    q->iRules = pPolicy->params.iRules;
    q->bUnrated = pPolicy->params.bUnrated;
    q->iUnrated = pPolicy->params.iUnrated;
    q->nKsLimit = pPolicy->params.nKsLimit;
    q->bKsPercent = pPolicy->params.bKsPercent;
    q->nKsPercent = pPolicy->params.nKsPercent;
    q->bRoundRobin = pPolicy->params.bRoundRobin;
  }
  return pPolicy->nTiebreaker ? SQLITE_OK : SQLITE_MISUSE;
}

static int parse_custom(const char *zSpec, TbPolicy *pPolicy, char **pzErr) {
  pPolicy->zName = "custom";
  return parse_items(zSpec, skip_space(zSpec), pPolicy, pzErr);
}

/*
** The bytes that decide what a parsed policy computes: its parameters and
** tiebreakers, from params to aDisplay, not its name nor which options
** were written, so that 'MTG', ' mtg' and 'mtg(floor=0.33)' have one key.
** Parsing starts from zeroed memory and copies parameters whole
** (params_copy), so their padding holds the same bytes in every parse of
** equal rules.
*/
const void *tb_policy_key(const TbPolicy *pPolicy, int *pnKey) {
  *pnKey = (int)(offsetof(TbPolicy, mWide) - offsetof(TbPolicy, params));
  return &pPolicy->params;
}

/* Parse a policy string (see the comment at the top of this file). */
int tb_policy_parse(const char *zSpec, TbPolicy *pPolicy, char **pzErr) {
  const char *z = skip_space(zSpec);
  int n = word_len(z);
  int iPolicy = find_policy(z, n);
  int rc;

  memset(pPolicy, 0, sizeof(*pPolicy));
  if (iPolicy >= 0) {
    rc = parse_named(iPolicy, zSpec, z + n, pPolicy, pzErr);
  } else if (tb_tiebreaker_find(z, n) == 0 && strchr(zSpec, ',') == 0) {
    char *zNames = policy_names();
    if (zNames == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("unknown policy '%s' (known: %s)",
                                          zSpec, zNames));
    sqlite3_free(zNames);
    return rc;
  } else {
    rc = parse_custom(zSpec, pPolicy, pzErr);
  }
  if (rc == SQLITE_OK) rc = check_policy_options(pPolicy, pPolicy->mSet, zSpec, pzErr);
  if (rc != SQLITE_MISUSE) return rc;
  return set_error(pzErr, sqlite3_mprintf("cannot parse policy '%s' (expected "
                                          "a name with options, e.g. "
                                          "'mtg(floor=1/3)', or a list of "
                                          "tiebreakers, e.g. 'mp,omw,gw,ogw')",
                                          zSpec));
}
