# The format check: every C++ source of the product, the benchmarks, the Python
# module and the tests is as `clang-format-16` (the Debian package scripts/setup
# installs) prints it under the repository's .clang-format. Run as
# `cmake -DEQFUSE_SOURCE_DIR=<repo> -P check_format.cmake`; CTest runs it as the
# `format` test. Lists every file that differs (fix with `clang-format-16 -i FILE`),
# then fails; without clang-format-16 it prints a skip message and exits with 77.
cmake_minimum_required(VERSION 3.25)
find_program(CLANG_FORMAT NAMES clang-format-16)
if(NOT CLANG_FORMAT)
  message("format check skipped: clang-format-16 not found (apt-get install clang-format-16)")
  cmake_language(EXIT 77)
endif()
set(folders base graph interp egraph extract cost bridge rewrites passes pipeline cli bench
            python/src tests examples)
set(files)
foreach(folder ${folders})
  file(GLOB_RECURSE found ${EQFUSE_SOURCE_DIR}/${folder}/*.cpp ${EQFUSE_SOURCE_DIR}/${folder}/*.hpp)
  list(APPEND files ${found})
endforeach()
# The layering test's fixture is a deliberately wrong tree, not code.
list(FILTER files EXCLUDE REGEX "/tests/layering/violating_tree/")
list(SORT files)
set(bad 0)
foreach(f ${files})
  execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror --style=file ${f}
                  WORKING_DIRECTORY ${EQFUSE_SOURCE_DIR} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    file(RELATIVE_PATH rel ${EQFUSE_SOURCE_DIR} ${f})
    message(SEND_ERROR "${rel}: not clang-format-16 clean (clang-format-16 -i ${rel})")
    math(EXPR bad "${bad} + 1")
  endif()
endforeach()
list(LENGTH files count)
if(bad GREATER 0)
  message(FATAL_ERROR "${bad} of ${count} files are not formatted")
endif()
message(STATUS "format holds: ${count} files")
