# Cross build for Windows x86-64 with MinGW-w64 (Debian: apt-get install
# gcc-mingw-w64-x86-64):
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DSQLITE3EXT_INCLUDE_DIR=<folder with sqlite3ext.h> -DTIEBREAK_TESTS=OFF
# CMakeLists.txt links the DLL with -static-libgcc, so it needs no
# libgcc_s_seh-1.dll beside it.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(TIEBREAK_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${TIEBREAK_TRIPLE}-gcc)
set(CMAKE_RC_COMPILER ${TIEBREAK_TRIPLE}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${TIEBREAK_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
