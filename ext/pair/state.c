/*
** pair/state.c: the state before a round to pair, from the event's rows.
**
** The event is read as standings() reads it (the same reader, the same
** tables and file readers: 'trf_matches', 'tom_matches', 'melee_matches'
** with the file's text as the event), scored under the system's policy:
**
**   - players in pairing-number order: the start numbers of a TRF file read
**     by trf_matches (its player ids), else by rating (players table),
**     highest first, unrated last, then by id;
**   - each player's rounds before the round to pair (colour: player_a is
**     White), their score, their place in the standings before the round
**     (before the playoff once it began: a bracket is seeded by the Swiss);
**   - absent for the round: a row of that round that is no game (half_bye,
**     zero_bye, loss: TRF H, F, Z, -), dropped (status, dropped_after),
**     disqualified;
**   - from a TRF file's records: XXR or 142 (the rounds scheduled), XXC
**     (white1 or black1) or 152 (W or B): the first colour of pairing number
**     1 (without them, for dutch, inferred from the first round with a
**     game); TRF-2026's 240 (byes requested for the round: absent), 260
**     (prohibited pairings: state.aForbidden) and 250 (virtual points of
**     an accelerated event), and the engines' XXA (the same, a player's
**     points round by round): each player's aVirtual; 192, the tournament
**     type, ending in _BAKU: the Baku rule's rounds (nAccelerated).  A file
**     with them and the option accelerated=N is an error: one of the two
**     decides.  A record that does not read (SELECT * FROM pairings(
**     '240 H 005 2 abc' || ...)) is an error naming it, whichever round it
**     is for: skipped, it would pair a player who asked for a bye.
**
** tb_pair_build_open() reads the event once; tb_pair_build_round() then
** builds the state of any round from it (pairing_check() builds every
** round's).  Memory: the event, and a history entry per player per round
** before the round to pair.
*/
#include "systems.h"

#include <stdlib.h> /* strtol */
#include <stdarg.h>
#include <string.h>

/* ------------------------------------------------------------ the event */

int tb_pair_game_played(const TbPairHistory *h) {
  return h->eKind == TB_PLAYED && h->iOpp >= 0 && h->eColour != TB_COLOUR_NONE;
}

/* A seat that is a pairing: a game, a forfeit, or a pairing-allocated bye. */
static int seat_is_pairing(const TbSeat *s) {
  return s->iOpp >= 0 || s->eKind == TB_PAB;
}

/*
** The last round paired (with a game or a playoff match), and the first
** playoff round.  A round of byes alone is not paired: its rows are
** entered ahead of the pairing, as a TRF file's F (a full-point bye, which
** trf_matches yields as a bye) for the round to pair.
*/
static void event_rounds(const TbEvent *e, int *piLast, int *piPlayoff) {
  int i;
  *piLast = 0;
  *piPlayoff = 0;
  for (i = 0; i < e->nSeat; i++) {
    const TbSeat *s = &e->aSeat[i];
    if (s->iOpp >= 0 && s->iRound > *piLast) *piLast = s->iRound;
  }
  for (i = 0; i < e->nPlayoff; i++) {
    const TbMatch *m = &e->aPlayoff[i];
    if (m->iRound > *piLast) *piLast = m->iRound;
    if (*piPlayoff == 0 || m->iRound < *piPlayoff) *piPlayoff = m->iRound;
  }
}

/* Order of pairing numbers: start numbers (TRF), or rating then id. */
typedef struct Seed {
  int iPlayer;
  int bRated;
  i64 iRating;
  const TbKey *pKey;
} Seed;

/* TbBefore orders (rank.c's merge sort, which answers interrupts). */
static int seed_by_rating(void *pCtx, const void *a, const void *b) {
  const Seed *x = (const Seed *)a, *y = (const Seed *)b;
  (void)pCtx;
  if (x->bRated != y->bRated) return x->bRated;
  if (x->bRated && x->iRating != y->iRating) return x->iRating > y->iRating;
  return tb_key_compare(x->pKey, y->pKey) < 0;
}

static int seed_by_id(void *pCtx, const void *a, const void *b) {
  (void)pCtx;
  return tb_key_compare(((const Seed *)a)->pKey, ((const Seed *)b)->pKey) < 0;
}

/* Whether the matches are a TRF file's, whose ids are start numbers. */
static int source_is_trf(const TbSource *pSrc) {
  return pSrc->zMatches && sqlite3_stricmp(pSrc->zMatches, "trf_matches") == 0;
}

/* aPlayer in pairing-number order; aPlace maps event players to it. */
static int order_players(TbPairBuild *b, const TbSource *pSrc,
                         TbProbe *pProbe) {
  TbEvent *e = &b->event;
  int n = e->nPlayer, i, rc;
  Seed *a = sqlite3_malloc64(sizeof(Seed) * ((sqlite3_uint64)n + 1));
  b->aPlace = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)n + 1));
  b->state.aPlayer =
      sqlite3_malloc64(sizeof(TbPairPlayer) * ((sqlite3_uint64)n + 1));
  if (a == 0 || b->aPlace == 0 || b->state.aPlayer == 0) {
    sqlite3_free(a);
    return SQLITE_NOMEM;
  }
  for (i = 0; i < n; i++) {
    a[i].iPlayer = i;
    a[i].iRating = 0;
    a[i].bRated = tb_player_rating(e, i, &a[i].iRating);
    a[i].pKey = &e->aPlayer[i].key;
  }
  b->bStartNumbers = source_is_trf(pSrc);
  rc = tb_text_arg_sort((void **)&a, n, (int)sizeof(Seed),
                        b->bStartNumbers ? seed_by_id : seed_by_rating, pProbe);
  if (rc != SQLITE_OK) {
    sqlite3_free(a);
    return rc;
  }
  memset(b->state.aPlayer, 0, sizeof(TbPairPlayer) * (size_t)n);
  for (i = 0; i < n; i++) {
    TbPairPlayer *p = &b->state.aPlayer[i];
    p->iPlayer = a[i].iPlayer;
    p->bRated = a[i].bRated;
    p->iRating = a[i].iRating;
    b->aPlace[a[i].iPlayer] = i;
  }
  b->state.nPlayer = n;
  sqlite3_free(a);
  return SQLITE_OK;
}

/* A record's error: "record '<the line>': <why>", why formatted as by
** printf. */
static int record_error(char **pzErr, const char *zLine, const char *zFormat,
                        ...) {
  int n = (int)strcspn(zLine, "\n");
  char *zWhy;
  va_list ap;
  va_start(ap, zFormat);
  zWhy = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  *pzErr = zWhy ? sqlite3_mprintf("record '%.*s': %s", n, zLine, zWhy) : 0;
  sqlite3_free(zWhy);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The blanks at z skipped. */
static const char *skip_blanks(const char *z) { return z + strspn(z, " \t"); }

/* The bytes of the field at z: up to a blank or the line's end. */
static int field_len(const char *z) { return (int)strcspn(z, " \t\n"); }

/* The field of n bytes at z as a number from 1 to nMax; 0 if it is none:
** not digits alone (a sign, a letter), zero, or past nMax however many
** digits it has (strtol would give LONG_MAX for a number past 2^63). */
static long field_number(const char *z, int n, long nMax) {
  long v = 0;
  int k;
  for (k = 0; k < n; k++) {
    if (z[k] < '0' || z[k] > '9') return 0;
    if (v <= nMax) v = v * 10 + (z[k] - '0');
  }
  return v <= nMax ? v : 0;
}

/*
** The engines' XXC record: blank-separated settings, of which this reader
** knows white1 and black1 (the colour of pairing number 1 in round 1).
** Any other word is an error: 'blak1' or 'White 1' read as white1 would
** give every player the other colour, and 'rank' (pairing numbers in the
** order of the 001 records) would pair other numbers than the start
** numbers read here.
*/
static int read_xxc(const char *zVal, const char *zLine, int *peColour,
                    char **pzErr) {
  int eSeen = TB_COLOUR_NONE, k;
  const char *z;
  for (z = skip_blanks(zVal); *z && *z != '\n'; z = skip_blanks(z + k)) {
    int eColour;
    k = field_len(z);
    if (k == 6 && sqlite3_strnicmp(z, "white1", 6) == 0) {
      eColour = TB_COLOUR_WHITE;
    } else if (k == 6 && sqlite3_strnicmp(z, "black1", 6) == 0) {
      eColour = TB_COLOUR_BLACK;
    } else if (k == 4 && sqlite3_strnicmp(z, "rank", 4) == 0) {
      return record_error(pzErr, zLine, "'rank' (pairing numbers in the order "
                          "of the 001 records) is not read: pairing numbers "
                          "are the start numbers");
    } else {
      return record_error(pzErr, zLine, "'%.*s' is not a setting (white1 or "
                          "black1)", k, z);
    }
    if (eSeen != TB_COLOUR_NONE && eSeen != eColour) {
      return record_error(pzErr, zLine, "both white1 and black1");
    }
    eSeen = eColour;
  }
  if (eSeen != TB_COLOUR_NONE) *peColour = eSeen;
  return SQLITE_OK;
}

/* Rounds and players of the records: 5 digits at most (XXR's bound). */
#define RECORD_MAX 99999

/*
** The records of a TRF file that pairing reads: the rounds scheduled (XXR,
** or TRF-2026's 142; nRounds unless rounds=N gave it), the first colour
** (XXC white1 / black1, TRF-2026's 152 W / B), and kept for the round to
** pair: TRF-2026's 240 (byes requested: absent), 260 (prohibited pairings)
** and 250 (virtual points), and XXA (virtual points); and whether record
** 192, the tournament type, names Baku acceleration (a code ending in
** _BAKU, as FIDE_DUTCH_2025_BAKU).
*/
static int read_trf_records(TbReader *pReader, const TbSource *pSrc,
                            TbPairBuild *b, int bRoundsGiven, char **pzErr) {
  TbPairState *s = &b->state;
  sqlite3_stmt *pStmt = 0;
  sqlite3_str *pKept;
  int rc, rcRecord = SQLITE_OK;
  long v, nScheduled = 0;   /* XXR or 142, once read */
  if (!source_is_trf(pSrc) || pSrc->pEvent == 0) return SQLITE_OK;
  rc = sqlite3_prepare_v2(pReader->db,
                          "SELECT upper(record), value, text FROM "
                          "trf_records(?1) "
                          "WHERE upper(record) IN ('XXR', '142', 'XXC', '152',"
                          " '192', '240', '250', '260', 'XXA')", -1, &pStmt,
                          0);
  /* the function hidden by a table or view of its name: the records would
  ** go unread (a prohibited pairing paired) */
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    *pzErr = sqlite3_mprintf("the file's records (XXR, XXC, 192, 240, 250, "
                             "260, XXA) cannot be read: %s (is a table or view "
                             "named trf_records hiding the function?)",
                             sqlite3_errmsg(pReader->db));
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK) rc = sqlite3_bind_value(pStmt, 1, pSrc->pEvent);
  pKept = sqlite3_str_new(pReader->db);
  while (rc == SQLITE_OK && sqlite3_step(pStmt) == SQLITE_ROW) {
    const char *zRec = (const char *)sqlite3_column_text(pStmt, 0);
    const char *zVal = (const char *)sqlite3_column_text(pStmt, 1);
    const char *zText = (const char *)sqlite3_column_text(pStmt, 2);
    if (zRec == 0 || zText == 0) continue;
    if (zVal == 0) zVal = ""; /* a record of its code alone */
    while (*zVal == ' ') zVal++;
    if (strcmp(zRec, "XXC") == 0) {
      if ((rcRecord = read_xxc(zVal, zText, &s->eFirstColour, pzErr))) break;
    } else if (strcmp(zRec, "152") == 0) {
      /* 'b' read as White would give every player the other colour */
      if (sqlite3_stricmp(zVal, "B") == 0) {
        s->eFirstColour = TB_COLOUR_BLACK;
      } else if (sqlite3_stricmp(zVal, "W") == 0) {
        s->eFirstColour = TB_COLOUR_WHITE;
      } else {
        rcRecord = record_error(pzErr, zText, "'%s' is not a colour (W or "
                                "B)", zVal);
        break;
      }
    } else if (strcmp(zRec, "192") == 0) {
      /* the tournament type's code, with the acceleration method */
      b->bBakuType = sqlite3_strlike("%\\_BAKU", zVal, '\\') == 0;
    } else if (strcmp(zRec, "XXA") == 0) {
      /* read by its columns: the line as written, the code in capitals */
      sqlite3_str_appendf(pKept, "XXA%s\n", zText + 3);
    } else if (zRec[0] == '2') {
      sqlite3_str_appendf(pKept, "%s %s\n", zRec, zVal);
    } else if ((v = field_number(zVal, (int)strlen(zVal), RECORD_MAX)) == 0) {
      /* a typo would pair as if the last round were not (C.04.3's rules
      ** for it) */
      rcRecord = record_error(pzErr, zText, "'%s' is not a number of "
                              "rounds (1 to %d)", zVal, RECORD_MAX);
      break;
    } else if (!bRoundsGiven && nScheduled != 0 && v != nScheduled) {
      /* XXR and 142 (or two of one) that disagree: which the arbiter meant
      ** decides how the last round is paired */
      rcRecord = record_error(pzErr, zText, "%ld rounds, where an earlier "
                              "record schedules %ld", v, nScheduled);
      break;
    } else {
      nScheduled = v;
      if (!bRoundsGiven) s->nRounds = (int)v;
    }
  }
  if (rc == SQLITE_OK) rc = sqlite3_finalize(pStmt); else sqlite3_finalize(pStmt);
  if (sqlite3_str_errcode(pKept) == SQLITE_NOMEM) rc = SQLITE_NOMEM;
  b->zRoundRecords = sqlite3_str_finish(pKept);
  /* the file was read already; text that is no file (a table of the
  ** user's named trf_matches) has no records */
  if (rc != SQLITE_NOMEM) return rcRecord;
  sqlite3_free(*pzErr);
  *pzErr = 0;
  return rc;
}

/* The state index of start number iStart (a TRF's players are in start
** number order), or -1. */
static int start_index(const TbPairBuild *b, i64 iStart) {
  int lo = 0, hi = b->state.nPlayer - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    const TbKey *k = &b->event.aPlayer[b->state.aPlayer[mid].iPlayer].key;
    if (k->eType != SQLITE_INTEGER) return -1;
    if (k->i == iStart) return mid;
    if (k->i < iStart) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

/* What the fields of record 240, 250 or 260 are, for its error. */
static int fields_error(char **pzErr, const char *zLine) {
  const char *zFields =
      zLine[1] == '4' ? "the bye's type F, H or Z, the round, start numbers"
      : zLine[1] == '5'
          ? "points, first and last round, first and last player"
          : "first and last round, two or more start numbers";
  return record_error(pzErr, zLine, "not the fields of record %.3s (%s)",
                      zLine, zFields);
}

/* A record naming a start number (its digits at zNum, as written) that has
** no 001 record: a typo that would leave a bye, a prohibition or an
** acceleration unseen.  However many digits: a number past 2^63 is not
** shown as another. */
static int unknown_start_error(char **pzErr, const char *zLine,
                               const char *zNum) {
  zNum += strspn(zNum, " \t");
  while (zNum[0] == '0' && zNum[1] >= '0' && zNum[1] <= '9') zNum++;
  return record_error(pzErr, zLine, "start number %.*s has no 001 record",
                      (int)strspn(zNum, "0123456789"), zNum);
}

/* The start numbers of a record's line from z on, as state indexes, in
** aOut and *pn: up to the line's end (strtol would skip the newline into
** the next record, whose round numbers would read as players).  A field
** that is no number, a number with no 001 record, or a player listed
** twice (a typo for another, whose bye or prohibition would go unseen; a
** player prohibited from meeting themself) is an error.  aSeen: a byte a
** player, zero, and zero again on return. */
static int record_players(const TbPairBuild *b, const char *zLine,
                          const char *z, int *aOut, unsigned char *aSeen,
                          int *pn, char **pzErr) {
  int n = 0, i, k, rc = SQLITE_OK;
  for (z = skip_blanks(z); *z && *z != '\n'; z = skip_blanks(z + k)) {
    k = field_len(z);
    if ((int)strspn(z, "0123456789") < k) {
      rc = record_error(pzErr, zLine, "'%.*s' is not a start number", k, z);
      break;
    }
    if ((i = start_index(b, field_number(z, k, RECORD_MAX))) < 0) {
      rc = unknown_start_error(pzErr, zLine, z);
      break;
    }
    if (aSeen[i]) {
      rc = record_error(pzErr, zLine, "start number %ld is listed twice",
                        field_number(z, k, RECORD_MAX));
      break;
    }
    aSeen[i] = 1;
    aOut[n++] = i;
  }
  for (i = 0; i < n; i++) aSeen[aOut[i]] = 0;
  *pn = rc == SQLITE_OK ? n : 0;
  return rc;
}

/*
** The fields before the start numbers: of a 240 record, the bye's type (F,
** H or Z) and the round (*piFirst, *piLast); of a 260 record, the first and
** last round.  *pzPlayers: the text after them.
*/
static int round_fields(const char *zLine, long *piFirst, long *piLast,
                        const char **pzPlayers, char **pzErr) {
  const char *z = skip_blanks(zLine + 4);
  int bBye = zLine[1] == '4', j, k;
  long a[2];
  if (bBye) {
    if (field_len(z) != 1 || strchr("FHZfhz", *z) == 0) {
      return fields_error(pzErr, zLine);
    }
    z = skip_blanks(z + 1);
  }
  for (j = 0; j < 2 - bBye; j++) {
    if ((k = field_len(z)) == 0) return fields_error(pzErr, zLine);
    if ((a[j] = field_number(z, k, RECORD_MAX)) == 0) {
      return record_error(pzErr, zLine, "'%.*s' is not a round (a number "
                                        "from 1 to %d)", k, z, RECORD_MAX);
    }
    z = skip_blanks(z + k);
  }
  if (bBye) a[1] = a[0];
  if (a[1] < a[0]) {
    return record_error(pzErr, zLine, "rounds %ld to %ld: the range is empty",
                        a[0], a[1]);
  }
  *piFirst = a[0];
  *piLast = a[1];
  *pzPlayers = z;
  return SQLITE_OK;
}

/*
** A 240 record's bye (round iRound, players aIdx) for a round paired
** already: the player must have no game in it.  A file of rounds played
** keeps its 240 records, each bye then in its player's round; one whose
** player played that round asked for the bye of another round or
** another player, and would otherwise be read as nothing.
*/
static int bye_not_played(const TbPairBuild *b, const char *zLine,
                          long iRound, const int *aIdx, int n, char **pzErr) {
  int i;
  if (iRound > b->iLastPlayed) return SQLITE_OK;
  for (i = 0; i < n; i++) {
    const TbPlayer *pl = &b->event.aPlayer[b->state.aPlayer[aIdx[i]].iPlayer];
    const TbSeat *t =
        tb_event_seat(&b->event, b->state.aPlayer[aIdx[i]].iPlayer, (int)iRound);
    if (t == 0 || t->iOpp < 0) continue;
    return record_error(pzErr, zLine, "round %ld is paired already, and start "
                        "number %lld has an opponent in it: a bye is "
                        "requested before its round is paired", iRound,
                        (long long)pl->key.i);
  }
  return SQLITE_OK;
}

/*
** TRF-2026's records for round iRound: 240 (T RRR players: a bye requested,
** so absent) and 260 (RR1 RRL players: no two of them meet in rounds RR1
** to RRL).  The prohibited pairs go to state.aForbidden.
*/
static int apply_round_records(TbPairBuild *b, int iRound, char **pzErr) {
  TbPairState *s = &b->state;
  const char *z = b->zRoundRecords;
  int *aIdx = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)s->nPlayer + 1));
  unsigned char *aSeen = sqlite3_malloc64((sqlite3_uint64)s->nPlayer + 1);
  int nAlloc = 0, i, j, n = 0, rc = SQLITE_OK;
  sqlite3_free(b->aForbidden);
  b->aForbidden = 0;
  s->aForbidden = 0;
  s->nForbidden = 0;
  if (aIdx == 0 || aSeen == 0) {
    sqlite3_free(aIdx);
    sqlite3_free(aSeen);
    return SQLITE_NOMEM;
  }
  memset(aSeen, 0, (size_t)s->nPlayer + 1);
  while (rc == SQLITE_OK && z && *z) {
    const char *zPlayers = 0;
    long r1 = 0, r2 = 0;
    int bBye = strncmp(z, "240 ", 4) == 0;
    n = 0;
    if (bBye || strncmp(z, "260 ", 4) == 0) {
      rc = round_fields(z, &r1, &r2, &zPlayers, pzErr);
      if (rc == SQLITE_OK) {
        rc = record_players(b, z, zPlayers, aIdx, aSeen, &n, pzErr);
      }
      /* a bye names a player, a prohibition two */
      if (rc == SQLITE_OK && n < 2 - bBye) rc = fields_error(pzErr, z);
      if (rc == SQLITE_OK && bBye) rc = bye_not_played(b, z, r1, aIdx, n, pzErr);
      if (rc != SQLITE_OK || iRound < r1 || r2 < iRound) n = 0;
    }
    if (bBye) {
      for (i = 0; i < n; i++) s->aPlayer[aIdx[i]].bAbsent = 1;
    } else {
      for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
          if (s->nForbidden >= nAlloc) {
            int *aNew;
            nAlloc = nAlloc ? 2 * nAlloc : 16;
            aNew = sqlite3_realloc64(b->aForbidden,
                                     sizeof(int) * 2 * (sqlite3_uint64)nAlloc);
            if (aNew == 0) {
              sqlite3_free(aIdx);
              return SQLITE_NOMEM;
            }
            b->aForbidden = aNew;
          }
          b->aForbidden[2 * s->nForbidden] = aIdx[i];
          b->aForbidden[2 * s->nForbidden + 1] = aIdx[j];
          s->nForbidden++;
        }
      }
    }
    z = strchr(z, '\n');
    if (z) z++;
  }
  s->aForbidden = b->aForbidden;
  sqlite3_free(aIdx);
  sqlite3_free(aSeen);
  return rc;
}

/* Points "1.0", "0.5", "2" at *pz in the state's units (1/nPointScale), the
** text after them in *pz; -1 if not a number of points or not a whole
** number of units. */
static i64 record_points(const TbPairState *s, const char **pz) {
  const char *z = *pz;
  i64 nTenths = 0;
  int nDigits = 0;
  while (*z == ' ') z++;
  for (; *z >= '0' && *z <= '9' && nDigits < 6; z++, nDigits++) {
    nTenths = nTenths * 10 + (*z - '0');
  }
  nTenths *= 10;
  if (*z == '.' && z[1] >= '0' && z[1] <= '9') {
    nTenths += z[1] - '0';
    z += 2;
  }
  if (nDigits == 0 || (*z != ' ' && *z != 0 && *z != '\n')) return -1;
  *pz = z;
  if (nTenths * s->nPointScale % 10 != 0) return -1;
  return nTenths * s->nPointScale / 10;
}

/* Sets aVirtual[iRound-1] of the state's players with start numbers
** iFirst..iLast (the record's range) to v. */
static int set_virtual(TbPairBuild *b, long iFirst, long iLast, int iRound,
                       i64 v) {
  TbPairState *s = &b->state;
  long id;
  int i, rc;
  for (id = iFirst; id <= iLast; id++) {
    if ((rc = tb_poll(s->pProbe, 1)) != SQLITE_OK) return rc;
    if ((i = start_index(b, id)) >= 0) {
      b->aVirtual[(sqlite3_uint64)i * (sqlite3_uint64)s->iRound + iRound - 1] = v;
    }
  }
  return SQLITE_OK;
}

/* Columns iFrom..iFrom + 3 (0-based) of a line of n bytes into the 5 bytes
** of zField, NUL-terminated; whether they are all blank. */
static int fixed_field(const char *zLine, int n, int iFrom, char *zField) {
  int k, bBlank = 1;
  for (k = 0; k < 4; k++) {
    zField[k] = iFrom + k < n ? zLine[iFrom + k] : ' ';
    if (zField[k] != ' ') bBlank = 0;
  }
  zField[4] = 0;
  return bBlank;
}

/*
** One XXA record, read by its columns as the pairing engines write it: the
** start number in columns 5-8, then the points before round r in columns
** 10 + 5 (r - 1) to 13 + 5 (r - 1), a blank between fields.  A blank field
** is a round without virtual points: the rounds after it keep their
** columns.
*/
static int apply_xxa_record(TbPairBuild *b, const char *zLine, char **pzErr) {
  TbPairState *s = &b->state;
  int n = (int)strcspn(zLine, "\n"), r, iCol, rc = SQLITE_OK;
  char zField[5], *zEnd;
  const char *z;
  long id;
  i64 v;
  if (zLine[3] != ' ' || fixed_field(zLine, n, 4, zField) ||
      (id = strtol(zField, &zEnd, 10)) <= 0 || zEnd[strspn(zEnd, " ")]) {
    return record_error(pzErr, zLine, "no start number in columns 5-8");
  }
  if (start_index(b, id) < 0) {
    /* 'XXA 99999999999999999999' names no start number 9999 */
    if (n > 8 && zLine[8] >= '0' && zLine[8] <= '9') {
      return record_error(pzErr, zLine, "a field out of its columns (the "
                                        "start number in columns 5-8)");
    }
    return unknown_start_error(pzErr, zLine, zField);
  }
  for (r = 1, iCol = 9; rc == SQLITE_OK && iCol < n; r++, iCol += 5) {
    if (zLine[iCol - 1] != ' ') {
      return record_error(pzErr, zLine, "a field out of its columns (the "
                                        "points before round r in columns "
                                        "10 + 5 (r - 1) to 13 + 5 (r - 1))");
    }
    if (fixed_field(zLine, n, iCol, zField)) continue;
    z = zField;
    if ((v = record_points(s, &z)) < 0) {
      return record_error(pzErr, zLine, "not points such as 1.0");
    }
    if (r <= s->iRound) rc = set_virtual(b, id, id, r, v);
  }
  return rc;
}

/*
** One 250 record (TRF-2026: [match points] game points, first and last
** round, first and last player: the players of that range count the points
** before each of those rounds; the match points, for teams, are not read)
** or XXA record (apply_xxa_record).
*/
static int apply_virtual_record(TbPairBuild *b, const char *zLine,
                                char **pzErr) {
  TbPairState *s = &b->state;
  const char *z = zLine + 4;
  i64 v;
  int r, rc = SQLITE_OK;
  if (zLine[0] == 'X') {
    return apply_xxa_record(b, zLine, pzErr);
  } else {
    /* five fields, or six with the match points (teams) first */
    const char *azTok[7];
    long a[4];
    int nTok = 0, k;
    while (nTok < 7) {
      z = skip_blanks(z);
      if (*z == 0 || *z == '\n') break;
      azTok[nTok++] = z;
      z += field_len(z);
    }
    if (nTok != 5 && nTok != 6) return fields_error(pzErr, zLine);
    z = azTok[nTok - 5];
    if ((v = record_points(s, &z)) < 0) {
      return record_error(pzErr, zLine, "not points such as 1.0");
    }
    for (k = 0; k < 4; k++) {
      const char *zTok = azTok[nTok - 4 + k];
      if ((a[k] = field_number(zTok, field_len(zTok), RECORD_MAX)) == 0) {
        return record_error(pzErr, zLine,
                            "'%.*s' is not a round or start number (a number "
                            "from 1 to %d)", field_len(zTok), zTok, RECORD_MAX);
      }
    }
    if (a[1] < a[0] || a[3] < a[2]) {
      return record_error(pzErr, zLine, "a range of rounds or players is "
                                        "empty");
    }
    for (r = (int)a[0]; rc == SQLITE_OK && r <= a[1] && r <= s->iRound; r++) {
      rc = set_virtual(b, a[2], a[3], r, v);
    }
    return rc;
  }
}

/*
** The virtual points of the 250 and XXA records before rounds 1..iRound,
** every player's aVirtual (zero where no record gives any); none without
** such records.  The option accelerated=N as well is an error.
*/
static int apply_virtual_points(TbPairBuild *b, const TbPairSpec *pSpec,
                                char **pzErr) {
  TbPairState *s = &b->state;
  const char *z = b->zRoundRecords;
  sqlite3_uint64 nAll = (sqlite3_uint64)s->nPlayer * (sqlite3_uint64)s->iRound;
  int i, rc = SQLITE_OK, bAny = 0;
  for (; z && *z; z = strchr(z, '\n') ? strchr(z, '\n') + 1 : 0) {
    if (strncmp(z, "250 ", 4) && strncmp(z, "XXA", 3)) continue;
    if (!bAny) {
      if (pSpec->nAccelerated > 0) {
        *pzErr = sqlite3_mprintf("accelerated=%d and the file's virtual "
                                 "points (records 250 or XXA) both accelerate "
                                 "the event: give one of the two",
                                 pSpec->nAccelerated);
        return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
      }
      sqlite3_free(b->aVirtual);
      b->aVirtual = sqlite3_malloc64(sizeof(i64) * (nAll + 1));
      if (b->aVirtual == 0) return SQLITE_NOMEM;
      memset(b->aVirtual, 0, sizeof(i64) * (size_t)nAll);
      for (i = 0; i < s->nPlayer; i++) {
        s->aPlayer[i].aVirtual = &b->aVirtual[(sqlite3_uint64)i * s->iRound];
      }
      bAny = 1;
    }
    if ((rc = apply_virtual_record(b, z, pzErr)) != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

/* A reader on pSrc as of round iAsOf (0: every round). */
static int open_as_of(TbConn *pConn, TbReader *pReader, const TbSource *pSrc,
                      int iAsOf, char **pzErr) {
  TbSource src = *pSrc;
  int rc = tb_enter(pConn, pzErr);
  if (rc != SQLITE_OK) return rc;
  src.iAsOfRound = iAsOf;
  rc = tb_reader_open(pReader, &src, 0, pzErr);
  tb_leave(pConn);
  return rc;
}

/*
** Record 192 names Baku acceleration: the rule's rounds, ceil(rounds / 2)
** (C.04.5.1), which needs the rounds scheduled.  A file's 250 or XXA
** records, when it has them, give the points instead (TRF-2026: they set
** 192's method aside); the option accelerated=N as well is an error.
*/
static int baku_by_type(TbPairBuild *b, const TbPairSpec *pSpec,
                        char **pzErr) {
  if (pSpec->nAccelerated > 0) {
    *pzErr = sqlite3_mprintf("accelerated=%d and the file's record 192 (Baku "
                             "acceleration) both accelerate the event: give "
                             "one of the two", pSpec->nAccelerated);
  } else if (b->state.nRounds <= 0) {
    *pzErr = sqlite3_mprintf("record 192 names Baku acceleration, which "
                             "needs the rounds scheduled (XXR, 142 or "
                             "rounds=N)");
  } else {
    b->state.nAccelerated = (b->state.nRounds + 1) / 2;
    return SQLITE_OK;
  }
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The first round with a game, or 0. */
static int first_game_round(const TbEvent *e) {
  int iFirst = 0, i;
  for (i = 0; i < e->nSeat; i++) {
    const TbSeat *t = &e->aSeat[i];
    if (t->iOpp >= 0 && (iFirst == 0 || t->iRound < iFirst)) iFirst = t->iRound;
  }
  return iFirst;
}

/*
** The colour of pairing number 1 in round 1 where no record gives it, as
** the rounds played show it.  In the first round with a game, the first
** player in pairing-number order who has a colour in it decides: round 1
** alternates colours down the pairing numbers from number 1 (C.04.3), so
** their colour is number 1's if the players before them, counting those
** paired in that round or an earlier one, are even in number, else the
** other.  An event with no game yet keeps White.
*/
static int infer_first_colour(TbPairBuild *b, TbProbe *pProbe) {
  const TbEvent *e = &b->event;
  TbPairState *s = &b->state;
  int iFirst = first_game_round(e), nBefore = 0, i, k, rc;
  for (i = 0; iFirst > 0 && i < s->nPlayer; i++) {
    const TbPlayer *pl = &e->aPlayer[s->aPlayer[i].iPlayer];
    int bPaired = 0;
    if ((rc = tb_poll(pProbe, 1 + pl->nSeat)) != SQLITE_OK) return rc;
    for (k = pl->iSeat; k < pl->iSeat + pl->nSeat; k++) {
      const TbSeat *t = &e->aSeat[k];
      if (t->iRound > iFirst) break;
      if (t->iRound == iFirst && t->iOpp >= 0) {
        int eColour = t->bFirst ? TB_COLOUR_WHITE : TB_COLOUR_BLACK;
        s->eFirstColour = (nBefore & 1) ? -eColour : eColour;
        return SQLITE_OK;
      }
      bPaired |= seat_is_pairing(t);
    }
    nBefore += bPaired;
  }
  return SQLITE_OK;
}

/*
** The same for a system that plays its tables (berger), where colours do not
** alternate down the numbers: the system's own pairing of the first round
** with a game, number 1 White, against the games played in it.  Black (XXC
** black1: every colour swapped) when more of them were played the other way
** round, else White; so a table entered reversed by mistake is one
** difference that pairing_check() reports, not every table of the event.
** A round the system refuses to pair (rounds scheduled it cannot play)
** keeps White: pairing reports that error itself.
*/
static int infer_table_colour(TbPairBuild *b, const TbPairSystem *pSystem) {
  const TbEvent *e = &b->event;
  TbPairState st = b->state;
  TbPairRound tables;
  char *zErr = 0;
  int nSame = 0, nSwapped = 0, i, rc;
  st.iRound = first_game_round(e);
  if (st.iRound == 0) return SQLITE_OK;
  st.eFirstColour = TB_COLOUR_WHITE;
  memset(&tables, 0, sizeof(tables));
  rc = pSystem->xPair(&st, &tables, &zErr);
  for (i = 0; rc == SQLITE_OK && i < tables.nTable; i++) {
    const TbPairTable *t = &tables.aTable[i];
    const TbSeat *pWhite;
    if (t->iB < 0) continue;
    pWhite = tb_event_seat(e, st.aPlayer[t->iA].iPlayer, st.iRound);
    if (pWhite == 0 || pWhite->iOpp != st.aPlayer[t->iB].iPlayer) continue;
    nSame += pWhite->bFirst;
    nSwapped += !pWhite->bFirst;
  }
  tb_pair_round_free(&tables);
  sqlite3_free(zErr);
  if (nSwapped > nSame) b->state.eFirstColour = TB_COLOUR_BLACK;
  return rc == SQLITE_NOMEM ? rc : SQLITE_OK;
}

/*
** Read the event, every round of it, scored under the system's policy,
** and lay out its players in pairing-number order.
*/
int tb_pair_build_open(TbConn *pConn, TbReader *pReader, const TbSource *pSrc,
                       const TbPairSpec *pSpec, TbPairBuild *b, char **pzErr) {
  int rc;
  rc = open_as_of(pConn, pReader, pSrc, 0, pzErr);
  if (rc == SQLITE_OK) {
    rc = tb_compute_event(pConn, pReader, pSrc->pEvent, 0, &pSpec->policy, 1,
                          &b->event, &b->standings, pzErr);
  }
  tb_compute_release(&b->event);
  if (rc != SQLITE_OK) return rc;
  if (b->event.nPlayer == 0) {
    *pzErr = sqlite3_mprintf("no rows in %s nor in %s", pSrc->zMatches,
                             pSrc->zPlayers ? pSrc->zPlayers : "players");
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  event_rounds(&b->event, &b->iLastPlayed, &b->state.iFirstPlayoff);
  rc = order_players(b, pSrc, &pReader->probe);
  b->state.eFirstColour = TB_COLOUR_NONE;
  b->state.nRounds = pSpec->nRounds;
  if (rc == SQLITE_OK) {
    rc = read_trf_records(pReader, pSrc, b, pSpec->nRounds > 0, pzErr);
  }
  if (b->state.eFirstColour == TB_COLOUR_NONE) {
    b->state.eFirstColour = TB_COLOUR_WHITE;
    if (rc == SQLITE_OK && (pSpec->mFlags & TB_PAIR_COLOURS_ALTERNATE)) {
      rc = infer_first_colour(b, &pReader->probe);
    } else if (rc == SQLITE_OK && (pSpec->mFlags & TB_PAIR_COLOURS_TABLE)) {
      rc = infer_table_colour(b, pSpec->pSystem);
    }
  }
  b->state.nPointScale = pSpec->policy.params.nPointScale;
  b->state.nWin = pSpec->policy.params.nMatchWin;
  b->state.nDraw = pSpec->policy.params.nMatchDraw;
  b->state.nLoss = pSpec->policy.params.nMatchLoss;
  b->state.nPab = pSpec->policy.params.nMatchWin;
  b->state.nAccelerated = pSpec->nAccelerated;
  if (rc == SQLITE_OK) {
    rc = tb_pair_schedule_agrees(pSpec, b->state.nRounds, pzErr);
  }
  if (rc == SQLITE_OK && b->bBakuType) rc = baku_by_type(b, pSpec, pzErr);
  b->state.iSeed = (sqlite3_uint64)pSpec->iSeed;
  b->state.nTop = pSpec->nTop;
  b->state.pProbe = &pReader->probe;
  /* every record read once, for round 0 (none): a malformed one is an
  ** error even where no round's state reads it (pairing_check() of an
  ** event not begun) */
  if (rc == SQLITE_OK) rc = apply_round_records(b, 0, pzErr);
  if (rc == SQLITE_OK) rc = apply_virtual_points(b, pSpec, pzErr);
  return rc;
}

/* ---------------------------------------------------------- the round */

/* Points of an outcome under the policy. */
static i64 outcome_points(const TbPairState *s, int eOutcome) {
  return eOutcome == TB_WIN ? s->nWin : eOutcome == TB_DRAW ? s->nDraw : s->nLoss;
}

/* Every player's rounds before iRound: absent where no row says more. */
static int fill_history(TbPairBuild *b, int iRound) {
  TbPairState *s = &b->state;
  const TbEvent *e = &b->event;
  int nHist = iRound - 1, i, k, rc;
  sqlite3_uint64 nAll = (sqlite3_uint64)s->nPlayer * (sqlite3_uint64)nHist;
  sqlite3_free(b->aHist);
  b->aHist = sqlite3_malloc64(sizeof(TbPairHistory) * (nAll + 1));
  if (b->aHist == 0) return SQLITE_NOMEM;
  for (i = 0; i < s->nPlayer; i++) {
    TbPairPlayer *p = &s->aPlayer[i];
    const TbPlayer *pl = &e->aPlayer[p->iPlayer];
    if ((rc = tb_poll(s->pProbe, 1 + nHist)) != SQLITE_OK) return rc;
    p->aHist = &b->aHist[(sqlite3_uint64)i * (sqlite3_uint64)nHist];
    for (k = 0; k < nHist; k++) {
      TbPairHistory *h = &p->aHist[k];
      h->iOpp = -1;
      h->eColour = TB_COLOUR_NONE;
      h->eKind = TB_ZERO_BYE;
      h->eOutcome = TB_LOSS;
      h->nPoints = s->nLoss;
    }
    p->nScore = 0;
    for (k = pl->iSeat; k < pl->iSeat + pl->nSeat; k++) {
      const TbSeat *t = &e->aSeat[k];
      TbPairHistory *h;
      if (t->iRound >= iRound) break;
      h = &p->aHist[t->iRound - 1];
      h->iOpp = t->iOpp >= 0 ? b->aPlace[t->iOpp] : -1;
      h->eColour = (signed char)(t->iOpp < 0 ? TB_COLOUR_NONE
                                 : t->bFirst ? TB_COLOUR_WHITE
                                             : TB_COLOUR_BLACK);
      h->eKind = t->eKind;
      h->eOutcome = t->eOutcome;
      h->nPoints = outcome_points(s, t->eOutcome);
    }
  }
  /* the playoff's matches, out of the seats (playoff.c) */
  for (i = 0; i < e->nPlayoff; i++) {
    const TbMatch *m = &e->aPlayoff[i];
    int bAWon = m->eResult == TB_RESULT_A;
    TbPairHistory *h;
    if (m->iRound >= iRound) continue;
    h = &s->aPlayer[b->aPlace[m->iA]].aHist[m->iRound - 1];
    h->iOpp = m->iB >= 0 ? b->aPlace[m->iB] : -1;
    h->eColour = (signed char)(m->iB >= 0 ? TB_COLOUR_WHITE : TB_COLOUR_NONE);
    h->eKind = m->iB >= 0 ? TB_PLAYED : bAWon ? TB_PAB : TB_ZERO_BYE;
    h->eOutcome = bAWon ? TB_WIN : TB_LOSS;
    h->nPoints = outcome_points(s, h->eOutcome);
    if (m->iB < 0) continue;
    h = &s->aPlayer[b->aPlace[m->iB]].aHist[m->iRound - 1];
    h->iOpp = b->aPlace[m->iA];
    h->eColour = TB_COLOUR_BLACK;
    h->eKind = TB_PLAYED;
    h->eOutcome = bAWon ? TB_LOSS : TB_WIN;
    h->nPoints = outcome_points(s, h->eOutcome);
  }
  for (i = 0; i < s->nPlayer; i++) {
    TbPairPlayer *p = &s->aPlayer[i];
    for (k = 0; k < nHist; k++) p->nScore += p->aHist[k].nPoints;
  }
  return SQLITE_OK;
}

/* Whether player i is absent in round iRound: a row of that round that is
** no pairing (any row, before the round is paired), dropped before it,
** disqualified. */
static int is_absent(const TbPairBuild *b, int i, int iRound) {
  const TbEvent *e = &b->event;
  const TbPlayer *pl = &e->aPlayer[i];
  const TbSeat *t = tb_event_seat(e, i, iRound);
  if (t && (iRound > b->iLastPlayed || !seat_is_pairing(t))) return 1;
  if (e->aReg) {
    const TbReg *r = &e->aReg[i];
    if (r->eStatus == TB_STATUS_DISQUALIFIED) return 1;
    if (r->iDroppedAfter1 > 0) return iRound > r->iDroppedAfter1 - 1;
    /* 'dropped' alone: after their last row */
    if (r->eStatus == TB_STATUS_DROPPED) return iRound > pl->rec.iLastRound;
  }
  return 0;
}

/* Index of the player with key k in aByKey (event indexes sorted by key). */
static int find_key(const TbEvent *e, const int *aByKey, const TbKey *k) {
  int lo = 0, hi = e->nPlayer - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    int c = tb_key_compare(&e->aPlayer[aByKey[mid]].key, k);
    if (c == 0) return aByKey[mid];
    if (c < 0) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

/* Event indexes sorted by key (*paOut), to find another read's players by
** id. */
static int players_by_key(const TbEvent *e, TbProbe *pProbe, int **paOut) {
  Seed *a = sqlite3_malloc64(sizeof(Seed) * ((sqlite3_uint64)e->nPlayer + 1));
  int *aOut = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)e->nPlayer + 1));
  int i, rc = SQLITE_NOMEM;
  if (a && aOut) {
    for (i = 0; i < e->nPlayer; i++) {
      a[i].iPlayer = i;
      a[i].pKey = &e->aPlayer[i].key;
    }
    rc = tb_text_arg_sort((void **)&a, e->nPlayer, (int)sizeof(Seed),
                          seed_by_id, pProbe);
  }
  for (i = 0; rc == SQLITE_OK && i < e->nPlayer; i++) aOut[i] = a[i].iPlayer;
  sqlite3_free(a);
  if (rc != SQLITE_OK) {
    sqlite3_free(aOut);
    aOut = 0;
  }
  *paOut = aOut;
  return rc;
}

/*
** Places in the standings as of round iAsOf (the policy's order, ties in
** it broken by that order's listing); players it does not list (no rows
** yet) follow, by pairing number.
*/
static int fill_standings(TbConn *pConn, TbReader *pReader,
                          const TbSource *pSrc, const TbPairSpec *pSpec,
                          int iAsOf, TbPairBuild *b, char **pzErr) {
  TbPairState *s = &b->state;
  TbEvent past;
  TbStandings st;
  int *aByKey = 0, i, n = 0, rc;
  for (i = 0; i < s->nPlayer; i++) s->aPlayer[i].iStanding = 0;
  if (iAsOf > 0 && iAsOf >= b->event.iLastRound && b->event.nPlayoff == 0) {
    /* no row after iAsOf: the standings read with the event */
    for (i = 0; i < b->standings.nPlayer; i++) {
      s->aPlayer[b->aPlace[b->standings.aOrder[i]]].iStanding = ++n;
    }
  } else if (iAsOf > 0) {
    tb_event_init(&past);
    memset(&st, 0, sizeof(st));
    rc = open_as_of(pConn, pReader, pSrc, iAsOf, pzErr);
    if (rc == SQLITE_OK) {
      rc = tb_compute_event(pConn, pReader, pSrc->pEvent, 0, &pSpec->policy, 1,
                            &past, &st, pzErr);
    }
    if (rc == SQLITE_OK) rc = players_by_key(&b->event, &pReader->probe, &aByKey);
    for (i = 0; rc == SQLITE_OK && i < st.nPlayer; i++) {
      int j = find_key(&b->event, aByKey,
                       &past.aPlayer[st.aOrder[i]].key);
      if ((rc = tb_poll(s->pProbe, 1)) != SQLITE_OK) break;
      if (j >= 0 && s->aPlayer[b->aPlace[j]].iStanding == 0) {
        s->aPlayer[b->aPlace[j]].iStanding = ++n;
      }
    }
    sqlite3_free(aByKey);
    tb_standings_free(&st);
    tb_compute_release(&past);
    tb_event_free(&past);
    if (rc != SQLITE_OK) return rc;
  }
  for (i = 0; i < s->nPlayer; i++) {
    if (s->aPlayer[i].iStanding == 0) s->aPlayer[i].iStanding = ++n;
  }
  return SQLITE_OK;
}

/*
** The state before round iRound of the event tb_pair_build_open() read.
** Standings: as of the round before, or before the playoff once it began.
*/
int tb_pair_build_round(TbConn *pConn, TbReader *pReader, const TbSource *pSrc,
                        const TbPairSpec *pSpec, int iRound, TbPairBuild *b,
                        char **pzErr) {
  TbPairState *s = &b->state;
  int iAsOf = iRound - 1, i, rc;
  s->iRound = iRound;
  if (s->iFirstPlayoff == 0 && (pSpec->mFlags & TB_PAIR_PLAYOFF)) {
    s->iFirstPlayoff = iRound;
  }
  if (s->iFirstPlayoff > 0 && iAsOf >= s->iFirstPlayoff) {
    iAsOf = s->iFirstPlayoff - 1;
  }
  rc = fill_history(b, iRound);
  if (rc == SQLITE_OK) {
    rc = fill_standings(pConn, pReader, pSrc, pSpec, iAsOf, b, pzErr);
  }
  for (i = 0; rc == SQLITE_OK && i < s->nPlayer; i++) {
    TbPairPlayer *p = &s->aPlayer[i];
    p->bAbsent = is_absent(b, p->iPlayer, iRound);
    p->iDivision = b->event.aReg ? b->event.aReg[p->iPlayer].iDivOrder : 0;
  }
  s->pProbe = &pReader->probe;
  if (rc == SQLITE_OK) rc = apply_round_records(b, iRound, pzErr);
  if (rc == SQLITE_OK) rc = apply_virtual_points(b, pSpec, pzErr);
  return rc;
}

void tb_pair_build_free(TbPairBuild *b) {
  sqlite3_free(b->aHist);
  sqlite3_free(b->aPlace);
  sqlite3_free(b->zRoundRecords);
  sqlite3_free(b->aForbidden);
  sqlite3_free(b->aVirtual);
  sqlite3_free(b->state.aPlayer);
  tb_standings_free(&b->standings);
  tb_compute_release(&b->event);
  tb_event_free(&b->event);
  memset(b, 0, sizeof(*b));
}
