# Cross build for Linux aarch64 (Debian: apt-get install gcc-aarch64-linux-gnu;
# run the results with qemu-user: qemu-aarch64 -L /usr/aarch64-linux-gnu):
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DSQLITE3EXT_INCLUDE_DIR=<folder with sqlite3ext.h> -DTIEBREAK_TESTS=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(TIEBREAK_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${TIEBREAK_TRIPLE}-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/${TIEBREAK_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
