# Included by Makefile.pipeline for CONFIG=hansard36: English -> French on the 1,021,889
# Hansard pairs of $(HANSARD36_DIR) (README "At scale").
#
#   make -f Makefile.pipeline hansard36            the whole chain, about 2 hours on 2 cores
#   make -f Makefile.pipeline hansard36-peer CONFIG=hansard36
#                                                  the PyTorch model of $(NMT_SHARED)/peer on the
#                                                  same data for the same time, scored beside ours
#
# Stages: raw text (HANSARD36_LINES training pairs, 0 = all; HANSARD36_EVAL_LINES of valid
# and test, 0 = all) -> nmt-tokenize -> nmt-clean (training pairs only: Moses
# clean-corpus-n.perl's rules, CLEAN_MIN to CLEAN_MAX words, CLEAN_OPTS) -> joint BPE
# (BPE_MERGES) -> vocabularies -> nmt-train for TRAIN_MINUTES -> valid and test translated
# with beam BEAMS -> BLEU and chrF (detokenized, cased) -> BLEU by source length (buckets of
# 10 words up to 60+: table and SVG) -> the report, with the training figures.

HANSARD36_DIR        ?= $(NMT_SHARED)/data/hansard36
HANSARD36_LINES      ?= 0
HANSARD36_EVAL_LINES ?= 0
CLEAN_MIN            ?= 1
CLEAN_MAX            ?= 80
CLEAN_OPTS           ?=
PEER                 ?= $(NMT_SHARED)/peer/rnnsearch.py
PEER_PYTHON          ?= /usr/bin/python3
PEER_THREADS         ?= $(THREADS)
# The peer's beam search takes 14-22 minutes for the 23,117 test sentences on one thread,
# its greedy search 5: both models are compared with the same search, greedy unless set.
PEER_BEAM            ?= 1
# The peer gets the same sizes, batch, length limit, dropout, learning rate and clipping.
PEER_OPTS            ?= --emb 256 --enc-hidden 256 --dec-hidden 512 --attn-dim 512 --maxout-dim 256 \
                        --batch-size 64 --max-len 80 --dropout 0.1 --lr 0.001 --clip 1.0 --log-every 500

# Lists of "name:options" items (STUDY_VARIANTS, MARIAN_SYSTEMS, PAPER_VARIANTS):
# named_items(list): "name:options" items as name|option|option words (an item starts at each
# word holding a colon after a name).
named_items = $(shell printf '%s\n' '$(strip $(1))' | awk '{for (i = 1; i <= NF; i++) \
  if ($$i ~ /^[A-Za-z0-9][A-Za-z0-9_.+-]*:/) {if (item != "") printf "%s ", item; item = $$i; sub(/:/, "|", item)} \
  else if (item == "") {print "!" $$i; exit} else item = item "|" $$i} END {print item}')
item_names = $(foreach w,$(1),$(firstword $(subst |, ,$(w))))
# item_options(items, name): the options of item name.
item_options = $(wordlist 2,1000,$(subst |, ,$(filter $(2)|%,$(1))))

H36_CORPUS_CONF := $(call options_file,hansard36-corpus,$(HANSARD36_DIR) $(HANSARD36_LINES) $(HANSARD36_EVAL_LINES))
H36_CLEAN_CONF  := $(call options_file,hansard36-clean,$(CLEAN_MIN) $(CLEAN_MAX) $(CLEAN_OPTS))
H36_PEER_CONF   := $(call options_file,hansard36-peer,$(PEER_OPTS) $(TRAIN_MINUTES) $(PEER_THREADS))

# Both models' test translations with the same search, scored side by side in compare/beamN/.
COMPARE := $(OUT)/compare/beam$(PEER_BEAM)
OURS    := $(OUT)/test.beam$(PEER_BEAM).$(TGT)
THEIRS  := $(OUT)/peer/test.beam$(PEER_BEAM).$(TGT)

.PHONY: hansard36-peer
hansard36-peer: $(COMPARE)/length.txt
	@cat $(COMPARE)/scores.txt $<

# ---- Corpus: the first N lines of each file (0 = all) ----------------------------------
raw_lines = $(if $(filter train,$(1)),$(HANSARD36_LINES),$(HANSARD36_EVAL_LINES))
$(foreach s,train valid test,$(RAW)/$(s).$(SRC) $(RAW)/$(s).$(TGT)): $(H36_CORPUS_CONF)
	@mkdir -p $(@D)
	zcat $(HANSARD36_DIR)/$(@F).gz | awk -v n=$(call raw_lines,$(basename $(@F))) 'n == 0 || NR <= n' > $@.tmp
	mv $@.tmp $@

# ---- Cleaning: the training pairs only (valid and test are scored whole) ---------------
$(OUT)/clean/train.$(SRC) $(OUT)/clean/train.$(TGT) $(OUT)/clean/summary.txt &: $(OUT)/tok/train.$(SRC) $(OUT)/tok/train.$(TGT) \
    $(BIN)/nmt-clean $(H36_CLEAN_CONF)
	@mkdir -p $(@D)
	$(BIN)/nmt-clean $(CLEAN_OPTS) -q --summary-file $(OUT)/clean/summary.txt \
	    $(OUT)/tok/train $(SRC) $(TGT) $(OUT)/clean/train $(CLEAN_MIN) $(CLEAN_MAX) $(OUT)/clean/train.lines

# ---- BLEU by source length, training figures -----------------------------------------
$(OUT)/length.txt $(OUT)/length.svg &: $(OUT)/test.beam$(lastword $(BEAMS)).$(TGT) $(RAW)/test.$(SRC) \
    $(RAW)/test.$(TGT) $(BIN)/nmt-by-length
	{ echo "-- BLEU by source length, test, beam $(lastword $(BEAMS)) (chart: $(OUT)/length.svg):"; \
	  $(BIN)/nmt-by-length -s $(RAW)/test.$(SRC) -r $(RAW)/test.$(TGT) $(LENGTH_OPTS) -i $< -n rnnsearch \
	    --svg $(OUT)/length.svg -q; } > $(OUT)/length.txt.tmp
	mv $(OUT)/length.txt.tmp $(OUT)/length.txt

# From the training log: pairs, updates, epochs, time, and the share of it spent validating.
$(OUT)/training.txt: $(OUT)/model.$(FWD).bin $(OUT)/clean/summary.txt $(OUT)/test.beam$(lastword $(BEAMS)).bpe
	{ echo "-- data: $$(wc -l < $(RAW)/train.$(SRC)) training pairs, $$(wc -l < $(OUT)/clean/train.$(SRC)) after" \
	       "nmt-clean ($(CLEAN_MIN)-$(CLEAN_MAX) words); vocabularies $$(wc -l < $(OUT)/vocab.$(SRC)) $(SRC)," \
	       "$$(wc -l < $(OUT)/vocab.$(TGT)) $(TGT) (BPE $(BPE_MERGES) merges)"; \
	  awk '/^epoch [0-9]+ update/ {epoch = $$2; batch = $$6} \
	       /^validation at update/ {sub(/s\).*/, ""); sub(/.*took /, ""); validating += $$0; validations++} \
	       /^training ended at update/ {line = $$0; update = $$5; m = $$0; sub(/.* after /, "", m); minutes = m + 0} \
	       END {printf "-- training: %s; %d updates, epoch %d (batch %s), %.1f minutes, %d validations" \
	                   " taking %.1f%% of the time\n", line, update, epoch, batch, minutes, validations, \
	                   (minutes > 0 ? 100 * validating / (60 * minutes) : 0)}' $(OUT)/log/train.$(FWD).log; \
	  sed 's/^/-- decoding test: /' $(OUT)/log/decode.test.beam$(lastword $(BEAMS)).log; } > $@.tmp
	mv $@.tmp $@

# ---- The PyTorch peer on the same data for the same time -----------------------------
# peer_train(training files prefix, threads, minutes, options, log), in a recipe: the peer
# trained on PREFIX.SRC/TGT and validated on the valid set, saved as $@ (pipelines/paper.mk
# trains its RNNsearch-50 with it too).
peer_train = mkdir -p $(@D) $(OUT)/log; \
	OMP_WAIT_POLICY=PASSIVE $(PEER_PYTHON) $(PEER) --threads $(2) train --train-src $(1).$(SRC) --train-tgt $(1).$(TGT) \
	    --val-src $(OUT)/bpe/valid.$(SRC) --val-tgt $(OUT)/bpe/valid.$(TGT) \
	    --save $@.tmp --max-minutes $(3) $(4) 2>&1 | tee $(5); \
	mv $@.tmp $@

$(OUT)/peer/model.pt: $(OUT)/bpe/train.$(SRC) $(OUT)/bpe/train.$(TGT) $(OUT)/bpe/valid.$(SRC) $(OUT)/bpe/valid.$(TGT) \
    $(PEER) $(H36_PEER_CONF)
	$(call peer_train,$(OUT)/bpe/train,$(PEER_THREADS),$(TRAIN_MINUTES),$(PEER_OPTS),$(OUT)/log/peer.train.log)

$(OUT)/peer/test.beam%.$(TGT): $(OUT)/peer/model.pt $(OUT)/bpe/test.$(SRC) $(BIN)/nmt-bpe $(BIN)/nmt-detokenize
	OMP_WAIT_POLICY=PASSIVE $(PEER_PYTHON) $(PEER) --threads $(PEER_THREADS) translate --model $< \
	    --beam $* < $(OUT)/bpe/test.$(SRC) 2> $(OUT)/log/peer.decode.beam$*.log | \
	    $(BIN)/nmt-bpe undo | $(BIN)/nmt-detokenize -l $(TGT) > $@.tmp
	mv $@.tmp $@

$(COMPARE)/length.txt $(COMPARE)/length.svg $(COMPARE)/scores.txt &: $(OURS) $(THEIRS) \
    $(RAW)/test.$(SRC) $(RAW)/test.$(TGT) $(BIN)/nmt-by-length $(BIN)/nmt-bleu
	@mkdir -p $(@D)
	{ for system in rnnsearch:$(OURS) pytorch-peer:$(THEIRS); do \
	    echo "-- $${system%%:*}, test, beam $(PEER_BEAM):"; \
	    $(BIN)/nmt-bleu $(RAW)/test.$(TGT) -i $${system#*:} -m bleu chrf -f text; done; } > $(COMPARE)/scores.txt.tmp
	$(BIN)/nmt-by-length -s $(RAW)/test.$(SRC) -r $(RAW)/test.$(TGT) $(LENGTH_OPTS) -i $(OURS) $(THEIRS) \
	    -n rnnsearch pytorch-peer --svg $(COMPARE)/length.svg -q -o $(COMPARE)/length.txt.tmp
	mv $(COMPARE)/scores.txt.tmp $(COMPARE)/scores.txt
	mv $(COMPARE)/length.txt.tmp $(COMPARE)/length.txt
