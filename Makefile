# Entry points; each target runs the script of the same name under scripts/.
.PHONY: test run container-test

## test: the whole test suite (scripts/test.sh)
test:
	bash scripts/test.sh

## run: serve on 127.0.0.1:8080 with the sample config (scripts/run.sh)
run:
	bash scripts/run.sh

## container-test: build the image with podman and test it as an orchestrator runs it (scripts/container-test.sh)
container-test:
	bash scripts/container-test.sh
