/*
** read/tom.c: tom_matches(), tom_players(): the rows of a Pokemon TOM file;
** tom_policy(): the policy of its date.
**
**   SELECT * FROM tom_matches(readfile('event.tdf'));  -- one row per match
**   SELECT * FROM tom_players(readfile('event.tdf'));  -- one row per player
**   SELECT tom_policy(readfile('event.tdf'));          -- 'pokemon' or
**                                                      -- 'pokemon_2023'
**   SELECT division, rank, player FROM
**     standings(?1, tom_policy(?1), NULL, NULL,
**               'tom_matches', '', 'tom_players');    -- ?1 the file's text
**
** Pokemon's Tournament Operations Manager (TOM) saves an event as a .tdf
** file: XML with the registered <players> (userid, names, birth date, a
** <dropped> round), the <pods> that pair them (a category: 0 Juniors,
** 1 Seniors, 2 Masters, or a pod combining them) with their <rounds> of
** <match outcome="..."> (1: player1 won, 2: player2 won, 3: a tie, 5: a
** bye, 8: a late entry's loss, 0: not reported yet), and the <standings>
** TOM computed, one list per division, and <finalsoptions> with each
** division's top cut.  tom_matches yields the rows standings() reads from a
** matches table (the top cut's rounds as phase 'playoff'); tom_players the
** registrations (name, division, status, dropped_after) with TOM's own
** place and the division's top_cut, leaving out the players seated in no
** pod, whom TOM does not place.
**
** The text is the hidden column event_id, so that standings(), which reads
** its tables "WHERE event_id = ?", passes the file's text here and one
** statement goes from the file to the standings.  The extension never opens
** the file: the caller reads it (readfile() in the sqlite3 shell).
**
** XML has no parser in SQLite: a small strict one reads the subset TOM
** writes (elements, attributes, text, the five named entities and numeric
** ones, comments, CDATA, the XML declaration) in one pass without recursion;
** DOCTYPE and processing instructions are errors (no entity expansion).  The
** whole text is parsed in xFilter, checked (players paired twice, unknown
** players, rounds listed twice, rows after a drop, ...), and the errors name
** the line.  See docs/tom.md.
*/
#include "../tiebreak_int.h"

#include <stdarg.h>
#include <string.h>

#define TOM_MAX_DEPTH 64          /* deeper nesting is an error */
#define TOM_MAX_ATTR 16           /* attributes kept per element */
#define TOM_MAX_ROUND 1000000000  /* standings() reads rounds 1 to 10^9 */

/* Which table a module serves. */
enum { TOM_MATCHES = 0, TOM_PLAYERS = 1 };

/* Outcomes of a <match>, as TOM writes them. */
enum {
  OUT_PENDING = 0, OUT_A = 1, OUT_B = 2, OUT_TIE = 3, OUT_BYE = 5,
  OUT_LATE = 8
};

/* Element kinds the reader knows, by their place in the document. */
enum {
  K_OTHER, K_DOCUMENT, K_TOURNAMENT, K_DATA, K_STARTDATE, K_PLAYERS,
  K_PLAYER, K_FIRSTNAME, K_LASTNAME, K_BIRTHDATE, K_DROPPED, K_DROPROUND,
  K_PODS, K_POD, K_SUBGROUPS, K_SUBGROUP, K_PODPLAYERS, K_PODPLAYER,
  K_ROUNDS, K_ROUND, K_MATCHES, K_MATCH, K_PLAYER1, K_PLAYER2, K_BYEPLAYER,
  K_TABLE, K_STANDINGS, K_STANDPOD, K_STANDPLAYER, K_FINALS, K_CATCUT, K_CUT
};

static const struct {
  unsigned char eParent, eKind;
  const char *zName;
} aPath[] = {
  {K_DOCUMENT, K_TOURNAMENT, "tournament"},
  {K_TOURNAMENT, K_DATA, "data"},
  {K_DATA, K_STARTDATE, "startdate"},
  {K_TOURNAMENT, K_PLAYERS, "players"},
  {K_PLAYERS, K_PLAYER, "player"},
  {K_PLAYER, K_FIRSTNAME, "firstname"},
  {K_PLAYER, K_LASTNAME, "lastname"},
  {K_PLAYER, K_BIRTHDATE, "birthdate"},
  {K_PLAYER, K_DROPPED, "dropped"},
  {K_DROPPED, K_DROPROUND, "round"},
  {K_TOURNAMENT, K_PODS, "pods"},
  {K_PODS, K_POD, "pod"},
  {K_POD, K_SUBGROUPS, "subgroups"},
  {K_SUBGROUPS, K_SUBGROUP, "subgroup"},
  {K_SUBGROUP, K_PODPLAYERS, "players"},
  {K_PODPLAYERS, K_PODPLAYER, "player"},
  {K_POD, K_ROUNDS, "rounds"},
  {K_ROUNDS, K_ROUND, "round"},
  {K_ROUND, K_MATCHES, "matches"},
  {K_MATCHES, K_MATCH, "match"},
  {K_MATCH, K_PLAYER1, "player1"},
  {K_MATCH, K_PLAYER2, "player2"},
  {K_MATCH, K_BYEPLAYER, "player"},
  {K_MATCH, K_TABLE, "tablenumber"},
  {K_TOURNAMENT, K_STANDINGS, "standings"},
  {K_STANDINGS, K_STANDPOD, "pod"},
  {K_STANDPOD, K_STANDPLAYER, "player"},
  {K_TOURNAMENT, K_FINALS, "finalsoptions"},
  {K_FINALS, K_CATCUT, "categorycut"},
  {K_CATCUT, K_CUT, "cut"},
};

/* Strings are offsets into the cursor's arena; -1 is none. */
typedef struct TomPlayer {
  int iId, iFirst, iLast;
  int iBirthYear;             /* 0: unknown */
  int iDropped;               /* dropped after this round; -1: not dropped */
  int iPlaceCat;              /* category of TOM's standings list; -1: none */
  int iPlace;                 /* TOM's place (0: none) */
  int bDnf;                   /* in a "dnf" standings list */
  int iPod;                   /* index of the pod the player plays in; -1 */
  int iLine;
} TomPlayer;

typedef struct TomMatch {
  int iPod, iRound, bPlayoff, eOutcome;
  int iA, iB;                 /* ids (offsets), then player indexes; -1 */
  int iTable;                 /* -1: none */
  int iLine;
  int bSkip;                  /* of a round not played yet */
} TomMatch;

typedef struct TomPod {
  int iCategory;              /* -1: none given */
  int nListed;                /* players its subgroups list */
  int iLine;
} TomPod;

typedef struct TomRound {
  int iPod, iNumber, bPlayoff, iLine;
  int iFirst, nMatch;         /* its matches, contiguous in aMatch */
} TomRound;

/* A player named by a pod's list or by TOM's standings. */
typedef struct TomRef {
  int iPod;                   /* pod index, or the standings' category */
  int iId;                    /* id offset, then player index */
  int iPlace, bDnf;
  int iLine;
} TomRef;

typedef struct TomVtab {
  sqlite3_vtab base;
  sqlite3 *db;
  int eKind;
} TomVtab;

typedef struct TomCursor {
  sqlite3_vtab_cursor base;
  char *zText;                /* copy of the argument, decoded in place */
  int nText;
  char *zArena;               /* strings the rows name */
  int nArena, nArenaAlloc;
  TomPlayer *aPlayer;
  int nPlayer, nPlayerAlloc;
  TomMatch *aMatch;
  int nMatch, nMatchAlloc;
  TomPod *aPod;
  int nPod, nPodAlloc;
  TomRound *aRound;
  int nRound, nRoundAlloc;
  TomRef *aMember;            /* pods' player lists */
  int nMember, nMemberAlloc;
  TomRef *aPlace;             /* TOM's standings */
  int nPlace, nPlaceAlloc;
  int *aById;                 /* player indexes sorted by id */
  int iSeason;                /* Play! Pokemon season of the start date */
  int iStartDate;             /* the start date as YYYYMMDD; 0: none */
  int bSeated;                /* some player is in a pod */
  int aCut1[3];               /* per division (0 Juniors, 1 Seniors, 2
                              ** Masters): its top cut's size + 1; 0: none
                              ** given (<finalsoptions><categorycut key>) */
  int iRow;
} TomCursor;

/* ---------------------------------------------------------------- memory */

/* Room for one more element of an array of n elements of sz bytes. */
static int grow(void **pa, int *pnAlloc, int n, size_t sz) {
  void *aNew;
  int nNew;
  if (n < *pnAlloc) return SQLITE_OK;
  nNew = *pnAlloc ? *pnAlloc * 2 : 16;
  aNew = sqlite3_realloc64(*pa, sz * (sqlite3_uint64)nNew);
  if (aNew == 0) return SQLITE_NOMEM;
  *pa = aNew;
  *pnAlloc = nNew;
  return SQLITE_OK;
}

/* Copy z[0..n) into the arena: its offset, or -1 when out of memory. */
static int arena_add(TomCursor *c, const char *z, int n) {
  int iOff;
  while ((i64)c->nArena + n + 1 > c->nArenaAlloc) {
    i64 nNew = c->nArenaAlloc ? (i64)c->nArenaAlloc * 2 : 1024;
    char *zNew;
    if (nNew > 0x7fffffff) return -1; /* offsets are ints */
    zNew = sqlite3_realloc64(c->zArena, (sqlite3_uint64)nNew);
    if (zNew == 0) return -1;
    c->zArena = zNew;
    c->nArenaAlloc = (int)nNew;
  }
  iOff = c->nArena;
  if (n > 0) memcpy(c->zArena + iOff, z, (size_t)n);
  c->zArena[iOff + n] = 0;
  c->nArena += n + 1;
  return iOff;
}

static const char *arena(const TomCursor *c, int iOff) {
  return iOff < 0 ? 0 : c->zArena + iOff;
}

/* ----------------------------------------------------------------- parse */

/* The state of one pass over the text. */
typedef struct TomParse {
  TomCursor *c;
  char *z;
  int n, i;                   /* the text and the position */
  int iLineAt, iLine;         /* the line at position iLineAt */
  int nDepth;
  int aKind[TOM_MAX_DEPTH];
  const char *azName[TOM_MAX_DEPTH];
  int anName[TOM_MAX_DEPTH];
  int bRoot;                  /* the root element was seen */
  const char *azAttr[2 * TOM_MAX_ATTR];  /* name, value (NUL-terminated) */
  int nAttr;
  char *zField;               /* text of the element being read */
  int nField, nFieldAlloc;
  int iPlayer, iPod, iRound, iMatch;     /* the current ones; -1 */
  int iPlaceCat, bPlaceDnf;              /* the current standings list */
  int iCutKey;                           /* the current <categorycut> */
  TbProbe *pProbe;            /* interrupts, polled as the text is read */
  char **pzErr;
} TomParse;

/* The line of position i (1-based): positions asked grow, mostly. */
static int line_at(TomParse *p, int i) {
  int k;
  if (i < p->iLineAt) {
    p->iLineAt = 0;
    p->iLine = 1;
  }
  for (k = p->iLineAt; k < i && k < p->n; k++) {
    if (p->z[k] == '\n') p->iLine++;
  }
  p->iLineAt = k;
  return p->iLine;
}

/* Set the error "line N: ..." (iLine 0: no line) and return SQLITE_ERROR. */
static int parse_error(TomParse *p, int iLine, const char *zFormat, ...) {
  va_list ap;
  char *zMsg;
  va_start(ap, zFormat);
  zMsg = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  sqlite3_free(*p->pzErr);
  *p->pzErr = 0;
  if (zMsg == 0) return SQLITE_NOMEM;
  *p->pzErr = iLine > 0 ? sqlite3_mprintf("line %d: %s", iLine, zMsg)
                        : sqlite3_mprintf("%s", zMsg);
  sqlite3_free(zMsg);
  return *p->pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

static int is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static int is_name_start(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
         ch == ':' || (unsigned char)ch >= 0x80;
}

static int is_name_char(char ch) {
  return is_name_start(ch) || (ch >= '0' && ch <= '9') || ch == '-' ||
         ch == '.';
}

/* The first occurrence of zNeedle at or after position i, or -1. */
static int find(const TomParse *p, int i, const char *zNeedle) {
  int nNeedle = (int)strlen(zNeedle);
  while (i <= p->n - nNeedle) {
    const char *q = memchr(p->z + i, zNeedle[0], (size_t)(p->n - nNeedle - i + 1));
    if (q == 0) return -1;
    i = (int)(q - p->z);
    if (memcmp(q, zNeedle, (size_t)nNeedle) == 0) return i;
    i++;
  }
  return -1;
}

static int starts(const TomParse *p, int i, const char *zPrefix) {
  int n = (int)strlen(zPrefix);
  return i + n <= p->n && memcmp(p->z + i, zPrefix, (size_t)n) == 0;
}

/* Write code point u as UTF-8 at z: its length. */
static int put_utf8(char *z, unsigned u) {
  if (u < 0x80) {
    z[0] = (char)u;
    return 1;
  }
  if (u < 0x800) {
    z[0] = (char)(0xC0 | (u >> 6));
    z[1] = (char)(0x80 | (u & 0x3F));
    return 2;
  }
  if (u < 0x10000) {
    z[0] = (char)(0xE0 | (u >> 12));
    z[1] = (char)(0x80 | ((u >> 6) & 0x3F));
    z[2] = (char)(0x80 | (u & 0x3F));
    return 3;
  }
  z[0] = (char)(0xF0 | (u >> 18));
  z[1] = (char)(0x80 | ((u >> 12) & 0x3F));
  z[2] = (char)(0x80 | ((u >> 6) & 0x3F));
  z[3] = (char)(0x80 | (u & 0x3F));
  return 4;
}

/* A character reference "#65" or "#x41" (between '&' and ';'): its code
** point, or 0 if it is not one XML allows. */
static unsigned char_ref(const char *z, int n) {
  unsigned u = 0;
  int k, bHex = n > 1 && z[1] == 'x', nDigit = n - 1 - bHex;
  if (nDigit < 1 || nDigit > 7) return 0;
  for (k = 1 + bHex; k < n; k++) {
    char ch = z[k];
    unsigned d;
    if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
    else if (bHex && ch >= 'a' && ch <= 'f') d = (unsigned)(ch - 'a' + 10);
    else if (bHex && ch >= 'A' && ch <= 'F') d = (unsigned)(ch - 'A' + 10);
    else return 0;
    u = u * (bHex ? 16u : 10u) + d;
  }
  if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) return 0;
  return u;
}

/*
** Decode the entities of z[i..i+n) in place (a reference is never shorter
** than its character): the decoded length in *pn.  '<' is an error: it
** cannot appear in an attribute value.
*/
static int decode(TomParse *p, int i, int n, int *pn) {
  static const struct {
    const char *zName;
    char ch;
  } aEntity[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'},
                 {"apos", '\''}};
  char *z = p->z + i;
  int r = 0, w = 0;
  while (r < n) {
    const char *zSemi;
    int nRef, k, bFound = 0;
    if (z[r] == '<') {
      return parse_error(p, line_at(p, i + r), "'<' in an attribute value");
    }
    if (z[r] != '&') {
      z[w++] = z[r++];
      continue;
    }
    zSemi = memchr(z + r, ';', (size_t)(n - r < 12 ? n - r : 12));
    nRef = zSemi ? (int)(zSemi - (z + r)) - 1 : -1;
    if (nRef > 0 && z[r + 1] == '#') {
      unsigned u = char_ref(z + r + 1, nRef);
      if (u == 0) {
        return parse_error(p, line_at(p, i + r), "'&%.*s;' is not a character "
                           "XML allows", nRef, z + r + 1);
      }
      w += put_utf8(z + w, u);
      r += nRef + 2;
      continue;
    }
    for (k = 0; nRef > 0 && k < (int)(sizeof(aEntity) / sizeof(aEntity[0])); k++) {
      if ((int)strlen(aEntity[k].zName) == nRef &&
          memcmp(z + r + 1, aEntity[k].zName, (size_t)nRef) == 0) {
        z[w++] = aEntity[k].ch;
        r += nRef + 2;
        bFound = 1;
        break;
      }
    }
    if (!bFound) {
      return parse_error(p, line_at(p, i + r), "'&' that starts no entity "
                         "(XML knows &amp; &lt; &gt; &quot; &apos; and &#N;)");
    }
  }
  *pn = w;
  return SQLITE_OK;
}

/* An attribute of the current element, or NULL. */
static const char *attr(const TomParse *p, const char *zName) {
  int k;
  for (k = 0; k < p->nAttr; k++) {
    if (strcmp(p->azAttr[2 * k], zName) == 0) return p->azAttr[2 * k + 1];
  }
  return 0;
}

/* z (NUL-terminated, blanks around allowed) as an integer from 0 to nMax:
** the integer, -1 blank, -2 not one. */
static int to_int(const char *z, int nMax) {
  i64 v = 0;
  int nDigit = 0;
  if (z == 0) return -1;
  while (is_space(*z)) z++;
  for (; *z >= '0' && *z <= '9'; z++) {
    v = v * 10 + (*z - '0');
    if (++nDigit > 10) return -2;
  }
  while (is_space(*z)) z++;
  if (*z != 0) return -2;
  if (nDigit == 0) return -1;
  return v > nMax ? -2 : (int)v;
}

/* An attribute that must be an integer from 0 to nMax. */
static int int_attr(TomParse *p, int iLine, const char *zElem,
                    const char *zName, int nMax, int *pv) {
  const char *z = attr(p, zName);
  int v = to_int(z, nMax);
  if (v < 0) {
    return parse_error(p, iLine, "<%s %s=%Q>: %s must be an integer from 0 "
                       "to %d", zElem, zName, z ? z : "", zName, nMax);
  }
  *pv = v;
  return SQLITE_OK;
}

/* An attribute that must be given (a player id): its arena offset. */
static int id_attr(TomParse *p, int iLine, const char *zElem,
                   const char *zName, int *piOff) {
  const char *z = attr(p, zName);
  int n = z ? (int)strlen(z) : 0;
  while (n > 0 && is_space(z[0])) {
    z++;
    n--;
  }
  while (n > 0 && is_space(z[n - 1])) n--;
  if (n == 0) {
    return parse_error(p, iLine, "<%s> without its %s", zElem, zName);
  }
  if ((*piOff = arena_add(p->c, z, n)) < 0) return SQLITE_NOMEM;
  return SQLITE_OK;
}

/* A date "MM/DD/YYYY": year, month and day, or 0 if it is not one. */
static int parse_date(const char *z, int *pYear, int *pMonth, int *pDay) {
  int a[3] = {0, 0, 0}, n = 0, nDigit = 0;
  while (is_space(*z)) z++;
  for (;; z++) {
    if (*z >= '0' && *z <= '9' && nDigit < 4) {
      a[n] = a[n] * 10 + (*z - '0');
      nDigit++;
    } else if (*z == '/' && n < 2 && nDigit > 0) {
      n++;
      nDigit = 0;
    } else {
      break;
    }
  }
  while (is_space(*z)) z++;
  if (*z != 0 || n != 2 || nDigit != 4 || a[0] < 1 || a[0] > 12 || a[1] < 1 ||
      a[1] > 31) {
    return 0;
  }
  *pMonth = a[0];
  *pDay = a[1];
  *pYear = a[2];
  return 1;
}

/* ------------------------------------------------- what the elements say */

static int start_player(TomParse *p, int iLine) {
  TomCursor *c = p->c;
  TomPlayer *pl;
  int iId, rc;
  if ((rc = id_attr(p, iLine, "player", "userid", &iId)) != SQLITE_OK) return rc;
  if (grow((void **)&c->aPlayer, &c->nPlayerAlloc, c->nPlayer, sizeof(TomPlayer))) {
    return SQLITE_NOMEM;
  }
  pl = &c->aPlayer[c->nPlayer];
  memset(pl, 0, sizeof(*pl));
  pl->iId = iId;
  pl->iFirst = pl->iLast = -1;
  pl->iDropped = pl->iPlaceCat = pl->iPod = -1;
  pl->iLine = iLine;
  p->iPlayer = c->nPlayer++;
  return SQLITE_OK;
}

static int start_pod(TomParse *p, int iLine) {
  TomCursor *c = p->c;
  TomPod *pod;
  int iCategory = -1, rc;
  if (attr(p, "category")) {
    rc = int_attr(p, iLine, "pod", "category", 1000, &iCategory);
    if (rc != SQLITE_OK) return rc;
  }
  if (grow((void **)&c->aPod, &c->nPodAlloc, c->nPod, sizeof(TomPod))) {
    return SQLITE_NOMEM;
  }
  pod = &c->aPod[c->nPod];
  pod->iCategory = iCategory;
  pod->nListed = 0;
  pod->iLine = iLine;
  p->iPod = c->nPod++;
  return SQLITE_OK;
}

/* A player of a pod's list (iPod >= 0) or of TOM's standings. */
static int add_ref(TomParse *p, TomRef **pa, int *pn, int *pnAlloc, int iPod,
                   int iId, int iPlace, int iLine) {
  TomRef *r;
  if (grow((void **)pa, pnAlloc, *pn, sizeof(TomRef))) return SQLITE_NOMEM;
  r = &(*pa)[(*pn)++];
  r->iPod = iPod;
  r->iId = iId;
  r->iPlace = iPlace;
  r->bDnf = p->bPlaceDnf;
  r->iLine = iLine;
  return SQLITE_OK;
}

static int start_pod_player(TomParse *p, int iLine) {
  TomCursor *c = p->c;
  int iId, rc = id_attr(p, iLine, "player", "userid", &iId);
  if (rc != SQLITE_OK) return rc;
  c->aPod[p->iPod].nListed++;
  return add_ref(p, &c->aMember, &c->nMember, &c->nMemberAlloc, p->iPod, iId,
                 0, iLine);
}

static int start_round(TomParse *p, int iLine) {
  TomCursor *c = p->c;
  TomRound *r;
  int iNumber = 0, iType = 0, rc;
  rc = int_attr(p, iLine, "round", "number", TOM_MAX_ROUND, &iNumber);
  if (rc == SQLITE_OK && iNumber == 0) {
    rc = parse_error(p, iLine, "<round number=\"0\">: rounds are numbered "
                     "from 1");
  }
  if (rc == SQLITE_OK && attr(p, "type")) {
    rc = int_attr(p, iLine, "round", "type", 1000, &iType);
  }
  if (rc != SQLITE_OK) return rc;
  if (grow((void **)&c->aRound, &c->nRoundAlloc, c->nRound, sizeof(TomRound))) {
    return SQLITE_NOMEM;
  }
  r = &c->aRound[c->nRound];
  r->iPod = p->iPod;
  r->iNumber = iNumber;
  r->bPlayoff = iType == 1; /* type 1: single elimination (the top cut) */
  r->iLine = iLine;
  r->iFirst = c->nMatch;
  r->nMatch = 0;
  p->iRound = c->nRound++;
  return SQLITE_OK;
}

static int start_match(TomParse *p, int iLine) {
  TomCursor *c = p->c;
  const TomRound *r = &c->aRound[p->iRound];
  TomMatch *m;
  int eOutcome = 0, rc = int_attr(p, iLine, "match", "outcome", 1000, &eOutcome);
  if (rc != SQLITE_OK) return rc;
  if (grow((void **)&c->aMatch, &c->nMatchAlloc, c->nMatch, sizeof(TomMatch))) {
    return SQLITE_NOMEM;
  }
  m = &c->aMatch[c->nMatch];
  memset(m, 0, sizeof(*m));
  m->iPod = r->iPod;
  m->iRound = r->iNumber;
  m->bPlayoff = r->bPlayoff;
  m->eOutcome = eOutcome;
  m->iA = m->iB = m->iTable = -1;
  m->iLine = iLine;
  p->iMatch = c->nMatch++;
  c->aRound[p->iRound].nMatch++;
  return SQLITE_OK;
}

/* <player1>, <player2>, or the one <player> of a bye. */
static int start_match_player(TomParse *p, int eKind, int iLine) {
  TomMatch *m = &p->c->aMatch[p->iMatch];
  const char *zElem = eKind == K_PLAYER2 ? "player2"
                      : eKind == K_PLAYER1 ? "player1" : "player";
  int *piSlot = eKind == K_PLAYER2 ? &m->iB : &m->iA;
  int iId, rc;
  if (*piSlot >= 0) {
    return parse_error(p, iLine, "round %d: a match with two <%s>%s",
                       m->iRound, zElem,
                       eKind == K_PLAYER2 ? "" : " (or <player1> and <player>)");
  }
  if ((rc = id_attr(p, iLine, zElem, "userid", &iId)) != SQLITE_OK) return rc;
  *piSlot = iId;
  return SQLITE_OK;
}

static int start_place_list(TomParse *p, int iLine) {
  const char *zType = attr(p, "type");
  int rc = int_attr(p, iLine, "pod", "category", 1000, &p->iPlaceCat);
  if (rc != SQLITE_OK) return rc;
  if (zType && strcmp(zType, "finished") == 0) {
    p->bPlaceDnf = 0;
  } else if (zType && strcmp(zType, "dnf") == 0) {
    p->bPlaceDnf = 1;
  } else {
    return parse_error(p, iLine, "<standings> <pod type=%Q>: the type is "
                       "'finished' or 'dnf'", zType ? zType : "");
  }
  return SQLITE_OK;
}

static int start_place(TomParse *p, int iLine) {
  TomCursor *c = p->c;
  int iId, iPlace = 0, rc = id_attr(p, iLine, "player", "id", &iId);
  if (rc == SQLITE_OK && (attr(p, "place") || !p->bPlaceDnf)) {
    rc = int_attr(p, iLine, "player", "place", TOM_MAX_ROUND, &iPlace);
  }
  if (rc != SQLITE_OK) return rc;
  return add_ref(p, &c->aPlace, &c->nPlace, &c->nPlaceAlloc, p->iPlaceCat,
                 iId, iPlace, iLine);
}

/* An element opens; its kind known, its attributes in p->azAttr. */
static int on_start(TomParse *p, int eKind, int iLine) {
  p->nField = 0;
  switch (eKind) {
    case K_PLAYER: return start_player(p, iLine);
    case K_POD: return start_pod(p, iLine);
    case K_PODPLAYER: return start_pod_player(p, iLine);
    case K_ROUND: return start_round(p, iLine);
    case K_MATCH: return start_match(p, iLine);
    case K_PLAYER1: case K_PLAYER2: case K_BYEPLAYER:
      return start_match_player(p, eKind, iLine);
    case K_STANDPOD: return start_place_list(p, iLine);
    case K_STANDPLAYER: return start_place(p, iLine);
    case K_CATCUT: return int_attr(p, iLine, "categorycut", "key", 1000, &p->iCutKey);
  }
  return SQLITE_OK;
}

static int is_field(int eKind) {
  return eKind == K_STARTDATE || eKind == K_FIRSTNAME || eKind == K_LASTNAME ||
         eKind == K_BIRTHDATE || eKind == K_DROPROUND || eKind == K_TABLE ||
         eKind == K_CUT;
}

/* Text of an element the reader keeps. */
static int on_text(TomParse *p, int eKind, const char *z, int n) {
  if (!is_field(eKind) || n == 0) return SQLITE_OK;
  while ((i64)p->nField + n + 1 > p->nFieldAlloc) {
    i64 nNew = p->nFieldAlloc ? (i64)p->nFieldAlloc * 2 : 64;
    char *zNew;
    if (nNew > 0x7fffffff) return SQLITE_NOMEM;
    zNew = sqlite3_realloc64(p->zField, (sqlite3_uint64)nNew);
    if (zNew == 0) return SQLITE_NOMEM;
    p->zField = zNew;
    p->nFieldAlloc = (int)nNew;
  }
  memcpy(p->zField + p->nField, z, (size_t)n);
  p->nField += n;
  return SQLITE_OK;
}

/* A name: its text without the blanks around it, in the arena. */
static int keep_name(TomParse *p, int *piOff) {
  const char *z = p->zField;
  int n = p->nField;
  while (n > 0 && is_space(z[0])) {
    z++;
    n--;
  }
  while (n > 0 && is_space(z[n - 1])) n--;
  if (n == 0) return SQLITE_OK;
  return (*piOff = arena_add(p->c, z, n)) < 0 ? SQLITE_NOMEM : SQLITE_OK;
}

/* A match is complete: its players fit its outcome. */
static int end_match(TomParse *p, int iLine) {
  const TomMatch *m = &p->c->aMatch[p->iMatch];
  switch (m->eOutcome) {
    case OUT_A: case OUT_B: case OUT_TIE:
      if (m->iA < 0 || m->iB < 0) {
        return parse_error(p, iLine, "round %d: a match with outcome %d "
                           "needs <player1> and <player2>", m->iRound,
                           m->eOutcome);
      }
      break;
    case OUT_BYE: case OUT_LATE:
      if (m->iA < 0 || m->iB >= 0) {
        return parse_error(p, iLine, "round %d: a match with outcome %d (%s) "
                           "has one <player>", m->iRound, m->eOutcome,
                           m->eOutcome == OUT_BYE ? "a bye" : "a late loss");
      }
      break;
    case OUT_PENDING:
      if (m->iA < 0) {
        return parse_error(p, iLine, "round %d: a match without players",
                           m->iRound);
      }
      break;
    default:
      return parse_error(p, iLine, "round %d: outcome %d is not one TOM "
                         "writes (1, 2: player1, player2 won; 3: a tie; 5: a "
                         "bye; 8: a late loss; 0: not reported)", m->iRound,
                         m->eOutcome);
  }
  return SQLITE_OK;
}

/* An element closes: the text of a field is read. */
static int on_end(TomParse *p, int eKind, int iLine) {
  TomCursor *c = p->c;
  const char *zElem = 0;
  int v, iMonth, iDay, rc = SQLITE_OK;
  if (is_field(eKind)) {
    /* a buffer for the terminator even when no text came yet */
    if (p->zField == 0 && on_text(p, eKind, " ", 1) != SQLITE_OK) {
      return SQLITE_NOMEM;
    }
    p->zField[p->nField] = 0;
  }
  switch (eKind) {
    case K_MATCH: return end_match(p, iLine);
    case K_FIRSTNAME: return keep_name(p, &c->aPlayer[p->iPlayer].iFirst);
    case K_LASTNAME: return keep_name(p, &c->aPlayer[p->iPlayer].iLast);
    case K_STARTDATE:
      if (to_int(p->zField, 0) == -1) return SQLITE_OK; /* blank: unknown */
      if (!parse_date(p->zField, &v, &iMonth, &iDay)) {
        zElem = "startdate";
        break;
      }
      /* the divisions move each July, into the next year's season */
      c->iSeason = iMonth >= 7 ? v + 1 : v;
      c->iStartDate = v * 10000 + iMonth * 100 + iDay;
      return SQLITE_OK;
    case K_BIRTHDATE:
      if (to_int(p->zField, 0) == -1) return SQLITE_OK; /* blank: unknown */
      if (!parse_date(p->zField, &v, &iMonth, &iDay)) {
        zElem = "birthdate";
        break;
      }
      c->aPlayer[p->iPlayer].iBirthYear = v;
      return SQLITE_OK;
    case K_DROPROUND:
      v = to_int(p->zField, TOM_MAX_ROUND);
      if (v < 0) {
        return parse_error(p, iLine, "player %s: <dropped><round>%s</round>: "
                           "the round must be an integer from 0 to %d",
                           arena(c, c->aPlayer[p->iPlayer].iId), p->zField,
                           TOM_MAX_ROUND);
      }
      c->aPlayer[p->iPlayer].iDropped = v;
      return SQLITE_OK;
    case K_TABLE:
      v = to_int(p->zField, TOM_MAX_ROUND);
      if (v == -2) {
        return parse_error(p, iLine, "round %d: <tablenumber>%s</tablenumber> "
                           "is not a number", c->aMatch[p->iMatch].iRound,
                           p->zField);
      }
      c->aMatch[p->iMatch].iTable = v;
      return SQLITE_OK;
    case K_CUT:
      v = to_int(p->zField, TOM_MAX_ROUND);
      if (v == -2) {
        return parse_error(p, iLine, "<categorycut key='%d'>: <cut>%s</cut> is "
                           "not a number", p->iCutKey, p->zField);
      }
      /* the divisions' keys are their categories; others are not read */
      if (v >= 0 && p->iCutKey <= 2) c->aCut1[p->iCutKey] = v + 1;
      return SQLITE_OK;
  }
  if (zElem) {
    rc = parse_error(p, iLine, "<%s>%s</%s> is not a date MM/DD/YYYY", zElem,
                     p->zField, zElem);
  }
  return rc;
}

/* The kind of element zName (n bytes) inside an element of kind eParent. */
static int kind_of(int eParent, const char *zName, int n) {
  int k;
  if (eParent == K_OTHER) return K_OTHER; /* inside an element not read */
  for (k = 0; k < (int)(sizeof(aPath) / sizeof(aPath[0])); k++) {
    if (aPath[k].eParent == eParent && (int)strlen(aPath[k].zName) == n &&
        memcmp(aPath[k].zName, zName, (size_t)n) == 0) {
      return aPath[k].eKind;
    }
  }
  return K_OTHER;
}

/* ------------------------------------------------------------- tokenizer */

static int read_name(TomParse *p) {
  int i = p->i;
  if (i >= p->n || !is_name_start(p->z[i])) return 0;
  while (i < p->n && is_name_char(p->z[i])) i++;
  return i - p->i;
}

static void skip_space(TomParse *p) {
  while (p->i < p->n && is_space(p->z[p->i])) p->i++;
}

/* The attributes of a start tag, up to '>' or "/>": *pbEmpty for "/>". */
static int read_attributes(TomParse *p, const char *zElem, int nElem,
                           int *pbEmpty) {
  p->nAttr = 0;
  for (;;) {
    int iName = p->i, nName, iValue, iEnd, nValue, k, rc;
    char cQuote;
    skip_space(p);
    if (p->i >= p->n) break;
    if (p->z[p->i] == '>') {
      p->i++;
      *pbEmpty = 0;
      return SQLITE_OK;
    }
    if (starts(p, p->i, "/>")) {
      p->i += 2;
      *pbEmpty = 1;
      return SQLITE_OK;
    }
    if (p->i == iName || (nName = read_name(p)) == 0) {
      return parse_error(p, line_at(p, p->i), "<%.*s>: an attribute must be "
                         "name=\"value\"", nElem, zElem);
    }
    iName = p->i;
    p->i += nName;
    skip_space(p);
    if (p->i >= p->n || p->z[p->i] != '=') {
      return parse_error(p, line_at(p, iName), "<%.*s>: attribute %.*s has "
                         "no value", nElem, zElem, nName, p->z + iName);
    }
    p->i++;
    skip_space(p);
    cQuote = p->i < p->n ? p->z[p->i] : 0;
    if (cQuote != '"' && cQuote != '\'') {
      return parse_error(p, line_at(p, iName), "<%.*s>: the value of %.*s "
                         "must be quoted", nElem, zElem, nName, p->z + iName);
    }
    iValue = p->i + 1;
    {
      const char *q = memchr(p->z + iValue, cQuote, (size_t)(p->n - iValue));
      if (q == 0) break;
      iEnd = (int)(q - p->z);
    }
    line_at(p, iEnd); /* lines are counted before decode() rewrites them */
    if (p->nAttr == TOM_MAX_ATTR) {
      return parse_error(p, line_at(p, iName), "<%.*s> has more than %d "
                         "attributes", nElem, zElem, TOM_MAX_ATTR);
    }
    if ((rc = decode(p, iValue, iEnd - iValue, &nValue)) != SQLITE_OK) return rc;
    p->z[iValue + nValue] = 0; /* over the decoded tail or the quote */
    p->z[iName + nName] = 0;   /* over '=' or a blank, both read */
    for (k = 0; k < p->nAttr; k++) {
      if (strcmp(p->azAttr[2 * k], p->z + iName) == 0) {
        return parse_error(p, line_at(p, iName), "<%.*s> has attribute %s "
                           "twice", nElem, zElem, p->z + iName);
      }
    }
    p->azAttr[2 * p->nAttr] = p->z + iName;
    p->azAttr[2 * p->nAttr + 1] = p->z + iValue;
    p->nAttr++;
    p->i = iEnd + 1;
  }
  return parse_error(p, line_at(p, p->n), "the text ends inside the tag "
                     "<%.*s: truncated", nElem, zElem);
}

static int read_start_tag(TomParse *p) {
  int iStart = p->i, iLine, nName, bEmpty = 0, eParent, eKind, rc;
  const char *zName;
  p->i++;
  if ((nName = read_name(p)) == 0) {
    return parse_error(p, line_at(p, iStart), "'<' followed by no element "
                       "name");
  }
  zName = p->z + p->i;
  p->i += nName;
  iLine = line_at(p, iStart);
  /* the name is kept by pointer: read_attributes() may write a NUL after it */
  if (p->nDepth == 0 && p->bRoot) {
    return parse_error(p, iLine, "<%.*s> after the root element: one root "
                       "only", nName, zName);
  }
  if (p->nDepth == TOM_MAX_DEPTH) {
    return parse_error(p, iLine, "elements nested deeper than %d",
                       TOM_MAX_DEPTH);
  }
  eParent = p->nDepth ? p->aKind[p->nDepth - 1] : K_DOCUMENT;
  eKind = kind_of(eParent, zName, nName);
  if (eParent == K_DOCUMENT && eKind != K_TOURNAMENT) {
    return parse_error(p, iLine, "the root element is <%.*s>, not "
                       "<tournament>: not a TOM file", nName, zName);
  }
  if ((rc = read_attributes(p, zName, nName, &bEmpty)) != SQLITE_OK) return rc;
  p->bRoot = 1;
  p->aKind[p->nDepth] = eKind;
  p->azName[p->nDepth] = zName;
  p->anName[p->nDepth] = nName;
  p->nDepth++;
  if ((rc = on_start(p, eKind, iLine)) != SQLITE_OK) return rc;
  if (bEmpty) {
    p->nDepth--;
    return on_end(p, eKind, iLine);
  }
  return SQLITE_OK;
}

static int read_end_tag(TomParse *p) {
  int iStart = p->i, nName, iTop = p->nDepth - 1;
  const char *zName;
  p->i += 2;
  nName = read_name(p);
  zName = p->z + p->i;
  p->i += nName;
  skip_space(p);
  if (nName == 0 || p->i >= p->n || p->z[p->i] != '>') {
    return parse_error(p, line_at(p, iStart), "a malformed end tag </%.*s",
                       nName, zName);
  }
  p->i++;
  if (iTop < 0) {
    return parse_error(p, line_at(p, iStart), "</%.*s> closes no element",
                       nName, zName);
  }
  /* compare by length first: the open name may end in a NUL we wrote */
  if (nName != p->anName[iTop] || memcmp(zName, p->azName[iTop], (size_t)nName)) {
    return parse_error(p, line_at(p, iStart), "</%.*s> closes <%.*s>", nName,
                       zName, p->anName[iTop], p->azName[iTop]);
  }
  p->nDepth--;
  return on_end(p, p->aKind[iTop], line_at(p, iStart));
}

/* Text up to the next '<': blank outside the root, else entities decoded. */
static int read_text(TomParse *p) {
  int iStart = p->i, nText, k, rc;
  const char *q = memchr(p->z + p->i, '<', (size_t)(p->n - p->i));
  int iEnd = q ? (int)(q - p->z) : p->n;
  p->i = iEnd;
  line_at(p, iEnd); /* lines are counted before decode() rewrites them */
  if (p->nDepth == 0) {
    for (k = iStart; k < iEnd; k++) {
      if (!is_space(p->z[k])) {
        return parse_error(p, line_at(p, k), "text outside the root element: "
                           "not XML, or not a TOM file");
      }
    }
    return SQLITE_OK;
  }
  if (!is_field(p->aKind[p->nDepth - 1])) {
    /* still checked: a stray '&' is an error wherever it is */
    if (memchr(p->z + iStart, '&', (size_t)(iEnd - iStart)) == 0) return SQLITE_OK;
  }
  if ((rc = decode(p, iStart, iEnd - iStart, &nText)) != SQLITE_OK) return rc;
  return on_text(p, p->aKind[p->nDepth - 1], p->z + iStart, nText);
}

/* "<!--" ... "-->", "<![CDATA[" ... "]]>", or another '<!' (an error). */
static int read_markup(TomParse *p) {
  int iStart = p->i, iEnd;
  if (starts(p, p->i, "<!--")) {
    if ((iEnd = find(p, p->i + 4, "-->")) < 0) {
      return parse_error(p, line_at(p, iStart), "a comment that is not "
                         "closed: truncated");
    }
    p->i = iEnd + 3;
    return SQLITE_OK;
  }
  if (starts(p, p->i, "<![CDATA[") && p->nDepth > 0) {
    if ((iEnd = find(p, p->i + 9, "]]>")) < 0) {
      return parse_error(p, line_at(p, iStart), "a CDATA section that is "
                         "not closed: truncated");
    }
    p->i = iEnd + 3;
    return on_text(p, p->aKind[p->nDepth - 1], p->z + iStart + 9,
                   iEnd - iStart - 9);
  }
  return parse_error(p, line_at(p, iStart), "'<!' that is no comment: "
                     "DOCTYPE and other declarations are not read");
}

/* The optional byte order mark and XML declaration. */
static int read_prolog(TomParse *p) {
  int iEnd;
  if (starts(p, 0, "\xEF\xBB\xBF")) p->i = 3;
  if (!starts(p, p->i, "<?xml") || p->i + 5 >= p->n ||
      !is_space(p->z[p->i + 5])) {
    return SQLITE_OK;
  }
  if ((iEnd = find(p, p->i, "?>")) < 0) {
    return parse_error(p, 1, "the XML declaration is not closed");
  }
  p->i = iEnd + 2;
  return SQLITE_OK;
}


/* One pass over the whole text. */
static int read_document(TomParse *p) {
  int rc = read_prolog(p);
  while (rc == SQLITE_OK && p->i < p->n) {
    int iFrom = p->i;
    if (p->z[p->i] != '<') {
      rc = read_text(p);
    } else if (starts(p, p->i, "</")) {
      rc = read_end_tag(p);
    } else if (starts(p, p->i, "<!")) {
      rc = read_markup(p);
    } else if (starts(p, p->i, "<?")) {
      rc = parse_error(p, line_at(p, p->i), "'<?' after the start: "
                       "processing instructions are not read");
    } else {
      rc = read_start_tag(p);
    }
    /* a byte read costs about what a unit of the computation does */
    if (rc == SQLITE_OK) rc = tb_poll(p->pProbe, 1 + (p->i - iFrom));
  }
  if (rc != SQLITE_OK) return rc;
  if (p->nDepth > 0) {
    return parse_error(p, line_at(p, p->n), "the text ends inside <%.*s>: "
                       "truncated", p->anName[p->nDepth - 1],
                       p->azName[p->nDepth - 1]);
  }
  if (!p->bRoot) {
    return parse_error(p, 0, "no element: the text is empty or not XML");
  }
  return SQLITE_OK;
}

/* ------------------------------------------------------------ the checks */

/* Players by id (the id pointer goes with the index). */
typedef struct TomKey {
  const char *zId;
  int iIndex;
} TomKey;

static int key_cmp(const void *pA, const void *pB) {
  const TomKey *a = pA, *b = pB;
  int c = strcmp(a->zId, b->zId);
  if (c) return c;
  return (a->iIndex > b->iIndex) - (a->iIndex < b->iIndex);
}

static int key_before(void *pCtx, const void *pA, const void *pB) {
  (void)pCtx;
  return key_cmp(pA, pB) < 0;
}

/* Sort the players by id; an id registered twice is an error. */
static int index_players(TomParse *p) {
  TomCursor *c = p->c;
  TomKey *a = sqlite3_malloc64(sizeof(TomKey) * ((sqlite3_uint64)c->nPlayer + 1));
  int i, rc = SQLITE_OK;
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < c->nPlayer; i++) {
    a[i].zId = arena(c, c->aPlayer[i].iId);
    a[i].iIndex = i;
  }
  rc = tb_text_arg_sort((void **)&a, c->nPlayer, sizeof(*a), key_before, p->pProbe);
  c->aById = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)c->nPlayer + 1));
  if (c->aById == 0 && rc == SQLITE_OK) rc = SQLITE_NOMEM;
  for (i = 0; rc == SQLITE_OK && i < c->nPlayer; i++) {
    if (i > 0 && strcmp(a[i].zId, a[i - 1].zId) == 0) {
      rc = parse_error(p, c->aPlayer[a[i].iIndex].iLine, "player %s is "
                       "registered twice (also on line %d)", a[i].zId,
                       c->aPlayer[a[i - 1].iIndex].iLine);
    }
    c->aById[i] = a[i].iIndex;
  }
  sqlite3_free(a);
  return rc;
}

/* The index of the player with id zId, or -1. */
static int player_find(const TomCursor *c, const char *zId) {
  int lo = 0, hi = c->nPlayer;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int k = strcmp(arena(c, c->aPlayer[c->aById[mid]].iId), zId);
    if (k == 0) return c->aById[mid];
    if (k < 0) lo = mid + 1; else hi = mid;
  }
  return -1;
}

/* An id offset to a player index: an unknown player is an error. */
static int resolve(TomParse *p, int *piSlot, int iLine, const char *zWhere,
                   int iRound) {
  int iPlayer;
  if (*piSlot < 0) return SQLITE_OK;
  iPlayer = player_find(p->c, arena(p->c, *piSlot));
  if (iPlayer < 0 && iRound > 0) {
    return parse_error(p, iLine, "round %d: %s names player %s, who is not in "
                       "<players>", iRound, zWhere, arena(p->c, *piSlot));
  }
  if (iPlayer < 0) {
    return parse_error(p, iLine, "%s names player %s, who is not in "
                       "<players>", zWhere, arena(p->c, *piSlot));
  }
  *piSlot = iPlayer;
  return SQLITE_OK;
}

/* Triples of integers, sorted: (a, b, c) and the row they come from. */
typedef struct TomTriple {
  int a, b, c, iIndex;
} TomTriple;

static int triple_cmp(const void *pA, const void *pB) {
  const TomTriple *x = pA, *y = pB;
  if (x->a != y->a) return x->a < y->a ? -1 : 1;
  if (x->b != y->b) return x->b < y->b ? -1 : 1;
  if (x->c != y->c) return x->c < y->c ? -1 : 1;
  return (x->iIndex > y->iIndex) - (x->iIndex < y->iIndex);
}

static int triple_before(void *pCtx, const void *pA, const void *pB) {
  (void)pCtx;
  return triple_cmp(pA, pB) < 0;
}

/* Rounds: a number once per pod; a round partly reported is an error, a
** round not reported at all (paired, not played yet) yields no rows. */
static int check_rounds(TomParse *p) {
  TomCursor *c = p->c;
  TomTriple *a;
  int i, k, rc = SQLITE_OK;
  for (i = 0; i < c->nRound; i++) {
    const TomRound *r = &c->aRound[i];
    int nPending = 0;
    for (k = r->iFirst; k < r->iFirst + r->nMatch; k++) {
      nPending += c->aMatch[k].eOutcome == OUT_PENDING;
    }
    if ((rc = tb_poll(p->pProbe, 1 + r->nMatch)) != SQLITE_OK) return rc;
    if (nPending == 0) continue;
    if (nPending < r->nMatch) {
      return parse_error(p, r->iLine, "round %d is partly reported: %d of its "
                         "%d matches have no result (outcome 0); the file was "
                         "saved during the round", r->iNumber, nPending,
                         r->nMatch);
    }
    for (k = r->iFirst; k < r->iFirst + r->nMatch; k++) c->aMatch[k].bSkip = 1;
  }
  a = sqlite3_malloc64(sizeof(TomTriple) * ((sqlite3_uint64)c->nRound + 1));
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < c->nRound; i++) {
    a[i].a = c->aRound[i].iPod;
    a[i].b = c->aRound[i].iNumber;
    a[i].c = 0;
    a[i].iIndex = i;
  }
  rc = tb_text_arg_sort((void **)&a, c->nRound, sizeof(*a), triple_before, p->pProbe);
  for (i = 1; i < c->nRound && rc == SQLITE_OK; i++) {
    if (a[i].a == a[i - 1].a && a[i].b == a[i - 1].b) {
      rc = parse_error(p, c->aRound[a[i].iIndex].iLine, "round %d is listed "
                       "twice in its pod (also on line %d)", a[i].b,
                       c->aRound[a[i - 1].iIndex].iLine);
    }
  }
  sqlite3_free(a);
  return rc;
}

/* The category of pod iPod, for messages. */
static int pod_category(const TomCursor *c, int iPod) {
  return iPod >= 0 ? c->aPod[iPod].iCategory : -1;
}

/* Is player iPlayer on the list of pod iPod (sorted (pod, player) pairs)? */
static int listed(const TomTriple *a, int n, int iPod, int iPlayer) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid].a < iPod || (a[mid].a == iPod && a[mid].b < iPlayer)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < n && a[lo].a == iPod && a[lo].b == iPlayer;
}

/* Pods' player lists: known players; sorted (pod, player) into *pa. */
static int check_members(TomParse *p, TomTriple **pa) {
  TomCursor *c = p->c;
  TomTriple *a = sqlite3_malloc64(sizeof(TomTriple) * ((sqlite3_uint64)c->nMember + 1));
  int i, rc = SQLITE_OK;
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < c->nMember && rc == SQLITE_OK; i++) {
    TomRef *r = &c->aMember[i];
    rc = resolve(p, &r->iId, r->iLine, "a pod's <players>", 0);
    if (rc != SQLITE_OK) break;
    /* the pod of a player with no match (a no-show) */
    if (c->aPlayer[r->iId].iPod < 0) c->aPlayer[r->iId].iPod = r->iPod;
    a[i].a = r->iPod;
    a[i].b = r->iId;
    a[i].c = 0;
    a[i].iIndex = i;
    rc = tb_poll(p->pProbe, 16); /* resolve(): a binary search */
  }
  if (rc == SQLITE_OK) {
    rc = tb_text_arg_sort((void **)&a, c->nMember, sizeof(*a), triple_before, p->pProbe);
  }
  *pa = a;
  return rc;
}

/*
** One player's seats, sorted by round: one pod, once a round, nothing after
** their drop, and on the list of their pod when it has one.
*/
static int check_player(TomParse *p, const TomTriple *aSeat, int nSeat,
                        const TomTriple *aMember, int nMember) {
  TomCursor *c = p->c;
  TomPlayer *pl = &c->aPlayer[aSeat[0].a];
  const char *zId = arena(c, pl->iId);
  int k;
  pl->iPod = c->aMatch[aSeat[0].iIndex].iPod;
  for (k = 0; k < nSeat; k++) {
    const TomMatch *m = &c->aMatch[aSeat[k].iIndex];
    if (m->iPod != pl->iPod) {
      return parse_error(p, m->iLine, "round %d: player %s plays in the pods "
                         "of category %d and %d (line %d)", m->iRound, zId,
                         pod_category(c, m->iPod), pod_category(c, pl->iPod),
                         c->aMatch[aSeat[0].iIndex].iLine);
    }
    if (k > 0 && aSeat[k].b == aSeat[k - 1].b) {
      return parse_error(p, m->iLine, "round %d: player %s is paired twice "
                         "(also on line %d)", m->iRound, zId,
                         c->aMatch[aSeat[k - 1].iIndex].iLine);
    }
    if (pl->iDropped >= 0 && m->iRound > pl->iDropped) {
      return parse_error(p, m->iLine, "round %d: player %s plays after "
                         "dropping after round %d (line %d)", m->iRound, zId,
                         pl->iDropped, pl->iLine);
    }
    if (c->aPod[m->iPod].nListed > 0 &&
        !listed(aMember, nMember, m->iPod, aSeat[0].a)) {
      return parse_error(p, m->iLine, "round %d: player %s plays in a pod "
                         "(line %d) whose <players> do not list them",
                         m->iRound, zId, c->aPod[m->iPod].iLine);
    }
  }
  return SQLITE_OK;
}

/* Every match: known players, each once a round, in one pod. */
static int check_matches(TomParse *p) {
  TomCursor *c = p->c;
  TomTriple *aSeat, *aMember = 0;
  int i, k, nSeat = 0, rc = check_members(p, &aMember);
  aSeat = sqlite3_malloc64(sizeof(TomTriple) * (2 * (sqlite3_uint64)c->nMatch + 1));
  if (aSeat == 0 && rc == SQLITE_OK) rc = SQLITE_NOMEM;
  for (i = 0; i < c->nMatch && rc == SQLITE_OK; i++) {
    TomMatch *m = &c->aMatch[i];
    rc = resolve(p, &m->iA, m->iLine, "a match", m->iRound);
    if (rc == SQLITE_OK) rc = resolve(p, &m->iB, m->iLine, "a match", m->iRound);
    if (rc == SQLITE_OK && m->iA == m->iB) {
      rc = parse_error(p, m->iLine, "round %d: player %s is paired against "
                       "themselves", m->iRound, arena(c, c->aPlayer[m->iA].iId));
    }
    if (rc == SQLITE_OK) rc = tb_poll(p->pProbe, 32); /* two binary searches */
    if (m->bSkip) continue;
    for (k = 0; k < 2 && rc == SQLITE_OK; k++) {
      int iPlayer = k ? m->iB : m->iA;
      if (iPlayer < 0) continue;
      aSeat[nSeat].a = iPlayer;
      aSeat[nSeat].b = m->iRound;
      aSeat[nSeat].c = 0;
      aSeat[nSeat++].iIndex = i;
    }
  }
  if (rc == SQLITE_OK) {
    rc = tb_text_arg_sort((void **)&aSeat, nSeat, sizeof(*aSeat), triple_before, p->pProbe);
  }
  for (i = 0; i < nSeat && rc == SQLITE_OK; i = k) {
    for (k = i + 1; k < nSeat && aSeat[k].a == aSeat[i].a; k++) {}
    rc = check_player(p, aSeat + i, k - i, aMember, c->nMember);
    if (rc == SQLITE_OK) rc = tb_poll(p->pProbe, 16 * (k - i)); /* listed() */
  }
  sqlite3_free(aSeat);
  sqlite3_free(aMember);
  return rc;
}

/* TOM's standings: known players, each placed once. */
static int check_places(TomParse *p) {
  TomCursor *c = p->c;
  int i, rc = SQLITE_OK;
  for (i = 0; i < c->nPlace && rc == SQLITE_OK; i++) {
    TomRef *r = &c->aPlace[i];
    TomPlayer *pl;
    rc = resolve(p, &r->iId, r->iLine, "<standings>", 0);
    if (rc != SQLITE_OK) break;
    pl = &c->aPlayer[r->iId];
    if (pl->iPlaceCat >= 0) {
      rc = parse_error(p, r->iLine, "<standings> places player %s twice",
                       arena(c, pl->iId));
    }
    pl->iPlaceCat = r->iPod;
    pl->iPlace = r->iPlace;
    pl->bDnf = r->bDnf;
    if (rc == SQLITE_OK) rc = tb_poll(p->pProbe, 16); /* resolve() */
  }
  return rc;
}

/* Parse and check the text into the cursor; pProbe answers interrupts. */
static int tom_parse(TomCursor *c, sqlite3_value *v, TbProbe *pProbe,
                     char **pzErr) {
  int eType = v ? sqlite3_value_type(v) : SQLITE_NULL, rc, bNul;
  const void *pData;
  TomParse p;
  if (eType != SQLITE_TEXT && eType != SQLITE_BLOB) {
    *pzErr = tb_text_arg_refusal("the argument must be the text of a TOM file, "
                                 "e.g. readfile('event.tdf')", eType);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  pData = eType == SQLITE_TEXT ? (const void *)sqlite3_value_text(v)
                               : sqlite3_value_blob(v);
  c->nText = sqlite3_value_bytes(v);
  if (pData == 0 && c->nText > 0) return SQLITE_NOMEM;
  rc = tb_text_arg_copy(pData, c->nText, pProbe, &c->zText, &bNul);
  if (rc != SQLITE_OK) return rc;
  if (bNul) {
    *pzErr = sqlite3_mprintf("the text contains a NUL byte: binary data, not "
                             "a TOM file");
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  memset(&p, 0, sizeof(p));
  p.c = c;
  p.z = c->zText;
  p.n = c->nText;
  p.iLine = 1;
  p.iPlayer = p.iPod = p.iRound = p.iMatch = -1;
  p.pzErr = pzErr;
  p.pProbe = pProbe;
  rc = read_document(&p);
  sqlite3_free(p.zField);
  if (rc == SQLITE_OK) rc = index_players(&p);
  if (rc == SQLITE_OK) rc = check_rounds(&p);
  if (rc == SQLITE_OK) rc = check_matches(&p);
  if (rc == SQLITE_OK) rc = check_places(&p);
  return rc;
}

/* ------------------------------------------------------------- divisions */

static const char *azDivision[] = {"Juniors", "Seniors", "Masters"};

/*
** A player's division: the list of TOM's standings that places them, else
** their pod's when it is one division, else their birth year in the
** season of the start date (Play! Pokemon: Masters born 17 years or more
** before the season's year, Seniors 13 to 16, Juniors 12 or fewer; one year
** fewer before the 2021 season).  -1: none.
*/
static int division_of(const TomCursor *c, const TomPlayer *pl) {
  int iCat = pl->iPlaceCat >= 0 ? pl->iPlaceCat : pod_category(c, pl->iPod);
  int nJunior, iAge;
  if (pl->iPlaceCat >= 0 || (iCat >= 0 && iCat <= 2)) {
    return iCat >= 0 && iCat <= 2 ? iCat : -1;
  }
  if (pl->iBirthYear == 0 || c->iSeason == 0) return -1;
  nJunior = c->iSeason >= 2021 ? 12 : 11;
  iAge = c->iSeason - pl->iBirthYear;
  return iAge <= nJunior ? 0 : iAge <= nJunior + 4 ? 1 : 2;
}

/* ---------------------------------------------------------------- module */

static const char *azSchema[] = {
  "CREATE TABLE x(round, player_a, player_b, a_wins, b_wins, draws, result, "
  "phase, pod, table_number, outcome, line, event_id HIDDEN)",
  "CREATE TABLE x(player, name, division, rating, status, dropped_after, "
  "place, standing, birth_year, pod, first_name, last_name, line, top_cut, "
  "event_id HIDDEN, published_rank HIDDEN)"};
static const int aArgColumn[] = {12, 14};
static const char *azFunction[] = {"tom_matches", "tom_players"};

static void cursor_clear(TomCursor *c) {
  sqlite3_free(c->zText);
  sqlite3_free(c->zArena);
  sqlite3_free(c->aPlayer);
  sqlite3_free(c->aMatch);
  sqlite3_free(c->aPod);
  sqlite3_free(c->aRound);
  sqlite3_free(c->aMember);
  sqlite3_free(c->aPlace);
  sqlite3_free(c->aById);
  memset((char *)c + sizeof(c->base), 0, sizeof(*c) - sizeof(c->base));
}

static int tomConnect(sqlite3 *db, void *pAux, int argc,
                      const char *const *argv, sqlite3_vtab **ppVtab,
                      char **pzErr) {
  int eKind = *(const int *)pAux;
  int rc = tb_text_arg_connect(db, azSchema[eKind], sizeof(TomVtab), ppVtab);
  (void)argc;
  (void)argv;
  (void)pzErr;
  if (rc == SQLITE_OK) {
    ((TomVtab *)*ppVtab)->eKind = eKind;
    ((TomVtab *)*ppVtab)->db = db;
  }
  return rc;
}

/* The text is an equality constraint on event_id, and required. */
static int tomBestIndex(sqlite3_vtab *pVtab, sqlite3_index_info *pInfo) {
  TomVtab *p = (TomVtab *)pVtab;
  return tb_text_arg_best_index(pVtab, pInfo, aArgColumn[p->eKind],
                                azFunction[p->eKind], "the text of the TOM file",
                                "event.tdf");
}

static int tomOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCur) {
  TomCursor *c = sqlite3_malloc64(sizeof(*c));
  (void)pVtab;
  if (c == 0) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  *ppCur = &c->base;
  return SQLITE_OK;
}

static int tomClose(sqlite3_vtab_cursor *cur) {
  cursor_clear((TomCursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/*
** Rows left out: the matches of rounds not played yet; the players TOM
** entered in no pod (registered, never seated) when some player is in
** one, who TOM gives no place.
*/
static void skip_rows(TomCursor *c, int eKind) {
  if (eKind == TOM_MATCHES) {
    while (c->iRow < c->nMatch && c->aMatch[c->iRow].bSkip) c->iRow++;
    return;
  }
  while (c->bSeated && c->iRow < c->nPlayer && c->aPlayer[c->iRow].iPod < 0 &&
         c->aPlayer[c->iRow].iPlaceCat < 0) {
    c->iRow++;
  }
}

static int tomFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                     int argc, sqlite3_value **argv) {
  TomCursor *c = (TomCursor *)cur;
  TomVtab *p = (TomVtab *)cur->pVtab;
  TbProbe probe;
  char *zErr = 0;
  int rc, i;
  (void)idxNum;
  (void)idxStr;
  cursor_clear(c);
  memset(&probe, 0, sizeof(probe));
  probe.db = p->db;
  rc = tom_parse(c, argc > 0 ? argv[0] : 0, &probe, &zErr);
  tb_probe_close(&probe);
  if (rc != SQLITE_OK) {
    cursor_clear(c);
    if (zErr) {
      sqlite3_free(p->base.zErrMsg);
      p->base.zErrMsg = sqlite3_mprintf("%s(): %s", azFunction[p->eKind], zErr);
      sqlite3_free(zErr);
      if (p->base.zErrMsg == 0) rc = SQLITE_NOMEM;
    }
    return rc;
  }
  for (i = 0; i < c->nPlayer && !c->bSeated; i++) c->bSeated = c->aPlayer[i].iPod >= 0;
  skip_rows(c, p->eKind);
  return SQLITE_OK;
}

static int tomNext(sqlite3_vtab_cursor *cur) {
  TomCursor *c = (TomCursor *)cur;
  c->iRow++;
  skip_rows(c, ((TomVtab *)cur->pVtab)->eKind);
  return SQLITE_OK;
}

static int tomEof(sqlite3_vtab_cursor *cur) {
  TomCursor *c = (TomCursor *)cur;
  TomVtab *p = (TomVtab *)cur->pVtab;
  return c->iRow >= (p->eKind == TOM_PLAYERS ? c->nPlayer : c->nMatch);
}

static int tomRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *piRowid) {
  *piRowid = ((TomCursor *)cur)->iRow + 1;
  return SQLITE_OK;
}

static void result_str(sqlite3_context *ctx, const char *z) {
  if (z) sqlite3_result_text(ctx, z, -1, SQLITE_TRANSIENT);
}

static void result_id(sqlite3_context *ctx, const TomCursor *c, int iPlayer) {
  if (iPlayer >= 0) result_str(ctx, arena(c, c->aPlayer[iPlayer].iId));
}

/* Counts and result of an outcome: 1-0-0 'a', 0-1-0 'b', 0-0-1 'draw', a
** bye 0-0-0 (no result), a late loss 0-0-0 'loss': no game was played. */
static void match_column(sqlite3_context *ctx, const TomCursor *c,
                         const TomMatch *m, int iCol) {
  int e = m->eOutcome;
  switch (iCol) {
    case 0: sqlite3_result_int(ctx, m->iRound); break;
    case 1: result_id(ctx, c, m->iA); break;
    case 2: result_id(ctx, c, m->iB); break;
    case 3: sqlite3_result_int(ctx, e == OUT_A); break;
    case 4: sqlite3_result_int(ctx, e == OUT_B); break;
    case 5: sqlite3_result_int(ctx, e == OUT_TIE); break;
    case 6:
      result_str(ctx, e == OUT_A ? "a" : e == OUT_B ? "b" : e == OUT_TIE ? "draw"
                      : e == OUT_LATE ? "loss" : 0);
      break;
    case 7: result_str(ctx, m->bPlayoff ? "playoff" : "swiss"); break;
    case 8:
      if (pod_category(c, m->iPod) >= 0) {
        sqlite3_result_int(ctx, pod_category(c, m->iPod));
      }
      break;
    case 9: if (m->iTable >= 0) sqlite3_result_int(ctx, m->iTable); break;
    case 10: sqlite3_result_int(ctx, e); break;
    case 11: sqlite3_result_int(ctx, m->iLine); break;
  }
}

static void player_column(sqlite3_context *ctx, const TomCursor *c,
                          const TomPlayer *pl, int iCol) {
  int iDivision;
  switch (iCol) {
    case 0: result_str(ctx, arena(c, pl->iId)); break;
    case 1:
      if (pl->iFirst >= 0 && pl->iLast >= 0) {
        char *z = sqlite3_mprintf("%s %s", arena(c, pl->iFirst),
                                  arena(c, pl->iLast));
        if (z == 0) {
          sqlite3_result_error_nomem(ctx);
        } else {
          sqlite3_result_text(ctx, z, -1, sqlite3_free);
        }
      } else {
        result_str(ctx, arena(c, pl->iFirst >= 0 ? pl->iFirst : pl->iLast));
      }
      break;
    case 2:
      iDivision = division_of(c, pl);
      if (iDivision >= 0) result_str(ctx, azDivision[iDivision]);
      break;
    case 3: break; /* rating: TOM records none */
    case 4: if (pl->iDropped >= 0) result_str(ctx, "dropped"); break;
    case 5: if (pl->iDropped >= 0) sqlite3_result_int(ctx, pl->iDropped); break;
    case 6: if (pl->iPlace > 0) sqlite3_result_int(ctx, pl->iPlace); break;
    case 7:
      if (pl->iPlaceCat >= 0) result_str(ctx, pl->bDnf ? "dnf" : "finished");
      break;
    case 8: if (pl->iBirthYear) sqlite3_result_int(ctx, pl->iBirthYear); break;
    case 9:
      if (pod_category(c, pl->iPod) >= 0) {
        sqlite3_result_int(ctx, pod_category(c, pl->iPod));
      }
      break;
    case 10: result_str(ctx, arena(c, pl->iFirst)); break;
    case 11: result_str(ctx, arena(c, pl->iLast)); break;
    case 12: sqlite3_result_int(ctx, pl->iLine); break;
    case 13:
      iDivision = division_of(c, pl);
      if (iDivision >= 0 && c->aCut1[iDivision] > 0) {
        sqlite3_result_int(ctx, c->aCut1[iDivision] - 1);
      }
      break;
  }
}

static int tomColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int iCol) {
  TomCursor *c = (TomCursor *)cur;
  TomVtab *p = (TomVtab *)cur->pVtab;
  if (iCol == aArgColumn[p->eKind]) return SQLITE_OK; /* the text: not repeated */
  if (p->eKind == TOM_PLAYERS) {
    /* published_rank: the place, by the name standings_check() reads */
    player_column(ctx, c, &c->aPlayer[c->iRow],
                  iCol == aArgColumn[TOM_PLAYERS] + 1 ? 6 : iCol);
  } else {
    match_column(ctx, c, &c->aMatch[c->iRow], iCol);
  }
  return SQLITE_OK;
}

static sqlite3_module tomModule = {
  .iVersion = 0,
  .xCreate = 0, /* eponymous only */
  .xConnect = tomConnect,
  .xBestIndex = tomBestIndex,
  .xDisconnect = tb_text_arg_disconnect,
  .xOpen = tomOpen,
  .xClose = tomClose,
  .xFilter = tomFilter,
  .xNext = tomNext,
  .xEof = tomEof,
  .xColumn = tomColumn,
  .xRowid = tomRowid,
};

/* ------------------------------------------------------------ tom_policy */

/* The policy of an event started on iDate (YYYYMMDD; 0: not given): from
** April to September 2023 RK9 placed dropped players below the active
** players on equal points (docs/policy-pokemon.md). */
static const char *policy_of_date(int iDate) {
  return iDate >= 20230401 && iDate <= 20230930 ? "pokemon_2023" : "pokemon";
}

/*
** tom_policy(text): the policy for a TOM file, from its <startdate>, so
** that one statement ranks it:
**
**   SELECT * FROM standings(?1, tom_policy(?1), NULL, NULL,
**                           'tom_matches', '', 'tom_players');
**
** The file is read as tom_matches() reads it, so that a file it refuses
** is refused here with the same message; a file without a start date
** gets 'pokemon'.
*/
static void tomPolicyFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  TomCursor c;
  TbProbe probe;
  char *zErr = 0;
  int rc;
  memset(&c, 0, sizeof(c));
  memset(&probe, 0, sizeof(probe));
  probe.db = sqlite3_context_db_handle(ctx);
  rc = tom_parse(&c, argc > 0 ? argv[0] : 0, &probe, &zErr);
  tb_probe_close(&probe);
  if (rc == SQLITE_OK) {
    sqlite3_result_text(ctx, policy_of_date(c.iStartDate), -1, SQLITE_STATIC);
  } else {
    tb_text_arg_result_error(ctx, "tom_policy", rc, zErr);
  }
  sqlite3_free(zErr);
  cursor_clear(&c);
}

int tb_register_tom(sqlite3 *db) {
  static const int aKind[] = {TOM_MATCHES, TOM_PLAYERS};
  int rc = SQLITE_OK, k;
  for (k = 0; rc == SQLITE_OK && k < 2; k++) {
    rc = sqlite3_create_module(db, azFunction[k], &tomModule, (void *)&aKind[k]);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "tom_policy", 1,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                 0, tomPolicyFunc, 0, 0);
  }
  return rc;
}
