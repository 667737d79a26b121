// The one main() of every Boost.Test binary; each binary is one lib/ concern.
#define BOOST_TEST_MODULE rnnsearch
#include <boost/test/unit_test.hpp>
