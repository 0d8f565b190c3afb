"""Staff templates within limits: checked at load, strict sandbox, bounded rendering.

The hostile templates run in a copy of the pack, through the engine, in the warm
worker processes of :mod:`lavra.render.isolation`.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.documents import RENDER_LIMITS, Engine
from lavra.errors import ContentPackError, InputError, RenderError
from lavra.pack import PACK_FOLDERS
from lavra.render.isolation import Limits, TaskFailed, WorkerPool
from lavra.render.templating import make_environment, render_string
from lavra_americana import pacote

ALV = "alvara-fretamento"
ON = date(2026, 11, 29)
WORDING = f"{ALV}/texto.html"


@pytest.fixture
def pack_copy(pack_dir: Path, tmp_path: Path) -> Path:
    root = tmp_path / "pacote"
    for folder in PACK_FOLDERS:
        shutil.copytree(pack_dir / folder, root / folder)
    return root


def example(root: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (root / "forms" / ALV / "exemplo.json").read_text(encoding="utf-8")
    )
    return data


def write_wording(root: Path, line3: str, form: str = ALV) -> None:
    (root / "forms" / form / "texto.html").write_text(
        f"<p>Primeira linha.</p>\n<p>Segunda linha.</p>\n<p>{line3}</p>\n", encoding="utf-8"
    )


HOSTILE = [
    pytest.param("{{ 'a' * 10**9 }}", "excedeu o limite de tamanho", id="huge-string"),
    pytest.param(
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "excedeu o limite de tempo de 3 s",
        id="nested-ranges",
    ),
    pytest.param(
        "{{ dados.empresa.razao_social | attr('format') }}",
        "tenta imprimir a função ou método «format»",
        id="attr-format",
    ),
    pytest.param("{{ ''.__class__ }}", "atributo não permitido «__class__»", id="dunder-class"),
]


@pytest.mark.parametrize(("line3", "message"), HOSTILE)
def test_a_hostile_template_is_an_error_naming_template_and_line(
    pack_copy: Path, line3: str, message: str
) -> None:
    write_wording(pack_copy, line3)
    engine = Engine(Content(pacote().at(pack_copy)), limits=replace(RENDER_LIMITS, timeout=3))
    started = time.monotonic()
    with pytest.raises(RenderError) as caught:
        engine.draft(ALV, example(pack_copy), ON)
    assert f"O modelo {WORDING}, linha 3, " in caught.value.message
    assert message in caught.value.message
    assert "Traceback" not in caught.value.message
    assert time.monotonic() - started < 60
    # the pool keeps working after the failure (a worker that overran was replaced)
    write_wording(pack_copy, "{{ dados.empresa.razao_social }}")
    fine = Engine(Content(pacote().at(pack_copy))).draft(ALV, example(pack_copy), ON)
    assert fine.pdf.startswith(b"%PDF-")


@pytest.mark.parametrize("draft", [True, False])
@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("{{ ''.__class__ }}", "«__class__»"),
        ("{{ ''['__class__'] }}", "«__class__»"),
        ("{{ v.__class__.__init__.__globals__ }}", "«__class__»"),
        ("{{ v.__len__() }}", "«__len__»"),
        ("{{ range }}", "função ou método"),
        ("{{ 'a'.format }}", "função ou método «format»"),
        ("{{ v | attr('upper') }}", "função ou método «upper»"),
        ("{{ 'ab' * 10**9 }}", "limite de tamanho"),
        ("{{ [1, 2] * 10**8 }}", "limite de tamanho"),
        ("{{ 7 ** 100000 }}", "limite de tamanho de um número"),
        (
            "{% set ns = namespace(s='a') %}{% for i in range(40) %}"
            "{% set ns.s = ns.s + ns.s %}{% endfor %}",
            "limite de tamanho",
        ),
        ("{% for i in range(99999) %}{{ 'x' * 99 }}{% endfor %}", "limite de tamanho do documento"),
    ],
)
def test_sandbox_violations_raise_with_the_line_in_drafts_and_final_documents(
    source: str, message: str, draft: bool
) -> None:
    with pytest.raises(RenderError) as caught:
        render_string(make_environment([], draft=draft), "<p>a</p>\n" + source, {"v": "x"})
    assert caught.value.message.startswith("O modelo (texto informado), linha 2, ")
    assert message in caught.value.message


def test_ordinary_operations_still_work() -> None:
    env = make_environment([])
    source = "{{ 'ab' * 3 }} {{ 2 ** 10 }} {{ [1] + [2] }} {{ v | upper }} {{ 'x'.upper() }}"
    assert render_string(env, source, {"v": "a"}) == "ababab 1024 [1, 2] A X"


def test_a_broken_template_stops_the_pack_from_loading(pack_copy: Path) -> None:
    write_wording(pack_copy, "{% if dados.empresa %}sem fim")
    with pytest.raises(ContentPackError) as caught:
        Content(pacote().at(pack_copy))
    assert f"{WORDING}, linha 3: erro de sintaxe: o modelo termina sem fechar o bloco «if»" in (
        caught.value.message
    )
    assert "lavra pack check" in caught.value.message


def test_pack_check_lists_every_template_error(pack_copy: Path) -> None:
    write_wording(pack_copy, "{{ dados.empresa | maiusculas }} {{ dados is impar }}")
    (pack_copy / "forms" / "auto-infracao-escolar" / "texto.html").write_text(
        "<p>a</p>\n{% for x in %}\n", encoding="utf-8"
    )
    (pack_copy / "forms" / "decisao-recurso" / "texto.html").write_text(
        '{% include "nao-existe.html" %}\n<p>{{ dado.nome }}</p>\n', encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["pack", "check", str(pack_copy)])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0] == "O pacote de conteúdo tem 5 erro(s):"
    expected = [
        "alvara-fretamento/texto.html, linha 3: filtro desconhecido «maiusculas»",
        "alvara-fretamento/texto.html, linha 3: teste desconhecido «impar»",
        "auto-infracao-escolar/texto.html, linha 2: erro de sintaxe: esperava-se uma expressão",
        "decisao-recurso/texto.html, linha 1: inclui o modelo inexistente «nao-existe.html»",
        "decisao-recurso/texto.html, linha 2: usa o nome desconhecido «dado»",
    ]
    for line, wanted in zip(lines[1:], expected, strict=True):
        assert line.strip().startswith(wanted), result.output
    assert "Traceback" not in result.output


def test_pack_check_of_the_shipped_pack_is_clean(pack_dir: Path) -> None:
    result = CliRunner().invoke(main, ["pack", "check", str(pack_dir)])
    assert result.exit_code == 0, result.output
    assert "sem erros" in result.output


# --------------------------------------------------------------------------- the pool


def worker_pid() -> int:
    return os.getpid()


def stubborn() -> None:
    """Ignores its own time limit: the parent must kill the worker."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    while True:
        pass


def refuse() -> None:
    raise InputError("Campo recusado.", field="/campo")


def test_workers_are_warm_and_reused() -> None:
    pool = WorkerPool(1)
    try:
        first = pool.run(worker_pid)
        assert first != os.getpid()
        assert pool.run(worker_pid) == first
        with pytest.raises(InputError, match=r"Campo recusado\.") as refused:
            pool.run(refuse)
        assert refused.value.field == "/campo"
        assert pool.run(worker_pid) == first  # a LavraError does not cost the worker
    finally:
        pool.close()


def test_a_worker_that_overruns_is_killed_and_replaced() -> None:
    pool = WorkerPool(1)
    try:
        first = pool.run(worker_pid)
        with pytest.raises(TaskFailed) as failed:
            pool.run(stubborn, limits=Limits(timeout=1))
        assert failed.value.kind == "timeout"
        assert "excedeu o limite de tempo de 1 s" in failed.value.describe("A tarefa")
        second = pool.run(worker_pid)
        assert second != first
        with pytest.raises(ProcessLookupError):
            os.kill(first, 0)
        os.kill(second, signal.SIGKILL)  # killed from outside while idle
        time.sleep(0.2)
        assert pool.run(worker_pid) not in (first, second)
    finally:
        pool.close()


def test_closing_the_pool_leaves_no_process() -> None:
    pool = WorkerPool(2)
    pid = pool.run(worker_pid)
    pool.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("o processo de trabalho continuou vivo")
