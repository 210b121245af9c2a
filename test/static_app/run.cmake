# cmake -DKIND=install -DPREFIX=<dir> -DWORK=<tiebreak build dir> -P run.cmake
#   installs the build into PREFIX, a fresh directory.
# cmake -DKIND=find_package|pkg_config -DPREFIX=<installed tree>
#       -DWORK=<scratch dir> [-DC_COMPILER=cc] -P run.cmake
#   configures, builds and runs the application in test/static_app/<KIND>
#   against the tree installed in PREFIX, as a separate project would.
foreach(var KIND PREFIX WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake: -D${var}=... is required")
  endif()
endforeach()

if(KIND STREQUAL "install")
  file(REMOVE_RECURSE ${PREFIX})
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${WORK} --prefix ${PREFIX}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${rc})")
  endif()
  return()
endif()

set(src ${CMAKE_CURRENT_LIST_DIR}/${KIND})
set(args -S ${src} -B ${WORK} -DCMAKE_BUILD_TYPE=Release)
if(C_COMPILER)
  list(APPEND args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()

if(KIND STREQUAL "find_package")
  list(APPEND args -DCMAKE_PREFIX_PATH=${PREFIX})
elseif(KIND STREQUAL "pkg_config")
  find_program(PKG_CONFIG NAMES pkg-config pkgconf)
  if(NOT PKG_CONFIG)
    # Matched by the test's SKIP_REGULAR_EXPRESSION.
    message("tiebreak-test-skipped: no pkg-config")
    return()
  endif()
  # Searched before the system directories, which still provide sqlite3.pc.
  file(GLOB pcdirs ${PREFIX}/lib*/pkgconfig ${PREFIX}/lib/*/pkgconfig)
  string(REPLACE ";" ":" pcpath "${pcdirs}")
  set(ENV{PKG_CONFIG_PATH} "${pcpath}")
else()
  message(FATAL_ERROR "run.cmake: unknown KIND ${KIND}")
endif()

file(REMOVE_RECURSE ${WORK})
foreach(step configure build run)
  if(step STREQUAL "configure")
    set(cmd ${CMAKE_COMMAND} ${args})
  elseif(step STREQUAL "build")
    set(cmd ${CMAKE_COMMAND} --build ${WORK})
  else()
    set(cmd ${CMAKE_CTEST_COMMAND} --test-dir ${WORK} -V)
  endif()
  message("-- ${step}: ${cmd}")
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${KIND}: ${step} failed (${rc})")
  endif()
endforeach()
