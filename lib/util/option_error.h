#pragma once
// The message of a Boost.Program_options error, safe from what the user typed: Boost
// fills its template's %placeholders% (%value%, %option%, ...) until none is left, so a
// value or an option that itself holds "%value%" made what() loop without end. Here each
// substitution goes in through a marker that is replaced once.
#include <boost/program_options/errors.hpp>
#include <string>

namespace rnnsearch::util {

std::string option_error_message(const boost::program_options::error_with_option_name& error);

}  // namespace rnnsearch::util
