/*
** sql/scalars.c: mwp(), gwp(), omwp(), ogwp().
**
** Pure formulas, deterministic and innocuous:
**
**   SELECT mwp(5, 2, 1);            -- 16/24 = 0.666...
**   SELECT gwp(1, 2, 0);            -- 3/9 -> floor 0.33
**   SELECT mwp(1, 3, 0, '1/3');     -- with another floor
**
** Values read from the user's tables (policy 'mtg' unless given):
**
**   SELECT player, omwp(1, player) FROM (SELECT DISTINCT player_a AS player
**                                         FROM matches WHERE event_id = 1);
**   SELECT ogwp(1, 'Ann', 'mtg(floor=1/3)');
**
** The table-reading functions compute each event once per statement, so
** calling them for every player of many events stays linear in their size.
*/
#include "../tiebreak_int.h"

#include <string.h>

/* --------------------------------------------------------- pure formulas */

/*
** max(num/den, floor), correctly rounded: the quotient of counts below 2^53
** is, a floor of larger terms (the shortest form of a REAL, 17 digits) is
** rounded from its exact value.
*/
static int floored_double(i64 num, i64 den, const TbFrac *pFloor, double *pr) {
  TbAcc acc;
  TbQ q;
  int rc = SQLITE_OK;
  tb_acc_init(&acc, 0);
  tb_acc_add_floored(&acc, num, den, pFloor);
  tb_acc_normalize(&acc);
  *pr = acc.r;
  if (tb_acc_rounded(&acc)) return SQLITE_OK;
  tb_acc_init(&acc, 1);
  tb_acc_add_floored(&acc, num, den, pFloor);
  tb_acc_take(&acc, &q);
  if (!acc.bNoMem) *pr = tb_q_double(&q, &rc);
  tb_q_free(&q);
  return acc.bNoMem ? SQLITE_NOMEM : rc;
}

/*
** mwp(wins, losses, draws [, floor]) and gwp(...): max(points / (3 * n),
** floor), with points 3 per win and 1 per draw.  NULL in, NULL out; no match
** (or game) at all has no percentage: NULL.
*/
static void formula_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zName = (const char *)sqlite3_user_data(ctx);
  TbFrac floor = {33, 100};
  i64 a[3];
  int i;
  double r;

  for (i = 0; i < argc; i++) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return;
  }
  for (i = 0; i < 3; i++) {
    int rc;
    if (!tb_value_whole(argv[i], &a[i], &rc) || a[i] < 0 ||
        a[i] > 1000000000) {
      char *zMsg;
      if (rc != SQLITE_OK) {
        sqlite3_result_error_nomem(ctx);
        return;
      }
      zMsg = sqlite3_mprintf("%s(): counts must be integers from 0 to "
                             "1000000000", zName);
      if (zMsg) sqlite3_result_error(ctx, zMsg, -1);
      else sqlite3_result_error_nomem(ctx);
      sqlite3_free(zMsg);
      return;
    }
  }
  if (argc == 4) {
    char *zErr = 0;
    if (tb_floor_from_value(argv[3], &floor, &zErr) != SQLITE_OK) {
      char *zMsg = zErr ? sqlite3_mprintf("%s(): %s", zName, zErr) : 0;
      if (zMsg) sqlite3_result_error(ctx, zMsg, -1);
      else sqlite3_result_error_nomem(ctx);
      sqlite3_free(zErr);
      sqlite3_free(zMsg);
      return;
    }
  }
  if (a[0] + a[1] + a[2] == 0) return;
  if (floored_double(3 * a[0] + a[2], 3 * (a[0] + a[1] + a[2]), &floor,
                     &r) != SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_double(ctx, r);
}

/* ------------------------------------------------ values from the tables */

/*
** The table-reading functions keep the events they compute for the rest of
** the statement, so that a query asking for every player of many events,
** in any order, computes each event once:
**
**   SELECT player, omwp(event_id, player) FROM entries;
**
** The events live in a cache that SQLite frees with the statement (aux
** data of a negative slot: one per statement, not per argument, as
** SQLite's own JSON functions keep their parses), checked at every call
** against what could have changed the tables since it was filled (see
** sig_now).  When the first event read scanned the whole matches table (no
** index on event_id), every event is computed in one more pass and kept:
** the rest then cost nothing to read.  Each policy a statement uses has its
** events (PolicyCache), so a policy from a column costs one computation of
** each event per policy, not one per call.  Before SQLite 3.39 (no
** sqlite3_db_name() to list the databases) only the event of a constant
** argument is kept, per call site.
*/
#define TB_CACHE_SLOT (-0x74627263)   /* the statement-wide aux data slot */

/* What a table-reading function returns: a column of tb_aTiebreaker. */
typedef struct TbFuncData {
  TbConn *pConn;
  const char *zName;
  int iTiebreaker;
} TbFuncData;

/* One event computed under one policy, or the error computing it gave. */
typedef struct CacheEvent {
  TbKey key;                  /* its text owned (zKey) */
  char *zKey;
  TbEvent event;
  TbStandings standings;
  char *zErr;                 /* SQLITE_ERROR computing it: the message */
} CacheEvent;

/*
** The events of one policy: any number of policies per statement, found by
** their text (an alias) or by what they compute (tb_policy_key), kept from
** the most recently used to the least while their events fit in
** TB_CACHE_BYTES.
*/
typedef struct PolicyCache PolicyCache;
struct PolicyCache {
  TbPolicy policy;
  sqlite3_uint64 hKey;        /* hash of tb_policy_key() */
  PolicyCache *pNextKey;      /* in the same bucket of StmtCache.apKey */
  PolicyCache *pNewer, *pOlder; /* in the statement's order of use */
  i64 nBytes;                 /* what it holds, about */
  int nEvent, nAlloc;
  CacheEvent **apEvent;
  int *aHash, nHash;          /* open addressing: index + 1 */
  int bScanned;               /* reading one event scanned the whole table */
  int bAll;                   /* every event was computed (or tried) */
};

/*
** What the cached events may hold together.  Every policy is kept while
** they fit; past it the least recently used policies go (the one in use
** stays, however large), so that a statement reading many large events
** under many policies does not hold them all.
*/
#define TB_CACHE_BYTES ((i64)64 << 20)

/* A policy string seen, and the policy it parsed to. */
typedef struct PolicyAlias {
  sqlite3_uint64 h;           /* 0: empty slot */
  int n;
  char *z;
  PolicyCache *p;
} PolicyAlias;

/* Aliases kept at most: then forgotten all at once (parsed again when
** met again), as when a policy goes. */
#define TB_ALIAS_MAX 1024

/* What the tables' contents depend on, as seen from this connection. */
typedef struct TbSig {
  sqlite3_int64 nChanges;     /* rows changed by this connection */
  sqlite3_uint64 h;           /* hash of each database's data version,
                              ** schema size, the transaction state */
} TbSig;

typedef struct StmtCache {
  TbSig sig;
  TbReader reader;            /* kept between calls, reset after each; the
                              ** statements die with the cache */
  int bReader;                /* reader initialized */
  PolicyCache **apKey;        /* buckets by hKey, nKey of them (power of 2) */
  int nKey, nPolicy;
  PolicyCache *pNewest, *pOldest;
  i64 nBytes;                 /* held by every policy */
  PolicyAlias *aAlias;        /* open addressing, nAliasSlot (power of 2) */
  int nAliasSlot, nAlias;
} StmtCache;

static void event_free(CacheEvent *p) {
  if (p == 0) return;
  tb_standings_free(&p->standings);
  tb_event_free(&p->event);
  sqlite3_free(p->zKey);
  sqlite3_free(p->zErr);
  sqlite3_free(p);
}

static void policy_clear(PolicyCache *p) {
  int i;
  for (i = 0; i < p->nEvent; i++) event_free(p->apEvent[i]);
  sqlite3_free(p->apEvent);
  sqlite3_free(p->aHash);
  p->apEvent = 0;
  p->aHash = 0;
  p->nEvent = p->nAlloc = p->nHash = 0;
  p->bScanned = p->bAll = 0;
  p->nBytes = sizeof(*p);
}

static void alias_forget(StmtCache *pCache) {
  int i;
  for (i = 0; i < pCache->nAliasSlot; i++) sqlite3_free(pCache->aAlias[i].z);
  if (pCache->aAlias) {
    memset(pCache->aAlias, 0, sizeof(PolicyAlias) * (size_t)pCache->nAliasSlot);
  }
  pCache->nAlias = 0;
}

static void cache_free(void *pArg) {
  StmtCache *p = (StmtCache *)pArg;
  while (p->pNewest) {
    PolicyCache *pPol = p->pNewest;
    p->pNewest = pPol->pOlder;
    policy_clear(pPol);
    sqlite3_free(pPol);
  }
  alias_forget(p);
  sqlite3_free(p->aAlias);
  sqlite3_free(p->apKey);
  if (p->bReader) tb_reader_close(&p->reader);
  sqlite3_free(p);
}

/*
** The state of everything the cached events were read from.  Another
** connection's commit changes a database's data version (read once this
** connection starts reading it again: a database file it is not reading
** now is opened for a moment first); this connection's row changes count
** in sqlite3_total_changes64() once their statement ends; its own DDL
** changes the schema's size, and a COMMIT or ROLLBACK the autocommit
** state.  A statement's own writes are not seen until it ends, so within
** one statement the values are those of its first call, as a constant
** event's always were.
*/
static int sig_now(sqlite3 *db, TbSig *pSig, char **pzErr) {
  sqlite3_uint64 h = 0xcbf29ce484222325ULL;
  sqlite3_str *pProbe = 0;
  const char *zDb;
  int i, rc = SQLITE_OK;
  for (i = 0; (zDb = sqlite3_db_name(db, i)) != 0; i++) {
    const char *zFile = sqlite3_db_filename(db, zDb);
    if (i != 1 && zFile && zFile[0] &&
        sqlite3_txn_state(db, zDb) == SQLITE_TXN_NONE) {
      if (pProbe == 0) {
        pProbe = sqlite3_str_new(db);
        sqlite3_str_appendall(pProbe, "SELECT 1 FROM ");
      } else {
        sqlite3_str_appendall(pProbe, ", ");
      }
      sqlite3_str_appendf(pProbe, "\"%w\".sqlite_schema", zDb);
    }
  }
  if (pProbe) { /* a read transaction brings the data versions up to date */
    char *zSql;
    sqlite3_str_appendall(pProbe, " LIMIT 0");
    zSql = sqlite3_str_finish(pProbe);
    if (zSql == 0) return SQLITE_NOMEM;
    rc = sqlite3_exec(db, zSql, 0, 0, 0);
    sqlite3_free(zSql);
    if (rc != SQLITE_OK) { /* SQLITE_BUSY, SQLITE_INTERRUPT ... */
      if (rc == SQLITE_NOMEM) return rc;
      *pzErr = sqlite3_mprintf("%s", sqlite3_errmsg(db));
      return *pzErr ? rc : SQLITE_NOMEM;
    }
  }
  for (i = 0; (zDb = sqlite3_db_name(db, i)) != 0; i++) {
    unsigned int v = 0;
    if (sqlite3_file_control(db, zDb, SQLITE_FCNTL_DATA_VERSION, &v)) v = 0;
    h = (h ^ v) * 0x100000001b3ULL;
    h = (h ^ (sqlite3_uint64)sqlite3_txn_state(db, zDb)) * 0x100000001b3ULL;
  }
  h = (h ^ (sqlite3_uint64)(i * 2 + sqlite3_get_autocommit(db))) *
      0x100000001b3ULL;
  pSig->nChanges = sqlite3_total_changes64(db);
  pSig->h = h;
  return SQLITE_OK;
}

/* An event argument as a key: INTEGER (whole REALs too) or TEXT. */
static void key_of_arg(sqlite3_value *v, TbKey *k) {
  memset(k, 0, sizeof(*k));
  if (sqlite3_value_type(v) == SQLITE_TEXT) {
    k->eType = SQLITE_TEXT;
    k->z = (const char *)sqlite3_value_text(v);
    k->n = sqlite3_value_bytes(v);
  } else {
    k->eType = SQLITE_INTEGER;
    k->i = sqlite3_value_int64(v);
  }
}

static sqlite3_uint64 key_hash(const TbKey *k) {
  return k->eType == SQLITE_INTEGER ? tb_hash_int(k->i)
                                    : tb_hash_text(k->z, k->n);
}

static int key_same(const TbKey *a, const TbKey *b) {
  if (a->eType != b->eType) return 0;
  if (a->eType == SQLITE_INTEGER) return a->i == b->i;
  return a->n == b->n && memcmp(a->z, b->z, (size_t)a->n) == 0;
}

static int policy_slot(const PolicyCache *p, const TbKey *k) {
  int j = (int)(key_hash(k) & (sqlite3_uint64)(p->nHash - 1));
  while (p->aHash[j] && !key_same(&p->apEvent[p->aHash[j] - 1]->key, k)) {
    j = (j + 1) & (p->nHash - 1);
  }
  return j;
}

static CacheEvent *policy_find(const PolicyCache *p, const TbKey *k) {
  int j;
  if (p->nHash == 0 || (k->eType == SQLITE_TEXT && k->z == 0)) return 0;
  j = policy_slot(p, k);
  return p->aHash[j] ? p->apEvent[p->aHash[j] - 1] : 0;
}

/* What an event holds, as kept (event_done): its arrays' sizes. */
static i64 event_arrays_bytes(const TbEvent *e) {
  i64 n = sqlite3_msize(e->aPlayer) + sqlite3_msize(e->aText) +
          sqlite3_msize(e->aHash) + sqlite3_msize(e->aReg) +
          sqlite3_msize(e->aRegText) + sqlite3_msize(e->aPlayoff);
  if (e->pCut) n += (i64)sizeof(TbEvent) + event_arrays_bytes(e->pCut);
  return n;
}

static i64 event_bytes(const CacheEvent *pEv) {
  const TbStandings *s = &pEv->standings;
  return (i64)sizeof(*pEv) + (pEv->key.eType == SQLITE_TEXT ? pEv->key.n : 0) +
         event_arrays_bytes(&pEv->event) + sqlite3_msize(s->aOrder) +
         sqlite3_msize(s->aRank) + sqlite3_msize(s->aDecidedBy) +
         sqlite3_msize(s->aValue) + sqlite3_msize(s->aFlag) +
         sqlite3_msize(s->aSwissRank) + sqlite3_msize(s->aParams) +
         16 * (i64)sizeof(int); /* the slots of apEvent and aHash, about */
}

/* Keep a computed event (owned by the cache from here on, even on error). */
static int policy_add(PolicyCache *p, CacheEvent *pEv) {
  int i;
  if (p->nEvent >= p->nAlloc) {
    int nNew = p->nAlloc ? p->nAlloc * 2 : 16;
    CacheEvent **a = sqlite3_realloc64(p->apEvent,
                                       sizeof(*a) * (sqlite3_uint64)nNew);
    if (a == 0) {
      event_free(pEv);
      return SQLITE_NOMEM;
    }
    p->apEvent = a;
    p->nAlloc = nNew;
  }
  p->apEvent[p->nEvent++] = pEv;
  if (p->nEvent * 2 > p->nHash) {
    int nNew = p->nHash ? p->nHash * 2 : 64;
    int *a = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)nNew);
    if (a == 0) {
      event_free(p->apEvent[--p->nEvent]);
      return SQLITE_NOMEM;
    }
    memset(a, 0, sizeof(int) * (size_t)nNew);
    sqlite3_free(p->aHash);
    p->aHash = a;
    p->nHash = nNew;
    for (i = 0; i < p->nEvent - 1; i++) {
      p->aHash[policy_slot(p, &p->apEvent[i]->key)] = i + 1;
    }
  }
  p->aHash[policy_slot(p, &pEv->key)] = p->nEvent;
  p->nBytes += event_bytes(pEv);
  return SQLITE_OK;
}

/* A new cache event for the id k (its text copied). */
static CacheEvent *event_new(const TbKey *k) {
  CacheEvent *p = sqlite3_malloc64(sizeof(*p));
  if (p == 0) return 0;
  memset(p, 0, sizeof(*p));
  p->key = *k;
  if (k->eType == SQLITE_TEXT) {
    p->zKey = sqlite3_malloc64((sqlite3_uint64)k->n + 1);
    if (p->zKey == 0) {
      sqlite3_free(p);
      return 0;
    }
    memcpy(p->zKey, k->z, (size_t)k->n);
    p->zKey[k->n] = 0;
    p->key.z = p->zKey;
  }
  return p;
}

/*
** Keep only what lookups read: the players, their ids and the id hash.  An
** error is kept (as its message) only if it is the data's: the next call
** would find it again.  Anything else (out of memory, an interrupt) is
** returned and nothing is kept.
*/
static int event_done(PolicyCache *p, CacheEvent *pEv, int rc, char **pzErr) {
  tb_event_drop_matches(&pEv->event);
  sqlite3_free(pEv->event.aSeat);
  pEv->event.aSeat = 0;
  pEv->event.nSeat = 0;
  if (rc == SQLITE_ERROR && *pzErr) {
    tb_standings_free(&pEv->standings);
    memset(&pEv->standings, 0, sizeof(pEv->standings));
    pEv->zErr = *pzErr;
    *pzErr = 0;
    rc = SQLITE_OK;
  }
  if (rc != SQLITE_OK) {
    event_free(pEv);
    return rc;
  }
  return policy_add(p, pEv);
}

/* The reader of the matches table for this policy, opened. */
static int open_reader(TbReader *r, TbConn *pConn, const PolicyCache *p,
                       sqlite3_value *pEvent, char **pzErr) {
  TbSource src;
  int rc;
  memset(&src, 0, sizeof(src));
  src.pEvent = pEvent;
  src.zMatches = "matches";
  if ((rc = tb_enter(pConn, pzErr)) != SQLITE_OK) return rc;
  rc = tb_reader_open(r, &src,
                      tb_policy_needs(&p->policy) & TB_NEEDS_RATINGS, pzErr);
  tb_leave(pConn);
  return rc;
}

/* Compute the event of argument pEvent (key k) and keep it. */
static int compute_one(TbReader *r, TbConn *pConn, PolicyCache *p,
                       sqlite3_value *pEvent, const TbKey *k, char **pzErr) {
  CacheEvent *pEv = event_new(k);
  int rc;
  if (pEv == 0) return SQLITE_NOMEM;
  rc = open_reader(r, pConn, p, pEvent, pzErr);
  if (rc == SQLITE_OK) {
    rc = tb_compute_event(pConn, r, pEvent, 0, &p->policy, 0, &pEv->event,
                          &pEv->standings, pzErr);
    /* a fault of the event's data names it, as standings() does */
    if (rc == SQLITE_ERROR && *pzErr) rc = tb_name_event(k, pzErr);
  }
  /* no index on event_id: the next event's read would scan it all again */
  if (r->pMatches &&
      sqlite3_stmt_status(r->pMatches, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1)) {
    p->bScanned = 1;
  }
  tb_reader_reset(r);
  return event_done(p, pEv, rc, pzErr);
}

/*
** Every event of the table in one pass, each kept with its standings or
** its error (events already kept stay).  A row that cannot be read stops
** this: the events are then computed one by one as asked, as before.
*/
static int compute_all(TbReader *r, TbConn *pConn, PolicyCache *p) {
  TbEventSet set;
  char *zErr = 0;
  int rc, i;
  p->bAll = 1;
  memset(&set, 0, sizeof(set));
  rc = open_reader(r, pConn, p, 0, &zErr);
  if (rc == SQLITE_OK && (rc = tb_enter(pConn, &zErr)) == SQLITE_OK) {
    rc = tb_reader_all(r, &set, &zErr);
    tb_leave(pConn);
  }
  for (i = 0; rc == SQLITE_OK && i < set.nEvent; i++) {
    CacheEvent *pEv;
    TbKey k;
    tb_event_set_key(&set, set.aOrder[i], &k);
    if (policy_find(p, &k)) continue;
    if ((pEv = event_new(&k)) == 0) {
      rc = SQLITE_NOMEM;
      break;
    }
    rc = tb_event_set_build(&set, set.aOrder[i], &pEv->event);
    if (rc == SQLITE_OK) {
      rc = tb_compute_event(pConn, r, 0, &pEv->key, &p->policy, 0,
                            &pEv->event, &pEv->standings, &zErr);
      if (rc == SQLITE_ERROR && zErr) rc = tb_name_event(&k, &zErr);
    }
    rc = event_done(p, pEv, rc, &zErr);
  }
  tb_event_set_free(&set);
  tb_reader_reset(r);
  sqlite3_free(zErr);
  return rc == SQLITE_NOMEM ? rc : SQLITE_OK;
}

/* ------------------------------------------------ the statement's policies */

/* The policy kept that computes what pPolicy does (hash h), or NULL. */
static PolicyCache *policy_by_key(const StmtCache *pCache,
                                  const TbPolicy *pPolicy, sqlite3_uint64 h) {
  PolicyCache *q;
  int n, nQ;
  const void *pKey = tb_policy_key(pPolicy, &n);
  if (pCache->nKey == 0) return 0;
  for (q = pCache->apKey[h & (sqlite3_uint64)(pCache->nKey - 1)]; q;
       q = q->pNextKey) {
    if (q->hKey == h &&
        memcmp(tb_policy_key(&q->policy, &nQ), pKey, (size_t)n) == 0) {
      return q;
    }
  }
  return 0;
}

/* Make p (kept or new) the most recently used policy. */
static void policy_touch(StmtCache *pCache, PolicyCache *p) {
  if (pCache->pNewest == p) return;
  if (p->pNewer) p->pNewer->pOlder = p->pOlder;
  if (p->pOlder) p->pOlder->pNewer = p->pNewer;
  if (pCache->pOldest == p) pCache->pOldest = p->pNewer;
  p->pNewer = 0;
  p->pOlder = pCache->pNewest;
  if (pCache->pNewest) pCache->pNewest->pNewer = p;
  pCache->pNewest = p;
  if (pCache->pOldest == 0) pCache->pOldest = p;
}

/* Keep the new policy p, found by its key from now on. */
static int policy_keep(StmtCache *pCache, PolicyCache *p) {
  if (pCache->nPolicy >= pCache->nKey) {
    int nNew = pCache->nKey ? pCache->nKey * 2 : 16;
    PolicyCache **a = sqlite3_malloc64(sizeof(*a) * (sqlite3_uint64)nNew);
    PolicyCache *q;
    if (a == 0) return SQLITE_NOMEM;
    memset(a, 0, sizeof(*a) * (size_t)nNew);
    for (q = pCache->pNewest; q; q = q->pOlder) {
      q->pNextKey = a[q->hKey & (sqlite3_uint64)(nNew - 1)];
      a[q->hKey & (sqlite3_uint64)(nNew - 1)] = q;
    }
    sqlite3_free(pCache->apKey);
    pCache->apKey = a;
    pCache->nKey = nNew;
  }
  p->pNextKey = pCache->apKey[p->hKey & (sqlite3_uint64)(pCache->nKey - 1)];
  pCache->apKey[p->hKey & (sqlite3_uint64)(pCache->nKey - 1)] = p;
  pCache->nPolicy++;
  pCache->nBytes += p->nBytes;
  policy_touch(pCache, p);
  return SQLITE_OK;
}

/* Free the kept policy p, and every alias (some may name it). */
static void policy_drop(StmtCache *pCache, PolicyCache *p) {
  PolicyCache **pp = &pCache->apKey[p->hKey & (sqlite3_uint64)(pCache->nKey - 1)];
  while (*pp != p) pp = &(*pp)->pNextKey;
  *pp = p->pNextKey;
  if (p->pNewer) p->pNewer->pOlder = p->pOlder;
  else pCache->pNewest = p->pOlder;
  if (p->pOlder) p->pOlder->pNewer = p->pNewer;
  else pCache->pOldest = p->pNewer;
  pCache->nPolicy--;
  pCache->nBytes -= p->nBytes;
  policy_clear(p);
  sqlite3_free(p);
  alias_forget(pCache);
}

/* Past TB_CACHE_BYTES: the least recently used policies go, not pKeep. */
static void cache_trim(StmtCache *pCache, PolicyCache *pKeep) {
  while (pCache->nBytes > TB_CACHE_BYTES && pCache->pOldest &&
         pCache->pOldest != pKeep) {
    policy_drop(pCache, pCache->pOldest);
  }
}

/* The alias slot of the policy text z[0..n) (hash h, never 0). */
static PolicyAlias *alias_slot(const StmtCache *pCache, const char *z, int n,
                               sqlite3_uint64 h) {
  int m = pCache->nAliasSlot - 1, j = (int)(h & (sqlite3_uint64)m);
  const PolicyAlias *a = pCache->aAlias;
  while (a[j].h && (a[j].h != h || a[j].n != n ||
                    memcmp(a[j].z, z, (size_t)n) != 0)) {
    j = (j + 1) & m;
  }
  return &pCache->aAlias[j];
}

/* Remember that z[0..n) (hash h) parses to p. */
static int alias_add(StmtCache *pCache, const char *z, int n,
                     sqlite3_uint64 h, PolicyCache *p) {
  PolicyAlias *pSlot;
  if ((pCache->nAlias + 1) * 2 > pCache->nAliasSlot) {
    if (pCache->nAliasSlot >= 2 * TB_ALIAS_MAX) {
      alias_forget(pCache);
    } else {
      int nOld = pCache->nAliasSlot, nNew = nOld ? nOld * 2 : 16, i;
      PolicyAlias *aOld = pCache->aAlias;
      PolicyAlias *a = sqlite3_malloc64(sizeof(*a) * (sqlite3_uint64)nNew);
      if (a == 0) return SQLITE_NOMEM;
      memset(a, 0, sizeof(*a) * (size_t)nNew);
      pCache->aAlias = a;
      pCache->nAliasSlot = nNew;
      for (i = 0; i < nOld; i++) {
        if (aOld[i].h) *alias_slot(pCache, aOld[i].z, aOld[i].n, aOld[i].h) = aOld[i];
      }
      sqlite3_free(aOld);
    }
  }
  pSlot = alias_slot(pCache, z, n, h);
  if ((pSlot->z = sqlite3_malloc64((sqlite3_uint64)n + 1)) == 0) {
    return SQLITE_NOMEM;
  }
  memcpy(pSlot->z, z, (size_t)n);
  pSlot->z[n] = 0;
  pSlot->h = h;
  pSlot->n = n;
  pSlot->p = p;
  pCache->nAlias++;
  return SQLITE_OK;
}

/*
** The policy of the text z[0..n): by the text when seen before, else
** parsed, then the policy kept that computes the same if there is one
** ('MTG' and 'mtg' share their events), else a new one.
*/
static int cache_policy(StmtCache *pCache, const char *z, int n,
                        PolicyCache **ppPolicy, char **pzErr) {
  sqlite3_uint64 h = tb_hash_text(z, n) | 1, hKey;
  PolicyCache *p, *q;
  const void *pKey;
  int rc, nKey;
  if (pCache->nAliasSlot && (p = alias_slot(pCache, z, n, h)->p) != 0) {
    policy_touch(pCache, p);
    *ppPolicy = p;
    return SQLITE_OK;
  }
  if ((p = sqlite3_malloc64(sizeof(*p))) == 0) return SQLITE_NOMEM;
  memset(p, 0, sizeof(*p));
  if ((rc = tb_policy_parse(z, &p->policy, pzErr)) != SQLITE_OK) {
    sqlite3_free(p);
    return rc;
  }
  pKey = tb_policy_key(&p->policy, &nKey);
  hKey = tb_hash_text((const char *)pKey, nKey);
  if ((q = policy_by_key(pCache, &p->policy, hKey)) != 0) {
    sqlite3_free(p);
    p = q;
    policy_touch(pCache, p);
  } else {
    p->hKey = hKey;
    p->nBytes = sizeof(*p);
    if ((rc = policy_keep(pCache, p)) != SQLITE_OK) {
      sqlite3_free(p);
      return rc;
    }
  }
  *ppPolicy = p;
  return alias_add(pCache, z, n, h, p);
}

/* The cache of this statement, valid now. */
static int cache_get(sqlite3_context *ctx, StmtCache **ppCache, char **pzErr) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  StmtCache *pCache = sqlite3_get_auxdata(ctx, TB_CACHE_SLOT);
  PolicyCache *p;
  TbSig sig;
  int rc;

  if ((rc = sig_now(db, &sig, pzErr)) != SQLITE_OK) return rc;
  if (pCache == 0) {
    if ((pCache = sqlite3_malloc64(sizeof(*pCache))) == 0) return SQLITE_NOMEM;
    memset(pCache, 0, sizeof(*pCache));
    pCache->sig = sig;
    sqlite3_set_auxdata(ctx, TB_CACHE_SLOT, pCache, cache_free);
    /* SQLite may have freed it at once (out of memory) */
    if ((pCache = sqlite3_get_auxdata(ctx, TB_CACHE_SLOT)) == 0) {
      return SQLITE_NOMEM;
    }
  }
  if (pCache->sig.nChanges != sig.nChanges || pCache->sig.h != sig.h) {
    /* the events go, the policies parsed stay */
    for (p = pCache->pNewest; p; p = p->pOlder) {
      pCache->nBytes -= p->nBytes;
      policy_clear(p);
      pCache->nBytes += p->nBytes;
    }
    /* the tables may be others now: checked again at the next open */
    if (pCache->bReader) tb_reader_close(&pCache->reader);
    pCache->sig = sig;
  }
  if (!pCache->bReader) {
    tb_reader_init(&pCache->reader, db);
    pCache->bReader = 1;
  }
  *ppCache = pCache;
  return SQLITE_OK;
}

/* The computed event of argument pEvent, from the cache or computed now
** (then the least recently used policies may go: not p). */
static int cache_event(const TbFuncData *pData, StmtCache *pCache,
                       PolicyCache *p, sqlite3_value *pEvent,
                       CacheEvent **ppEv, char **pzErr) {
  TbReader *r = &pCache->reader;
  i64 nBefore = p->nBytes;
  TbKey k;
  int rc = SQLITE_OK;
  key_of_arg(pEvent, &k);
  if (k.eType == SQLITE_TEXT && k.z == 0) return SQLITE_NOMEM;
  if ((*ppEv = policy_find(p, &k)) != 0) return SQLITE_OK;
  if (p->bScanned && !p->bAll) {
    rc = compute_all(r, pData->pConn, p);
    if (rc == SQLITE_OK) *ppEv = policy_find(p, &k);
  }
  /* not in the table under this id's type (or not every event read) */
  if (rc == SQLITE_OK && *ppEv == 0) {
    rc = compute_one(r, pData->pConn, p, pEvent, &k, pzErr);
    if (rc == SQLITE_OK) *ppEv = policy_find(p, &k);
  }
  pCache->nBytes += p->nBytes - nBefore;
  cache_trim(pCache, p);
  return rc;
}

/* ------------------------------------------- before SQLite 3.39: per site */

/* One event computed under one policy: kept for the statement's duration,
** as aux data of a constant event argument. */
typedef struct SiteCache {
  char *zPolicy;
  TbEvent event;
  TbStandings standings;
} SiteCache;

static void site_free(void *p) {
  SiteCache *pSite = (SiteCache *)p;
  tb_standings_free(&pSite->standings);
  tb_event_free(&pSite->event);
  sqlite3_free(pSite->zPolicy);
  sqlite3_free(pSite);
}

/* Compute the event of argument pEvent under zPolicy. */
static int site_build(sqlite3_context *ctx, const TbFuncData *pData,
                      sqlite3_value *pEvent, const char *zPolicy,
                      SiteCache **ppSite, char **pzErr) {
  SiteCache *pSite = sqlite3_malloc64(sizeof(*pSite));
  TbSource src;
  TbPolicy policy;
  int rc;

  if (pSite == 0) return SQLITE_NOMEM;
  memset(pSite, 0, sizeof(*pSite));
  pSite->zPolicy = sqlite3_mprintf("%s", zPolicy);
  if (pSite->zPolicy == 0) {
    site_free(pSite);
    return SQLITE_NOMEM;
  }
  memset(&src, 0, sizeof(src));
  src.pEvent = pEvent;
  src.zMatches = "matches";
  rc = tb_policy_parse(zPolicy, &policy, pzErr);
  if (rc == SQLITE_OK) {
    rc = tb_compute(pData->pConn, sqlite3_context_db_handle(ctx), &src, &policy,
                    &pSite->event, &pSite->standings, pzErr);
  }
  if (rc != SQLITE_OK) {
    site_free(pSite);
    return rc;
  }
  *ppSite = pSite;
  return SQLITE_OK;
}

/* The value through a per-site cache; 0 or an error code with *pzErr. */
static int site_value(sqlite3_context *ctx, const TbFuncData *pData,
                      sqlite3_value **argv, const char *zPolicy, char **pzErr) {
  SiteCache *pSite = (SiteCache *)sqlite3_get_auxdata(ctx, 0);
  int bNew = 0, iPlayer, rc;
  double r;
  if (pSite == 0 || strcmp(pSite->zPolicy, zPolicy) != 0) {
    rc = site_build(ctx, pData, argv[0], zPolicy, &pSite, pzErr);
    if (rc != SQLITE_OK) return rc;
    bNew = 1;
  }
  iPlayer = tb_event_find(&pSite->event, argv[1]);
  if (iPlayer >= 0 &&
      tb_standings_value(&pSite->standings, iPlayer, pData->iTiebreaker, &r)) {
    sqlite3_result_double(ctx, r);
  }
  /* Last: SQLite may free it at once if it cannot keep it. */
  if (bNew) sqlite3_set_auxdata(ctx, 0, pSite, site_free);
  return SQLITE_OK;
}

/* ------------------------------------------------------------ the calls */

static void func_error(sqlite3_context *ctx, const TbFuncData *pData,
                       int rc, char *zErr) {
  if (rc == SQLITE_NOMEM || zErr == 0) {
    sqlite3_result_error_nomem(ctx);
  } else {
    /* An error from a nested call may already carry this prefix. */
    size_t n = strlen(pData->zName);
    int bPrefixed = strncmp(zErr, pData->zName, n) == 0 &&
                    strncmp(zErr + n, "(): ", 4) == 0;
    char *zMsg = bPrefixed ? sqlite3_mprintf("%s", zErr)
                           : sqlite3_mprintf("%s(): %s", pData->zName, zErr);
    if (zMsg) {
      sqlite3_result_error(ctx, zMsg, -1);
      /* keep SQLITE_BUSY, SQLITE_INTERRUPT ... from the inner query */
      if (rc != SQLITE_ERROR) sqlite3_result_error_code(ctx, rc);
    } else {
      sqlite3_result_error_nomem(ctx);
    }
    sqlite3_free(zMsg);
  }
  sqlite3_free(zErr);
}

/* The value through the statement's cache; 0 or an error with *pzErr. */
static int cached_value(sqlite3_context *ctx, const TbFuncData *pData,
                        sqlite3_value **argv, const char *zPolicy,
                        char **pzErr) {
  StmtCache *pCache;
  PolicyCache *p;
  CacheEvent *pEv;
  int iPlayer, rc;
  double r;
  rc = cache_get(ctx, &pCache, pzErr);
  if (rc == SQLITE_OK) {
    rc = cache_policy(pCache, zPolicy, (int)strlen(zPolicy), &p, pzErr);
  }
  if (rc == SQLITE_OK) rc = cache_event(pData, pCache, p, argv[0], &pEv, pzErr);
  if (rc != SQLITE_OK) return rc;
  if (pEv == 0) return SQLITE_NOMEM; /* kept, then lost: cannot be */
  if (pEv->zErr) {
    *pzErr = sqlite3_mprintf("%s", pEv->zErr);
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  iPlayer = tb_event_find(&pEv->event, argv[1]);
  if (iPlayer >= 0 &&
      tb_standings_value(&pEv->standings, iPlayer, pData->iTiebreaker, &r)) {
    sqlite3_result_double(ctx, r);
  }
  return SQLITE_OK;
}

/* mwp(event, player), gwp(...), omwp(event, player [, policy]), ogwp(...) */
static void table_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const TbFuncData *pData = (const TbFuncData *)sqlite3_user_data(ctx);
  const char *zPolicy = "mtg";
  char *zErr = 0;
  int eType = sqlite3_value_type(argv[0]);
  int rc;

  if (eType == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  if ((rc = tb_event_id_check(argv[0], &zErr)) != SQLITE_OK) {
    func_error(ctx, pData, rc, zErr);
    return;
  }
  if (argc > 2) {
    if (sqlite3_value_type(argv[2]) != SQLITE_TEXT) {
      func_error(ctx, pData, SQLITE_ERROR,
                 sqlite3_mprintf("policy must be text, e.g. 'mtg'"));
      return;
    }
    rc = tb_value_text(argv[2], "policy", &zPolicy, &zErr);
    if (rc != SQLITE_OK) {
      func_error(ctx, pData, rc, zErr);
      return;
    }
  }
  rc = sqlite3_libversion_number() >= 3039000
           ? cached_value(ctx, pData, argv, zPolicy, &zErr)
           : site_value(ctx, pData, argv, zPolicy, &zErr);
  if (rc != SQLITE_OK) func_error(ctx, pData, rc, zErr);
}

/* ------------------------------------------------------------ registering */

int tb_register_scalars(sqlite3 *db, TbConn *pConn) {
  static const struct {
    const char *zName;
    int nArg;
  } aFormula[] = {{"mwp", 3}, {"mwp", 4}, {"gwp", 3}, {"gwp", 4}};
  static const struct {
    const char *zName;
    int nArg;
  } aTable[] = {{"mwp", 2}, {"gwp", 2}, {"omwp", 2}, {"omwp", 3},
                {"ogwp", 2}, {"ogwp", 3}};
  const int flagsPure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = SQLITE_OK;
  size_t i;

  for (i = 0; rc == SQLITE_OK && i < sizeof(aFormula) / sizeof(aFormula[0]); i++) {
    rc = sqlite3_create_function(db, aFormula[i].zName, aFormula[i].nArg,
                                 flagsPure, (void *)aFormula[i].zName,
                                 formula_func, 0, 0);
  }
  /*
  ** Not DETERMINISTIC: the result depends on table contents.  Not INNOCUOUS:
  ** they read tables, so with trusted_schema=OFF a schema cannot make them
  ** run inside its views and triggers (see docs/troubleshooting.md).
  */
  for (i = 0; rc == SQLITE_OK && i < sizeof(aTable) / sizeof(aTable[0]); i++) {
    const TbTiebreaker *t = tb_tiebreaker_find(aTable[i].zName,
                                               (int)strlen(aTable[i].zName));
    TbFuncData *pData = sqlite3_malloc64(sizeof(*pData));
    if (pData == 0) return SQLITE_NOMEM;
    pData->pConn = pConn;
    pData->zName = aTable[i].zName;
    pData->iTiebreaker = (int)(t - tb_aTiebreaker);
    rc = sqlite3_create_function_v2(db, aTable[i].zName, aTable[i].nArg,
                                    SQLITE_UTF8, pData, table_func, 0, 0,
                                    sqlite3_free);
  }
  return rc;
}
