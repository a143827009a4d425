# mcConfig.cmake — the CMake package of mc, installed by `make install` into
# PREFIX/lib/cmake/mc; `find_package(mc)` reads it (CMAKE_PREFIX_PATH=PREFIX or mc_DIR).
#
# Gives:
#   mc::mc          imported executable, the compiler (MC_EXECUTABLE overrides its path)
#   mc::mcrt        the runtime: a static library built from PREFIX/share/mc/runtime-dist with
#                   the project's own toolchain (so cross toolchain files work), -lm and threads;
#                   MC_PREBUILT_RUNTIME=ON uses the installed host build lib/libmcrt.a instead
#   MC_EXPORT_PYTHONPATH   folder holding mc_export.py (put it on PYTHONPATH)
#   mc_add_model(TARGET MODEL file [NAME n] [TARGET_KIND c|cuda] [OPTIONS opt...])
#       a codegen step `mc compile file -o <bin>/mc_TARGET/n.c --name n -MD -MF n.d` whose
#       depfile names every file mc read (the model, its weights), and a static library TARGET
#       built from the generated source, linking mc::mcrt, with n.h on its public include path.
#       NAME defaults to TARGET made a C identifier; OPTIONS are passed to mc compile.
#
# Invariants: every path is derived from this file's location, so an installed tree can be
# moved; the generated files live only in the build tree; large weights go to n.weights beside
# n.c, which the assembler pulls in with .incbin, found through -Wa,-I<that folder>.
if(CMAKE_VERSION VERSION_LESS 3.20)
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "mc needs CMake 3.20 or newer (add_custom_command DEPFILE)")
  return()
endif()

get_filename_component(_mc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT DEFINED MC_EXECUTABLE)
  set(MC_EXECUTABLE "${_mc_prefix}/bin/mc")
endif()
set(MC_INCLUDE_DIR "${_mc_prefix}/include/mc")
set(MC_RUNTIME_LIBRARY "${_mc_prefix}/lib/libmcrt.a")
set(MC_RUNTIME_DIST "${_mc_prefix}/share/mc/runtime-dist")
set(MC_EXPORT_PYTHONPATH "${_mc_prefix}/share/mc/python")

if(MC_PREBUILT_RUNTIME OR NOT EXISTS "${MC_RUNTIME_DIST}/mc_runtime.c")
  set(_mc_runtime_files "${MC_RUNTIME_LIBRARY}" "${MC_INCLUDE_DIR}/mc_runtime.h")
else()
  set(_mc_runtime_files "${MC_RUNTIME_DIST}/mc_runtime.h" "${MC_RUNTIME_DIST}/dlpack/dlpack.h")
endif()
foreach(_mc_file IN ITEMS "${MC_EXECUTABLE}" ${_mc_runtime_files})
  if(NOT EXISTS "${_mc_file}")
    set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "mc package at ${_mc_prefix} lacks ${_mc_file}")
    return()
  endif()
endforeach()

if(NOT TARGET mc::mc)
  add_executable(mc::mc IMPORTED)
  set_target_properties(mc::mc PROPERTIES IMPORTED_LOCATION "${MC_EXECUTABLE}")
endif()
if(NOT TARGET mc::mcrt AND NOT MC_PREBUILT_RUNTIME AND EXISTS "${MC_RUNTIME_DIST}/mc_runtime.c")
  # the runtime's C sources, compiled by whatever C compiler the project uses (host or cross)
  file(GLOB _mc_runtime_srcs "${MC_RUNTIME_DIST}/*.c")
  add_library(mc_runtime STATIC ${_mc_runtime_srcs})
  target_include_directories(mc_runtime PUBLIC "${MC_RUNTIME_DIST}")
  if(UNIX AND NOT CMAKE_SYSTEM_NAME STREQUAL "Generic")
    find_package(Threads QUIET)
    if(Threads_FOUND)
      target_link_libraries(mc_runtime PUBLIC Threads::Threads)
    endif()
  endif()
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "MSVC")
    target_link_libraries(mc_runtime PUBLIC m)
  endif()
  add_library(mc::mcrt ALIAS mc_runtime)
  unset(_mc_runtime_srcs)
endif()
if(NOT TARGET mc::mcrt)
  add_library(mc::mcrt STATIC IMPORTED)
  set_target_properties(mc::mcrt PROPERTIES
    IMPORTED_LOCATION "${MC_RUNTIME_LIBRARY}"
    IMPORTED_LINK_INTERFACE_LANGUAGES C
    INTERFACE_INCLUDE_DIRECTORIES "${MC_INCLUDE_DIR}")
  if(UNIX)
    set_property(TARGET mc::mcrt APPEND PROPERTY INTERFACE_LINK_LIBRARIES m)
  endif()
endif()

function(mc_add_model target)
  cmake_parse_arguments(PARSE_ARGV 1 _mc "" "MODEL;NAME;TARGET_KIND" "OPTIONS")
  if(_mc_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mc_add_model(${target}): unexpected arguments: ${_mc_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _mc_MODEL)
    message(FATAL_ERROR "mc_add_model(${target}): MODEL <file> is required")
  endif()
  get_filename_component(_model "${_mc_MODEL}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(_mc_NAME)
    set(_name "${_mc_NAME}")
  else()
    string(MAKE_C_IDENTIFIER "${target}" _name)
  endif()
  if(NOT _mc_TARGET_KIND)
    set(_mc_TARGET_KIND c)
  endif()
  if(_mc_TARGET_KIND STREQUAL "c")
    set(_ext ".c")
  elseif(_mc_TARGET_KIND STREQUAL "cuda")
    get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CUDA" IN_LIST _langs)
      message(FATAL_ERROR "mc_add_model(${target}): TARGET_KIND cuda needs enable_language(CUDA) first")
    endif()
    set(_ext ".cu")
  else()
    message(FATAL_ERROR "mc_add_model(${target}): TARGET_KIND must be c or cuda, not '${_mc_TARGET_KIND}'")
  endif()

  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/mc_${target}")
  set(_src "${_dir}/${_name}${_ext}")
  set(_hdr "${_dir}/${_name}.h")
  set(_dep "${_dir}/${_name}.d")
  file(MAKE_DIRECTORY "${_dir}")
  add_custom_command(
    OUTPUT "${_src}" "${_hdr}"
    COMMAND "${MC_EXECUTABLE}" compile "${_model}" -o "${_src}" --name "${_name}"
            --target "${_mc_TARGET_KIND}" -MD -MF "${_dep}" ${_mc_OPTIONS}
    DEPENDS "${_model}" "${MC_EXECUTABLE}"
    DEPFILE "${_dep}"
    COMMENT "mc: compiling ${_mc_MODEL} into ${_name}${_ext}"
    VERBATIM)
  add_library(${target} STATIC "${_src}" "${_hdr}")
  target_include_directories(${target} PUBLIC "${_dir}")
  target_link_libraries(${target} PUBLIC mc::mcrt)
  if(_mc_TARGET_KIND STREQUAL "c")
    set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
    if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
      target_compile_options(${target} PRIVATE "-Wa,-I${_dir}")
    endif()
  else()
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wa,-I${_dir}>")
  endif()
endfunction()

unset(_mc_file)
unset(_mc_runtime_files)
set(${CMAKE_FIND_PACKAGE_NAME}_FOUND TRUE)
