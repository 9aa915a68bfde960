# The two set-up commands of the README. Both install the Debian packages
# they need (cmake/install-deps.sh) and build from scratch when needed.
#   make demo   build everything, compile an example kernel, print its SSA
#   make test   build (normal + ASan/UBSan) and run every test
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan

.PHONY: deps build demo test test-asan clean

deps:
	@sh cmake/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DMT_WERROR=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/cli/mytriton compile examples/add_kernel.py --signature '*fp32,*fp32,*fp32,i32,256' --emit ssa

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@# GPU tests skip (exit 77) without a GPU; say so where it shows.
	@ctest --test-dir $(BUILD) -R '^gpu[.]vector_add$$' -V 2>/dev/null | grep -m1 -o 'SKIP:.*' \
	  | sed 's/^SKIP: /GPU tests skipped: /; s/$$/ (MYTRITON_REQUIRE_CUDA=1 makes this a failure)/' || true
	$(MAKE) test-asan

test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DMT_SANITIZE=ON -DMT_WERROR=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) -LE 'gpu|bench'

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
