# Install rules of GOpt's libraries: one export set, GOptTargets, installed as
# lib/cmake/gopt/GOptTargets.cmake with the namespace GOpt:: (docs/Embedding.md).
#
#   add_mlir_library(GOptDialect DISABLE_INSTALL ...)
#   gopt_install_library(GOptDialect Dialect)   # -> GOpt::Dialect
#
# add_mlir_library's own install rule puts a library into MLIR's export set
# (MLIRTargets); GOpt's libraries pass DISABLE_INSTALL and come here instead.
include(GNUInstallDirs)

# Installed tools and the plugin keep finding libMLIR.so/libLLVM.so (Debian's
# live in /usr/lib/llvm-22/lib, off the loader's path): the install RPATH
# keeps every linked directory outside the build tree.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

function(gopt_install_library target export_name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  # An installed consumer needs GOpt's headers and the MLIR/LLVM headers they
  # include; in the build tree the directory-wide include_directories do it.
  target_include_directories(${target} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    $<INSTALL_INTERFACE:${MLIR_INCLUDE_DIRS}>
    $<INSTALL_INTERFACE:${LLVM_INCLUDE_DIRS}>)
  target_compile_features(${target} INTERFACE cxx_std_17)
  install(TARGETS ${target}
    EXPORT GOptTargets
    COMPONENT gopt-libraries
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

function(gopt_install_tool target)
  install(TARGETS ${target}
    EXPORT GOptTargets
    COMPONENT gopt-tools
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
