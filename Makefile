# cubegen: plain GNU make.
#
#   make            build build/cubegen
#   make run        install what is missing, build, generate a puzzle into out/
#   make test       install what is missing, build, run every test
#   make asan       the same tests, built with ASan + UBSan under build-asan/
#   make bench      build and run the benchmark table
#   make deps       install the Debian packages the build and tests need
#
# Libraries: solver/ gen/ mesh/ are static archives; cli/ is the front end.
# Every tests/test_*.c is one cmocka program; every tests/*.sh is a
# command-line test, run with the path of the cubegen binary.

BUILD   ?= build
CC      ?= cc
PKGS    := gdlib cmocka libadmesh
CSTD    := -std=c11 -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L
OPT     ?= -O2 -g
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS  += $(CSTD) $(OPT) -I. $(PKG_CFLAGS) -MMD -MP
LDLIBS  += $(PKG_LIBS) -lm

SOLVER_SRC := $(wildcard solver/*.c)
GEN_SRC    := $(wildcard gen/*.c)
MESH_SRC   := $(wildcard mesh/*.c)
CLI_SRC    := $(wildcard cli/*.c)
TEST_SRC   := $(wildcard tests/test_*.c)
# tests/*.c that are not test programs: helpers linked into every test
# (the independent brute force, random puzzle makers).
TEST_LIB   := $(filter-out $(TEST_SRC),$(wildcard tests/*.c))
TEST_SH    := $(wildcard tests/*.sh)
BENCH_SRC  := $(wildcard bench/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

LIBSOLVER := $(BUILD)/libsolver.a
LIBGEN    := $(BUILD)/libgen.a
LIBMESH   := $(BUILD)/libmesh.a
ALLLIBS   := $(LIBMESH) $(LIBGEN) $(LIBSOLVER)
CUBEGEN   := $(BUILD)/cubegen
TESTS     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
BENCH     := $(BUILD)/bench/bench

.PHONY: all run test check-unit check-cli asan bench deps clean
all: $(CUBEGEN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIBSOLVER): $(call obj,$(SOLVER_SRC))
$(LIBGEN): $(call obj,$(GEN_SRC))
$(LIBMESH): $(call obj,$(MESH_SRC))
$(ALLLIBS):
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(CUBEGEN): $(call obj,$(CLI_SRC)) $(ALLLIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Each test program links its own object and the archives; the linker
# pulls in only the modules the test uses.
$(TESTS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(call obj,$(TEST_LIB)) $(ALLLIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BENCH): $(call obj,$(BENCH_SRC)) $(ALLLIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

deps:
	@sh tools/deps.sh

run: deps
	$(MAKE) $(CUBEGEN)
	./$(CUBEGEN) generate

check-unit: $(TESTS)
	@set -e; for t in $(TESTS); do echo "== $$t"; $$t; done

check-cli: $(CUBEGEN)
	@set -e; for t in $(TEST_SH); do echo "== $$t"; CUBEGEN=$(abspath $(CUBEGEN)) DATA=$(abspath ../shared/data) bash $$t; done

test: deps
	$(MAKE) check-unit check-cli

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	        LDFLAGS="-fsanitize=address,undefined" check-unit check-cli

bench: deps
	$(MAKE) OPT="-O2 -g -DNDEBUG" BUILD=build-bench build-bench/bench/bench build-bench/cubegen
	./build-bench/bench/bench

clean:
	rm -rf build build-asan build-bench

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
