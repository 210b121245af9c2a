/*
** policy.c: policies, the rule sets that organizations publish.
**
** A policy is a list of tiebreakers (tiebreakers.c) and the points and
** floors they use.  Adding a policy is one line in aPolicy[].  A policy
** string names a policy and may set options:
**
**     'mtg'                                  MTR Appendix C, floor 0.33
**     'mtg(floor=1/3)'                       floor 1/3, as Melee.gg prints
**     'mtg(floor=1/3, game_draw_points=0)'   a drawn game worth 0 points
**     'mtg(floor=1/3, own_gwp_floor=0)'      own gwp unfloored (Melee.gg
**                                            since late 2024)
*/
#include "tiebreak_int.h"

#include <string.h>

/*                       win draw loss  gwin gdraw byegames  floor  own gwp floor */
#define TB_MTG_PARAMS    {3,  1,   0,    3,   1,    2,       {33, 100}, 0, {0, 1}}

static const struct {
  const char *zName;
  const char *zTiebreakers;   /* comma-separated, in ranking order */
  TbParams params;
  const char *zDoc;
} aPolicy[] = {
  {"mtg", "match_points,omwp,gwp,ogwp", TB_MTG_PARAMS,
   "Magic: The Gathering, Magic Tournament Rules Appendix C"},
};
#define N_POLICY ((int)(sizeof(aPolicy) / sizeof(aPolicy[0])))

static int set_error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Check a parsed floor: 0 <= floor <= 1. */
static int floor_check(int bBad, const TbFrac *f, const char *zText,
                       char **pzErr) {
  if (!bBad && f->num >= 0 && f->num <= f->den) return SQLITE_OK;
  return set_error(pzErr, sqlite3_mprintf("floor must be a number or fraction "
                                          "between 0 and 1, got '%s'",
                                          zText ? zText : ""));
}

/* A floor given as an SQL value: 0.33, 1, '1/3', '33/100'. */
int tb_floor_from_value(sqlite3_value *pVal, TbFrac *pFloor, char **pzErr) {
  char zBuf[64];
  const char *z;
  switch (sqlite3_value_type(pVal)) {
    case SQLITE_INTEGER:
      sqlite3_snprintf(sizeof(zBuf), zBuf, "%lld", sqlite3_value_int64(pVal));
      z = zBuf;
      break;
    case SQLITE_FLOAT:
      /* the shortest text that reads back as this double: 0.33 -> 33/100 */
      sqlite3_snprintf(sizeof(zBuf), zBuf, "%!.15g", sqlite3_value_double(pVal));
      z = zBuf;
      break;
    case SQLITE_TEXT:
      z = (const char *)sqlite3_value_text(pVal);
      if (z == 0) return SQLITE_NOMEM;
      break;
    default:
      z = "a blob";
      return floor_check(1, pFloor, z, pzErr);
  }
  return floor_check(tb_frac_parse(z, pFloor), pFloor, z, pzErr);
}

/* Fill the tiebreakers of a policy from its comma-separated list. */
static int policy_tiebreakers(TbPolicy *pPolicy, const char *zList) {
  const char *z = zList;
  pPolicy->nTiebreaker = 0;
  while (*z) {
    int n = (int)strcspn(z, ",");
    const TbTiebreaker *t = tb_tiebreaker_find(z, n);
    if (t == 0 || pPolicy->nTiebreaker >= TB_MAX_TIEBREAKERS) return SQLITE_ERROR;
    pPolicy->aTiebreaker[pPolicy->nTiebreaker++] = t;
    z += n;
    if (*z == ',') z++;
  }
  return SQLITE_OK;
}

static const char *skip_space(const char *z) {
  while (*z == ' ' || *z == '\t' || *z == '\n') z++;
  return z;
}

/* Length of the word at z: letters, digits, '_', '/', '.', '-'. */
static int word_len(const char *z) {
  int n = 0;
  while ((z[n] >= 'a' && z[n] <= 'z') || (z[n] >= 'A' && z[n] <= 'Z') ||
         (z[n] >= '0' && z[n] <= '9') || z[n] == '_' || z[n] == '/' ||
         z[n] == '.' || z[n] == '-') {
    n++;
  }
  return n;
}

/* Apply one option "key=value" to the policy's parameters. */
static int policy_option(TbPolicy *pPolicy, const char *zSpec,
                         const char *zKey, int nKey, const char *zVal,
                         int nVal, char **pzErr) {
  char *zValue = sqlite3_mprintf("%.*s", nVal, zVal);
  int rc = SQLITE_OK;
  if (zValue == 0) return SQLITE_NOMEM;
  if (nKey == 5 && sqlite3_strnicmp(zKey, "floor", 5) == 0) {
    TbFrac f;
    rc = floor_check(tb_frac_parse(zValue, &f), &f, zValue, pzErr);
    if (rc == SQLITE_OK) pPolicy->params.floor = f;
  } else if (nKey == 13 && sqlite3_strnicmp(zKey, "own_gwp_floor", 13) == 0) {
    TbFrac f;
    rc = floor_check(tb_frac_parse(zValue, &f), &f, zValue, pzErr);
    if (rc == SQLITE_OK) {
      pPolicy->params.ownGwpFloor = f;
      pPolicy->params.bOwnGwpFloor = 1;
    }
  } else if (nKey == 16 && sqlite3_strnicmp(zKey, "game_draw_points", 16) == 0) {
    TbFrac f;
    if (tb_frac_parse(zValue, &f) || f.den != 1 || f.num > 1000) {
      rc = set_error(pzErr, sqlite3_mprintf("game_draw_points must be a "
                                            "non-negative integer, got '%s'",
                                            zValue));
    } else {
      pPolicy->params.nGameDraw = (i64)f.num;
    }
  } else {
    rc = set_error(pzErr, sqlite3_mprintf("unknown option '%.*s' in policy "
                                          "'%s' (known: floor, "
                                          "game_draw_points, own_gwp_floor)",
                                          nKey, zKey, zSpec));
  }
  sqlite3_free(zValue);
  return rc;
}

/* The list of policy names, for messages. */
static char *policy_names(void) {
  sqlite3_str *pStr = sqlite3_str_new(0);
  int i;
  for (i = 0; i < N_POLICY; i++) {
    sqlite3_str_appendf(pStr, "%s%s", i ? ", " : "", aPolicy[i].zName);
  }
  return sqlite3_str_finish(pStr);
}

/* Parse a policy string: name [ '(' key=value {, key=value} ')' ]. */
int tb_policy_parse(const char *zSpec, TbPolicy *pPolicy, char **pzErr) {
  const char *z = skip_space(zSpec);
  int n = word_len(z), i, rc;

  memset(pPolicy, 0, sizeof(*pPolicy));
  for (i = 0; i < N_POLICY; i++) {
    if (n > 0 && sqlite3_strnicmp(aPolicy[i].zName, z, n) == 0 &&
        aPolicy[i].zName[n] == 0) {
      break;
    }
  }
  if (i == N_POLICY) {
    char *zNames = policy_names();
    if (zNames == 0) return SQLITE_NOMEM;
    rc = set_error(pzErr, sqlite3_mprintf("unknown policy '%s' (known: %s)",
                                          zSpec, zNames));
    sqlite3_free(zNames);
    return rc;
  }
  pPolicy->zName = aPolicy[i].zName;
  pPolicy->params = aPolicy[i].params;
  if (policy_tiebreakers(pPolicy, aPolicy[i].zTiebreakers) != SQLITE_OK) {
    return set_error(pzErr, sqlite3_mprintf("policy %s lists an unknown "
                                            "tiebreaker", pPolicy->zName));
  }
  z = skip_space(z + n);
  if (*z == '(') {
    z = skip_space(z + 1);
    while (*z != ')') {
      const char *zKey = z, *zVal;
      int nKey = word_len(z), nVal;
      z = skip_space(z + nKey);
      if (nKey == 0 || *z != '=') goto syntax_error;
      zVal = skip_space(z + 1);
      nVal = word_len(zVal);
      if (nVal == 0) goto syntax_error;
      rc = policy_option(pPolicy, zSpec, zKey, nKey, zVal, nVal, pzErr);
      if (rc != SQLITE_OK) return rc;
      z = skip_space(zVal + nVal);
      if (*z == ',') {
        z = skip_space(z + 1);
      } else if (*z != ')') {
        goto syntax_error;
      }
    }
    z = skip_space(z + 1);
  }
  if (*z == 0) return SQLITE_OK;

syntax_error:
  return set_error(pzErr, sqlite3_mprintf("cannot parse policy '%s' (expected "
                                          "a name, e.g. 'mtg' or "
                                          "'mtg(floor=1/3)')",
                                          zSpec));
}
