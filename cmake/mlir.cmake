# mlir.cmake: the MLIR backend module (compiler/mlir/plugin, see
# compiler/mlir/plugin.h), built whenever Debian's MLIR 22 is installed
# (libmlir-22-dev, mlir-22-tools, llvm-22-dev: MLIRConfig.cmake needs
# LLVMConfig.cmake) unless -DMT_MLIR=OFF. Without it everything else builds
# the same and the backend reports itself unavailable (E1001).
#
# The module links MLIR's C API (the static libMLIRCAPI*.a) against the
# shared libMLIR.so and libLLVM.so, with those folders as its RUNPATH. It
# is a MODULE the compiler library opens with dlopen on first use, so no
# executable links MLIR: tools start as fast as before, and a build folder
# carried to a machine without MLIR runs everything but this backend.
# Sets MT_MLIR_ENABLED and, when on, the target mytriton_mlir.
set(MT_MLIR_ENABLED OFF)
if(NOT MT_MLIR OR MT_FUZZ)
  message(STATUS "MLIR backend: off (-DMT_MLIR=OFF, or the fuzzing build)")
  return()
endif()
find_package(MLIR CONFIG QUIET HINTS /usr/lib/llvm-22/lib/cmake/mlir)
if(NOT MLIR_FOUND)
  message(STATUS "MLIR backend: off (MLIR 22 not found: apt-get install libmlir-22-dev mlir-22-tools llvm-22-dev)")
  return()
endif()
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(STATUS "MLIR backend: off (found MLIR ${LLVM_PACKAGE_VERSION} at ${MLIR_DIR}; the backend is written for 22)")
  return()
endif()
set(MT_MLIR_ENABLED ON)
message(STATUS "MLIR backend: on (MLIR ${LLVM_PACKAGE_VERSION}, ${MLIR_DIR})")

# ptxas checks the PTX the backend makes (tests/mlir)
find_program(MT_PTXAS ptxas HINTS ${CUDAToolkit_BIN_DIR} /usr/local/cuda/bin)
find_program(MT_MLIR_OPT mlir-opt HINTS ${LLVM_TOOLS_BINARY_DIR} /usr/lib/llvm-22/bin)

file(GLOB MT_MLIR_PLUGIN_SRCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/compiler/mlir/plugin/*.c)
# types/dtype.c: the dtype table as data (the module shares no code at run time with the host)
add_library(mytriton_mlir MODULE ${MT_MLIR_PLUGIN_SRCS} ${CMAKE_SOURCE_DIR}/compiler/types/dtype.c)
set_target_properties(mytriton_mlir PROPERTIES
  OUTPUT_NAME mytriton-mlir
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib/mytriton
  C_VISIBILITY_PRESET hidden
  BUILD_RPATH "${LLVM_LIBRARY_DIR}"
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
target_include_directories(mytriton_mlir PRIVATE ${CMAKE_SOURCE_DIR}/compiler ${CMAKE_SOURCE_DIR}/compiler/include)
target_include_directories(mytriton_mlir SYSTEM PRIVATE ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
target_compile_definitions(mytriton_mlir PRIVATE MT_MLIR_VERSION=${LLVM_PACKAGE_VERSION})
if(CUDAToolkit_FOUND)
  get_filename_component(mt_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  target_compile_definitions(mytriton_mlir PRIVATE MT_CUDA_TOOLKIT_DIR="${mt_cuda_root}")
endif()
set(mt_capi)
foreach(lib MLIRCAPIIR MLIRCAPIRegisterEverything MLIRCAPIGPU MLIRCAPILLVM MLIRCAPIConversion MLIRCAPITransforms)
  list(APPEND mt_capi $<TARGET_FILE:${lib}>)
endforeach()
target_link_libraries(mytriton_mlir PRIVATE -Wl,--exclude-libs,ALL -Wl,--start-group ${mt_capi} -Wl,--end-group
                      $<TARGET_FILE:MLIR> $<TARGET_FILE:LLVM> stdc++ Threads::Threads m)
install(TARGETS mytriton_mlir LIBRARY DESTINATION lib/mytriton)
