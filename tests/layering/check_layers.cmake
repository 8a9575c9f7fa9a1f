# The layering check: every `#include "<folder>/..."` in a library folder (its
# subfolders included: pipeline/explain/ is part of pipeline) must name a
# folder that the folder's library links (directly or below it); a two-level
# include (`pipeline/explain/report.hpp`) counts as its top folder.
# Run as `cmake -DEQFUSE_SOURCE_DIR=<repo> -P check_layers.cmake`; CTest runs
# it as the `layering` test. Lists every violation, then fails.
cmake_minimum_required(VERSION 3.25)
set(allowed_base     base)
set(allowed_graph    base graph)
# The reference interpreter: runs graphs, never optimizes them.
set(allowed_interp   base graph interp)
set(allowed_egraph   base egraph)
set(allowed_extract  base extract)
set(allowed_cost     base graph cost)
set(allowed_bridge   base graph egraph bridge)
set(allowed_rewrites base graph interp egraph bridge rewrites)
# FX graph passes: plain graph to graph, no e-graph.
set(allowed_passes   base graph passes)
set(allowed_pipeline base graph interp egraph extract cost bridge rewrites passes pipeline)
# The product binary: every library, never bench/ (benchmarks are not shipped).
set(allowed_cli      base graph interp egraph extract cost bridge rewrites passes pipeline cli)
set(layers base graph interp egraph extract cost bridge rewrites passes pipeline cli)

set(violations 0)
foreach(layer ${layers})
  file(GLOB_RECURSE sources ${EQFUSE_SOURCE_DIR}/${layer}/*.cpp ${EQFUSE_SOURCE_DIR}/${layer}/*.hpp)
  foreach(src ${sources})
    file(STRINGS ${src} includes REGEX "^#include \"[a-z_]+/")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" folder "${line}")
      if(NOT folder IN_LIST allowed_${layer})
        file(RELATIVE_PATH rel ${EQFUSE_SOURCE_DIR} ${src})
        message(SEND_ERROR "${rel}: ${line}: layer '${layer}' may include only ${allowed_${layer}}")
        math(EXPR violations "${violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
# Inside graph/: the IR (files directly in graph/) includes neither shape inference
# (graph/meta/) nor I/O (graph/io/); shape inference does not include I/O.
set(graph_sublayers "graph:meta|io" "graph/meta:io")
foreach(rule ${graph_sublayers})
  string(REPLACE ":" ";" parts "${rule}")
  list(GET parts 0 dir)
  list(GET parts 1 above)
  file(GLOB sources ${EQFUSE_SOURCE_DIR}/${dir}/*.cpp ${EQFUSE_SOURCE_DIR}/${dir}/*.hpp)
  foreach(src ${sources})
    file(STRINGS ${src} includes REGEX "^#include \"graph/(${above})/")
    foreach(line ${includes})
      file(RELATIVE_PATH rel ${EQFUSE_SOURCE_DIR} ${src})
      message(SEND_ERROR "${rel}: ${line}: ${dir}/ sits below graph/(${above})/")
      math(EXPR violations "${violations} + 1")
    endforeach()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "${violations} include(s) cross the layering (see CMakeLists.txt)")
endif()
message(STATUS "layering holds: ${layers}")
