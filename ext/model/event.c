/*
** model/event.c: the tournament model.
**
** An event is a list of matches between players.  From it we build, for
** each player, the ordered list of rounds they took part in ("seats") and
** their record under a policy's points.  Every structural error a result
** sheet can hold is caught here, with a message naming the player and round:
** a player paired with themself, paired twice in a round, impossible game
** counts, a result that contradicts its games.
*/
#include "../tiebreak_int.h"

#include <stdlib.h>
#include <string.h>

static void free_row_blocks(TbEvent *p);

void tb_event_init(TbEvent *p) {
  memset(p, 0, sizeof(*p));
}

void tb_event_free(TbEvent *p) {
  free_row_blocks(p);
  if (p->pCut) tb_event_free(p->pCut);
  sqlite3_free(p->pCut);
  sqlite3_free(p->aPlayoff);
  sqlite3_free(p->aPlayer);
  sqlite3_free(p->aSeat);
  sqlite3_free(p->aMatch);
  sqlite3_free(p->aSeatMatch);
  sqlite3_free(p->aGameCount);
  sqlite3_free(p->aText);
  sqlite3_free(p->aHash);
  sqlite3_free(p->aReg);
  sqlite3_free(p->aDivLast);
  sqlite3_free(p->aRegText);
  memset(p, 0, sizeof(*p));
}

/*
** Free what only the computation reads (matches, seats, the id hash),
** keeping the players, their records and ids: all that standings rows
** show, while a standings() cursor walks them.
*/
void tb_event_trim(TbEvent *p) {
  free_row_blocks(p);
  if (p->pCut) tb_event_free(p->pCut);
  sqlite3_free(p->pCut);
  sqlite3_free(p->aPlayoff);
  p->pCut = 0;
  p->aPlayoff = 0;
  p->nPlayoff = 0;
  sqlite3_free(p->aSeat);
  sqlite3_free(p->aMatch);
  sqlite3_free(p->aSeatMatch);
  sqlite3_free(p->aGameCount);
  sqlite3_free(p->aHash);
  p->aSeat = 0;
  p->aMatch = 0;
  p->aSeatMatch = 0;
  p->aGameCount = 0;
  p->aHash = 0;
  p->nSeat = p->nMatch = p->nMatchAlloc = p->nMatchBase = p->nHash = 0;
}

/*
** Free the matches once the seats are scored and the event as of a cut is
** built: ranking reads seats and records only, and the rows are the
** largest part of the event (28 bytes each, 20 MB at 700,000 rows, and
** each seat's match index, 4 bytes a seat).
*/
void tb_event_drop_matches(TbEvent *p) {
  if (p->pCut) tb_event_drop_matches(p->pCut);
  sqlite3_free(p->aMatch);
  sqlite3_free(p->aSeatMatch);
  sqlite3_free(p->aGameCount);
  p->aMatch = 0;
  p->aSeatMatch = 0;
  p->aGameCount = 0;
  p->nMatch = p->nMatchAlloc = p->nMatchBase = 0;
}

/* ------------------------------------------------------------ player ids */

sqlite3_uint64 tb_hash_int(i64 v) {
  sqlite3_uint64 x = (sqlite3_uint64)v;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

sqlite3_uint64 tb_hash_text(const char *z, int n) {
  sqlite3_uint64 h = 0xcbf29ce484222325ULL;
  int i;
  for (i = 0; i < n; i++) {
    h ^= (unsigned char)z[i];
    h *= 0x100000001b3ULL;
  }
  return h ^ 0x9e3779b97f4a7c15ULL;
}

static const char *key_text(const TbEvent *p, const TbKey *k) {
  return p->aText + k->i;
}

static int key_equal(const TbEvent *p, const TbKey *k, int eType, i64 iVal,
                     const char *z, int n) {
  if (k->eType != eType) return 0;
  if (eType == SQLITE_INTEGER) return k->i == iVal;
  return k->n == n && memcmp(key_text(p, k), z, n) == 0;
}

/*
** Growing or clearing an array of many megabytes writes new memory, each
** page of which faults when first written: 100 MB takes a few hundred ms
** on a shared core.  So large blocks are copied or cleared in slices
** between polls; small ones are left to realloc(), which may grow in place.
*/
#define SLICE_BYTES 16384         /* written between polls: 4 pages ... */
#define SLICE_WORK 32             /* ... counted as this many units */
#define GROW_POLLED (1 << 20)     /* blocks from this size grow by slices */

/* n bytes from pFrom to pTo, or zeros if pFrom is NULL, by slices. */
static int write_polled(TbProbe *pProbe, char *pTo, const char *pFrom,
                        size_t n) {
  size_t i;
  for (i = 0; i < n; i += SLICE_BYTES) {
    size_t m = n - i < SLICE_BYTES ? n - i : SLICE_BYTES;
    int rc = tb_poll(pProbe, SLICE_WORK);
    if (rc != SQLITE_OK) return rc;
    if (pFrom) {
      memcpy(pTo + i, pFrom + i, m);
    } else {
      memset(pTo + i, 0, m);
    }
  }
  return SQLITE_OK;
}

/* *pa, a block of nOld bytes, moved to one of nNew > nOld; left as it was
** on failure (out of memory, an interrupt). */
int tb_grow_polled(TbProbe *pProbe, void **pa, size_t nOld, size_t nNew) {
  char *aNew;
  int rc;
  if (nOld < GROW_POLLED) {
    if ((aNew = sqlite3_realloc64(*pa, nNew)) == 0) return SQLITE_NOMEM;
  } else {
    if ((aNew = sqlite3_malloc64(nNew)) == 0) return SQLITE_NOMEM;
    if ((rc = write_polled(pProbe, aNew, *pa, nOld)) != SQLITE_OK) {
      sqlite3_free(aNew);
      return rc;
    }
    sqlite3_free(*pa);
  }
  *pa = aNew;
  return SQLITE_OK;
}

/* Double the hash table (kept at most half full); it starts with room for
** 128 players, so that a small event is not rehashed as it is read. */
static int hash_grow(TbEvent *p) {
  int nNew = p->nHash ? p->nHash * 2 : 256;
  TbSlot *aNew = sqlite3_malloc64(sizeof(TbSlot) * (sqlite3_uint64)nNew);
  int i, rc;
  if (aNew == 0) return SQLITE_NOMEM;
  rc = write_polled(p->pProbe, (char *)aNew, 0, sizeof(TbSlot) * (size_t)nNew);
  for (i = 0; rc == SQLITE_OK && i < p->nHash; i++) {
    const TbSlot *s = &p->aHash[i];
    int j;
    /* a million players rehashed at random: poll as the reading does */
    if ((rc = tb_poll(p->pProbe, 1)) != SQLITE_OK) break;
    if (s->iPlayer1 == 0) continue;
    j = (int)(s->h & (sqlite3_uint64)(nNew - 1));
    while (aNew[j].iPlayer1) j = (j + 1) & (nNew - 1);
    aNew[j] = *s;
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(aNew);
    return rc;
  }
  sqlite3_free(p->aHash);
  p->aHash = aNew;
  p->nHash = nNew;
  return SQLITE_OK;
}

/*
** Index of the slot holding the id, or of the empty slot where it belongs.
** tb_hash_int() is a bijection, so for integer ids equal hashes are equal ids
** and the player need not be visited at all.
*/
static int hash_slot(const TbEvent *p, sqlite3_uint64 h, int eType, i64 iVal,
                     const char *z, int n) {
  int j = (int)(h & (sqlite3_uint64)(p->nHash - 1));
  while (p->aHash[j].iPlayer1) {
    /* an integer id's player is not read: it may not be added yet
    ** (resolve_all_deferred) */
    if (p->aHash[j].h == h && p->aHash[j].eType == eType &&
        (eType == SQLITE_INTEGER ||
         key_equal(p, &p->aPlayer[p->aHash[j].iPlayer1 - 1].key, eType, iVal,
                   z, n))) {
      break;
    }
    j = (j + 1) & (p->nHash - 1);
  }
  return j;
}

static int find_int(const TbEvent *p, i64 v) {
  return p->aHash[hash_slot(p, tb_hash_int(v), SQLITE_INTEGER, v, 0, 0)]
             .iPlayer1 - 1;
}

static int find_text(const TbEvent *p, const char *z, int n) {
  return p->aHash[hash_slot(p, tb_hash_text(z, n), SQLITE_TEXT, 0, z, n)]
             .iPlayer1 - 1;
}

/* *piVal: the integer that the text z[0..n) is written as exactly ('7',
** '-2'; not '07' or '+7'), if it is one. */
static int text_is_integer(const char *z, int n, i64 *piVal) {
  sqlite3_uint64 u = 0;
  int i = z[0] == '-';
  if (n - i < 1 || n - i > 19 || (z[i] == '0' && n - i > 1) ||
      (i && z[1] == '0')) {
    return 0;
  }
  for (; i < n; i++) {
    if (z[i] < '0' || z[i] > '9') return 0;
    u = u * 10 + (sqlite3_uint64)(z[i] - '0');
  }
  if (u > (sqlite3_uint64)0x7fffffffffffffffLL + (z[0] == '-')) return 0;
  *piVal = z[0] == '-' ? (i64)(0 - u) : (i64)u;
  return 1;
}

/*
** The index of the player whose id is pVal, or -1.  The value must be
** INTEGER or TEXT (the caller checks).  An id not found is looked for in
** its other form, as event ids are (tb_id_other_form): '7' finds the
** integer id 7, and 7 the text '7'.
*/
int tb_event_find(const TbEvent *p, sqlite3_value *pVal) {
  int eType = sqlite3_value_type(pVal);
  int i = -1;
  if (p->nHash == 0) return -1;
  if (eType == SQLITE_INTEGER) {
    i64 v = sqlite3_value_int64(pVal);
    char z[24];
    if ((i = find_int(p, v)) < 0) {
      sqlite3_snprintf(sizeof(z), z, "%lld", v);
      i = find_text(p, z, (int)strlen(z));
    }
  } else if (eType == SQLITE_TEXT) {
    const char *z = (const char *)sqlite3_value_text(pVal);
    int n = sqlite3_value_bytes(pVal);
    i64 v;
    if (z == 0) return -1;
    i = find_text(p, z, n);
    if (i < 0 && text_is_integer(z, n, &v)) i = find_int(p, v);
  }
  return i;
}

static int text_append(TbEvent *p, const char *z, int n, i64 *piOff) {
  if (p->nText + n + 1 > p->nTextAlloc) {
    i64 nNew = p->nTextAlloc ? p->nTextAlloc * 2 : 4096;
    char *aNew;
    while (nNew < p->nText + n + 1) nNew *= 2;
    aNew = sqlite3_realloc64(p->aText, (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    p->aText = aNew;
    p->nTextAlloc = nNew;
  }
  memcpy(p->aText + p->nText, z, (size_t)n);
  p->aText[p->nText + n] = 0;
  *piOff = p->nText;
  p->nText += n + 1;
  return SQLITE_OK;
}

/* Room for one more player: the table grown if needed, an entry added
** (*ppNew).  Out of memory, or interrupted while growing: an error. */
static int player_add(TbEvent *p, TbPlayer **ppNew) {
  if (p->nPlayer >= p->nPlayerAlloc) {
    int nNew = p->nPlayerAlloc ? p->nPlayerAlloc * 2 : 64;
    int rc = tb_grow_polled(p->pProbe, (void **)&p->aPlayer,
                         sizeof(TbPlayer) * (size_t)p->nPlayerAlloc,
                         sizeof(TbPlayer) * (size_t)nNew);
    if (rc != SQLITE_OK) return rc;
    p->nPlayerAlloc = nNew;
  }
  *ppNew = &p->aPlayer[p->nPlayer];
  memset(*ppNew, 0, sizeof(**ppNew));
  return SQLITE_OK;
}

/*
** The players' table shrunk to the players, once no more are added (their
** table doubles as they come: up to twice the room needed, 104 bytes a
** player, kept through the ranking).  Shrinking a block leaves it in place.
*/
void tb_event_fit_players(TbEvent *p) {
  TbPlayer *a;
  if (p->nPlayer == 0 || p->nPlayer >= p->nPlayerAlloc) return;
  a = sqlite3_realloc64(p->aPlayer, sizeof(TbPlayer) * (sqlite3_uint64)p->nPlayer);
  if (a == 0) return; /* the larger block stays valid */
  p->aPlayer = a;
  p->nPlayerAlloc = p->nPlayer;
}

/* Point hash slot j at the player just added. */
static void slot_fill(TbEvent *p, int j, sqlite3_uint64 h, int eType) {
  p->aHash[j].h = h;
  p->aHash[j].eType = eType;
  p->aHash[j].iPlayer1 = ++p->nPlayer;
}

/*
** Find or add the player whose id is the integer iVal: the common case,
** which reads only the hash table.
*/
int tb_event_player_int(TbEvent *p, i64 iVal, int *piPlayer) {
  sqlite3_uint64 h = tb_hash_int(iVal);
  TbPlayer *pNew;
  int j, rc;
  if (p->nHash > 0) {
    j = hash_slot(p, h, SQLITE_INTEGER, iVal, 0, 0);
    if (p->aHash[j].iPlayer1) {
      *piPlayer = p->aHash[j].iPlayer1 - 1;
      return SQLITE_OK;
    }
  }
  if ((p->nPlayer + 1) * 2 > p->nHash) {
    if ((rc = hash_grow(p)) != SQLITE_OK) return rc;
  }
  j = hash_slot(p, h, SQLITE_INTEGER, iVal, 0, 0);
  if ((rc = player_add(p, &pNew)) != SQLITE_OK) return rc;
  pNew->key.eType = SQLITE_INTEGER;
  pNew->key.i = iVal;
  slot_fill(p, j, h, SQLITE_INTEGER);
  *piPlayer = p->nPlayer - 1;
  return SQLITE_OK;
}

/* Integer ids wait in the matches: see tb_event_player_later(). */
#define TB_DEFER_AHEAD 16

/*
** The ids of a first sweep, not yet players: each id's slot holds its
** player's index to be, and the players are added once the sweep is done,
** the table grown once to its size.  Doubling it as players come would
** hold the old table and the new one together with every row (at 100,000
** players, 6.8 MB and 13.6 MB beside the rows' 19.5 MB).
*/
typedef struct NewIds {
  i64 *aId;                   /* the ids, in the order met */
  int nId, nAlloc;
} NewIds;

/* Player index of integer id v: found, or given to it in pNew. */
static int defer_lookup(TbEvent *p, NewIds *pNew, i64 v, int *piPlayer) {
  sqlite3_uint64 h = tb_hash_int(v);
  int j, rc;
  /* integer lookups read no player (hash_slot), so slots may point past
  ** the players until they are added */
  if (p->nHash > 0) {
    j = hash_slot(p, h, SQLITE_INTEGER, v, 0, 0);
    if (p->aHash[j].iPlayer1) {
      *piPlayer = p->aHash[j].iPlayer1 - 1;
      return SQLITE_OK;
    }
  }
  if ((p->nPlayer + pNew->nId + 1) * 2 > p->nHash) {
    if ((rc = hash_grow(p)) != SQLITE_OK) return rc;
  }
  if (pNew->nId == pNew->nAlloc) {
    int nNew = pNew->nAlloc ? pNew->nAlloc * 2 : 256;
    i64 *a = sqlite3_realloc64(pNew->aId, sizeof(i64) * (sqlite3_uint64)nNew);
    if (a == 0) return SQLITE_NOMEM;
    pNew->aId = a;
    pNew->nAlloc = nNew;
  }
  j = hash_slot(p, h, SQLITE_INTEGER, v, 0, 0);
  p->aHash[j].h = h;
  p->aHash[j].eType = SQLITE_INTEGER;
  *piPlayer = p->nPlayer + pNew->nId;
  p->aHash[j].iPlayer1 = *piPlayer + 1;
  pNew->aId[pNew->nId++] = v;
  return SQLITE_OK;
}

static void prefetch_deferred(const TbEvent *p, int iPlayer) {
  if (iPlayer <= -3 && p->nHash > 0) {
    sqlite3_uint64 h = tb_hash_int(-(i64)iPlayer - 3);
    TB_PREFETCH(&p->aHash[h & (sqlite3_uint64)(p->nHash - 1)]);
  }
}

static int resolve_deferred(TbEvent *p, NewIds *pNew, int *piPlayer) {
  if (*piPlayer > -3) return SQLITE_OK;
  return defer_lookup(p, pNew, -(i64)*piPlayer - 3, piPlayer);
}

/* The players of the ids in pNew added, the table grown to fit them. */
static int add_new_ids(TbEvent *p, const NewIds *pNew) {
  int i, nAll = p->nPlayer + pNew->nId, rc;
  if (nAll > p->nPlayerAlloc) {
    rc = tb_grow_polled(p->pProbe, (void **)&p->aPlayer,
                        sizeof(TbPlayer) * (size_t)p->nPlayerAlloc,
                        sizeof(TbPlayer) * (size_t)nAll);
    if (rc != SQLITE_OK) return rc;
    p->nPlayerAlloc = nAll;
  }
  for (i = 0; i < pNew->nId; i++) {
    TbPlayer *pl = &p->aPlayer[p->nPlayer + i];
    if (i % TB_POLL_WORK == 0 && (rc = tb_poll(p->pProbe, TB_POLL_WORK))) {
      return rc;
    }
    memset(pl, 0, sizeof(*pl));
    pl->key.eType = SQLITE_INTEGER;
    pl->key.i = pNew->aId[i];
  }
  p->nPlayer = nAll;
  return SQLITE_OK;
}

/*
** Look up every id left in the matches by tb_event_player_later().  On an
** error the event is not computed: slots may name players never added, so
** its ids are no longer looked up (the hash is freed).
*/
static int resolve_all_deferred(TbEvent *p) {
  NewIds ids = {0, 0, 0};
  int i, rc = SQLITE_OK;
  if (!p->bDeferred) return SQLITE_OK;
  for (i = 0; i < p->nMatch && rc == SQLITE_OK; i++) {
    TbMatch *m = &p->aMatch[i];
    if (i + TB_DEFER_AHEAD < p->nMatch) {
      prefetch_deferred(p, p->aMatch[i + TB_DEFER_AHEAD].iA);
      prefetch_deferred(p, p->aMatch[i + TB_DEFER_AHEAD].iB);
    }
    if ((rc = tb_poll(p->pProbe, 1)) == SQLITE_OK &&
        (rc = resolve_deferred(p, &ids, &m->iA)) == SQLITE_OK) {
      rc = resolve_deferred(p, &ids, &m->iB);
    }
  }
  if (rc == SQLITE_OK) rc = add_new_ids(p, &ids);
  sqlite3_free(ids.aId);
  if (rc != SQLITE_OK) {
    sqlite3_free(p->aHash);
    p->aHash = 0;
    p->nHash = 0;
    return rc;
  }
  p->bDeferred = 0;
  return SQLITE_OK;
}

/*
** Find or add the player whose id is pVal (INTEGER or TEXT).
** SQLITE_MISMATCH: pVal has another type.
*/
int tb_event_player(TbEvent *p, sqlite3_value *pVal, int *piPlayer) {
  int eType = sqlite3_value_type(pVal);
  const char *z;

  if (eType == SQLITE_INTEGER) {
    return tb_event_player_int(p, sqlite3_value_int64(pVal), piPlayer);
  }
  if (eType != SQLITE_TEXT) return SQLITE_MISMATCH;
  z = (const char *)sqlite3_value_text(pVal);
  if (z == 0) return SQLITE_NOMEM;
  return tb_event_player_text(p, z, sqlite3_value_bytes(pVal), piPlayer);
}

/* Find or add the player whose id is the text z of n bytes. */
int tb_event_player_text(TbEvent *p, const char *z, int n, int *piPlayer) {
  const int eType = SQLITE_TEXT;
  sqlite3_uint64 h = tb_hash_text(z, n);
  TbPlayer *pNew;
  int j, rc;

  if (p->nHash > 0) {
    j = hash_slot(p, h, eType, 0, z, n);
    if (p->aHash[j].iPlayer1) {
      *piPlayer = p->aHash[j].iPlayer1 - 1;
      return SQLITE_OK;
    }
  }
  if ((p->nPlayer + 1) * 2 > p->nHash) {
    if ((rc = hash_grow(p)) != SQLITE_OK) return rc;
  }
  j = hash_slot(p, h, eType, 0, z, n);
  if ((rc = player_add(p, &pNew)) != SQLITE_OK) return rc;
  pNew->key.eType = eType;
  pNew->key.n = n;
  if ((rc = text_append(p, z, n, &pNew->key.i)) != SQLITE_OK) return rc;
  slot_fill(p, j, h, eType);
  *piPlayer = p->nPlayer - 1;
  return SQLITE_OK;
}

/* Order of ids, as SQLite orders values: integers first, then text. */
int tb_key_compare(const TbKey *a, const TbKey *b) {
  int n, cmp;
  if (a->eType != b->eType) return a->eType == SQLITE_INTEGER ? -1 : 1;
  if (a->eType == SQLITE_INTEGER) return (a->i > b->i) - (a->i < b->i);
  n = a->n < b->n ? a->n : b->n;
  cmp = memcmp(a->z, b->z, (size_t)n);
  return cmp ? cmp : a->n - b->n;
}

/* The id as SQL text for messages: 7 or 'Ann' (sqlite3_free the result). */
char *tb_key_text(const TbKey *pKey) {
  if (pKey->eType == SQLITE_INTEGER) return sqlite3_mprintf("%lld", pKey->i);
  return sqlite3_mprintf("%Q", pKey->z);
}

/* Free the full blocks of rows still held apart (tb_event_grow_matches). */
static void free_row_blocks(TbEvent *p) {
  int i;
  for (i = 0; i < p->nRowBlock; i++) sqlite3_free(p->apRowBlock[i]);
  sqlite3_free(p->apRowBlock);
  p->apRowBlock = 0;
  p->nRowBlock = p->nRowBlockAlloc = 0;
}

/* The full block aMatch kept apart, a new one of its size begun. */
static int row_block_next(TbEvent *p, int nCap) {
  TbMatch *aNew;
  if (p->nRowBlock >= p->nRowBlockAlloc) {
    int nNew = p->nRowBlockAlloc ? p->nRowBlockAlloc * 2 : 16;
    TbMatch **ap = sqlite3_realloc64(p->apRowBlock,
                                     sizeof(TbMatch *) * (sqlite3_uint64)nNew);
    if (ap == 0) return SQLITE_NOMEM;
    p->apRowBlock = ap;
    p->nRowBlockAlloc = nNew;
  }
  if ((aNew = sqlite3_malloc64(sizeof(TbMatch) * (sqlite3_uint64)nCap)) == 0) {
    return SQLITE_NOMEM;
  }
  p->apRowBlock[p->nRowBlock++] = p->aMatch;
  p->aMatch = aNew;
  p->nMatchBase = p->nMatchAlloc;
  p->nMatchAlloc += nCap;
  return SQLITE_OK;
}

/*
** Room for more matches (tb_event_new_match, tiebreak_int.h).  The rows'
** block doubles up to GROW_POLLED bytes; past that each full block is kept
** and a new one of its size begun, so that a large event's rows are never
** held twice, in a block and in the one twice its size that it is copied
** into (at 700,000 rows, 29 MB beside the 15 MB copied).  tb_event_index()
** joins the blocks.
*/
int tb_event_grow_matches(TbEvent *p) {
  int nCap = p->nMatchAlloc - p->nMatchBase;
  int nNew = nCap ? nCap * 2 : 256;
  int rc;
  if (sizeof(TbMatch) * (size_t)nCap >= GROW_POLLED) {
    if (p->nMatchAlloc > 0x7fffffff - nCap) return SQLITE_NOMEM;
    return row_block_next(p, nCap);
  }
  rc = tb_grow_polled(p->pProbe, (void **)&p->aMatch,
                   sizeof(TbMatch) * (size_t)nCap,
                   sizeof(TbMatch) * (size_t)nNew);
  if (rc == SQLITE_OK) p->nMatchAlloc = p->nMatchBase + nNew;
  return rc;
}

/*
** The rows read, in blocks, into one array: each block copied by polled
** slices and freed before the next is read, so the rows are held about
** once.  On an error the rows are gone (the event is not computed).
*/
static int join_row_blocks(TbEvent *p) {
  TbMatch *aAll;
  int i, nCap, rc = SQLITE_OK;
  if (p->nRowBlock == 0) return SQLITE_OK;
  nCap = p->nMatchBase / p->nRowBlock; /* every full block's size */
  aAll = sqlite3_malloc64(sizeof(TbMatch) * ((sqlite3_uint64)p->nMatch + 1));
  for (i = 0; aAll && rc == SQLITE_OK && i < p->nRowBlock; i++) {
    rc = write_polled(p->pProbe, (char *)&aAll[(size_t)i * (size_t)nCap],
                      (const char *)p->apRowBlock[i],
                      sizeof(TbMatch) * (size_t)nCap);
    sqlite3_free(p->apRowBlock[i]);
    p->apRowBlock[i] = 0;
  }
  if (aAll && rc == SQLITE_OK) {
    rc = write_polled(p->pProbe, (char *)&aAll[p->nMatchBase],
                      (const char *)p->aMatch,
                      sizeof(TbMatch) * (size_t)(p->nMatch - p->nMatchBase));
  }
  free_row_blocks(p);
  sqlite3_free(p->aMatch);
  p->aMatch = 0;
  p->nMatchBase = 0;
  if (aAll == 0 || rc != SQLITE_OK) {
    sqlite3_free(aAll);
    p->nMatch = p->nMatchAlloc = 0;
    return aAll ? rc : SQLITE_NOMEM;
  }
  p->aMatch = aAll;
  p->nMatchAlloc = p->nMatch + 1;
  return SQLITE_OK;
}

/*
** The games-table counts of a match, or NULL (out of memory).  Most events
** have no games table, so the counts are allocated at the first row.
*/
TbGameCount *tb_event_game_count(TbEvent *p, int iMatch) {
  if (p->aGameCount == 0) {
    sqlite3_uint64 n = sizeof(TbGameCount) * ((sqlite3_uint64)p->nMatch + 1);
    p->aGameCount = sqlite3_malloc64(n);
    if (p->aGameCount == 0) return 0;
    memset(p->aGameCount, 0, (size_t)n);
  }
  return &p->aGameCount[iMatch];
}

/* -------------------------------------------------------- registrations */

/*
** The registration of player i, the table grown (zeroed: not registered)
** to cover every player so far; NULL when out of memory.
*/
TbReg *tb_event_reg(TbEvent *p, int iPlayer) {
  if (p->nPlayer > p->nRegAlloc) {
    int nNew = p->nPlayerAlloc > p->nPlayer ? p->nPlayerAlloc : p->nPlayer;
    TbReg *aNew = sqlite3_realloc64(p->aReg, sizeof(TbReg) * (sqlite3_uint64)nNew);
    if (aNew == 0) return 0;
    memset(&aNew[p->nRegAlloc], 0,
           sizeof(TbReg) * (size_t)(nNew - p->nRegAlloc));
    p->aReg = aNew;
    p->nRegAlloc = nNew;
  }
  return &p->aReg[iPlayer];
}

/* A name or division into the registrations' arena: *piOff. */
int tb_event_reg_text(TbEvent *p, const char *z, int n, i64 *piOff) {
  if (p->nRegText + n + 1 > p->nRegTextAlloc) {
    i64 nNew = p->nRegTextAlloc ? p->nRegTextAlloc * 2 : 1024;
    char *aNew;
    while (nNew < p->nRegText + n + 1) nNew *= 2;
    aNew = sqlite3_realloc64(p->aRegText, (sqlite3_uint64)nNew);
    if (aNew == 0) return SQLITE_NOMEM;
    p->aRegText = aNew;
    p->nRegTextAlloc = nNew;
  }
  memcpy(p->aRegText + p->nRegText, z, (size_t)n);
  p->aRegText[p->nRegText + n] = 0;
  *piOff = p->nRegText;
  p->nRegText += n + 1;
  return SQLITE_OK;
}

/* Order of two registrations' divisions: by bytes, then length. */
static int div_compare(const TbEvent *p, int a, int b) {
  const TbReg *x = &p->aReg[a], *y = &p->aReg[b];
  int n = x->nDiv < y->nDiv ? x->nDiv : y->nDiv;
  int cmp = memcmp(p->aRegText + x->iDiv, p->aRegText + y->iDiv, (size_t)n);
  return cmp ? cmp : x->nDiv - y->nDiv;
}

/*
** Number the divisions by name (iDivOrder 1, 2, ...; 0: none): a merge
** sort of the players who have one, O(n log n) whatever the names.
*/
static int division_order(TbEvent *p) {
  int n = 0, i, w, iOrder = 0;
  int *a = sqlite3_malloc64(sizeof(int) * 2 * ((sqlite3_uint64)p->nPlayer + 1));
  int *x, *y;
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < p->nPlayer; i++) {
    if (p->aReg[i].bDiv) a[n++] = i;
  }
  x = a;
  y = a + p->nPlayer + 1;
  for (w = 1; w < n; w *= 2) {
    int *t;
    for (i = 0; i < n; i += 2 * w) {
      int lo = i, mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
      int l = lo, r = mid, o = lo;
      while (l < mid && r < hi) {
        y[o++] = div_compare(p, x[r], x[l]) < 0 ? x[r++] : x[l++];
      }
      while (l < mid) y[o++] = x[l++];
      while (r < hi) y[o++] = x[r++];
    }
    t = x;
    x = y;
    y = t;
  }
  for (i = 0; i < n; i++) {
    if (i == 0 || div_compare(p, x[i - 1], x[i]) != 0) iOrder++;
    p->aReg[x[i]].iDivOrder = iOrder;
  }
  p->nDivision = iOrder;
  sqlite3_free(a);
  return SQLITE_OK;
}

/*
** Once the players table is read (players may have been added: their ids
** moved with the arena): check each dropped_after against the player's
** rows, number the divisions, and see whether players are ranked by class.
*/
int tb_event_registered(TbEvent *p, char **pzErr) {
  int i, rc, bDq = 0, *aLast;
  for (i = 0; i < p->nPlayer; i++) {
    TbPlayer *pl = &p->aPlayer[i];
    if (pl->key.eType == SQLITE_TEXT) pl->key.z = p->aText + pl->key.i;
  }
  if (p->aReg == 0) return SQLITE_OK;
  if (tb_event_reg(p, 0) == 0) return SQLITE_NOMEM; /* cover every player */
  /* each player's last round with a row (the seats are not laid out yet) */
  aLast = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->nPlayer + 1));
  if (aLast == 0) return SQLITE_NOMEM;
  memset(aLast, 0, sizeof(int) * ((size_t)p->nPlayer + 1));
  for (i = 0; i < p->nMatch; i++) {
    const TbMatch *m = &p->aMatch[i];
    if (m->iRound > aLast[m->iA]) aLast[m->iA] = m->iRound;
    if (m->iB >= 0 && m->iRound > aLast[m->iB]) aLast[m->iB] = m->iRound;
  }
  for (i = 0; i < p->nPlayer; i++) {
    const TbReg *r = &p->aReg[i];
    const TbPlayer *pl = &p->aPlayer[i];
    int iLast = aLast[i];
    if (r->eStatus == TB_STATUS_DISQUALIFIED) bDq = 1;
    if (r->iDroppedAfter1 > 0 && iLast > r->iDroppedAfter1 - 1) {
      char *zId = tb_key_text(&pl->key);
      sqlite3_free(aLast);
      if (zId == 0) return SQLITE_NOMEM;
      *pzErr = sqlite3_mprintf("player %s dropped after round %d (players "
                               "table) but has a match in round %d",
                               zId, r->iDroppedAfter1 - 1, iLast);
      sqlite3_free(zId);
      return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
    }
  }
  sqlite3_free(aLast);
  if ((rc = division_order(p)) != SQLITE_OK) return rc;
  p->bClasses = bDq || p->nDivision > 0;
  return SQLITE_OK;
}

/* ---------------------------------------------------------------- seats */

/* An error about a player in a round, as "... player 'X' ... round N". */
static int player_error(char **pzErr, const TbKey *pKey, const char *zFmt,
                        int iRound) {
  char *zId = tb_key_text(pKey);
  if (zId == 0) return SQLITE_NOMEM;
  *pzErr = sqlite3_mprintf(zFmt, zId, iRound);
  sqlite3_free(zId);
  return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Move a[i] (and its match index aM[i]) down the max-heap a[0..n) on
** rounds. */
static void sift_seat(TbSeat *a, int *aM, int i, int n) {
  TbSeat t = a[i];
  int tM = aM ? aM[i] : 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && a[c + 1].iRound > a[c].iRound) c++;
    if (a[c].iRound <= t.iRound) break;
    a[i] = a[c];
    if (aM) aM[i] = aM[c];
    i = c;
  }
  a[i] = t;
  if (aM) aM[i] = tM;
}

/*
** Order a player's seats by round, with their match indexes if aM is not
** NULL.  Rows usually
** arrive in round order, so a check comes first; otherwise a heap sort: in
** place, and O(n log n) whatever the order (an insertion sort took minutes
** on rows in reverse).
*/
static void sort_seats(TbSeat *a, int *aM, int n) {
  int i;
  for (i = 1; i < n && a[i - 1].iRound <= a[i].iRound; i++) {
  }
  if (i >= n) return;
  for (i = n / 2 - 1; i >= 0; i--) sift_seat(a, aM, i, n);
  for (i = n - 1; i > 0; i--) {
    TbSeat t = a[0];
    a[0] = a[i];
    a[i] = t;
    if (aM) {
      int tM = aM[0];
      aM[0] = aM[i];
      aM[i] = tM;
    }
    sift_seat(a, aM, 0, i);
  }
}

/*
** A player's side of a settled match, by result: [eResult][bA], bA = 1
** for player_a.  A bye is settled to TB_RESULT_A (or a requested bye).
*/
static const struct {
  unsigned char eOutcome, eKind;
} aSide[][2] = {
  /* TB_RESULT_GAMES: settled away */
  {{TB_LOSS, TB_PLAYED}, {TB_LOSS, TB_PLAYED}},
  /* TB_RESULT_A */
  {{TB_LOSS, TB_PLAYED}, {TB_WIN, TB_PLAYED}},
  /* TB_RESULT_B */
  {{TB_WIN, TB_PLAYED}, {TB_LOSS, TB_PLAYED}},
  /* TB_RESULT_DRAW */
  {{TB_DRAW, TB_PLAYED}, {TB_DRAW, TB_PLAYED}},
  /* TB_RESULT_DOUBLE_LOSS */
  {{TB_LOSS, TB_PLAYED}, {TB_LOSS, TB_PLAYED}},
  /* TB_RESULT_FORFEIT_A */
  {{TB_LOSS, TB_FORFEIT_LOSS}, {TB_WIN, TB_FORFEIT_WIN}},
  /* TB_RESULT_FORFEIT_B */
  {{TB_WIN, TB_FORFEIT_WIN}, {TB_LOSS, TB_FORFEIT_LOSS}},
  /* TB_RESULT_DOUBLE_FORFEIT */
  {{TB_LOSS, TB_FORFEIT_LOSS}, {TB_LOSS, TB_FORFEIT_LOSS}},
  /* TB_RESULT_HALF_BYE */
  {{TB_DRAW, TB_HALF_BYE}, {TB_DRAW, TB_HALF_BYE}},
  /* TB_RESULT_ZERO_BYE */
  {{TB_LOSS, TB_ZERO_BYE}, {TB_LOSS, TB_ZERO_BYE}},
  /* TB_RESULT_LOSS: to chess, an unplayed round scored zero as well */
  {{TB_LOSS, TB_ZERO_BYE}, {TB_LOSS, TB_ZERO_BYE}},
};

/*
** A row as the seats are laid out from it: 12 bytes, written over its
** 28-byte TbMatch once the row is settled (seats_from_rows), so that the
** rows and the seats are not held whole at once.  A player's index has 24
** bits (TB_MAX_PLAYERS, checked before a seat is laid out), so the
** opponent's shares a word with the result.
*/
typedef struct Pairing {
  int iRound;
  int iA;
  signed int iB : 27;         /* < 0: a bye for iA */
  unsigned int eResult : 5;   /* TB_RESULT_*, settled (or not yet: bIndex) */
} Pairing;
typedef char PairingIsTwelveBytes[sizeof(Pairing) == 12 ? 1 : -1];

/*
** Once the ids are read: each player's id text in place, the event's last
** round, and a player paired with themself rejected.  The seats are laid
** out when the rows are scored (tb_event_score), or for the games table's
** lookups while it is read (tb_event_seats).
*/
int tb_event_index(TbEvent *p, char **pzErr) {
  int i, rc;

  if ((rc = join_row_blocks(p)) != SQLITE_OK ||
      (rc = resolve_all_deferred(p)) != SQLITE_OK) {
    return rc;
  }

  for (i = 0; i < p->nPlayer; i++) {
    TbPlayer *pl = &p->aPlayer[i];
    if (pl->key.eType == SQLITE_TEXT) pl->key.z = p->aText + pl->key.i;
  }
  p->iLastRound = 0;
  for (i = 0; i < p->nMatch; i++) {
    const TbMatch *m = &p->aMatch[i];
    if ((rc = tb_poll(p->pProbe, 1)) != SQLITE_OK) return rc;
    if (m->iA == m->iB) {
      return player_error(pzErr, &p->aPlayer[m->iA].key,
                          "player %s is paired with themself in round %d",
                          m->iRound);
    }
    if (m->iRound > p->iLastRound) p->iLastRound = m->iRound;
  }
  return SQLITE_OK;
}

/* Row m as a pairing. */
static void pairing_of(Pairing *pOut, const TbMatch *m) {
  pOut->iRound = m->iRound;
  pOut->iA = m->iA;
  pOut->iB = m->iB;
  pOut->eResult = m->eResult;
}

/* A player's seat of pairing a: the opponent, and with bSettled the
** outcome (a bye settled to a win is a pairing-allocated bye). */
static void seat_fill(TbSeat *s, const Pairing *a, int bA, int bSettled) {
  s->iRound = a->iRound;
  s->iOpp = bA ? a->iB : a->iA;
  s->bFirst = (unsigned char)bA;
  s->bRepeat = 0;
  s->eOutcome = s->eKind = 0;
  if (!bSettled) return;
  s->eOutcome = aSide[a->eResult][bA].eOutcome;
  s->eKind = aSide[a->eResult][bA].eKind;
  if (s->iOpp < 0 && a->eResult == TB_RESULT_A) s->eKind = TB_PAB;
}

/* Rows ahead whose seats lay_out() hints before it writes them. */
#define TB_LAY_AHEAD 16

/*
** Every player's seats from the n pairings a, each player's by round; a
** player twice in a round is an error.  With aSeatMatch (bSettled 0) each
** seat's pairing index is kept there, for the games table's lookups.
*/
static int lay_out(TbEvent *p, const Pairing *a, int n, int bSettled,
                   char **pzErr) {
  int i, k, rc;
  int *aFill;

  if (p->nPlayer > TB_MAX_PLAYERS) {
    *pzErr = sqlite3_mprintf("the event has %d players, more than the %d "
                             "an event may have", p->nPlayer, TB_MAX_PLAYERS);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  tb_event_drop_seats(p);
  p->iLastRound = 0;
  /* seats counted in an int a player, not in the players' 104-byte
  ** records: the counts are read at random, and fit the caches better */
  aFill = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(p->nPlayer + 1));
  if (aFill == 0) return SQLITE_NOMEM;
  memset(aFill, 0, sizeof(int) * (size_t)p->nPlayer);
  for (i = 0; i < n; i++) {
    if ((rc = tb_poll(p->pProbe, 1)) != SQLITE_OK) {
      sqlite3_free(aFill);
      return rc;
    }
    aFill[a[i].iA]++;
    if (a[i].iB >= 0) aFill[a[i].iB]++;
    p->nSeat += a[i].iB >= 0 ? 2 : 1;
    if (a[i].iRound > p->iLastRound) p->iLastRound = a[i].iRound;
  }
  p->aSeat = sqlite3_malloc64(sizeof(TbSeat) * (sqlite3_uint64)(p->nSeat + 1));
  if (!bSettled) {
    p->aSeatMatch = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(p->nSeat + 1));
  }
  if (p->aSeat == 0 || (!bSettled && p->aSeatMatch == 0)) {
    sqlite3_free(aFill);
    return SQLITE_NOMEM;
  }
  p->nPlaying = 0;
  for (i = 0, k = 0; i < p->nPlayer; i++) {
    p->aPlayer[i].nSeat = aFill[i];
    p->aPlayer[i].iSeat = k;
    aFill[i] = k;
    k += p->aPlayer[i].nSeat;
    p->nPlaying += p->aPlayer[i].nSeat > 0;
  }
  /* the fill below writes at random: new pages are touched here first */
  rc = write_polled(p->pProbe, (char *)p->aSeat, 0,
                    sizeof(TbSeat) * (size_t)p->nSeat);
  if (rc != SQLITE_OK) {
    sqlite3_free(aFill);
    return rc;
  }
  for (i = 0; i < n; i++) {
    int kA = aFill[a[i].iA]++;
    if (i + TB_LAY_AHEAD < n) {
      /* the seats a row ahead writes: at random over the seats */
      const Pairing *pAhead = &a[i + TB_LAY_AHEAD];
      TB_PREFETCH(&p->aSeat[aFill[pAhead->iA]]);
      if (pAhead->iB >= 0) TB_PREFETCH(&p->aSeat[aFill[pAhead->iB]]);
    }
    if (i % TB_POLL_WORK == 0 && (rc = tb_poll(p->pProbe, TB_POLL_WORK))) {
      sqlite3_free(aFill);
      return rc;
    }
    seat_fill(&p->aSeat[kA], &a[i], 1, bSettled);
    if (p->aSeatMatch) p->aSeatMatch[kA] = i;
    if (a[i].iB >= 0) {
      k = aFill[a[i].iB]++;
      seat_fill(&p->aSeat[k], &a[i], 0, bSettled);
      if (p->aSeatMatch) p->aSeatMatch[k] = i;
    }
  }
  sqlite3_free(aFill);

  for (i = 0; i < p->nPlayer; i++) {
    TbSeat *aS = &p->aSeat[p->aPlayer[i].iSeat];
    int nS = p->aPlayer[i].nSeat, j;
    if ((rc = tb_poll(p->pProbe, nS + 1)) != SQLITE_OK) return rc;
    sort_seats(aS, p->aSeatMatch ? &p->aSeatMatch[p->aPlayer[i].iSeat] : 0, nS);
    for (j = 1; j < nS; j++) {
      if (aS[j].iRound == aS[j - 1].iRound) {
        return player_error(pzErr, &p->aPlayer[i].key,
                            "player %s is paired twice in round %d",
                            aS[j].iRound);
      }
    }
  }
  return SQLITE_OK;
}

/*
** The seats of the rows as read, unsettled, each with its match index in
** aSeatMatch: the games table finds its matches through them.  Freed by
** tb_event_drop_seats() once it is read (scoring lays them out again).
*/
int tb_event_seats(TbEvent *p, char **pzErr) {
  Pairing *a = sqlite3_malloc64(sizeof(Pairing) * ((sqlite3_uint64)p->nMatch + 1));
  int i, rc;
  if (a == 0) return SQLITE_NOMEM;
  for (i = 0; i < p->nMatch; i++) pairing_of(&a[i], &p->aMatch[i]);
  rc = lay_out(p, a, p->nMatch, 0, pzErr);
  sqlite3_free(a);
  return rc;
}

/* Free the seats (and their match indexes). */
void tb_event_drop_seats(TbEvent *p) {
  sqlite3_free(p->aSeat);
  sqlite3_free(p->aSeatMatch);
  p->aSeat = 0;
  p->aSeatMatch = 0;
  p->nSeat = 0;
}

/*
** The settled rows become the seats, and are freed: each row is written
** over as a Pairing in place (12 of its 28 bytes, in order, so that no row
** is overwritten before it is read), the array shrinks to them, and the
** seats are laid out from them.
*/
static int seats_from_rows(TbEvent *p, char **pzErr) {
  Pairing *a = (Pairing *)(void *)p->aMatch;
  int i, n = p->nMatch, rc;
  for (i = 0; i < n; i++) {
    TbMatch m;
    Pairing x;
    memcpy(&m, &p->aMatch[i], sizeof(m));
    pairing_of(&x, &m);
    memcpy(&a[i], &x, sizeof(x));
  }
  /* shrinking can fail only as an injected fault: the block stays valid */
  a = sqlite3_realloc64(p->aMatch, sizeof(Pairing) * ((sqlite3_uint64)n + 1));
  if (a) p->aMatch = (TbMatch *)(void *)a;
  a = (Pairing *)(void *)p->aMatch;
  sqlite3_free(p->aGameCount);
  p->aGameCount = 0;
  rc = lay_out(p, a, n, 1, pzErr);
  sqlite3_free(p->aMatch);
  p->aMatch = 0;
  p->nMatch = p->nMatchAlloc = 0;
  return rc;
}

/* The seat of a player in a round, or NULL (binary search). */
const TbSeat *tb_event_seat(const TbEvent *p, int iPlayer, int iRound) {
  const TbSeat *a = &p->aSeat[p->aPlayer[iPlayer].iSeat];
  int lo = 0, hi = p->aPlayer[iPlayer].nSeat - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (a[mid].iRound == iRound) return &a[mid];
    if (a[mid].iRound < iRound) lo = mid + 1; else hi = mid - 1;
  }
  return 0;
}

/*
** A hint that player i's seats are about to be read, as a value over the
** player's opponents does.  Not the opponents' records: the opponents'
** averages read their terms, kept per player (tiebreakers.c), so hinting
** the records fetched lines nothing read (XL, timed in pairs: pokemon 0.97
** of the time with them, mtg the same).
*/
void tb_event_prefetch_seats(const TbEvent *p, int i) {
  tb_prefetch_seats(&p->aSeat[p->aPlayer[i].iSeat], p->aPlayer[i].nSeat);
}

/* ---------------------------------------------------------------- scoring */

static const char *result_name(int eResult) {
  switch (eResult) {
    case TB_RESULT_A: return "a";
    case TB_RESULT_B: return "b";
    case TB_RESULT_DRAW: return "draw";
    case TB_RESULT_DOUBLE_LOSS: return "double_loss";
    case TB_RESULT_FORFEIT_A: return "forfeit_a";
    case TB_RESULT_FORFEIT_B: return "forfeit_b";
    case TB_RESULT_DOUBLE_FORFEIT: return "double_forfeit";
    case TB_RESULT_HALF_BYE: return "half_bye";
    case TB_RESULT_ZERO_BYE: return "zero_bye";
    case TB_RESULT_LOSS: return "loss";
  }
  return "NULL";
}

/*
** An error about match m: "<what> in round N match of player 'X'", or for
** a bye "bye of player 'X' in round N <what>".  zWhat is freed here.
*/
static int row_error(const TbEvent *p, const TbMatch *m, char **pzErr,
                     int bBye, char *zWhat) {
  char *zId;
  if (zWhat == 0) return SQLITE_NOMEM;
  zId = tb_key_text(&p->aPlayer[m->iA].key);
  if (zId && bBye) {
    *pzErr = sqlite3_mprintf("bye of player %s in round %d %s", zId,
                             m->iRound, zWhat);
  } else if (zId) {
    *pzErr = sqlite3_mprintf("%s in round %d match of player %s", zWhat,
                             m->iRound, zId);
  }
  sqlite3_free(zWhat);
  sqlite3_free(zId);
  return zId && *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
}

static int match_error(const TbEvent *p, const TbMatch *m, char **pzErr,
                       char *zWhat) {
  return row_error(p, m, pzErr, 0, zWhat);
}

static int bye_error(const TbEvent *p, const TbMatch *m, char **pzErr,
                     char *zWhat) {
  return row_error(p, m, pzErr, 1, zWhat);
}

/*
** The games of a bye (and of a round lost with no opponent): a match won
** 2-0 (MTR Appendix C), or with best_of=N a match won in that format, 1-0
** in best-of-one (as Melee.gg counts it).  Either of 0-0-0 and 2-0-0 in the
** row says "a bye", as does this count.
*/
static int bye_game_wins(const TbParams *pParams) {
  if (pParams->nBestOf > 0 && pParams->nByeGameWins > 0) {
    return (int)((pParams->nBestOf + 1) / 2);
  }
  return pParams->nByeGameWins;
}

/* Are these counts one of the forms of a bye's (or, mirrored, a lone
** loss's) games? */
static int bye_counts(int nWon, int nLost, int nDraws, const TbParams *pParams) {
  if (nLost != 0 || nDraws != 0) return 0;
  return nWon == 0 || nWon == pParams->nByeGameWins || nWon == bye_game_wins(pParams);
}

/*
** "<zWhat>has game counts 1-0-0 (expected 2-0-0 or 0-0-0)": the counts a
** round without opponent may have, won (a bye) or lost (bLoss).  A policy
** whose bye counts no game (chess) expects 0-0-0 alone.
*/
static char *counts_message(const char *zWhat, const TbMatch *m,
                            const TbParams *pParams, int bLoss) {
  int nWins = bye_game_wins(pParams);
  if (nWins == 0) {
    return sqlite3_mprintf("%shas game counts %d-%d-%d (expected 0-0-0)", zWhat,
                           m->nAWins, m->nBWins, m->nDraws);
  }
  return sqlite3_mprintf(bLoss ? "%shas game counts %d-%d-%d (expected 0-%d-0 or 0-0-0)"
                               : "%shas game counts %d-%d-%d (expected %d-0-0 or 0-0-0)",
                         zWhat, m->nAWins, m->nBWins, m->nDraws, nWins);
}

/*
** A round player_a lost with no opponent (a late entry's missed round, a
** no-show): the mirror of a bye, a match lost 0-2 in games (0-0-0 and
** 0-2-0 both mean that, as 0-0-0 and 2-0-0 do for a bye).  It counts in
** the player's own record and in nobody's opponents' values.
*/
static int unpaired_loss_settle(const TbEvent *p, TbMatch *m,
                                const TbParams *pParams, char **pzErr) {
  if (!bye_counts(m->nBWins, m->nAWins, m->nDraws, pParams)) {
    return match_error(p, m, pzErr,
                       counts_message("loss without opponent ", m, pParams, 1));
  }
  m->nAWins = 0;
  m->nBWins = bye_game_wins(pParams);
  m->nDraws = 0;
  m->eResult = TB_RESULT_LOSS;
  return SQLITE_OK;
}

/*
** Settle the game counts and the outcome of one match, checking that they
** are possible.  A games table, when it has rows for the match, is the
** source of the counts; counts also typed into the matches row must agree.
*/
static int match_settle(const TbEvent *p, TbMatch *m, const TbGameCount *g,
                        const TbParams *pParams, char **pzErr) {
  if (m->nAWins < 0 || m->nBWins < 0 || m->nDraws < 0) {
    return match_error(p, m, pzErr, sqlite3_mprintf("negative game count"));
  }
  if (g && g->nRows > 0) {
    int bTyped = m->nAWins || m->nBWins || m->nDraws;
    if (bTyped && (m->nAWins != g->nA || m->nBWins != g->nB ||
                   m->nDraws != g->nD)) {
      return match_error(
          p, m, pzErr,
          sqlite3_mprintf("game counts %d-%d-%d disagree with %d-%d-%d in the "
                          "games table",
                          m->nAWins, m->nBWins, m->nDraws, g->nA, g->nB,
                          g->nD));
    }
    m->nAWins = g->nA;
    m->nBWins = g->nB;
    m->nDraws = g->nD;
  }
  if (m->iB < 0) {
    int bCounts = m->nAWins || m->nBWins || m->nDraws;
    if (m->eResult == TB_RESULT_HALF_BYE || m->eResult == TB_RESULT_ZERO_BYE) {
      if (bCounts) {
        return match_error(p, m, pzErr,
                           sqlite3_mprintf("%s with game counts %d-%d-%d",
                                           result_name(m->eResult), m->nAWins,
                                           m->nBWins, m->nDraws));
      }
      return SQLITE_OK;
    }
    if (m->eResult == TB_RESULT_LOSS ||
        (m->eResult == TB_RESULT_GAMES && m->nBWins > m->nAWins)) {
      return unpaired_loss_settle(p, m, pParams, pzErr);
    }
    if (m->eResult != TB_RESULT_GAMES && m->eResult != TB_RESULT_A) {
      return bye_error(p, m, pzErr,
                       sqlite3_mprintf("cannot have result '%s' (a round "
                                       "lost with no opponent is result "
                                       "'loss')",
                                       result_name(m->eResult)));
    }
    if (bCounts && !bye_counts(m->nAWins, m->nBWins, m->nDraws, pParams)) {
      return bye_error(p, m, pzErr, counts_message("", m, pParams, 0));
    }
    m->nAWins = bye_game_wins(pParams);
    m->nBWins = 0;
    m->nDraws = 0;
    m->eResult = TB_RESULT_A;
    return SQLITE_OK;
  }
  if (m->eResult == TB_RESULT_HALF_BYE || m->eResult == TB_RESULT_ZERO_BYE ||
      m->eResult == TB_RESULT_LOSS) {
    return match_error(p, m, pzErr,
                       sqlite3_mprintf("result '%s' needs a row without "
                                       "opponent (player_b NULL)",
                                       result_name(m->eResult)));
  }
  if (pParams->nBestOf > 0) {
    /* in a best-of-N match nobody wins more than N/2 + 1/2 games, and the
    ** two cannot both reach it (drawn games do not count toward it) */
    int nNeed = (int)((pParams->nBestOf + 1) / 2);
    if (m->nAWins > nNeed || m->nBWins > nNeed ||
        (m->nAWins == nNeed && m->nBWins == nNeed)) {
      return match_error(p, m, pzErr,
                         sqlite3_mprintf("game counts %d-%d-%d do not fit a "
                                         "best-of-%lld match",
                                         m->nAWins, m->nBWins, m->nDraws,
                                         pParams->nBestOf));
    }
  }
  if ((m->eResult == TB_RESULT_A && m->nBWins > m->nAWins) ||
      (m->eResult == TB_RESULT_B && m->nAWins > m->nBWins)) {
    return match_error(p, m, pzErr,
                       sqlite3_mprintf("result '%s' contradicts game counts "
                                       "%d-%d-%d",
                                       result_name(m->eResult), m->nAWins,
                                       m->nBWins, m->nDraws));
  }
  if (m->eResult == TB_RESULT_GAMES) {
    /* A if a_wins > b_wins, B if fewer, else DRAW; without branches, which
    ** results would mispredict half the time */
    m->eResult = TB_RESULT_DRAW - 2 * (m->nAWins > m->nBWins) -
                 (m->nBWins > m->nAWins);
  }
  return SQLITE_OK;
}

/*
** Mark each seat against an opponent the player met in an earlier round
** (option distinct_opponents), or clear the marks of a previous scoring.
** aSeen[o] holds the last player (+1) whose seats met o: one pass.
*/
static int mark_repeats(TbEvent *p, int bDistinct) {
  int *aSeen, i, k;
  if (!bDistinct) {
    for (k = 0; p->bRepeats && k < p->nSeat; k++) p->aSeat[k].bRepeat = 0;
    p->bRepeats = 0;
    return SQLITE_OK;
  }
  aSeen = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->nPlayer + 1));
  if (aSeen == 0) return SQLITE_NOMEM;
  memset(aSeen, 0, sizeof(int) * ((size_t)p->nPlayer + 1));
  for (i = 0; i < p->nPlayer; i++) {
    const TbPlayer *pl = &p->aPlayer[i];
    for (k = pl->iSeat; k < pl->iSeat + pl->nSeat; k++) {
      TbSeat *s = &p->aSeat[k];
      s->bRepeat = s->iOpp >= 0 && aSeen[s->iOpp] == i + 1;
      if (s->iOpp >= 0) aSeen[s->iOpp] = i + 1;
    }
  }
  sqlite3_free(aSeen);
  p->bRepeats = 1;
  return SQLITE_OK;
}

/*
** Each division's last round (aDivLast): the last round reached by its
** players not marked dropped in the players table; a division all of whose
** players dropped ends with the event.  Nothing without divisions.
*/
static int division_last_rounds(TbEvent *p) {
  int i;
  sqlite3_free(p->aDivLast);
  p->aDivLast = 0;
  if (p->aReg == 0 || p->nDivision == 0) return SQLITE_OK;
  p->aDivLast = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)p->nDivision + 1));
  if (p->aDivLast == 0) return SQLITE_NOMEM;
  memset(p->aDivLast, 0, sizeof(int) * ((size_t)p->nDivision + 1));
  for (i = 0; i < p->nPlayer; i++) {
    const TbReg *r = &p->aReg[i];
    int *pLast = &p->aDivLast[r->iDivOrder];
    if (r->eStatus == TB_STATUS_DROPPED) continue;
    if (p->aPlayer[i].rec.iLastRound > *pLast) *pLast = p->aPlayer[i].rec.iLastRound;
  }
  for (i = 0; i <= p->nDivision; i++) {
    if (p->aDivLast[i] == 0) p->aDivLast[i] = p->iLastRound;
  }
  return SQLITE_OK;
}

/* Rows add their games to their players' records in row order, so at
** random: fetch this many rows ahead. */
#define SCORE_PREFETCH 16

/*
** A player's games while the rows are read: 16 bytes a player, not the
** 104 of a record, so that the rows' adds, at random, stay in the cache.
*/
typedef struct GameTally {
  int nGW, nGL, nGD;
  int nByeLoss;               /* rounds lost with no opponent */
} GameTally;

/* The games of the settled rows summed in aTally, then into the records:
** 1 (or interrupted, which the probe keeps); 0 if a sum would pass 32 bits,
** the records untouched (their 64-bit sums are then added directly). */
static int tally_games(TbEvent *p, GameTally *aTally) {
  int i;
  for (i = 0; i < p->nMatch; i++) {
    const TbMatch *m = &p->aMatch[i];
    GameTally *t = &aTally[m->iA];
    int bOver = 0;
    if (i + SCORE_PREFETCH < p->nMatch) {
      const TbMatch *f = &p->aMatch[i + SCORE_PREFETCH];
      TB_PREFETCH(&aTally[f->iA]);
      if (f->iB >= 0) TB_PREFETCH(&aTally[f->iB]);
    }
    if (i % TB_POLL_WORK == 0 && tb_poll(p->pProbe, TB_POLL_WORK)) return 1;
    bOver |= __builtin_add_overflow(t->nGW, m->nAWins, &t->nGW);
    bOver |= __builtin_add_overflow(t->nGL, m->nBWins, &t->nGL);
    bOver |= __builtin_add_overflow(t->nGD, m->nDraws, &t->nGD);
    t->nByeLoss += m->eResult == TB_RESULT_LOSS;
    if (m->iB >= 0) {
      t = &aTally[m->iB];
      bOver |= __builtin_add_overflow(t->nGW, m->nBWins, &t->nGW);
      bOver |= __builtin_add_overflow(t->nGL, m->nAWins, &t->nGL);
      bOver |= __builtin_add_overflow(t->nGD, m->nDraws, &t->nGD);
    }
    if (bOver) return 0;
  }
  for (i = 0; i < p->nPlayer; i++) {
    TbRecord *r = &p->aPlayer[i].rec;
    r->nGW = aTally[i].nGW;
    r->nGL = aTally[i].nGL;
    r->nGD = aTally[i].nGD;
    r->nBye = -aTally[i].nByeLoss; /* counted as a bye's seat */
  }
  return 1;
}

/*
** The parts of the records that need a row's game counts (games won, lost
** and drawn), and each round lost with no opponent, which is not a bye:
** from the settled rows, before they go.  record_outcomes() adds the rest
** from the seats.
*/
static int record_games(TbEvent *p) {
  GameTally *aTally;
  int i, rc, bDone = 0;
  for (i = 0; i < p->nPlayer; i++) {
    memset(&p->aPlayer[i].rec, 0, sizeof(TbRecord));
  }
  aTally = sqlite3_malloc64(sizeof(GameTally) * ((sqlite3_uint64)p->nPlayer + 1));
  if (aTally == 0) return SQLITE_NOMEM;
  memset(aTally, 0, sizeof(GameTally) * (size_t)p->nPlayer);
  bDone = tally_games(p, aTally);
  sqlite3_free(aTally);
  if ((rc = tb_poll(p->pProbe, 1)) != SQLITE_OK || bDone) return rc;
  for (i = 0; i < p->nMatch; i++) {
    const TbMatch *m = &p->aMatch[i];
    TbRecord *r = &p->aPlayer[m->iA].rec;
    if (i + SCORE_PREFETCH < p->nMatch) {
      const TbMatch *f = &p->aMatch[i + SCORE_PREFETCH];
      TB_PREFETCH(&p->aPlayer[f->iA].rec);
      if (f->iB >= 0) TB_PREFETCH(&p->aPlayer[f->iB].rec);
    }
    if (i % TB_POLL_WORK == 0 && (rc = tb_poll(p->pProbe, TB_POLL_WORK))) {
      return rc;
    }
    r->nGW += m->nAWins;
    r->nGL += m->nBWins;
    r->nGD += m->nDraws;
    r->nBye -= m->eResult == TB_RESULT_LOSS; /* counted as a bye's seat */
    if (m->iB >= 0) {
      r = &p->aPlayer[m->iB].rec;
      r->nGW += m->nBWins;
      r->nGL += m->nAWins;
      r->nGD += m->nDraws;
    }
  }
  return SQLITE_OK;
}

/* The rest of every player's record, from their seats, laid out. */
static int record_outcomes(TbEvent *p, const TbParams *pParams) {
  /* points of TB_LOSS, TB_DRAW, TB_WIN */
  const i64 aPoints[3] = {pParams->nMatchLoss, pParams->nMatchDraw,
                          pParams->nMatchWin};
  int i, k, rc;
  for (i = 0; i < p->nPlayer; i++) {
    TbPlayer *pl = &p->aPlayer[i];
    TbRecord *r = &pl->rec;
    /* summed in locals, each stored once */
    i64 nMatchPoints = 0;
    int nWin = 0, nLoss = 0, nDraw = 0, nBye = 0;
    if ((rc = tb_poll(p->pProbe, 1 + pl->nSeat)) != SQLITE_OK) return rc;
    for (k = pl->iSeat; k < pl->iSeat + pl->nSeat; k++) {
      const TbSeat *s = &p->aSeat[k];
      nBye += s->iOpp < 0;
      nWin += s->eOutcome == TB_WIN;
      nDraw += s->eOutcome == TB_DRAW;
      nLoss += s->eOutcome == TB_LOSS;
      nMatchPoints += aPoints[s->eOutcome];
    }
    r->nMatchPoints = nMatchPoints;
    r->nRound = pl->nSeat;
    r->nWin = nWin;
    r->nLoss = nLoss;
    r->nDraw = nDraw;
    r->nBye += nBye;
    r->iLastRound = pl->nSeat ? p->aSeat[pl->iSeat + pl->nSeat - 1].iRound : 0;
    r->nGame = r->nGW + r->nGL + r->nGD;
    r->nGamePoints = r->nGW * pParams->nGameWin + r->nGD * pParams->nGameDraw;
  }
  return SQLITE_OK;
}

/* Note row m, just settled, in the event's first round with a game of no
** result (iOpenRound), if it is one: bNoResult, its result was NULL. */
static void note_open_game(TbEvent *p, const TbMatch *m, int bNoResult) {
  if (!bNoResult || m->iB < 0 || m->nAWins || m->nBWins || m->nDraws) return;
  if (p->iOpenRound == 0 || m->iRound < p->iOpenRound) {
    p->iOpenRound = m->iRound;
    p->nOpen = 0;
    p->iOpenA = m->iA;
    p->iOpenB = m->iB;
  }
  if (m->iRound == p->iOpenRound) p->nOpen++;
}

/*
** Settle every row, fill every player's record, and lay out the seats with
** their outcomes; the rows are freed (the event as of a cut is built from
** them before, tb_event_as_of).
*/
int tb_event_score(TbEvent *p, const TbParams *pParams, char **pzErr) {
  int i, rc;
  p->iCutAfter = (int)tb_cut_round(p, pParams);
  p->bFreezeCut = pParams->bFreezeCut || p->iPlayoffCut > 0;
  p->iOpenRound = p->nOpen = 0;
  for (i = 0; i < p->nMatch; i++) {
    const TbGameCount *g = p->aGameCount ? &p->aGameCount[i] : 0;
    int bNoResult = p->aMatch[i].eResult == TB_RESULT_GAMES;
    if ((rc = tb_poll(p->pProbe, 1)) != SQLITE_OK ||
        (rc = match_settle(p, &p->aMatch[i], g, pParams, pzErr)) != SQLITE_OK) {
      return rc;
    }
    note_open_game(p, &p->aMatch[i], bNoResult);
  }
  if ((rc = record_games(p)) != SQLITE_OK ||
      (rc = seats_from_rows(p, pzErr)) != SQLITE_OK ||
      (rc = record_outcomes(p, pParams)) != SQLITE_OK) {
    return rc;
  }
  /* a drop recorded after rounds without rows: gone after that round */
  for (i = 0; p->aReg && i < p->nPlayer; i++) {
    int iDrop = p->aReg[i].iDroppedAfter1 - 1;
    if (iDrop > p->iLastRound) iDrop = p->iLastRound;
    if (iDrop > p->aPlayer[i].rec.iLastRound) p->aPlayer[i].rec.iLastRound = iDrop;
  }
  if ((rc = division_last_rounds(p)) != SQLITE_OK) return rc;
  return mark_repeats(p, pParams->bDistinctOpp);
}

/*
** The event as it stood after round iRound, scored, into an empty pTo: the
** same players at the same indexes (their ids point into pFrom's text, so
** pTo lives no longer than pFrom) and the matches up to iRound, taken
** before pFrom is scored (scoring frees the rows).  Cut players keep their
** values from it (cut_after).
*/
int tb_event_as_of(const TbEvent *pFrom, int iRound, const TbParams *pParams,
                   TbEvent *pTo, char **pzErr) {
  sqlite3_uint64 nP = (sqlite3_uint64)pFrom->nPlayer + 1;
  sqlite3_uint64 nM = (sqlite3_uint64)pFrom->nMatch + 1;
  int i;
  pTo->aPlayer = sqlite3_malloc64(sizeof(TbPlayer) * nP);
  pTo->aMatch = sqlite3_malloc64(sizeof(TbMatch) * nM);
  if (pTo->aPlayer == 0 || pTo->aMatch == 0) return SQLITE_NOMEM;
  /* the games table's counts go with their rows: they are settled here */
  if (pFrom->aGameCount) {
    pTo->aGameCount = sqlite3_malloc64(sizeof(TbGameCount) * nM);
    if (pTo->aGameCount == 0) return SQLITE_NOMEM;
  }
  memcpy(pTo->aPlayer, pFrom->aPlayer, sizeof(TbPlayer) * (size_t)pFrom->nPlayer);
  pTo->nPlayer = pTo->nPlayerAlloc = pFrom->nPlayer;
  pTo->nMatchAlloc = pFrom->nMatch + 1;
  for (i = 0; i < pFrom->nMatch; i++) {
    if (pFrom->aMatch[i].iRound > iRound) continue;
    if (pTo->aGameCount) pTo->aGameCount[pTo->nMatch] = pFrom->aGameCount[i];
    pTo->aMatch[pTo->nMatch++] = pFrom->aMatch[i];
  }
  pTo->pProbe = pFrom->pProbe;
  return tb_event_score(pTo, pParams, pzErr);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Did the player play (have a row in) the event's last round? */
static int plays_last_round(const TbEvent *p, const TbPlayer *pl) {
  return pl->nSeat > 0 && p->aSeat[pl->iSeat + pl->nSeat - 1].iRound == p->iLastRound;
}

/*
** Whether the pairings are a round robin's (FIDE C.07 15.2), played k
** times (1: a single round robin, 2: a double one) by the n players with a
** row (a registered no-show is none of them).  A forfeit is a pairing, a
** bye is none.  Either every two players were paired k times; or the event
** ran the k cycles of a round robin of n players (n - 1 rounds each, n if
** n is odd), no two players met more than k times, and every two of the
** players who played the last round met k times: a player who withdrew
** and whose games left have no rows.  Those finishing must be more than
** half of the players (the rounds of a handful say little), and no bye
** was allocated but the odd player's of each cycle (a Swiss event's bye
** after a withdrawal is none of a round robin's).  A round robin
** still in progress looks like a Swiss event and is not detected
** (docs/policy-fide.md).  O(rows log rows): one sort of each player's
** opponents, done only when the counts fit.
*/
int tb_event_round_robin(const TbEvent *p, int *pbRoundRobin) {
  i64 nPairing = 0, nPair = (i64)p->nPlaying * (p->nPlaying - 1) / 2;
  int *aOpp, i, j, k, bAll, nMax = 0, nFinish = 0, nCycle;
  *pbRoundRobin = 0;
  if (nPair == 0) return SQLITE_OK;
  for (i = 0; i < p->nSeat; i++) nPairing += p->aSeat[i].iOpp >= 0;
  nPairing /= 2;
  bAll = nPairing == nPair || nPairing == 2 * nPair;
  if (bAll) {
    k = (int)(nPairing / nPair);
  } else {
    nCycle = p->nPlaying % 2 ? p->nPlaying : p->nPlaying - 1;
    k = p->iLastRound / nCycle;
    if (p->iLastRound % nCycle != 0 || k < 1 || k > 2) return SQLITE_OK;
  }
  for (i = 0; i < p->nPlayer; i++) {
    const TbPlayer *pl = &p->aPlayer[i];
    if (pl->nSeat > nMax) nMax = pl->nSeat;
    nFinish += plays_last_round(p, pl);
  }
  if (!bAll && 2 * nFinish <= p->nPlaying) return SQLITE_OK;
  aOpp = sqlite3_malloc64(sizeof(int) * ((sqlite3_uint64)nMax + 1));
  if (aOpp == 0) return SQLITE_NOMEM;
  for (i = 0; i < p->nPlayer; i++) {
    const TbPlayer *pl = &p->aPlayer[i];
    int n = 0, nMet = 0, nBye = 0, bFinish;
    int rc = tb_poll(p->pProbe, pl->nSeat);
    if (rc != SQLITE_OK) {
      sqlite3_free(aOpp);
      return rc;
    }
    if (pl->nSeat == 0) continue;
    bFinish = plays_last_round(p, pl);
    for (j = 0; j < pl->nSeat; j++) {
      const TbSeat *s = &p->aSeat[pl->iSeat + j];
      if (s->iOpp >= 0) aOpp[n++] = s->iOpp;
      nBye += s->iOpp < 0 && s->eKind == TB_PAB;
    }
    /* a round robin allocates no bye but its odd player's, once a cycle */
    if (!bAll && nBye > (p->nPlaying % 2 ? k : 0)) break;
    qsort(aOpp, (size_t)n, sizeof(int), cmp_int);
    /* each opponent's run: at most k games; k with each finishing one */
    for (j = 0; j < n;) {
      const TbPlayer *o = &p->aPlayer[aOpp[j]];
      int h = j;
      while (h < n && aOpp[h] == aOpp[j]) h++;
      if (h - j > k) break;
      nMet += h - j == k && (bAll || plays_last_round(p, o));
      j = h;
    }
    if (j < n) break;
    if (bAll ? nMet != p->nPlaying - 1 : bFinish && nMet != nFinish - 1) break;
  }
  sqlite3_free(aOpp);
  *pbRoundRobin = i == p->nPlayer;
  return SQLITE_OK;
}
