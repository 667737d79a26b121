# Sanitizer builds, each in its own build folder (README, "Fuzzing and sanitizers").
#   RNNSEARCH_SANITIZE=ON  everything with AddressSanitizer and UndefinedBehaviorSanitizer
#                          (scripts/sanitize.sh runs the unit tests so built)
#   RNNSEARCH_SANITIZE_THREAD=ON  everything with ThreadSanitizer (scripts/sanitize.sh --thread)
#   RNNSEARCH_FUZZ=ON      the same plus libFuzzer's coverage hooks (clang only); tests/fuzz
#                          then builds libFuzzer executables instead of replay tests
#                          (scripts/fuzz.sh)
# UBSan only prints by default and goes on: -fno-sanitize-recover makes every report fatal,
# so a test or a fuzz run fails on it instead of scrolling past it.
option(RNNSEARCH_SANITIZE "Build with -fsanitize=address,undefined" OFF)
option(RNNSEARCH_SANITIZE_THREAD "Build with -fsanitize=thread" OFF)
option(RNNSEARCH_FUZZ "Build tests/fuzz as libFuzzer targets with ASan and UBSan (clang)" OFF)

if(RNNSEARCH_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "RNNSEARCH_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
if(RNNSEARCH_SANITIZE OR RNNSEARCH_FUZZ)
  set(sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${sanitizers})
  add_link_options(${sanitizers})
endif()
if(RNNSEARCH_SANITIZE_THREAD)
  if(RNNSEARCH_SANITIZE OR RNNSEARCH_FUZZ)
    message(FATAL_ERROR "RNNSEARCH_SANITIZE_THREAD cannot go with AddressSanitizer: use a build folder of its own")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
if(RNNSEARCH_FUZZ)
  # Coverage instrumentation everywhere; only the fuzz targets link libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
