# tilehybridConfig.cmake -- find_package(tilehybrid) for an installed copy of
# tilehybrid (MIT licence).  `make install PREFIX=...` puts this file in
# PREFIX/lib/cmake/tilehybrid/.
#
#   find_package(tilehybrid 0.1 REQUIRED)                      # MPI only
#   target_link_libraries(app PRIVATE tilehybrid::tilehybrid)
#
#   find_package(tilehybrid 0.1 REQUIRED COMPONENTS OpenMP)    # MPI + OpenMP
#   target_link_libraries(app PRIVATE tilehybrid::openmp)
#
# Targets (both INTERFACE IMPORTED: the toolkit is header-only):
#   tilehybrid::tilehybrid  the include directory (use #include <hybrid.h>),
#                           C99, MPI::MPI_C and libm.  Enough for the pure
#                           MPI model; the threaded models then run one
#                           thread per process.
#   tilehybrid::openmp      tilehybrid::tilehybrid plus OpenMP::OpenMP_C, for
#                           the fine, funneled and multiple models.  Defined
#                           only when the OpenMP component is asked for
#                           (COMPONENTS or OPTIONAL_COMPONENTS) and found.
#
# Point CMake at the MPI to use with -DMPI_C_COMPILER=/path/to/mpicc.  The
# file finds its prefix from its own place, so an installed tree can be
# moved or packaged with DESTDIR.

if(CMAKE_VERSION VERSION_LESS 3.9)
  set(tilehybrid_FOUND FALSE)
  set(tilehybrid_NOT_FOUND_MESSAGE
      "tilehybrid needs CMake 3.9 or newer (for MPI::MPI_C), this is ${CMAKE_VERSION}")
  return()
endif()

# PREFIX/lib/cmake/tilehybrid -> PREFIX
get_filename_component(_tilehybrid_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(_tilehybrid_include "${_tilehybrid_prefix}/include/tilehybrid")
if(NOT EXISTS "${_tilehybrid_include}/hybrid.h")
  set(tilehybrid_FOUND FALSE)
  set(tilehybrid_NOT_FOUND_MESSAGE
      "tilehybrid: ${_tilehybrid_include}/hybrid.h is missing (incomplete installation)")
  unset(_tilehybrid_include)
  unset(_tilehybrid_prefix)
  return()
endif()

set(_tilehybrid_openmp FALSE)
foreach(_tilehybrid_comp IN LISTS tilehybrid_FIND_COMPONENTS)
  if(_tilehybrid_comp STREQUAL "OpenMP")
    set(_tilehybrid_openmp TRUE)
  else()
    set(tilehybrid_FOUND FALSE)
    set(tilehybrid_NOT_FOUND_MESSAGE
        "tilehybrid: unknown component '${_tilehybrid_comp}' (the only component is OpenMP)")
    unset(_tilehybrid_comp)
    unset(_tilehybrid_openmp)
    unset(_tilehybrid_include)
    unset(_tilehybrid_prefix)
    return()
  endif()
endforeach()
unset(_tilehybrid_comp)

include(CMakeFindDependencyMacro)
find_dependency(MPI COMPONENTS C)   # returns with tilehybrid_FOUND FALSE if missing

if(NOT TARGET tilehybrid::tilehybrid)
  add_library(tilehybrid::tilehybrid INTERFACE IMPORTED)
  set_target_properties(tilehybrid::tilehybrid PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_tilehybrid_include}"
    INTERFACE_COMPILE_FEATURES c_std_99)
  # No fused multiply-adds the sequential loop would not make: results stay
  # bitwise equal to it in GNU mode too (CMake's C standard flags are
  # -std=gnu* by default, where GCC contracts a * b + c).
  set_property(TARGET tilehybrid::tilehybrid PROPERTY INTERFACE_COMPILE_OPTIONS
    "$<$<OR:$<C_COMPILER_ID:GNU>,$<C_COMPILER_ID:Clang>,$<C_COMPILER_ID:AppleClang>>:-ffp-contract=off>")
  if(WIN32)
    set_property(TARGET tilehybrid::tilehybrid PROPERTY INTERFACE_LINK_LIBRARIES MPI::MPI_C)
  else()
    set_property(TARGET tilehybrid::tilehybrid PROPERTY INTERFACE_LINK_LIBRARIES MPI::MPI_C m)
  endif()
endif()

set(tilehybrid_OpenMP_FOUND FALSE)
if(_tilehybrid_openmp)
  if(tilehybrid_FIND_REQUIRED_OpenMP)
    find_dependency(OpenMP COMPONENTS C)
  else()
    find_package(OpenMP QUIET COMPONENTS C)
  endif()
  if(TARGET OpenMP::OpenMP_C)
    set(tilehybrid_OpenMP_FOUND TRUE)
    if(NOT TARGET tilehybrid::openmp)
      add_library(tilehybrid::openmp INTERFACE IMPORTED)
      set_property(TARGET tilehybrid::openmp PROPERTY
        INTERFACE_LINK_LIBRARIES tilehybrid::tilehybrid OpenMP::OpenMP_C)
    endif()
  elseif(tilehybrid_FIND_REQUIRED_OpenMP)
    set(tilehybrid_FOUND FALSE)
    set(tilehybrid_NOT_FOUND_MESSAGE "tilehybrid: the C compiler has no OpenMP (component OpenMP)")
  endif()
endif()

unset(_tilehybrid_openmp)
unset(_tilehybrid_include)
unset(_tilehybrid_prefix)
