"""Batch runs started from the web app: checked at once, worked in the background.

    jobs = BatchJobs(config)
    job = jobs.start(start, actor="Fulano (fulano)")   # refused at once, or started
    jobs.job(job.token), jobs.live_for_run(run_id), jobs.files(run_id)

A start is checked before anything is written: the kind and its own parameters
(:attr:`lavra.batch.model.BatchRun.parameters`), the date of issue (never in the
future), the uploaded ``entrada`` and ``pedidos`` files (CSV with a header row, or
JSON Lines with one JSON object per line, UTF-8, read by the strict reader of
:mod:`lavra.batch.inputs`; a file with any line refused is refused), one run at a
time per kind, and an unfinished run of the same key planned from other inputs. Only
then are the files written, in a folder of their own under ``pasta_lotes``
(``Config.batch_output_dir``): ``<token>/execucao.json`` (what was asked, and the
run's number once planned), ``<token>/entradas/`` (the uploaded files, kept so that
the same run can be resumed: the registry knows a run by the digest of its inputs)
and ``<token>/saida/`` (the outputs, :mod:`lavra.batch.output`).

The run itself is :func:`lavra.batch.runner.run_batch` in a thread of the server, with
an Issuer of its own (its own pack, engine and registry connection: nothing is shared
with the requests' threads) and warm worker processes under it, as ``lavra batch``.
Progress is read from the registry. A run left unfinished (the server stopped, a worker
killed) is resumed by :meth:`BatchJobs.resume`, with the same inputs: the registry's
plan is worked on, nothing issued twice. A dry run (``simular``) keeps its summary in
memory and writes nothing.

Every worker over the registry sees the same runs: each run's state (token, run number,
state, message, who started it, when, progress, the dry run's summary) is kept in the
registry (:class:`lavra.registry.webshared.SharedJobs`), the worker working it beats
while it works, and one live run per kind is a constraint of the database. The files
are in ``pasta_lotes``, which every worker must share (one volume): a worker that finds
a run of the registry started from the web but not its folder says so.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from lavra.batch.inputs import input_format, parse_lines
from lavra.batch.model import BatchRun, RunRequest
from lavra.batch.output import OUTPUT_NAMES, SummaryRow, atomic_write, write_outputs
from lavra.batch.planning import fingerprint, same_inputs
from lavra.batch.runner import Summary, find_kind, run_batch
from lavra.checking.content import loaded_content
from lavra.config import Config
from lavra.documents import Engine
from lavra.errors import InputError, LavraError
from lavra.inputs.reading import TIMEZONE, parse_date
from lavra.registry.abandon import abandon
from lavra.registry.runs import ItemRecord, RunRecord, open_run, run_items
from lavra.registry.store import Registry, open_registry
from lavra.registry.webshared import BEAT_SECONDS, JobRow, SharedJobs
from lavra.signers import SignerKey
from lavra.web.common import error_message

__all__ = ["BatchBusy", "BatchJobs", "Job", "StartRequest", "Upload"]

LOG = logging.getLogger("lavra.web")
MANIFEST, INPUTS, OUTPUTS = "execucao.json", "entradas", "saida"
TOKEN_RE = re.compile(r"[0-9a-f]{16}")
FILE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")


class BatchBusy(InputError):
    """A run of the same kind is already being worked by this server (409)."""


@dataclass(frozen=True)
class Upload:
    """One uploaded input file: the name the browser gave it and its bytes."""

    name: str
    content: bytes


@dataclass(frozen=True)
class StartRequest:
    """What the start form (or the API) sent, as text, before any check."""

    kind: str
    options: Mapping[str, str] = field(default_factory=dict)
    on: str = ""
    simulate: bool = False
    merged: bool = False
    docx: bool = False
    entrada: Upload | None = None
    pedidos: Upload | None = None


@dataclass
class Job:
    """One run started from the web: as this worker works it (mutable, guarded by
    ``BatchJobs.lock``), or as the registry holds it (:meth:`BatchJobs.job`)."""

    token: str
    kind: str
    title: str
    key: str
    simulate: bool
    folder: Path
    actor: str
    state: str = "planejando"
    run_id: int | None = None
    error: str | None = None
    summary: Summary | None = None
    started: float = field(default_factory=time.time)
    first: tuple[float, int] | None = None
    last: tuple[float, int] | None = None
    stored_counts: dict[str, int] | None = None
    stored_rows: tuple[SummaryRow, ...] = ()
    beating: bool = True

    @property
    def live(self) -> bool:
        return self.beating and self.state in ("planejando", "emitindo")

    @property
    def counts(self) -> dict[str, int] | None:
        if self.summary is not None:
            return dict(self.summary.counts)
        return self.stored_counts

    def rate(self) -> float | None:
        """Items per second since the workers started (None before two samples)."""
        if self.first is None or self.last is None or self.last[0] <= self.first[0]:
            return None
        return (self.last[1] - self.first[1]) / (self.last[0] - self.first[0])

    @property
    def rows(self) -> tuple[SummaryRow, ...]:
        return self.summary.rows if self.summary is not None else self.stored_rows

    @classmethod
    def of(cls, row: JobRow, folder: Path) -> Job:
        """The run as the registry holds it."""
        progress = dict(row.progress or {})
        summary = dict(row.summary or {})

        def pair(name: str) -> tuple[float, int] | None:
            found = progress.get(name)
            return (float(found[0]), int(found[1])) if isinstance(found, list) else None

        return cls(row.token, row.kind, row.title, row.key, row.simulate, folder, row.actor,
                   state=row.state, run_id=row.run_id, error=row.error,
                   started=row.started_at.timestamp(), first=pair("first"),
                   last=pair("last"), stored_counts=summary.get("counts"),
                   stored_rows=tuple(SummaryRow(**r) for r in summary.get("rows") or ()),
                   beating=row.live)


def _today() -> date:
    return datetime.now(TIMEZONE).date()


def _option(kind: BatchRun, raw: Mapping[str, str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for parameter in kind.parameters:
        text = str(raw.get(parameter.name) or "").strip()
        where = f"/{parameter.name}"
        if not text:
            raise InputError(f"Informe: {parameter.label}.", field=where)
        if parameter.kind == "ano":
            if not text.isdigit() or not 2000 <= int(text) <= 2100:
                raise InputError(f"{parameter.label}: informe um ano entre 2000 e 2100.",
                                 field=where)
            options[parameter.name] = int(text)
        else:
            options[parameter.name] = parse_date(text, what=parameter.label.lower(),
                                                 field=where).isoformat()
    return options


def _checked_upload(upload: Upload | None, name: str, limit: int) -> tuple[str, bytes] | None:
    """The file's name on disk (``entrada.csv``) and bytes, or a pt-BR InputError naming
    the field: read by the one strict reader of run inputs
    (:func:`lavra.batch.inputs.parse_lines`), the file refused whole as ``lavra batch``
    refuses it, and also when any line is refused (the person who sent it is there to
    correct it: the first lines refused are named)."""
    if upload is None or not upload.content:
        return None
    where = f"/{name}"
    suffix = input_format(upload.name or "", where)
    refused = [line.problem for line in parse_lines(upload.content, upload.name, where,
                                                    limit=limit) if line.problem]
    if refused:
        more = f" (e mais {len(refused) - 3} linha(s) recusada(s))" if len(refused) > 3 else ""
        raise InputError(" ".join(refused[:3]) + more, field=where)
    return f"{name}{suffix}", upload.content


def _manifest(folder: Path) -> dict[str, Any] | None:
    try:
        found = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


class BatchJobs:
    """The runs this server started, and the folders of every run started from the web."""

    def __init__(self, config: Config, workers: int | None = None,
                 max_upload: int = 5 * 1024 * 1024, registry: Registry | None = None
                 ) -> None:
        self.config = config
        self.root = config.batch_output_dir
        self.workers = workers or os.cpu_count() or 1
        self.max_upload = max_upload
        self.lock = threading.Lock()
        self._registry = registry
        self._shared: SharedJobs | None = None
        self._jobs: dict[str, Job] = {}
        self._written: dict[str, float] = {}

    @property
    def shared(self) -> SharedJobs:
        """The runs of every worker, in the registry (opened on first use)."""
        if self._shared is None:
            from lavra.issuing import registry_url

            if self._registry is None:
                self._registry = open_registry(registry_url(self.config))
            self._shared = SharedJobs(self._registry.engine)
        return self._shared

    # ------------------------------------------------------------ reading
    def job(self, token: str) -> Job | None:
        if not TOKEN_RE.fullmatch(token):
            return None
        with self.lock:
            mine = self._jobs.get(token)
            if mine is not None and mine.simulate and mine.summary is not None:
                return mine  # a dry run's summary, whole, in the worker that made it
        row = self.shared.get(token)
        return Job.of(row, self.root / token) if row is not None else None

    def live_for_run(self, run_id: int) -> Job | None:
        row = self.shared.live_for_run(run_id)
        return Job.of(row, self.root / row.token) if row is not None else None

    def _folders(self) -> list[tuple[Path, dict[str, Any]]]:
        if not self.root.is_dir():
            return []
        found = []
        for entry in self.root.iterdir():
            if TOKEN_RE.fullmatch(entry.name) and entry.is_dir():
                manifest = _manifest(entry)
                if manifest is not None:
                    found.append((entry, manifest))
        return found

    def folder_of_run(self, run_id: int) -> tuple[Path, dict[str, Any]] | None:
        """The latest web folder of the run (its inputs and outputs), if any."""
        mine = [(f, m) for f, m in self._folders() if m.get("execucao_n") == run_id]
        mine.sort(key=lambda pair: str(pair[1].get("iniciada_em") or ""))
        return mine[-1] if mine else None

    def folder_elsewhere(self, run_id: int) -> bool:
        """A run started from the web whose folder this worker cannot see: the workers do
        not share ``pasta_lotes`` (each has a folder of its own), as they must."""
        return self.folder_of_run(run_id) is None and self.shared.started_from_web(run_id)

    def files(self, run_id: int) -> list[str]:
        """The output files of the run's web folder, by name: the summaries first."""
        found = self.folder_of_run(run_id)
        if found is None or not (found[0] / OUTPUTS).is_dir():
            return []
        names = sorted(p.name for p in (found[0] / OUTPUTS).iterdir()
                       if p.is_file() and FILE_RE.fullmatch(p.name))
        return [n for n in OUTPUT_NAMES if n in names] + [n for n in names
                                                          if n not in OUTPUT_NAMES]

    def file(self, run_id: int, name: str) -> bytes | None:
        """One output by its name, resolved among the folder's files (never a path
        built from what was asked)."""
        listed = self.files(run_id)
        if name not in listed:
            return None
        found = self.folder_of_run(run_id)
        assert found is not None
        return (found[0] / OUTPUTS / listed[listed.index(name)]).read_bytes()

    # ------------------------------------------------------------ starting
    def _issuer(self) -> Any:
        from lavra.issuing import Issuer, registry_url

        url = registry_url(self.config)
        engine = Engine(loaded_content(self.config.pack_dir), pool=None)
        return Issuer(engine, open_registry(url), self.config), url

    def _busy(self, kind: BatchRun) -> BatchBusy:
        live = self.shared.live_of_kind(kind.name)
        run_id = live.run_id if live is not None else None
        shown = f"execução nº {run_id}" if run_id else "em planejamento"
        return BatchBusy(f"Já há uma execução «{kind.title}» em andamento ({shown}). "
                         "Aguarde o fim dela para iniciar outra.", field="/execucao")

    def _refuse_busy(self, kind: BatchRun) -> None:
        if self.shared.live_of_kind(kind.name) is not None:
            raise self._busy(kind)

    def _record(self, job: Job, kind: BatchRun) -> None:
        """The new job into the registry, or BatchBusy: one live run per kind."""
        if not self.shared.add(token=job.token, kind=job.kind, title=job.title,
                               key=job.key, simulate=job.simulate, actor=job.actor,
                               state=job.state, run_id=job.run_id):
            raise self._busy(kind)
        self._jobs[job.token] = job

    def start(self, issuer: Any, sent: StartRequest, actor: str,
              signer: SignerKey | None = None) -> Job:
        """Check ``sent`` (module docstring) and start the run in the background;
        ``signer``: the key, already checked, every act is signed with (None: the
        role's certificate)."""
        kind = find_kind(issuer, sent.kind)
        options = _option(kind, sent.options)
        on = parse_date(sent.on, what="data de expedição", field="/data") if sent.on.strip() \
            else _today()
        if on > _today():
            raise InputError("A data de expedição não pode ser futura.", field="/data")
        key = kind.key(RunRequest(kind.name, options, on))
        files = {name: _checked_upload(upload, name, self.max_upload)
                 for name, upload in (("entrada", sent.entrada), ("pedidos", sent.pedidos))}
        token = secrets.token_hex(8)
        staging = self.root / f".novo-{token}"
        try:
            (staging / INPUTS).mkdir(parents=True)
            paths: dict[str, Path | None] = {}
            for name, found in files.items():
                paths[name] = None
                if found is not None:
                    paths[name] = staging / INPUTS / found[0]
                    atomic_write(paths[name], found[1])  # type: ignore[arg-type]
            request = RunRequest(kind.name, options, on, paths["entrada"], paths["pedidos"])
            manifest = {"execucao": kind.name, "opcoes": options, "data": on.isoformat(),
                        "entrada": files["entrada"][0] if files["entrada"] else None,
                        "pedidos": files["pedidos"][0] if files["pedidos"] else None,
                        "pdf_unico": sent.merged, "docx": sent.docx, "chave": key,
                        "execucao_n": None, "iniciada_por": actor,
                        "iniciada_em": datetime.now(UTC).isoformat()}
            with self.lock:
                self._refuse_busy(kind)
                earlier = None if sent.simulate else open_run(issuer.registry, key)
                if earlier is not None and not same_inputs(
                        earlier.fingerprint, fingerprint(issuer, kind, request)):
                    raise InputError(
                        f"Há uma execução em lote não concluída para "
                        f"{key.split(':', 1)[-1]} (execução nº {earlier.id}), planejada com "
                        "outros arquivos ou outra data. Retome-a na página dela; só então "
                        "outra pode ser iniciada.", field="/entrada")
                folder = staging if sent.simulate else self.root / token
                job = Job(token, kind.name, kind.title, key, sent.simulate, folder, actor)
                self._record(job, kind)
                if not sent.simulate:
                    try:
                        atomic_write(staging / MANIFEST, _dump(manifest))
                        staging.rename(folder)
                    except BaseException:
                        self._jobs.pop(token, None)
                        self.shared.remove(token)
                        raise
                    request = RunRequest(kind.name, options, on,
                                         *(folder / INPUTS / p.name if p else None
                                           for p in (paths["entrada"], paths["pedidos"])))
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        self._launch(job, request, merged=sent.merged, docx=sent.docx, signer=signer)
        return job

    def abandon(self, issuer: Any, run: RunRecord, actor: str, reason: str,
                position: int | None) -> tuple[ItemRecord, ...]:
        """Abandon the run's pending items (or one holder's), voiding their numbers
        (:mod:`lavra.registry.abandon`), and write its summaries again in its web folder,
        so that they say what became of them. Refused while the run is being worked."""
        kind = find_kind(issuer, run.kind)
        if self.live_for_run(run.id) is not None:
            raise BatchBusy(f"A execução nº {run.id} está em andamento neste servidor; "
                            "aguarde o fim para abandoná-la.", field="/execucao")
        items = abandon(issuer.registry, run.id, reason=reason, by=actor, position=position)
        found = self.folder_of_run(run.id)
        if found is not None and (found[0] / OUTPUTS).is_dir():
            folder, manifest = found
            write_outputs(issuer.registry, issuer.engine, run_items(issuer.registry, run.id),
                          folder / OUTPUTS, title=kind.title,
                          subtitle=f"Execução em lote nº {run.id}, de "
                          f"{run.reference_date:%d/%m/%Y}",
                          merged=bool(manifest.get("pdf_unico")),
                          docx=bool(manifest.get("docx")))
        return items

    def resume(self, issuer: Any, run: RunRecord, actor: str,
               signer: SignerKey | None = None) -> Job:
        """Work an unfinished run again, with the inputs it was planned from: those kept
        in its web folder, or, for a run over the registry with no files, its options."""
        if run.status == "done":
            raise InputError(f"A execução nº {run.id} já foi concluída.", field="/execucao")
        kind = find_kind(issuer, run.kind)
        found = self.folder_of_run(run.id)
        params = dict(run.params)
        if found is not None:
            folder, manifest = found
            inputs = [folder / INPUTS / str(manifest[n]) if manifest.get(n) else None
                      for n in ("entrada", "pedidos")]
            merged, docx = bool(manifest.get("pdf_unico")), bool(manifest.get("docx"))
        elif params.get("entrada") or params.get("pedidos"):
            raise InputError(
                f"A execução nº {run.id} foi iniciada pela linha de comando com arquivos de "
                "entrada que este servidor não guarda: conclua-a repetindo o mesmo comando "
                "«lavra batch».", field="/execucao")
        else:
            folder, inputs, merged, docx = self.root / secrets.token_hex(8), [None, None], \
                False, False
        request = RunRequest(kind.name, dict(params.get("opcoes") or {}), run.reference_date,
                             inputs[0], inputs[1])
        if not same_inputs(run.fingerprint, fingerprint(issuer, kind, request)):
            raise InputError(f"Os arquivos guardados da execução nº {run.id} não são mais os "
                             "do seu planejamento; ela não pode ser retomada pela web.",
                             field="/execucao")
        with self.lock:
            self._refuse_busy(kind)
            job = Job(folder.name, kind.name, kind.title, run.key, False, folder, actor,
                      state="emitindo", run_id=run.id)
            earlier_job = self.shared.get(job.token)
            if earlier_job is not None and not earlier_job.live:
                self.shared.remove(job.token)  # the folder's earlier work, ended
            self._record(job, kind)
            if found is None:
                try:
                    (folder / INPUTS).mkdir(parents=True)
                    atomic_write(folder / MANIFEST, _dump({
                        "execucao": kind.name, "opcoes": request.options,
                        "data": run.reference_date.isoformat(), "entrada": None,
                        "pedidos": None, "pdf_unico": False, "docx": False,
                        "chave": run.key, "execucao_n": run.id, "iniciada_por": actor,
                        "iniciada_em": datetime.now(UTC).isoformat()}))
                except BaseException:
                    self._jobs.pop(job.token, None)
                    self.shared.remove(job.token)
                    raise
        self._launch(job, request, merged=merged, docx=docx, signer=signer)
        return job

    # ------------------------------------------------------------ working
    def _launch(self, job: Job, request: RunRequest, *, merged: bool, docx: bool,
                signer: SignerKey | None) -> None:
        thread = threading.Thread(target=self._work,
                                  args=(job, request, merged, docx, signer),
                                  name=f"lavra-lote-{job.token}", daemon=True)
        thread.start()

    def _noted(self, job: Job, run_id: int) -> None:
        """The run's number into the job and its manifest, once planned."""
        with self.lock:
            job.run_id, job.state = run_id, "emitindo"
        self.shared.change(job.token, run_id=run_id, state="emitindo")
        manifest = _manifest(job.folder)
        if manifest is not None and manifest.get("execucao_n") != run_id:
            manifest["execucao_n"] = run_id
            atomic_write(job.folder / MANIFEST, _dump(manifest))

    def _beat(self, job: Job, stop: threading.Event) -> None:
        """Tell the other workers, every few seconds, that the run is being worked."""
        while not stop.wait(BEAT_SECONDS):
            try:
                self.shared.change(job.token)
            except Exception:  # a missed beat is retried; the run goes on
                LOG.warning("execução em lote %s: batimento não registrado", job.token)

    def _progressed(self, job: Job, now: tuple[float, int]) -> None:
        with self.lock:
            job.first = job.first or now
            job.last = now
            first = job.first
        if now[0] - self._written.get(job.token, 0.0) >= 1.0:  # at most once a second
            self._written[job.token] = now[0]
            self.shared.change(job.token, progress={"first": list(first), "last": list(now)})

    def _work(self, job: Job, request: RunRequest, merged: bool, docx: bool,
              signer: SignerKey | None) -> None:
        issuer = None
        stop = threading.Event()
        threading.Thread(target=self._beat, args=(job, stop), daemon=True,
                         name=f"lavra-lote-batimento-{job.token}").start()
        try:
            issuer, url = self._issuer()
            kind = find_kind(issuer, job.kind)

            def progress(done: int, total: int) -> None:
                if job.run_id is None and not job.simulate:
                    run = open_run(issuer.registry, job.key)
                    if run is not None:
                        self._noted(job, run.id)
                self._progressed(job, (time.time(), done))

            summary = run_batch(issuer, kind, request, job.folder / OUTPUTS,
                                database_url=url, workers=self.workers, merged=merged,
                                simulate=job.simulate, docx=docx, progress=progress,
                                actor=job.actor, signer=signer)
            if summary.run is not None and not job.simulate:
                self._noted(job, summary.run.id)
            with self.lock:
                # A dry run's rows are its page; a real run's are read from the registry a
                # page at a time, so the server keeps only its counts (issue 24: the
                # server's memory comes back after a run of 20,000 lines).
                job.summary = summary if job.simulate else None
                job.stored_counts = dict(summary.counts)
                job.state = "concluída" if summary.complete else "incompleta"
            self.shared.change(job.token, state=job.state, summary={
                "counts": dict(summary.counts),
                "rows": [asdict(r) for r in summary.rows] if job.simulate else []})
        except LavraError as error:
            # The page shows it: pt-BR, the field by its label, never a pointer (issue 25).
            self._failed(job, error_message(error))
        except Exception:  # the thread must end with a message, not silently
            LOG.exception("falha na execução em lote %s", job.token)
            self._failed(job, "Erro interno inesperado na execução. O que foi registrado "
                         "fica; retome a execução na página dela. Se persistir, informe o "
                         "suporte.")
        finally:
            stop.set()
            self._written.pop(job.token, None)
            if issuer is not None:
                issuer.close()
            if job.simulate:
                shutil.rmtree(job.folder, ignore_errors=True)

    def _failed(self, job: Job, message: str) -> None:
        with self.lock:
            job.state, job.error = "falhou", message
        try:
            self.shared.change(job.token, state="falhou", error=message)
        except Exception:  # the registry unreachable: this worker still shows it
            LOG.exception("execução em lote %s: falha não registrada", job.token)
        if job.run_id is None and not job.simulate:
            # Nothing was planned: the folder holds only the inputs, and goes.
            shutil.rmtree(job.folder, ignore_errors=True)


def _dump(value: Mapping[str, Any]) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1, default=str).encode("utf-8")

