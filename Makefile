# Thin wrapper over CMake/CTest. The targets the README shows:
#   make            build (Release) into build/
#   make run        build and start the browser game on http://127.0.0.1:8080
#   make test       unit + CLI tests, then the whole suite again under ASan+UBSan
#                   with short libFuzzer runs (clang)
#   make test-long  the long suites (big property runs, FFO #20-39)
#   make bench      the benchmarks recorded in BENCHMARKS.md (and the web load test)
#   make weights    refit the Othello evaluation (src/reversi/eval_weights.bin) and the
#                   Gomoku/Renju one (src/gomoku/eval_weights.c; alone: make weights-gomoku)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan
CTEST_FLAGS ?= --output-on-failure -j $(JOBS)

.PHONY: all deps deps-test configure run test test-unit test-asan test-long bench weights weights-gomoku install clean format

all: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/deps.sh build

deps-test:
	@scripts/deps.sh test

run: all
	@echo "renversi: open http://127.0.0.1:8080 in a browser (Ctrl-C stops)"
	$(BUILD)/renversi serve --host 127.0.0.1 --port 8080 --db renversi.db

test: deps-test all test-unit test-asan

test-unit:
	cd $(BUILD) && ctest $(CTEST_FLAGS) -LE long

test-asan:
	CC=clang cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DRV_SANITIZE=ON -DRV_FUZZ=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && RV_SANITIZED=1 ctest $(CTEST_FLAGS) -LE long

test-long: deps-test all
	cd $(BUILD) && RV_TEST_SCALE=$${RV_TEST_SCALE:-50} ctest $(CTEST_FLAGS) -L long

bench: all
	$(BUILD)/renversi bench forbidden
	$(BUILD)/renversi bench perft
	$(BUILD)/renversi bench solve
	$(BUILD)/renversi bench search
	$(BUILD)/renversi bench midgame
	$(BUILD)/renversi bench midgame --eval simple
	bash bench/load.sh 500 10 0 $(BUILD)
	bash bench/load.sh 500 10 100 $(BUILD)

weights: all
	scripts/fit-weights.sh $(BUILD) $(JOBS)
	scripts/fit-gomoku-weights.sh $(BUILD)
	cmake --build $(BUILD) -j $(JOBS)

weights-gomoku: all
	scripts/fit-gomoku-weights.sh $(BUILD)
	cmake --build $(BUILD) -j $(JOBS)

install: all
	cmake --install $(BUILD)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
