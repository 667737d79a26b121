#include "util/allocator.h"

#include <malloc.h>

namespace rnnsearch::util {

void keep_freed_memory_for_reuse() {
  // 32 MiB is glibc's largest mmap threshold; blocks below it come from the heap and
  // stay there after free (trimming only above 1 GiB of free top memory).
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
}

}  // namespace rnnsearch::util
