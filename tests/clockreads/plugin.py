"""pytest plugin: how often each test, and each module- or session-scoped fixture, read the
wall clock (counted by libclockcount.so, built from clockcount.c: README.md). Not loaded by
the suite; ``-p plugin`` with this folder on PYTHONPATH. Writes JSON lines to
``$LAVRA_CLOCKOUT.<worker>``."""

from __future__ import annotations

import ctypes
import json
import mmap
import os
import struct
from collections.abc import Iterator
from typing import Any

import pytest

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker:  # a counter of this worker's own (and of the processes it starts)
    _path = f"{os.environ['LAVRA_CLOCKCOUNT']}.{_worker}"
    with open(_path, "wb") as blank:
        blank.write(bytes(4096))
    ctypes.CDLL(None).clockcount_use(_path.encode())
    os.environ["LAVRA_CLOCKCOUNT"] = _path
with open(os.environ["LAVRA_CLOCKCOUNT"], "r+b") as _file:
    _counts = mmap.mmap(_file.fileno(), 4096)
_out = open(f"{os.environ['LAVRA_CLOCKOUT']}.{_worker or 'main'}", "w")  # noqa: SIM115
_tests: dict[str, dict[str, Any]] = {}


def _now() -> tuple[int, ...]:
    return struct.unpack_from("5q", _counts)


def _since(before: tuple[int, ...]) -> list[int]:
    return [after - then for then, after in zip(before, _now(), strict=True)]


def _write(record: dict[str, Any]) -> None:
    _out.write(json.dumps(record) + "\n")
    _out.flush()


def _phase(item: pytest.Item, phase: str) -> Iterator[None]:
    before = _now()
    yield
    record = _tests.setdefault(item.nodeid, {"id": item.nodeid,
                                             "fixtures": list(getattr(item, "fixturenames", ()))})
    record[phase] = _since(before)


# trylast: inside pytest's own timing of each phase (CallInfo reads time.time())
@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    yield from _phase(item, "setup")


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    yield from _phase(item, "call")


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    yield from _phase(item, "teardown")
    _write(_tests.pop(item.nodeid))


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: Any, request: pytest.FixtureRequest) -> Iterator[None]:
    before = _now()
    yield
    if fixturedef.scope != "function":
        _write({"fixture": fixturedef.argname, "baseid": fixturedef.baseid,
                "delta": _since(before)})
