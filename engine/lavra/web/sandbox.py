"""Untrusted files are parsed in a warm, isolated worker with time and memory limits.

Malformed or hostile PDFs are a known way to hang a parser or exhaust its memory.
:func:`run_isolated` runs a top-level function in a worker of the shared pool
(:mod:`lavra.render.isolation`): a separate process whose address space is capped
(``RLIMIT_AS``) for the task, which the parent kills and replaces when it overruns
``timeout`` seconds. Only plain values (dicts, lists, strings, numbers) come back; a
LavraError raised in the worker comes back as an InputError with its message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lavra.errors import InputError, LavraError
from lavra.render.isolation import Limits, MiB, TaskFailed, default_pool, preload

__all__ = ["Limits", "MiB", "run_isolated"]

# The workers render with the issuer's engine and verify uploads with the verifier:
# the fork server imports both once.
preload("lavra.issuing", "lavra.verifying", "lavra.web.pdftasks")


def run_isolated(func: Callable[..., Any], *args: Any, limits: Limits | None = None) -> Any:
    """``func(*args)`` in a sandboxed worker process; InputError when it fails or overruns."""
    try:
        return default_pool().run(func, *args, limits=limits or Limits())
    except LavraError as error:
        if isinstance(error, InputError):
            raise
        raise InputError(error.message, field=error.field) from None
    except TaskFailed as failure:
        if failure.kind == "timeout":
            raise InputError(
                "A análise do arquivo excedeu o tempo permitido e foi interrompida. "
                "O arquivo pode estar danificado."
            ) from None
        if failure.kind == "memory":
            raise InputError(
                "A análise do arquivo excedeu o limite de memória e foi interrompida. "
                "O arquivo pode estar danificado."
            ) from None
        if failure.kind in ("crash", "output"):
            raise InputError(
                "A análise do arquivo foi interrompida por exceder os limites de segurança "
                "(memória ou processamento). O arquivo pode estar danificado."
            ) from None
        raise InputError(
            "O arquivo enviado não pôde ser lido: está danificado ou não é um PDF válido."
        ) from None
    except OSError as error:
        raise LavraError(
            f"Não foi possível iniciar a análise isolada do arquivo: {error.strerror}."
        ) from None
