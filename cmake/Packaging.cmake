# The Debian package: `cmake --build build --target deb` builds the tools, then packs what
# `cmake --install` installs (the tools, the man pages, the recipes) under /usr into
# build/rnnsearch_<version>_amd64.deb. CPack's DEB generator writes the control fields from
# the variables below; dpkg-shlibdeps (package dpkg-dev) reads the tools' shared libraries
# and names the Debian packages that hold them, so the library dependencies follow what the
# build linked (oneDNN, OpenBLAS, ICU, Boost, Open MPI when found) with no list to keep up.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rnnsearch)
set(CPACK_PACKAGE_VENDOR "rnnsearch")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "neural machine translation on a CPU, as Unix tools")
# Lines under 80 columns; an empty line separates paragraphs (CPack writes it as " .").
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION [=[
The RNNsearch model of Bahdanau, Cho and Bengio (attention-based neural
machine translation) as a set of command-line tools: tokenizing, BPE,
vocabularies, training (on several processes through Open MPI), beam-search
decoding with int8 weights and shortlists, scoring, word alignments from
attention, and BLEU and chrF that match sacreBLEU.

Every tool reads and writes UTF-8 text, one sentence per line. The package
holds the nmt-* tools, their man pages (rnnsearch(7) is the overview) and
shell recipes that chain them (rnnsearch-translate, rnnsearch-evaluate, ...).]=])
set(RNNSEARCH_PACKAGE_MAINTAINER "rnnsearch maintainers <maintainers@users.noreply.a-seed-9065bdef.example>"
  CACHE STRING "The Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RNNSEARCH_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The Homepage field is written when project() names one (HOMEPAGE_URL): CPack's default.

# Named from the target, not from the build machine's dpkg, so a cross build is labelled
# right; other processors keep CPack's default (dpkg --print-architecture).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # rnnsearch_0.1.0_amd64.deb

set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The recipes are bash scripts (bash and coreutils are essential) that also run awk, and
# ps to end their children on a signal.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "mawk | awk, procps")
# nmt-train needs only the MPI library to run in one process; mpirun starts several.
if(RNNSEARCH_WITH_MPI)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openmpi-bin")
endif()
set(CPACK_STRIP_FILES ON)
# cpack (and the package and install targets) take the tree as built, as `cmake --install`
# does, instead of building every test program first; the deb target below builds the
# tools. A tool not built stops the packing with the command that builds it (install_tools
# in cmake/RnnsearchHelpers.cmake).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# Read by cpack before it packs anything: refuses a build for this machine's CPU only and a
# package whose library dependencies would be left out (cmake/PackagingChecks.cmake).
set(CPACK_RNNSEARCH_NATIVE "${RNNSEARCH_NATIVE}")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/PackagingChecks.cmake")

include(CPack)

add_custom_target(deb
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${CMAKE_BINARY_DIR}/CPackConfig.cmake -G DEB -B ${CMAKE_BINARY_DIR}
  COMMENT "Packing the tools, the man pages and the recipes into a Debian package"
  VERBATIM USES_TERMINAL)
# A native tree goes straight to the refusal instead of building the tools first.
if(NOT RNNSEARCH_NATIVE)
  add_dependencies(deb tools)
endif()
