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
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/kernel_src.o
RT_SRCS  := $(wildcard runtime/*.c)
RT_OBJS  := $(RT_SRCS:%.c=$(BUILD)/obj/%.o)
KERNEL_HDRS := compiler/ops/mck.h $(sort $(wildcard compiler/ops/k_*.h))

TEST_SRCS := $(wildcard tests/check_*.c)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

.PHONY: sample all check unit-check e2e-check asan clean corpus bench install uninstall
all: $(BUILD)/mc $(BUILD)/libmcrt.a

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/kernel_src.c: $(KERNEL_HDRS) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $(KERNEL_HDRS) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/kernel_src.o: $(BUILD)/gen/kernel_src.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

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

check: unit-check e2e-check

asan:
	$(MAKE) BUILD=build-asan CC=clang OPT="-O1 -g -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" check

corpus:
	$(PYTHON) tests/corpus/gen_corpus.py tests/corpus

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
