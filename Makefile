# Front door: `make run` and `make test` set up a fresh Debian machine,
# build, and run the demo / the whole suite. CMake does the real work.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
# One test more than cores: a quarter of the suite's test time is tests
# waiting (sleeps, timeouts, signals) with their core idle (docs/testing.md).
TEST_JOBS ?= $(shell echo $$(( $(JOBS) + 1 )))
CMAKE_FLAGS ?=
# Every tree built from here keeps warnings as errors (CMake's own default
# is off: docs/building.md): a tree whose cache lacks SG_WERROR=ON (a new
# one, or one configured by hand) is configured again with it.
SG_CMAKE_FLAGS = -DSG_WERROR=ON $(CMAKE_FLAGS)
sg_configured = grep -q '^SG_WERROR:BOOL=ON$$' $(1)/CMakeCache.txt 2>/dev/null

.PHONY: all setup build build-asan run test test-plain test-asan asan-guest-copy clean bench install selftests sysdiff stress-ng compat strace-compare

all: build

setup:
	@sh scripts/setup.sh

$(BUILD)/Makefile: CMakeLists.txt | setup
	cmake -S . -B $(BUILD) $(SG_CMAKE_FLAGS)

build: setup
	@$(call sg_configured,$(BUILD)) || cmake -S . -B $(BUILD) $(SG_CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

build-asan: setup
	@$(call sg_configured,$(ASAN_BUILD)) || cmake -S . -B $(ASAN_BUILD) -DSG_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(SG_CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The demo: sample programs of each ABI, traced with the path each call took.
run: build
	@sh scripts/demo.sh $(BUILD)

test-plain: build
	cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)

test-asan: build-asan
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(TEST_JOBS)

# Both trees. The guest programs (tests/guest, the e2e guests: gcc
# -m32/-mx32/-m64, nasm and ld with flags of their own, the same in both
# trees) are built once: a sanitizer tree that does not exist yet starts
# with a copy of the plain tree's guest/, modification times kept, which
# its build finds up to date (docs/testing.md, "How long the suite takes").
# `make test-asan` alone builds them as any tree does.
test: build asan-guest-copy test-plain test-asan

asan-guest-copy: build
	@[ -e $(ASAN_BUILD) ] || [ ! -d $(BUILD)/guest ] || \
	  { mkdir -p $(ASAN_BUILD) && cp -a $(BUILD)/guest $(ASAN_BUILD)/guest; }

# The kernel's own x86 selftests (tools/testing/selftests/x86 and vDSO of
# Debian's linux-source-6.1, installed by the script itself: 130 MB that
# `make test` does not need), built for i386, x86_64 and x32, each run
# natively and under sysgate (docs/testing.md, "Kernel selftests").
# ONLY=regex picks tests by name.
selftests: build
	bash tests/selftests/run.sh $(BUILD)/sysgate $(BUILD)/selftests '$(ONLY)'

# Install the CLI, the libraries (shared and static), sysgate.h, sysgate.pc,
# the CMake package (find_package(sysgate): docs/building.md)
# and the man page under PREFIX (DESTDIR for staging).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

# Benchmarks (not part of `make test`): the release tree, then bench/run.sh:
# native, sysgate and qemu-user side by side. REPS=N, SMALL=1 (quick),
# FULL=1 (the issue's sizes), ONLY=regex; COUNT=1: host instructions per
# guest instruction instead of times (noise-free, every ABI).
BENCH_BUILD ?= build-release
REPS ?= 5
SMALL ?= 0
FULL ?= 0
ONLY ?= .
COUNT ?= 0

bench: setup
	@$(call sg_configured,$(BENCH_BUILD)) || cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release $(SG_CMAKE_FLAGS)
	cmake --build $(BENCH_BUILD) -j $(JOBS) --target sysgate_cli
	REPS=$(REPS) SMALL=$(SMALL) FULL=$(FULL) ONLY='$(ONLY)' COUNT=$(COUNT) bash bench/run.sh $(BENCH_BUILD)

# The stress-ng oracle (docs/testing.md): every stressor of the classes os,
# memory, signal, pipe, scheduler, filesystem with --verify, natively and
# under sysgate. STRESS_SECS=10 per stressor, STRESS_ONLY=regex.
STRESS_SECS ?= 10
STRESS_ONLY ?= .
stress-ng: build
	@sh scripts/setup.sh stress-ng
	sh scripts/stress_ng.sh $(BUILD)/sysgate $(STRESS_SECS) '$(STRESS_ONLY)'

# Differential test against the host CPU: `make difftest N=1000000 [SEED=s]`
# (per-family table of trials and mismatches; mismatches logged with bytes).
difftest: setup
	@$(call sg_configured,$(BUILD)) || cmake -S . -B $(BUILD) $(SG_CMAKE_FLAGS)
	cmake --build $(BUILD) --target difftest -j $(JOBS)
	$(BUILD)/tests/difftest/difftest -n $(or $(N),100000) --seed $(or $(SEED),1) --log 3 \
	  --native64 $(BUILD)/tests/difftest/difftest-native64 \
	  --native32 $(BUILD)/tests/difftest/difftest-native32

# System call differential tester, the long run: `make sysdiff [N=1500]
# [SEED=s]` (generated calls per ABI natively and under sysgate; docs/testing.md).
sysdiff: build
	sh tests/e2e/sysdiff/run_sysdiff.sh --count $(or $(N),1500) --seed $(or $(SEED),1) \
	  --show $(or $(SHOW),40) $(BUILD)/sysgate $(BUILD)/guest

# CPython's regression tests (Debian's libpython3.11-testsuite, installed
# when missing) natively and under sysgate, each module's outcomes
# compared (tests/compat/compat.sh; i386 from a python3.11:i386 root under
# $(BUILD)/compat). `make compat [COMPAT_ABIS=x86_64] [COMPAT_MODULES="test_os"]`
COMPAT_ABIS ?= x86_64 i386
COMPAT_MODULES ?=
compat: build
	COMPAT_I386_PROBE=$(BUILD)/guest/probe-i386 \
	  sh tests/compat/compat.sh $(BUILD)/sysgate $(BUILD)/compat "$(COMPAT_ABIS)" $(COMPAT_MODULES)

# `sysgate --trace -f` against `strace -f` over ~20 real programs per ABI
# (tests/e2e/trace/strace_suite.sh; docs/trace-format.md, "How close to
# strace"): identical lines per program and ABI, then the differing lines
# by call. The i386 root is built first (the ctest fixture). ONLY=regex.
strace-compare: build
	cd $(BUILD) && ctest -R 'e2e.dynamic-i386-root.setup' >/dev/null || true
	sh tests/e2e/trace/strace_suite.sh --only '$(or $(ONLY),.)' $(BUILD)
