"""The input files of a batch run go through the one strict reader
(:mod:`lavra.batch.inputs`), and every line ends somewhere: repeated keys, ``NaN`` and
``Infinity``, nesting bombs, oversize values and files, bad encodings and content that
does not match its extension are refused in pt-BR naming the line and the field; a
refused line does not shadow a valid later line of the same holder; a request that no
holder takes is refused with its reason; ``lavra batch`` exits non-zero when a line was
refused, and 2 (nothing written) when a file is refused whole.

Holders are the pack's examples one year back (``batchcases``): alvarás of 2025,
renewed for 2026 by a run dated 10/12/2025, so that no test depends on today.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    REPO,
    RUN_DAY,
    YEAR,
    copy_data,
    cpf,
    envelope,
    issuer_over,
    numbers_in,
    seeded_folder,
    write_jsonl,
)
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from lavra.batch.inputs import MAX_INPUT_BYTES, parse_lines
from lavra.batch.model import RunRequest
from lavra.batch.runner import Summary, find_kind, run_batch
from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.config import Config
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import Issuer, registry_url

KIND = "renovacao-transporte-escolar"
HOLDERS = 3
BOMB = b"[" * 200_000 + b"]" * 200_000


# ------------------------------------------------------------------ the reader alone
def _problems(raw: bytes, name: str = "pedidos.jsonl") -> list[tuple[int, str | None]]:
    return [(line.number, line.problem) for line in parse_lines(raw, name, "/pedidos")]


def _refused_whole(raw: bytes, name: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_lines(raw, name, "/entrada")
    assert caught.value.field == "/entrada"
    return caught.value.message


def _no_pointer(message: str) -> None:
    assert "/" not in message.replace("(.csv)", "").replace("(.jsonl)", ""), message
    assert "Traceback" not in message


@pytest.mark.parametrize(("raw", "number", "words"), [
    (b'{"processo": "PA 1/2026", "processo": "PA 666/2026 DUPLICADO"}',
     1, "o campo «processo» aparece mais de uma vez"),
    (b'{"requerimento": {"alvara_anterior": {"numero": "A", "numero": "B"}}}',
     1, "o campo «requerimento.alvara_anterior.numero» aparece mais de uma vez"),
    (b'{"valor": NaN}', 1, "o campo «valor» contém NaN"),
    (b'{"a": [1, Infinity]}', 1, "o campo «a.1» contém Infinity"),
    (b'{"a": -Infinity}', 1, "o campo «a» contém -Infinity"),
    (BOMB, 1, "dados aninhados em excesso"),
    (b'{"a":' * 20 + b"1" + b"}" * 20, 1, "dados aninhados em excesso"),
    (b'{"nome": "x\\u202ey"}', 1, "o campo «nome» contém um caractere"),
    (json.dumps({"nome": "x" * 20_000}).encode(), 1, "o campo «nome» excede o tamanho"),
    (b"[1, 2]", 1, "não é um objeto JSON"),
    (b"{mal formado", 1, "não contém JSON válido"),
])
def test_each_hostile_line_is_refused_naming_line_and_field(
    raw: bytes, number: int, words: str
) -> None:
    found = _problems(b'{"ok": 1}\n' + raw + b'\n{"ok": 2}\n')
    assert [n for n, _ in found] == [1, 2, 3]
    assert found[0][1] is None and found[2][1] is None  # the lines around it are read
    problem = found[1][1]
    assert problem is not None
    assert problem.startswith(f"Linha {number + 1} do arquivo de pedidos: ")
    assert words in problem, problem
    _no_pointer(problem.split("«")[0])


def test_a_good_file_reads_with_bom_crlf_and_blank_lines() -> None:
    raw = "\ufeff".encode() + b'{"nome": "Jos\xc3\xa9"}\r\n\r\n{"nome": "Ana"}\r\n'
    lines = parse_lines(raw, "pedidos.JSONL", "/pedidos")
    assert [(line.number, line.row) for line in lines] == [(1, {"nome": "José"}),
                                                           (3, {"nome": "Ana"})]
    csv_lines = parse_lines(b"\xef\xbb\xbf Alvara ,CPF\nALV 1, 1 \n\n", "e.csv", "/entrada")
    assert [(line.number, line.row) for line in csv_lines] == [(2, {"alvara": "ALV 1",
                                                                    "cpf": "1"})]


def test_csv_lines_are_refused_one_by_one() -> None:
    raw = b'alvara,cpf\nA,1\nB,2,3\n"C\x1b",4\n"D\nE",5\n'
    lines = parse_lines(raw, "entrada.csv", "/entrada")
    assert [line.number for line in lines] == [2, 3, 4, 6]  # a quoted break: its last line
    assert lines[0].row == {"alvara": "A", "cpf": "1"}
    assert lines[1].problem == ("Linha 3 do arquivo de entrada: tem mais colunas (3) que o "
                                "cabeçalho (2).")
    assert lines[2].problem is not None and "campo «alvara»" in lines[2].problem
    assert "U+001B" in lines[2].problem
    assert lines[3].row == {"alvara": "D\nE", "cpf": "5"}


@pytest.mark.parametrize(("raw", "name", "words"), [
    (b"alvara,cpf,nome\nALV-ESC 0001/2025,529.982.247-25,Jose\n", "entrada.txt",
     "deve ser CSV (.csv) ou JSON Lines (.jsonl)"),
    (b"alvara,cpf,nome\nALV-ESC 0001/2025,529.982.247-25,Jose\n", "entrada.jsonl",
     "não é JSON Lines, como diz a extensão"),
    (b'{"alvara": "ALV-ESC 0001/2025"}\n', "entrada.csv", "não é CSV, como diz a extensão"),
    (b"alvara,cpf,cpf\nA,1,2\n", "entrada.csv", "traz mais de uma vez a coluna «cpf»"),
    (b"alvara,cpf\nA,Jos\xe9\n", "entrada.csv", "não está em UTF-8 (linha 2)"),
    (b'{"a": "\xff"}\n', "entrada.jsonl", "não está em UTF-8 (linha 1)"),
    (b"alvara,cpf\nA\x00,1\n", "entrada.csv", "não é um arquivo de texto"),
    (b"\n\n", "entrada.jsonl", "não tem nenhuma linha de dados"),
    (b"alvara,cpf\n", "entrada.csv", "não tem nenhuma linha de dados"),
    (b",\nA,1\n", "entrada.csv", "não tem a linha de cabeçalho"),
    (b'alvara,cpf\n"A,1\nB,2\n', "entrada.csv", "malformado na linha 3 (aspas"),
    (b"x" * (MAX_INPUT_BYTES + 1), "entrada.csv", "excede o tamanho máximo de 5 MiB"),
    (b"alvara,cpf\n" + b"a" * 200_000 + b",1\n", "entrada.csv",
     "malformado na linha 2 (um valor longo demais)"),
])
def test_a_file_that_cannot_be_used_is_refused_whole(raw: bytes, name: str,
                                                      words: str) -> None:
    message = _refused_whole(raw, name)
    assert message.startswith(("O arquivo", "O cabeçalho")), message
    assert words in message, message
    assert name not in message or "/" not in name


# ------------------------------------------------------------------ in a run
@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    return seeded_folder(engine, tmp_path_factory.mktemp("semente"), HOLDERS)


def _issuer(engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path) -> Issuer:
    return issuer_over(engine, copy_data(seeded[0], tmp_path))


def _run(issuer: Issuer, tmp_path: Path, pedidos: Path | None, entrada: Path | None = None,
         **kwargs: Any) -> Summary:
    request = RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), entrada, pedidos)
    return run_batch(issuer, find_kind(issuer, KIND), request, tmp_path / "saida",
                     database_url=registry_url(issuer.config), workers=1, **kwargs)


def _nothing_written(issuer: Issuer, tmp_path: Path) -> None:
    raw = create_engine(registry_url(issuer.config))
    with raw.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM batch_runs")).scalar() == 0
        assert connection.execute(text(
            "SELECT count(*) FROM documents WHERE series <> 'ALV-ESC'")).scalar() == 0
    raw.dispose()
    assert not (tmp_path / "saida").exists()


def _pedidos_with(tmp_path: Path, numbers: list[str], bad: bytes) -> Path:
    path = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
    path.write_bytes(path.read_bytes() + bad + b"\n")
    return path


@pytest.mark.parametrize(("bad", "words"), [
    (b'{"requerimento": {}, "processo": "PA 1/2025", "processo": "PA 666/2026 DUPLICADO"}',
     "o campo «processo» aparece mais de uma vez"),
    (b'{"requerimento": {"idade": NaN}}', "o campo «requerimento.idade» contém NaN"),
    (BOMB, "dados aninhados em excesso"),
])
def test_a_refused_request_line_refuses_the_run_and_writes_nothing(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path, bad: bytes, words: str
) -> None:
    issuer = _issuer(engine, seeded, tmp_path)
    with pytest.raises(InputError) as caught:
        _run(issuer, tmp_path, _pedidos_with(tmp_path, seeded[1], bad))
    assert caught.value.field == "/pedidos"
    assert caught.value.message.startswith("Linha 2 do arquivo de pedidos: ")
    assert words in caught.value.message
    assert "DUPLICADO" not in caught.value.message
    _nothing_written(issuer, tmp_path)
    issuer.close()


def test_a_refused_line_does_not_shadow_the_holders_later_line(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Holder 0 first with an alvará not in the registry (refused), then with its own:
    the later line is renewed; holder 1's repeated valid line is still refused."""
    numbers = seeded[1]
    issuer = _issuer(engine, seeded, tmp_path)
    entrada = tmp_path / "entrada.csv"
    entrada.write_text(
        "alvara,cpf,nome\n"
        f"ALV-ESC 0999/2025,{cpf(0)},Alvará errado\n"
        f"{numbers[0]},{cpf(0)},Titular 0\n"
        f"{numbers[1]},{cpf(1)},Titular 1\n"
        f"{numbers[1]},{cpf(1)},Repetido\n",
        encoding="utf-8",
    )
    pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
    summary = _run(issuer, tmp_path, pedidos, entrada, simulate=True)
    outcomes = [(r.order, r.outcome) for r in summary.rows if r.role != "anexo"]
    assert [o for _, o in dict(outcomes).items()] == [
        "recusado", "renovado", "notificado", "recusado"]
    reasons = [r.reason for r in summary.rows if r.outcome == "recusado"]
    assert "não consta do registro" in reasons[0]
    assert "mais de uma vez" in reasons[1]
    issuer.close()


def test_a_request_no_holder_takes_is_refused_with_its_reason(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = _issuer(engine, seeded, tmp_path)
    stray = envelope(0, "ALV-ESC 0777/2025")
    pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [
        envelope(1, numbers[1], missing=("laudo_medico",)), stray, envelope(1, numbers[1])])
    summary = _run(issuer, tmp_path, pedidos, simulate=True)
    assert summary.counts["renovado"] == 1 and summary.counts["notificado"] == 2
    reasons = [r.reason for r in summary.rows if r.outcome == "recusado"]
    assert len(reasons) == 2
    assert "linha 1 dos pedidos" in reasons[0] and "substituído pelo da linha 3" in reasons[0]
    assert "linha 2 dos pedidos" in reasons[1] and "«ALV-ESC 0777/2025»" in reasons[1]
    assert "não é de nenhum titular desta execução" in reasons[1]
    issuer.close()


# ------------------------------------------------------------------ the command line
def _cli(seeded: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         *args: str) -> Any:
    data = copy_data(seeded[0], tmp_path)
    monkeypatch.setenv("LAVRA_DATA", str(data))
    monkeypatch.setenv("LAVRA_PACK", str(REPO))
    url = registry_url(Config(pack_dir=REPO, data_dir=data))
    return CliRunner().invoke(main, [
        "batch", KIND, "--ano", str(YEAR), "--data", RUN_DAY, "-o", str(tmp_path / "saida"),
        "--registro", url, "--trabalhadores", "1", *args])


def test_a_later_run_into_the_same_folder_keeps_the_earlier_runs_files(
    seeded: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each run writes in its own subfolder (execucao-NNNN): the second run, planning
    new holders into the same -o folder, leaves every file of the first alone."""
    numbers = seeded[1]
    data = copy_data(seeded[0], tmp_path)
    monkeypatch.setenv("LAVRA_DATA", str(data))
    monkeypatch.setenv("LAVRA_PACK", str(REPO))
    url = registry_url(Config(pack_dir=REPO, data_dir=data))
    out = tmp_path / "saida"

    def run(*holders: int, dry: bool = False) -> Any:
        entrada = tmp_path / f"entrada-{len(holders)}.csv"
        entrada.write_text("alvara,cpf,nome\n" + "".join(
            f"{numbers[n]},{cpf(n)},Titular {n}\n" for n in holders), encoding="utf-8")
        return CliRunner().invoke(main, [
            "batch", KIND, "--ano", str(YEAR), "--data", RUN_DAY, "-o", str(out),
            "--registro", url, "--trabalhadores", "1", "--entrada", str(entrada),
            *(["--simular"] if dry else [])])

    first = run(0)
    assert first.exit_code == 0, first.output
    (earlier,) = sorted(out.iterdir())
    assert earlier.name.startswith("execucao-") and str(earlier) in first.stdout
    kept = {p.name: p.read_bytes() for p in earlier.iterdir()}
    assert "resumo.csv" in kept and "resumo.pdf" in kept and len(kept) == 4
    # The dry run shows whom the run would plan and whom it skips, and why; it numbers
    # and writes nothing.
    dry = run(0, 1, dry=True)
    assert dry.exit_code == 1, dry.output
    first_run = int(earlier.name.removeprefix("execucao-"))
    assert (f"Titular Exemplo 0000: recusado – Já planejado na execução em lote nº "
            f"{first_run} (NOT-REN-ESC nº 0001/") in dry.stdout
    assert ("Titular Exemplo 0001: notificado – Notificação de Pendências na Renovação do "
            "Alvará para Transporte Escolar, NOT-REN-ESC nº 0002/") in dry.stdout
    assert sorted(out.iterdir()) == [earlier]
    assert numbers_in(url, "NOT-REN-ESC") == [1]
    second = run(0, 1)  # holder 0 already notified: refused; holder 1 planned
    assert second.exit_code == 1, second.output
    later = sorted(out.iterdir())
    assert len(later) == 2 and later[0] == earlier and str(later[1]) in second.stdout
    assert {p.name: p.read_bytes() for p in earlier.iterdir()} == kept
    rows = list(csv.DictReader(io.StringIO((later[1] / "resumo.csv").read_text("utf-8"))))
    assert [r["resultado"] for r in rows if r["papel"] != "anexo"] == [
        "recusado", "notificado"]


def test_the_run_signs_every_act_with_the_certificate_of_who_starts_it(
    seeded: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lavra batch --certificado``: the password is asked once, at the start (a wrong
    one stops the run before anything is numbered); every act names that signer."""
    from lavra.signing.pki import DEV_PASSPHRASE

    numbers = seeded[1]
    data = copy_data(seeded[0], tmp_path)
    monkeypatch.setenv("LAVRA_DATA", str(data))
    monkeypatch.setenv("LAVRA_PACK", str(REPO))
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    url = registry_url(Config(pack_dir=REPO, data_dir=data))
    runner = CliRunner()
    role = "secretario-transportes"
    made = runner.invoke(main, ["keys", "init", "--signatario", "Ana Souza", "--papel", role])
    assert made.exit_code == 0, made.output
    p12 = data / "pki" / "assinantes" / f"ana-souza.{role}.p12"
    entrada = tmp_path / "entrada.csv"
    entrada.write_text(f"alvara,cpf,nome\n{numbers[0]},{cpf(0)},Titular 0\n", "utf-8")
    out = tmp_path / "saida"
    command = ["batch", KIND, "--ano", str(YEAR), "--data", RUN_DAY, "-o", str(out),
               "--registro", url, "--trabalhadores", "1", "--entrada", str(entrada),
               "--certificado", str(p12)]
    wrong = runner.invoke(main, command, env={"LAVRA_SENHA_CERTIFICADO": "errada"})
    assert wrong.exit_code != 0 and "Traceback" not in wrong.output, wrong.output
    assert numbers_in(url, "NOT-REN-ESC") == [] and not out.exists()
    done = runner.invoke(main, command, env={"LAVRA_SENHA_CERTIFICADO": DEV_PASSPHRASE})
    assert done.exit_code == 0, done.output
    (folder,) = out.iterdir()
    rows = list(csv.DictReader(io.StringIO((folder / "resumo.csv").read_text("utf-8"))))
    (notice,) = [r["arquivo"] for r in rows if r["papel"] == "documento"]
    verified = runner.invoke(main, ["verify", str(folder / notice)])
    cargo = "Secretário Municipal de Transportes e Sistema Viário"
    assert f"assinado por Ana Souza, {cargo}." in verified.output, verified.output


def test_the_command_exits_non_zero_when_a_line_was_refused(
    seeded: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entrada = tmp_path / "entrada.csv"
    entrada.write_text(f"alvara,cpf,nome\n{seeded[1][0]},123.456.789-00,CPF inválido\n",
                       encoding="utf-8")
    result = _cli(seeded, tmp_path, monkeypatch, "--entrada", str(entrada), "--simular")
    assert result.exit_code == 1, result.output
    assert "1 linha(s) recusada(s)" in result.stderr
    assert "CPF inválido" in result.stdout


@pytest.mark.parametrize(("name", "raw", "option", "words"), [
    ("entrada.txt", b"alvara,cpf,nome\nALV-ESC 0001/2025,1,Jose\n", "--entrada",
     "O arquivo de entrada deve ser CSV (.csv) ou JSON Lines (.jsonl)"),
    ("pedidos.jsonl", BOMB, "--pedidos",
     "Linha 1 do arquivo de pedidos: a linha tem dados aninhados em excesso"),
    ("pedidos.jsonl", b'{"a": NaN}', "--pedidos", "o campo «a» contém NaN"),
])
def test_a_file_refused_whole_exits_two_in_pt_br_without_a_traceback(
    seeded: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    name: str, raw: bytes, option: str, words: str
) -> None:
    path = tmp_path / name
    path.write_bytes(raw)
    result = _cli(seeded, tmp_path, monkeypatch, option, str(path))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Erro: ") and words in result.stderr, result.stderr
    assert "Traceback" not in result.output and str(tmp_path) not in result.stderr
    assert not (tmp_path / "saida").exists()
