# GradlinkFat.cmake: fat libraries (docs/fat-libraries.md) from CMake.
#
#   cmake -DCMAKE_MODULE_PATH=$(gradlink cmake-dir) ...      # or list(APPEND CMAKE_MODULE_PATH ...)
#
#   include(GradlinkFat)
#   gradlink_add_fat_library(phys SOURCES physics.c solver.c
#                            [SHARED]
#                            [DERIVATIVES derivatives.toml]
#                            [EXPORT_DERIVATIVES "energy:reverse,forward" force ...]
#                            [STRIPPED phys_closed])
#   target_link_libraries(app PRIVATE phys)
#
# gradlink_add_fat_library(NAME ...) compiles SOURCES (C, C++ or Fortran) to LLVM bitcode objects
# (an OBJECT library NAME_objects, compiled with -flto, and -fPIC for SHARED) and runs
# `gradlink fat build` on them, writing libNAME.a (libNAME.so with SHARED) in the current binary
# directory: native code for any linker, the bitcode, and the derivative manifest (the sources'
# Enzyme registrations, the DERIVATIVES file's entries, the derivatives compiled for
# EXPORT_DERIVATIVES). NAME is an IMPORTED library target for that file: link it with
# target_link_libraries; the file is built before anything linking it. STRIPPED OUT also writes
# libOUT.a with `gradlink fat strip-bitcode` (the closed-source variant: no bitcode; consumers
# differentiate only through the EXPORT_DERIVATIVES functions) and makes OUT a target for it.
#
# Give NAME_objects what compiling needs (target_include_directories, target_compile_definitions,
# ...); its INTERFACE_INCLUDE_DIRECTORIES and INTERFACE_LINK_LIBRARIES (PUBLIC or INTERFACE
# ones) become NAME's (and OUT's), so consumers get them. Programs differentiating through the
# library link with -fuse-ld=gradlink; every other program can use any linker.
#
# The gradlink command is looked up on PATH (and in $VIRTUAL_ENV/bin); set GRADLINK_EXECUTABLE
# to choose another.

include_guard(GLOBAL)

find_program(GRADLINK_EXECUTABLE gradlink
  HINTS ENV VIRTUAL_ENV
  PATH_SUFFIXES bin
  DOC "The gradlink command (gradlink fat build)")
if(NOT GRADLINK_EXECUTABLE)
  message(FATAL_ERROR
    "GradlinkFat: the gradlink command was not found. Put the bin directory of the Python "
    "environment gradlink is installed in on PATH (the one `gradlink cmake-dir` runs from), "
    "or pass -DGRADLINK_EXECUTABLE=/path/to/gradlink.")
endif()

function(gradlink_add_fat_library name)
  cmake_parse_arguments(PARSE_ARGV 1 GLF "SHARED" "DERIVATIVES;STRIPPED"
                        "SOURCES;EXPORT_DERIVATIVES")
  if(GLF_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gradlink_add_fat_library(${name}): unexpected arguments "
                        "'${GLF_UNPARSED_ARGUMENTS}' (keywords: SHARED SOURCES DERIVATIVES "
                        "EXPORT_DERIVATIVES STRIPPED)")
  endif()
  if(NOT GLF_SOURCES)
    message(FATAL_ERROR "gradlink_add_fat_library(${name}): SOURCES names no source file")
  endif()
  if(GLF_SHARED AND GLF_STRIPPED)
    message(FATAL_ERROR "gradlink_add_fat_library(${name}): STRIPPED is for static libraries; "
                        "a fat shared object carries no bitcode already")
  endif()
  foreach(kw DERIVATIVES STRIPPED)
    if(kw IN_LIST GLF_KEYWORDS_MISSING_VALUES)
      message(FATAL_ERROR "gradlink_add_fat_library(${name}): ${kw} needs a value")
    endif()
  endforeach()

  # The bitcode objects.
  set(objects ${name}_objects)
  add_library(${objects} OBJECT ${GLF_SOURCES})
  target_compile_options(${objects} PRIVATE -flto)
  if(GLF_SHARED)
    set_target_properties(${objects} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()

  # gradlink fat build.
  if(GLF_SHARED)
    set(kind SHARED)
    set(output "${CMAKE_CURRENT_BINARY_DIR}/lib${name}.so")
    set(shared_flag -shared)
  else()
    set(kind STATIC)
    set(output "${CMAKE_CURRENT_BINARY_DIR}/lib${name}.a")
    set(shared_flag)
  endif()
  set(options)
  set(depends)
  if(GLF_DERIVATIVES)
    get_filename_component(derivatives "${GLF_DERIVATIVES}" ABSOLUTE)
    list(APPEND options --derivatives "${derivatives}")
    list(APPEND depends "${derivatives}")
  endif()
  foreach(spec IN LISTS GLF_EXPORT_DERIVATIVES)
    list(APPEND options --export-derivatives "${spec}")
  endforeach()
  get_filename_component(output_name "${output}" NAME)
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${GRADLINK_EXECUTABLE}" fat build -o "${output}" ${shared_flag} ${options}
            "$<TARGET_OBJECTS:${objects}>"
    DEPENDS ${objects} "$<TARGET_OBJECTS:${objects}>" ${depends}
    COMMENT "Building fat library ${output_name} (gradlink fat build)"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  add_custom_target(${name}_fat DEPENDS "${output}")

  set(usage
    INTERFACE_INCLUDE_DIRECTORIES "$<TARGET_PROPERTY:${objects},INTERFACE_INCLUDE_DIRECTORIES>"
    INTERFACE_LINK_LIBRARIES "$<TARGET_PROPERTY:${objects},INTERFACE_LINK_LIBRARIES>")
  add_library(${name} ${kind} IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES IMPORTED_LOCATION "${output}" ${usage})
  if(GLF_SHARED)
    # clang-22 -shared writes no DT_SONAME: link it as -lNAME, so programs record libNAME.so
    set_target_properties(${name} PROPERTIES IMPORTED_NO_SONAME TRUE)
  endif()
  add_dependencies(${name} ${name}_fat)

  # gradlink fat strip-bitcode.
  if(GLF_STRIPPED)
    set(stripped "${CMAKE_CURRENT_BINARY_DIR}/lib${GLF_STRIPPED}.a")
    get_filename_component(stripped_name "${stripped}" NAME)
    add_custom_command(
      OUTPUT "${stripped}"
      COMMAND "${GRADLINK_EXECUTABLE}" fat strip-bitcode -o "${stripped}" "${output}"
      DEPENDS "${output}"
      COMMENT "Building ${stripped_name} (gradlink fat strip-bitcode ${output_name})"
      VERBATIM)
    add_custom_target(${GLF_STRIPPED}_fat DEPENDS "${stripped}")
    add_library(${GLF_STRIPPED} STATIC IMPORTED GLOBAL)
    set_target_properties(${GLF_STRIPPED} PROPERTIES IMPORTED_LOCATION "${stripped}" ${usage})
    add_dependencies(${GLF_STRIPPED} ${GLF_STRIPPED}_fat)
  endif()
endfunction()
