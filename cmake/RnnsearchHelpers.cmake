include(GNUInstallDirs)

# add_tool(bleu) builds tools/nmt-bleu.cc into the executable nmt-bleu.
function(add_tool name)
  add_executable(nmt-${name} ${PROJECT_SOURCE_DIR}/tools/nmt-${name}.cc)
  target_link_libraries(nmt-${name} PRIVATE rnnsearch)
  set_target_properties(nmt-${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  install(TARGETS nmt-${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

# add_unit_test(eval) builds every tests/eval/*.cc into one Boost.Test binary
# test_eval, registered with CTest under the label "unit".
function(add_unit_test folder)
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${folder}/*.cc)
  add_executable(test_${folder} ${sources} ${PROJECT_SOURCE_DIR}/tests/support/test_main.cc)
  target_link_libraries(test_${folder} PRIVATE rnnsearch test_support Boost::unit_test_framework)
  add_test(NAME ${folder} COMMAND test_${folder} --log_level=message)
  set_tests_properties(${folder} PROPERTIES LABELS unit ENVIRONMENT "${RNNSEARCH_TEST_ENV}")
endfunction()
