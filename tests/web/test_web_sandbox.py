"""The upload sandbox: a separate process, with time and memory limits."""

from __future__ import annotations

import os
import time

import pytest

from lavra.errors import InputError
from lavra.web.sandbox import Limits, MiB, run_isolated


def worker_pid() -> int:
    return os.getpid()


def double(value: int) -> int:
    return value * 2


def hang() -> None:
    while True:
        time.sleep(0.05)


def hog() -> int:
    blocks = [bytearray(64 * MiB) for _ in range(64)]  # 4 GiB, over the limit
    return len(blocks)


def refuse() -> None:
    raise InputError("Campo recusado.", field="/campo")


def crash() -> None:
    raise KeyError("interno")


def test_the_result_comes_back() -> None:
    assert run_isolated(double, 21) == 42


def test_a_hanging_parser_is_killed() -> None:
    with pytest.raises(InputError, match="excedeu o tempo permitido"):
        run_isolated(hang, limits=Limits(timeout=3))


def test_a_memory_hog_is_stopped() -> None:
    with pytest.raises(InputError, match=r"limite de memória|limites de segurança"):
        run_isolated(hog, limits=Limits(timeout=60, memory_bytes=512 * MiB))


def test_errors_come_back_as_input_errors_without_internals() -> None:
    with pytest.raises(InputError, match=r"Campo recusado\.") as refused:
        run_isolated(refuse)
    assert refused.value.field == "/campo"
    with pytest.raises(InputError, match="danificado ou não é um PDF válido") as crashed:
        run_isolated(crash)
    assert "interno" not in crashed.value.message


def test_uploads_reuse_a_warm_isolated_worker_and_survive_a_hang() -> None:
    first = run_isolated(worker_pid)
    assert first != os.getpid()  # isolated: never the web process itself
    assert run_isolated(worker_pid) == first  # warm: no process started per upload
    with pytest.raises(InputError, match="excedeu o tempo permitido"):
        run_isolated(hang, limits=Limits(timeout=2))
    assert run_isolated(double, 4) == 8  # the worker that hung was replaced
