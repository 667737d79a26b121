#pragma once
// Training reallocates its large scratch matrices whenever a batch's shape changes
// (Eigen's resize does not keep capacity). By default glibc serves blocks over 128 KiB
// with mmap and returns them on free, so every batch paid for fresh zeroed pages again:
// about a tenth of training time went to page faults. This keeps freed memory in the
// process for reuse instead. Call once, early, from a tool's main.
namespace rnnsearch::util {

void keep_freed_memory_for_reuse();

}  // namespace rnnsearch::util
