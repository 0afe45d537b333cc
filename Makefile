# tilehybrid -- header-only MPI / MPI+OpenMP tiling toolkit.
#
#   make demo      run the main demo (installs MPI first if it is missing)
#   make check     the quick tier: every kind of test on a sample drawn from
#                  CHECK_SEED, printed first (CHECK_SEED=N make check draws
#                  it again); minutes
#   make check-full    build everything and run every test (CI)
#   make check-tsan    the threaded MPI runs under ThreadSanitizer + Archer
#   make fuzz      the command lines and pure functions under libFuzzer
#                  for a minute (FUZZ_SECONDS=60; clang; tests/fuzz/)
#   make bench     run the benchmarks and draw the figures (bench/results/)
#   make bench-quick   the same, reduced set (about a minute)
#   make install   PREFIX=/usr/local [DESTDIR=...]: headers, tilectl,
#                  tilehybrid.pc and the CMake package (make uninstall)
#   make simulate  the papers' clusters simulated with SimGrid SMPI (sim/,
#                  installs libsimgrid-dev first); make simulate-quick: a
#                  reduced set (a few minutes)
#
# The first three targets check for mpicc/mpiexec (tools/ensure-deps.sh) and
# then re-run make, so that the compiler flags are read from a working MPI.
#
# MPI selects the MPI library:
#   (not set)     MPICH through mpicc.mpich/mpiexec.mpich when they exist (so
#                 that installing Open MPI, which takes over the Debian
#                 `mpicc` alternative, changes nothing), else mpicc/mpiexec;
#                 binaries in ./demos, ./tilectl and build/
#   MPI=mpich     mpicc.mpich/mpiexec.mpich, binaries in build/mpich/
#   MPI=openmpi   mpicc.openmpi/mpiexec.openmpi, binaries in build/openmpi/
#   MPI=smpi      SimGrid's smpicc/smpirun (SMPICC=..., SMPIRUN=...), no
#                 OpenMP, binaries in build/smpi/ (they run only under
#                 smpirun); builds the demos and sim/'s programs only
# MPICC=... MPIEXEC=... override the compiler and launcher in every case.

PREFIX  ?= /usr/local
MPI     ?=
ifeq ($(MPI),)
  ifneq ($(shell command -v mpicc.mpich 2>/dev/null),)
    MPICC   ?= mpicc.mpich
    MPIEXEC ?= mpiexec.mpich
  else
    MPICC   ?= mpicc
    MPIEXEC ?= mpiexec
  endif
  B       := build
  DEMODIR := demos
  TILECTL := tilectl
else ifneq ($(filter $(MPI),mpich openmpi),)
  MPICC   ?= mpicc.$(MPI)
  MPIEXEC ?= mpiexec.$(MPI)
  B       := build/$(MPI)
  DEMODIR := $(B)/demos
  TILECTL := $(B)/tilectl
else ifeq ($(MPI),smpi)
  # := so that the MPICC and MPIEXEC the tests export do not leak in
  SMPICC  ?= smpicc
  SMPIRUN ?= smpirun
  MPICC   := $(SMPICC)
  MPIEXEC := $(SMPIRUN)
  B       := build/smpi
  DEMODIR := $(B)/demos
  TILECTL := $(B)/tilectl
  OMP     :=
else
  $(error MPI=$(MPI): unknown MPI; use MPI=mpich, MPI=openmpi or MPI=smpi, or MPICC=... MPIEXEC=...)
endif
CFLAGS  ?= -O2
# -ffp-contract=off: no fused multiply-add where the source has two
# operations (bitwise identity with the sequential loop; tiling.h)
WARN    := -std=c99 -Wall -Wextra -pedantic -Werror -ffp-contract=off
OMP     ?= -fopenmp
# compilers at once in `make all`, `make demo` and `make check`'s build
JOBS    ?= $(shell nproc 2>/dev/null || echo 1)

HEADERS := tilehybrid.h tiling.h hybrid.h topology.h balance.h scatterlb.h
# tiling.h, topology.h, scatterlb.h and balance.h are joined from their parts in
# src/NAME/ (tools/join.sh): edit the parts; make joins them, and the joined
# headers are committed (a user copies one file; tests/cli_hygiene.sh fails
# when a committed one is stale)
VERSION := $(shell sed -n 's/^\#define TILEHYBRID_VERSION "\(.*\)"/\1/p' tilehybrid.h)

UNIT    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/unit_*.c))
MPIT    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/mpi_*.c))
ASAN    := $(patsubst tests/%.c,$(B)/asan/%,$(wildcard tests/unit_*.c tests/mpi_*.c))
# the sanitized programs of the quick tier: the unit tests and the MPI test
# of random configurations in every model
QUICK_ASAN := $(patsubst tests/%.c,$(B)/asan/%,$(wildcard tests/unit_*.c) tests/mpi_tiling.c)
DEMOS   := $(patsubst demos/%.c,$(DEMODIR)/%,$(wildcard demos/*.c))
BENCHES := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))
# bench/speed.sh's second build of the one-process kernels, at the CPU's own
# vector width (WARN's -ffp-contract=off still holds); bench/limit also at
# 512-bit vectors where the compiler takes -mprefer-vector-width (GCC and
# clang choose 256 bits on many AVX-512 CPUs)
NATIVE_CFLAGS ?= -O2 -march=native
NATIVE  := $(addprefix $(B)/bench-native/,inner_order seq_kernels limit limit-512)
# demos linked with tests/pmpi_failure.c (an MPI call made to fail on one rank)
DEMO_FAILURE := $(B)/tests/adi_failure $(B)/tests/sw_failure $(B)/tests/scatter_failure \
                $(B)/tests/p2p_failure \
                $(B)/tests/ssor_failure
CTL_SRC := $(wildcard tools/tilectl/*.c)
FUZZ_SECONDS ?= 60
# the fuzz target with tilectl's subcommands (not its main) and the demos' parser
FUZZ_SRC := tests/fuzz/fuzz_cli.c $(filter-out tools/tilectl/main.c,$(CTL_SRC))

.PHONY: all demo check check-full check-tsan fuzz bench bench-quick install uninstall clean deps \
        all-real demo-real check-build check-build-quick check-real check-full-real check-tsan-real bench-real bench-quick-real \
        simulate simulate-quick sim-deps sim-build

all: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all-real
demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all-real
	@$(MAKE) --no-print-directory demo-real
# the build runs JOBS compilers at once; tests/run.sh says how many tests
# run at once (two in the quick tier, one in the full one)
check: deps
	@$(MAKE) --no-print-directory -j$(JOBS) check-build-quick
	@$(MAKE) --no-print-directory check-real
check-full: deps
	@$(MAKE) --no-print-directory -j$(JOBS) check-build
	@$(MAKE) --no-print-directory check-full-real
check-tsan: deps
	@$(MAKE) --no-print-directory check-tsan-real
# clang -fsanitize=thread -fopenmp needs the LLVM OpenMP runtime: deps
# installs it where it may (the target skips, saying why, without it)
check-tsan: export TILEHYBRID_TSAN = 1
fuzz: deps
	@$(RUNENV) FUZZ_SECONDS="$(FUZZ_SECONDS)" sh tests/fuzz/run.sh
bench: deps
	@$(MAKE) --no-print-directory bench-real
bench-quick: deps
	@$(MAKE) --no-print-directory bench-quick-real
# the benchmarks draw their figures with gnuplot: deps installs it too
bench bench-quick: export TILEHYBRID_GNUPLOT = 1
deps:
	@MPI="$(MPI)" MPICC="$(MPICC)" MPIEXEC="$(MPIEXEC)" sh tools/ensure-deps.sh

# The simulations (sim/README.md): SimGrid and gnuplot first, then the SMPI
# build in build/smpi/, then sim/run.sh.  Whatever MPI= says, they build with
# MPI=smpi.
SIM_PROGS := $(patsubst sim/%.c,build/smpi/sim/%,$(wildcard sim/*.c))
simulate: sim-deps
	@$(MAKE) --no-print-directory MPI=smpi sim-build
	@nice -n 10 sh sim/run.sh
simulate-quick: sim-deps
	@$(MAKE) --no-print-directory MPI=smpi sim-build
	@nice -n 10 sh sim/run.sh --quick
sim-deps:
	@MPI=smpi TILEHYBRID_GNUPLOT=1 sh tools/ensure-deps.sh
# the demos and sim/'s programs, built with smpicc into build/smpi/
ifeq ($(MPI),smpi)
sim-build: $(DEMODIR)/adi $(DEMODIR)/de $(DEMODIR)/scatter $(SIM_PROGS)
else
sim-build:
	@$(MAKE) --no-print-directory MPI=smpi sim-build
endif

# what the scripts run: tests/run.sh, tests/cli_*.sh and demos/run-demo.sh
# take the binaries' places from these variables
RUNENV  := MPI="$(MPI)" MPICC="$(MPICC)" MPIEXEC="$(MPIEXEC)" B="$(B)" \
           DEMODIR="$(DEMODIR)" TILECTL="./$(TILECTL)"

# (every time: a part renamed or removed, or the header edited by hand, has
# no newer prerequisite; join.sh writes the header only when the join
# differs, so nothing else is rebuilt, and refuses a header edited by hand)
tiling.h: FORCE
	@sh tools/join.sh --update src/tiling $@
topology.h: FORCE
	@sh tools/join.sh --update src/topology $@
scatterlb.h: FORCE
	@sh tools/join.sh --update src/scatterlb $@
balance.h: FORCE
	@sh tools/join.sh --update src/balance $@
FORCE:
.PHONY: FORCE

all-real: $(TILECTL) $(DEMOS)

demo-real: all-real
	@$(RUNENV) sh demos/run-demo.sh

CHECK_COMMON := all-real $(UNIT) $(MPIT) $(BENCHES) $(B)/fuzz/replay $(DEMO_FAILURE) \
                $(B)/tests/failure_collectives $(B)/tests/return_body $(B)/tests/return_body_noguard \
                $(B)/tests/separate $(B)/tests/lu_plain
# the quick tier leaves out the native benchmark build (tests/cli_bench.sh
# skips bench/speed.sh without it) and most sanitized programs
check-build: $(CHECK_COMMON) $(ASAN) $(NATIVE)
check-build-quick: $(CHECK_COMMON) $(QUICK_ASAN)
# the quick tier runs the sanitized programs that are built: not the others
# a check-full left behind
check-real: check-build-quick
	@$(RUNENV) ASAN_ONLY="$(QUICK_ASAN)" sh tests/run.sh
check-full-real: check-build
	@$(RUNENV) sh tests/run.sh --full

# tests/run.sh --tsan builds its own binaries (in $(B)/tsan) with clang
check-tsan-real:
	@$(RUNENV) sh tests/run.sh --tsan

bench-real: all-real $(BENCHES) $(NATIVE)
	@$(RUNENV) NATIVE_CFLAGS="$(NATIVE_CFLAGS)" sh bench/run.sh

bench-quick-real: all-real $(BENCHES) $(NATIVE)
	@$(RUNENV) NATIVE_CFLAGS="$(NATIVE_CFLAGS)" sh bench/run.sh --quick

$(TILECTL): $(CTL_SRC) tools/tilectl/cli.h tools/options.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -I. -o $@ $(CTL_SRC) -lm

$(DEMODIR)/%: demos/%.c $(wildcard demos/*.h) tools/options.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) $(OMP) -I. -o $@ $< -lm

$(B)/tests/%: tests/%.c tests/check.h tests/seismic.h tests/slb_reference.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g $(OMP) -I. -o $@ $< -lm

# Most MPI tests compile the cold code once per build (tilehybrid.h,
# "COMPILING THE COLD CODE ONCE"): linked with the implementation file
# tests/separate_impl.c built with the same options, a test with one
# HYBRID_RUN compiles in a fifth of the time.  The tests that define an
# option of the headers (TILE_CHECK_ACCESS, TILE_MSG_MAX), a feature macro
# the headers test (_POSIX_C_SOURCE, _REENTRANT), or that stand for the
# other headers, stay header-only; so do the demos, the tutorial and the
# installed-header builds of the cli tests.
SEPARATE_T := agree_lazy band data data_calls demo_verify field_sweep map route \
              run_checkpoint stencil thread_level tilehybrid tiling tiling_height \
              topology_faces undeclared
SEP_MPIT   := $(patsubst %,$(B)/tests/mpi_%,$(SEPARATE_T))
SEP_ASAN   := $(patsubst %,$(B)/asan/mpi_%,$(SEPARATE_T))
$(B)/tests/impl.o: tests/separate_impl.c $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g $(OMP) -I. -c -o $@ $<
$(SEP_MPIT): $(B)/tests/%: tests/%.c tests/check.h $(HEADERS) $(B)/tests/impl.o
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g $(OMP) -DTILEHYBRID_SEPARATE -I. -o $@ $< \
	    $(B)/tests/impl.o -lm

# Unit and MPI tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Under GCC the register allocator works on each function as one region and
# the debug information skips the values' locations: a test's functions,
# each body put in place in every walk, are large, and this halves their
# build (mpi_band: 80 s -> 42 s on the CI's VM; clang takes neither flag).
ASAN_SPEED := $(shell $(MPICC) -dM -E -x c /dev/null 2>/dev/null | grep -q __clang__ || \
                      echo -fira-region=one -fno-var-tracking-assignments)
ASAN_FLAGS := -O1 -g $(ASAN_SPEED) -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
$(B)/asan/%: tests/%.c tests/check.h tests/slb_reference.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(ASAN_FLAGS) $(OMP) -I. -o $@ $< -lm
$(B)/asan/impl.o: tests/separate_impl.c $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(ASAN_FLAGS) $(OMP) -I. -c -o $@ $<
$(SEP_ASAN): $(B)/asan/%: tests/%.c tests/check.h $(HEADERS) $(B)/asan/impl.o
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(ASAN_FLAGS) $(OMP) -DTILEHYBRID_SEPARATE -I. -o $@ $< \
	    $(B)/asan/impl.o -lm

# the fuzz target built to replay its corpus once (tests/cli_fuzz.sh; make
# fuzz builds it with libFuzzer); float-cast-overflow: a double out of range
# converted to an integer (not part of -fsanitize=undefined)
$(B)/fuzz/replay: $(FUZZ_SRC) tools/tilectl/cli.h tools/options.h demos/demo.h demos/agree.h demos/edge.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) -Wno-unused-function -O1 -g -fsanitize=address,undefined,float-cast-overflow \
	    -fno-sanitize-recover=all -fno-omit-frame-pointer -DFUZZ_REPLAY -I. -o $@ $(FUZZ_SRC) -lm

# demos/lu includes the plain sequential reference (--verify)
$(DEMODIR)/lu: tests/lu_plain.h

# a test that includes another one (compiled again with other options)
$(B)/tests/mpi_stencil_checked $(B)/asan/mpi_stencil_checked: tests/mpi_stencil.c
# the two tests of the data calls share a header
$(B)/tests/mpi_data $(B)/tests/mpi_data_calls $(B)/asan/mpi_data $(B)/asan/mpi_data_calls: \
    tests/data_common.h

# two files of one program, the cold code compiled once (tilehybrid.h's
# TILEHYBRID_SEPARATE, TILEHYBRID_IMPLEMENTATION in separate_impl.c)
$(B)/tests/separate: tests/separate_main.c tests/separate_impl.c tests/check.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g $(OMP) -I. -o $@ tests/separate_main.c tests/separate_impl.c -lm

# the failure test, linked with its PMPI wrappers (tests/pmpi_failure.c: an
# MPI call made to fail on one rank; tests/cli_failure.sh drives it)
$(B)/tests/mpi_failure: tests/mpi_failure.c tests/pmpi_failure.c tests/pmpi_failure.h \
                        tests/check.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g $(OMP) -I. -o $@ tests/mpi_failure.c tests/pmpi_failure.c -lm
# demos/adi, sw, p2p, scatter and ssor linked with the same wrappers (tests/cli_failure.sh:
# the demos' own MPI calls, on the plan's communicator or MPI_COMM_WORLD)
$(DEMO_FAILURE): $(B)/tests/%_failure: demos/%.c tests/pmpi_failure.c tests/pmpi_failure.h \
                                       $(wildcard demos/*.h) tools/options.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) $(OMP) -I. -o $@ $< tests/pmpi_failure.c -lm
# the collectives of topology.h and scatterlb.h with the same wrappers
# (tests/cli_collective_failure.sh)
$(B)/tests/failure_collectives: tests/failure_collectives.c tests/pmpi_failure.c \
                                tests/pmpi_failure.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g -I. -o $@ tests/failure_collectives.c tests/pmpi_failure.c -lm
# a body that returns (tests/cli_return.sh): without OpenMP, where the
# compiler lets it; _noguard without the guard that sees the return at once
# (the fallback of compilers without a cleanup attribute or C++)
$(B)/tests/return_body: tests/return_body.c $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g -I. -o $@ tests/return_body.c -lm
$(B)/tests/return_body_noguard: tests/return_body.c $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g -DTILE__NO_GUARD -I. -o $@ tests/return_body.c -lm
$(B)/asan/mpi_failure: tests/mpi_failure.c tests/pmpi_failure.c tests/pmpi_failure.h \
                       tests/check.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) -O1 -g -fsanitize=address,undefined \
	    -fno-sanitize-recover=all -fno-omit-frame-pointer $(OMP) -I. -o $@ \
	    tests/mpi_failure.c tests/pmpi_failure.c -lm

# NPB LU's plain sequential reference (tests/lu_plain.h; tests/cli_lu_plain.sh
# runs it): no MPI, no OpenMP; built with the MPI wrapper's compiler, as
# the tests it is a reference for
$(B)/tests/lu_plain: tests/lu_plain.c tests/lu_plain.h demos/lu_point.h
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g -o $@ tests/lu_plain.c -lm

# sim/'s programs (make MPI=smpi sim-build)
build/smpi/sim/%: sim/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -I. -o $@ $< -lm

$(B)/bench/%: bench/%.c bench/bench.h demos/edge.h tests/slb_reference.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) $(OMP) -I. -o $@ $< -lm
$(B)/bench-native/%: bench/%.c bench/bench.h demos/edge.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(NATIVE_CFLAGS) $(OMP) -I. -o $@ $< -lm
$(B)/bench-native/limit-512: bench/limit.c bench/bench.h demos/edge.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(NATIVE_CFLAGS) $$($(MPICC) -mprefer-vector-width=512 -E -x c /dev/null \
	    >/dev/null 2>&1 && echo -mprefer-vector-width=512) $(OMP) -I. -o $@ bench/limit.c -lm

# install and uninstall honour DESTDIR.  tilehybrid.pc and the CMake version
# file are written at install time, so a new PREFIX is never stale.  uninstall
# removes the files install wrote and their two own directories when empty.
CMAKEDIR := $(PREFIX)/lib/cmake/tilehybrid
PCDIR    := $(PREFIX)/lib/pkgconfig

install: $(TILECTL) tilehybrid.pc.in cmake/tilehybridConfig.cmake cmake/tilehybridConfigVersion.cmake.in
	install -d $(DESTDIR)$(PREFIX)/include/tilehybrid $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PCDIR) $(DESTDIR)$(CMAKEDIR)
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/tilehybrid
	install -m 755 $(TILECTL) $(DESTDIR)$(PREFIX)/bin
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' tilehybrid.pc.in \
	    > $(DESTDIR)$(PCDIR)/tilehybrid.pc
	install -m 644 cmake/tilehybridConfig.cmake $(DESTDIR)$(CMAKEDIR)
	sed -e 's|@VERSION@|$(VERSION)|g' cmake/tilehybridConfigVersion.cmake.in \
	    > $(DESTDIR)$(CMAKEDIR)/tilehybridConfigVersion.cmake
	chmod 644 $(DESTDIR)$(PCDIR)/tilehybrid.pc $(DESTDIR)$(CMAKEDIR)/tilehybridConfigVersion.cmake

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/include/tilehybrid/,$(HEADERS))
	rmdir $(DESTDIR)$(PREFIX)/include/tilehybrid 2>/dev/null || true
	rm -f $(DESTDIR)$(PREFIX)/bin/tilectl $(DESTDIR)$(PCDIR)/tilehybrid.pc
	rm -f $(DESTDIR)$(CMAKEDIR)/tilehybridConfig.cmake $(DESTDIR)$(CMAKEDIR)/tilehybridConfigVersion.cmake
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true

clean:
	rm -rf build tilectl tilehybrid.pc $(patsubst demos/%.c,demos/%,$(wildcard demos/*.c))
