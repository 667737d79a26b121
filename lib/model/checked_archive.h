#pragma once
// The archive model and checkpoint files are read with: boost::archive::binary_iarchive's
// format, byte for byte, but every size that a damaged file could make absurd (a string's
// length, a collection's count) is checked against the bytes left in the payload before
// anything is allocated. Boost allocates (and zeroes) what the size says first: a damaged
// length asked for 390 TB (found by fuzzing), and one of a few GB would be granted and
// filled before the read failed.
#include <boost/archive/binary_iarchive_impl.hpp>
#include <boost/archive/detail/register_archive.hpp>
#include <boost/serialization/collection_size_type.hpp>
#include <cstdint>
#include <istream>
#include <string>

namespace rnnsearch::model {

class CheckedBinaryIArchive
    : public boost::archive::binary_iarchive_impl<CheckedBinaryIArchive, char, std::char_traits<char>> {
 public:
  // Reads `payload`, which holds `payload_size` bytes from where it stands, for `path`
  // (named in the errors).
  CheckedBinaryIArchive(std::istream& payload, std::uint64_t payload_size, unsigned flags, std::string path);

  // The payload's bytes not yet read.
  std::uint64_t bytes_left() const;
  const std::string& path() const { return path_; }

 private:
  using Base = boost::archive::binary_iarchive_impl<CheckedBinaryIArchive, char, std::char_traits<char>>;
  friend class boost::archive::detail::interface_iarchive<CheckedBinaryIArchive>;
  friend class boost::archive::basic_binary_iarchive<CheckedBinaryIArchive>;
  friend class boost::archive::basic_binary_iprimitive<CheckedBinaryIArchive, char, std::char_traits<char>>;
  friend class boost::archive::load_access;

  using Base::load;
  void load(std::string& text);  // its length checked first
  template <class T>
  void load_override(T& value) {
    Base::load_override(value);
  }
  void load_override(boost::serialization::collection_size_type& count);  // at most one element a byte left

  std::istream& payload_;
  std::streamoff start_;
  std::uint64_t payload_size_;
  std::string path_;
};

}  // namespace rnnsearch::model

BOOST_SERIALIZATION_REGISTER_ARCHIVE(rnnsearch::model::CheckedBinaryIArchive)
BOOST_SERIALIZATION_USE_ARRAY_OPTIMIZATION(rnnsearch::model::CheckedBinaryIArchive)
