include(GNUInstallDirs)

# The x86-64 every CPU of the kind has: the flags of the few files that run before a tool
# knows whether this CPU has the instruction sets the build uses (util/instruction_sets.h).
set(RNNSEARCH_BASELINE_FLAGS -march=x86-64 -mtune=generic)

# add_tool(bleu) builds tools/nmt-bleu.cc into the executable nmt-bleu, with the tools'
# entry (the library tool_support, tools/CMakeLists.txt) and the check of the CPU's
# instruction sets (tools/support/cpu_guard.cc); install_tools() installs every tool added.
function(add_tool name)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/tools/support/cpu_guard.cc
    PROPERTIES COMPILE_OPTIONS "${RNNSEARCH_BASELINE_FLAGS}")
  add_executable(nmt-${name} ${PROJECT_SOURCE_DIR}/tools/nmt-${name}.cc ${PROJECT_SOURCE_DIR}/tools/support/cpu_guard.cc)
  target_link_libraries(nmt-${name} PRIVATE tool_support)
  set_target_properties(nmt-${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  set_property(GLOBAL APPEND PROPERTY RNNSEARCH_TOOLS nmt-${name})
endfunction()

# After the last add_tool(): the target `tools` (`cmake --build build --target tools`
# builds every tool, whatever else is built), and the tools' install rules. `cmake
# --install` of a tree where some tool is not built fails first with one message naming
# them all and the command that builds them, instead of "cannot find" for the first one.
function(install_tools)
  get_property(tools GLOBAL PROPERTY RNNSEARCH_TOOLS)
  add_custom_target(tools DEPENDS ${tools})
  set(files "")
  foreach(tool ${tools})
    string(APPEND files " \"$<TARGET_FILE:${tool}>\"")
  endforeach()
  install(CODE "
    set(missing \"\")
    foreach(file ${files})
      if(NOT EXISTS \"\${file}\")
        get_filename_component(name \"\${file}\" NAME)
        string(APPEND missing \" \${name}\")
      endif()
    endforeach()
    if(missing)
      message(FATAL_ERROR \"not built:\${missing}; run `cmake --build ${CMAKE_BINARY_DIR} --target tools` (or a full build) before cmake --install\")
    endif()")
  install(TARGETS ${tools} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

# add_unit_test(eval) builds every tests/eval/*.cc into one Boost.Test binary
# test_eval, registered with CTest under the label "unit".
# add_unit_test(FOLDER [OWN_TEST SUITE...]): each SUITE named after OWN_TEST runs as a ctest
# of its own (named SUITE), so a long suite runs beside the rest instead of after it.
function(add_unit_test folder)
  cmake_parse_arguments(PARSE_ARGV 1 unit "" "" "OWN_TEST")
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${folder}/*.cc)
  add_executable(test_${folder} ${sources} ${PROJECT_SOURCE_DIR}/tests/support/test_main.cc)
  target_link_libraries(test_${folder} PRIVATE rnnsearch test_support Boost::unit_test_framework)
  set(others)
  foreach(suite ${unit_OWN_TEST})
    list(APPEND others "--run_test=!${suite}")
    add_test(NAME ${suite} COMMAND test_${folder} --log_level=message --run_test=${suite})
    set_tests_properties(${suite} PROPERTIES LABELS unit ENVIRONMENT "${RNNSEARCH_TEST_ENV}")
  endforeach()
  add_test(NAME ${folder} COMMAND test_${folder} --log_level=message ${others})
  set_tests_properties(${folder} PROPERTIES LABELS unit ENVIRONMENT "${RNNSEARCH_TEST_ENV}")
endfunction()
