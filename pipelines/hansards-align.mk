# Included by Makefile.pipeline for CONFIG=hansards-align and CONFIG=hansard36-align:
# attention word alignments on English-French Hansards against the HLT-NAACL 2003 gold
# links, beside fast_align's model (nmt-align ibm2) on the same data (README "Word
# alignments on the Hansards" and "Word alignments at scale").
#
#   make -f Makefile.pipeline -j2 hansards-align    48,959 pairs, about 1 hour
#   make -f Makefile.pipeline -j2 hansard36-align   1,021,889 pairs, about 1 hour
#
# Stages: the corpus $(ALIGN_CORPUS).{en,fr}.gz tokenized (ALIGN_TOKENIZE_OPTS, and
# ALIGN_TOKENIZE_OPTS_<language>), the 37 dev and 447 test sentences appended, all lines
# normalized alike (ALIGN_NORMALIZE_OPTS: for hansards-align lowercased and accents folded
# as $(HANSARDS_DIR)/README.md prepares it for fast_align) -> joint BPE -> IBM Model 2
# both ways and its symmetrizations -> an En->Fr and a Fr->En model trained without
# guidance (ROUND1_MINUTES) -> each fine-tuned with guided alignment towards the IBM
# links (GUIDE_SYMMETRIZATION, GUIDED_MINUTES) -> an alignment head (nmt-train
# --alignment-head HEAD_DIM: an attention that also reads the emitted word) trained on
# IBM links (HEAD_SYMMETRIZATION) over each frozen guided model (HEAD_MINUTES), and any
# HEAD_VARIANTS -> pipelines/alignment-study.sh on each pair of models (every extraction
# rule chosen on dev) -> the heads' soft combination merged with IBM Model 2's links
# (the merge chosen on dev) -> the report.

HANSARDS_DIR         ?= $(NMT_SHARED)/data/hansards
ALIGN_CORPUS         ?= $(HANSARDS_DIR)/hansards
ALIGN_TOKENIZE_OPTS  ?= --no-escape
ALIGN_NORMALIZE_OPTS ?= --lowercase --fold-accents
GOLD_LINES   := 484
DEV_LINES    := 37
H_TRAIN_CONF  := $(call options_file,hansards-train,$(MODEL_OPTS) $(ALIGN_TRAIN_OPTS) $(ROUND1_MINUTES))
H_GUIDE_CONF  := $(call options_file,hansards-guide,$(GUIDE_SYMMETRIZATION) $(GUIDE_WEIGHT) $(GUIDED_MINUTES))
HEAD_SYMMETRIZATION ?= $(GUIDE_SYMMETRIZATION)
comma := ,

.PHONY: hansards-report
hansards-report: $(OUT)/alignment-report.txt
	@cat $<

# ---- Data ----------------------------------------------------------------------------
# prepared_corpus(dir, prefix): dir/tok/train.{SRC,TGT}: the corpus lines (the first
# ALIGN_LINES of them when set) tokenized with $(prefix)_TOKENIZE_OPTS and
# $(prefix)_TOKENIZE_OPTS_<language>, the dev then test gold sentences after them (they come
# tokenized), and every line normalized alike with $(prefix)_NORMALIZE_OPTS.
ALIGN_LINES ?=
# sed reads to the end, so zcat never writes to a closed pipe.
first_lines = $(if $(ALIGN_LINES),| sed -n '1$(comma)$(ALIGN_LINES)p')
define prepared_corpus
$(1)/tok/train.%: $(ALIGN_CORPUS).%.gz $(HANSARDS_DIR)/wpt03/dev.% $(HANSARDS_DIR)/wpt03/test.% \
    $(BIN)/nmt-tokenize $(call options_file,$(2)-corpus,$(HANSARDS_DIR) $(ALIGN_CORPUS) $(ALIGN_LINES) \
    $($(2)_TOKENIZE_OPTS) en: $($(2)_TOKENIZE_OPTS_en) fr: $($(2)_TOKENIZE_OPTS_fr) $($(2)_NORMALIZE_OPTS))
	@mkdir -p $$(@D)
	{ zcat $$< $(first_lines) | $(BIN)/nmt-tokenize -l $$* $$($(2)_TOKENIZE_OPTS) $$($(2)_TOKENIZE_OPTS_$$*) --threads $(THREADS) -q; \
	  cat $(HANSARDS_DIR)/wpt03/dev.$$* $(HANSARDS_DIR)/wpt03/test.$$*; } | \
	    $(BIN)/nmt-tokenize -l $$* --tokenized $$($(2)_NORMALIZE_OPTS) --threads $(THREADS) -q > $$@.tmp
	mv $$@.tmp $$@
endef
$(eval $(call prepared_corpus,$(OUT),ALIGN))

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

GOLD_LINKS := $(OUT)/gold/dev.gold $(OUT)/gold/test.gold
GOLD_DATA := $(foreach s,dev test,$(foreach x,$(SRC) $(TGT),$(OUT)/gold/$(s).$(x))) $(GOLD_LINKS)

# ---- IBM Model 2 (fast_align -d -o -v) over the tokenized words ----------------------
# ibm2_links(dir): dir/ibm2/{forward,reverse} and their symmetrizations, from
# dir/tok/train.*, and dir/ibm2/study.txt, their scores on the gold lines.
ALIGN_SYMMETRIZATIONS := $(SYMMETRIZATIONS) grow-diag-and
define ibm2_links
$(1)/ibm2/forward: $(1)/tok/train.$(SRC) $(1)/tok/train.$(TGT) $(BIN)/nmt-align
	@mkdir -p $$(@D) $(1)/log
	{ time $(BIN)/nmt-align ibm2 -s $(1)/tok/train.$(SRC) -t $(1)/tok/train.$(TGT) -o $$@; } 2> $(1)/log/ibm2.forward.log

$(1)/ibm2/reverse: $(1)/tok/train.$(SRC) $(1)/tok/train.$(TGT) $(BIN)/nmt-align
	@mkdir -p $$(@D) $(1)/log
	{ time $(BIN)/nmt-align ibm2 -r -s $(1)/tok/train.$(SRC) -t $(1)/tok/train.$(TGT) -o $$@; } 2> $(1)/log/ibm2.reverse.log

$(foreach h,$(ALIGN_SYMMETRIZATIONS),$(1)/ibm2/$(h)): $(1)/ibm2/%: $(1)/ibm2/forward $(1)/ibm2/reverse
	$(BIN)/nmt-align symmetrize -i $(1)/ibm2/forward -j $(1)/ibm2/reverse -c $$* -o $$@

$(1)/ibm2/study.txt: $(foreach a,forward reverse $(ALIGN_SYMMETRIZATIONS),$(1)/ibm2/$(a)) $(GOLD_LINKS) \
    pipelines/alignment-scores.sh
	NMT_BIN=$(BIN) pipelines/alignment-scores.sh -d $(OUT)/gold/dev.gold -t $(OUT)/gold/test.gold \
	    $(foreach a,forward reverse $(ALIGN_SYMMETRIZATIONS),$(a)=$(1)/ibm2/$(a)) > $$@.tmp
	mv $$@.tmp $$@
endef
$(eval $(call ibm2_links,$(OUT)))

# ---- HMM aligners trained by agreement (nmt-align hmm) --------------------------------
# Trained once on dir/tok/train.* (its parameters saved), then every candidate's links read
# off the whole corpus with the saved parameters: each direction's (posterior HMM_THRESHOLD),
# their symmetrizations HMM_SYMMETRIZATIONS, and the agreed links (the product of the two
# directions' posteriors) at each of HMM_AGREED_THRESHOLDS, the same thinned by competitive
# thresholding at each of HMM_COMPETITIVE_THRESHOLDS (agreed-ct-T), and the mean of the two
# posteriors at each of HMM_AVERAGE_THRESHOLDS (average-T). The candidate best on the 37 dev
# sentences is $(OUT)/hmm/chosen, a teacher the guides and heads can learn from
# (GUIDE_SYMMETRIZATION or HEAD_SYMMETRIZATION = hmm); the study also names the one best on
# Liang et al.'s 137 (alignment-scores.sh), whose test figures are those of the last 347.
HMM_OPTS              ?=
HMM_PARAMS_THRESHOLD  ?= 1e-4
HMM_THRESHOLD         ?= 0.5
HMM_SYMMETRIZATIONS   ?= intersect grow-diag grow-diag-and
HMM_AGREED_THRESHOLDS ?= 0.1 0.15 0.2 0.3 0.5
HMM_COMPETITIVE_THRESHOLDS ?= 0.1 0.2
HMM_AVERAGE_THRESHOLDS ?= 0.5
HMM_CONF := $(call options_file,hmm,$(HMM_OPTS) $(HMM_PARAMS_THRESHOLD))
HMM_CANDIDATES := forward reverse $(HMM_SYMMETRIZATIONS) $(foreach t,$(HMM_AGREED_THRESHOLDS),agreed-$(t)) \
                  $(foreach t,$(HMM_COMPETITIVE_THRESHOLDS),agreed-ct-$(t)) $(foreach t,$(HMM_AVERAGE_THRESHOLDS),average-$(t))

.PHONY: hmm-report
hmm-report: $(OUT)/hmm/study.txt
	@echo "== $(CONFIG): nmt-align hmm$(if $(HMM_OPTS), $(HMM_OPTS)) on $$(($$(wc -l < $(OUT)/tok/train.$(SRC)) - $(GOLD_LINES))) pairs" \
	      "and the $(GOLD_LINES) gold sentences; $$(grep -E '^real' $(OUT)/log/hmm.log)"
	@cat $<

$(OUT)/hmm/params.txt: $(OUT)/tok/train.$(SRC) $(OUT)/tok/train.$(TGT) $(BIN)/nmt-align $(HMM_CONF)
	@mkdir -p $(@D) $(OUT)/log
	{ time $(BIN)/nmt-align hmm -s $(OUT)/tok/train.$(SRC) -t $(OUT)/tok/train.$(TGT) -o $(@D)/trained.forward \
	    --save-params $@ --params-threshold $(HMM_PARAMS_THRESHOLD) --threads $(THREADS) $(HMM_OPTS); } \
	  2> $(OUT)/log/hmm.log

# hmm_decode(name, options): $(OUT)/hmm/name, links read off with the saved parameters.
define hmm_decode
$(OUT)/hmm/$(1): $(OUT)/hmm/params.txt
	$(BIN)/nmt-align hmm -s $(OUT)/tok/train.$(SRC) -t $(OUT)/tok/train.$(TGT) --load-params $$< -o $$@ \
	    --threads $(THREADS) -q $(2)
endef
$(eval $(call hmm_decode,forward,--links forward --threshold $(HMM_THRESHOLD)))
$(eval $(call hmm_decode,reverse,--links reverse --threshold $(HMM_THRESHOLD)))
$(foreach t,$(HMM_AGREED_THRESHOLDS),$(eval $(call hmm_decode,agreed-$(t),--links agreed --threshold $(t))))
$(foreach t,$(HMM_COMPETITIVE_THRESHOLDS),$(eval $(call hmm_decode,agreed-ct-$(t),--links agreed --threshold $(t) --competitive)))
$(foreach t,$(HMM_AVERAGE_THRESHOLDS),$(eval $(call hmm_decode,average-$(t),--links average --threshold $(t))))

$(foreach h,$(HMM_SYMMETRIZATIONS),$(OUT)/hmm/$(h)): $(OUT)/hmm/%: $(OUT)/hmm/forward $(OUT)/hmm/reverse
	$(BIN)/nmt-align symmetrize -i $(OUT)/hmm/forward -j $(OUT)/hmm/reverse -c $* -o $@

$(OUT)/hmm/study.txt: $(foreach c,$(HMM_CANDIDATES),$(OUT)/hmm/$(c)) $(GOLD_LINKS) pipelines/alignment-scores.sh
	NMT_BIN=$(BIN) pipelines/alignment-scores.sh -d $(OUT)/gold/dev.gold -t $(OUT)/gold/test.gold \
	    $(foreach c,$(HMM_CANDIDATES),$(c)=$(OUT)/hmm/$(c)) > $@.tmp
	# The lowest dev AER, of each protocol; on a tie the first listed.
	tail -n +2 $@.tmp | sort -s -g -k2,2 | sed -n 1p | \
	    awk '{printf "%-58s %8s %8s %8s %8s\n", "chosen: " $$1, $$2, $$3, $$4, $$5}' > $@.chosen
	tail -n +2 $@.tmp | sort -s -g -k6,6 | sed -n 1p | \
	    awk '{printf "%-58s %8s %8s %8s %8s %8s %8s %8s %8s\n", "chosen on 137 (Liang): " $$1, "", "", "", "", \
	          $$6, $$7, $$8, $$9}' >> $@.tmp
	cat $@.chosen >> $@.tmp
	rm $@.chosen
	mv $@.tmp $@

$(OUT)/hmm/chosen: $(OUT)/hmm/study.txt
	cp $(OUT)/hmm/$$(awk '$$1 == "chosen:" {print $$2}' $<) $@.tmp
	mv $@.tmp $@

# ---- What the preparation choices cost (target prep-report) ---------------------------
# Each of PREP_VARIANTS (a name, its options in PREP_<name>_TOKENIZE_OPTS[_<language>] and
# PREP_<name>_NORMALIZE_OPTS) prepares the corpus its own way and runs IBM Model 2 both
# ways; the report sets their scores beside the recipe's own preparation.
$(foreach v,$(PREP_VARIANTS),$(eval $(call prepared_corpus,$(OUT)/prep/$(v),PREP_$(v)))$(eval $(call ibm2_links,$(OUT)/prep/$(v))))

PREP_ROWS := forward reverse intersect grow-diag grow-diag-final-and grow-diag-and
.PHONY: prep-report
prep-report: $(OUT)/prep/report.txt
	@cat $<

$(OUT)/prep/report.txt: $(OUT)/ibm2/study.txt $(foreach v,$(PREP_VARIANTS),$(OUT)/prep/$(v)/ibm2/study.txt)
	{ echo "== $(CONFIG): IBM Model 2 (nmt-align ibm2) under each preparation of the corpus, dev AER / test AER"; \
	  printf '%-16s' preparation; for r in $(PREP_ROWS); do printf ' %21s' $$r; done; echo; \
	  for v in recipe $(PREP_VARIANTS); do \
	    f=$(OUT)/prep/$$v/ibm2/study.txt; [ $$v = recipe ] && f=$(OUT)/ibm2/study.txt; \
	    printf '%-16s' $$v; \
	    for r in $(PREP_ROWS); do awk -v r=$$r '$$1 == r {printf " %10s/%-10s", $$2, $$5}' $$f; done; echo; \
	  done; \
	  echo "-- the recipe: tokenize $(ALIGN_TOKENIZE_OPTS), fr: $(ALIGN_TOKENIZE_OPTS_fr), then $(ALIGN_NORMALIZE_OPTS)"; \
	  $(foreach v,$(PREP_VARIANTS),echo "-- $(v): tokenize $(PREP_$(v)_TOKENIZE_OPTS), fr: $(PREP_$(v)_TOKENIZE_OPTS_fr)," \
	    "then $(PREP_$(v)_NORMALIZE_OPTS)";) } > $@.tmp
	mv $@.tmp $@

# teacher_links(name): the whole-corpus links a guide or head learns from: hmm, the HMM's
# chosen links, or an IBM Model 2 symmetrization.
teacher_links = $(if $(filter hmm,$(1)),$(OUT)/hmm/chosen,$(OUT)/ibm2/$(1))

# The guide of the En->Fr model, and the same links target first for Fr->En.
$(OUT)/ibm2/guide.$(FWD).align: $(call teacher_links,$(GUIDE_SYMMETRIZATION)) $(H_GUIDE_CONF)
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
# The alignment heads: trained alone over the frozen guided models, on IBM links.
# head_pair(name, symmetrization, minutes, base): $(OUT)/name.{FWD,REV}.bin, heads trained
# for `minutes` on the IBM links of `symmetrization` (target first for the reverse
# model) over $(OUT)/base.*.bin: a guided model (a new head), or a head model (its head
# trained on, with a new optimizer state).
define head_pair
$(eval $(call align_model,$(1),$(SRC),$(TGT),--pretrained-model $(OUT)/$(4).$(FWD).bin --alignment-head $(HEAD_DIM) \
    --guided-alignment $(OUT)/ibm2/guide-$(2).$(FWD).align --guided-alignment-weight 1,$(3),\
    $(OUT)/$(4).$(FWD).bin $(OUT)/ibm2/guide-$(2).$(FWD).align $(call options_file,head-$(1),$(HEAD_DIM) $(2) $(3)$(if $(filter-out guided,$(4)), $(4)))))
$(eval $(call align_model,$(1),$(TGT),$(SRC),--pretrained-model $(OUT)/$(4).$(REV).bin --alignment-head $(HEAD_DIM) \
    --guided-alignment $(OUT)/ibm2/guide-$(2).$(REV).align --guided-alignment-weight 1,$(3),\
    $(OUT)/$(4).$(REV).bin $(OUT)/ibm2/guide-$(2).$(REV).align $(call options_file,head-$(1),$(HEAD_DIM) $(2) $(3)$(if $(filter-out guided,$(4)), $(4)))))
endef
# head_guide(symmetrization): the heads' guides, once for every symmetrization in use.
define head_guide
$(OUT)/ibm2/guide-$(1).$(FWD).align: $(call teacher_links,$(1))
	cp $$< $$@

$(OUT)/ibm2/guide-$(1).$(REV).align: $(call teacher_links,$(1))
	sed -E 's/([0-9]+)-([0-9]+)/\2-\1/g' $$< > $$@.tmp
	mv $$@.tmp $$@
endef
$(foreach g,$(sort $(HEAD_SYMMETRIZATION) $(foreach h,$(HEAD_VARIANTS),$(HEAD_$(h)_SYMMETRIZATION))),\
  $(eval $(call head_guide,$(g))))
$(eval $(call head_pair,head,$(HEAD_SYMMETRIZATION),$(HEAD_MINUTES),guided))
# More heads to compare (HEAD_VARIANTS names, each with HEAD_<name>_SYMMETRIZATION,
# HEAD_<name>_MINUTES and HEAD_<name>_BASE, by default guided), in the report after the
# recipe's.
$(foreach h,$(HEAD_VARIANTS),$(eval $(call head_pair,$(h),$(HEAD_$(h)_SYMMETRIZATION),$(HEAD_$(h)_MINUTES),$(or $(HEAD_$(h)_BASE),guided))))
STUDIES := unguided guided head $(HEAD_VARIANTS)

# ---- The study: extraction rules chosen on dev, every variant scored on test ---------
$(OUT)/study.%/study.txt: $(OUT)/%.$(FWD).bin $(OUT)/%.$(REV).bin $(GOLD_DATA) $(BIN)/nmt-align \
    pipelines/alignment-study.sh
	rm -rf $(@D)
	NMT_BIN=$(BIN) pipelines/alignment-study.sh -f $(OUT)/$*.$(FWD).bin -r $(OUT)/$*.$(REV).bin \
	    -d $(OUT)/gold -s $(SRC) -t $(TGT) -o $(@D).tmp > /dev/null
	mv $(@D).tmp $(@D)

# ---- Two aligners together ------------------------------------------------------------
# The soft combination of the MIX_STUDY models at each of MIX_THRESHOLDS (and at their own
# dev-chosen one) merged with each of the teachers' links MIX_LINKS (hmm: the HMM's chosen
# links; other names: IBM Model 2's symmetrizations) by each of MIX_HEURISTICS, as if they
# were the two directions of one aligner; the best on dev is the row "chosen".
MIX_STUDY      ?= head
MIX_THRESHOLDS := 0.3 0.4 0.5 0.6 0.7 0.8
MIX_HEURISTICS := union intersect grow-diag grow-diag-and
MIX_LINKS      ?= intersect grow-diag-and
MIX_CONF       := $(call options_file,hansards-mix,$(MIX_STUDY) $(MIX_THRESHOLDS) $(MIX_LINKS))
# mix_name(links): the links' name in the merges' rows.
mix_name = $(if $(filter hmm,$(1)),hmm,ibm2-$(1))
$(OUT)/mix/study.txt: $(OUT)/study.$(MIX_STUDY)/study.txt $(foreach i,$(MIX_LINKS),$(call teacher_links,$(i))) \
    $(GOLD_LINKS) pipelines/alignment-scores.sh $(MIX_CONF)
	rm -rf $(@D) $(@D).tmp
	mkdir -p $(@D).tmp
	study=$(OUT)/study.$(MIX_STUDY); merges=; \
	$(foreach i,$(MIX_LINKS),tail -n $(GOLD_LINES) $(call teacher_links,$(i)) > $(@D).tmp/$(call mix_name,$(i));) \
	for t in $$(printf '%s\n' $(MIX_THRESHOLDS) $$(cat $$study/combine.threshold) | sort -u); do \
	  $(BIN)/nmt-align combine -i $$study/work/forward.soft -j $$study/work/reverse.soft --threshold $$t \
	      -o $(@D).tmp/combine.$$t; \
	  for i in $(foreach i,$(MIX_LINKS),$(call mix_name,$(i))); do \
	    for h in $(MIX_HEURISTICS); do \
	      $(BIN)/nmt-align symmetrize -i $(@D).tmp/combine.$$t -j $(@D).tmp/$$i -c $$h -o $(@D).tmp/$$t.$$i.$$h; \
	      merges="$$merges $(MIX_STUDY)-combine-$$t+$${i}_by_$$h=$(@D).tmp/$$t.$$i.$$h"; \
	    done; \
	  done; \
	done; \
	NMT_BIN=$(BIN) pipelines/alignment-scores.sh -d $(OUT)/gold/dev.gold -t $(OUT)/gold/test.gold $$merges \
	    > $(@D).tmp/study.txt
	# sed, not head: head leaving early would end sort with SIGPIPE, an error under pipefail.
	tail -n +2 $(@D).tmp/study.txt | sort -s -g -k2,2 | sed -n 1p | \
	    awk '{printf "%-58s %8s %8s %8s %8s\n", "chosen: " $$1, $$2, $$3, $$4, $$5}' >> $(@D).tmp/study.txt
	mv $(@D).tmp $(@D)

# The final variants of each system (each direction with its dev-chosen rules, the
# symmetrizations, the soft combination) and the training time of every model.
FINAL_ROWS := '^(forward|reverse|intersect|union|grow-diag|grow-diag-final|grow-diag-final-and|grow-diag-and|combine) '
# The list of studies is a prerequisite too: with .SECONDARY, a missing study of a newly
# listed head variant would not otherwise make the report out of date.
$(OUT)/alignment-report.txt: $(OUT)/ibm2/study.txt $(OUT)/hmm/study.txt $(foreach s,$(STUDIES),$(OUT)/study.$(s)/study.txt) \
    $(OUT)/mix/study.txt $(call options_file,hansards-report,$(STUDIES))
	{ echo "== $(CONFIG): $(SRC)-$(TGT) word alignments, $(HANSARDS_DIR)/wpt03 gold" \
	       "(dev $(DEV_LINES) sentences chooses, test $$(($(GOLD_LINES) - $(DEV_LINES))) reports)"; \
	  echo "-- IBM Model 2 (nmt-align ibm2, fast_align -d -o -v); guides (hmm: the HMM's chosen links): guided models $(GUIDE_SYMMETRIZATION)," \
	       "heads $(HEAD_SYMMETRIZATION)$(foreach h,$(HEAD_VARIANTS),$(comma) $(h) $(HEAD_$(h)_SYMMETRIZATION)):"; \
	  cat $(OUT)/ibm2/study.txt; \
	  echo "-- HMM aligners trained by agreement (nmt-align hmm $(HMM_OPTS); posterior $(HMM_THRESHOLD)," \
	       "agreed: the product of both directions' posteriors at each threshold):"; \
	  cat $(OUT)/hmm/study.txt; \
	  echo "hmm training: $$(grep -E '^real' $(OUT)/log/hmm.log)"; \
	  for s in $(STUDIES); do \
	    echo "-- attention, $$s models (rules: forward $$(cat $(OUT)/study.$$s/rules.forward)," \
	         "reverse $$(cat $(OUT)/study.$$s/rules.reverse), combine threshold $$(cat $(OUT)/study.$$s/combine.threshold)):"; \
	    head -n 1 $(OUT)/study.$$s/study.txt; grep -E $(FINAL_ROWS) $(OUT)/study.$$s/study.txt; \
	  done; \
	  echo "-- the $(MIX_STUDY) models' combine merged with the links of $(MIX_LINKS) (the best on dev is 'chosen'):"; \
	  cat $(OUT)/mix/study.txt; \
	  echo "-- training (wall time from the logs):"; \
	  for m in $(foreach s,$(STUDIES),$(s).$(FWD) $(s).$(REV)); do \
	    echo "$$m: $$(grep -E '^training ended' $(OUT)/log/$$m.log | tail -n 1)"; done; \
	  echo "-- every rule tried: $(foreach s,$(STUDIES),$(OUT)/study.$(s)/study.txt)"; } > $@.tmp
	mv $@.tmp $@
