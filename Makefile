# cubegen: plain GNU make.
#
#   make            build build/cubegen
#   make run        install what is missing, build, generate a puzzle into out/
#   make test       install what is missing, build, run every test (side by
#                   side, one a core; JOBS=N to choose how many at once)
#   make asan       the same tests, built with ASan + UBSan under build-asan/
#   make tsan       the threaded solver's tests under ThreadSanitizer
#   make valgrind   the command-line tests with every run under valgrind
#   make bench      build and run the benchmark table
#   make bench-compare BASE=REV
#                   the table's rows for commit REV and this tree, in turn
#   make fuzz       libFuzzer on the readers and the argument parsers
#                   (FUZZ_SECONDS each, default 30; needs clang)
#   make warnings   everything built at -O3 by GCC and by clang (no run)
#   make deps       install the Debian packages the build and tests need
#
# Libraries: solver/ formats/ gen/ mesh/ draw/ are static archives; cli/
# is the front end.
# Every tests/test_*.c is one cmocka program; every tests/*.sh is a
# command-line test, run with the path of the cubegen binary.

BUILD   ?= build
CC      ?= cc
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
PKGS    := gdlib libpng16 cmocka libadmesh libzip expat zlib json-c
CSTD    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Werror -D_POSIX_C_SOURCE=200809L \
           -ffp-contract=off
OPT     ?= -O2 -g
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS  += $(CSTD) $(OPT) -I. $(PKG_CFLAGS) -MMD -MP -pthread
# Tests link cmocka; the cubegen binary links only what it uses.
LDLIBS  += $(PKG_LIBS) -ldl -lm -pthread
# The shared libgd loads some fifty libraries (HEIF, AVIF, TIFF, WebP,
# fontconfig...) that cubegen never calls: 13 ms at every start, more than
# a whole Soma solve. So cubegen links libgd's archive when Debian's
# libgd-dev has it, which pulls in only what draw/ calls, needing libpng
# and zlib (a libgd security update then needs a rebuild); else the shared
# library.
GD_A    := $(shell pkg-config --variable=libdir gdlib 2>/dev/null)/libgd.a
CLI_GD  := $(if $(wildcard $(GD_A)),$(GD_A) -lz,$(shell pkg-config --libs gdlib 2>/dev/null))
# libzip (and libcrypto, which it links) cost 3.6 ms at every start, so
# cubegen opens it only when it writes a 3MF (mesh/threemf.c), by the name
# of the one the build finds.
LIBZIP_SO := $(shell objdump -p $$(pkg-config --variable=libdir libzip 2>/dev/null)/libzip.so 2>/dev/null | sed -n 's/^ *SONAME *//p')
CFLAGS  += $(if $(LIBZIP_SO),-DCUBEGEN_LIBZIP='"$(LIBZIP_SO)"')
CLI_LIBS := $(CLI_GD) $(shell pkg-config --libs libpng16 libadmesh expat zlib json-c 2>/dev/null) -ldl -lm -pthread

SOLVER_SRC := $(wildcard solver/*.c)
FORMATS_SRC := $(wildcard formats/*.c)
GEN_SRC    := $(wildcard gen/*.c)
MESH_SRC   := $(wildcard mesh/*.c)
DRAW_SRC   := $(wildcard draw/*.c)
CLI_SRC    := $(wildcard cli/*.c)
TEST_SRC   := $(wildcard tests/test_*.c)
# tests/*.c that are not test programs: helpers linked into every test
# (the independent brute force, random puzzle makers).
TEST_LIB   := $(filter-out $(TEST_SRC) tests/pngpick.c,$(wildcard tests/*.c))
# tests/pngpick.c: a tool of tests/viewer.sh (pixels of a screenshot).
PNGPICK    := $(BUILD)/tests/pngpick
TEST_SH    := $(filter-out tests/install.sh,$(wildcard tests/*.sh))
BENCH_SRC  := $(wildcard bench/*.c)
# Fuzz targets tests/fuzz/fuzz_NAME.c, each with a seed corpus in
# tests/fuzz/corpus/NAME and the inputs that ever failed in
# tests/fuzz/regress/NAME; `make test` replays both without libFuzzer.
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 30

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

# The viewer's source (web/) goes into libmesh as strings (mesh/page.c),
# made by tools/embed.c at build time.
EMBED   := $(BUILD)/tools/embed
WEB_SRC := web/page.html web/viewer.css web/viewer.js
WEB_C   := $(BUILD)/web/assets.c
WEB_O   := $(BUILD)/web/assets.o

LIBSOLVER := $(BUILD)/libsolver.a
LIBFORMATS := $(BUILD)/libformats.a
LIBGEN    := $(BUILD)/libgen.a
LIBMESH   := $(BUILD)/libmesh.a
LIBDRAW   := $(BUILD)/libdraw.a
LIBCLI    := $(BUILD)/libcli.a
# In link order, a library before those it uses (formats/ and gen/ use
# solver/).
ALLLIBS   := $(LIBDRAW) $(LIBMESH) $(LIBGEN) $(LIBFORMATS) $(LIBSOLVER)
REPLAYS   := $(patsubst %,$(BUILD)/fuzz/replay_%,$(FUZZ_NAMES))
FUZZERS   := $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_NAMES))
CUBEGEN   := $(BUILD)/cubegen
TESTS     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
BENCH     := $(BUILD)/bench/bench

.PHONY: all install uninstall run test ci-checks bands check-unit check-cli check-fuzz check-fault check-install asan tsan valgrind bench bench-compare deps clean \
        fuzz fuzz-targets
all: $(CUBEGEN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIBSOLVER): $(call obj,$(SOLVER_SRC))
$(LIBFORMATS): $(call obj,$(FORMATS_SRC))
$(LIBGEN): $(call obj,$(GEN_SRC))
$(LIBMESH): $(call obj,$(MESH_SRC)) $(WEB_O)
$(LIBDRAW): $(call obj,$(DRAW_SRC))
$(LIBCLI): $(call obj,$(filter-out cli/main.c,$(CLI_SRC)))
$(ALLLIBS) $(LIBCLI):
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(CUBEGEN): $(call obj,$(CLI_SRC)) $(ALLLIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(CLI_LIBS) -o $@

$(PNGPICK): tests/pngpick.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(shell pkg-config --libs gdlib 2>/dev/null) -o $@

$(EMBED): tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -O2 $< -o $@
$(WEB_C): $(EMBED) $(WEB_SRC)
	@mkdir -p $(dir $@)
	$(EMBED) $@ cubegen_web_page=web/page.html cubegen_web_css=web/viewer.css \
	    cubegen_web_js=web/viewer.js
$(WEB_O): $(WEB_C)
	$(CC) $(CFLAGS) -c $< -o $@

# Each test program links its own object and the archives; the linker
# pulls in only the modules the test uses.
$(TESTS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(call obj,$(TEST_LIB)) $(ALLLIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(REPLAYS): $(BUILD)/fuzz/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay.o $(LIBCLI) $(ALLLIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Built only by `make fuzz`, with clang, in build-fuzz/.
$(FUZZERS): $(BUILD)/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(LIBCLI) $(ALLLIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer,address,undefined $^ $(LDLIBS) -o $@

# The fault build (tests/fault/fault.h): the libraries and the front end
# again, with every allocation routed through a counter that fails the
# k-th one; test_fault runs real jobs for every k, and tests/fault/cli.sh
# runs the fault-built cubegen with CUBEGEN_FAULT_AT=k.
FAULT_HOOK := -include tests/fault/fault_hook.h
fobj = $(patsubst %.c,$(BUILD)/fault/%.o,$(1))
FAULT_LIBS := $(call fobj,$(SOLVER_SRC) $(FORMATS_SRC) $(GEN_SRC) $(MESH_SRC) \
                          $(DRAW_SRC)) $(WEB_O)
FAULT_TEST := $(BUILD)/fault/test_fault
FAULT_CUBEGEN := $(BUILD)/fault/cubegen
$(BUILD)/fault/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FAULT_HOOK) -c $< -o $@
$(FAULT_TEST): $(BUILD)/tests/fault/test_fault.o $(BUILD)/tests/fault/fault.o $(FAULT_LIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@
$(FAULT_CUBEGEN): $(call fobj,$(CLI_SRC)) $(FAULT_LIBS) $(BUILD)/tests/fault/fault.o
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(CLI_LIBS) -o $@

$(BENCH): $(call obj,$(BENCH_SRC)) $(ALLLIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The cube band table of gen/find.c, recomputed (about a minute).
BANDS := $(BUILD)/tools/bands
$(BANDS): $(BUILD)/tools/bands.o $(ALLLIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@
bands: $(BANDS)
	./$(BANDS)

deps:
	@sh tools/deps.sh

run: deps
	$(MAKE) $(CUBEGEN)
	./$(CUBEGEN) generate

# The tests run side by side, one a core: every test program, script,
# replay and part of one is a target of its own (run-NAME), and `make
# test` runs them with -jJOBS (the number of cores unless given), the
# slowest first, each one's output kept together (--output-sync). `make
# run-test_bbw` runs one; `make JOBS=1 test` one after another.
JOBS      ?= $(shell nproc 2>/dev/null || echo 1)
# each run-NAME prints how long it took (== run-NAME: 12.3 s)
TIMED     := bash tools/timed.sh
# -jJOBS for the make below, unless this make already has -j (a jobserver
# of its own in the make below would run too many at once)
PAR        = $$(case " $$MAKEFLAGS" in *" -j"*) ;; *) echo "-j$(JOBS) --output-sync=target --no-print-directory";; esac)
# tests/fault/cli.sh runs in this many parts (PART=i/n)
FAULT_PARTS := 4
# Test programs that run in parts (TEST_PART=i/n, tests/testpart.h):
# NAME:PARTS
UNIT_PARTS := test_bbw:3 test_tasks:2 test_prove:2
split_name  = $(word 1,$(subst :, ,$(1)))
split_n     = $(word 2,$(subst :, ,$(1)))
SPLIT_UNITS := $(foreach u,$(UNIT_PARTS),$(call split_name,$(u)))
UNIT_RUNS  := $(patsubst %,run-%,$(filter-out $(SPLIT_UNITS),$(patsubst $(BUILD)/tests/%,%,$(TESTS)))) \
              $(foreach u,$(UNIT_PARTS),$(foreach i,$(shell seq 1 $(call split_n,$(u))),run-$(call split_name,$(u)).$(i)))
CLI_RUNS   := $(patsubst tests/%.sh,run-%,$(TEST_SH))
FAULT_RUNS := run-test_fault $(foreach i,$(shell seq 1 $(FAULT_PARTS)),run-fault-cli.$(i))
REPLAY_RUNS := $(patsubst %,run-replay_%,$(FUZZ_NAMES))
ALL_RUNS   := $(UNIT_RUNS) $(CLI_RUNS) $(FAULT_RUNS) $(REPLAY_RUNS)
# the slowest (measured), started first so that the last to finish is short
SLOW_RUNS  := $(foreach r,run-viewer $(filter run-fault-cli.%,$(FAULT_RUNS)) \
                $(filter run-test_bbw.%,$(UNIT_RUNS)) run-print_check run-cli \
                $(filter run-test_tasks.% run-test_prove.%,$(UNIT_RUNS)),$(filter $(r),$(ALL_RUNS)))
.PHONY: $(ALL_RUNS) run-install check-slow

check-slow: $(SLOW_RUNS)
check-unit: $(UNIT_RUNS)
check-cli: $(CLI_RUNS)
check-fault: $(FAULT_RUNS)
check-fuzz: $(REPLAY_RUNS)
check-install: run-install

$(filter-out $(foreach u,$(SPLIT_UNITS),run-$(u).%),$(filter run-test_%,$(UNIT_RUNS))): run-%: $(BUILD)/tests/%
	@echo "== $<"; $(TIMED) $@ $<
define unit_part_rule
run-$(1).$(3): $(BUILD)/tests/$(1)
	@echo "== $$< (part $(3)/$(2))"; $(TIMED) $$@ env TEST_PART=$(3)/$(2) $$<
endef
$(foreach u,$(UNIT_PARTS),$(foreach i,$(shell seq 1 $(call split_n,$(u))),$(eval \
    $(call unit_part_rule,$(call split_name,$(u)),$(call split_n,$(u)),$(i)))))
$(CLI_RUNS): run-%: $(CUBEGEN) $(PNGPICK)
	@echo "== tests/$*.sh"; $(TIMED) $@ env CUBEGEN=$(abspath $(CUBEGEN)) \
	    DATA=$(abspath tests/data/classic) PNGPICK=$(abspath $(PNGPICK)) bash tests/$*.sh
run-test_fault: $(FAULT_TEST)
	@echo "== $(FAULT_TEST)"; $(TIMED) $@ $(FAULT_TEST)
$(filter run-fault-cli.%,$(FAULT_RUNS)): run-fault-cli.%: $(FAULT_CUBEGEN)
	@echo "== tests/fault/cli.sh (part $*/$(FAULT_PARTS))"; $(TIMED) $@ env PART=$*/$(FAULT_PARTS) \
	    CUBEGEN=$(abspath $(FAULT_CUBEGEN)) DATA=$(abspath tests/data/classic) bash tests/fault/cli.sh
$(REPLAY_RUNS): run-replay_%: $(BUILD)/fuzz/replay_%
	@echo "== replay $*"; $(TIMED) $@ $< tests/fuzz/corpus/$* tests/fuzz/regress/$*
run-install: $(CUBEGEN)
	@echo "== tests/install.sh"; $(TIMED) $@ env LC_ALL=C bash tests/install.sh $(BUILD)

test: deps
	+$(MAKE) $(PAR) check-slow check-unit check-fuzz check-fault check-cli check-install

# Under the sanitizers the command-line tests leave out tests/viewer.sh:
# it tests the viewer's JavaScript in Chromium, and the commands that
# write its pages run under ASan in tests/cli.sh all the same. The
# sanitizers' runtimes are linked in and the programs are not position
# independent: a process then starts without relocating libasan and the
# UBSan data (4 MB of .data written at start, a fresh page each), about
# 40 % less time for a short run (docs/development.md).
ASAN_STATIC = $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),-static-libsan,-static-libasan -static-libubsan)
asan:
	+$(MAKE) $(PAR) BUILD=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	        LDFLAGS="-fsanitize=address,undefined $(ASAN_STATIC) -no-pie" \
	        TEST_SH="$(filter-out tests/viewer.sh,$(TEST_SH))" check-slow check-unit check-fuzz check-fault check-cli

# ThreadSanitizer on the split search (solver/tasks.c): the threaded unit
# test's stress case and a few threaded command lines, in build-tsan/
# (a minute or so).
TSAN_OPT := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
tsan:
	+$(MAKE) $(PAR) BUILD=build-tsan OPT="$(TSAN_OPT)" LDFLAGS="-fsanitize=thread" \
	        build-tsan/tests/test_tasks build-tsan/cubegen
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" TASKS_FILTER="*stress*" \
	    build-tsan/tests/test_tasks
	@set -e; export TSAN_OPTIONS="halt_on_error=1"; \
	for a in "tests/data/classic/pentacubes-2x3x10.puz --threads 8" \
	         "tests/data/classic/colour-mix.puz --threads 4 --print" \
	         "examples/ninecolour.puz --threads 3 --rename-colours" \
	         "tests/data/classic/soma.puz --threads 8 --max-nodes 5000" \
	         "tests/data/classic/soma.puz --threads 2 --shard 2/3 --json" \
	         "tests/data/bench/slabs-2x5x7.puz --threads 4 --print --difficulty-nodes 1" \
	         "examples/PelikanBurr.xmpuzzle --threads 4 --disassemble --print" \
	         "examples/soma.puz --threads 3 --disassemble --shard 1/2 --json"; do \
	    echo "== tsan: cubegen solve $$a"; build-tsan/cubegen solve $$a >/dev/null; done
	@set -e; export TSAN_OPTIONS="halt_on_error=1"; rm -rf build-tsan/blocks; \
	for a in "--size 3 --pieces 6 --cells 4..5 --seed 37 --threads 3" \
	         "--size 4 --pieces 13 --cells 4..6 --seed 2 --max-attempts 200 --threads 4"; do \
	    echo "== tsan: cubegen generate --kind blocks $$a"; \
	    build-tsan/cubegen generate --kind blocks $$a --out build-tsan/blocks >/dev/null || \
	    [ $$? = 1 ]; rm -rf build-tsan/blocks; done

# Errors and definite or indirect leaks make valgrind exit 99, which the
# tests report as a wrong exit code.
VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect
# What .ci/run runs after `make test`, side by side: `make -jN ci-checks`
# (the makes below share this one's N jobs; valgrind's cli.sh, the
# longest single run, first).
ci-checks: valgrind asan tsan fuzz warnings

# Everything built (not run) at -O3 by GCC and at -O2 by clang, in
# build-o3/ and build-clang/: each compiler and level sees warnings of
# its own (GCC's -O3 more variables it cannot see set), and -Werror
# makes any of them a failed build for whoever builds that way.
WARN_ALL = $(CUBEGEN) $(TESTS) $(BENCH) $(REPLAYS) $(FAULT_TEST) $(FAULT_CUBEGEN)
.PHONY: warnings warn-all
warnings:
	@sh tools/deps.sh fuzz
	+$(MAKE) $(PAR) BUILD=build-o3 OPT=-O3 warn-all
	+$(MAKE) $(PAR) CC=clang BUILD=build-clang warn-all
warn-all: $(WARN_ALL)

# cli.sh and disasm.sh under valgrind, side by side
VG_RUNS := run-valgrind-cli run-valgrind-disasm
.PHONY: $(VG_RUNS)
valgrind: $(CUBEGEN)
	+$(MAKE) $(PAR) $(VG_RUNS)
$(VG_RUNS): run-valgrind-%: $(CUBEGEN)
	@echo "== tests/$*.sh under valgrind"; $(TIMED) $@ env CUBEGEN=$(abspath $(CUBEGEN)) \
	    DATA=$(abspath tests/data/classic) WRAP="$(VALGRIND)" bash tests/$*.sh

fuzz-targets: $(FUZZERS)

# each fuzz target for FUZZ_SECONDS, side by side
FUZZ_RUNS := $(patsubst %,run-fuzz_%,$(FUZZ_NAMES))
.PHONY: $(FUZZ_RUNS)
fuzz:
	@sh tools/deps.sh fuzz
	+$(MAKE) $(PAR) CC=clang BUILD=build-fuzz \
	    OPT="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" $(FUZZ_RUNS)
$(FUZZ_RUNS): run-fuzz_%: $(BUILD)/fuzz/fuzz_%
	@echo "== fuzz $* for $(FUZZ_SECONDS) s"; mkdir -p $(BUILD)/corpus/$*; \
	$< -max_total_time=$(FUZZ_SECONDS) -timeout=60 \
	    -rss_limit_mb=2048 -close_fd_mask=2 -artifact_prefix=$(BUILD)/$*- \
	    -print_final_stats=1 \
	    $(BUILD)/corpus/$* tests/fuzz/corpus/$* tests/fuzz/regress/$* \
	    >$(BUILD)/$*.log 2>&1; rc=$$?; \
	grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^SUMMARY|ERROR" $(BUILD)/$*.log; \
	if [ $$rc -ne 0 ]; then echo "fuzz $* FAILED (log: $(BUILD)/$*.log; input: $(BUILD)/$*-*)"; \
	    tail -30 $(BUILD)/$*.log; exit 1; fi

bench: deps
	$(MAKE) OPT="-O2 -g -DNDEBUG" BUILD=build-bench build-bench/bench/bench build-bench/cubegen
	./build-bench/bench/bench

# The bench of commit BASE and of this tree (with its changes) in turn,
# ROUNDS times, side by side (tools/bench-compare.sh): e.g.
#   make bench-compare BASE=HEAD~3 GROUP=--wide ROUNDS=5
BASE   ?= HEAD
GROUP  ?= --solve
ROUNDS ?= 3
bench-compare: deps
	bash tools/bench-compare.sh --rounds "$(ROUNDS)" "$(BASE)" "$(GROUP)"

# Honours PREFIX (default /usr/local), BINDIR, MANDIR and DESTDIR.
install: $(CUBEGEN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(CUBEGEN) $(DESTDIR)$(BINDIR)/cubegen
	install -m 644 docs/cubegen.1 $(DESTDIR)$(MANDIR)/man1/cubegen.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cubegen $(DESTDIR)$(MANDIR)/man1/cubegen.1

clean:
	rm -rf build build-asan build-bench build-bench-base build-fuzz build-tsan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
