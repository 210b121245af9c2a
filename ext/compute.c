/*
** compute.c: standings from the user's tables.
**
** The pipeline every SQL function shares: read the event (reader.c), score
** the players' records under the policy (event.c), rank them (rank.c).
*/
#include "tiebreak_int.h"

/*
** Enter the user's tables.  A view or trigger read by the inner queries
** could call back into the extension; the depth guard turns that endless
** recursion into an error.  Every tb_enter() that succeeds has a tb_leave().
*/
int tb_enter(TbConn *pConn, char **pzErr) {
  if (pConn->nDepth > 0) {
    *pzErr = sqlite3_mprintf("recursive call: the tables it reads must not "
                             "themselves use the tiebreak functions");
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  pConn->nDepth++;
  return SQLITE_OK;
}

void tb_leave(TbConn *pConn) {
  pConn->nDepth--;
}

/* One event through an open reader. */
int tb_compute_event(TbConn *pConn, TbReader *pReader, sqlite3_value *pEventId,
                     const TbPolicy *pPolicy, TbEvent *pEvent,
                     TbStandings *pStandings, char **pzErr) {
  int rc = tb_enter(pConn, pzErr);
  if (rc != SQLITE_OK) return rc;
  rc = tb_reader_event(pReader, pEventId, pEvent, pzErr);
  tb_leave(pConn);
  if (rc == SQLITE_OK) rc = tb_event_score(pEvent, &pPolicy->params, pzErr);
  if (rc == SQLITE_OK) {
    pEvent->pTerms = tb_terms_new(); /* NULL: terms computed as needed */
    rc = tb_rank(pEvent, pPolicy, pStandings, pzErr);
    tb_terms_free(pEvent->pTerms);
    pEvent->pTerms = 0;
  }
  return rc;
}

/* One event, pSrc->pEvent, with a reader of its own. */
int tb_compute(TbConn *pConn, sqlite3 *db, const TbSource *pSrc,
               const TbPolicy *pPolicy, TbEvent *pEvent,
               TbStandings *pStandings, char **pzErr) {
  TbReader reader;
  int rc = tb_enter(pConn, pzErr);
  if (rc != SQLITE_OK) return rc;
  tb_reader_init(&reader, db);
  rc = tb_reader_open(&reader, pSrc,
                      tb_policy_needs(pPolicy) & TB_NEEDS_RATINGS, pzErr);
  tb_leave(pConn);
  if (rc == SQLITE_OK) {
    rc = tb_compute_event(pConn, &reader, pSrc->pEvent, pPolicy, pEvent,
                          pStandings, pzErr);
  }
  tb_reader_close(&reader);
  return rc;
}
