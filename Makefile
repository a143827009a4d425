# mc — build, test and install. `make` builds build/mc and build/libmcrt.a; `make check` runs
# every test; `make asan` runs the tests again under AddressSanitizer + UBSan.
CC      ?= cc
PYTHON  ?= /usr/bin/python3
BUILD   ?= build
SAN     ?=
OPT     ?= -O2 -g
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-function $(OPT) $(SAN)
CJSON_CFLAGS := $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS   := $(shell pkg-config --libs libcjson 2>/dev/null || echo -lcjson)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread -lm)
CFLAGS  := $(CFLAGS_BASE) -Icompiler -I. -Iruntime $(CJSON_CFLAGS)
LDLIBS  := $(CJSON_LIBS) -ltcc -ldl -lm -lpthread

# Everything except the driver's main.c goes into libmc.a so tests can link it.
LIB_SRCS := $(sort $(wildcard compiler/ir/*.c compiler/ops/*.c compiler/emit/*.c \
              compiler/interp/*.c frontend/*.c passes/*.c)) \
            $(filter-out compiler/main.c,$(wildcard compiler/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/kernel_src.o $(BUILD)/obj/gen/cuda_src.o
RT_SRCS  := $(filter-out runtime/mc_runtime_cuda.c runtime/mc_cuda_emu.c,$(wildcard runtime/*.c))
RT_OBJS  := $(RT_SRCS:%.c=$(BUILD)/obj/%.o)
# Kernel headers are pasted into model.c in this order, their own #include lines dropped: every
# header comes after the headers it includes (tests/ops/kernel_headers.py checks it). A k_*.h
# not named here is pasted last.
KERNEL_ORDER := mck.h k_args.h k_thread.h k_act.h k_gemm.h k_dw.h k_conv.h k_norm.h k_pool.h \
  k_fracpool.h k_pad.h k_binary.h k_unary.h k_create.h k_elementwise.h k_shape_util.h k_view.h k_copy.h \
  k_indexing.h k_meta.h k_shape.h k_reduce.h k_matvec.h k_linalg.h k_matrix.h k_linalg2.h \
  k_bag.h k_math.h k_loss.h k_loss_margin.h k_rnn.h \
  k_sample.h k_sample_grid.h k_index_sort.h k_index_scatter.h k_index.h
KERNEL_HDRS := $(addprefix compiler/ops/,$(KERNEL_ORDER))
KERNEL_HDRS += $(filter-out $(KERNEL_HDRS),$(sort $(wildcard compiler/ops/k_*.h)))

TEST_SRCS := $(wildcard tests/check_*.c)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

.PHONY: sample all check unit-check e2e-check asan clean corpus bench install uninstall
all: $(BUILD)/mc $(BUILD)/libmcrt.a cuda-emu

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/kernel_src.c: $(KERNEL_HDRS) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $(KERNEL_HDRS) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/kernel_src.o: $(BUILD)/gen/kernel_src.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# CUDA kernels (compiler/ops/cuda/*.cuh), pasted into generated .cu files by emit_cuda.c.
CUDA_HDRS := $(sort $(wildcard compiler/ops/cuda/*.cuh))
$(BUILD)/gen/cuda_src.c: $(CUDA_HDRS) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $(CUDA_HDRS) | sed 's/mc_kernel_/mc_cuda_kernel_/g' > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/cuda_src.o: $(BUILD)/gen/cuda_src.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The CUDA target's runtime (docs/cuda.md), only where the CUDA toolkit is: `make cuda-runtime`.
CUDA_HOME ?= /usr/local/cuda
$(BUILD)/libmcrt_cuda.a: runtime/mc_runtime_cuda.c runtime/mc_runtime_cuda.h runtime/mc_runtime.h \
                         $(BUILD)/obj/runtime/mc_core.o
	@mkdir -p $(BUILD)/obj/runtime
	$(CC) $(CFLAGS) -I$(CUDA_HOME)/include -c runtime/mc_runtime_cuda.c -o $(BUILD)/obj/runtime/mc_runtime_cuda.o
	@rm -f $@
	ar rcs $@ $(BUILD)/obj/runtime/mc_runtime_cuda.o $(BUILD)/obj/runtime/mc_core.o
.PHONY: cuda-runtime
cuda-runtime: $(BUILD)/libmcrt_cuda.a

# The CUDA target's runtime on the CPU (spec 6, docs/cuda.md): the same runtime built
# -DMC_CUDA_EMULATE over runtime/mc_cuda_emu.c, for .cu files built with c++ -DMC_CUDA_EMULATE.
# Needs no CUDA, so `make` builds it, and copies the headers a .cu includes to runtime-dist.
CUDA_EMU_DIST := $(BUILD)/runtime-dist/mc_cuda_emu.h $(BUILD)/runtime-dist/mc_runtime_cuda.h
$(BUILD)/libmcrt_cuda_emu.a: runtime/mc_runtime_cuda.c runtime/mc_cuda_emu.c runtime/mc_cuda_emu.h \
                             runtime/mc_runtime_cuda.h runtime/mc_runtime.h $(BUILD)/obj/runtime/mc_core.o
	@mkdir -p $(BUILD)/obj/runtime
	$(CC) $(CFLAGS) -DMC_CUDA_EMULATE -c runtime/mc_runtime_cuda.c -o $(BUILD)/obj/runtime/mc_runtime_cuda_emu.o
	$(CC) $(CFLAGS) -c runtime/mc_cuda_emu.c -o $(BUILD)/obj/runtime/mc_cuda_emu.o
	@rm -f $@
	ar rcs $@ $(BUILD)/obj/runtime/mc_runtime_cuda_emu.o $(BUILD)/obj/runtime/mc_cuda_emu.o $(BUILD)/obj/runtime/mc_core.o
$(CUDA_EMU_DIST): $(BUILD)/runtime-dist/%: runtime/%
	@mkdir -p $(dir $@)
	cp $< $@
.PHONY: cuda-emu cuda-full
cuda-emu: $(BUILD)/libmcrt_cuda_emu.a $(CUDA_EMU_DIST)
# Every tests/e2e case through --target cuda under the emulation, the heavy torchvision models
# too (make check runs every case but those).
cuda-full: $(BUILD)/mc cuda-emu
	MC_E2E_HEAVY=1 MC=$(BUILD)/mc BUILD=$(BUILD) $(PYTHON) tests/cuda/emu.py

$(BUILD)/libmc.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libmcrt.a: $(RT_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/mc: $(BUILD)/obj/compiler/main.o $(BUILD)/libmc.a $(BUILD)/libmcrt.a
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(BUILD)/libmc.a $(BUILD)/libmcrt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -MMD -MP $< $(BUILD)/libmc.a $(BUILD)/libmcrt.a $(LDLIBS) $(CHECK_LIBS) -o $@

# Kernel numeric cases, computed by PyTorch (tests/kernels/cases_*.py); check_kernels reads them.
KERNEL_CASES := $(BUILD)/kernel_cases.txt
$(KERNEL_CASES): $(wildcard tests/kernels/*.py)
	@mkdir -p $(dir $@)
	$(PYTHON) tests/kernels/gen_kernels.py $@

unit-check: $(TEST_BINS) $(KERNEL_CASES)
	@set -e; for t in $(TEST_BINS); do echo "== $$t"; MC_KERNEL_CASES=$(KERNEL_CASES) $$t; done

e2e-check: all
	MC=$(BUILD)/mc BUILD=$(BUILD) PYTHON=$(PYTHON) CC=$(CC) SAN="$(SAN)" sh tests/run_e2e.sh

check: unit-check e2e-check gen-check

# Every json_ model (resnet18, mobilenet_v2, the encoders too) built -O3 -march=native; make check
# runs the small ones.
.PHONY: e2e-native
e2e-native: all
	MC_E2E_CFLAGS="-O3 -march=native" MC=$(BUILD)/mc BUILD=$(BUILD) $(PYTHON) tests/e2e/run_e2e.py json_ thread ds_

# Random programs (tests/gen/README.md) against PyTorch eager, scripted and traced: `gen-check`
# runs a fixed seed with known failures listed in tests/gen/known_failures.py; `make gen N=...
# SEED=...` runs more and writes minimized failing programs to GEN_FINDINGS.
GEN_CHECK_N  ?= 1000
N            ?= 10000
SEED         ?= 1
GEN_FINDINGS ?= $(BUILD)/gen-findings
GEN_J        ?= 2
.PHONY: gen gen-check
gen-check: all
	MC=$(BUILD)/mc BUILD=$(BUILD) CC=$(CC) SAN="$(SAN)" $(PYTHON) tests/gen/run_gen.py --check --n $(GEN_CHECK_N) \
	  --seed 1 -j $(GEN_J) --work $(BUILD)/gen-check

gen: all
	MC=$(BUILD)/mc BUILD=$(BUILD) CC=$(CC) $(PYTHON) tests/gen/run_gen.py --n $(N) --seed $(SEED) \
	  -j $(GEN_J) --progress 1000 --findings $(GEN_FINDINGS) --work $(BUILD)/gen

asan:
	$(MAKE) BUILD=build-asan CC=clang OPT="-O1 -g -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" GEN_CHECK_N=200 check

corpus:
	$(PYTHON) tests/corpus/gen_corpus.py tests/corpus

# The kernel headers in paste order (tests/ops/kernel_headers.py).
.PHONY: kernel-headers
kernel-headers:
	@echo $(KERNEL_HDRS)

# docs/ops.md is generated from the op table; tests/ops/run.sh fails when it is not current.
.PHONY: docs
docs: $(BUILD)/mc
	$(BUILD)/mc ops --format markdown > docs/ops.md.tmp && mv docs/ops.md.tmp docs/ops.md

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD)/obj $(BUILD)/tests -name '*.d' 2>/dev/null)

# The README's sample: compile samples/seed_slice/model.txt and run it.
sample: all
	@mkdir -p $(BUILD)/sample
	$(BUILD)/mc compile samples/seed_slice/model.txt -o $(BUILD)/sample/model.c
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iruntime -I$(BUILD)/sample $(BUILD)/sample/model.c \
	  samples/seed_slice/main.c $(BUILD)/libmcrt.a -lm -o $(BUILD)/sample/seed_slice
	$(BUILD)/sample/seed_slice

# libFuzzer targets (fuzz/, see fuzz/README.md), built with clang into build-fuzz/.
# `make fuzz FUZZ_SECONDS=N` runs each target N seconds on its corpus (one at a time, -jobs=1);
# `make fuzz-regress` only replays the committed corpora (seconds; CI runs it).
FUZZ_BUILD   ?= build-fuzz
FUZZ_TARGETS := ts json npy compile run
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
.PHONY: fuzz fuzz-build fuzz-regress
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(BUILD)/libmc.a $(BUILD)/libmcrt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $< $(BUILD)/libmc.a $(BUILD)/libmcrt.a $(LDLIBS) -o $@

fuzz-build:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang OPT="-O1 -g -fno-omit-frame-pointer" SAN="$(FUZZ_SAN)" \
	  $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz/fuzz_%)

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
	  echo "== fuzz_$$t ($(FUZZ_SECONDS) s)"; \
	  $(FUZZ_BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix=$(FUZZ_BUILD)/crash-$$t- \
	    $(FUZZ_BUILD)/corpus/$$t fuzz/corpus/$$t; done

fuzz-regress: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
	  if $(FUZZ_BUILD)/fuzz/fuzz_$$t -runs=0 -timeout=10 -rss_limit_mb=2048 fuzz/corpus/$$t \
	      >$(FUZZ_BUILD)/regress-$$t.log 2>&1; then \
	    echo "fuzz_$$t: $$(ls fuzz/corpus/$$t | wc -l) corpus inputs replayed, no finding"; \
	  else tail -40 $(FUZZ_BUILD)/regress-$$t.log; echo "fuzz_$$t: FAILED"; exit 1; fi; done

# ---- install / uninstall (docs/build.md): PREFIX (default /usr/local), DESTDIR for staging.
# Layout: bin/mc, lib/libmcrt.a, include/mc/{mc_runtime.h,dlpack/dlpack.h},
# lib/pkgconfig/mcrt.pc, lib/cmake/mc/, share/mc/python/mc_export.py, share/man/man1/mc.1,
# share/mc/runtime-dist/ (a copy of $(BUILD)/runtime-dist/).
PREFIX  ?= /usr/local
DESTDIR ?=
MC_VERSION := $(shell sed -n 's/^\#define MC_VERSION "\(.*\)"/\1/p' compiler/driver.h)
DLPACK_H   ?= $(firstword $(wildcard /usr/include/dlpack/dlpack.h /usr/local/include/dlpack/dlpack.h))
# ---- runtime-dist (spec 5, docs/targets.md): the runtime's C sources and every header a
# generated model includes (DLPack's too) in $(BUILD)/runtime-dist/, so that
# `$CC -std=c99 -O2 -I$(BUILD)/runtime-dist model.c $(BUILD)/runtime-dist/*.c main.c -lm` builds
# a model for any target with no other include path. Only the CPU runtime's C files go there.
DIST    := $(BUILD)/runtime-dist
DIST_RT := $(patsubst runtime/%,$(DIST)/%,$(RT_SRCS) runtime/mc_runtime.h runtime/mc_core.h)
$(DIST_RT): $(DIST)/%: runtime/%
	@mkdir -p $(dir $@)
	cp $< $@
$(DIST)/dlpack/dlpack.h: $(DLPACK_H)
	@test -n "$(DLPACK_H)" || { echo "runtime-dist: dlpack/dlpack.h not found (set DLPACK_H)"; exit 1; }
	@mkdir -p $(dir $@)
	cp $(DLPACK_H) $@
.PHONY: runtime-dist
runtime-dist: $(DIST_RT) $(DIST)/dlpack/dlpack.h
all: runtime-dist

INST_FILES := bin/mc lib/libmcrt.a include/mc/mc_runtime.h include/mc/dlpack/dlpack.h \
              lib/pkgconfig/mcrt.pc lib/cmake/mc/mcConfig.cmake lib/cmake/mc/mcConfigVersion.cmake \
              share/mc/python/mc_export.py share/man/man1/mc.1
INST_DIRS  := include/mc/dlpack include/mc lib/pkgconfig lib/cmake/mc lib/cmake \
              share/mc/python share/mc share/man/man1 share/man

install: all
	@test -n "$(DLPACK_H)" || { echo "install: dlpack/dlpack.h not found (set DLPACK_H)"; exit 1; }
	@I='$(DESTDIR)$(PREFIX)'; set -e; \
	install -d "$$I/bin" "$$I/lib/pkgconfig" "$$I/lib/cmake/mc" "$$I/include/mc/dlpack" \
	  "$$I/share/mc/python" "$$I/share/man/man1"; \
	install -m 755 $(BUILD)/mc "$$I/bin/mc"; \
	install -m 644 $(BUILD)/libmcrt.a "$$I/lib/libmcrt.a"; \
	install -m 644 runtime/mc_runtime.h "$$I/include/mc/mc_runtime.h"; \
	install -m 644 "$(DLPACK_H)" "$$I/include/mc/dlpack/dlpack.h"; \
	install -d "$$I/share/mc/runtime-dist/dlpack"; \
	for f in $(DIST)/*.c $(DIST)/*.h; do install -m 644 "$$f" "$$I/share/mc/runtime-dist/"; done; \
	install -m 644 $(DIST)/dlpack/dlpack.h "$$I/share/mc/runtime-dist/dlpack/dlpack.h"; \
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(MC_VERSION)|g' tools/mcrt.pc.in > "$$I/lib/pkgconfig/mcrt.pc"; \
	chmod 644 "$$I/lib/pkgconfig/mcrt.pc"; \
	install -m 644 cmake/mcConfig.cmake "$$I/lib/cmake/mc/mcConfig.cmake"; \
	sed -e 's|@VERSION@|$(MC_VERSION)|g' cmake/mcConfigVersion.cmake.in > "$$I/lib/cmake/mc/mcConfigVersion.cmake"; \
	chmod 644 "$$I/lib/cmake/mc/mcConfigVersion.cmake"; \
	install -m 755 frontend/python/mc_export.py "$$I/share/mc/python/mc_export.py"; \
	install -m 644 docs/mc.1 "$$I/share/man/man1/mc.1"; \
	echo "installed mc $(MC_VERSION) into $$I"

uninstall:
	@I='$(DESTDIR)$(PREFIX)'; \
	for f in $(INST_FILES); do rm -f "$$I/$$f"; done; \
	rm -rf "$$I/share/mc/runtime-dist"; \
	for d in $(INST_DIRS); do rmdir "$$I/$$d" 2>/dev/null || true; done; \
	echo "removed mc from $$I"

# Build-system tests alone (determinism, depfiles, install, CMake, samples): tests/build/run.sh.
.PHONY: build-check sample-resnet18
build-check: all
	MC=$(BUILD)/mc BUILD=$(BUILD) PYTHON=$(PYTHON) CC=$(CC) sh tests/build/run.sh

# The resnet18 sample (slow: exports resnet18 with PyTorch, compiles 46 MB of weights).
sample-resnet18: all
	$(MAKE) -C samples/resnet18 MC=$(CURDIR)/$(BUILD)/mc MCRT_LIBS="$(CURDIR)/$(BUILD)/libmcrt.a -lm" test

# mc against PyTorch (and its GEMM against OpenBLAS) on this machine; minutes, not part of
# `make check`. Rewrites the table in docs/performance.md. BENCH_ARGS: e.g. --quick, --models mlp.
BENCH_ARGS ?=
bench: all
	$(PYTHON) bench/bench.py --doc docs/performance.md $(BENCH_ARGS)
	$(MAKE) bench-compile

# Guest instruction counts of one resnet18 / mobilenet_v2 inference on aarch64 under qemu-user,
# the NEON kernels against the portable path (-DMC_NO_SIMD), with the tools/qemu_insn.c TCG
# plugin (tests/cross/neon_count.py); minutes, not part of `make check`. Figures: docs/targets.md.
.PHONY: neon-count
neon-count: all
	MC=$(BUILD)/mc BUILD=$(BUILD) $(PYTHON) tests/cross/neon_count.py

# coverage sweep (tests/sweep/sweep.py): every torch.nn module class and ~250 torch/F.* calls,
# traced and scripted, against PyTorch; minutes, not part of `make check`. Rewrites
# tests/sweep/results.txt. SWEEP_ARGS: e.g. --jobs 2, or name filters.
SWEEP_ARGS ?=
sweep: all
	MC=$(BUILD)/mc BUILD=$(BUILD) $(PYTHON) tests/sweep/sweep.py --out tests/sweep/results.txt $(SWEEP_ARGS)
.PHONY: sweep

# compile time and peak RSS of mc compile from 1e3 to 1e6 nodes (bench/compile_scaling.py)
.PHONY: bench-compile
# A model compiled once with Dims against the same model compiled for one size, at that size
# (resnet18 batch 1 and 8, an encoder at seq 32 and 128); minutes. Figures: docs/performance.md.
.PHONY: bench-dynamic
bench-dynamic: all
	BUILD=$(BUILD) $(PYTHON) bench/dynamic.py --doc docs/performance.md $(BENCH_DYNAMIC_ARGS)

bench-compile: all
	BUILD=$(BUILD) $(PYTHON) bench/compile_scaling.py --doc docs/performance.md $(BENCH_COMPILE_ARGS)
