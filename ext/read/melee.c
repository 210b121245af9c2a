/*
** read/melee.c: melee_matches() and melee_players(), the rows of a
** Melee.gg event file.
**
**   SELECT * FROM melee_matches(readfile('event.json'));
**   SELECT * FROM melee_players(readfile('event.json'));
**   SELECT rank, player, match_points FROM
**     standings(readfile('event.json'), 'mtg(floor=1/3)', NULL, NULL,
**               'melee_matches', '');
**
** The text is the JSON that tournament archives (MTGODecklistCache) keep
** of a Melee.gg event: Rounds[] of RoundName and Matches[] of Player1,
** Player2 and Result "W-L-D" from Player1's side.  The function yields the
** rows standings() reads: Player2 "-" is a bye (NULL player_b), or with a
** losing result a round lost with no opponent (result 'loss'); a match
** listed from both sides is one row; rounds are numbered by their place in
** Rounds[], the name kept in round_name, and rounds not named "Round N"
** are phase 'playoff' (the others NULL: the file cannot tell).  Two rows of one pairing that disagree, and values
** that are not what the format says, are errors naming the round.
**
** The JSON text is the hidden column event_id: standings() passes its event
** argument as "WHERE event_id = ?", so the file's text, given as the event,
** reaches this function, and one statement goes from the file to the
** standings.  The extension never opens the file: the caller reads it
** (readfile() in the sqlite3 shell, a parameter from any client).  The text
** is checked and walked here, in one pass that answers interrupts, and the
** small values it holds (a match, a round's name, a Standings entry) are
** read with SQLite's json_extract(), built in since SQLite 3.38.  Not
** json_each(): a table of that name in the database hides it, and a round
** asked for its name beside each match was read once per match.
**
** melee_players() yields the registrations standings() reads as its players
** table, one row per entry of the published Standings[], with what Melee
** published beside them: so a registered player with no match row (a
** no-show) is in the standings too.
*/
#include "../tiebreak_int.h"

#include <string.h>

/* Columns, in schema order. */
enum {
  MC_ROUND, MC_PLAYER_A, MC_PLAYER_B, MC_A_WINS, MC_B_WINS, MC_DRAWS,
  MC_RESULT, MC_ROUND_NAME, MC_PHASE, MC_SOURCE, MC_EVENT_ID
};

/* One match row; the three texts live in one allocation at zA. */
typedef struct MeleeRow {
  int iRound;
  int bPlayoff;
  int nW, nL, nD;
  int bDup;                   /* the second listing of a mirrored match */
  int bInferred;              /* not listed: from the published record */
  char *zA, *zB, *zName;      /* zB NULL for "-" */
} MeleeRow;

typedef struct MeleeCursor {
  sqlite3_vtab_cursor base;
  MeleeRow *aRow;
  int nRow, nAlloc;
  int iRow;
  sqlite3_value *pText;       /* the event_id argument */
} MeleeCursor;

/* What tells the two functions apart: name, schema, the text's column. */
typedef struct MeleeKind {
  const char *zFunc;
  const char *zSchema;
  int iEventCol;
} MeleeKind;

/* Columns of melee_players(), in schema order: the registrations columns
** standings() reads, then the published figures. */
enum {
  MP_PLAYER, MP_NAME, MP_DIVISION, MP_RATING, MP_STATUS, MP_DROPPED_AFTER,
  MP_RANK, MP_POINTS, MP_WINS, MP_LOSSES, MP_DRAWS, MP_OMWP, MP_GWP, MP_OGWP,
  MP_EVENT_ID,
  MP_PUBLISHED_RANK /* then the others, in the order of MP_RANK.. MP_OGWP */
};

static const MeleeKind meleeMatchesKind = {
  "melee_matches",
  "CREATE TABLE x(round, player_a, player_b, a_wins, b_wins, draws, result, "
  "round_name, phase, source, event_id HIDDEN)",
  MC_EVENT_ID};
static const MeleeKind meleePlayersKind = {
  "melee_players",
  "CREATE TABLE x(player, name, division, rating, status, dropped_after, "
  "rank, points, wins, losses, draws, omwp, gwp, ogwp, event_id HIDDEN, "
  "published_rank HIDDEN, published_match_points HIDDEN, published_wins HIDDEN, "
  "published_losses HIDDEN, published_draws HIDDEN, published_omwp HIDDEN, "
  "published_gwp HIDDEN, published_ogwp HIDDEN)",
  MP_EVENT_ID};

typedef struct MeleeVtab {
  sqlite3_vtab base;
  sqlite3 *db;
  const MeleeKind *pKind;
} MeleeVtab;

static int melee_error(sqlite3_vtab *pVtab, int rc, char *zMsg) {
  sqlite3_free(pVtab->zErrMsg);
  pVtab->zErrMsg = zMsg ? sqlite3_mprintf("%s(): %s",
                                          ((MeleeVtab *)pVtab)->pKind->zFunc,
                                          zMsg)
                        : 0;
  sqlite3_free(zMsg);
  return pVtab->zErrMsg ? rc : SQLITE_NOMEM;
}

static int meleeConnect(sqlite3 *db, void *pAux, int argc,
                        const char *const *argv, sqlite3_vtab **ppVtab,
                        char **pzErr) {
  const MeleeKind *pKind = (const MeleeKind *)pAux;
  int rc = tb_text_arg_connect(db, pKind->zSchema, sizeof(MeleeVtab), ppVtab);
  (void)argc;
  (void)argv;
  (void)pzErr;
  if (rc == SQLITE_OK) {
    ((MeleeVtab *)*ppVtab)->db = db;
    ((MeleeVtab *)*ppVtab)->pKind = pKind;
  }
  return rc;
}

/* The text is an equality constraint on event_id, and required. */
static int meleeBestIndex(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo) {
  const MeleeKind *pKind = ((MeleeVtab *)pVtab)->pKind;
  return tb_text_arg_best_index(pVtab, pInfo, pKind->iEventCol, pKind->zFunc,
                                "the event's JSON text", "event.json");
}

static int meleeOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor) {
  MeleeCursor *pCur = sqlite3_malloc64(sizeof(*pCur));
  (void)pVtab;
  if (pCur == 0) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

static void cursor_clear(MeleeCursor *pCur) {
  int i;
  for (i = 0; i < pCur->nRow; i++) sqlite3_free(pCur->aRow[i].zA);
  sqlite3_free(pCur->aRow);
  sqlite3_value_free(pCur->pText);
  pCur->aRow = 0;
  pCur->nRow = pCur->nAlloc = pCur->iRow = 0;
  pCur->pText = 0;
}

static int meleeClose(sqlite3_vtab_cursor *cur) {
  cursor_clear((MeleeCursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* "W-L-D" or "W-L": game counts from Player1's side; 0 if malformed. */
static int parse_result(const char *z, int *pW, int *pL, int *pD) {
  int a[3] = {0, 0, 0}, n = 0, nDigits = 0;
  if (z == 0) return 0;
  for (;; z++) {
    if (*z >= '0' && *z <= '9') {
      if (++nDigits > 4) return 0;
      a[n] = a[n] * 10 + (*z - '0');
    } else if ((*z == '-' || *z == 0) && nDigits > 0) {
      n++;
      nDigits = 0;
      if (*z == 0 || n == 3) break;
    } else {
      return 0;
    }
  }
  if (*z != 0 || n < 2) return 0;
  *pW = a[0];
  *pL = a[1];
  *pD = a[2];
  return 1;
}

/* "Round N" (a Swiss round, in Melee's naming) or anything else. */
static int is_swiss_name(const char *z) {
  int n = 0;
  if (z == 0 || strncmp(z, "Round ", 6) != 0) return 0;
  for (z += 6; *z >= '0' && *z <= '9'; z++) n++;
  return n > 0 && *z == 0;
}

/* Add a row, copying its texts; SQLITE_NOMEM or OK. */
static int row_add(MeleeCursor *pCur, int iRound, const char *zName,
                   const char *zA, const char *zB, int nW, int nL, int nD) {
  size_t nA = strlen(zA) + 1, nB = zB ? strlen(zB) + 1 : 0;
  size_t nName = strlen(zName) + 1;
  MeleeRow *r;
  char *z;
  if (pCur->nRow >= pCur->nAlloc) {
    int nNew = pCur->nAlloc ? pCur->nAlloc * 2 : 64;
    MeleeRow *aNew = sqlite3_realloc64(pCur->aRow,
                                       sizeof(MeleeRow) * (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    pCur->aRow = aNew;
    pCur->nAlloc = nNew;
  }
  z = sqlite3_malloc64(nA + nB + nName);
  if (z == 0) return SQLITE_NOMEM;
  r = &pCur->aRow[pCur->nRow++];
  memset(r, 0, sizeof(*r));
  r->iRound = iRound;
  r->bPlayoff = !is_swiss_name(zName);
  r->nW = nW;
  r->nL = nL;
  r->nD = nD;
  r->zA = z;
  memcpy(z, zA, nA);
  if (zB) {
    r->zB = z + nA;
    memcpy(r->zB, zB, nB);
  }
  r->zName = z + nA + nB;
  memcpy(r->zName, zName, nName);
  return SQLITE_OK;
}

/* Order of rows by round, then by the pair of players (either side). */
static const char *pair_lo(const MeleeRow *r) {
  return r->zB && strcmp(r->zB, r->zA) < 0 ? r->zB : r->zA;
}
static const char *pair_hi(const MeleeRow *r) {
  return r->zB && strcmp(r->zB, r->zA) < 0 ? r->zA : (r->zB ? r->zB : "");
}
static int pair_cmp(const void *pA, const void *pB) {
  const MeleeRow *a = *(const MeleeRow *const *)pA;
  const MeleeRow *b = *(const MeleeRow *const *)pB;
  int c;
  if (a->iRound != b->iRound) return a->iRound < b->iRound ? -1 : 1;
  if ((c = strcmp(pair_lo(a), pair_lo(b))) != 0) return c;
  if ((c = strcmp(pair_hi(a), pair_hi(b))) != 0) return c;
  return a < b ? -1 : a > b; /* stable: the first listing stays */
}

static int pair_before(void *pCtx, const void *pA, const void *pB) {
  (void)pCtx;
  return pair_cmp(pA, pB) < 0;
}

/* Counts of r from the side of player zSide. */
static void counts_from(const MeleeRow *r, const char *zSide, int *a) {
  int bA = strcmp(zSide, r->zA) == 0;
  a[0] = bA ? r->nW : r->nL;
  a[1] = bA ? r->nL : r->nW;
  a[2] = r->nD;
}

/*
** A match listed twice (Melee lists some drawn matches from both sides):
** the later listing is dropped when both say the same, else an error.
*/
static int mark_mirrors(MeleeCursor *pCur, TbProbe *pProbe, char **pzErr) {
  MeleeRow **ap;
  int i, rc = SQLITE_OK;
  if (pCur->nRow < 2) return SQLITE_OK;
  ap = sqlite3_malloc64(sizeof(MeleeRow *) * (sqlite3_uint64)pCur->nRow);
  if (ap == 0) return SQLITE_NOMEM;
  for (i = 0; i < pCur->nRow; i++) ap[i] = &pCur->aRow[i];
  rc = tb_text_arg_sort((void **)&ap, pCur->nRow, sizeof(*ap), pair_before, pProbe);
  for (i = 1; i < pCur->nRow && rc == SQLITE_OK; i++) {
    const MeleeRow *p = ap[i - 1];
    MeleeRow *r = ap[i];
    int a[3], b[3];
    if (r->zB == 0 || p->zB == 0 || p->iRound != r->iRound ||
        strcmp(pair_lo(p), pair_lo(r)) != 0 || strcmp(pair_hi(p), pair_hi(r)) != 0) {
      continue;
    }
    counts_from(p, p->zA, a);
    counts_from(r, p->zA, b);
    if (memcmp(a, b, sizeof(a)) == 0) {
      r->bDup = 1;
      continue;
    }
    *pzErr = sqlite3_mprintf("round %d (%s): two rows of %Q against %Q "
                             "disagree: %d-%d-%d and %d-%d-%d",
                             r->iRound, r->zName, p->zA, p->zB, a[0], a[1],
                             a[2], b[0], b[1], b[2]);
    rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  sqlite3_free(ap);
  return rc;
}

/* ------------------------------------------------ the JSON text */

/*
** The text is checked here, in one pass that answers interrupts (TbProbe),
** by the grammar SQLite's json functions accept (RFC 8259, at most 2,000
** nested arrays and objects, the text ending at a NUL as they read it);
** then its objects are searched and its arrays split here, and only the
** small values read (a match, a name, a Standings entry) are given to
** json_extract(), which decodes them.  A key is matched as written, as
** json_extract('$.Rounds') of SQLite 3.40 does; a key listed twice is
** read at its first place.
*/
#define MELEE_JSON_MAX_DEPTH 2000

static int is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int skip_space(const char *z, int n, int i) {
  while (i < n && is_json_space(z[i])) i++;
  return i;
}

static int is_digit(char c) {
  return c >= '0' && c <= '9';
}

static int is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Past the string that opens at z[i] ('"'), or -1 if it is malformed. */
static int string_end(const char *z, int n, int i) {
  for (i++; i < n; i++) {
    unsigned char c = (unsigned char)z[i];
    if (c < 0x20) return -1;
    if (c == '"') return i + 1;
    if (c != '\\') continue;
    if (++i >= n) return -1;
    if (z[i] == 'u') {
      if (i + 4 >= n || !is_hex(z[i + 1]) || !is_hex(z[i + 2]) ||
          !is_hex(z[i + 3]) || !is_hex(z[i + 4])) {
        return -1;
      }
      i += 4;
    } else if (strchr("\"\\/bfnrt", z[i]) == 0) {
      return -1;
    }
  }
  return -1;
}

/* Past the digits from z[i], at least one; -1 if none. */
static int digits_end(const char *z, int n, int i) {
  int i0 = i;
  while (i < n && is_digit(z[i])) i++;
  return i > i0 ? i : -1;
}

/* Past the number at z[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number_end(const char *z, int n, int i) {
  if (i < n && z[i] == '-') i++;
  if (i < n && z[i] == '0') {
    i++;
  } else if ((i = digits_end(z, n, i)) < 0) {
    return -1;
  }
  if (i < n && z[i] == '.' && (i = digits_end(z, n, i + 1)) < 0) return -1;
  if (i < n && (z[i] == 'e' || z[i] == 'E')) {
    i++;
    if (i < n && (z[i] == '+' || z[i] == '-')) i++;
    return digits_end(z, n, i);
  }
  return i;
}

/* Past the scalar value at z[i], or -1 if there is none. */
static int scalar_end(const char *z, int n, int i) {
  static const char *azWord[] = {"true", "false", "null"};
  int k;
  if (i >= n) return -1;
  if (z[i] == '"') return string_end(z, n, i);
  if (z[i] == '-' || is_digit(z[i])) return number_end(z, n, i);
  for (k = 0; k < 3; k++) {
    int nWord = (int)strlen(azWord[k]);
    if (n - i >= nWord && memcmp(z + i, azWord[k], (size_t)nWord) == 0) return i + nWord;
  }
  return -1;
}

/* Past the key and ':' that begin a member at z[i], or -1. */
static int key_end(const char *z, int n, int i) {
  if (i >= n || z[i] != '"' || (i = string_end(z, n, i)) < 0) return -1;
  i = skip_space(z, n, i);
  return i < n && z[i] == ':' ? skip_space(z, n, i + 1) : -1;
}

/*
** Whether z[0..n) is JSON text: *pbValid.  Containers open on a stack of
** their closing brackets; after each value comes ',' (then a value, or a
** key and its value) or the innermost closing bracket.
*/
static int json_check(const char *z, int n, TbProbe *pProbe, int *pbValid) {
  char aClose[MELEE_JSON_MAX_DEPTH];
  int nDepth = 0, i = skip_space(z, n, 0), iPolled = i, rc;
  *pbValid = 0;
  for (;;) {
    /* a value at z[i] */
    if (i < n && (z[i] == '[' || z[i] == '{')) {
      char cClose = z[i] == '[' ? ']' : '}';
      if (nDepth == MELEE_JSON_MAX_DEPTH) return SQLITE_OK;
      aClose[nDepth++] = cClose;
      i = skip_space(z, n, i + 1);
      if (i < n && z[i] == cClose) {
        nDepth--;
        i++;
      } else {
        if (cClose == '}' && (i = key_end(z, n, i)) < 0) return SQLITE_OK;
        continue;
      }
    } else if ((i = scalar_end(z, n, i)) < 0) {
      return SQLITE_OK;
    }
    /* after the value: ',' or closing brackets, until a value is next */
    for (;;) {
      /* a byte read costs about what a unit of the computation does */
      if ((rc = tb_poll(pProbe, i - iPolled)) != SQLITE_OK) return rc;
      iPolled = i;
      i = skip_space(z, n, i);
      if (nDepth == 0) {
        *pbValid = i == n;
        return SQLITE_OK;
      }
      if (i < n && z[i] == aClose[nDepth - 1]) {
        nDepth--;
        i++;
      } else if (i < n && z[i] == ',') {
        i = skip_space(z, n, i + 1);
        if (aClose[nDepth - 1] == '}' && (i = key_end(z, n, i)) < 0) return SQLITE_OK;
        break;
      } else {
        return SQLITE_OK;
      }
    }
  }
}

/* Bytes scanned between two polls of the probe while a value is skipped. */
#define MELEE_SCAN_SLICE 65536

/* The length of the value at z[0..n) of checked text: up to a ',' or a
** closing bracket outside brackets and strings, less trailing space; -1
** when the probe says stop (a value may be most of the text). */
static int value_len(const char *z, int n, TbProbe *pProbe) {
  int i, nDepth = 0, iPolled = 0;
  for (i = 0; i < n; i++) {
    char c = z[i];
    if (i - iPolled >= MELEE_SCAN_SLICE) {
      if (tb_poll(pProbe, i - iPolled) != SQLITE_OK) return -1;
      iPolled = i;
    }
    if (c == '"') {
      for (i++; i < n && z[i] != '"'; i++) {
        if (z[i] == '\\') i++;
      }
    } else if (c == '[' || c == '{') {
      nDepth++;
    } else if (c == ']' || c == '}') {
      if (nDepth-- == 0) break;
    } else if (c == ',' && nDepth == 0) {
      break;
    }
  }
  if (i > n) i = n;
  while (i > 0 && is_json_space(z[i - 1])) i--;
  return i;
}

/* The value of key zKey in the object z[0..n) of checked text: 1 and its
** text in *pz, *pn; 0 if z is no object or has no such key; -1 when the
** probe says stop. */
static int member(const char *z, int n, const char *zKey, const char **pz,
                  int *pn, TbProbe *pProbe) {
  int nKey = (int)strlen(zKey), i;
  if (n == 0 || z[0] != '{') return 0;
  for (i = skip_space(z, n, 1); i < n && z[i] == '"';) {
    int iKeyEnd = string_end(z, n, i), iValue = key_end(z, n, i), nValue;
    if (iKeyEnd < 0 || iValue < 0) return 0;
    if ((nValue = value_len(z + iValue, n - iValue, pProbe)) < 0) return -1;
    if (iKeyEnd - i - 2 == nKey && memcmp(z + i + 1, zKey, (size_t)nKey) == 0) {
      *pz = z + iValue;
      *pn = nValue;
      return 1;
    }
    i = skip_space(z, n, iValue + nValue);
    if (i < n && z[i] == ',') i = skip_space(z, n, i + 1);
  }
  return 0;
}

/* An array of checked text, walked element by element. */
typedef struct MeleeList {
  const char *z;              /* the array's text; NULL: no array */
  int n, i;                   /* its length, the next element's offset */
  TbProbe *pProbe;            /* polled as elements are skipped, or NULL */
} MeleeList;

/* The array z[0..n) in *p: 1, or 0 if z is not an array. */
static int list_open(MeleeList *p, const char *z, int n, TbProbe *pProbe) {
  memset(p, 0, sizeof(*p));
  p->pProbe = pProbe;
  if (n == 0 || z[0] != '[') return 0;
  p->z = z;
  p->n = n;
  p->i = 1;
  return 1;
}

/* The next element: 1 and its text in *pz, *pn; 0 at the end; -1 when
** the probe says stop. */
static int list_next(MeleeList *p, const char **pz, int *pn) {
  if (p->z == 0) return 0;
  p->i = skip_space(p->z, p->n, p->i);
  if (p->i < p->n && p->z[p->i] == ',') p->i = skip_space(p->z, p->n, p->i + 1);
  if (p->i >= p->n || p->z[p->i] == ']') return 0;
  *pz = p->z + p->i;
  if ((*pn = value_len(*pz, p->n - p->i, p->pProbe)) < 0) return -1;
  p->i += *pn > 0 ? *pn : 1;
  return 1;
}

/*
** The event's text, checked: *pz, *pn (up to a NUL, as SQLite reads it),
** or the error "malformed JSON".
*/
static int event_text(sqlite3_value *pText, TbProbe *pProbe, const char **pz,
                      int *pn, char **pzErr) {
  const char *z = (const char *)sqlite3_value_text(pText);
  int n = sqlite3_value_bytes(pText), bValid = 0, rc;
  const char *zNul;
  if (z == 0) return SQLITE_NOMEM;
  if ((zNul = memchr(z, 0, (size_t)n)) != 0) n = (int)(zNul - z);
  rc = json_check(z, n, pProbe, &bValid);
  if (rc == SQLITE_OK && !bValid) {
    *pzErr = sqlite3_mprintf("malformed JSON");
    rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  *pz = z + skip_space(z, n, 0);
  *pn = n - (int)(*pz - z);
  return rc;
}

/* The probe's error once it has stopped a walk (a -1 above). */
static int stop_code(const TbProbe *pProbe) {
  return pProbe && pProbe->rc != SQLITE_OK ? pProbe->rc : SQLITE_INTERRUPT;
}

/* The top-level value of key zKey, of the checked text z[0..n): *peType
** 0 absent, 1 an array (in *pList), 2 another value. */
static int top_list(const char *z, int n, const char *zKey, MeleeList *pList,
                    int *peType, TbProbe *pProbe) {
  const char *zValue;
  int nValue, bFound = member(z, n, zKey, &zValue, &nValue, pProbe);
  memset(pList, 0, sizeof(*pList));
  *peType = 0;
  if (bFound < 0) return stop_code(pProbe);
  if (bFound) *peType = list_open(pList, zValue, nValue, pProbe) ? 1 : 2;
  return SQLITE_OK;
}

/* Step pStmt with the element z[0..n) as ?1: SQLITE_ROW, or an error. */
static int step_element(sqlite3_stmt *pStmt, const char *z, int n) {
  int rc;
  sqlite3_reset(pStmt);
  rc = sqlite3_bind_text(pStmt, 1, z, n, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_step(pStmt);
  return rc == SQLITE_DONE ? SQLITE_ERROR : rc;
}

/* The message of a statement's error, for an error code that has none. */
static int db_error(sqlite3 *db, int rc, char **pzErr) {
  if (rc == SQLITE_OK || rc == SQLITE_NOMEM || *pzErr) return rc;
  *pzErr = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  return *pzErr ? rc : SQLITE_NOMEM;
}

/* ------------------------------------------------ melee_matches() */

/* One match (Player1, Player2, Result of the statement); checks its values. */
static int read_match(MeleeCursor *pCur, int iRound, const char *zName,
                      sqlite3_stmt *pStmt, char **pzErr) {
  const char *zA = (const char *)sqlite3_column_text(pStmt, 0);
  const char *zB = (const char *)sqlite3_column_text(pStmt, 1);
  const char *zRes = (const char *)sqlite3_column_text(pStmt, 2);
  int nW, nL, nD;
  if (sqlite3_column_type(pStmt, 0) != SQLITE_TEXT || zA == 0 || zA[0] == 0 ||
      strcmp(zA, "-") == 0 || sqlite3_column_type(pStmt, 1) != SQLITE_TEXT ||
      zB == 0 || zB[0] == 0) {
    *pzErr = sqlite3_mprintf("round %d (%s): a match without Player1 and "
                             "Player2 names",
                             iRound, zName);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (sqlite3_column_type(pStmt, 2) != SQLITE_TEXT ||
      !parse_result(zRes, &nW, &nL, &nD)) {
    *pzErr = sqlite3_mprintf("round %d (%s): result %Q of %Q against %Q is "
                             "not W-L-D",
                             iRound, zName, zRes ? zRes : "NULL", zA, zB);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (strcmp(zB, "-") == 0) zB = 0;
  return row_add(pCur, iRound, zName, zA, zB, nW, nL, nD);
}

/* The statements that read a round's name and a match, ?1 their text. */
typedef struct MeleeReader {
  sqlite3_stmt *pValue;       /* the value decoded */
  sqlite3_stmt *pMatch;       /* Player1, Player2, Result */
  TbProbe *pProbe;
} MeleeReader;

/* The matches of round iRound, whose text (an object, or not) is z[0..n). */
static int read_round(MeleeCursor *pCur, MeleeReader *p, int iRound,
                      const char *z, int n, char **pzErr) {
  MeleeList matches;
  const char *zName = "", *zValue, *zMatch;
  int rc = SQLITE_OK, nValue, nMatch, k;
  if ((k = member(z, n, "RoundName", &zValue, &nValue, p->pProbe)) < 0) {
    return stop_code(p->pProbe);
  }
  if (k) {
    if ((rc = step_element(p->pValue, zValue, nValue)) != SQLITE_ROW) return rc;
    zName = (const char *)sqlite3_column_text(p->pValue, 0);
    if (zName == 0 && sqlite3_column_type(p->pValue, 0) != SQLITE_NULL) return SQLITE_NOMEM;
    if (zName == 0) zName = "";
    rc = SQLITE_OK;
  }
  if ((k = member(z, n, "Matches", &zValue, &nValue, p->pProbe)) <= 0) {
    return k < 0 ? stop_code(p->pProbe) : SQLITE_OK; /* no Matches: no rows */
  }
  if (!list_open(&matches, zValue, nValue, p->pProbe)) {
    *pzErr = sqlite3_mprintf("round %d (%s): Matches is not an array", iRound,
                             zName);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  while (rc == SQLITE_OK && (k = list_next(&matches, &zMatch, &nMatch)) > 0) {
    rc = step_element(p->pMatch, zMatch, nMatch);
    if (rc == SQLITE_ROW) rc = read_match(pCur, iRound, zName, p->pMatch, pzErr);
  }
  return rc == SQLITE_OK && k < 0 ? stop_code(p->pProbe) : rc;
}

/* Every match of the checked text z[0..n), in file order. */
static int read_json(sqlite3 *db, MeleeCursor *pCur, TbProbe *pProbe,
                     const char *z, int n, char **pzErr) {
  MeleeList rounds;
  MeleeReader r = {0, 0, pProbe};
  const char *zRound;
  int nRound, eType, iRound = 0, k = 0;
  int rc = top_list(z, n, "Rounds", &rounds, &eType, pProbe);
  if (rc != SQLITE_OK) return rc;
  if (eType != 1) {
    *pzErr = sqlite3_mprintf("no Rounds array in the event's JSON");
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  rc = sqlite3_prepare_v2(db, "SELECT json_extract(?1, '$')", -1, &r.pValue, 0);
  if (rc == SQLITE_OK) {
    rc = sqlite3_prepare_v2(db, "SELECT json_extract(?1, '$.Player1'),"
                            " json_extract(?1, '$.Player2'), json_extract(?1, '$.Result')",
                            -1, &r.pMatch, 0);
  }
  while (rc == SQLITE_OK && (k = list_next(&rounds, &zRound, &nRound)) > 0) {
    rc = read_round(pCur, &r, ++iRound, zRound, nRound, pzErr);
  }
  if (rc == SQLITE_OK && k < 0) rc = stop_code(pProbe);
  rc = db_error(db, rc, pzErr);
  sqlite3_finalize(r.pValue);
  sqlite3_finalize(r.pMatch);
  return rc;
}

/* ------------------------------------------------ rounds not listed */

/* One player's round, as the rows list it. */
typedef struct MeleeSeat {
  const char *zPlayer;        /* in a row's allocation: stable */
  int iRound;
  int bWin, bLoss;
} MeleeSeat;

static int seat_cmp(const void *pA, const void *pB) {
  const MeleeSeat *a = pA, *b = pB;
  int c = strcmp(a->zPlayer, b->zPlayer);
  if (c) return c;
  return (a->iRound > b->iRound) - (a->iRound < b->iRound);
}

static int seat_before(void *pCtx, const void *pA, const void *pB) {
  (void)pCtx;
  return seat_cmp(pA, pB) < 0;
}

/* The first seat of zPlayer in the sorted seats, or n. */
static int seat_find(const MeleeSeat *a, int n, const char *zPlayer) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (strcmp(a[mid].zPlayer, zPlayer) < 0) lo = mid + 1; else hi = mid;
  }
  return lo < n && strcmp(a[lo].zPlayer, zPlayer) == 0 ? lo : n;
}

/* Every listed round of every player, sorted by player, then round. */
static int seats_of(const MeleeCursor *pCur, TbProbe *pProbe, MeleeSeat **paSeat,
                    int *pnSeat, int *piLastSwiss) {
  MeleeSeat *a = sqlite3_malloc64(sizeof(MeleeSeat) * (2 * (sqlite3_uint64)pCur->nRow + 1));
  int i, n = 0, rc;
  if (a == 0) return SQLITE_NOMEM;
  *piLastSwiss = 0;
  for (i = 0; i < pCur->nRow; i++) {
    const MeleeRow *r = &pCur->aRow[i];
    if (r->bDup) continue;
    if (!r->bPlayoff && r->iRound > *piLastSwiss) *piLastSwiss = r->iRound;
    a[n].zPlayer = r->zA;
    a[n].iRound = r->iRound;
    a[n].bWin = r->zB ? r->nW > r->nL : r->nW >= r->nL;
    a[n++].bLoss = r->nL > r->nW;
    if (r->zB == 0) continue;
    a[n].zPlayer = r->zB;
    a[n].iRound = r->iRound;
    a[n].bWin = r->nL > r->nW;
    a[n++].bLoss = r->nW > r->nL;
  }
  rc = tb_text_arg_sort((void **)&a, n, sizeof(*a), seat_before, pProbe);
  *paSeat = a;
  *pnSeat = n;
  return rc;
}

/*
** Rows for the rounds the published record counts and Rounds[] does not
** list.  Melee's exports leave out some byes (a round-1 bye of a player
** who registered with one) and some losses with no opponent, while the
** standings count them: a player whose published wins (losses) exceed
** their listed ones gets a bye (a loss with no opponent) in each of their
** earliest Swiss rounds without a row, wins first; column source says
** 'standings'.  Nothing is added for a player with no round left free.
*/
static int infer_player(MeleeCursor *pCur, const MeleeSeat *aSeat, int nSeat,
                        int iLastSwiss, int nCap, const char *zPlayer,
                        int nPubW, int nPubL) {
  int i = seat_find(aSeat, nSeat, zPlayer), k, iRound, rc;
  int nW = 0, nL = 0, nSeen = 0;
  const char *zName;
  if (i == nSeat) return SQLITE_OK; /* never paired: no rounds to place */
  zName = aSeat[i].zPlayer;
  for (k = i; k < nSeat && strcmp(aSeat[k].zPlayer, zName) == 0; k++) {
    nW += aSeat[k].bWin;
    nL += aSeat[k].bLoss;
    nSeen++;
  }
  /* walk the gaps between the player's listed rounds (sorted) */
  for (iRound = 1, k = i; iRound <= iLastSwiss && (nPubW > nW || nPubL > nL);
       iRound++) {
    while (k < i + nSeen && aSeat[k].iRound < iRound) k++;
    if (k < i + nSeen && aSeat[k].iRound == iRound) continue;
    if (pCur->nRow >= nCap) return SQLITE_OK;
    rc = row_add(pCur, iRound, "", zName, 0, nPubW > nW ? 2 : 0,
                 nPubW > nW ? 0 : 2, 0);
    if (rc != SQLITE_OK) return rc;
    if (nPubW > nW) nW++; else nL++;
    pCur->aRow[pCur->nRow - 1].bInferred = 1;
    pCur->aRow[pCur->nRow - 1].bPlayoff = 0;
  }
  return SQLITE_OK;
}

/* An added row's round_name: what the listed rows of its round say. */
static int name_added(MeleeCursor *pCur, int nListed) {
  int i, nRound = 0;
  char **az;
  for (i = 0; i < pCur->nRow; i++) {
    if (pCur->aRow[i].iRound > nRound) nRound = pCur->aRow[i].iRound;
  }
  az = sqlite3_malloc64(sizeof(char *) * ((sqlite3_uint64)nRound + 1));
  if (az == 0) return SQLITE_NOMEM;
  memset(az, 0, sizeof(char *) * ((size_t)nRound + 1));
  for (i = 0; i < nListed; i++) az[pCur->aRow[i].iRound] = pCur->aRow[i].zName;
  for (i = nListed; i < pCur->nRow; i++) {
    if (az[pCur->aRow[i].iRound]) pCur->aRow[i].zName = az[pCur->aRow[i].iRound];
  }
  sqlite3_free(az);
  return SQLITE_OK;
}

/* A player's published record, when an entry of Standings[] gives one. */
static int infer_entry(MeleeCursor *pCur, const MeleeSeat *aSeat, int nSeat,
                       int iLastSwiss, int nListed, sqlite3_stmt *pStmt) {
  const char *z = (const char *)sqlite3_column_text(pStmt, 0);
  if (z == 0 || sqlite3_column_type(pStmt, 1) != SQLITE_INTEGER ||
      sqlite3_column_type(pStmt, 2) != SQLITE_INTEGER) {
    return SQLITE_OK; /* a standings line without a record: nothing to infer */
  }
  /* at most as many rows added as listed: a file missing more is not
  ** an export that left a few rounds out */
  return infer_player(pCur, aSeat, nSeat, iLastSwiss, 2 * nListed, z,
                      sqlite3_column_int(pStmt, 1), sqlite3_column_int(pStmt, 2));
}

/* Rows for what the published records count and the rounds leave out,
** from Standings[] of the checked text z[0..n). */
static int infer_unlisted(sqlite3 *db, MeleeCursor *pCur, TbProbe *pProbe,
                          const char *z, int n, char **pzErr) {
  MeleeList standings;
  MeleeSeat *aSeat = 0;
  sqlite3_stmt *pStmt = 0;
  const char *zEntry;
  int nEntry, eType, nSeat = 0, iLastSwiss = 0, nListed = pCur->nRow, k = 0;
  int rc = seats_of(pCur, pProbe, &aSeat, &nSeat, &iLastSwiss);
  if (rc == SQLITE_OK) rc = top_list(z, n, "Standings", &standings, &eType, pProbe);
  if (rc == SQLITE_OK) {
    rc = sqlite3_prepare_v2(db, "SELECT json_extract(?1, '$.Player'),"
                            " json_extract(?1, '$.Wins'), json_extract(?1, '$.Losses')",
                            -1, &pStmt, 0);
  }
  while (rc == SQLITE_OK && (k = list_next(&standings, &zEntry, &nEntry)) > 0) {
    rc = step_element(pStmt, zEntry, nEntry);
    if (rc == SQLITE_ROW) rc = infer_entry(pCur, aSeat, nSeat, iLastSwiss, nListed, pStmt);
  }
  if (rc == SQLITE_OK && k < 0) rc = stop_code(pProbe);
  rc = db_error(db, rc, pzErr);
  sqlite3_finalize(pStmt);
  sqlite3_free(aSeat);
  if (rc == SQLITE_OK && pCur->nRow > nListed) rc = name_added(pCur, nListed);
  return rc;
}

static int meleeFilter(sqlite3_vtab_cursor *cur, int idxNum,
                       const char *idxStr, int argc, sqlite3_value **argv) {
  MeleeCursor *pCur = (MeleeCursor *)cur;
  MeleeVtab *pTab = (MeleeVtab *)cur->pVtab;
  TbProbe probe;
  const char *z;
  char *zErr = 0;
  int rc, n;
  (void)idxNum;
  (void)idxStr;
  cursor_clear(pCur);
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT &&
      sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    return melee_error(cur->pVtab, SQLITE_ERROR,
                       sqlite3_mprintf("the event must be JSON text"));
  }
  if ((pCur->pText = sqlite3_value_dup(argv[0])) == 0) return SQLITE_NOMEM;
  memset(&probe, 0, sizeof(probe));
  probe.db = pTab->db;
  rc = event_text(pCur->pText, &probe, &z, &n, &zErr);
  if (rc == SQLITE_OK) rc = read_json(pTab->db, pCur, &probe, z, n, &zErr);
  if (rc == SQLITE_OK) rc = mark_mirrors(pCur, &probe, &zErr);
  if (rc == SQLITE_OK) rc = infer_unlisted(pTab->db, pCur, &probe, z, n, &zErr);
  tb_probe_close(&probe);
  if (rc != SQLITE_OK) {
    cursor_clear(pCur);
    if (zErr) return melee_error(cur->pVtab, rc, zErr);
    return rc;
  }
  while (pCur->iRow < pCur->nRow && pCur->aRow[pCur->iRow].bDup) pCur->iRow++;
  return SQLITE_OK;
}

static int meleeNext(sqlite3_vtab_cursor *cur) {
  MeleeCursor *pCur = (MeleeCursor *)cur;
  do {
    pCur->iRow++;
  } while (pCur->iRow < pCur->nRow && pCur->aRow[pCur->iRow].bDup);
  return SQLITE_OK;
}

static int meleeEof(sqlite3_vtab_cursor *cur) {
  MeleeCursor *pCur = (MeleeCursor *)cur;
  return pCur->iRow >= pCur->nRow;
}

static int meleeRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  *pRowid = ((MeleeCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

static int meleeColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                       int iCol) {
  MeleeCursor *pCur = (MeleeCursor *)cur;
  const MeleeRow *r = &pCur->aRow[pCur->iRow];
  switch (iCol) {
    case MC_ROUND: sqlite3_result_int(ctx, r->iRound); break;
    case MC_PLAYER_A: sqlite3_result_text(ctx, r->zA, -1, SQLITE_TRANSIENT); break;
    case MC_PLAYER_B:
      if (r->zB) sqlite3_result_text(ctx, r->zB, -1, SQLITE_TRANSIENT);
      break;
    case MC_A_WINS: sqlite3_result_int(ctx, r->nW); break;
    case MC_B_WINS: sqlite3_result_int(ctx, r->nL); break;
    case MC_DRAWS: sqlite3_result_int(ctx, r->nD); break;
    case MC_RESULT:
      /* "-" with a losing result: a round lost with no opponent */
      if (r->zB == 0 && r->nL > r->nW) sqlite3_result_text(ctx, "loss", -1, SQLITE_STATIC);
      break;
    case MC_ROUND_NAME: sqlite3_result_text(ctx, r->zName, -1, SQLITE_TRANSIENT); break;
    case MC_PHASE:
      /* "Round N" is NULL, not 'swiss': some exports name a Top 8 "Round
      ** 9".."Round 11", which swiss_rounds=8 then marks (playoff.c) */
      if (r->bPlayoff) sqlite3_result_text(ctx, "playoff", -1, SQLITE_STATIC);
      break;
    case MC_SOURCE:
      sqlite3_result_text(ctx, r->bInferred ? "standings" : "rounds", -1,
                          SQLITE_STATIC);
      break;
    case MC_EVENT_ID: sqlite3_result_value(ctx, pCur->pText); break;
  }
  return SQLITE_OK;
}

static sqlite3_module meleeModule = {
  .iVersion = 0,
  .xCreate = 0, /* eponymous only */
  .xConnect = meleeConnect,
  .xBestIndex = meleeBestIndex,
  .xDisconnect = tb_text_arg_disconnect,
  .xOpen = meleeOpen,
  .xClose = meleeClose,
  .xFilter = meleeFilter,
  .xNext = meleeNext,
  .xEof = meleeEof,
  .xColumn = meleeColumn,
  .xRowid = meleeRowid,
};

/* ------------------------------------------------ melee_players() */

/*
** The cursor walks Standings[] as the outer query asks for rows: one entry
** is read, checked and shown at a time.
*/
typedef struct PlayersCursor {
  sqlite3_vtab_cursor base;
  MeleeList standings;
  sqlite3_stmt *pEntry;       /* the fields of the entry shown */
  int bEof;
  sqlite3_value *pText;       /* the event_id argument */
  sqlite3_int64 iRow;
} PlayersCursor;

static int playersOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor) {
  PlayersCursor *pCur = sqlite3_malloc64(sizeof(*pCur));
  (void)pVtab;
  if (pCur == 0) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  pCur->bEof = 1;
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

static void players_clear(PlayersCursor *pCur) {
  sqlite3_finalize(pCur->pEntry);
  memset(&pCur->standings, 0, sizeof(pCur->standings));
  sqlite3_value_free(pCur->pText);
  pCur->pEntry = 0;
  pCur->pText = 0;
  pCur->iRow = 0;
  pCur->bEof = 1;
}

static int playersClose(sqlite3_vtab_cursor *cur) {
  players_clear((PlayersCursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* Fields of a Standings[] entry, in the query's columns 1.. and the
** types Melee publishes them in: 'i' an integer, 'r' a number. */
static const struct {
  const char *zField;
  char cType;
} aStandingField[] = {
  {"Rank", 'i'}, {"Points", 'i'}, {"Wins", 'i'}, {"Losses", 'i'},
  {"Draws", 'i'}, {"OMWP", 'r'}, {"GWP", 'r'}, {"OGWP", 'r'},
};
#define N_STANDING_FIELD 8

/* The entry iEntry (from 0) the statement stands on: a Player name, and
** fields of their type or absent (NULL). */
static int players_check(sqlite3_vtab *pVtab, sqlite3_stmt *pStmt,
                         sqlite3_int64 iEntry) {
  int i;
  const char *z = (const char *)sqlite3_column_text(pStmt, 0);
  if (sqlite3_column_type(pStmt, 0) != SQLITE_TEXT || z == 0 || z[0] == 0) {
    if (sqlite3_column_type(pStmt, 0) != SQLITE_NULL && z == 0) return SQLITE_NOMEM;
    return melee_error(pVtab, SQLITE_ERROR,
                       sqlite3_mprintf("Standings entry %lld has no Player name",
                                       iEntry + 1));
  }
  for (i = 0; i < N_STANDING_FIELD; i++) {
    int t = sqlite3_column_type(pStmt, i + 1);
    if (t == SQLITE_NULL || t == SQLITE_INTEGER) continue;
    if (t == SQLITE_FLOAT && aStandingField[i].cType == 'r') continue;
    return melee_error(pVtab, SQLITE_ERROR,
                       sqlite3_mprintf("Standings entry %lld (%s): %s is not %s",
                                       iEntry + 1, z, aStandingField[i].zField,
                                       aStandingField[i].cType == 'i'
                                           ? "an integer" : "a number"));
  }
  return SQLITE_OK;
}

/* The next entry, read and checked; at the end, bEof. */
static int players_step(PlayersCursor *pCur) {
  sqlite3_vtab *pVtab = pCur->base.pVtab;
  MeleeVtab *pTab = (MeleeVtab *)pVtab;
  const char *z;
  int n, rc;
  if (list_next(&pCur->standings, &z, &n) <= 0) { /* no probe: never -1 */
    pCur->bEof = 1;
    return SQLITE_OK;
  }
  rc = step_element(pCur->pEntry, z, n);
  if (rc == SQLITE_ROW) return players_check(pVtab, pCur->pEntry, pCur->iRow);
  pCur->bEof = 1;
  if (rc == SQLITE_NOMEM) return rc;
  return melee_error(pVtab, rc, sqlite3_mprintf("%s", sqlite3_errmsg(pTab->db)));
}

/* Standings[] absent: no rows (an event not yet published); anything but
** an array there is an error. */
static int playersFilter(sqlite3_vtab_cursor *cur, int idxNum,
                         const char *idxStr, int argc, sqlite3_value **argv) {
  static const char zSql[] =
      "SELECT json_extract(?1, '$.Player'),"
      " json_extract(?1, '$.Rank'), json_extract(?1, '$.Points'),"
      " json_extract(?1, '$.Wins'), json_extract(?1, '$.Losses'),"
      " json_extract(?1, '$.Draws'), json_extract(?1, '$.OMWP'),"
      " json_extract(?1, '$.GWP'), json_extract(?1, '$.OGWP')";
  PlayersCursor *pCur = (PlayersCursor *)cur;
  MeleeVtab *pTab = (MeleeVtab *)cur->pVtab;
  TbProbe probe;
  const char *z;
  char *zErr = 0;
  int rc, n, eType = 0;
  (void)idxNum;
  (void)idxStr;
  players_clear(pCur);
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT &&
      sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    return melee_error(cur->pVtab, SQLITE_ERROR,
                       sqlite3_mprintf("the event must be JSON text"));
  }
  if ((pCur->pText = sqlite3_value_dup(argv[0])) == 0) return SQLITE_NOMEM;
  memset(&probe, 0, sizeof(probe));
  probe.db = pTab->db;
  rc = event_text(pCur->pText, &probe, &z, &n, &zErr);
  if (rc == SQLITE_OK) rc = top_list(z, n, "Standings", &pCur->standings, &eType, &probe);
  tb_probe_close(&probe);
  /* the entries, read one a row, are short: walked without the probe */
  pCur->standings.pProbe = 0;
  if (rc != SQLITE_OK) {
    players_clear(pCur);
    return zErr ? melee_error(cur->pVtab, rc, zErr) : rc;
  }
  if (eType == 0) {
    players_clear(pCur);
    return SQLITE_OK;
  }
  if (eType != 1) {
    players_clear(pCur);
    return melee_error(cur->pVtab, SQLITE_ERROR,
                       sqlite3_mprintf("Standings is not an array"));
  }
  rc = sqlite3_prepare_v2(pTab->db, zSql, -1, &pCur->pEntry, 0);
  if (rc == SQLITE_OK) {
    pCur->bEof = 0;
    return players_step(pCur);
  }
  players_clear(pCur);
  if (rc == SQLITE_NOMEM) return rc;
  return melee_error(cur->pVtab, rc, sqlite3_mprintf("%s", sqlite3_errmsg(pTab->db)));
}

static int playersNext(sqlite3_vtab_cursor *cur) {
  PlayersCursor *pCur = (PlayersCursor *)cur;
  pCur->iRow++;
  return players_step(pCur);
}

static int playersEof(sqlite3_vtab_cursor *cur) {
  return ((PlayersCursor *)cur)->bEof;
}

static int playersRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *pRowid) {
  *pRowid = ((PlayersCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

/* name: the name Melee prints, which is the player; no division, rating,
** nor status: the file says who stopped playing, not who dropped (an
** eliminated or cut player stops too). */
static int playersColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                         int iCol) {
  PlayersCursor *pCur = (PlayersCursor *)cur;
  switch (iCol) {
    case MP_PLAYER:
    case MP_NAME:
      sqlite3_result_value(ctx, sqlite3_column_value(pCur->pEntry, 0));
      break;
    case MP_EVENT_ID: sqlite3_result_value(ctx, pCur->pText); break;
    default:
      /* published_rank ... published_ogwp: the same values, by the names
      ** standings_check() reads */
      if (iCol >= MP_PUBLISHED_RANK) iCol += MP_RANK - MP_PUBLISHED_RANK;
      if (iCol >= MP_RANK && iCol <= MP_OGWP) {
        sqlite3_result_value(ctx, sqlite3_column_value(pCur->pEntry,
                                                       iCol - MP_RANK + 1));
      }
      break;
  }
  return SQLITE_OK;
}

static sqlite3_module meleePlayersModule = {
  .iVersion = 0,
  .xCreate = 0, /* eponymous only */
  .xConnect = meleeConnect,
  .xBestIndex = meleeBestIndex,
  .xDisconnect = tb_text_arg_disconnect,
  .xOpen = playersOpen,
  .xClose = playersClose,
  .xFilter = playersFilter,
  .xNext = playersNext,
  .xEof = playersEof,
  .xColumn = playersColumn,
  .xRowid = playersRowid,
};

int tb_register_melee(sqlite3 *db) {
  int rc = sqlite3_create_module_v2(db, "melee_matches", &meleeModule,
                                    (void *)&meleeMatchesKind, 0);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "melee_players", &meleePlayersModule,
                                  (void *)&meleePlayersKind, 0);
  }
  return rc;
}
