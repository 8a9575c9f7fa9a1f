# eqfuse_embed(<out-var> <symbol> files...)
# Generates a .cpp defining `std::span<const eqfuse::EmbeddedFile> <symbol>()`
# with the bytes of each file, so data files (op schemas, rules, device
# profiles) stay the single source of truth and still ship inside the binary.
function(eqfuse_embed out_var symbol)
  set(_out ${PROJECT_BINARY_DIR}/embedded/${symbol}.cpp)
  set(_script ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake)
  add_custom_command(
    OUTPUT ${_out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${_out} -DSYMBOL=${symbol} -DROOT=${PROJECT_SOURCE_DIR}
            "-DFILES=${ARGN}" -P ${_script}
    DEPENDS ${ARGN} ${_script}
    COMMENT "Embedding ${symbol}"
    VERBATIM)
  set(${out_var} ${_out} PARENT_SCOPE)
endfunction()
