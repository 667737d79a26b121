# Included by Makefile.pipeline for CONFIG=hansard36: Bahdanau et al. 2015, figures 2 and 3,
# on the Hansard data of pipelines/hansard36.mk (README "The paper's figures").
#
#   make -f Makefile.pipeline -j2 paper    four models and the PyTorch peer, about 100 minutes
#
# RNNsearch-30/-50 (additive attention) and RNNencdec-30/-50 (--attention none, one fixed
# context vector) get the same sizes (MODEL_OPTS), options, vocabularies, seed and time
# (PAPER_MINUTES each, PAPER_THREADS threads), and differ only in the attention and in the
# longest training pair: 30 or 50 words a side, counted as the paper counts them, in the
# tokenized text before BPE (nmt-clean on the cleaned training text, its BPE lines kept
# alongside). Each translates the whole test set with beam PAPER_BEAM; nmt-by-length
# scores them by tokenized source length in buckets of 10 words up to 60+ (figure 2).
# RNNsearch-50 translates the paper's own example and the test lines PAPER_FIGURE_LINES,
# and its attention over words is drawn per sentence (figure 3). With PAPER_PEER=yes the
# PyTorch model of $(NMT_SHARED)/peer trains as RNNsearch-50 (same data, sizes and
# minutes) and is scored in the same table.

PAPER              ?= $(OUT)/paper
PAPER_MINUTES      ?= 25
PAPER_TRAIN_LIMIT  ?= --max-minutes $(PAPER_MINUTES)
# No validation: the whole budget goes to training and the last parameters are the model.
# --max-length 1000 (pieces) leaves the word limit as the only length filter.
PAPER_TRAIN_OPTS   ?= --mini-batch 64 --max-length 1000 --dropout 0.1 --label-smoothing 0.1 --save-freq 500 \
                      --log-freq 500 $(PAPER_TRAIN_LIMIT)
PAPER_THREADS      ?= 1
PAPER_BEAM         ?= 5
PAPER_PEER         ?= yes
PAPER_PEER_OPTS    ?= --emb 256 --enc-hidden 256 --dec-hidden 512 --attn-dim 512 --maxout-dim 256 \
                      --batch-size 64 --max-len 1000 --dropout 0.1 --lr 0.001 --clip 1.0 --log-every 500
PAPER_EXAMPLE      ?= The agreement on the European Economic Area was signed in August 1992.
# Test lines with adjective-noun reordering, picked from the source and reference alone
# (before any model translated them): "federal government" (10 words), "social services,
# public health" (20), "official development assistance ... human rights and
# international trade" (36).
PAPER_FIGURE_LINES ?= 1514 3780 4052

# PAPER_VARIANTS: models beside the paper's four, "name:nmt-train options" items whose names
# read as the paper's (RNNsearch-TAG-N, RNNencdec-TAG-N: the attention from the first word,
# the longest training pair from the number after the last dash), e.g.
# RNNsearch-LN-50:--layer-normalization. Each trains, translates and is scored as the four
# are, its options after theirs, and is a column of figure 2's table; none by default.
PAPER_VARIANTS ?=
PAPER_VARIANT_ITEMS := $(call named_items,$(PAPER_VARIANTS))
ifneq ($(filter !%,$(PAPER_VARIANT_ITEMS)),)
  $(error PAPER_VARIANTS are "name:options" items; $(patsubst !%,%,$(filter !%,$(PAPER_VARIANT_ITEMS))) comes before any name)
endif
PAPER_VARIANT_NAMES := $(call item_names,$(PAPER_VARIANT_ITEMS))
ifneq ($(filter-out RNNsearch-%-30 RNNsearch-%-50 RNNencdec-%-30 RNNencdec-%-50,$(PAPER_VARIANT_NAMES)),)
  $(error PAPER_VARIANTS names must read RNNsearch-TAG-30/50 or RNNencdec-TAG-30/50, got \
    $(filter-out RNNsearch-%-30 RNNsearch-%-50 RNNencdec-%-30 RNNencdec-%-50,$(PAPER_VARIANT_NAMES)))
endif

# The paper's names, in its legend's order, then the variants; the limit is the number
# after the last dash.
PAPER_MODELS := RNNsearch-50 RNNsearch-30 RNNencdec-50 RNNencdec-30 $(PAPER_VARIANT_NAMES)
PAPER_PEER_NAME := PyTorch-RNNsearch-50
PAPER_SYSTEMS := $(PAPER_MODELS) $(if $(filter yes,$(PAPER_PEER)),$(PAPER_PEER_NAME))
# The names in the paper's figure 2 legend, which calls RNNencdec "RNNenc".
PAPER_LEGEND := $(subst RNNencdec,RNNenc,$(PAPER_SYSTEMS))
paper_attention = $(if $(filter RNNsearch-%,$(1)),additive,none)
paper_limit = $(lastword $(subst -, ,$(1)))
PAPER_FIGURES := $(foreach k,$(shell seq $(words x $(PAPER_FIGURE_LINES))),$(PAPER)/figure3/attention.$(k).svg)

PAPER_TRAIN_CONF  := $(call options_file,paper-train,$(MODEL_OPTS) $(PAPER_TRAIN_OPTS) $(PAPER_THREADS))
PAPER_DECODE_CONF := $(call options_file,paper-decode,$(PAPER_BEAM) $(PAPER_THREADS))
PAPER_PEER_CONF   := $(call options_file,paper-peer,$(PAPER_PEER_OPTS) $(PAPER_MINUTES) $(PAPER_THREADS))
PAPER_FIGURE_CONF := $(call options_file,paper-figure,$(PAPER_EXAMPLE) $(PAPER_FIGURE_LINES))
# The systems scored: adding the peer (PAPER_PEER) rescores the table.
PAPER_LENGTH_CONF := $(call options_file,paper-length,$(PAPER_LEGEND))

.PHONY: paper-report
paper-report: $(PAPER)/report.txt
	@cat $<

# ---- Training pairs of at most N words a side ------------------------------------------
# words.SRC/TGT: the tokenized pairs kept; train.SRC/TGT: the same pairs' BPE lines.
$(PAPER)/data/%/train.$(SRC) $(PAPER)/data/%/train.$(TGT) $(PAPER)/data/%/summary.txt: $(OUT)/clean/train.$(SRC) \
    $(OUT)/clean/train.$(TGT) $(OUT)/bpe/train.$(SRC) $(OUT)/bpe/train.$(TGT) $(BIN)/nmt-clean
	@mkdir -p $(@D)
	$(BIN)/nmt-clean -q --summary-file $(@D)/summary.txt \
	    --aligned $(OUT)/bpe/train.$(SRC) $(@D)/train.$(SRC) --aligned $(OUT)/bpe/train.$(TGT) $(@D)/train.$(TGT) \
	    $(OUT)/clean/train $(SRC) $(TGT) $(@D)/words 1 $*

# ---- The four models -------------------------------------------------------------------
# paper_model(name, a variant's options)
define paper_model
$(PAPER)/model.$(1).bin: $(PAPER)/data/$(call paper_limit,$(1))/train.$(SRC) $(PAPER)/data/$(call paper_limit,$(1))/train.$(TGT) \
    $(OUT)/vocab.$(SRC) $(OUT)/vocab.$(TGT) $(BIN)/nmt-train $(PAPER_TRAIN_CONF) \
    $(if $(2),$(call options_file,paper-variant.$(1),$(2)))
	@mkdir -p $(PAPER)/train.$(1) $(OUT)/log
	$$(call start_option,$(PAPER)/train.$(1)/model.bin.ckpt); \
	$(BIN)/nmt-train -t $(PAPER)/data/$(call paper_limit,$(1))/train.$(SRC) $(PAPER)/data/$(call paper_limit,$(1))/train.$(TGT) \
	    -v $(OUT)/vocab.$(SRC) $(OUT)/vocab.$(TGT) --allow-unk -m $(PAPER)/train.$(1)/model.bin $$$$start \
	    --attention $(call paper_attention,$(1)) $(MODEL_OPTS) $(PAPER_TRAIN_OPTS) --threads $(PAPER_THREADS) $(2) 2>&1 | \
	    tee $$$$([ $$$$start = --resume ] && echo -a) $(OUT)/log/paper.train.$(1).log
	cp $(PAPER)/train.$(1)/model.bin $$@.tmp
	mv $$@.tmp $$@
endef
$(foreach m,$(PAPER_MODELS),$(eval $(call paper_model,$(m),$(call item_options,$(PAPER_VARIANT_ITEMS),$(m)))))

# ---- The PyTorch peer as RNNsearch-50 ----------------------------------------------------
$(PAPER)/peer/model.pt: $(PAPER)/data/50/train.$(SRC) $(PAPER)/data/50/train.$(TGT) $(OUT)/bpe/valid.$(SRC) \
    $(OUT)/bpe/valid.$(TGT) $(PEER) $(PAPER_PEER_CONF)
	$(call peer_train,$(PAPER)/data/50/train,$(PAPER_THREADS),$(PAPER_MINUTES),$(PAPER_PEER_OPTS),$(OUT)/log/paper.peer.train.log)

# ---- Test translations with beam PAPER_BEAM --------------------------------------------
$(PAPER)/test.%.bpe: $(PAPER)/model.%.bin $(OUT)/bpe/test.$(SRC) $(BIN)/nmt-decode $(PAPER_DECODE_CONF)
	@mkdir -p $(OUT)/log
	start=$$(date +%s%N); \
	$(BIN)/nmt-decode -m $< -i $(OUT)/bpe/test.$(SRC) -o $@ -b $(PAPER_BEAM) --max-length 0 --threads $(PAPER_THREADS) -q; \
	echo "$$(wc -l < $@) sentences in $$(( ($$(date +%s%N) - start) / 1000000 )) ms, beam $(PAPER_BEAM)," \
	    "$(PAPER_THREADS) threads" > $(OUT)/log/paper.decode.$*.log

$(PAPER)/test.$(PAPER_PEER_NAME).bpe: $(PAPER)/peer/model.pt $(OUT)/bpe/test.$(SRC) $(PAPER_DECODE_CONF)
	@mkdir -p $(OUT)/log
	start=$$(date +%s%N); \
	OMP_WAIT_POLICY=PASSIVE $(PEER_PYTHON) $(PEER) --threads $(PAPER_THREADS) translate --model $< \
	    --beam $(PAPER_BEAM) < $(OUT)/bpe/test.$(SRC) > $@.tmp 2> $(OUT)/log/paper.peer.decode.log; \
	echo "$$(wc -l < $@.tmp) sentences in $$(( ($$(date +%s%N) - start) / 1000000 )) ms, beam $(PAPER_BEAM)," \
	    "$(PAPER_THREADS) threads" > $(OUT)/log/paper.decode.$(PAPER_PEER_NAME).log
	mv $@.tmp $@

$(PAPER)/test.%.$(TGT): $(PAPER)/test.%.bpe $(BIN)/nmt-bpe $(BIN)/nmt-detokenize
	$(BIN)/nmt-bpe undo -i $< | $(BIN)/nmt-detokenize -l $(TGT) > $@.tmp
	mv $@.tmp $@

# ---- Figure 2: BLEU by source length in words ------------------------------------------
$(PAPER)/length.txt $(PAPER)/length.svg &: $(foreach m,$(PAPER_SYSTEMS),$(PAPER)/test.$(m).$(TGT)) \
    $(OUT)/tok/test.$(SRC) $(RAW)/test.$(TGT) $(BIN)/nmt-by-length $(PAPER_LENGTH_CONF)
	$(BIN)/nmt-by-length -s $(OUT)/tok/test.$(SRC) -r $(RAW)/test.$(TGT) --bucket-width 10 --max-length 60 \
	    -i $(foreach m,$(PAPER_SYSTEMS),$(PAPER)/test.$(m).$(TGT)) -n $(PAPER_LEGEND) --svg $(PAPER)/length.svg \
	    -q -o $(PAPER)/length.txt.tmp
	mv $(PAPER)/length.txt.tmp $(PAPER)/length.txt

# ---- Figure 3: RNNsearch-50's attention over the words of its own translations ---------
$(PAPER)/figure3/source.$(SRC): $(RAW)/test.$(SRC) $(PAPER_FIGURE_CONF)
	@mkdir -p $(@D)
	{ printf '%s\n' '$(PAPER_EXAMPLE)'; for n in $(PAPER_FIGURE_LINES); do sed -n "$${n}p" $<; done; } > $@.tmp
	[ $$(grep -c . $@.tmp) -eq $(words x $(PAPER_FIGURE_LINES)) ] || \
	    { echo "PAPER_FIGURE_LINES: $< has no line among $(PAPER_FIGURE_LINES) or one is empty" >&2; exit 1; }
	mv $@.tmp $@

$(PAPER)/figure3/source.bpe: $(PAPER)/figure3/source.$(SRC) $(OUT)/bpe/codes $(BIN)/nmt-tokenize $(BIN)/nmt-bpe $(TOK_CONF)
	$(BIN)/nmt-tokenize -l $(SRC) $(TOKENIZE_OPTS) -i $< | $(BIN)/nmt-bpe apply -c $(OUT)/bpe/codes > $@.tmp
	mv $@.tmp $@

$(PAPER)/figure3/translation.bpe: $(PAPER)/model.RNNsearch-50.bin $(PAPER)/figure3/source.bpe $(BIN)/nmt-decode \
    $(PAPER_DECODE_CONF)
	$(BIN)/nmt-decode -m $< -i $(PAPER)/figure3/source.bpe -o $@ -b $(PAPER_BEAM) --max-length 0 -q

$(PAPER)/figure3/attention.%.svg: $(PAPER)/model.RNNsearch-50.bin $(PAPER)/figure3/source.bpe \
    $(PAPER)/figure3/translation.bpe $(BIN)/nmt-align
	$(BIN)/nmt-align heatmap -m $< -s $(PAPER)/figure3/source.bpe -t $(PAPER)/figure3/translation.bpe --lines $* \
	    --merge words -q -o $@

# ---- The report: what each model saw and reached, the table, the figures ---------------
# From each training log: updates, target tokens seen, epochs (those tokens / an epoch's).
$(PAPER)/training.txt: $(foreach m,$(PAPER_SYSTEMS),$(PAPER)/test.$(m).bpe)
	{ for n in $(sort $(foreach m,$(PAPER_MODELS),$(call paper_limit,$(m)))); do \
	    echo "-- pairs of at most $$n words a side: $$(wc -l < $(PAPER)/data/$$n/train.$(SRC)) of" \
	         "$$(wc -l < $(OUT)/clean/train.$(SRC)) cleaned training pairs"; done; \
	  for m in $(PAPER_MODELS); do \
	    awk -v m=$$m '/^data:/ {tokens = $$6} \
	         /^training ended at update/ {update = $$5; seen = $$0; sub(/ target tokens seen.*/, "", seen); \
	                                      sub(/.* /, "", seen); m2 = $$0; sub(/.* after /, "", m2); minutes = m2 + 0} \
	         END {printf "-- %s: %d updates in %.1f minutes, %.3f epochs, %.0f target tokens seen (%s per epoch)\n", \
	                     m, update, minutes, (tokens > 0 ? seen / tokens : 0), seen, tokens}' \
	        $(OUT)/log/paper.train.$$m.log; done; \
	  $(if $(filter yes,$(PAPER_PEER)),awk '/^training finished/ {print "-- $(PAPER_PEER_NAME): " $$0}' \
	        $(OUT)/log/paper.peer.train.log;) \
	  for m in $(PAPER_SYSTEMS); do echo "-- decoding $$m: $$(cat $(OUT)/log/paper.decode.$$m.log)"; done; \
	} > $@.tmp
	mv $@.tmp $@

$(PAPER)/report.txt: $(PAPER)/length.txt $(PAPER)/training.txt $(PAPER_FIGURES) $(PAPER)/figure3/translation.bpe
	{ echo "== paper: $(SRC) -> $(TGT), RNNsearch against RNNencdec, $(PAPER_MINUTES) minutes each, beam $(PAPER_BEAM)"; \
	  cat $(PAPER)/training.txt; \
	  echo "-- BLEU by source length in tokenized words, test (chart: $(PAPER)/length.svg):"; \
	  cat $(PAPER)/length.txt; \
	  echo "-- figure 3, RNNsearch-50's attention ($(PAPER)/figure3/attention.N.svg):"; \
	  paste -d '\n' $(PAPER)/figure3/source.$(SRC) \
	      <($(BIN)/nmt-bpe undo -i $(PAPER)/figure3/translation.bpe | $(BIN)/nmt-detokenize -l $(TGT)) | \
	      awk 'NR % 2 {printf "   %d. %s\n", (NR + 1) / 2, $$0; next} {print "      -> " $$0}'; \
	} > $@.tmp
	mv $@.tmp $@
