# Writes the build tree's man pages from the checkout's: BINARY_DIR/man/manN/X.N is
# SOURCE_DIR/man/manN/X.N with the two empty fields of its first line filled in,
#   .TH NMT-BLEU 1 "" "rnnsearch" "rnnsearch manual"                (the checkout)
#   .TH NMT-BLEU 1 "2026-12-02" "rnnsearch 0.1.0" "rnnsearch manual"  (the build)
# the date being that of the commit built (git log -1 --format=%cs), or FALLBACK_DATE
# (RNNSEARCH_MANUAL_DATE in CMakeLists.txt) where there is no git history, as in a
# tarball; the version is VERSION (project() in CMakeLists.txt). A page is rewritten only
# when its text changes, so an unchanged page keeps its time stamp.
#
# Run when the build is configured (included by cmake/ManPages.cmake) and at every build
# (target man_pages: cmake -P this file), so a new commit dates the pages without a new
# configuration. Variables: SOURCE_DIR, BINARY_DIR, VERSION, FALLBACK_DATE, GIT (may be
# empty). A page whose first line is not of the checkout's form stops the build with its
# file and line.
foreach(variable SOURCE_DIR BINARY_DIR VERSION FALLBACK_DATE)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "cmake/ManPagesWrite.cmake: ${variable} is not set")
  endif()
endforeach()

set(rnnsearch_manual_date "${FALLBACK_DATE}")
if(GIT AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" log -1 --format=%cs HEAD
    OUTPUT_VARIABLE commit_date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_status)
  if(git_status EQUAL 0 AND commit_date MATCHES "^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$")
    set(rnnsearch_manual_date "${commit_date}")
  endif()
endif()

file(GLOB_RECURSE pages RELATIVE "${SOURCE_DIR}/man" "${SOURCE_DIR}/man/man[1-9]/*.[1-9]")
foreach(page ${pages})
  file(READ "${SOURCE_DIR}/man/${page}" text)
  string(REGEX MATCH "^[^\n]*" first "${text}")
  if(NOT first MATCHES "^\\.TH [A-Z0-9.-]+ [1-9] \"\" \"rnnsearch\" \"rnnsearch manual\"$")
    message(FATAL_ERROR "man/${page}:1: the first line should read "
      ".TH NAME SECTION \"\" \"rnnsearch\" \"rnnsearch manual\" (the build fills in the date "
      "and the version), not: ${first}")
  endif()
  string(REGEX REPLACE "^(\\.TH [^ ]+ [1-9]) \"\" \"rnnsearch\""
    "\\1 \"${rnnsearch_manual_date}\" \"rnnsearch ${VERSION}\"" text "${text}")
  set(target "${BINARY_DIR}/man/${page}")
  set(old "")
  if(EXISTS "${target}")
    file(READ "${target}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${target}.tmp" "${text}")
    file(RENAME "${target}.tmp" "${target}")
  endif()
endforeach()
