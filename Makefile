# The README's commands. Each installs the Debian packages it needs
# (cmake/install-deps.sh) and builds from scratch when needed; build
# output goes to BUILD/logs/ and shows only when something fails.
#   make demo                     build, compile an example kernel, print its SSA
#   make dashboard                build, serve the dashboard on the examples (Ctrl-C stops)
#   make test                     build (normal + ASan/UBSan), run every test, one summary line
#   make install PREFIX=DIR       build, install DIR/bin/mytriton (default PREFIX /usr/local)
#   make fuzz [FUZZ_SECONDS=N]    build the libFuzzer targets (clang) and run each N seconds
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 600

.PHONY: deps build demo dashboard test install fuzz clean

deps:
	@sh cmake/install-deps.sh

build: deps
	@JOBS=$(JOBS) sh cmake/build.sh $(BUILD) -DMT_WERROR=ON

demo: build
	@echo "make demo: built $(BUILD)/cli/mytriton; compiling examples/add_kernel.py:"
	@./$(BUILD)/cli/mytriton compile examples/add_kernel.py --signature '*fp32,*fp32,*fp32,i32,256' --emit ssa
	@echo "make demo: the dashboard (every stage linked to the source, runs, profiles): make dashboard,"
	@echo "           or ./$(BUILD)/cli/mytriton serve examples, then open http://127.0.0.1:8765/"

dashboard: build
	@./$(BUILD)/cli/mytriton serve examples

test:
	@BUILD=$(BUILD) ASAN_BUILD=$(ASAN_BUILD) JOBS=$(JOBS) sh cmake/run-tests.sh

install: build
	@cmake --install $(BUILD) --prefix "$(PREFIX)" > $(BUILD)/logs/install.log 2>&1 || \
	  { echo "make install: failed; see $(BUILD)/logs/install.log"; tail -n 20 $(BUILD)/logs/install.log; exit 1; }
	@echo "make install: installed $(PREFIX)/bin/mytriton"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; \
	  *) echo "make install: $(PREFIX)/bin is not on PATH; add it: export PATH=\"$(PREFIX)/bin:\$$PATH\"" ;; esac

fuzz:
	@sh cmake/install-deps.sh fuzz
	@JOBS=$(JOBS) sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
