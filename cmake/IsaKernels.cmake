# The kernels compiled once per level of instruction sets (lib/math/kernels/kernels.h,
# lib/math/cpu_isa.h): each level is an object library of the kernel files it has code
# for, compiled with the level's flags and RNNSEARCH_ISA naming its namespace, and linked
# into rnnsearch; math/kernel_tables.cc picks a level's tables at run time. The rest of the
# library is compiled for the baseline x86-64 (or for this machine with RNNSEARCH_NATIVE).
#
# -ffp-contract=off: GCC would otherwise fuse a product and a sum into one fma where the
# level has FMA, and the scalar code of a wider level would round differently from the
# baseline's; every fma the kernels want is written out.
set(RNNSEARCH_ISA_LEVELS baseline avx2 avx512 avx512_vnni avx512_bf16)
set(RNNSEARCH_ISA_FLAGS_baseline "")
set(RNNSEARCH_ISA_FLAGS_avx2 -mavx -mavx2 -mfma)
set(RNNSEARCH_ISA_FLAGS_avx512 ${RNNSEARCH_ISA_FLAGS_avx2} -mavx512f -mavx512bw -mavx512dq -mavx512vl)
set(RNNSEARCH_ISA_FLAGS_avx512_vnni ${RNNSEARCH_ISA_FLAGS_avx512} -mavx512vnni)
set(RNNSEARCH_ISA_FLAGS_avx512_bf16 ${RNNSEARCH_ISA_FLAGS_avx512_vnni} -mavx512bf16)

# The kernel files of each level: a level without a file of its own uses the one below it
# (math/kernel_tables.cc says which).
set(RNNSEARCH_ISA_KERNELS_baseline row_stable_kernels dot_kernels elementwise_kernels step_kernels vector_kernels int8_row_kernels int8_tile_kernels)
set(RNNSEARCH_ISA_KERNELS_avx2 row_stable_kernels dot_kernels elementwise_kernels step_kernels vector_kernels int8_row_kernels int8_tile_kernels)
set(RNNSEARCH_ISA_KERNELS_avx512 row_stable_kernels dot_kernels elementwise_kernels step_kernels vector_kernels int8_row_kernels)
set(RNNSEARCH_ISA_KERNELS_avx512_vnni int8_tile_kernels)
set(RNNSEARCH_ISA_KERNELS_avx512_bf16 bf16_kernels)

# The elementwise functions are plain loops for the compiler to vectorize, which GCC's -O2
# does only where no remainder loop is needed; -fno-math-errno lets it vectorize sqrt (no
# kernel reads errno, and no value changes).
foreach(file elementwise_kernels step_kernels vector_kernels)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/lib/math/kernels/${file}.cc PROPERTIES COMPILE_OPTIONS "-O3;-fno-math-errno")
endforeach()

function(add_isa_kernels library)
  foreach(level ${RNNSEARCH_ISA_LEVELS})
    set(files ${RNNSEARCH_ISA_KERNELS_${level}})
    list(TRANSFORM files PREPEND ${PROJECT_SOURCE_DIR}/lib/math/kernels/)
    list(TRANSFORM files APPEND .cc)
    add_library(${library}_isa_${level} OBJECT ${files})
    target_compile_options(${library}_isa_${level} PRIVATE ${RNNSEARCH_ISA_FLAGS_${level}} -ffp-contract=off)
    if(level MATCHES "avx512" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # GCC 12's AVX-512 headers' `__m512 __Y = __Y;` idiom reads as maybe-uninitialized.
      target_compile_options(${library}_isa_${level} PRIVATE -Wno-maybe-uninitialized)
    endif()
    target_compile_definitions(${library}_isa_${level} PRIVATE RNNSEARCH_ISA=isa_${level})
    target_include_directories(${library}_isa_${level} PRIVATE ${PROJECT_SOURCE_DIR}/lib)
    target_sources(${library} PRIVATE $<TARGET_OBJECTS:${library}_isa_${level}>)
  endforeach()
endfunction()
