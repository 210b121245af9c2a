/*
** Registers tiebreak in every connection of the release's sqlite3-tiebreak
** shell, for hosts whose sqlite3 cannot .load: shell.c compiled with
** -DSQLITE_SHELL_INIT_PROC=tiebreak_shell_init calls this instead of
** sqlite3_initialize(), and libtiebreak.a (built with SQLITE_CORE) is linked.
*/
#include "sqlite3.h"
#include "tiebreak.h"

void tiebreak_shell_init(void){
  sqlite3_initialize();
  sqlite3_auto_extension((void (*)(void))sqlite3_tiebreak_init);
}
