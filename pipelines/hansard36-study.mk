# Included by Makefile.pipeline for CONFIG=hansard36: a study at equal cost on the data of
# pipelines/hansard36.mk (its corpus, tokenization, cleaning, BPE and vocabularies).
#
#   make -f Makefile.pipeline -j2 hansard36-study   every variant for STUDY_MINUTES on one thread
#                                                   each, two at a time on two cores
#
# STUDY_VARIANTS: "name:nmt-train options" items, each starting at a word that holds a colon
# (base: ln:--layer-normalization dt:--enc-cell-depth 2 --dec-cell-depth 2). Every variant
# gets the configuration's sizes (MODEL_OPTS), STUDY_TRAIN_OPTS (the hansard36 training
# without validation: the whole budget goes to training, the last parameters are the model),
# its own options, STUDY_MINUTES of training and STUDY_THREADS threads. Each translates the
# valid and test sets with beam STUDY_BEAM on STUDY_THREADS threads (STUDY_PRECISION, fp32 by
# default: the hansard36 configuration has no shortlist, STUDY_SHORTLIST=yes makes one);
# BLEU and chrF of both (detokenized, cased); BLEU by source length on test, every system a
# column (nmt-by-length: length.txt, length.svg).
# With MARIAN_BUILD (or MARIAN_DIR) set, scripts/bench-marian.sh trains each MARIAN_SYSTEMS
# item ("name:Marian options", same syntax) on the same BPE'd text and vocabularies for the
# same minutes and threads, translated and scored the same way. The table (table.txt): one
# row per system, the variant with the best valid BLEU marked as the pick (Marian's rows are
# beside it, not candidates), its test figures to report.

STUDY             ?= $(OUT)/study
STUDY_MINUTES     ?= 20
STUDY_THREADS     ?= 1
STUDY_BEAM        ?= 5
STUDY_VARIANTS    ?= base: ln:--layer-normalization dt:--enc-cell-depth 2 --dec-cell-depth 2 \
                     ln-dt:--layer-normalization --enc-cell-depth 2 --dec-cell-depth 2
STUDY_TRAIN_OPTS  ?= --mini-batch 64 --max-length 80 --dropout 0.1 --label-smoothing 0.1 --save-freq 500 \
                     --log-freq 500 --early-stopping 0 --final-model last
# Decoding: STUDY_PRECISION (nmt-decode --precision: fp32, int8, bf16, auto), with
# STUDY_SHORTLIST=yes a lexical shortlist (nmt-align ibm2 on the first STUDY_SHORTLIST_PAIRS
# BPE'd training pairs, then nmt-shortlist STUDY_SHORTLIST_OPTS), and STUDY_DECODE_OPTS. The
# default is the fastest decoding, int8 with the shortlist of the decoding benchmarks
# (nmt-shortlist --first 500 --best 20), as a user would deploy a model.
STUDY_PRECISION   ?= int8
STUDY_SHORTLIST   ?= yes
STUDY_SHORTLIST_PAIRS ?= 200000
STUDY_SHORTLIST_OPTS  ?= --first 500 --best 20
STUDY_DECODE_OPTS ?= --max-length 0
# Marian's RNNs (scripts/bench-marian.sh: --dim-emb 256 --dim-rnn 256 and our training options
# by default): s2s (the conditional GRU, as our --dec-cell-depth 2) and amun at our sizes; s2s
# with layer normalisation and deep transition 2 as our ln-dt (Marian's --dec-cell-base-depth
# is our --dec-cell-depth); and s2s as the Edinburgh WMT17 systems built it (layer
# normalisation, deep transition 4 in the encoder and 8 in the decoder, tied target
# embeddings, exponential smoothing) with batches of STUDY_MARIAN_BATCH_WORDS target tokens
# (64 sentences of hansard36's mean target length with </s>, as our batches).
STUDY_MARIAN_BATCH_WORDS ?= 1300
MARIAN_SYSTEMS    ?= s2s:--type s2s amun:--type amun \
                     s2s-ln-dt:--type s2s --layer-normalization --enc-cell-depth 2 --dec-cell-base-depth 2 \
                     s2s-wmt17:--type s2s --layer-normalization --enc-cell-depth 4 --dec-cell-base-depth 8 \
                     --tied-embeddings --exponential-smoothing --mini-batch 1000 \
                     --mini-batch-words $(STUDY_MARIAN_BATCH_WORDS)
STUDY_MARIAN_BUILD := $(or $(MARIAN_BUILD),$(if $(MARIAN_DIR),$(MARIAN_DIR)/build))


STUDY_ITEMS  := $(call named_items,$(STUDY_VARIANTS))
STUDY_NAMES  := $(call item_names,$(STUDY_ITEMS))
MARIAN_ITEMS := $(if $(STUDY_MARIAN_BUILD),$(call named_items,$(MARIAN_SYSTEMS)))
MARIAN_NAMES := $(addprefix marian-,$(call item_names,$(MARIAN_ITEMS)))
ifneq ($(filter !%,$(STUDY_ITEMS) $(MARIAN_ITEMS)),)
  $(error STUDY_VARIANTS and MARIAN_SYSTEMS are "name:options" items; $(patsubst !%,%,$(filter !%,$(STUDY_ITEMS) \
    $(MARIAN_ITEMS))) comes before any name:)
endif
ifeq ($(STUDY_NAMES),)
  $(error STUDY_VARIANTS names no variant: give "name:options" items, e.g. base: ln:--layer-normalization)
endif
ifneq ($(words $(STUDY_NAMES) $(MARIAN_NAMES)),$(words $(sort $(STUDY_NAMES) $(MARIAN_NAMES))))
  $(error STUDY_VARIANTS and MARIAN_SYSTEMS name a system twice: $(STUDY_NAMES) $(MARIAN_NAMES))
endif

STUDY_SYSTEMS     := $(STUDY_NAMES) $(MARIAN_NAMES)
STUDY_SHORTLIST_FILE := $(if $(filter yes,$(STUDY_SHORTLIST)),$(STUDY)/shortlist)
STUDY_DECODE_FLAGS := $(strip --precision $(STUDY_PRECISION) \
                      $(if $(STUDY_SHORTLIST_FILE),--shortlist $(STUDY_SHORTLIST_FILE)) $(STUDY_DECODE_OPTS))
STUDY_DECODE_CONF := $(call options_file,study-decode,$(STUDY_BEAM) $(STUDY_DECODE_FLAGS) $(STUDY_THREADS))
STUDY_SHORTLIST_CONF := $(call options_file,study-shortlist,$(STUDY_SHORTLIST_PAIRS) $(STUDY_SHORTLIST_OPTS))
STUDY_LENGTH_CONF := $(call options_file,study-length,$(STUDY_SYSTEMS) $(LENGTH_OPTS))
# The test translation of a system: ours, or Marian's fp32 one.
study_test = $(STUDY)/$(1)/$(if $(filter marian-%,$(1)),test.fp32,test).$(TGT)

# study-prep: only the data (corpus, tokenization, cleaning, BPE, vocabularies), both
# sides of every set, as the hansard36 and paper targets read them too: to prepare them
# ahead on one core.
STUDY_DATA := $(foreach l,$(SRC) $(TGT),$(OUT)/vocab.$(l) $(foreach s,train valid test,$(OUT)/bpe/$(s).$(l) \
              $(if $(filter train,$(s)),,$(RAW)/$(s).$(l))))

.PHONY: study-report study-prep
study-prep: $(STUDY_DATA)

study-report: $(STUDY)/table.txt $(STUDY)/length.txt
	@cat $(STUDY)/table.txt
	@echo "-- BLEU by source length, test, beam $(STUDY_BEAM) (chart: $(STUDY)/length.svg):"
	@cat $(STUDY)/length.txt

# ---- Our variants: trained for the same minutes, one thread each ------------------------
# train-model.sh keeps a finished model of the same options and resumes an interrupted run.
define study_variant
$(STUDY)/$(1)/model.bin: $(OUT)/bpe/train.$(SRC) $(OUT)/bpe/train.$(TGT) $(OUT)/vocab.$(SRC) $(OUT)/vocab.$(TGT) \
    $(call options_file,study-train.$(1),$(MODEL_OPTS) $(STUDY_TRAIN_OPTS) $(STUDY_MINUTES) $(STUDY_THREADS) $(2)) \
    | $(BIN)/nmt-train
	pipelines/stages/train-model.sh $$@ $$(filter %.opts,$$^) $(OUT)/log/study.$(1).train.log "$$(filter-out %.opts,$$^)" \
	    $(BIN)/nmt-train -t $(OUT)/bpe/train.$(SRC) $(OUT)/bpe/train.$(TGT) -v $(OUT)/vocab.$(SRC) $(OUT)/vocab.$(TGT) \
	    --allow-unk -m $(STUDY)/$(1)/train/model.bin $(MODEL_OPTS) $(STUDY_TRAIN_OPTS) --max-minutes $(STUDY_MINUTES) \
	    --threads $(STUDY_THREADS) $(2)
endef
$(foreach n,$(STUDY_NAMES),$(eval $(call study_variant,$(n),$(call item_options,$(STUDY_ITEMS),$(n)))))

# The shortlist (STUDY_SHORTLIST=yes): IBM Model 2 on the first training pairs, then the
# most frequent target pieces and each source piece's best translations.
$(STUDY)/shortlist: $(OUT)/bpe/train.$(SRC) $(OUT)/bpe/train.$(TGT) $(OUT)/vocab.$(TGT) $(BIN)/nmt-align \
    $(BIN)/nmt-shortlist $(STUDY_SHORTLIST_CONF)
	@mkdir -p $(STUDY)/lex
	head -n $(STUDY_SHORTLIST_PAIRS) $(OUT)/bpe/train.$(SRC) > $(STUDY)/lex/train.$(SRC)
	head -n $(STUDY_SHORTLIST_PAIRS) $(OUT)/bpe/train.$(TGT) > $(STUDY)/lex/train.$(TGT)
	$(BIN)/nmt-align ibm2 -s $(STUDY)/lex/train.$(SRC) -t $(STUDY)/lex/train.$(TGT) --save-table $(STUDY)/lex/table \
	    -q -o /dev/null
	$(BIN)/nmt-shortlist --table $(STUDY)/lex/table --target-vocab $(OUT)/vocab.$(TGT) $(STUDY_SHORTLIST_OPTS) -o $@

# study_set(set): a variant's translation of set (its time in decode.set.log), BPE undone and
# detokenized, and its BLEU and chrF.
define study_set
$(STUDY)/%/$(1).bpe: $(STUDY)/%/model.bin $(OUT)/bpe/$(1).$(SRC) $(BIN)/nmt-decode $(STUDY_DECODE_CONF) \
    $(STUDY_SHORTLIST_FILE)
	start=$$$$(date +%s%N); \
	$(BIN)/nmt-decode -m $$< -i $(OUT)/bpe/$(1).$(SRC) -o $$@ -b $(STUDY_BEAM) $(STUDY_DECODE_FLAGS) \
	    --threads $(STUDY_THREADS) -q; \
	echo "$$$$(wc -l < $$@) sentences in $$$$(( ($$$$(date +%s%N) - start) / 1000000 )) ms, beam $(STUDY_BEAM)," \
	    "$(STUDY_THREADS) threads" > $$(@D)/decode.$(1).log

$(STUDY)/%/$(1).$(TGT): $(STUDY)/%/$(1).bpe $(BIN)/nmt-bpe $(BIN)/nmt-detokenize
	$(BIN)/nmt-bpe undo -i $$< | $(BIN)/nmt-detokenize -l $(TGT) > $$@.tmp
	mv $$@.tmp $$@

$(STUDY)/%/$(1).scores: $(STUDY)/%/$(1).$(TGT) $(RAW)/$(1).$(TGT) $(BIN)/nmt-bleu
	$(BIN)/nmt-bleu $(RAW)/$(1).$(TGT) -i $$< -m bleu chrf -f text > $$@.tmp
	mv $$@.tmp $$@
endef
$(foreach s,valid test,$(eval $(call study_set,$(s))))

# ---- Marian: scripts/bench-marian.sh, the same data, minutes, threads and beam -----------
define study_marian
$(STUDY)/$(1)/summary.txt $(STUDY)/$(1)/test.fp32.$(TGT) &: $(OUT)/bpe/train.$(SRC) $(OUT)/bpe/train.$(TGT) \
    $(OUT)/vocab.$(SRC) $(OUT)/vocab.$(TGT) $(foreach s,valid test,$(OUT)/bpe/$(s).$(SRC) $(RAW)/$(s).$(TGT)) \
    $(BIN)/nmt-bpe $(BIN)/nmt-detokenize $(BIN)/nmt-bleu scripts/bench-marian.sh \
    $(call options_file,study-$(1),$(STUDY_MARIAN_BUILD) $(STUDY_MINUTES) $(STUDY_THREADS) $(STUDY_BEAM) $(2))
	@mkdir -p $(OUT)/log
	MARIAN_BUILD=$(STUDY_MARIAN_BUILD) scripts/bench-marian.sh run --data $(OUT) --out $(STUDY)/$(1) --name $(1) \
	    --src $(SRC) --tgt $(TGT) --minutes $(STUDY_MINUTES) --threads $(STUDY_THREADS) --beam $(STUDY_BEAM) \
	    --sets "valid test" --bin $(BIN) -- $(2) 2>&1 | tee $(OUT)/log/study.$(1).log
endef
$(foreach n,$(MARIAN_NAMES),$(eval $(call study_marian,$(n),$(call item_options,$(MARIAN_ITEMS),$(n:marian-%=%)))))

# ---- BLEU by source length, every system a column ----------------------------------------
$(STUDY)/length.txt $(STUDY)/length.svg &: $(foreach n,$(STUDY_SYSTEMS),$(call study_test,$(n))) \
    $(RAW)/test.$(SRC) $(RAW)/test.$(TGT) $(BIN)/nmt-by-length $(STUDY_LENGTH_CONF)
	$(BIN)/nmt-by-length -s $(RAW)/test.$(SRC) -r $(RAW)/test.$(TGT) $(LENGTH_OPTS) \
	    -i $(foreach n,$(STUDY_SYSTEMS),$(call study_test,$(n))) -n $(STUDY_SYSTEMS) --svg $(STUDY)/length.svg \
	    -q -o $(STUDY)/length.txt.tmp
	mv $(STUDY)/length.txt.tmp $(STUDY)/length.txt

# ---- The table ---------------------------------------------------------------------------
# One row per system (pipelines/stages/study-table.sh reads the training logs, the decoding
# times, the scores and Marian's summaries).
$(STUDY)/table.txt: $(foreach n,$(STUDY_NAMES),$(foreach s,valid test,$(STUDY)/$(n)/$(s).scores)) \
    $(foreach n,$(MARIAN_NAMES),$(STUDY)/$(n)/summary.txt) pipelines/stages/study-table.sh
	pipelines/stages/study-table.sh --study $(STUDY) --logs $(OUT)/log --minutes $(STUDY_MINUTES) \
	    --threads $(STUDY_THREADS) --beam $(STUDY_BEAM) --decode-options "$(STUDY_DECODE_FLAGS)" \
	    --marian "$(if $(STUDY_MARIAN_BUILD),$(STUDY_MARIAN_BUILD))" \
	    $(foreach w,$(STUDY_ITEMS),'$(subst |, ,$(w))') $(foreach n,$(MARIAN_NAMES),'$(n)') > $@.tmp
	mv $@.tmp $@
