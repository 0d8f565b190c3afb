"""Warm, isolated worker processes with time, memory and output limits.

What strangers or staff wrote (an uploaded PDF, a form's template) is processed in a
worker process, never in the caller's: a hostile input may hang a parser, exhaust its
memory or build a gigantic result, and the caller must survive all three.

A :class:`WorkerPool` keeps a few worker processes warm (started lazily with
``forkserver``, never a plain fork of a threaded parent) and reuses them: each keeps
what its tasks loaded (modules, a Jinja environment, a renderer) between tasks, so a
task costs an IPC round trip instead of a process start. Every task has

- a wall-clock limit: the worker interrupts the task itself (``SIGALRM`` raises
  :class:`TaskTimeout` inside it, so a template can say where it stopped); if it does
  not answer ``grace`` seconds later the parent kills the worker and starts another;
- a memory limit: ``RLIMIT_AS`` of the worker, set for each task;
- an output limit: the pickled result may not exceed ``output_bytes``.

A task is a top-level function with picklable arguments. A :class:`LavraError` it
raises comes back as itself (type, message, field); any other failure comes back as
:class:`TaskFailed`, which callers turn into their own pt-BR error: never a traceback.
A worker that failed on time or memory is replaced; the pool shuts down at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import pickle
import resource
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from types import FrameType
from typing import Any

from lavra.errors import LavraError

__all__ = [
    "Limits",
    "MiB",
    "TaskFailed",
    "TaskTimeout",
    "WorkerPool",
    "default_pool",
    "preload",
]

MiB = 1024 * 1024
#: Environment variable with the number of workers of the default pool.
WORKERS_ENV = "LAVRA_WORKERS"
#: Seconds the parent waits past the limit before killing an unresponsive worker.
GRACE = 2.0
#: A worker is replaced after this many tasks (bounds any slow leak).
MAX_TASKS = 1000


@dataclass(frozen=True)
class Limits:
    """The limits of one task."""

    timeout: float = 30.0
    memory_bytes: int = 1536 * MiB
    output_bytes: int = 64 * MiB
    #: Extra seconds a task may spend loading what it keeps warm (a worker's first
    #: document loads the pack); such a task calls :func:`start_clock` when ready.
    startup: float = 0.0


class TaskTimeout(Exception):
    """Raised inside a task when its time is up (the worker's ``SIGALRM``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class TaskFailed(Exception):
    """A task ended without a result: ``kind`` is timeout, memory, output, crash or error."""

    def __init__(self, kind: str, limits: Limits, detail: str = "") -> None:
        super().__init__(kind, detail)
        self.kind = kind
        self.limits = limits
        self.detail = detail

    def describe(self, what: str) -> str:
        """A pt-BR sentence about the failure; ``what`` names the task ("A leitura do arquivo")."""
        limits = self.limits
        if self.kind == "timeout":
            return f"{what} excedeu o limite de tempo de {limits.timeout:g} s e foi interrompida."
        if self.kind == "memory":
            return (
                f"{what} excedeu o limite de memória de {limits.memory_bytes // MiB} MiB "
                "e foi interrompida."
            )
        if self.kind == "output":
            return (
                f"{what} produziu um resultado maior que o limite de "
                f"{limits.output_bytes // MiB} MiB."
            )
        if self.kind == "crash":
            return (
                f"{what} foi interrompida por exceder os limites de segurança "
                "(memória ou processamento)."
            )
        return f"{what} falhou por um erro interno."


# --------------------------------------------------------------------------- worker side


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise TaskTimeout(_task[0].timeout if _task else 0.0)


#: The limits of the running task and the channel to the parent (worker side).
_task: list[Limits] = []
_channel: list[Connection] = []
_CLOCK = b"clock"


def start_clock() -> None:
    """Called by a task when its loading is done: its time limit counts from now (the
    ``startup`` allowance is spent). Does nothing outside a worker or the second time."""
    if not _task or not _channel or not _task[0].startup:
        return
    limits = _task[0]
    _task[0] = Limits(limits.timeout, limits.memory_bytes, limits.output_bytes, 0.0)
    signal.setitimer(signal.ITIMER_REAL, limits.timeout)
    _channel[0].send_bytes(_CLOCK)


def _caused_by(error: BaseException, kinds: tuple[type[BaseException], ...]) -> bool:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, kinds):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _watch_parent(parent: int) -> None:
    """End the worker when the process that forked it is gone (no orphans): with
    ``forkserver`` that is the fork server, which ends with the pool's process."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(1)


def _run_task(func: Callable[..., Any], args: tuple[Any, ...], limits: Limits) -> tuple[Any, bool]:
    """(reply, retire): the reply is what goes back to the parent."""
    _task[:] = [limits]
    signal.setitimer(signal.ITIMER_REAL, limits.timeout + limits.startup)
    try:
        return ("ok", func(*args)), False
    except TaskTimeout:
        return ("timeout", ""), True
    except LavraError as error:
        retire = _caused_by(error, (MemoryError, TaskTimeout))
        return ("lavra", (type(error), error.message, error.field)), retire
    except MemoryError:
        return ("memory", ""), True
    except Exception as error:  # whatever the task raised: its type only, no internals
        return ("error", type(error).__name__), _caused_by(error, (MemoryError, TaskTimeout))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _task.clear()


def _serve(channel: Connection) -> None:
    """The loop of a worker process: run tasks until told to stop or orphaned."""
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    _channel[:] = [channel]
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    while True:
        try:
            message = channel.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            task = pickle.loads(message)
        except Exception as error:  # e.g. the task's module cannot be imported here
            task = ("unreadable", type(error).__name__)
        if task is None:
            return
        if task[0] == "unreadable":
            reply, retire, limits = ("error", task[1]), False, Limits()
        else:
            func, args, limits = task
            memory = limits.memory_bytes
            if hard != resource.RLIM_INFINITY:
                memory = min(memory, hard)
            resource.setrlimit(resource.RLIMIT_AS, (memory, hard))
            try:
                reply, retire = _run_task(func, args, limits)
            except TaskTimeout:  # the alarm rang just as the task ended
                reply, retire = ("timeout", ""), True
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            data, retire = pickle.dumps(("memory", "")), True
        except Exception:  # the result cannot be sent (not picklable)
            data = pickle.dumps(("error", "resultado"))
        if len(data) > limits.output_bytes:
            data = pickle.dumps(("output", str(len(data))))
        del reply
        try:
            channel.send_bytes(pickle.dumps((data, retire)))
        except (OSError, ValueError):
            return
        if retire:
            return


# --------------------------------------------------------------------------- parent side


class _Worker:
    def __init__(self, context: Any) -> None:
        receiver, sender = context.Pipe(duplex=True)
        self.channel: Connection = receiver
        self.process = context.Process(
            target=_serve, args=(sender,), daemon=True, name="lavra-worker"
        )
        self.process.start()
        sender.close()
        self.tasks = 0

    def alive(self) -> bool:
        return bool(self.process.is_alive())

    def call(self, func: Callable[..., Any], args: tuple[Any, ...], limits: Limits) -> Any:
        """The task's result; raises LavraError, or TaskFailed (the worker is then dead)."""
        self.tasks += 1
        try:
            self.channel.send((func, args, limits))
        except (OSError, ValueError) as error:  # the worker is gone
            self.stop()
            raise TaskFailed("crash", limits, type(error).__name__) from None
        allowed = limits.timeout + limits.startup + GRACE
        try:
            while True:
                ready = wait([self.channel, self.process.sentinel], allowed)
                if self.channel not in ready and not self.channel.poll(0):
                    self.stop()
                    raise TaskFailed("crash" if ready else "timeout", limits)
                message = self.channel.recv_bytes()
                if message != _CLOCK:
                    break
                allowed = limits.timeout + GRACE  # the task's own clock starts now
            data, retire = pickle.loads(message)
            reply = pickle.loads(data)
        except (EOFError, OSError, pickle.UnpicklingError):
            self.stop()
            raise TaskFailed("crash", limits) from None
        if retire or self.tasks >= MAX_TASKS:
            self.stop()
        status, payload = reply
        if status == "ok":
            return payload
        if status == "lavra":
            kind, message, field = payload
            if not (isinstance(kind, type) and issubclass(kind, LavraError)):
                kind = LavraError
            raise kind(str(message), field=field if isinstance(field, str) else None)
        raise TaskFailed(str(status), limits, str(payload))

    def stop(self, timeout: float = 0.0) -> None:
        if timeout and self.process.is_alive():
            with contextlib.suppress(OSError, ValueError):
                self.channel.send(None)
            self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.channel.close()


#: Modules the fork server imports before it forks workers (see :class:`WorkerPool`);
#: other stages add theirs with :func:`preload`.
PRELOAD: list[str] = ["lavra.render.task"]


def preload(*modules: str) -> None:
    """Have the fork server import ``modules`` too (before the first pool starts)."""
    PRELOAD.extend(name for name in modules if name not in PRELOAD)


class WorkerPool:
    """Up to ``size`` warm workers, started when first needed; safe to share between threads.

    With ``forkserver`` the fork server imports :data:`PRELOAD` once (the renderer and,
    from the stages that add them, the verifier; with their libraries about two
    seconds), so that every worker it forks
    after the first, a replacement for one killed on a hostile file included, starts
    with them loaded instead of importing them again. Importing starts no thread, and
    the fork server forks from its own single thread, as before.
    """

    def __init__(self, size: int | None = None, *, method: str = "forkserver") -> None:
        if method not in ("forkserver", "spawn"):
            raise ValueError(method)
        self.size = max(1, size if size is not None else _default_size())
        self._context = multiprocessing.get_context(method)
        if method == "forkserver":
            # Only takes effect if this process's fork server has not started yet.
            self._context.set_forkserver_preload(PRELOAD.copy())
        self._idle: list[_Worker] = []
        self._busy = 0
        self._closed = False
        self._lock = threading.Condition()
        self.owner = os.getpid()

    def run(self, func: Callable[..., Any], *args: Any, limits: Limits | None = None) -> Any:
        """``func(*args)`` in a worker, within ``limits``."""
        limits = limits or Limits()
        worker = self._acquire()
        try:
            return worker.call(func, args, limits)
        finally:
            self._release(worker)

    def _acquire(self) -> _Worker:
        with self._lock:
            while True:
                if self._closed:
                    raise TaskFailed("crash", Limits(), "encerrado")
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive():
                        self._busy += 1
                        return worker
                    worker.stop()
                if self._busy < self.size:
                    self._busy += 1
                    break
                self._lock.wait()
        try:
            return _Worker(self._context)
        except BaseException:
            with self._lock:
                self._busy -= 1
                self._lock.notify()
            raise

    def _release(self, worker: _Worker) -> None:
        with self._lock:
            self._busy -= 1
            if worker.alive() and not self._closed:
                self._idle.append(worker)
            else:
                worker.stop()
            self._lock.notify()

    def warm(self, func: Callable[..., Any], *args: Any, limits: Limits | None = None) -> list[Any]:
        """Start every worker of the pool now and run ``func(*args)`` in each (to load
        what the workers keep warm), at the same time; the results, one per worker.

        A worker that fails its warm-up is simply replaced later, when a task needs it:
        warming is an optimisation, its failure is not an error of the caller's.
        """
        results: list[Any] = []
        workers: list[_Worker] = []
        try:
            for _ in range(self.size):
                with self._lock:
                    if self._closed or self._busy + len(self._idle) >= self.size:
                        break
                    self._busy += 1
                try:
                    workers.append(_Worker(self._context))
                except BaseException:
                    with self._lock:
                        self._busy -= 1
                        self._lock.notify()
                    raise
            threads = [
                threading.Thread(target=lambda w=w: _collect(w, func, args, limits, results),
                                 daemon=True)
                for w in workers
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            for worker in workers:
                self._release(worker)
        return results

    def pids(self) -> list[int]:
        """The process ids of the idle workers (for tests and diagnostics)."""
        with self._lock:
            return [w.process.pid for w in self._idle if w.process.pid is not None]

    def close(self) -> None:
        """Stop every idle worker; busy ones stop when their task ends."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
            self._lock.notify_all()
        for worker in idle:
            worker.stop(timeout=2.0)


def _collect(worker: _Worker, func: Callable[..., Any], args: tuple[Any, ...],
             limits: Limits | None, results: list[Any]) -> None:
    # A worker that fails its warm-up is dead or replaced: the next task starts another.
    with contextlib.suppress(TaskFailed, LavraError, OSError):
        results.append(worker.call(func, args, limits or Limits()))


def _default_size() -> int:
    raw = os.environ.get(WORKERS_ENV, "").strip()
    if raw.isdigit() and 0 < int(raw) <= 64:
        return int(raw)
    return min(2, os.cpu_count() or 1)


_default: WorkerPool | None = None
_default_lock = threading.Lock()


def default_pool() -> WorkerPool:
    """The process's shared pool (size from ``LAVRA_WORKERS``, default 2), closed at exit."""
    global _default
    with _default_lock:
        if _default is None or _default._closed or _default.owner != os.getpid():
            _default = WorkerPool()
            atexit.register(_default.close)
        return _default
