"""The work of a batch run: warm worker processes render, sign and record its items.

Each worker is a process started once for the run. When the caller hands over its
loaded pack (``content``) and runs a single thread, the workers are forked from it
(``fork``): they inherit the pack already loaded and checked (≈ 5 s of CPU per worker
otherwise), forget the caller's pooled database connections without closing them, and
open their own. Otherwise each worker is spawned (a clean interpreter) and loads the
pack itself: from a caller with threads (the web server: a fork would copy the locks
they hold), from one that ran Typst (its native threads are not copied by a fork), from
one that loaded a PKCS#11 library, or where ``fork`` does not exist. Before forking,
the caller builds once what every worker would build at its first document
(:func:`warm_for_fork`: the signers' keys, stamp font and CMS templates, the caches the
checks fill (:mod:`lavra.batch.warming`), the Jinja environment and the run's templates),
and the forked workers inherit it; not the Typst
compiler, whose native threads a fork would not copy. Each builds its
Engine with its templates and fonts, the signers' keys and its own registry connection
once, then claims pending items one after another
(:func:`lavra.registry.runs.claim_and_record`) until none is left: each document is
recorded under the number the plan reserved, in the same transaction that marks the
item done. Workers render in their own process (``Engine(pool=None)``): the worker is
already a process of its own, with no second pool under it. A worker with nothing to
claim waits while items it may still get are held by others (a seal whose licence
another worker is signing, an item of a worker on another machine) and stops when
none is left.

A worker that dies (``kill -9``, a full disk) loses only the item it held: its
transaction rolls back and the item stays pending for the next run of the same
command. A worker exits when its parent process is gone, so that killing the command
stops the run. An item whose building fails stays pending with the reason noted
(:func:`lavra.registry.corrections.record_failure`); the others go on.

An act that would answer a filing another act already answers (decided by it, or its
act prepared by staff in the inbox before the run held the filing:
:class:`lavra.registry.filing_status.FilingAnswered`) is not recorded: the worker
abandons the holder's pending items with that reason, and their numbers are voided by
the numbering-void act (:func:`lavra.registry.abandon.abandon`), so that one act
answers one request and no number is left reserved.

Progress is read from the registry (items done of items in all), the same wherever
the workers run, on this machine or another.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from lavra.batch.warming import warm_checks
from lavra.checking.content import Content, loaded_content
from lavra.config import Config
from lavra.documents import Engine
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import mask_holder_key
from lavra.inputs.schemas.validation import field_label
from lavra.issuing import IncompleteError, Issuer
from lavra.registry.abandon import abandon
from lavra.registry.corrections import record_failure
from lavra.registry.records import Built
from lavra.registry.runs import (
    DOCUMENT,
    ItemAnswered,
    ItemFailed,
    ItemRecord,
    claim_and_record,
    outstanding,
    run_counts,
)
from lavra.registry.store import Registry, open_registry
from lavra.render.task import FRAME_TEMPLATE, DocumentRenderer
from lavra.signers import SignerKey, Signers

__all__ = ["Progress", "Warmed", "WorkerSetup", "can_fork", "failure_text", "run_workers",
           "warm_for_fork", "work_items"]

#: The content's kind of a notice (``"tipo": "notificacao"``): an act of the run that
#: reaches a filing makes it pending, not decided (``lavra.registry.filing_status``).
NOTICE_KIND = "notificacao"

Progress = Callable[[int, int], None]
"""Called with (items done, items in all) as the run advances."""


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker process needs to warm up: the configuration and the registry."""

    config: Config
    database_url: str
    run_id: int
    docx: bool = False
    on: date | None = None
    """The run's date of issue: every document is checked and dated on it."""
    signer: SignerKey | None = None
    """The key of the person who started (or resumed) the run: every act is signed with
    it; none, the role's certificate."""


@dataclass(frozen=True)
class Warmed:
    """What the caller built once before forking its workers; each forked worker uses it
    as its own (its copy, after the fork)."""

    pages: DocumentRenderer
    """The templates (Jinja environment, the run's templates compiled); no Typst yet."""
    signers: Signers
    """The signers of the run's roles, loaded: key, stamp font, CMS template."""


def warm_for_fork(issuer: Issuer, forms: Iterable[str],
                  signer: SignerKey | None = None) -> Warmed:
    """Build in this process, before it forks the workers, what each would build at its
    first document (≈ 1.5 s of CPU per worker): the signer of every role the run's
    ``forms`` sign in (``signer``'s key, else the role's certificate), the caches their
    checks fill (:func:`lavra.batch.warming.warm_checks`) and their templates. A signer
    or template that cannot be loaded is left to the workers, which report it on the
    item, as without the warming."""
    forms = tuple(forms)
    content = issuer.engine.content
    specs = [content.forms[f] for f in forms if f in content.forms]
    for role in sorted({s.signer_role for s in specs if s.signer_role is not None}):
        with contextlib.suppress(LavraError):
            if signer is None:
                issuer.signers.get(role)
            else:
                issuer.signers.for_key(signer, role)
    warm_checks(issuer.engine, forms)
    pages = DocumentRenderer(content.root, content.laws)
    for name in (FRAME_TEMPLATE, *(f"{s.id}/{s.wording}" for s in specs)):
        with contextlib.suppress(Exception):  # a broken template fails on its item
            pages.final_env.get_template(name)
    return Warmed(pages, issuer.signers)


def build_item(issuer: Issuer, item: ItemRecord, *, docx: bool = False,
               on: date | None = None, signer: SignerKey | None = None) -> Built | bytes:
    """The signed document of a documento item, the prefilled file of an anexo."""
    if item.form is None or item.data is None:
        raise ItemFailed(item, "Item do lote sem formulário ou sem dados.")
    if item.role == DOCUMENT:
        printed = item.printed
        if printed is None:
            raise ItemFailed(item, "Documento do lote sem número reservado.")
        try:
            return issuer.build_document(item.form, item.data, on, printed, docx=docx,
                                         reserved=True, signer=signer)
        except IncompleteError as error:
            raise _incomplete(issuer, item, error) from None
    return issuer.engine.prefill(item.form, item.data)


def field_words(issuer: Issuer, form: str | None, pointer: str) -> str:
    """The field at ``pointer`` of ``form``'s data as its page names it («Processo
    administrativo › Comprovante de recolhimento da taxa»), never the pointer."""
    content = issuer.engine.content
    path = [int(t) if pointers.is_index(t) else t for t in pointers.split(pointer)]
    if form is not None and form in content.forms:
        return field_label(content.registry, content.forms[form].schema_id, path)
    return " › ".join(t for t in path if isinstance(t, str)) or "dados do documento"


def _incomplete(issuer: Issuer, item: ItemRecord, error: IncompleteError) -> ItemFailed:
    """The act's pending items, each with its field by label (unless its message already
    names it), as the item's failure (staff must see what to correct, not a count); the
    first one's field is the failure's field."""
    pending = list(error.report.pending)

    def said(message: str, pointer: str | None) -> str:
        text = message.strip().rstrip(".")
        words = field_words(issuer, item.form, pointer) if pointer else ""
        return f"{text} (campo «{words}»)" if words and words not in text else text

    listed = "; ".join(said(i.message, i.field) for i in pending[:5])
    more = f"; e mais {len(pending) - 5} pendência(s)" if len(pending) > 5 else ""
    return ItemFailed(item, f"o relatório de completude aponta: {listed}{more}",
                      pending[0].field if pending else None)


def failure_text(issuer: Issuer, failure: ItemFailed) -> str:
    """Why an item failed, as staff read it (pt-BR): the holder, the document (its
    title and reserved number), the field when known (by its label, and the command
    that corrects it: a command line, typed as shown), and what became of the number."""
    item = failure.item
    forms = issuer.engine.content.forms
    title = (forms[item.form].title if item.form is not None and item.form in forms
             else (item.form or "Documento"))
    printed = item.printed if item.role == DOCUMENT else None
    document = f"{title} {printed}" if printed else f"{title} (para preencher)"
    where = ""
    if failure.field:
        form = f" --formulario {item.form}" if item.form else ""
        where = (f" Campo: {field_words(issuer, item.form, failure.field)}. Para corrigir: "
                 f"lavra lote corrigir {item.run_id} --item {item.position + 1}{form} "
                 f"--campo {failure.field} --valor NOVO_VALOR --responsavel NOME.")
    message = failure.message.strip().rstrip(".")
    kept = (f" O número {printed} segue reservado para este documento; nada foi assinado "
            "nem registrado com ele." if printed else " Nada foi gravado para este item.")
    return (f"{document}, de {item.name} ({mask_holder_key(item.holder)}), não pôde ser emitido: "
            f"{message}.{where}{kept} Retomar a execução tenta emiti-lo de novo; se a causa "
            "estiver nos dados do item, a falha se repete, e o item pode ser abandonado com "
            "o motivo (o número reservado é então inutilizado).")


def work_items(
    issuer: Issuer, run_id: int, *, worker: str, share: tuple[int, int] = (0, 1),
    parent: int | None = None, docx: bool = False, on: date | None = None,
    poll: float = 0.2, signer: SignerKey | None = None,
) -> int:
    """Claim and record items of the run until none is left (or the parent is gone);
    the number of items this worker recorded."""
    failed: list[int] = []
    recorded = 0
    notices = frozenset(f for f, spec in issuer.engine.content.forms.items()
                        if spec.kind == NOTICE_KIND)
    while parent is None or os.getppid() == parent:
        try:
            item = claim_and_record(
                issuer.registry, run_id, lambda it: build_item(issuer, it, docx=docx, on=on,
                                                          signer=signer),
                worker=worker, skip=failed, share=share, notices=notices,
            )
        except ItemAnswered as answered:
            _void_answered(issuer.registry, answered)
            continue
        except ItemFailed as failure:
            failed.append(failure.item.id)
            record_failure(issuer.registry, failure.item.id, failure_text(issuer, failure),
                           failure.field)
            continue
        if item is None:
            # Nothing to claim now: items another worker holds (or that wait for one it
            # holds) may still come free; stop only when none is left for this worker.
            if not outstanding(issuer.registry, run_id, failed, share):
                break
            time.sleep(poll)
            continue
        recorded += 1
    return recorded


def _void_answered(registry: Registry, answered: ItemAnswered) -> None:
    """The holder's pending items abandoned, their numbers voided, with the reason
    (module docstring); nothing when another worker already did it."""
    item = answered.item
    with contextlib.suppress(InputError):  # abandoned meanwhile by another worker or staff
        abandon(registry, item.run_id, position=item.position,
                by=f"Execução em lote nº {item.run_id}",
                reason=f"{answered.message.rstrip('.')}: um só ato decide o requerimento, e o "
                "ato deste lote não foi emitido")


def warm_issuer(setup: WorkerSetup, content: Content | None = None,
                warmed: Warmed | None = None) -> Issuer:
    """An Issuer of this process: pack (``content``, when inherited), templates, keys and
    connection, loaded once; with ``warmed`` (inherited by a fork), its templates and
    signers instead of new ones."""
    engine = Engine(content or loaded_content(setup.config.pack_dir), pool=None)
    if warmed is not None:
        vars(engine)["pages"] = warmed.pages  # the cached property, already built
    issuer = Issuer(engine, open_registry(setup.database_url), setup.config)
    if warmed is not None:
        issuer.signers = warmed.signers
    return issuer


def _single_threaded() -> bool:
    """Whether this process runs one thread, native ones included (Linux's
    ``/proc/self/task``): the condition for forking it safely. Typst's compiler starts
    native threads that ``threading`` does not see; unknown (no ``/proc``) is no."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def can_fork(config: Config, content: Content | None) -> bool:
    """Fork only a process of one thread that has loaded no PKCS#11 library (a token's
    sessions and login do not survive a fork: each spawned worker opens its own), over
    the pack the workers are to use."""
    return (content is not None and _single_threaded() and "pkcs11" not in sys.modules
            and "fork" in multiprocessing.get_all_start_methods()
            and content.root.resolve() == config.pack_dir.resolve())


def _can_fork(setup: WorkerSetup, content: Content | None) -> bool:
    return can_fork(setup.config, content)


def _forked_main(setup: WorkerSetup, content: Content, inherited: Registry,
                 warmed: Warmed | None, index: int, count: int, parent: int) -> None:
    # The caller's pooled connections are its own: dropped here, never used nor closed
    # (closing a PostgreSQL connection would end the caller's session on the server).
    inherited.forget_connections()
    _worker_main(setup, index, count, parent, content, warmed)


def _worker_main(setup: WorkerSetup, index: int, count: int, parent: int,
                 content: Content | None = None, warmed: Warmed | None = None) -> None:
    issuer = warm_issuer(setup, content, warmed)
    try:
        work_items(issuer, setup.run_id, worker=f"processo {os.getpid()}",
                   share=(index, count), parent=parent, docx=setup.docx, on=setup.on,
                   signer=setup.signer)
    finally:
        issuer.close()


@contextlib.contextmanager
def _frozen(forking: bool) -> Iterator[None]:
    """Around forking the workers: this process's objects collected, then moved out of
    the collector's reach (:func:`gc.freeze`) while the workers are forked, so that a
    worker's collections never touch them: an object a worker inherits and does not
    use stays on a page it shares with this process, not one copied to it the first
    time a collection walks it."""
    if not forking:
        yield
        return
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()  # this process's own objects, collected again as before


def run_workers(
    setup: WorkerSetup, registry: Registry, workers: int, progress: Progress | None = None,
    *, poll: float = 0.25, content: Content | None = None,
    warm: Callable[[], Warmed] | None = None,
) -> tuple[int, int]:
    """Start ``workers`` processes on the run and wait for them; (done, total) at the end.

    ``content``: the caller's loaded pack, inherited by forked workers when it is safe
    to fork (see the module's notes); otherwise each spawned worker loads its own.
    ``warm``: builds in this process what forked workers inherit (:func:`warm_for_fork`),
    called only when the workers are to be forked.
    A worker that ends with an error does not stop the others; what it held stays
    pending, and is reported pending.
    """
    warmed = warm() if warm is not None and _can_fork(setup, content) else None
    if _can_fork(setup, content):  # again: the warming must have started no thread
        context: Any = multiprocessing.get_context("fork")
        target: Callable[..., None] = _forked_main
        shared: tuple[Any, ...] = (setup, content, registry, warmed)
    else:
        context, target, shared = multiprocessing.get_context("spawn"), _worker_main, (setup,)
    processes: list[Any] = [
        context.Process(target=target, args=(*shared, n, workers, os.getpid()),
                        name=f"lavra-lote-{n + 1}", daemon=True)
        for n in range(max(1, workers))
    ]
    with _frozen(target is _forked_main):
        for process in processes:
            process.start()
    try:
        while any(process.is_alive() for process in processes):
            if progress is not None:
                progress(*run_counts(registry, setup.run_id))
            time.sleep(poll)
    finally:
        for process in processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
                process.join(5)
    done, total = run_counts(registry, setup.run_id)
    if progress is not None:
        progress(done, total)
    return done, total
