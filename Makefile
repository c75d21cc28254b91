# Entry points; each target runs the script of the same name under scripts/.
.PHONY: test run install container-test

## test: the whole test suite (scripts/test.sh)
test:
	bash scripts/test.sh

## run: serve on 127.0.0.1:8080 with the sample config (scripts/run.sh)
run:
	bash scripts/run.sh

## install: build the release binary and install it as $(PREFIX)/bin/tabconfig (scripts/install.sh; PREFIX=~/.local)
install:
	bash scripts/install.sh

## container-test: build the image with podman and test it as an orchestrator runs it (scripts/container-test.sh)
container-test:
	bash scripts/container-test.sh
