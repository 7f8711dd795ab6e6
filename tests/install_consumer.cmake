# Installs the build tree into a scratch prefix, then builds examples/gemm_example.c against it
# four ways: CMake's find_package(tilegemm) with the shared and with the static library, and
# pkg-config with the shared library (found at run time through an rpath) and with the static
# one (`pkg-config --static`, the archive named in place of -ltilegemm). Runs each: exit 0 (a
# GPU) or 2 (no GPU) are both correct outcomes. The static builds must not need libtilegemm.so.
cmake_policy(VERSION 3.25)
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

# A statically linked example must not load libtilegemm.so.
function(check_static exe)
  find_program(READELF readelf)
  if(READELF)
    execute_process(COMMAND ${READELF} -d ${exe} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR dyn MATCHES "libtilegemm")
      message(FATAL_ERROR "${exe} is not linked statically against tilegemm:\n${dyn}")
    endif()
  endif()
endfunction()

run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# CMake package: shared, then static.
foreach(link_static OFF ON)
  run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/cmake-static-${link_static}
           -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
           -DTILEGEMM_EXAMPLE_STATIC=${link_static})
  run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/cmake-static-${link_static})
  run_example(${WORK_DIR}/cmake-static-${link_static}/gemm_example)
endforeach()
check_static(${WORK_DIR}/cmake-static-ON/gemm_example)

# pkg-config.
find_program(PKG_CONFIG pkg-config REQUIRED)
find_program(CC NAMES cc gcc REQUIRED)
foreach(lib lib lib64)
  if(EXISTS ${prefix}/${lib}/pkgconfig/tilegemm.pc)
    set(ENV{PKG_CONFIG_PATH} ${prefix}/${lib}/pkgconfig)
    set(libdir ${prefix}/${lib})
  endif()
endforeach()
function(pkg_flags var)
  execute_process(COMMAND ${PKG_CONFIG} ${ARGN} tilegemm OUTPUT_VARIABLE flags
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} tilegemm failed")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${var} ${flags} PARENT_SCOPE)
endfunction()

# Shared: the program finds libtilegemm.so at run time through the rpath it was linked with.
pkg_flags(flags --cflags --libs)
run_step(${CC} ${SOURCE_DIR}/examples/gemm_example.c ${flags} -Wl,-rpath,${libdir}
         -o ${WORK_DIR}/gemm_example_pc)
run_example(${WORK_DIR}/gemm_example_pc)

# Static: --static adds Libs.private (the C++ runtime, libm); the archive replaces -ltilegemm.
pkg_flags(flags --cflags --libs --static)
list(TRANSFORM flags REPLACE "^-ltilegemm$" "-l:libtilegemm.a")
run_step(${CC} ${SOURCE_DIR}/examples/gemm_example.c ${flags} -o ${WORK_DIR}/gemm_example_pc_static)
check_static(${WORK_DIR}/gemm_example_pc_static)
run_example(${WORK_DIR}/gemm_example_pc_static)
