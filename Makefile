# Entry points; each target runs the script of the same name under scripts/.
.PHONY: test check run install container-test

## test: the whole test suite, what CI runs (scripts/test.sh; it ends with a table of each step's seconds)
test:
	bash scripts/test.sh

## check: the inner loop, before every commit: a debug build, the Swift tests, the docs' examples (scripts/test.sh --quick)
check:
	bash scripts/test.sh --quick

## run: serve on 127.0.0.1:8080 with the sample config (scripts/run.sh; the default build, without the PostgreSQL store)
run:
	bash scripts/run.sh

## install: build the release binary with the PostgreSQL store and install it as $(PREFIX)/bin/tabconfig (scripts/install.sh; PREFIX=~/.local)
install:
	bash scripts/install.sh

## container-test: build the image from source with podman and test it as an orchestrator runs it (scripts/container-test.py)
container-test:
	python3 scripts/container-test.py
