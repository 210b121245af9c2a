/*
** compute.c: one event's standings from the user's tables.
**
** The pipeline every SQL function shares: read the event (reader.c), score
** the players' records under the policy (event.c), rank them (rank.c).
*/
#include "tiebreak_int.h"

int tb_compute(TbConn *pConn, sqlite3 *db, const TbSource *pSrc,
               const TbPolicy *pPolicy, TbEvent *pEvent,
               TbStandings *pStandings, char **pzErr) {
  int rc;
  /*
  ** A view or trigger read by the inner query could call back into the
  ** extension; without this guard that recursion never ends.
  */
  if (pConn->nDepth > 0) {
    *pzErr = sqlite3_mprintf("recursive call: the tables it reads must not "
                             "themselves use the tiebreak functions");
    return *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  pConn->nDepth++;
  rc = tb_read_event(db, pSrc, tb_policy_needs(pPolicy) & TB_NEEDS_RATINGS,
                     pEvent, pzErr);
  pConn->nDepth--;
  if (rc == SQLITE_OK) rc = tb_event_score(pEvent, &pPolicy->params, pzErr);
  if (rc == SQLITE_OK) rc = tb_rank(pEvent, pPolicy, pStandings, pzErr);
  return rc;
}
