# check_generated.cmake — a generated source is what its generator writes today.
#   cmake -DPYTHON=python3 -DSCRIPT=gen.py [-DARGS=--flag] -DFILE=generated.h -DOUT=scratch \
#         -P check_generated.cmake
execute_process(COMMAND ${PYTHON} ${SCRIPT} ${ARGS} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${FILE} RESULT_VARIABLE differs)
if(differs)
  message(FATAL_ERROR "${FILE} differs from what ${SCRIPT} writes: regenerate it with\n"
                      "  python3 ${SCRIPT} ${ARGS} > ${FILE}")
endif()
message(STATUS "${FILE} matches ${SCRIPT}")
