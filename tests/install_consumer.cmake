# Installs the build tree into a scratch prefix, then builds examples/gemm_example.c against it
# twice: with CMake's find_package(tilegemm) and with pkg-config. Runs each: exit 0 (a GPU) or
# 2 (no GPU) are both correct outcomes.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

function(run_example exe)
  execute_process(COMMAND ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT (rc EQUAL 0 OR rc EQUAL 2))
    message(FATAL_ERROR "${exe} exited ${rc}\n${out}\n${err}")
  endif()
  message(STATUS "${exe}: exit ${rc} ${out}${err}")
endfunction()

run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# CMake package.
run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/cmake-build
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/cmake-build)
run_example(${WORK_DIR}/cmake-build/gemm_example)

# pkg-config.
find_program(PKG_CONFIG pkg-config REQUIRED)
find_program(CC NAMES cc gcc REQUIRED)
foreach(lib lib lib64)
  if(EXISTS ${prefix}/${lib}/pkgconfig/tilegemm.pc)
    set(ENV{PKG_CONFIG_PATH} ${prefix}/${lib}/pkgconfig)
    set(libdir ${prefix}/${lib})
  endif()
endforeach()
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs tilegemm OUTPUT_VARIABLE flags
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not know tilegemm")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run_step(${CC} ${SOURCE_DIR}/examples/gemm_example.c ${flags} -Wl,-rpath,${libdir}
         -o ${WORK_DIR}/gemm_example_pc)
run_example(${WORK_DIR}/gemm_example_pc)
