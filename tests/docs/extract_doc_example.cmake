# Extracts the usage example from a public header's opening comment, for
# tests/docs/doc_examples_test.cpp to compile: the example is the block of
# comment lines indented by three or more spaces ("//   code") that ends just
# before the blank comment line preceding the marker
#   // (Compiled and run by tests/docs/doc_examples_test.cpp ...
# Run as cmake -DHEADER=<abs path> -DRELATIVE=<path shown in errors>
#   -DOUTPUT=<.inc> -P extract_doc_example.cmake. The output starts with a
# #line directive, so a compile error in the example names the header's line.
cmake_minimum_required(VERSION 3.25)
# C++ lines hold semicolons, CMake's list separator: read the file whole and
# stand a placeholder in for them while working line by line.
file(READ ${HEADER} text)
string(REPLACE ";" "<semicolon>" text "${text}")
string(REPLACE "\n" ";" lines "${text}")
set(marker "(Compiled and run by tests/docs/doc_examples_test.cpp")
set(index 0)
set(marker_at -1)
foreach(line IN LISTS lines)
  string(FIND "${line}" "${marker}" found)
  if(found GREATER_EQUAL 0)
    set(marker_at ${index})
    break()
  endif()
  math(EXPR index "${index} + 1")
endforeach()
if(marker_at LESS 2)
  message(FATAL_ERROR "${RELATIVE}: no '// ${marker}' line after an example block")
endif()
# Walk back over the blank comment line, then over the example's lines.
math(EXPR last "${marker_at} - 2")
list(GET lines ${last} probe)
if(NOT probe MATCHES "^//   ")
  message(FATAL_ERROR "${RELATIVE}:${marker_at}: the marker must follow '//' and an example "
                      "block indented '//   '")
endif()
set(first ${last})
while(first GREATER 0)
  math(EXPR previous "${first} - 1")
  list(GET lines ${previous} probe)
  if(NOT probe MATCHES "^//   ")
    break()
  endif()
  set(first ${previous})
endwhile()
math(EXPR header_line "${first} + 1")
set(body "#line ${header_line} \"${RELATIVE}\"\n")
foreach(i RANGE ${first} ${last})
  list(GET lines ${i} line)
  string(REGEX REPLACE "^//   " "" line "${line}")
  string(REPLACE "<semicolon>" ";" line "${line}")
  string(APPEND body "${line}\n")
endforeach()
# Rewritten only when the example changed, so the test recompiles only then.
file(WRITE ${OUTPUT}.new "${body}")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
