#pragma once
// nmt-train --keep-checkpoints N: the models of the last N saves, MODEL.updateU for the
// save after update U (TrainOptions::kept_model_path), kept for checkpoint averaging
// (nmt-average). The updates of the kept files live in the trainer's state, so that a
// resumed run goes on removing the oldest exactly as an uninterrupted one.
#include <string>
#include <vector>

namespace rnnsearch::train {

// Adds `update` to `kept` (oldest first) unless it is already the newest, and removes
// from it, oldest first, all but the last `keep`; returns the updates removed, whose
// files the caller deletes.
std::vector<long> keep_last(std::vector<long>& kept, long update, int keep);

// The files beside `model_path` named as kept models of it (MODEL.update followed by
// digits), in no particular order: what an earlier run left.
std::vector<std::string> find_kept_models(const std::string& model_path);

}  // namespace rnnsearch::train
