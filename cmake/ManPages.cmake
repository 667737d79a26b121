# The man pages under man/ carry "@PROJECT_VERSION@" in their .TH line, so the version is
# typed once (project() in CMakeLists.txt). Each page is copied to the build tree with only
# that placeholder replaced (configure_file would also expand the pages' "@-@" and break
# them); the copies are what `cmake --install` installs and the tests read. They are written
# at configure time, so they exist whatever was built, and a changed page re-runs the
# configuration on the next build.
file(GLOB_RECURSE rnnsearch_man_sources RELATIVE ${PROJECT_SOURCE_DIR}/man
  CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/man[1-9]/*.[1-9])
foreach(page ${rnnsearch_man_sources})
  set(source ${PROJECT_SOURCE_DIR}/man/${page})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
  file(READ ${source} text)
  string(REPLACE "@PROJECT_VERSION@" "${PROJECT_VERSION}" text "${text}")
  # Written beside, then copied: COPYONLY touches the page only when its text changed.
  file(WRITE ${CMAKE_BINARY_DIR}/man.tmp/${page} "${text}")
  configure_file(${CMAKE_BINARY_DIR}/man.tmp/${page} ${CMAKE_BINARY_DIR}/man/${page} COPYONLY)
  get_filename_component(section_dir ${page} DIRECTORY)
  install(FILES ${CMAKE_BINARY_DIR}/man/${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/${section_dir})
endforeach()
