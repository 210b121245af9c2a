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
** no-show) is in the standings too.  An entry without a Player name or
** with a figure of the wrong type is left out, and melee_problems() lists
** it, as it lists the match rows melee_matches() leaves out.
*/
#include "../tiebreak_int.h"

#include <string.h>

/* Columns, in schema order. */
enum {
  MC_ROUND, MC_PLAYER_A, MC_PLAYER_B, MC_A_WINS, MC_B_WINS, MC_DRAWS,
  MC_RESULT, MC_ROUND_NAME, MC_PHASE, MC_SOURCE, MC_EVENT_ID
};

/* One match row; the four texts live in one allocation at zA. */
typedef struct MeleeRow {
  int iRound;
  int bPlayoff;
  int nW, nL, nD;
  int bDup;                   /* the second listing of a mirrored match */
  int bInferred;              /* not listed: from the published record */
  const char *zProblem;       /* why the row is left out (melee_problems) */
  char *zA, *zB, *zName;      /* zB NULL for "-" */
  char *zRes;                 /* Result as written, NULL if none */
} MeleeRow;

typedef struct MeleeCursor {
  sqlite3_vtab_cursor base;
  MeleeRow *aRow;
  int nRow, nAlloc;
  int iRow;
  int bProblems;              /* melee_problems(): the rows left out */
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
/* Columns of melee_problems(): the rows melee_matches() leaves out. */
enum {
  MQ_ROUND, MQ_ROUND_NAME, MQ_PLAYER1, MQ_PLAYER2, MQ_RESULT, MQ_PROBLEM,
  MQ_EVENT_ID
};
static const MeleeKind meleeProblemsKind = {
  "melee_problems",
  "CREATE TABLE x(round, round_name, player1, player2, result, problem, "
  "event_id HIDDEN)",
  MQ_EVENT_ID};
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

/* What a Melee.gg reader takes, said when given something else. */
#define MELEE_EXPECTED "the argument must be the event's JSON text, e.g. readfile('event.json')"

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
                   const char *zA, const char *zB, const char *zRes, int nW,
                   int nL, int nD) {
  size_t nA = strlen(zA) + 1, nB = zB ? strlen(zB) + 1 : 0;
  size_t nName = strlen(zName) + 1, nRes = zRes ? strlen(zRes) + 1 : 0;
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
  z = sqlite3_malloc64(nA + nB + nName + nRes);
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
  if (zRes) {
    r->zRes = r->zName + nName;
    memcpy(r->zRes, zRes, nRes);
  }
  return SQLITE_OK;
}

/* Problems of a row that leave it out of melee_matches(), as
** melee_problems() lists them (docs/melee.md#problems). */
static const char zNoNames[] = "a match without Player1 and Player2 names";
static const char zNotWld[] = "the result is not W-L-D";
static const char zNoArray[] = "Matches is not an array";
static const char zDisagree[] = "two listings of the pairing disagree";
static const char zPairedTwice[] = "a player paired twice in the round";
static const char zSelf[] = "a player paired with themself";
static const char zNoWinner[] = "a playoff match without a winner";

/* A row that cannot be read or counted, kept to be listed; OK or NOMEM. */
static int problem_add(MeleeCursor *pCur, int iRound, const char *zName,
                       const char *zA, const char *zB, const char *zRes,
                       const char *zProblem) {
  int rc = row_add(pCur, iRound, zName, zA ? zA : "", zB, zRes, 0, 0, 0);
  if (rc == SQLITE_OK) pCur->aRow[pCur->nRow - 1].zProblem = zProblem;
  return rc;
}

/* Is row r one that melee_matches() yields? */
static int row_counts(const MeleeRow *r) {
  return !r->bDup && r->zProblem == 0;
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

/* Are p and r listings of one match (a round, the same two players)? */
static int same_pairing(const MeleeRow *p, const MeleeRow *r) {
  return r->zB && p->zB && p->iRound == r->iRound &&
         strcmp(pair_lo(p), pair_lo(r)) == 0 && strcmp(pair_hi(p), pair_hi(r)) == 0;
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
** the later listing is dropped when both say the same; when they disagree,
** the file cannot tell which is right, and both are problems.
*/
static int mark_mirrors(MeleeCursor *pCur, TbProbe *pProbe) {
  MeleeRow **ap;
  int i, j, n = 0, rc = SQLITE_OK;
  if (pCur->nRow < 2) return SQLITE_OK;
  ap = sqlite3_malloc64(sizeof(MeleeRow *) * (sqlite3_uint64)pCur->nRow);
  if (ap == 0) return SQLITE_NOMEM;
  for (i = 0; i < pCur->nRow; i++) {
    if (pCur->aRow[i].zProblem == 0) ap[n++] = &pCur->aRow[i];
  }
  rc = tb_text_arg_sort((void **)&ap, n, sizeof(*ap), pair_before, pProbe);
  for (i = 1; i < n && rc == SQLITE_OK; i++) {
    const MeleeRow *p = ap[i - 1];
    MeleeRow *r = ap[i];
    int a[3], b[3];
    if (!same_pairing(p, r)) continue;
    counts_from(p, p->zA, a);
    counts_from(r, p->zA, b);
    if (memcmp(a, b, sizeof(a)) == 0 && p->zProblem == 0) {
      r->bDup = 1;
      continue;
    }
    for (j = i; j >= 0 && same_pairing(ap[j], r); j--) {
      ap[j]->zProblem = zDisagree;
      ap[j]->bDup = 0;
    }
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

/* Column i of pStmt as text in *pz (NULL for NULL); OK or NOMEM. */
static int column_text(sqlite3_stmt *pStmt, int i, const char **pz) {
  *pz = (const char *)sqlite3_column_text(pStmt, i);
  return *pz == 0 && sqlite3_column_type(pStmt, i) != SQLITE_NULL ? SQLITE_NOMEM
                                                                 : SQLITE_OK;
}

/* One match (Player1, Player2, Result of the statement): a row, or a
** problem row when its names or its result cannot be read. */
static int read_match(MeleeCursor *pCur, int iRound, const char *zName,
                      sqlite3_stmt *pStmt) {
  const char *zA, *zB, *zRes;
  int nW, nL, nD;
  if (column_text(pStmt, 0, &zA) || column_text(pStmt, 1, &zB) ||
      column_text(pStmt, 2, &zRes)) {
    return SQLITE_NOMEM;
  }
  if (sqlite3_column_type(pStmt, 0) != SQLITE_TEXT || zA[0] == 0 ||
      strcmp(zA, "-") == 0 || sqlite3_column_type(pStmt, 1) != SQLITE_TEXT ||
      zB[0] == 0) {
    return problem_add(pCur, iRound, zName, zA, zB, zRes, zNoNames);
  }
  if (sqlite3_column_type(pStmt, 2) != SQLITE_TEXT ||
      !parse_result(zRes, &nW, &nL, &nD)) {
    return problem_add(pCur, iRound, zName, zA, zB, zRes, zNotWld);
  }
  if (strcmp(zB, "-") == 0) zB = 0;
  return row_add(pCur, iRound, zName, zA, zB, zRes, nW, nL, nD);
}

/* The statements that read a round's name and a match, ?1 their text. */
typedef struct MeleeReader {
  sqlite3_stmt *pValue;       /* the value decoded */
  sqlite3_stmt *pMatch;       /* Player1, Player2, Result */
  TbProbe *pProbe;
} MeleeReader;

/* The matches of round iRound, whose text (an object, or not) is z[0..n). */
static int read_round(MeleeCursor *pCur, MeleeReader *p, int iRound,
                      const char *z, int n) {
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
    return problem_add(pCur, iRound, zName, 0, 0, 0, zNoArray);
  }
  while (rc == SQLITE_OK && (k = list_next(&matches, &zMatch, &nMatch)) > 0) {
    rc = step_element(p->pMatch, zMatch, nMatch);
    if (rc == SQLITE_ROW) rc = read_match(pCur, iRound, zName, p->pMatch);
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
    rc = read_round(pCur, &r, ++iRound, zRound, nRound);
  }
  if (rc == SQLITE_OK && k < 0) rc = stop_code(pProbe);
  rc = db_error(db, rc, pzErr);
  sqlite3_finalize(r.pValue);
  sqlite3_finalize(r.pMatch);
  return rc;
}

/* ------------------------------------------------ seats */

/* One player's round, as the rows list it. */
typedef struct MeleeSeat {
  const char *zPlayer;        /* in a row's allocation: stable */
  int iRound;
  int iRow;                   /* its row in aRow */
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

/* A seat of row iRow for player zPlayer, who won (lost) it. */
static void seat_set(MeleeSeat *s, const MeleeRow *r, int iRow,
                     const char *zPlayer, int bWin, int bLoss) {
  s->zPlayer = zPlayer;
  s->iRound = r->iRound;
  s->iRow = iRow;
  s->bWin = bWin;
  s->bLoss = bLoss;
}

/* Every seat of the rows melee_matches() yields, by player, then round. */
static int seats_of(const MeleeCursor *pCur, TbProbe *pProbe, MeleeSeat **paSeat,
                    int *pnSeat) {
  MeleeSeat *a = sqlite3_malloc64(sizeof(MeleeSeat) * (2 * (sqlite3_uint64)pCur->nRow + 1));
  int i, n = 0, rc;
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < pCur->nRow; i++) {
    const MeleeRow *r = &pCur->aRow[i];
    if (!row_counts(r)) continue;
    seat_set(&a[n++], r, i, r->zA, r->zB ? r->nW > r->nL : r->nW >= r->nL,
             r->nL > r->nW);
    if (r->zB) seat_set(&a[n++], r, i, r->zB, r->nL > r->nW, r->nW > r->nL);
  }
  rc = tb_text_arg_sort((void **)&a, n, sizeof(*a), seat_before, pProbe);
  *paSeat = a;
  *pnSeat = n;
  return rc;
}

/* Drop the seats of rows that have become problems; the order stays. */
static void seats_filter(const MeleeCursor *pCur, MeleeSeat *a, int *pn) {
  int i, n = 0;
  for (i = 0; i < *pn; i++) {
    if (pCur->aRow[a[i].iRow].zProblem == 0) a[n++] = a[i];
  }
  *pn = n;
}

/*
** A player listed in two matches of one round, or against themself: the
** file cannot tell which listing is right, so every row involved is a
** problem, and the rest of the event is read.
*/
static int mark_twice(MeleeCursor *pCur, MeleeSeat *a, int *pn, TbProbe *pProbe) {
  int i, rc;
  for (i = 1; i < *pn; i++) {
    if ((rc = tb_poll(pProbe, 1)) != SQLITE_OK) return rc;
    if (a[i].iRound != a[i - 1].iRound || strcmp(a[i].zPlayer, a[i - 1].zPlayer)) {
      continue;
    }
    if (a[i].iRow == a[i - 1].iRow) {
      pCur->aRow[a[i].iRow].zProblem = zSelf;
    } else {
      if (!pCur->aRow[a[i].iRow].zProblem) pCur->aRow[a[i].iRow].zProblem = zPairedTwice;
      if (!pCur->aRow[a[i - 1].iRow].zProblem) pCur->aRow[a[i - 1].iRow].zProblem = zPairedTwice;
    }
  }
  seats_filter(pCur, a, pn);
  return SQLITE_OK;
}

/* ------------------------------------------------ playoff rounds */

/* What one round looks like, from its seats. */
typedef struct RoundShape {
  int nSeat;                  /* players in the round */
  int nWonBefore;             /* of them, who won the round before, or
                              ** had no row in it */
  int bUndecided;             /* a match drawn (not 0-0-0) */
  int bBye;                   /* a row without an opponent */
  int bNamed;                 /* named as a playoff round (not "Round N") */
} RoundShape;

/* The shapes of rounds 1..*pnRound, from the sorted seats. */
static int round_shapes(const MeleeCursor *pCur, const MeleeSeat *a, int n,
                        TbProbe *pProbe, RoundShape **paShape, int *pnRound) {
  int i, nRound = 0, rc;
  RoundShape *aS;
  for (i = 0; i < pCur->nRow; i++) {
    if (pCur->aRow[i].iRound > nRound) nRound = pCur->aRow[i].iRound;
  }
  aS = sqlite3_malloc64(sizeof(RoundShape) * ((sqlite3_uint64)nRound + 2));
  if (aS == 0) return SQLITE_NOMEM;
  memset(aS, 0, sizeof(RoundShape) * ((size_t)nRound + 2));
  for (i = 0; i < pCur->nRow; i++) {
    const MeleeRow *r = &pCur->aRow[i];
    if (r->bPlayoff) aS[r->iRound].bNamed = 1;
  }
  for (i = 0; i < n; i++) {
    RoundShape *p = &aS[a[i].iRound];
    const MeleeRow *r = &pCur->aRow[a[i].iRow];
    if ((rc = tb_poll(pProbe, 1)) != SQLITE_OK) {
      sqlite3_free(aS);
      return rc;
    }
    p->nSeat++;
    /* a draw; 0-0-0 is no result reported, a problem if c is a playoff */
    p->bUndecided |= !a[i].bWin && !a[i].bLoss && (r->nW | r->nL | r->nD) != 0;
    p->bBye |= r->zB == 0;
    /* no row in the round before (an unlisted bye) contradicts nothing */
    p->nWonBefore += i == 0 || a[i - 1].iRound != a[i].iRound - 1 ||
                     strcmp(a[i - 1].zPlayer, a[i].zPlayer) != 0 || a[i - 1].bWin;
  }
  *paShape = aS;
  *pnRound = nRound;
  return SQLITE_OK;
}

static int is_power_of_two(int n) {
  return n >= 2 && (n & (n - 1)) == 0;
}

/*
** Is round c the first round of a top cut: 2, 4, 8, ... players, no byes,
** fewer than the players of the event so far (nBefore), every later round
** half the one before, and no player left out with more match points
** after round c-1 than a player in it (the top of the standings)?  And
** round c-1 a Swiss round (some of its players had lost round c-2), or
** some player of c who had lost round c-1: else c is one more round of
** an event whose players leave after a loss, which Melee values as Swiss.
*/
static int is_top_cut(const MeleeSeat *a, int n, const RoundShape *aS,
                      int c, int iLast, TbProbe *pProbe, int *pb) {
  int i, t, nMinIn = -1, nMaxOut = -1, nBefore = 0, rc;
  *pb = 0;
  if (!is_power_of_two(aS[c].nSeat) || aS[c].bBye ||
      (aS[c].nWonBefore == aS[c].nSeat &&
       (c == 2 || aS[c - 1].nWonBefore == aS[c - 1].nSeat)) ||
      !(2 * aS[c].nSeat <= aS[c - 1].nSeat ||
        (c < iLast && 3 * aS[c].nSeat <= 2 * aS[c - 1].nSeat))) {
    return SQLITE_OK;
  }
  for (t = c; t < iLast; t++) {
    if (2 * aS[t + 1].nSeat != aS[t].nSeat) return SQLITE_OK;
  }
  for (i = 0; i < n;) { /* one player's seats at a time */
    int k, nPts = 0, bIn = 0, bBefore = 0;
    for (k = i; k < n && strcmp(a[k].zPlayer, a[i].zPlayer) == 0; k++) {
      if (a[k].iRound < c) nPts += a[k].bWin ? 3 : (a[k].bLoss ? 0 : 1);
      bIn |= a[k].iRound == c;
      bBefore |= a[k].iRound == c - 1;
    }
    if ((rc = tb_poll(pProbe, k - i)) != SQLITE_OK) return rc;
    if (bIn && (nMinIn < 0 || nPts < nMinIn)) nMinIn = nPts;
    if (!bIn && bBefore && nPts > nMaxOut) nMaxOut = nPts;
    nBefore += a[i].iRound < c; /* seats ascend by round */
    i = k;
  }
  *pb = nMinIn >= 0 && nMinIn >= nMaxOut && aS[c].nSeat < nBefore;
  return SQLITE_OK;
}

/*
** The first round of a playoff that the export names "Round N"
** (docs/melee.md#playoff-rounds), or 0: going back from the last round
** (or from the first round named as a playoff), through rounds whose
** players all won their match of the round before and whose matches all
** have a winner, to the round that starts a top cut (is_top_cut).  Round
** 1 is always Swiss.
*/
static int top_cut_start(const MeleeSeat *a, int n, const RoundShape *aS,
                         int c, int iLast, TbProbe *pProbe, int *piStart) {
  int rc = SQLITE_OK, bCut = 0;
  *piStart = 0;
  for (; c >= 2 && rc == SQLITE_OK; c--) {
    const RoundShape *p = &aS[c];
    if (p->bNamed || p->nSeat == 0 || p->bUndecided) break;
    if (c < iLast && aS[c + 1].nWonBefore != aS[c + 1].nSeat) break;
    rc = is_top_cut(a, n, aS, c, iLast, pProbe, &bCut);
    if (bCut) *piStart = c; /* the earliest: a semifinal looks like one too */
    if (p->nWonBefore != p->nSeat) break;
  }
  return rc;
}

/* The playoff rounds, named or found (top_cut_start), marked; a playoff
** match without a winner is a problem. */
static int detect_playoff(MeleeCursor *pCur, const MeleeSeat *a, int n,
                          TbProbe *pProbe) {
  RoundShape *aS;
  int nRound, iLast, c, i, iStart = 0, rc = round_shapes(pCur, a, n, pProbe, &aS, &nRound);
  if (rc != SQLITE_OK) return rc;
  for (iLast = nRound; iLast > 0 && aS[iLast].nSeat == 0; iLast--) {
  }
  for (c = iLast; c > 0 && aS[c].bNamed; c--) {
  }
  rc = top_cut_start(a, n, aS, c, iLast, pProbe, &iStart);
  for (i = iStart; i > 0 && i <= c; i++) aS[i].bNamed = 1;
  for (i = 0; i < pCur->nRow && rc == SQLITE_OK; i++) {
    MeleeRow *r = &pCur->aRow[i];
    rc = tb_poll(pProbe, 1);
    r->bPlayoff = aS[r->iRound].bNamed;
    /* a single elimination needs a winner: a row without one is left out */
    if (r->bPlayoff && r->zB && r->nW == r->nL && row_counts(r)) {
      r->zProblem = zNoWinner;
    }
  }
  sqlite3_free(aS);
  return rc;
}

/* ------------------------------------------------ Standings entries */

/* The fields of a Standings[] entry: Player, then the published figures in
** the statement's columns 1.. and the types Melee publishes them in: 'i' an
** integer, 'r' a number. */
static const char zEntrySql[] =
    "SELECT json_extract(?1, '$.Player'),"
    " json_extract(?1, '$.Rank'), json_extract(?1, '$.Points'),"
    " json_extract(?1, '$.Wins'), json_extract(?1, '$.Losses'),"
    " json_extract(?1, '$.Draws'), json_extract(?1, '$.OMWP'),"
    " json_extract(?1, '$.GWP'), json_extract(?1, '$.OGWP')";
static const struct {
  const char *zField;
  char cType;
} aStandingField[] = {
  {"Rank", 'i'}, {"Points", 'i'}, {"Wins", 'i'}, {"Losses", 'i'},
  {"Draws", 'i'}, {"OMWP", 'r'}, {"GWP", 'r'}, {"OGWP", 'r'},
};
#define N_STANDING_FIELD 8
#define ENTRY_WINS 3
#define ENTRY_LOSSES 4

/* The entry's Player name, NULL when it has none (absent, empty, not
** text); *pbNoMem when reading it failed. */
static const char *entry_player(sqlite3_stmt *pStmt, int *pbNoMem) {
  const char *z = (const char *)sqlite3_column_text(pStmt, 0);
  int eType = sqlite3_column_type(pStmt, 0);
  *pbNoMem = z == 0 && eType != SQLITE_NULL;
  return eType == SQLITE_TEXT && z && z[0] ? z : 0;
}

/*
** What is wrong with the entry iEntry (from 0) that pStmt stands on, for
** melee_problems(): in *pzProblem, NULL when it has a Player name and
** every field of its type or absent.  OK or SQLITE_NOMEM.
*/
static int entry_problem(sqlite3_stmt *pStmt, sqlite3_int64 iEntry,
                         char **pzProblem) {
  int i, bNoMem;
  const char *z = entry_player(pStmt, &bNoMem);
  *pzProblem = 0;
  if (bNoMem) return SQLITE_NOMEM;
  if (z == 0) {
    *pzProblem = sqlite3_mprintf("Standings entry %lld has no Player name",
                                 iEntry + 1);
    return *pzProblem ? SQLITE_OK : SQLITE_NOMEM;
  }
  for (i = 0; i < N_STANDING_FIELD; i++) {
    int t = sqlite3_column_type(pStmt, i + 1);
    if (t == SQLITE_NULL || t == SQLITE_INTEGER) continue;
    if (t == SQLITE_FLOAT && aStandingField[i].cType == 'r') continue;
    *pzProblem = sqlite3_mprintf("Standings entry %lld (%s): %s is not %s",
                                 iEntry + 1, z, aStandingField[i].zField,
                                 aStandingField[i].cType == 'i'
                                     ? "an integer" : "a number");
    return *pzProblem ? SQLITE_OK : SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* A problem row for a Standings entry left out of melee_players(): no
** round, the entry's player as player1, the problem naming the entry (kept
** in the row's allocation, in the place of its result). */
static int entry_problem_add(MeleeCursor *pCur, sqlite3_stmt *pStmt,
                             const char *zProblem) {
  int bNoMem, rc;
  const char *zPlayer = entry_player(pStmt, &bNoMem);
  if (bNoMem) return SQLITE_NOMEM;
  rc = row_add(pCur, 0, "", zPlayer ? zPlayer : "", 0, zProblem, 0, 0, 0);
  if (rc == SQLITE_OK) {
    MeleeRow *r = &pCur->aRow[pCur->nRow - 1];
    r->zProblem = r->zRes;
    r->zRes = 0;
  }
  return rc;
}

/* ------------------------------------------------ rounds not listed */

/* What the inference reads: the seats, the last Swiss round, the players
** with a problem row (sorted), a cap on rows added. */
typedef struct MeleeListed {
  const MeleeSeat *aSeat;
  int nSeat;
  int iLastSwiss;
  const char **azProblem;
  int nProblem;
  int nCap;
} MeleeListed;

/* Is zPlayer in the sorted list az[0..n)? */
static int name_in(const char **az, int n, const char *zPlayer) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2, c = strcmp(az[mid], zPlayer);
    if (c == 0) return 1;
    if (c < 0) lo = mid + 1; else hi = mid;
  }
  return 0;
}

static int name_before(void *pCtx, const void *pA, const void *pB) {
  (void)pCtx;
  return strcmp(*(const char *const *)pA, *(const char *const *)pB) < 0;
}

/* The players named in problem rows, sorted: their rounds are unknown. */
static int problem_players(const MeleeCursor *pCur, TbProbe *pProbe,
                           const char ***paz, int *pn) {
  const char **az = sqlite3_malloc64(sizeof(char *) * (2 * (sqlite3_uint64)pCur->nRow + 1));
  int i, n = 0;
  if (az == 0) return SQLITE_NOMEM;
  for (i = 0; i < pCur->nRow; i++) {
    const MeleeRow *r = &pCur->aRow[i];
    if (r->zProblem == 0) continue;
    if (r->zA[0]) az[n++] = r->zA;
    if (r->zB && r->zB[0]) az[n++] = r->zB;
  }
  *paz = az;
  *pn = n;
  return tb_text_arg_sort((void **)paz, n, sizeof(*az), name_before, pProbe);
}

/*
** Rows for the rounds the published record counts and Rounds[] does not
** list.  Melee's exports leave out some byes (a round-1 bye of a player
** who registered with one) and some losses with no opponent, while the
** standings count them: a player whose published wins (losses) exceed
** their listed ones gets a bye (a loss with no opponent) in each of their
** earliest Swiss rounds without a row, wins first; column source says
** 'standings'.  Nothing is added for a player with no round left free,
** nor for one named in a problem row (the record counts that row).
*/
static int infer_player(MeleeCursor *pCur, const MeleeListed *pL,
                        const char *zPlayer, int nPubW, int nPubL) {
  const MeleeSeat *aSeat = pL->aSeat;
  int i = seat_find(aSeat, pL->nSeat, zPlayer), k, iRound, rc;
  int nW = 0, nL = 0, nSeen = 0;
  const char *zName;
  /* never paired: no rounds to place */
  if (i == pL->nSeat || name_in(pL->azProblem, pL->nProblem, zPlayer)) return SQLITE_OK;
  zName = aSeat[i].zPlayer;
  for (k = i; k < pL->nSeat && strcmp(aSeat[k].zPlayer, zName) == 0; k++) {
    nW += aSeat[k].bWin;
    nL += aSeat[k].bLoss;
    nSeen++;
  }
  /* walk the gaps between the player's listed rounds (sorted) */
  for (iRound = 1, k = i; iRound <= pL->iLastSwiss && (nPubW > nW || nPubL > nL);
       iRound++) {
    while (k < i + nSeen && aSeat[k].iRound < iRound) k++;
    if (k < i + nSeen && aSeat[k].iRound == iRound) continue;
    if (pCur->nRow >= pL->nCap) return SQLITE_OK;
    rc = row_add(pCur, iRound, "", zName, 0, 0, nPubW > nW ? 2 : 0,
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

/* Entry iEntry of Standings[]: a problem row when melee_players() leaves
** it out, else the rows its published record gives. */
static int infer_entry(MeleeCursor *pCur, MeleeListed *pL, sqlite3_stmt *pStmt,
                       sqlite3_int64 iEntry) {
  char *zProblem = 0;
  int rc = entry_problem(pStmt, iEntry, &zProblem);
  if (rc == SQLITE_OK && zProblem) {
    rc = entry_problem_add(pCur, pStmt, zProblem);
    pL->nCap++; /* the cap counts inferred rows only */
  } else if (rc == SQLITE_OK && sqlite3_column_type(pStmt, ENTRY_WINS) == SQLITE_INTEGER &&
             sqlite3_column_type(pStmt, ENTRY_LOSSES) == SQLITE_INTEGER) {
    /* an entry without a record: nothing to infer */
    rc = infer_player(pCur, pL, (const char *)sqlite3_column_text(pStmt, 0),
                      sqlite3_column_int(pStmt, ENTRY_WINS),
                      sqlite3_column_int(pStmt, ENTRY_LOSSES));
  }
  sqlite3_free(zProblem);
  return rc;
}

/* Rows for what the published records count and the rounds leave out,
** from Standings[] of the checked text z[0..n). */
static int infer_unlisted(sqlite3 *db, MeleeCursor *pCur, TbProbe *pProbe,
                          const char *z, int n, const MeleeSeat *aSeat,
                          int nSeat, char **pzErr) {
  MeleeList standings;
  MeleeListed listed;
  sqlite3_stmt *pStmt = 0;
  const char *zEntry;
  int nEntry, eType, i, nListed = pCur->nRow, k = 0, rc;
  sqlite3_int64 iEntry = 0;
  memset(&listed, 0, sizeof(listed));
  listed.aSeat = aSeat;
  listed.nSeat = nSeat;
  /* at most as many rows added as listed: a file missing more is not
  ** an export that left a few rounds out */
  listed.nCap = 2 * nListed;
  for (i = 0; i < nSeat; i++) {
    const MeleeRow *r = &pCur->aRow[aSeat[i].iRow];
    if (!r->bPlayoff && r->iRound > listed.iLastSwiss) listed.iLastSwiss = r->iRound;
  }
  rc = problem_players(pCur, pProbe, &listed.azProblem, &listed.nProblem);
  if (rc == SQLITE_OK) rc = top_list(z, n, "Standings", &standings, &eType, pProbe);
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, zEntrySql, -1, &pStmt, 0);
  while (rc == SQLITE_OK && (k = list_next(&standings, &zEntry, &nEntry)) > 0) {
    rc = step_element(pStmt, zEntry, nEntry);
    if (rc == SQLITE_ROW) rc = infer_entry(pCur, &listed, pStmt, iEntry++);
  }
  if (rc == SQLITE_OK && k < 0) rc = stop_code(pProbe);
  rc = db_error(db, rc, pzErr);
  sqlite3_finalize(pStmt);
  sqlite3_free((void *)listed.azProblem);
  if (rc == SQLITE_OK && pCur->nRow > nListed) rc = name_added(pCur, nListed);
  return rc;
}

/* The rows of the checked text z[0..n): read, mirrors and problems
** marked, the playoff found, the unlisted rounds added. */
static int load_rows(sqlite3 *db, MeleeCursor *pCur, TbProbe *pProbe,
                     const char *z, int n, char **pzErr) {
  MeleeSeat *aSeat = 0;
  int nSeat = 0, rc = read_json(db, pCur, pProbe, z, n, pzErr);
  if (rc == SQLITE_OK) rc = mark_mirrors(pCur, pProbe);
  if (rc == SQLITE_OK) rc = seats_of(pCur, pProbe, &aSeat, &nSeat);
  if (rc == SQLITE_OK) rc = mark_twice(pCur, aSeat, &nSeat, pProbe);
  if (rc == SQLITE_OK) rc = detect_playoff(pCur, aSeat, nSeat, pProbe);
  if (rc == SQLITE_OK) {
    seats_filter(pCur, aSeat, &nSeat);
    rc = infer_unlisted(db, pCur, pProbe, z, n, aSeat, nSeat, pzErr);
  }
  sqlite3_free(aSeat);
  return rc;
}

/* Is row i one the cursor shows: a match row, or a problem row for
** melee_problems()? */
static int row_shown(const MeleeCursor *pCur, int i) {
  const MeleeRow *r = &pCur->aRow[i];
  return pCur->bProblems ? r->zProblem != 0 : row_counts(r);
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
  pCur->bProblems = pTab->pKind == &meleeProblemsKind;
  if (argc < 1) return SQLITE_OK;
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT &&
      sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    return melee_error(cur->pVtab, SQLITE_ERROR,
                       tb_text_arg_refusal(MELEE_EXPECTED,
                                           sqlite3_value_type(argv[0])));
  }
  if ((pCur->pText = sqlite3_value_dup(argv[0])) == 0) return SQLITE_NOMEM;
  memset(&probe, 0, sizeof(probe));
  probe.db = pTab->db;
  rc = event_text(pCur->pText, &probe, &z, &n, &zErr);
  if (rc == SQLITE_OK) rc = load_rows(pTab->db, pCur, &probe, z, n, &zErr);
  tb_probe_close(&probe);
  if (rc != SQLITE_OK) {
    cursor_clear(pCur);
    if (zErr) return melee_error(cur->pVtab, rc, zErr);
    return rc;
  }
  while (pCur->iRow < pCur->nRow && !row_shown(pCur, pCur->iRow)) pCur->iRow++;
  return SQLITE_OK;
}

static int meleeNext(sqlite3_vtab_cursor *cur) {
  MeleeCursor *pCur = (MeleeCursor *)cur;
  do {
    pCur->iRow++;
  } while (pCur->iRow < pCur->nRow && !row_shown(pCur, pCur->iRow));
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

/* A text column, NULL when empty (a name the file does not give). */
static void result_text(sqlite3_context *ctx, const char *z) {
  if (z && z[0]) sqlite3_result_text(ctx, z, -1, SQLITE_TRANSIENT);
}

/* A row of melee_problems(): the match as the file writes it, and why it
** is left out. */
static void problem_column(const MeleeCursor *pCur, sqlite3_context *ctx,
                           int iCol) {
  const MeleeRow *r = &pCur->aRow[pCur->iRow];
  switch (iCol) {
    /* a Standings entry's problem has no round */
    case MQ_ROUND: if (r->iRound) sqlite3_result_int(ctx, r->iRound); break;
    case MQ_ROUND_NAME:
      if (r->iRound) sqlite3_result_text(ctx, r->zName, -1, SQLITE_TRANSIENT);
      break;
    case MQ_PLAYER1: result_text(ctx, r->zA); break;
    case MQ_PLAYER2: result_text(ctx, r->zB); break;
    case MQ_RESULT: result_text(ctx, r->zRes); break;
    case MQ_PROBLEM: sqlite3_result_text(ctx, r->zProblem, -1, SQLITE_STATIC); break;
    case MQ_EVENT_ID: sqlite3_result_value(ctx, pCur->pText); break;
  }
}

static int meleeColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                       int iCol) {
  MeleeCursor *pCur = (MeleeCursor *)cur;
  const MeleeRow *r = &pCur->aRow[pCur->iRow];
  if (pCur->bProblems) {
    problem_column(pCur, ctx, iCol);
    return SQLITE_OK;
  }
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
  sqlite3_int64 iRow;         /* rows shown */
  sqlite3_int64 iEntry;       /* entries read */
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
  pCur->iRow = pCur->iEntry = 0;
  pCur->bEof = 1;
}

static int playersClose(sqlite3_vtab_cursor *cur) {
  players_clear((PlayersCursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* The next entry that reads well, entries with a problem left out (as
** melee_problems() lists them); at the end, bEof.  iEntry counts every
** entry, iRow the rows shown. */
static int players_step(PlayersCursor *pCur) {
  sqlite3_vtab *pVtab = pCur->base.pVtab;
  MeleeVtab *pTab = (MeleeVtab *)pVtab;
  const char *z;
  char *zProblem = 0;
  int n, rc;
  do {
    sqlite3_free(zProblem);
    if (list_next(&pCur->standings, &z, &n) <= 0) { /* no probe: never -1 */
      pCur->bEof = 1;
      return SQLITE_OK;
    }
    rc = step_element(pCur->pEntry, z, n);
    if (rc == SQLITE_ROW) rc = entry_problem(pCur->pEntry, pCur->iEntry++, &zProblem);
  } while (rc == SQLITE_OK && zProblem);
  if (rc == SQLITE_OK) return rc;
  pCur->bEof = 1;
  if (rc == SQLITE_NOMEM) return rc;
  return melee_error(pVtab, rc, sqlite3_mprintf("%s", sqlite3_errmsg(pTab->db)));
}

/* Standings[] absent: no rows (an event not yet published); anything but
** an array there is an error. */
static int playersFilter(sqlite3_vtab_cursor *cur, int idxNum,
                         const char *idxStr, int argc, sqlite3_value **argv) {
  PlayersCursor *pCur = (PlayersCursor *)cur;
  MeleeVtab *pTab = (MeleeVtab *)cur->pVtab;
  TbProbe probe;
  const char *z;
  char *zErr = 0;
  int rc, n, eType = 0;
  (void)idxNum;
  (void)idxStr;
  players_clear(pCur);
  if (argc < 1) return SQLITE_OK;
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT &&
      sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    return melee_error(cur->pVtab, SQLITE_ERROR,
                       tb_text_arg_refusal(MELEE_EXPECTED,
                                           sqlite3_value_type(argv[0])));
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
  rc = sqlite3_prepare_v2(pTab->db, zEntrySql, -1, &pCur->pEntry, 0);
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

/* ------------------------------------------------ melee_policy() */

/* The Melee.gg preset of a date "YYYY-MM-DD...", by the eras of
** docs/policy-mtg.md#melee-gg; NULL if z is no such date. */
static const char *preset_of_date(const char *z) {
  static const char zShape[] = "dddd-dd-dd";
  int i;
  for (i = 0; i < 10; i++) {
    if (z[i] == 0 || (zShape[i] == 'd' ? !is_digit(z[i]) : z[i] != '-')) return 0;
  }
  if (strncmp(z, "2024-05-10", 10) < 0) return "melee_2023";
  if (strncmp(z, "2025-11-15", 10) < 0) return "melee_2024";
  return "melee";
}

/* Tournament.Date of the checked text z[0..n), decoded by pStmt into
** *pzDate (NULL if absent); -1 when the probe stops the walk. */
static int event_date(const char *z, int n, sqlite3_stmt *pStmt,
                      TbProbe *pProbe, const char **pzDate) {
  const char *zT, *zD;
  int nT, nD, k = member(z, n, "Tournament", &zT, &nT, pProbe);
  *pzDate = 0;
  if (k > 0) k = member(zT, nT, "Date", &zD, &nD, pProbe);
  if (k <= 0) return k < 0 ? stop_code(pProbe) : SQLITE_OK;
  if ((k = step_element(pStmt, zD, nD)) != SQLITE_ROW) return k;
  if (sqlite3_column_type(pStmt, 0) == SQLITE_TEXT) {
    *pzDate = (const char *)sqlite3_column_text(pStmt, 0);
    if (*pzDate == 0) return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/*
** melee_policy(text): the policy of a Melee.gg event file, the preset of
** the era of its Tournament.Date ('melee_2023', 'melee_2024', 'melee').
** The playoff and its cut need no option: melee_matches() marks the
** playoff rounds, and the presets value them as Melee does.
*/
static void meleePolicyFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  sqlite3_stmt *pStmt = 0;
  TbProbe probe;
  const char *z, *zDate = 0, *zPreset = 0;
  char *zErr = 0;
  int n, rc, eType = argc == 1 ? sqlite3_value_type(argv[0]) : SQLITE_NULL;
  if (eType != SQLITE_TEXT && eType != SQLITE_BLOB) {
    zErr = tb_text_arg_refusal(MELEE_EXPECTED, eType);
    tb_text_arg_result_error(ctx, "melee_policy", zErr ? SQLITE_ERROR : SQLITE_NOMEM,
                             zErr);
    sqlite3_free(zErr);
    return;
  }
  memset(&probe, 0, sizeof(probe));
  probe.db = db;
  rc = event_text(argv[0], &probe, &z, &n, &zErr);
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, "SELECT json_extract(?1, '$')", -1, &pStmt, 0);
  if (rc == SQLITE_OK) rc = event_date(z, n, pStmt, &probe, &zDate);
  if (rc == SQLITE_OK && (zDate == 0 || (zPreset = preset_of_date(zDate)) == 0)) {
    zErr = sqlite3_mprintf("the event has no Tournament.Date (YYYY-MM-DD), which "
                           "tells the era of Melee's conventions");
    rc = zErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK) {
    sqlite3_result_text(ctx, zPreset, -1, SQLITE_STATIC);
  } else {
    tb_text_arg_result_error(ctx, "melee_policy", rc, zErr);
  }
  sqlite3_free(zErr);
  sqlite3_finalize(pStmt);
  tb_probe_close(&probe);
}

int tb_register_melee(sqlite3 *db) {
  int rc = sqlite3_create_module_v2(db, "melee_matches", &meleeModule,
                                    (void *)&meleeMatchesKind, 0);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "melee_problems", &meleeModule,
                                  (void *)&meleeProblemsKind, 0);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "melee_players", &meleePlayersModule,
                                  (void *)&meleePlayersKind, 0);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "melee_policy", 1,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                 0, meleePolicyFunc, 0, 0);
  }
  return rc;
}
