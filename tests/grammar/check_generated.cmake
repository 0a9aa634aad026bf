# Regenerates the parser from grammar.js in a scratch copy and compares it with the committed
# grammar/src/parser.c. Fails (with the fix in the message) when they differ.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(COPY "${GRAMMAR_DIR}/grammar.js" "${GRAMMAR_DIR}/package.json" DESTINATION "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/src")
file(COPY "${GRAMMAR_DIR}/src/scanner.c" DESTINATION "${WORK_DIR}/src")
execute_process(COMMAND "${CLI}" generate --no-bindings
                WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tree-sitter generate failed (${rc}):\n${out}\n${err}")
endif()
foreach(generated parser.c grammar.json node-types.json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
                          "${WORK_DIR}/src/${generated}" "${GRAMMAR_DIR}/src/${generated}"
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    message(FATAL_ERROR "grammar/src/${generated} is not what grammar.js generates: run "
                        "`../../shared/tools/tree-sitter generate --no-bindings` in grammar/ and commit src/.")
  endif()
endforeach()
message(STATUS "generated parser is current")
