#pragma once
// nmt-train's signals: the first SIGHUP, SIGINT or SIGTERM asks run_training to save and stop
// after the current update (request_stop); a second one ends the process at once, through
// the handler that was there before (tools::run_tool's: remove unfinished temporary files,
// die by the signal; the default when the signal was ignored).
namespace rnnsearch::train {

void stop_training_on_signals();

}  // namespace rnnsearch::train
