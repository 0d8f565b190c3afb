"""A step of a batch run done in a forked child process, its result (or its error) handed
back to the caller through a pipe.

    run = in_forked_child(lambda: plan(issuer), registry)

The plan of a large run builds tens of MiB of objects and lets them go before the workers
are forked; the process keeps the memory they took (the allocator's arenas, which
``malloc_trim`` does not give back), and each forked worker would inherit it. Planned in
a child instead, that memory is the child's and goes with it: the caller, which never
held the plan, forks workers as small at 1,000 holders as at 100.

The child inherits the caller's pooled database connections and forgets them without
closing them (:meth:`lavra.registry.store.Registry.forget_connections`), as a forked
worker does: it opens its own. Its error reaches the caller as the same exception, of the
same class and pt-BR message; a child that dies before answering (killed, out of memory)
is a clear :class:`lavra.errors.LavraError`, never a wait without end.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from lavra.errors import LavraError
from lavra.registry.store import Registry

__all__ = ["in_forked_child"]

T = TypeVar("T")

_DIED = ("O processo que planejava a execução em lote terminou sem responder (código {code}); "
         "nada foi planejado por ele. Repita o comando: uma execução planejada antes de "
         "ele terminar é retomada, não planejada de novo.")


def _child(step: Callable[[], Any], registry: Registry, answer: Any) -> None:
    registry.forget_connections()  # the caller's: never used nor closed here
    said = "O processo que planejava a execução em lote não pôde devolver o resultado."
    try:
        result: tuple[Any, ...] = ("ok", step())
    except BaseException as error:
        result = ("error", type(error), error.args, dict(vars(error)),
                  "".join(traceback.format_exception(error)))
        said = str(error)
    try:
        answer.send(result)
    except Exception:  # what cannot be pickled: its words, as a LavraError
        answer.send(("error", LavraError, (said,), {"message": said, "field": None}, ""))
    finally:
        answer.close()
        registry.close()  # its own connection (the caller's were forgotten above)


def _rebuilt(kind: type[BaseException], args: tuple[Any, ...], state: dict[str, Any],
             trace: str) -> BaseException:
    """The child's exception again: its class, arguments and attributes, without calling
    its ``__init__`` (whose parameters need not be its ``args``)."""
    error = kind.__new__(kind, *args)
    error.args = args
    vars(error).update(state)
    if trace and not isinstance(error, LavraError):  # a defect: where it happened
        error.add_note(f"No processo filho:\n{trace}")
    return error


def in_forked_child(step: Callable[[], T], registry: Registry) -> T:
    """``step()`` run in a child forked from this process (call only where forking is
    safe: one thread, see :mod:`lavra.batch.work`); its result, which must pickle."""
    context = multiprocessing.get_context("fork")
    reading, writing = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(step, registry, writing),
                            name="lavra-lote-plano", daemon=True)
    child.start()
    writing.close()  # only the child's end is left: its death reads as the end of the pipe
    try:
        answer = reading.recv()
    except EOFError:
        child.join()
        raise LavraError(_DIED.format(code=child.exitcode)) from None
    finally:
        reading.close()
    child.join()
    if answer[0] == "ok":
        result: T = answer[1]
        return result
    raise _rebuilt(*answer[1:]) from None
