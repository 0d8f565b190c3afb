"""Untrusted files are parsed in a separate process with time and memory limits.

Malformed or hostile PDFs are a known way to hang a parser or exhaust its memory.
:func:`run_isolated` runs a top-level function in a fresh (``spawn``) process whose
address space is capped (``RLIMIT_AS``) and CPU time limited (``RLIMIT_CPU``); the
parent waits at most ``timeout`` seconds and kills it otherwise. Only plain values
(dicts, lists, strings, numbers) come back; a LavraError raised in the child comes
back as an InputError with its message.
"""

from __future__ import annotations

import multiprocessing
import resource
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from lavra.errors import InputError, LavraError

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    timeout: float = 30.0
    memory_bytes: int = 1536 * MiB


def _child(
    channel: Connection, func: Callable[..., Any], args: tuple[Any, ...], limits: Limits
) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        cpu = int(limits.timeout) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        result: tuple[str, Any] = ("ok", func(*args))
    except LavraError as error:
        result = ("lavra", (error.message, error.field))
    except MemoryError:
        result = ("memory", None)
    except RecursionError:
        result = ("malformed", None)
    except Exception as error:  # a hostile file must not take the child down silently
        result = ("error", type(error).__name__)
    try:
        channel.send(result)
    except Exception:  # the result itself is unsendable (too large, unpicklable)
        channel.send(("error", "resultado"))
    finally:
        channel.close()


def run_isolated(func: Callable[..., Any], *args: Any, limits: Limits | None = None) -> Any:
    """``func(*args)`` in a sandboxed child process; InputError when it fails or overruns."""
    limits = limits or Limits()
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, func, args, limits), daemon=True)
    try:
        process.start()
    except OSError as error:
        raise LavraError(
            f"Não foi possível iniciar a análise isolada do arquivo: {error.strerror}."
        ) from None
    sender.close()
    try:
        if not receiver.poll(limits.timeout):
            raise InputError(
                "A análise do arquivo excedeu o tempo permitido e foi interrompida. "
                "O arquivo pode estar danificado."
            )
        status, payload = receiver.recv()
    except (EOFError, OSError):
        raise InputError(
            "A análise do arquivo foi interrompida por exceder os limites de segurança "
            "(memória ou processamento). O arquivo pode estar danificado."
        ) from None
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        receiver.close()
    if status == "ok":
        return payload
    if status == "lavra":
        message, field = payload
        raise InputError(str(message), field=field if isinstance(field, str) else None)
    if status == "memory":
        raise InputError(
            "A análise do arquivo excedeu o limite de memória e foi interrompida. "
            "O arquivo pode estar danificado."
        )
    raise InputError("O arquivo enviado não pôde ser lido: está danificado ou não é um PDF válido.")
