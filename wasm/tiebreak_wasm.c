/*
** tiebreak_wasm.c: the C side of the WebAssembly build (wasm/build.py).
**
** SQLite and tiebreak are compiled into one module; wasm/api.js calls the
** sqlite3_* functions directly and these two for what takes more than one
** call: opening a connection (with tiebreak registered, from the bytes of a
** database file or empty) and copying a database out.
*/
#include <string.h>

#include "sqlite3.h"
#include "tiebreak.h"

/*
** Open an in-memory connection with tiebreak registered.  pData/nData: the
** bytes of a database file, copied into SQLite's own memory (it may grow the
** database); NULL: an empty database.  *ppDb is set even on error, for
** sqlite3_errmsg(); the caller closes it.
*/
int tb_wasm_open(const unsigned char *pData, int nData, sqlite3 **ppDb){
  unsigned char *pCopy;
  int rc = sqlite3_open_v2(":memory:", ppDb,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 0);
  if( rc==SQLITE_OK ){
    rc = sqlite3_tiebreak_init(*ppDb, 0, 0);
  }
  if( rc!=SQLITE_OK || pData==0 ) return rc;
  pCopy = sqlite3_malloc(nData>0 ? nData : 1);
  if( pCopy==0 ) return SQLITE_NOMEM;
  memcpy(pCopy, pData, nData);
  /* SQLite frees pCopy if this fails, and when the connection closes. */
  rc = sqlite3_deserialize(*ppDb, "main", pCopy, nData, nData,
                           SQLITE_DESERIALIZE_FREEONCLOSE
                           | SQLITE_DESERIALIZE_RESIZEABLE);
  if( rc==SQLITE_OK ){
    /* Bytes that are not a database fail here, not at the first query. */
    rc = sqlite3_exec(*ppDb, "SELECT count(*) FROM sqlite_schema", 0, 0, 0);
  }
  return rc;
}

/*
** The main database as the bytes of a database file, in memory from
** sqlite3_malloc (the caller frees it with sqlite3_free); its size in *pn.
** NULL when out of memory.
*/
unsigned char *tb_wasm_serialize(sqlite3 *db, int *pn){
  sqlite3_int64 n = 0;
  unsigned char *p = sqlite3_serialize(db, "main", &n, 0);
  *pn = (int)n;
  return p;
}
