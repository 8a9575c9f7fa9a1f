# The clang-tidy check: every product .cpp passes the checks of the repository's
# .clang-tidy under `clang-tidy-16` (the Debian package scripts/setup installs),
# compiled as the build compiles it (EQFUSE_BUILD_DIR/compile_commands.json).
# Run as `cmake -DEQFUSE_SOURCE_DIR=<repo> -DEQFUSE_BUILD_DIR=<build> -P check_tidy.cmake`
# (.ci/run does, after the tests). Prints each finding (file:line: warning [check]),
# then fails; without clang-tidy-16 it prints a skip message and exits with 77.
cmake_minimum_required(VERSION 3.25)
find_program(RUN_CLANG_TIDY NAMES run-clang-tidy-16 run-clang-tidy PATHS /usr/lib/llvm-16/bin
             NO_DEFAULT_PATH)
find_program(CLANG_TIDY NAMES clang-tidy-16)
find_program(PYTHON3 NAMES python3)
if(NOT RUN_CLANG_TIDY OR NOT CLANG_TIDY OR NOT PYTHON3)
  message("tidy check skipped: clang-tidy-16 not found (apt-get install clang-tidy-16)")
  cmake_language(EXIT 77)
endif()
if(NOT EXISTS ${EQFUSE_BUILD_DIR}/compile_commands.json)
  message(FATAL_ERROR "${EQFUSE_BUILD_DIR}/compile_commands.json is missing (configure first)")
endif()
# The product: the layers and the CLI (not the tests, benchmarks or Python module).
set(folders base graph interp egraph extract cost bridge rewrites passes pipeline cli)
set(files)
foreach(folder ${folders})
  file(GLOB_RECURSE found ${EQFUSE_SOURCE_DIR}/${folder}/*.cpp)
  list(APPEND files ${found})
endforeach()
list(SORT files)
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
execute_process(
  COMMAND ${PYTHON3} ${RUN_CLANG_TIDY} -clang-tidy-binary ${CLANG_TIDY} -p ${EQFUSE_BUILD_DIR}
          -j ${cores} -quiet ${files}
  WORKING_DIRECTORY ${EQFUSE_SOURCE_DIR}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
string(REGEX MATCHALL "[^\n]*(warning|error): [^\n]*" findings "${out}\n${err}")
list(REMOVE_DUPLICATES findings)
list(LENGTH files count)
list(LENGTH findings found)
if(NOT rc EQUAL 0 OR found GREATER 0)
  foreach(f ${findings})
    message("${f}")
  endforeach()
  message(FATAL_ERROR "clang-tidy: ${found} finding(s) in ${count} files (.clang-tidy)")
endif()
message(STATUS "clang-tidy holds: ${count} files")
