/*
** tiebreak.h: the public interface of the tiebreak SQLite extension.
**
** Loadable:  SELECT load_extension('./tiebreak');   (or .load in the shell)
** Static:    link libtiebreak.a (built with SQLITE_CORE), then
**            sqlite3_auto_extension((void (*)(void))sqlite3_tiebreak_init);
*/
#ifndef TIEBREAK_H
#define TIEBREAK_H

#include "sqlite3.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(_WIN32)
#define TIEBREAK_API __attribute__((visibility("default")))
#else
#define TIEBREAK_API
#endif

/* Registers standings(), mwp(), gwp(), omwp(), ogwp(), tiebreak_version()
** and tiebreak_debug() on db.  Loaded as an extension, pApi is SQLite's. */
TIEBREAK_API int sqlite3_tiebreak_init(sqlite3 *db, char **pzErrMsg,
                                       const struct sqlite3_api_routines *pApi);

#ifdef __cplusplus
}
#endif

#endif /* TIEBREAK_H */
