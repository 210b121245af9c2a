# Fails unless MODULE exports exactly sqlite3_tiebreak_init and imports no
# sqlite3_* symbol (a stray #include <sqlite3.h> would import some).
execute_process(COMMAND nm -D --defined-only ${MODULE} OUTPUT_VARIABLE defined)
execute_process(COMMAND nm -D --undefined-only ${MODULE} OUTPUT_VARIABLE undefined)
string(REGEX MATCHALL " [TDB] [^\n]+" exported "${defined}")
if(NOT exported STREQUAL " T sqlite3_tiebreak_init")
  message(FATAL_ERROR "unexpected exports: ${exported}")
endif()
if(undefined MATCHES "sqlite3_")
  message(FATAL_ERROR "imports SQLite symbols:\n${undefined}")
endif()
message(STATUS "exports: ${exported}")
