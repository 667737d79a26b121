#include "model/checked_archive.h"

#include <algorithm>

// The archive's member templates, instantiated for this archive (as Boost's own library
// does for binary_iarchive).
#include <boost/archive/impl/archive_serializer_map.ipp>
#include <boost/archive/impl/basic_binary_iarchive.ipp>
#include <boost/archive/impl/basic_binary_iprimitive.ipp>

#include "util/error.h"

namespace boost::archive {
template class detail::archive_serializer_map<rnnsearch::model::CheckedBinaryIArchive>;
template class basic_binary_iarchive<rnnsearch::model::CheckedBinaryIArchive>;
template class basic_binary_iprimitive<rnnsearch::model::CheckedBinaryIArchive, char, std::char_traits<char>>;
}  // namespace boost::archive

namespace rnnsearch::model {

CheckedBinaryIArchive::CheckedBinaryIArchive(std::istream& payload, std::uint64_t payload_size, unsigned flags,
                                             std::string path)
    : Base(payload, flags),
      payload_(payload),
      start_(payload.tellg()),
      payload_size_(payload_size),
      path_(std::move(path)) {
  init(flags);
}

std::uint64_t CheckedBinaryIArchive::bytes_left() const {
  const std::streamoff at = payload_.rdbuf()->pubseekoff(0, std::ios::cur, std::ios::in);
  if (at < start_) return 0;
  return payload_size_ - std::min<std::uint64_t>(payload_size_, static_cast<std::uint64_t>(at - start_));
}

void CheckedBinaryIArchive::load(std::string& text) {
  std::size_t length = 0;
  load_binary(&length, sizeof(length));
  if (length > bytes_left()) {
    throw util::Error(path_, "damaged: a string of " + std::to_string(length) + " bytes, more than the " +
                                 std::to_string(bytes_left()) + " bytes left in the file");
  }
  text.resize(length);
  if (length > 0) load_binary(text.data(), length);
}

void CheckedBinaryIArchive::load_override(boost::serialization::collection_size_type& count) {
  Base::load_override(count);
  if (static_cast<std::uint64_t>(count) > bytes_left()) {
    throw util::Error(path_, "damaged: a list of " + std::to_string(static_cast<std::uint64_t>(count)) +
                                 " entries, more than the " + std::to_string(bytes_left()) + " bytes left in the file");
  }
}

}  // namespace rnnsearch::model
