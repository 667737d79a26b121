# Included by Makefile.pipeline for CONFIG=hansards-align: attention word alignments on
# the English-French Hansards against the HLT-NAACL 2003 gold links, beside fast_align's
# model (nmt-align ibm2) on the same data (README "Word alignments on the Hansards").
#
#   make -f Makefile.pipeline hansards-align        the whole study, about 1 hour with -j2
#
# Stages: the corpus prepared as $(HANSARDS_DIR)/README.md describes (tokenized, lowercased,
# accents folded; the 37 dev and 447 test sentences appended) -> joint BPE -> IBM Model 2
# both ways and its symmetrizations -> an En->Fr and a Fr->En model trained without
# guidance (ROUND1_MINUTES) -> each fine-tuned with guided alignment towards the IBM
# links (GUIDE_SYMMETRIZATION, GUIDED_MINUTES) -> an alignment head (nmt-train
# --alignment-head HEAD_DIM: an attention that also reads the emitted word) trained on the
# same links over each frozen guided model (HEAD_MINUTES) -> pipelines/alignment-study.sh
# on the three pairs of models (every extraction rule chosen on dev) -> the report.

HANSARDS_DIR ?= $(NMT_SHARED)/data/hansards
GOLD_LINES   := 484
DEV_LINES    := 37
H_CORPUS_CONF := $(call options_file,hansards-corpus,$(HANSARDS_DIR))
H_TRAIN_CONF  := $(call options_file,hansards-train,$(MODEL_OPTS) $(ALIGN_TRAIN_OPTS) $(ROUND1_MINUTES))
H_GUIDE_CONF  := $(call options_file,hansards-guide,$(GUIDE_SYMMETRIZATION) $(GUIDE_WEIGHT) $(GUIDED_MINUTES))
H_HEAD_CONF   := $(call options_file,hansards-head,$(HEAD_DIM) $(HEAD_MINUTES))

.PHONY: hansards-report
hansards-report: $(OUT)/alignment-report.txt
	@cat $<

# ---- Data ----------------------------------------------------------------------------
# Corpus lines tokenized, then (as the gold sentences, which come tokenized) lowercased
# and accent-folded; the dev then test sentences after the corpus.
$(OUT)/tok/train.%: $(HANSARDS_DIR)/hansards.%.gz $(HANSARDS_DIR)/wpt03/dev.% $(HANSARDS_DIR)/wpt03/test.% \
    $(BIN)/nmt-tokenize $(H_CORPUS_CONF)
	@mkdir -p $(@D)
	{ zcat $< | $(BIN)/nmt-tokenize -l $* --no-escape; cat $(HANSARDS_DIR)/wpt03/dev.$* $(HANSARDS_DIR)/wpt03/test.$*; } | \
	    $(BIN)/nmt-tokenize --tokenized --lowercase --fold-accents > $@.tmp
	mv $@.tmp $@

# The study's data: the appended lines, BPE'd, split into dev and test, with their gold.
$(OUT)/gold/dev.% $(OUT)/gold/test.%: $(OUT)/bpe/train.%
	@mkdir -p $(@D)
	tail -n $(GOLD_LINES) $< | sed -n 1,$(DEV_LINES)p > $(OUT)/gold/dev.$*.tmp
	tail -n $$(($(GOLD_LINES) - $(DEV_LINES))) $< > $(OUT)/gold/test.$*.tmp
	mv $(OUT)/gold/dev.$*.tmp $(OUT)/gold/dev.$*
	mv $(OUT)/gold/test.$*.tmp $(OUT)/gold/test.$*

$(OUT)/gold/dev.gold: $(HANSARDS_DIR)/wpt03/dev.gold.en-fr
	@mkdir -p $(@D)
	cp $< $@

$(OUT)/gold/test.gold: $(HANSARDS_DIR)/wpt03/test.gold.en-fr
	@mkdir -p $(@D)
	cp $< $@

GOLD_DATA := $(foreach s,dev test,$(foreach x,$(SRC) $(TGT) gold,$(OUT)/gold/$(s).$(x)))

# ---- IBM Model 2 (fast_align -d -o -v) over the tokenized words ----------------------
$(OUT)/ibm2/forward: $(OUT)/tok/train.$(SRC) $(OUT)/tok/train.$(TGT) $(BIN)/nmt-align
	@mkdir -p $(@D) $(OUT)/log
	{ time $(BIN)/nmt-align ibm2 -s $(OUT)/tok/train.$(SRC) -t $(OUT)/tok/train.$(TGT) -o $@; } 2> $(OUT)/log/ibm2.forward.log

$(OUT)/ibm2/reverse: $(OUT)/tok/train.$(SRC) $(OUT)/tok/train.$(TGT) $(BIN)/nmt-align
	@mkdir -p $(@D) $(OUT)/log
	{ time $(BIN)/nmt-align ibm2 -r -s $(OUT)/tok/train.$(SRC) -t $(OUT)/tok/train.$(TGT) -o $@; } 2> $(OUT)/log/ibm2.reverse.log

$(foreach h,$(SYMMETRIZATIONS),$(OUT)/ibm2/$(h)): $(OUT)/ibm2/%: $(OUT)/ibm2/forward $(OUT)/ibm2/reverse
	$(BIN)/nmt-align symmetrize -i $(OUT)/ibm2/forward -j $(OUT)/ibm2/reverse -c $* -o $@

# P, R and AER of the IBM links on the dev and test lines, as the study prints them.
$(OUT)/ibm2/study.txt: $(foreach a,forward reverse $(SYMMETRIZATIONS),$(OUT)/ibm2/$(a)) $(GOLD_DATA)
	{ printf '%-58s %8s %8s %8s %8s\n' "alignment" "dev AER" "test P" "test R" "test AER"; \
	  for a in forward reverse $(SYMMETRIZATIONS); do \
	    dev=$$(tail -n $(GOLD_LINES) $(OUT)/ibm2/$$a | sed -n 1,$(DEV_LINES)p | \
	      $(BIN)/nmt-align eval -g $(OUT)/gold/dev.gold -a /dev/stdin | awk '/^AER/ {print $$2}'); \
	    tail -n $$(($(GOLD_LINES) - $(DEV_LINES))) $(OUT)/ibm2/$$a | \
	      $(BIN)/nmt-align eval -g $(OUT)/gold/test.gold -a /dev/stdin | \
	      awk -v a=$$a -v d=$$dev '/^precision/ {p=$$2} /^recall/ {r=$$2} /^AER/ {e=$$2} \
	                               END {printf "%-58s %8s %8s %8s %8s\n", a, d, p, r, e}'; \
	  done; } > $@.tmp
	mv $@.tmp $@

# The guide of the En->Fr model, and the same links target first for Fr->En.
$(OUT)/ibm2/guide.$(FWD).align: $(OUT)/ibm2/$(GUIDE_SYMMETRIZATION) $(H_GUIDE_CONF)
	cp $< $@

$(OUT)/ibm2/guide.$(REV).align: $(OUT)/ibm2/guide.$(FWD).align
	sed -E 's/([0-9]+)-([0-9]+)/\2-\1/g' $< > $@.tmp
	mv $@.tmp $@

# ---- Models --------------------------------------------------------------------------
# align_model(name, src, tgt, options, minutes, extra prerequisites): $(OUT)/name.src-tgt.bin,
# resumed from its checkpoint when one is newer than every input.
define align_model
$(OUT)/$(1).$(2)-$(3).bin: $(OUT)/bpe/train.$(2) $(OUT)/bpe/train.$(3) $(OUT)/vocab.$(2) $(OUT)/vocab.$(3) \
    $(BIN)/nmt-train $(H_TRAIN_CONF) $(6)
	@mkdir -p $(OUT)/$(1).$(2)-$(3) $(OUT)/log
	$$(call start_option,$(OUT)/$(1).$(2)-$(3)/model.bin.ckpt); \
	$(BIN)/nmt-train -t $(OUT)/bpe/train.$(2) $(OUT)/bpe/train.$(3) -v $(OUT)/vocab.$(2) $(OUT)/vocab.$(3) \
	    -m $(OUT)/$(1).$(2)-$(3)/model.bin $$$$start $(MODEL_OPTS) $(ALIGN_TRAIN_OPTS) --max-minutes $(5) \
	    --threads $(ALIGN_THREADS) $(4) 2>&1 | tee $(OUT)/log/$(1).$(2)-$(3).log
	cp $(OUT)/$(1).$(2)-$(3)/model.bin $$@.tmp
	mv $$@.tmp $$@
endef
$(eval $(call align_model,unguided,$(SRC),$(TGT),,$(ROUND1_MINUTES)))
$(eval $(call align_model,unguided,$(TGT),$(SRC),,$(ROUND1_MINUTES)))
$(eval $(call align_model,guided,$(SRC),$(TGT),--pretrained-model $(OUT)/unguided.$(FWD).bin \
    --guided-alignment $(OUT)/ibm2/guide.$(FWD).align --guided-alignment-weight $(GUIDE_WEIGHT),$(GUIDED_MINUTES),\
    $(OUT)/unguided.$(FWD).bin $(OUT)/ibm2/guide.$(FWD).align $(H_GUIDE_CONF)))
$(eval $(call align_model,guided,$(TGT),$(SRC),--pretrained-model $(OUT)/unguided.$(REV).bin \
    --guided-alignment $(OUT)/ibm2/guide.$(REV).align --guided-alignment-weight $(GUIDE_WEIGHT),$(GUIDED_MINUTES),\
    $(OUT)/unguided.$(REV).bin $(OUT)/ibm2/guide.$(REV).align $(H_GUIDE_CONF)))
# The alignment heads: trained alone, on the same links, over the frozen guided models.
$(eval $(call align_model,head,$(SRC),$(TGT),--pretrained-model $(OUT)/guided.$(FWD).bin --alignment-head $(HEAD_DIM) \
    --guided-alignment $(OUT)/ibm2/guide.$(FWD).align --guided-alignment-weight 1,$(HEAD_MINUTES),\
    $(OUT)/guided.$(FWD).bin $(OUT)/ibm2/guide.$(FWD).align $(H_HEAD_CONF)))
$(eval $(call align_model,head,$(TGT),$(SRC),--pretrained-model $(OUT)/guided.$(REV).bin --alignment-head $(HEAD_DIM) \
    --guided-alignment $(OUT)/ibm2/guide.$(REV).align --guided-alignment-weight 1,$(HEAD_MINUTES),\
    $(OUT)/guided.$(REV).bin $(OUT)/ibm2/guide.$(REV).align $(H_HEAD_CONF)))

# ---- The study: extraction rules chosen on dev, every variant scored on test ---------
$(OUT)/study.%/study.txt: $(OUT)/%.$(FWD).bin $(OUT)/%.$(REV).bin $(GOLD_DATA) $(BIN)/nmt-align \
    pipelines/alignment-study.sh
	rm -rf $(@D)
	NMT_BIN=$(BIN) pipelines/alignment-study.sh -f $(OUT)/$*.$(FWD).bin -r $(OUT)/$*.$(REV).bin \
	    -d $(OUT)/gold -s $(SRC) -t $(TGT) -o $(@D).tmp > /dev/null
	mv $(@D).tmp $(@D)

# The final variants of each system (each direction with its dev-chosen rules, the
# symmetrizations, the soft combination) and the training time of every model.
FINAL_ROWS := '^(forward|reverse|intersect|union|grow-diag|grow-diag-final|grow-diag-final-and|combine) '
$(OUT)/alignment-report.txt: $(OUT)/ibm2/study.txt $(foreach s,unguided guided head,$(OUT)/study.$(s)/study.txt)
	{ echo "== hansards-align: $(SRC)-$(TGT) word alignments, $(HANSARDS_DIR)/wpt03 gold" \
	       "(dev $(DEV_LINES) sentences chooses, test $$(($(GOLD_LINES) - $(DEV_LINES))) reports)"; \
	  echo "-- IBM Model 2 (nmt-align ibm2, fast_align -d -o -v), guide = $(GUIDE_SYMMETRIZATION):"; \
	  cat $(OUT)/ibm2/study.txt; \
	  for s in unguided guided head; do \
	    echo "-- attention, $$s models (rules: forward $$(cat $(OUT)/study.$$s/rules.forward)," \
	         "reverse $$(cat $(OUT)/study.$$s/rules.reverse), combine threshold $$(cat $(OUT)/study.$$s/combine.threshold)):"; \
	    head -n 1 $(OUT)/study.$$s/study.txt; grep -E $(FINAL_ROWS) $(OUT)/study.$$s/study.txt; \
	  done; \
	  echo "-- training (wall time from the logs):"; \
	  for m in unguided.$(FWD) unguided.$(REV) guided.$(FWD) guided.$(REV) head.$(FWD) head.$(REV); do \
	    echo "$$m: $$(grep -E '^training ended' $(OUT)/log/$$m.log | tail -n 1)"; done; \
	  echo "-- every rule tried: $(OUT)/study.{unguided,guided,head}/study.txt"; } > $@.tmp
	mv $@.tmp $@
