# tilehybrid -- header-only MPI / MPI+OpenMP tiling toolkit.
#
#   make demo      run the main demo (installs MPICH first if it is missing)
#   make check     build everything and run every test
#   make bench     run the benchmarks in bench/
#   make install   PREFIX=/usr/local: headers, tilectl and tilehybrid.pc
#
# The first two targets check for mpicc/mpiexec (tools/ensure-deps.sh) and
# then re-run make, so that the compiler flags are read from a working MPI.

PREFIX  ?= /usr/local
MPICC   ?= mpicc
MPIEXEC ?= mpiexec
CFLAGS  ?= -O2
WARN    := -std=c99 -Wall -Wextra -pedantic -Werror
OMP     ?= -fopenmp
B       := build

HEADERS := tiling.h hybrid.h topology.h balance.h scatterlb.h
VERSION := $(shell sed -n 's/^\#define TOPO_VERSION "\(.*\)"/\1/p' topology.h)

UNIT    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/unit_*.c))
MPIT    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/mpi_*.c))
ASAN    := $(patsubst tests/%.c,$(B)/asan/%,$(wildcard tests/unit_*.c tests/mpi_*.c))
DEMOS   := $(patsubst demos/%.c,demos/%,$(wildcard demos/*.c))
BENCHES := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))
CTL_SRC := $(wildcard tools/tilectl/*.c)

.PHONY: all demo check bench install uninstall clean deps \
        all-real demo-real check-real bench-real

all: deps
	@$(MAKE) --no-print-directory all-real
demo: deps
	@$(MAKE) --no-print-directory demo-real
check: deps
	@$(MAKE) --no-print-directory check-real
bench: deps
	@$(MAKE) --no-print-directory bench-real
deps:
	@sh tools/ensure-deps.sh

all-real: tilectl $(DEMOS)

demo-real: all-real
	@sh demos/run-demo.sh

check-real: all-real $(UNIT) $(MPIT) $(ASAN) $(BENCHES)
	@MPIEXEC="$(MPIEXEC)" MPICC="$(MPICC)" sh tests/run.sh

bench-real: all-real $(BENCHES)
	@MPIEXEC="$(MPIEXEC)" sh bench/run.sh

tilectl: $(CTL_SRC) tools/tilectl/cli.h $(HEADERS)
	$(MPICC) $(WARN) $(CFLAGS) -I. -o $@ $(CTL_SRC) -lm

demos/%: demos/%.c demos/demo.h $(HEADERS)
	$(MPICC) $(WARN) $(CFLAGS) $(OMP) -I. -o $@ $< -lm

$(B)/tests/%: tests/%.c tests/check.h tests/seismic.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) -g $(OMP) -I. -o $@ $< -lm

# Unit and MPI tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
$(B)/asan/%: tests/%.c tests/check.h $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) -O1 -g -fsanitize=address,undefined \
	    -fno-sanitize-recover=all -fno-omit-frame-pointer $(OMP) -I. -o $@ $< -lm

$(B)/bench/%: bench/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(MPICC) $(WARN) $(CFLAGS) $(OMP) -I. -o $@ $< -lm

tilehybrid.pc: tilehybrid.pc.in topology.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

install: tilectl tilehybrid.pc
	install -d $(DESTDIR)$(PREFIX)/include/tilehybrid $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/tilehybrid
	install -m 755 tilectl $(DESTDIR)$(PREFIX)/bin
	install -m 644 tilehybrid.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/tilehybrid
	rm -f $(DESTDIR)$(PREFIX)/bin/tilectl $(DESTDIR)$(PREFIX)/lib/pkgconfig/tilehybrid.pc

clean:
	rm -rf $(B) tilectl tilehybrid.pc $(DEMOS)
