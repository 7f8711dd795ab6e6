# Installation: the header, the static and shared libraries, the `tilegemm` command, a CMake
# package (find_package(tilegemm) → tilegemm::tilegemm) and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS tilegemm_static tilegemm_shared EXPORT tilegemmTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES include/tilegemm.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(TG_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilegemm)
install(EXPORT tilegemmTargets NAMESPACE tilegemm:: DESTINATION ${TG_CMAKE_DIR})
configure_package_config_file(cmake/tilegemmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tilegemmConfig.cmake INSTALL_DESTINATION ${TG_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tilegemmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tilegemmConfig.cmake
              ${PROJECT_BINARY_DIR}/tilegemmConfigVersion.cmake
        DESTINATION ${TG_CMAKE_DIR})

# pkg-config: CUDA's include and library directories are recorded because programs that use
# tilegemm allocate device memory with the CUDA runtime.
list(GET CUDAToolkit_INCLUDE_DIRS 0 TG_PC_CUDA_INCLUDE)
# Libs.private (pkg-config --static): what the static library needs beyond -lcudart.
list(TRANSFORM TG_STATIC_LIBS PREPEND "-l" OUTPUT_VARIABLE TG_PC_LIBS_PRIVATE)
list(JOIN TG_PC_LIBS_PRIVATE " " TG_PC_LIBS_PRIVATE)
configure_file(cmake/tilegemm.pc.in ${PROJECT_BINARY_DIR}/tilegemm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tilegemm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
