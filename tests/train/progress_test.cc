// The ETA to the end of a training run: the first of --max-updates, --max-epochs and
// --max-minutes to be reached, at the run's pace.
#include <boost/test/unit_test.hpp>

#include "train/progress.h"

namespace tr = rnnsearch::train;

namespace {

// Update 250 of epoch 2 (index 1), batch 50 of 100, 10 minutes in, 2 s an update.
tr::RunPosition mid_run() {
  tr::RunPosition p;
  p.update = 250;
  p.epoch = 1;
  p.batch_in_epoch = 50;
  p.batches_in_epoch = 100;
  p.elapsed_seconds = 600.0;
  p.seconds_per_update = 2.0;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(train_progress)

BOOST_AUTO_TEST_CASE(each_limit_alone_gives_its_own_end) {
  // 750 updates left; 50 batches of this epoch and 100 of the last of 3 epochs; 20 minutes.
  BOOST_TEST(tr::seconds_to_run_end({1000, 0, 0.0}, mid_run()) == 1500.0);
  BOOST_TEST(tr::seconds_to_run_end({0, 3, 0.0}, mid_run()) == 300.0);
  BOOST_TEST(tr::seconds_to_run_end({0, 0, 30.0}, mid_run()) == 1200.0);
}

BOOST_AUTO_TEST_CASE(the_nearest_limit_wins_and_no_limit_gives_none) {
  BOOST_TEST(tr::seconds_to_run_end({1000, 3, 30.0}, mid_run()) == 300.0);
  BOOST_TEST(tr::seconds_to_run_end({260, 3, 30.0}, mid_run()) == 20.0);
  BOOST_TEST(tr::seconds_to_run_end({0, 0, 0.0}, mid_run()) == -1.0);
}

BOOST_AUTO_TEST_CASE(a_limit_already_passed_gives_zero_not_a_negative_time) {
  BOOST_TEST(tr::seconds_to_run_end({0, 0, 5.0}, mid_run()) == 0.0);
  BOOST_TEST(tr::seconds_to_run_end({0, 2, 0.0}, mid_run()) == 100.0);  // the end of this epoch
}

BOOST_AUTO_TEST_SUITE_END()
