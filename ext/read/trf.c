/*
** read/trf.c: reading FIDE's Tournament Report File (TRF-16, TRF-2026) from text.
**
**   SELECT * FROM trf_matches(readfile('event.trf'));   -- one row per game or bye
**   SELECT * FROM trf_players(readfile('event.trf'));   -- one row per 001 record
**   SELECT * FROM trf_records(readfile('event.trf'));   -- the other records
**   SELECT * FROM trf_event(readfile('event.trf'));     -- its dates, rounds,
**                                                      -- rule year, scoring
**   SELECT trf_policy(readfile('event.trf'));           -- its tie-break order
**   SELECT trf_policy(readfile('event.trf'), 'fide');   -- or yours, with its
**                                                      -- rule year, scoring
**
** The argument is the file's TEXT (or a BLOB of it, as readfile() returns):
** the extension never opens a file.  trf_matches yields the columns that
** standings() reads from a matches table (round, player_a, player_b,
** a_wins, b_wins, draws, result), players being start numbers; trf_players
** yields the start number, name, rating, federation and the points and rank
** that the file records; trf_records yields every other line as its code
** and its text (012 the name, 202 the tie-break order, ...).  See
** docs/trf.md.
**
** A 001 record lists, per round, the opponent (cols 92-95 + 10 (r-1)), the
** colour (97) and the result (99).  A game appears on both players' lines:
** each side is checked against the other and the game is yielded once,
** from White's line (from the lower start number when no colour is given).
**
**   1 0 =     a game won, lost, drawn        W D L  the same, not rated
**   + -       forfeit won, lost (- -: neither played)
**   U         pairing-allocated bye            F  full-point bye
**   H         half-point bye                   Z  zero-point bye (also -)
**   +         with no opponent (0000 - +): a full-point bye, as files
**             written before the F code have it
**   blank     not paired: no row (standings() counts a zero-point bye)
**
** The whole text is parsed in xFilter into memory the cursor owns.
*/
#include "../tiebreak_int.h"

#include <string.h>

/* Start numbers are 4 digits (cols 5-8). */
#define TRF_MAX_START 9999

/* Which table a module serves. */
enum { TRF_MATCHES = 0, TRF_PLAYERS = 1, TRF_RECORDS = 2, TRF_EVENT = 3 };

typedef struct TrfPlayer {
  int iStart;                 /* start number */
  int iLine;                  /* line number of the 001 record */
  const char *z;              /* the record, in the cursor's copy */
  int n;                      /* its length in bytes */
  int nCol;                   /* ... in columns (characters) */
  int iColMap;                /* its columns' byte offsets in aColMap, or -1:
                              ** one byte a column */
  const int *aCol;            /* the same, once every line is read */
} TrfPlayer;

typedef struct TrfMatch {
  int iRound, iA, iB;         /* iB 0: a bye */
  int nA, nB, nD;             /* game counts */
  const char *zResult;        /* NULL or a result of sql/schema.sql */
  int iLine;
} TrfMatch;

typedef struct TrfVtab {
  sqlite3_vtab base;
  sqlite3 *db;
  int eKind;                  /* TRF_MATCHES or TRF_PLAYERS */
} TrfVtab;

typedef struct TrfCursor {
  sqlite3_vtab_cursor base;
  char *zText;                /* copy of the argument */
  TrfPlayer *aPlayer;
  int nPlayer, nPlayerAlloc;
  TrfMatch *aMatch;
  int nMatch, nMatchAlloc;
  TrfPlayer *aRecord;         /* the other records (iStart unused) */
  int nRecord, nRecordAlloc;
  int *aByStart;              /* start number -> aPlayer index + 1 */
  int *aColMap;               /* byte offsets of the columns of the records
                              ** that hold characters of several bytes */
  int nColMap, nColMapAlloc;
  int nText;                  /* bytes of zText */
  int iRow;
  struct TrfEvent *pEvent;    /* trf_event(): the file's event values */
} TrfCursor;

/* ---------------------------------------------------------------- fields */

/*
** TRF columns are characters: a name such as Müller, written in UTF-8, takes
** more bytes than columns.  The bytes of a valid UTF-8 character of
** several bytes are one column; any other byte is one (so a file in a
** one-byte encoding such as Latin-1 reads byte by byte).
*/
static int char_len(const unsigned char *z, int n) {
  int k, len = z[0] >= 0xF0 ? 4 : z[0] >= 0xE0 ? 3 : 2;
  if (z[0] < 0xC2 || z[0] > 0xF4 || len > n) return 1;
  for (k = 1; k < len; k++) {
    if ((z[k] & 0xC0) != 0x80) return 1;
  }
  return len;
}

/* The byte offset of column k (0-based) of a record; its length past the
** last column. */
static int col_byte(const TrfPlayer *p, int k) {
  if (k >= p->nCol) return p->n;
  return p->aCol ? p->aCol[k] : k;
}

/* Columns iFrom..iTo (1-based, inclusive) of a record, blanks trimmed. */
static const char *field(const TrfPlayer *p, int iFrom, int iTo, int *pn) {
  const char *z = p->z;
  int a, b;
  if (iTo > p->nCol) iTo = p->nCol;
  a = col_byte(p, iFrom - 1);
  b = iTo >= iFrom ? col_byte(p, iTo) : a;
  while (a < b && z[a] == ' ') a++;
  while (b > a && z[b - 1] == ' ') b--;
  *pn = b > a ? b - a : 0;
  return z + a;
}

/* A field of digits as an integer; -1 blank, -2 not a number. */
static int field_int(const TrfPlayer *p, int iFrom, int iTo) {
  int n, k, v = 0;
  const char *z = field(p, iFrom, iTo, &n);
  if (n == 0) return -1;
  for (k = 0; k < n; k++) {
    if (z[k] < '0' || z[k] > '9') return -2;
    v = v * 10 + (z[k] - '0');
  }
  return v;
}

/* One character of a record, blank past its end. */
static char field_char(const TrfPlayer *p, int iCol) {
  return iCol <= p->nCol ? p->z[col_byte(p, iCol - 1)] : ' ';
}

static int round_count(const TrfPlayer *p) {
  return p->nCol < 92 ? 0 : (p->nCol - 92) / 10 + 1;
}

/* One round of a record: opponent (0 none, -2 bad), colour, result. */
static void round_entry(const TrfPlayer *p, int r, int *piOpp, char *pcColour,
                        char *pcResult) {
  int c = 92 + 10 * (r - 1), o = field_int(p, c, c + 3);
  char cRes = field_char(p, c + 7);
  *piOpp = o < 0 ? (o == -1 ? 0 : -2) : o;
  *pcColour = field_char(p, c + 5);
  if (*pcColour == 'W') *pcColour = 'w';
  if (*pcColour == 'B') *pcColour = 'b';
  if (cRes >= 'a' && cRes <= 'z') cRes = (char)(cRes - 'a' + 'A');
  *pcResult = cRes;
}

/* ---------------------------------------------------------------- parse */

static int trf_error(char **pzErr, char *zMsg) {
  *pzErr = zMsg;
  return zMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Count the columns of record p, and map them to bytes if they differ. */
static int map_columns(TrfCursor *c, TrfPlayer *p) {
  const unsigned char *z = (const unsigned char *)p->z;
  int i, k, nCol = 0;
  for (i = 0; i < p->n; i += char_len(z + i, p->n - i)) nCol++;
  p->nCol = nCol;
  p->iColMap = -1;
  p->aCol = 0;
  if (nCol == p->n) return SQLITE_OK;
  if (c->nColMap + nCol > c->nColMapAlloc) {
    sqlite3_int64 nNew = 2 * (sqlite3_int64)c->nColMapAlloc + nCol;
    int *aNew = sqlite3_realloc64(c->aColMap, sizeof(int) * (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    c->aColMap = aNew;
    c->nColMapAlloc = (int)nNew;
  }
  p->iColMap = c->nColMap;
  for (i = 0, k = 0; i < p->n; i += char_len(z + i, p->n - i)) {
    c->aColMap[c->nColMap + k++] = i;
  }
  c->nColMap += nCol;
  return SQLITE_OK;
}

/* Point p at its map (until aColMap moves: set again once all is read). */
static void set_map(const TrfCursor *c, TrfPlayer *p) {
  p->aCol = p->iColMap >= 0 ? c->aColMap + p->iColMap : 0;
}

static int add_player(TrfCursor *c, const char *z, int n, int iLine,
                      char **pzErr) {
  TrfPlayer *p;
  int iStart;
  if (c->nPlayer == c->nPlayerAlloc) {
    int nNew = c->nPlayerAlloc ? c->nPlayerAlloc * 2 : 32;
    TrfPlayer *aNew = sqlite3_realloc64(c->aPlayer, sizeof(*aNew) * (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    c->aPlayer = aNew;
    c->nPlayerAlloc = nNew;
  }
  p = &c->aPlayer[c->nPlayer];
  p->z = z;
  p->n = n;
  p->iLine = iLine;
  if (map_columns(c, p) != SQLITE_OK) return SQLITE_NOMEM;
  set_map(c, p);
  iStart = field_int(p, 5, 8);
  if (iStart <= 0) {
    return trf_error(pzErr, sqlite3_mprintf("line %d: a 001 record needs its "
                                            "start number in columns 5-8, got "
                                            "'%.*s'", iLine,
                                            /* the line's own bytes, not
                                            ** the next line's */
                                            n > 8 ? 4 : n > 4 ? n - 4 : 0,
                                            n > 4 ? z + 4 : ""));
  }
  if (c->aByStart[iStart]) {
    return trf_error(pzErr, sqlite3_mprintf("line %d: start number %d is "
                                            "already used on line %d", iLine,
                                            iStart,
                                            c->aPlayer[c->aByStart[iStart] - 1].iLine));
  }
  p->iStart = iStart;
  c->aByStart[iStart] = ++c->nPlayer;
  return SQLITE_OK;
}

/* Keep a record other than 001. */
static int add_record(TrfCursor *c, const char *z, int n, int iLine) {
  TrfPlayer *p;
  if (c->nRecord == c->nRecordAlloc) {
    int nNew = c->nRecordAlloc ? c->nRecordAlloc * 2 : 16;
    TrfPlayer *aNew = sqlite3_realloc64(c->aRecord, sizeof(*aNew) * (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    c->aRecord = aNew;
    c->nRecordAlloc = nNew;
  }
  p = &c->aRecord[c->nRecord++];
  p->z = z;
  p->n = n;
  p->iLine = iLine;
  p->iStart = 0;
  return map_columns(c, p);
}

/* Split the text into lines: the 001 records, and the others.  A byte
** read costs about what a unit of the computation does (TbProbe). */
static int read_records(TrfCursor *c, int nText, TbProbe *pProbe,
                        char **pzErr) {
  char *z = c->zText;
  int i = 0, iLine = 0, rc;
  while (i < nText) {
    int j = i;
    while (j < nText && z[j] != '\n' && z[j] != '\r') j++;
    iLine++;
    if (j - i >= 3 && memcmp(z + i, "001", 3) == 0) {
      if ((rc = add_player(c, z + i, j - i, iLine, pzErr)) != SQLITE_OK) return rc;
    } else if (j > i) {
      if ((rc = add_record(c, z + i, j - i, iLine)) != SQLITE_OK) return rc;
    }
    if (j + 1 < nText && z[j] == '\r' && z[j + 1] == '\n') j++;
    if ((rc = tb_poll(pProbe, 1 + j - i)) != SQLITE_OK) return rc;
    i = j + 1;
  }
  /* the maps are complete: no more moves of aColMap */
  for (i = 0; i < c->nPlayer; i++) set_map(c, &c->aPlayer[i]);
  for (i = 0; i < c->nRecord; i++) {
    set_map(c, &c->aRecord[i]);
    if ((rc = tb_poll(pProbe, 4)) != SQLITE_OK) return rc;
  }
  if (c->nPlayer == 0) {
    return trf_error(pzErr, sqlite3_mprintf("no player record (a line "
                                            "starting with 001): not a TRF "
                                            "file, or an empty one"));
  }
  return SQLITE_OK;
}

static TrfMatch *new_match(TrfCursor *c) {
  TrfMatch *m;
  if (c->nMatch == c->nMatchAlloc) {
    int nNew = c->nMatchAlloc ? c->nMatchAlloc * 2 : 64;
    TrfMatch *aNew = sqlite3_realloc64(c->aMatch, sizeof(*aNew) * (sqlite3_uint64)nNew);
    if (aNew == 0) return 0;
    c->aMatch = aNew;
    c->nMatchAlloc = nNew;
  }
  m = &c->aMatch[c->nMatch++];
  memset(m, 0, sizeof(*m));
  return m;
}

/*
** The outcome of a game from one side's result code: counts for that
** side as player_a, or a result; 0 if the code is not a game's.
*/
static int game_code(char cRes, int *pA, int *pB, int *pD, int *pbForfeit) {
  *pA = *pB = *pD = 0;
  *pbForfeit = 0;
  switch (cRes) {
    case '1': case 'W': *pA = 1; return 1;
    case '0': case 'L': *pB = 1; return 1;
    case '=': case 'D': *pD = 1; return 1;
    case '+': *pA = 1; *pbForfeit = 1; return 1;
    case '-': *pB = 1; *pbForfeit = 1; return 1;
  }
  return 0;
}

/* Do two sides' result codes tell the same game? */
static int codes_agree(char a, char b) {
  static const char *azPair[] = {"10", "01", "==", "WL", "LW", "DD",
                                 "+-", "-+", "--", "00", "LL"};
  int k;
  for (k = 0; k < (int)(sizeof(azPair) / sizeof(azPair[0])); k++) {
    if (azPair[k][0] == a && azPair[k][1] == b) return 1;
  }
  return 0;
}

/* A game of player p in round r against iOpp, checked against iOpp's line. */
static int read_game(TrfCursor *c, const TrfPlayer *p, int r, int iOpp,
                     char cColour, char cRes, char **pzErr) {
  const TrfPlayer *q;
  int iBack, nA, nB, nD, bForfeit, bWhite;
  char cBackColour, cBackRes;
  TrfMatch *m;
  if (iOpp == p->iStart || iOpp > TRF_MAX_START || c->aByStart[iOpp] == 0) {
    return trf_error(pzErr, sqlite3_mprintf("line %d: player %d's round %d "
                                            "names opponent %d, %s", p->iLine,
                                            p->iStart, r, iOpp,
                                            iOpp == p->iStart ? "the player"
                                                              : "who has no 001 record"));
  }
  if (!game_code(cRes, &nA, &nB, &nD, &bForfeit)) {
    return trf_error(pzErr, sqlite3_mprintf("line %d: player %d's round %d "
                                            "against %d has result '%c' (a game "
                                            "is 1 0 = W D L + -)", p->iLine,
                                            p->iStart, r, iOpp, cRes));
  }
  /* another letter would be read as no colour: the colours the pairing
  ** systems balance, lost to a typo */
  if (strchr("wb- ", cColour) == 0) {
    return trf_error(pzErr, sqlite3_mprintf("line %d: player %d's round %d "
                                            "against %d has colour '%c' (w, "
                                            "b, or - for none)", p->iLine,
                                            p->iStart, r, iOpp, cColour));
  }
  q = &c->aPlayer[c->aByStart[iOpp] - 1];
  if (r > round_count(q)) {
    iBack = 0;
    cBackColour = cBackRes = ' ';
  } else {
    round_entry(q, r, &iBack, &cBackColour, &cBackRes);
  }
  if (iBack != p->iStart || !codes_agree(cRes, cBackRes) ||
      (cColour == 'w') != (cBackColour == 'b') ||
      (cColour == 'b') != (cBackColour == 'w')) {
    return trf_error(pzErr, sqlite3_mprintf("line %d: round %d: player %d "
                                            "has '%d %c %c' but player %d "
                                            "(line %d) has '%d %c %c'",
                                            p->iLine, r, p->iStart, iOpp,
                                            cColour, cRes, iOpp, q->iLine,
                                            iBack, cBackColour, cBackRes));
  }
  /* yielded once: from White, or from the lower number without colours */
  bWhite = cColour == 'w' || (cColour != 'b' && p->iStart < iOpp);
  if (!bWhite) return SQLITE_OK;
  if ((m = new_match(c)) == 0) return SQLITE_NOMEM;
  m->iRound = r;
  m->iA = p->iStart;
  m->iB = iOpp;
  m->iLine = p->iLine;
  if (bForfeit) {
    m->zResult = cRes == '+' ? "forfeit_a"
                 : cBackRes == '+' ? "forfeit_b" : "double_forfeit";
  } else if (nB && (cBackRes == '0' || cBackRes == 'L')) {
    m->zResult = "double_loss";
  } else {
    m->nA = nA;
    m->nB = nB;
    m->nD = nD;
  }
  return SQLITE_OK;
}

/* A round without an opponent: a bye, or nothing. */
static int read_bye(TrfCursor *c, const TrfPlayer *p, int r, char cRes,
                    char **pzErr) {
  TrfMatch *m;
  const char *zResult;
  switch (cRes) {
    case ' ': return SQLITE_OK;
    case 'U': case 'F':
    case '+': /* '0000 - +': a full-point bye as older files write it */
      zResult = 0;
      break;
    case 'H': zResult = "half_bye"; break;
    case 'Z': case '-': zResult = "zero_bye"; break;
    default:
      return trf_error(pzErr, sqlite3_mprintf("line %d: player %d's round %d "
                                              "has result '%c' and no opponent "
                                              "(a bye is U F H Z, or + as older "
                                              "files write a full-point bye)",
                                              p->iLine,
                                              p->iStart, r, cRes));
  }
  if ((m = new_match(c)) == 0) return SQLITE_NOMEM;
  m->iRound = r;
  m->iA = p->iStart;
  m->zResult = zResult;
  m->iLine = p->iLine;
  return SQLITE_OK;
}

static int read_rounds(TrfCursor *c, TbProbe *pProbe, char **pzErr) {
  int i, r, rc;
  for (i = 0; i < c->nPlayer; i++) {
    const TrfPlayer *p = &c->aPlayer[i];
    int nRound = round_count(p);
    if ((rc = tb_poll(pProbe, 1 + p->n)) != SQLITE_OK) return rc;
    for (r = 1; r <= nRound; r++) {
      int iOpp;
      char cColour, cRes;
      round_entry(p, r, &iOpp, &cColour, &cRes);
      if (iOpp == -2) {
        return trf_error(pzErr, sqlite3_mprintf("line %d: player %d's round %d: "
                                                "the opponent (columns %d-%d) is "
                                                "not a number", p->iLine,
                                                p->iStart, r, 92 + 10 * (r - 1),
                                                95 + 10 * (r - 1)));
      }
      rc = iOpp ? read_game(c, p, r, iOpp, cColour, cRes, pzErr)
                : read_bye(c, p, r, cRes, pzErr);
      if (rc != SQLITE_OK) return rc;
    }
  }
  return SQLITE_OK;
}

static void cursor_clear(TrfCursor *c) {
  sqlite3_free(c->pEvent);
  c->pEvent = 0;
  sqlite3_free(c->zText);
  sqlite3_free(c->aPlayer);
  sqlite3_free(c->aMatch);
  sqlite3_free(c->aRecord);
  sqlite3_free(c->aByStart);
  sqlite3_free(c->aColMap);
  c->aColMap = 0;
  c->nColMap = c->nColMapAlloc = 0;
  c->aRecord = 0;
  c->nRecord = c->nRecordAlloc = 0;
  c->zText = 0;
  c->aPlayer = 0;
  c->aMatch = 0;
  c->aByStart = 0;
  c->nPlayer = c->nPlayerAlloc = c->nMatch = c->nMatchAlloc = 0;
  c->iRow = 0;
}

/* What a TRF reader takes, said when given something else. */
#define TRF_EXPECTED "the argument must be the text of a TRF file, e.g. readfile('event.trf')"

/* Parse the argument into the cursor; pProbe answers interrupts. */
static int trf_parse(TrfCursor *c, sqlite3_value *v, TbProbe *pProbe,
                     char **pzErr) {
  int eType = v ? sqlite3_value_type(v) : SQLITE_NULL, nText, rc, bNul;
  const void *pData;
  if (eType != SQLITE_TEXT && eType != SQLITE_BLOB) {
    return trf_error(pzErr, tb_text_arg_refusal(TRF_EXPECTED, eType));
  }
  pData = eType == SQLITE_TEXT ? (const void *)sqlite3_value_text(v)
                               : sqlite3_value_blob(v);
  nText = sqlite3_value_bytes(v);
  if (pData == 0 && nText > 0) return SQLITE_NOMEM;
  rc = tb_text_arg_copy(pData, nText, pProbe, &c->zText, &bNul);
  if (rc != SQLITE_OK) return rc;
  c->nText = nText;
  if (bNul) {
    return trf_error(pzErr, sqlite3_mprintf("the TRF text contains a NUL byte: "
                                            "binary data, not a TRF file"));
  }
  c->aByStart = sqlite3_malloc64(sizeof(int) * (TRF_MAX_START + 1));
  if (c->aByStart == 0) return SQLITE_NOMEM;
  memset(c->aByStart, 0, sizeof(int) * (TRF_MAX_START + 1));
  rc = read_records(c, nText, pProbe, pzErr);
  if (rc == SQLITE_OK) rc = read_rounds(c, pProbe, pzErr);
  return rc;
}

/* ------------------------------------------------------- event records */

/* The event-level records read: the first of each code counts. */
enum { REC_NAME, REC_START, REC_END, REC_ROUNDS, REC_XXR, REC_SCORING,
       REC_ORDER_AFTER_PTS, REC_ORDER, N_REC };
static const char *const azRecCode[N_REC] = {"012", "042", "052", "142",
                                             "XXR", "162", "202", "212"};

typedef struct TrfRecords {
  const char *az[N_REC];      /* each record's value (columns 5 on), or NULL */
  int an[N_REC];              /* its length in bytes */
  int aLine[N_REC];           /* its line */
} TrfRecords;

/*
** One pass over the text z[0..n) for the records of azRecCode.  Each line
** polls pProbe (TbProbe): a text of many megabytes answers an interrupt.
*/
static int scan_records(const char *z, int n, TbProbe *pProbe, TrfRecords *r) {
  int i = 0, iLine = 0, k, rc;
  memset(r, 0, sizeof(*r));
  while (i < n) {
    int j = i;
    while (j < n && z[j] != '\n' && z[j] != '\r') j++;
    iLine++;
    for (k = 0; j - i >= 3 && k < N_REC; k++) {
      if (r->az[k] == 0 && memcmp(z + i, azRecCode[k], 3) == 0) {
        r->az[k] = z + i + (j - i > 4 ? 4 : j - i);
        r->an[k] = j - i > 4 ? j - i - 4 : 0;
        r->aLine[k] = iLine;
      }
    }
    if (j + 1 < n && z[j] == '\r' && z[j + 1] == '\n') j++;
    if ((rc = tb_poll(pProbe, 1 + j - i)) != SQLITE_OK) return rc;
    i = j + 1;
  }
  return SQLITE_OK;
}

/* z[0..n) without the blanks around it. */
static void trim(const char **pz, int *pn) {
  while (*pn > 0 && ((*pz)[0] == ' ' || (*pz)[0] == '\t')) (*pz)++, (*pn)--;
  while (*pn > 0 && ((*pz)[*pn - 1] == ' ' || (*pz)[*pn - 1] == '\t')) (*pn)--;
}

/* Digits z[0..n) as a number, -1 if not only digits (or none). */
static i64 digits(const char *z, int n) {
  i64 v = 0;
  int k;
  if (n <= 0 || n > 9) return -1;
  for (k = 0; k < n; k++) {
    if (z[k] < '0' || z[k] > '9') return -1;
    v = v * 10 + (z[k] - '0');
  }
  return v;
}

/* A date YYYY/MM/DD (TRF-2026; '-' or '.' between also read) as the number
** YYYYMMDD, or 0 if the value is none. */
static int date_value(const char *z, int n) {
  i64 y, m, d;
  trim(&z, &n);
  if (n != 10 || z[4] != z[7] || (z[4] != '/' && z[4] != '-' && z[4] != '.')) {
    return 0;
  }
  y = digits(z, 4);
  m = digits(z + 5, 2);
  d = digits(z + 8, 2);
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > 31) return 0;
  return (int)(y * 10000 + m * 100 + d);
}

/* The date of record k (042 start, 052 end) as YYYYMMDD, 0 if none. */
static int record_date(const TrfRecords *r, int k) {
  return r->az[k] ? date_value(r->az[k], r->an[k]) : 0;
}

/*
** The FIDE Tie-Break Regulations (C.07) of 1 March 2026 (approved by the
** FIDE Council on 2 February 2026) apply to events that start on that day
** or later; an event that started before follows the rules of 1 August
** 2024 (for an event before that, the closest rules the extension has: the
** 2023 texts define the same, and the pre-2023 rules are not implemented).
** The start date (042) decides, as the rules of an event are fixed before
** it starts; without it the end date (052).  0: the file gives no date.
*/
#define TRF_RULES_2026_FROM 20260301

static int rules_year(int iStart, int iEnd) {
  int iDate = iStart ? iStart : iEnd;
  if (iDate == 0) return 0;
  return iDate >= TRF_RULES_2026_FROM ? 2026 : 2024;
}

/* The number of rounds the file schedules: record 142 (TRF-2026), else XXR
** (the TRF-16 extension that pairing programs read); -1 if neither, -2 if
** it is not a number (*piLine: its line). */
static int scheduled_rounds(const TrfRecords *r, int *piLine) {
  static const int aRec[] = {REC_ROUNDS, REC_XXR};
  int k;
  for (k = 0; k < 2; k++) {
    const char *zVal = r->az[aRec[k]];
    int nVal = r->an[aRec[k]];
    i64 v;
    if (zVal == 0) continue;
    *piLine = r->aLine[aRec[k]];
    trim(&zVal, &nVal);
    v = digits(zVal, nVal);
    return v < 0 ? -2 : (int)v;
  }
  return -1;
}

/*
** Record 162 (TRF-2026): the points of each result, a code in column 6 and
** its points in columns 7-10 (e.g. " 3.0"), again every 9 columns.  The
** codes: W a win (over the board or by forfeit, a full-point bye), D a draw
** (or a half-point bye), L a loss, A an absence (zero-point bye, forfeit
** loss), P a pairing-allocated bye (default: W's), X an unknown result
** (default: D's).  Points are kept in tenths, as the format writes them.
*/
static const char azScoreCode[] = "WDLAPX";
enum { SCORE_W, SCORE_D, SCORE_L, SCORE_A, SCORE_P, SCORE_X, N_SCORE };

typedef struct TrfScoring {
  int aTenths[N_SCORE];
  int iLine;                  /* of record 162; 0: none, the defaults */
} TrfScoring;

/* Points "11.5", " 3", "0.0" at z[0..n) in tenths, -1 if not such. */
static int tenths(const char *z, int n) {
  i64 v;
  trim(&z, &n);
  if (n >= 3 && z[n - 2] == '.') {
    i64 w = digits(z, n - 2), f = digits(z + n - 1, 1);
    return w < 0 || f < 0 ? -1 : (int)(10 * w + f);
  }
  v = digits(z, n);
  return v < 0 ? -1 : (int)(10 * v);
}

static int read_scoring(const TrfRecords *r, TrfScoring *p, char **pzErr) {
  const char *zVal = r->az[REC_SCORING];
  int nVal = r->an[REC_SCORING], iCol, k, mGiven = 0;
  static const int aDefault[N_SCORE] = {10, 5, 0, 0, 10, 5};
  memcpy(p->aTenths, aDefault, sizeof(aDefault));
  p->iLine = r->aLine[REC_SCORING];
  if (zVal == 0) return SQLITE_OK;
  /* zVal is column 5: column c is zVal[c - 5] */
  for (iCol = 6; iCol - 5 < nVal; iCol += 9) {
    char cCode = zVal[iCol - 5];
    int v, nField = nVal - (iCol - 4) < 4 ? nVal - (iCol - 4) : 4;
    if (cCode == ' ') continue;
    if (cCode >= 'a' && cCode <= 'z') cCode = (char)(cCode - 'a' + 'A');
    for (k = 0; k < N_SCORE && azScoreCode[k] != cCode; k++) {
    }
    if (k == N_SCORE) {
      return trf_error(pzErr, sqlite3_mprintf("line %d: record 162 has '%c' "
                                              "in column %d, not a result code "
                                              "(W D L A P X, in columns 6, 15, "
                                              "24, ...)", p->iLine,
                                              zVal[iCol - 5], iCol));
    }
    v = nField > 0 ? tenths(zVal + iCol - 4, nField) : -1;
    if (v < 0) {
      return trf_error(pzErr, sqlite3_mprintf("line %d: record 162 gives %c "
                                              "'%.*s' in columns %d-%d, not a "
                                              "number of points such as 1.0",
                                              p->iLine, cCode,
                                              nField > 0 ? nField : 0,
                                              zVal + iCol - 4, iCol + 1,
                                              iCol + 4));
    }
    p->aTenths[k] = v;
    mGiven |= 1 << k;
  }
  /* P defaults to W's points, X to D's */
  if (!(mGiven & (1 << SCORE_P))) p->aTenths[SCORE_P] = p->aTenths[SCORE_W];
  if (!(mGiven & (1 << SCORE_X))) p->aTenths[SCORE_X] = p->aTenths[SCORE_D];
  return SQLITE_OK;
}

/* The file's event-level values (trf_event()). */
typedef struct TrfEvent {
  const char *zName;          /* record 012, or NULL */
  int nName;
  int iStart, iEnd;           /* YYYYMMDD, 0 if none */
  int nRounds;                /* 142 or XXR, -1 if none */
  int iRules;                 /* 2024, 2026, 0 if no date */
  TrfScoring scoring;
} TrfEvent;

static int read_event(const TrfRecords *r, TrfEvent *p, char **pzErr) {
  int iLine = 0;
  p->zName = r->az[REC_NAME];
  p->nName = r->an[REC_NAME];
  if (p->zName) trim(&p->zName, &p->nName);
  p->iStart = record_date(r, REC_START);
  p->iEnd = record_date(r, REC_END);
  p->iRules = rules_year(p->iStart, p->iEnd);
  p->nRounds = scheduled_rounds(r, &iLine);
  if (p->nRounds == -2) {
    return trf_error(pzErr, sqlite3_mprintf("line %d: the number of rounds "
                                            "(record 142 or XXR) is not a "
                                            "number", iLine));
  }
  return read_scoring(r, &p->scoring, pzErr);
}

/* ---------------------------------------------------------------- module */

static const char *azSchema[] = {
  "CREATE TABLE x(round, player_a, player_b, a_wins, b_wins, draws, result, "
  "line, trf HIDDEN, event_id HIDDEN, entry HIDDEN)",
  "CREATE TABLE x(player, name, sex, title, rating, federation, fide_id, "
  "birth, points, rank, line, trf HIDDEN, event_id HIDDEN, "
  "published_points HIDDEN, published_rank HIDDEN)",
  "CREATE TABLE x(record, value, line, trf HIDDEN, event_id HIDDEN, "
  "text HIDDEN)",
  "CREATE TABLE x(name, start_date, end_date, rounds, rules, win_points, "
  "draw_points, loss_points, absence_points, pab_points, unknown_points, "
  "trf HIDDEN, event_id HIDDEN)"};
static const int aArgColumn[] = {8, 11, 3, 11};
static const char *azFunction[] = {"trf_matches", "trf_players", "trf_records",
                                   "trf_event"};

static int trfConnect(sqlite3 *db, void *pAux, int argc,
                      const char *const *argv, sqlite3_vtab **ppVtab,
                      char **pzErr) {
  int eKind = *(const int *)pAux;
  int rc = tb_text_arg_connect(db, azSchema[eKind], sizeof(TrfVtab), ppVtab);
  (void)argc;
  (void)argv;
  (void)pzErr;
  if (rc == SQLITE_OK) {
    ((TrfVtab *)*ppVtab)->eKind = eKind;
    ((TrfVtab *)*ppVtab)->db = db;
  }
  return rc;
}

static int trf_arg_column(const TrfVtab *p) {
  return aArgColumn[p->eKind];
}

/* Whether the plan has an equality on column iCol. */
static int has_eq(const sqlite3_index_info *pInfo, int iCol) {
  int i;
  for (i = 0; i < pInfo->nConstraint; i++) {
    if (pInfo->aConstraint[i].iColumn == iCol &&
        tb_op_is_eq(pInfo->aConstraint[i].op)) {
      return 1;
    }
  }
  return 0;
}

/*
** The text is the trf column, also taken as event_id (the column after
** it), which standings(), pairings() and standings_check() ask of the
** tables they read by name.
*/
static int trfBestIndex(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo) {
  TrfVtab *p = (TrfVtab *)pVtab;
  int iCol = trf_arg_column(p);
  if (!has_eq(pInfo, iCol) && has_eq(pInfo, iCol + 1)) {
    iCol++;
  }
  return tb_text_arg_best_index(pVtab, pInfo, iCol, azFunction[p->eKind],
                                "the TRF text", "event.trf");
}

static int trfOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCur) {
  TrfCursor *c = sqlite3_malloc64(sizeof(*c));
  (void)pVtab;
  if (c == 0) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  *ppCur = &c->base;
  return SQLITE_OK;
}

static int trfClose(sqlite3_vtab_cursor *cur) {
  cursor_clear((TrfCursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* trf_event(): the event's values of the text the cursor holds. */
static int parse_event(TrfCursor *c, TbProbe *pProbe, char **pzErr) {
  TrfRecords r;
  int rc = scan_records(c->zText, c->nText, pProbe, &r);
  if (rc != SQLITE_OK) return rc;
  c->pEvent = sqlite3_malloc64(sizeof(*c->pEvent));
  if (c->pEvent == 0) return SQLITE_NOMEM;
  return read_event(&r, c->pEvent, pzErr);
}

static int trfFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                     int argc, sqlite3_value **argv) {
  TrfCursor *c = (TrfCursor *)cur;
  TrfVtab *p = (TrfVtab *)cur->pVtab;
  TbProbe probe;
  char *zErr = 0;
  int rc;
  (void)idxNum;
  (void)idxStr;
  cursor_clear(c);
  memset(&probe, 0, sizeof(probe));
  probe.db = p->db;
  rc = trf_parse(c, argc > 0 ? argv[0] : 0, &probe, &zErr);
  if (rc == SQLITE_OK && p->eKind == TRF_EVENT) rc = parse_event(c, &probe, &zErr);
  tb_probe_close(&probe);
  if (rc != SQLITE_OK) {
    cursor_clear(c);
    if (zErr) {
      sqlite3_free(p->base.zErrMsg);
      p->base.zErrMsg = sqlite3_mprintf("%s(): %s", azFunction[p->eKind], zErr);
      sqlite3_free(zErr);
      if (p->base.zErrMsg == 0) rc = SQLITE_NOMEM;
    }
  }
  return rc;
}

static int trfNext(sqlite3_vtab_cursor *cur) {
  ((TrfCursor *)cur)->iRow++;
  return SQLITE_OK;
}

static int trfEof(sqlite3_vtab_cursor *cur) {
  TrfCursor *c = (TrfCursor *)cur;
  TrfVtab *p = (TrfVtab *)cur->pVtab;
  int n = p->eKind == TRF_PLAYERS ? c->nPlayer
          : p->eKind == TRF_RECORDS ? c->nRecord
          : p->eKind == TRF_EVENT ? (c->pEvent != 0) : c->nMatch;
  return c->iRow >= n;
}

static int trfRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *piRowid) {
  *piRowid = ((TrfCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

/* A text field, or NULL when blank. */
static void result_field(sqlite3_context *ctx, const TrfPlayer *pl, int iFrom,
                         int iTo) {
  int n;
  const char *z = field(pl, iFrom, iTo, &n);
  if (n) sqlite3_result_text(ctx, z, n, SQLITE_TRANSIENT);
}

/* An integer field, NULL when blank or not a number. */
static void result_int_field(sqlite3_context *ctx, const TrfPlayer *pl,
                             int iFrom, int iTo) {
  int v = field_int(pl, iFrom, iTo);
  if (v >= 0) sqlite3_result_int(ctx, v);
}

/* Points as the file writes them ("3.5", "11"): REAL, NULL if not a number. */
static void result_points(sqlite3_context *ctx, const TrfPlayer *pl) {
  int n, k, bDot = 0;
  i64 nWhole = 0, nFrac = 0, nScale = 1;
  const char *z = field(pl, 81, 84, &n);
  if (n == 0) return;
  for (k = 0; k < n; k++) {
    if (z[k] == '.' && !bDot) {
      bDot = 1;
    } else if (z[k] >= '0' && z[k] <= '9') {
      if (bDot) {
        nFrac = nFrac * 10 + (z[k] - '0');
        nScale *= 10;
      } else {
        nWhole = nWhole * 10 + (z[k] - '0');
      }
    } else {
      return;
    }
  }
  sqlite3_result_double(ctx, (double)nWhole + (double)nFrac / (double)nScale);
}

static void player_column(sqlite3_context *ctx, const TrfPlayer *pl, int iCol) {
  switch (iCol) {
    case 0: sqlite3_result_int(ctx, pl->iStart); break;
    case 1: result_field(ctx, pl, 15, 47); break;
    case 2: result_field(ctx, pl, 10, 10); break;
    case 3: result_field(ctx, pl, 11, 13); break;
    case 4: { /* 0 or blank: unrated */
      int v = field_int(pl, 49, 52);
      if (v > 0) sqlite3_result_int(ctx, v);
      break;
    }
    case 5: result_field(ctx, pl, 54, 56); break;
    case 6: result_field(ctx, pl, 58, 68); break;
    case 7: result_field(ctx, pl, 70, 79); break;
    case 8: result_points(ctx, pl); break;
    case 9: result_int_field(ctx, pl, 86, 89); break;
    case 10: sqlite3_result_int(ctx, pl->iLine); break;
  }
}

/* The round of a row as the first player's line writes it ("0000 - -"). */
static void result_entry(sqlite3_context *ctx, const TrfCursor *c,
                         const TrfMatch *m) {
  const TrfPlayer *pl = &c->aPlayer[c->aByStart[m->iA] - 1];
  int iFrom = 92 + 10 * (m->iRound - 1);
  result_field(ctx, pl, iFrom, iFrom + 7);
}

static void match_column(sqlite3_context *ctx, const TrfMatch *m, int iCol) {
  switch (iCol) {
    case 0: sqlite3_result_int(ctx, m->iRound); break;
    case 1: sqlite3_result_int(ctx, m->iA); break;
    case 2: if (m->iB) sqlite3_result_int(ctx, m->iB); break;
    case 3: sqlite3_result_int(ctx, m->nA); break;
    case 4: sqlite3_result_int(ctx, m->nB); break;
    case 5: sqlite3_result_int(ctx, m->nD); break;
    case 6:
      if (m->zResult) sqlite3_result_text(ctx, m->zResult, -1, SQLITE_STATIC);
      break;
    case 7: sqlite3_result_int(ctx, m->iLine); break;
  }
}

/* A date YYYYMMDD as 'YYYY-MM-DD', NULL if none. */
static void result_date(sqlite3_context *ctx, int iDate) {
  char zBuf[16];
  if (iDate == 0) return;
  sqlite3_snprintf(sizeof(zBuf), zBuf, "%04d-%02d-%02d", iDate / 10000,
                   iDate / 100 % 100, iDate % 100);
  sqlite3_result_text(ctx, zBuf, -1, SQLITE_TRANSIENT);
}

static void event_column(sqlite3_context *ctx, const TrfEvent *ev, int iCol) {
  switch (iCol) {
    case 0:
      if (ev->zName) sqlite3_result_text(ctx, ev->zName, ev->nName, SQLITE_TRANSIENT);
      break;
    case 1: result_date(ctx, ev->iStart); break;
    case 2: result_date(ctx, ev->iEnd); break;
    case 3: if (ev->nRounds >= 0) sqlite3_result_int(ctx, ev->nRounds); break;
    case 4: if (ev->iRules) sqlite3_result_int(ctx, ev->iRules); break;
    default: /* the points of W D L A P X */
      sqlite3_result_double(ctx, ev->scoring.aTenths[iCol - 5] / 10.0);
      break;
  }
}

static int trfColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int iCol) {
  TrfCursor *c = (TrfCursor *)cur;
  TrfVtab *p = (TrfVtab *)cur->pVtab;
  int iArg = trf_arg_column(p);
  if (iCol == iArg || iCol == iArg + 1) return SQLITE_OK; /* the text: not repeated */
  if (p->eKind == TRF_PLAYERS) {
    /* published_points, published_rank: the points and rank columns, by the
    ** names standings_check() reads */
    if (iCol > iArg + 1) iCol = iCol == iArg + 2 ? 8 : 9;
    player_column(ctx, &c->aPlayer[c->iRow], iCol);
  } else if (p->eKind == TRF_EVENT) {
    event_column(ctx, c->pEvent, iCol);
  } else if (p->eKind == TRF_RECORDS) {
    const TrfPlayer *r = &c->aRecord[c->iRow];
    if (iCol == 0) {
      sqlite3_result_text(ctx, r->z, r->n < 3 ? r->n : 3, SQLITE_TRANSIENT);
    } else if (iCol == 1) {
      result_field(ctx, r, 5, r->n);
    } else if (iCol == iArg + 2) {
      /* text: the line as written, for records read by fixed columns */
      sqlite3_result_text(ctx, r->z, r->n, SQLITE_TRANSIENT);
    } else {
      sqlite3_result_int(ctx, r->iLine);
    }
  } else if (iCol == iArg + 2) {
    result_entry(ctx, c, &c->aMatch[c->iRow]);
  } else {
    match_column(ctx, &c->aMatch[c->iRow], iCol);
  }
  return SQLITE_OK;
}

static sqlite3_module trfModule = {
  .iVersion = 0,
  .xCreate = 0, /* eponymous only */
  .xConnect = trfConnect,
  .xBestIndex = trfBestIndex,
  .xDisconnect = tb_text_arg_disconnect,
  .xDestroy = 0,
  .xOpen = trfOpen,
  .xClose = trfClose,
  .xFilter = trfFilter,
  .xNext = trfNext,
  .xEof = trfEof,
  .xColumn = trfColumn,
  .xRowid = trfRowid,
};

/* ------------------------------------------------------------ trf_policy */

/*
** trf_policy(text [, policy]): a policy for standings() that ranks the
** event as its file says.  Without a policy (or NULL): the tie-break order
** the file states, record 212 (the whole order, PTS first) or else 202 (the
** tie-breaks after the points, PTS added); TRF-2026 separates the codes by
** commas or blanks, the policy by commas.  A file that states no order is
** an error that names the event: pass a policy then.  Either way the
** policy gets what the file's records say of the rules: the rule year of
** its dates (rules=2024 before 1 March 2026: rules_year()) unless the
** policy writes one, and the points of record 162 (win_points,
** draw_points) unless the policy writes them.  The codes are not checked
** here: standings() names a bad one.
*/

/* The file's own order (212, or PTS and 202) into pOut; 0 if none. */
static int file_order(const TrfRecords *r, sqlite3_str *pOut) {
  int bPts = r->az[REC_ORDER] != 0, i, nItem;
  const char *zVal = r->az[bPts ? REC_ORDER : REC_ORDER_AFTER_PTS];
  int nVal = r->an[bPts ? REC_ORDER : REC_ORDER_AFTER_PTS];
  if (zVal == 0) return 0;
  if (!bPts) sqlite3_str_appendall(pOut, "PTS");
  nItem = !bPts;
  for (i = 0; i < nVal;) {
    int j = i;
    while (j < nVal && zVal[j] != ',' && zVal[j] != ' ' && zVal[j] != '\t') j++;
    if (j > i) {
      /* 202 lists what follows the points: a PTS in it is not repeated */
      int bSkip = !bPts && j - i == 3 && sqlite3_strnicmp(zVal + i, "PTS", 3) == 0;
      if (!bSkip) {
        sqlite3_str_appendf(pOut, "%s%.*s", nItem ? "," : "", j - i, zVal + i);
        nItem++;
      }
    }
    i = j + 1;
  }
  return nItem; /* an empty 212: no order */
}

/* Does the policy text write option zWord (in any case)? */
static int writes_option(const char *zPolicy, const char *zWord) {
  int n = (int)strlen(zWord);
  for (; *zPolicy; zPolicy++) {
    if (sqlite3_strnicmp(zPolicy, zWord, n) == 0) return 1;
  }
  return 0;
}

/*
** zPolicy with the options zOpt ("rules=2024") written on its first item,
** where a policy-wide option applies to the whole policy: 'fide' becomes
** 'fide(rules=2024)', 'fide(unrated=1000),ARO' 'fide(unrated=1000,
** rules=2024),ARO'.
*/
static char *with_options(const char *zPolicy, const char *zOpt) {
  int n = (int)strcspn(zPolicy, ",(");
  if (zPolicy[n] == '(') {
    int k = n + (int)strcspn(zPolicy + n, ")"), j = k;
    while (j > n + 1 && (zPolicy[j - 1] == ' ' || zPolicy[j - 1] == '\t')) j--;
    return sqlite3_mprintf("%.*s%s%s%s", j, zPolicy, j > n + 1 ? ", " : "",
                           zOpt, zPolicy + k);
  }
  while (n > 0 && (zPolicy[n - 1] == ' ' || zPolicy[n - 1] == '\t')) n--;
  return sqlite3_mprintf("%.*s(%s)%s", n, zPolicy, zOpt, zPolicy + n);
}

/*
** The options that apply record 162's points: NULL in *pzOpt when they are
** chess's own (1, 1/2, 0).  What the extension cannot count is refused: it
** gives a loss, an absence (a zero-point bye, a forfeit loss) and a round
** without a row 0 points, a pairing-allocated bye a win's, and counts in
** half points.
*/
static int scoring_options(const TrfScoring *s, char **pzOpt, char **pzErr) {
  const int *a = s->aTenths;
  const char *zWhy = 0;
  *pzOpt = 0;
  if (a[SCORE_W] == 10 && a[SCORE_D] == 5 && a[SCORE_L] == 0 &&
      a[SCORE_A] == 0 && a[SCORE_P] == 10) {
    return SQLITE_OK;
  }
  if (a[SCORE_L] != 0) {
    zWhy = "a loss (L) is counted 0 points";
  } else if (a[SCORE_A] != 0) {
    zWhy = "an absence (A: a zero-point bye, a forfeit loss) is counted 0 points";
  } else if (a[SCORE_P] != a[SCORE_W]) {
    zWhy = "a pairing-allocated bye (P) is counted a win's (W) points";
  } else if (a[SCORE_W] % 5 != 0 || a[SCORE_D] % 5 != 0) {
    zWhy = "points are counted in half points (3.0, 1.5)";
  } else if (a[SCORE_W] <= a[SCORE_D]) {
    zWhy = "a win (W) must be worth more than a draw (D)";
  }
  if (zWhy) {
    return trf_error(pzErr, sqlite3_mprintf(
        "line %d: record 162 scores W %d.%d, D %d.%d, L %d.%d, A %d.%d, P "
        "%d.%d: this cannot be applied, as %s", s->iLine,
        a[SCORE_W] / 10, a[SCORE_W] % 10, a[SCORE_D] / 10, a[SCORE_D] % 10,
        a[SCORE_L] / 10, a[SCORE_L] % 10, a[SCORE_A] / 10, a[SCORE_A] % 10,
        a[SCORE_P] / 10, a[SCORE_P] % 10, zWhy));
  }
  *pzOpt = sqlite3_mprintf("win_points=%d.%d, draw_points=%d.%d",
                           a[SCORE_W] / 10, a[SCORE_W] % 10, a[SCORE_D] / 10,
                           a[SCORE_D] % 10);
  return *pzOpt ? SQLITE_OK : SQLITE_NOMEM;
}

/* Does zPolicy parse (a policy standings() takes)? */
static int policy_parses(const char *zPolicy) {
  TbPolicy *pPolicy = sqlite3_malloc64(sizeof(*pPolicy));
  char *zErr = 0;
  int rc;
  if (pPolicy == 0) return -1;
  rc = tb_policy_parse(zPolicy, pPolicy, &zErr);
  sqlite3_free(zErr);
  sqlite3_free(pPolicy);
  return rc == SQLITE_OK ? 1 : rc == SQLITE_NOMEM ? -1 : 0;
}

/*
** The rule year of the dates on zPolicy (*pzPolicy replaced), unless it
** writes one, and unless no tiebreaker of it reads one ('PTS,DE,WIN':
** rules would be an error there, so the policy stays as it is).
*/
static int add_rules(char **pzPolicy, int iRules) {
  char *zNew;
  int bOk;
  if (iRules != 2024 || writes_option(*pzPolicy, "rules")) return SQLITE_OK;
  zNew = with_options(*pzPolicy, "rules=2024");
  if (zNew == 0) return SQLITE_NOMEM;
  bOk = policy_parses(zNew);
  if (bOk < 0) {
    sqlite3_free(zNew);
    return SQLITE_NOMEM;
  }
  if (bOk || policy_parses(*pzPolicy) == 0) {
    sqlite3_free(*pzPolicy);
    *pzPolicy = zNew; /* or both are refused: standings() says why */
  } else {
    sqlite3_free(zNew);
  }
  return SQLITE_OK;
}

/* The error for a file with no order and no policy passed. */
static char *no_order_error(const TrfEvent *ev) {
  if (ev->zName && ev->nName > 0) {
    return sqlite3_mprintf("the TRF file of event '%.*s' states no tie-break "
                           "order (record 202 or 212): pass a policy, e.g. "
                           "trf_policy(text, 'fide')", ev->nName, ev->zName);
  }
  return sqlite3_mprintf("the TRF file (its event unnamed: no record 012) "
                         "states no tie-break order (record 202 or 212): pass "
                         "a policy, e.g. trf_policy(text, 'fide')");
}

/* The policy of the file z[0..n) (zGiven: the caller's, or NULL) into
** *pzOut; an error in *pzErr. */
static int file_policy(const char *z, int n, const char *zGiven,
                       TbProbe *pProbe, char **pzOut, char **pzErr) {
  TrfRecords r;
  TrfEvent ev;
  char *zPolicy = 0, *zOpt = 0;
  int rc = scan_records(z, n, pProbe, &r);
  *pzOut = 0;
  if (rc == SQLITE_OK) rc = read_event(&r, &ev, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (zGiven) {
    zPolicy = sqlite3_mprintf("%s", zGiven);
  } else {
    sqlite3_str *pOut = sqlite3_str_new(0);
    int nItem = file_order(&r, pOut);
    rc = sqlite3_str_errcode(pOut);
    zPolicy = sqlite3_str_finish(pOut);
    if (rc == SQLITE_OK && nItem == 0) {
      sqlite3_free(zPolicy); /* an empty 212 */
      return trf_error(pzErr, no_order_error(&ev));
    }
    rc = SQLITE_OK;
  }
  if (zPolicy == 0) return SQLITE_NOMEM;
  if (!writes_option(zPolicy, "win_points") &&
      !writes_option(zPolicy, "draw_points")) {
    rc = scoring_options(&ev.scoring, &zOpt, pzErr);
  }
  if (rc == SQLITE_OK && zOpt) {
    char *zNew = with_options(zPolicy, zOpt);
    sqlite3_free(zPolicy);
    zPolicy = zNew;
    if (zPolicy == 0) rc = SQLITE_NOMEM;
  }
  sqlite3_free(zOpt);
  if (rc == SQLITE_OK) rc = add_rules(&zPolicy, ev.iRules);
  if (rc != SQLITE_OK) {
    sqlite3_free(zPolicy);
    return rc;
  }
  *pzOut = zPolicy;
  return SQLITE_OK;
}

static void trfPolicyFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  int eType = sqlite3_value_type(argv[0]), n, rc;
  int eGiven = argc > 1 ? sqlite3_value_type(argv[1]) : SQLITE_NULL;
  const char *z, *zGiven = 0;
  char *zOut = 0, *zErr = 0;
  TbProbe probe;
  if (eType != SQLITE_TEXT && eType != SQLITE_BLOB) {
    zErr = tb_text_arg_refusal(TRF_EXPECTED, eType);
    tb_text_arg_result_error(ctx, "trf_policy", zErr ? SQLITE_ERROR : SQLITE_NOMEM,
                             zErr);
    sqlite3_free(zErr);
    return;
  }
  if (eGiven != SQLITE_NULL && eGiven != SQLITE_TEXT) {
    sqlite3_result_error(ctx, "trf_policy(): the policy must be text, e.g. "
                              "'fide', or NULL for the file's own order", -1);
    return;
  }
  z = eType == SQLITE_TEXT ? (const char *)sqlite3_value_text(argv[0])
                           : (const char *)sqlite3_value_blob(argv[0]);
  n = sqlite3_value_bytes(argv[0]);
  if (eGiven == SQLITE_TEXT) {
    zGiven = (const char *)sqlite3_value_text(argv[1]);
    if (zGiven == 0) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
  }
  if (z == 0 && n > 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  memset(&probe, 0, sizeof(probe));
  probe.db = sqlite3_context_db_handle(ctx);
  rc = file_policy(z ? z : "", n, zGiven, &probe, &zOut, &zErr);
  tb_probe_close(&probe);
  if (rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(ctx);
  } else if (rc != SQLITE_OK && zErr == 0) {
    sqlite3_result_error_code(ctx, rc); /* interrupted */
  } else if (rc != SQLITE_OK) {
    char *zMsg = sqlite3_mprintf("trf_policy(): %s", zErr);
    if (zMsg) {
      sqlite3_result_error(ctx, zMsg, -1);
    } else {
      sqlite3_result_error_nomem(ctx);
    }
    sqlite3_free(zMsg);
  } else {
    sqlite3_result_text(ctx, zOut, -1, sqlite3_free);
    zOut = 0;
  }
  sqlite3_free(zErr);
  sqlite3_free(zOut);
}

int tb_register_trf(sqlite3 *db) {
  static const int aKind[] = {TRF_MATCHES, TRF_PLAYERS, TRF_RECORDS,
                              TRF_EVENT};
  int rc = SQLITE_OK, k;
  for (k = 0; rc == SQLITE_OK && k < 4; k++) {
    rc = sqlite3_create_module(db, azFunction[k], &trfModule, (void *)&aKind[k]);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "trf_policy", 1,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC |
                                     SQLITE_INNOCUOUS,
                                 0, trfPolicyFunc, 0, 0);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "trf_policy", 2,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC |
                                     SQLITE_INNOCUOUS,
                                 0, trfPolicyFunc, 0, 0);
  }
  return rc;
}
