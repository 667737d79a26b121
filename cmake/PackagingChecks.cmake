# Read by cpack (CPACK_PROJECT_CONFIG_FILE of cmake/Packaging.cmake) before it installs or
# packs anything. The checks live here rather than at configure time because a native
# build is a fine build to run where it was made; it is only wrong to ship.

# -march=native binaries run only on CPUs with the build machine's instruction sets; a
# package is installed on any x86-64 (elsewhere they would refuse to start).
if(CPACK_RNNSEARCH_NATIVE)
  message(FATAL_ERROR "rnnsearch: this build tree is configured with RNNSEARCH_NATIVE=ON (-march=native), "
    "so its tools run only on CPUs like this one; reconfigure with -DRNNSEARCH_NATIVE=OFF to build a package")
endif()

# Without dpkg-shlibdeps CPack would write a package that declares none of the libraries
# the tools need, and say so only in passing.
if(CPACK_GENERATOR STREQUAL "DEB" AND CPACK_DEBIAN_PACKAGE_SHLIBDEPS)
  find_program(rnnsearch_shlibdeps dpkg-shlibdeps)
  if(NOT rnnsearch_shlibdeps)
    message(FATAL_ERROR "rnnsearch: dpkg-shlibdeps is missing, so the package could not name the libraries "
      "the tools need; install dpkg-dev (scripts/install-deps.sh does)")
  endif()
endif()
