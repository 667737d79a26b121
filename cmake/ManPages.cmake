# The man pages under man/ leave the date and the version of their .TH line empty
# (.TH NAME SECTION "" "rnnsearch" "rnnsearch manual"), so a reader of the checkout sees no
# placeholder and no date older than the text; the build's copies, build/man/manN/*, have
# them filled in by cmake/ManPagesWrite.cmake: the date of the commit built (or
# RNNSEARCH_MANUAL_DATE without git history) and PROJECT_VERSION. The copies are written
# when the build is configured, so they exist whatever was built, and again at every build
# (target man_pages, which the tools target depends on), so a new commit dates them
# without a new configuration. They are what `cmake --install` installs and the tests read.
find_package(Git QUIET)
set(rnnsearch_man_args -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DBINARY_DIR=${CMAKE_BINARY_DIR}
  -DVERSION=${PROJECT_VERSION} -DFALLBACK_DATE=${RNNSEARCH_MANUAL_DATE} -DGIT=${GIT_EXECUTABLE})
# At configure time: in a function, so the script's variables stay in it.
function(rnnsearch_write_man_pages script)
  set(SOURCE_DIR ${PROJECT_SOURCE_DIR})
  set(BINARY_DIR ${CMAKE_BINARY_DIR})
  set(VERSION ${PROJECT_VERSION})
  set(FALLBACK_DATE ${RNNSEARCH_MANUAL_DATE})
  set(GIT ${GIT_EXECUTABLE})
  include(${script})
endfunction()
rnnsearch_write_man_pages(${CMAKE_CURRENT_LIST_DIR}/ManPagesWrite.cmake)
add_custom_target(man_pages ALL
  COMMAND ${CMAKE_COMMAND} ${rnnsearch_man_args} -P ${CMAKE_CURRENT_LIST_DIR}/ManPagesWrite.cmake
  COMMENT "Dating the man pages (build/man)" VERBATIM)
add_dependencies(tools man_pages)

file(GLOB_RECURSE rnnsearch_man_sources RELATIVE ${PROJECT_SOURCE_DIR}/man
  CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/man[1-9]/*.[1-9])
foreach(page ${rnnsearch_man_sources})
  get_filename_component(section_dir ${page} DIRECTORY)
  install(FILES ${CMAKE_BINARY_DIR}/man/${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/${section_dir})
endforeach()
