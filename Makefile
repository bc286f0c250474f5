# The contributor's loop (docs/contributing.md). CI (.ci/run) runs lint, typecheck and test.
.PHONY: install lint format typecheck unit test slow

install:
	pip install torch==2.13.0 -e ".[dev]"

lint:
	ruff check .
	ruff format --check .

format:
	ruff format .
	ruff check --fix .

typecheck:
	mypy

unit:
	python -m pytest -q -m unit

test:
	python -m pytest -q

slow:
	python -m pytest -q -m slow
