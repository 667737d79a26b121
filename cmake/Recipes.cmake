# The recipes of pipelines/ that users run: each whose header has the line
# "# Installed as rnnsearch-NAME" is installed as PREFIX/share/rnnsearch/<file>, beside the
# common.sh every recipe sources and the project's version (for --version), and called
# through the symbolic link PREFIX/bin/rnnsearch-NAME.
# A recipe resolves that link (readlink -f "$0") to find common.sh and its sibling recipes.
set(rnnsearch_recipe_dir ${CMAKE_INSTALL_DATADIR}/rnnsearch)
install(FILES ${PROJECT_SOURCE_DIR}/pipelines/common.sh DESTINATION ${rnnsearch_recipe_dir})
# The recipes' --version (common.sh's show_version) reads the installed project's version
# from this file; in a checkout, which has none, it reads project() of CMakeLists.txt.
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/recipes/version CONTENT "${PROJECT_VERSION}\n")
install(FILES ${CMAKE_BINARY_DIR}/recipes/version DESTINATION ${rnnsearch_recipe_dir})
file(GLOB rnnsearch_recipes CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/pipelines/*.sh)
foreach(recipe ${rnnsearch_recipes})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${recipe})
  file(STRINGS ${recipe} marker REGEX "^# Installed as rnnsearch-[a-z0-9-]+" LIMIT_COUNT 1)
  if(NOT marker)
    continue()
  endif()
  string(REGEX MATCH "rnnsearch-[a-z0-9-]+" command "${marker}")
  get_filename_component(file ${recipe} NAME)
  install(PROGRAMS ${recipe} DESTINATION ${rnnsearch_recipe_dir})
  # The link is relative, so the installed tree can be moved (or staged under DESTDIR).
  file(RELATIVE_PATH target /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${rnnsearch_recipe_dir}/${file})
  install(CODE "
    set(link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${command}\")
    message(STATUS \"Installing: \${link} -> ${target}\")
    file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
    file(CREATE_LINK \"${target}\" \"\${link}\" SYMBOLIC)
    list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${link}\")")
endforeach()
