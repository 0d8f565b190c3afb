"""Issue 25, «no developer text reaches a user», on the command line: each command given
a bad input (missing field, value outside the list, impossible date, hidden character,
unknown form, missing file, wrong number) answers in words a clerk reads. Its field by
the form's label, never a JSON pointer; the law as «art. 7º, II, da Lei nº …», never a
citation id; dates as dd/mm/aaaa; no English, no exception, no traceback. In-process
(CliRunner), no document rendered: a few seconds."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from lavra.cli.main import main

ALV = "alvara-fretamento"

#: What a clerk must never read: a JSON pointer, a citation id, an exception or an
#: English error line, an ISO date.
DEVELOPER_TEXT = {
    "ponteiro JSON": re.compile(r"(?:^|[\s(«'\"])/[a-z_]"),
    "id de citação": re.compile(r"#art"),
    "erro em inglês ou exceção": re.compile(r"Error:|Traceback|Exception|KeyError"),
    "data ISO": re.compile(r"\d{4}-\d{2}-\d{2}"),
}


def _data(pack_dir: Path, change: str) -> dict[str, object]:
    data = json.loads((pack_dir / "forms" / ALV / "exemplo.json").read_text("utf-8"))
    if change == "sem empresa":
        del data["empresa"]
    elif change == "tipo":
        data["veiculo"]["tipo"] = "foguete"
    elif change == "data":
        data["processo"]["data_requerimento"] = "2026-02-30"
    elif change == "controle":
        data["empresa"]["razao_social"] = "Viação\x00Exemplo"
    return data


CASES = [
    pytest.param(["check", ALV, "{sem empresa}"], 1,
                 "Campo obrigatório não informado: Empresa ou entidade autorizada.",
                 id="check-campo-ausente"),
    pytest.param(["check", ALV, "{tipo}"], 1,
                 "Veículo › Tipo de veículo: Valor não permitido: «foguete». Valores aceitos: "
                 "Ônibus rodoviário, Micro-ônibus, Outro. (art. 9º da Lei nº 4.419/2006)",
                 id="check-valor-fora-da-lista"),
    pytest.param(["check", ALV, "{data}"], 1,
                 "Data do requerimento: Data inexistente: 30/02/2026.", id="check-data"),
    pytest.param(["check", ALV, "{controle}"], 2,
                 "O campo «Empresa ou entidade autorizada › Razão social» contém",
                 id="check-caractere-oculto"),
    pytest.param(["check", ALV, "{data}", "--json"], 1, '"field": "/processo/data_requerimento"',
                 id="check-json-guarda-o-ponteiro"),
    pytest.param(["check", "nada", "{data}"], 2, "Formulário desconhecido: «nada».",
                 id="check-formulario-desconhecido"),
    pytest.param(["check", ALV, "PASTA/nao.json"], 2,
                 "Não foi possível ler o arquivo PASTA/nao.json: arquivo ou pasta inexistente.",
                 id="check-arquivo-inexistente"),
    pytest.param(["check", ALV, "{sem empresa}", "--on", "2026-02-30"], 2,
                 "A data de referência (--data) 30/02/2026 não existe no calendário.",
                 id="check-on-inexistente"),
    pytest.param(["read", "PASTA/nao.pdf"], 2, "arquivo ou pasta inexistente", id="read"),
    pytest.param(["read", "{sem empresa}"], 2, "não é um PDF legível", id="read-nao-pdf"),
    pytest.param(["verify", "--code", "XXXX-XXXX-XXXX"], 2,
                 "Código de verificação inválido: confira a digitação.", id="verify-codigo"),
    pytest.param(["export", "9999/2026", "-o", "PASTA/x.pdf"], 2,
                 "Documento nº 9999/2026 não encontrado no registro.", id="export"),
    pytest.param(["fato", "listar", "9999/2026"], 2,
                 "Documento «9999/2026» não consta do registro.", id="fato"),
    pytest.param(["amount", "fretamento#art16", "--on", "2026-02-30"], 2,
                 "A data de referência (--data) 30/02/2026 não existe no calendário.",
                 id="amount-data"),
    pytest.param(["deadline", "fretamento#art23", "--inicio", "2026-02-30"], 2,
                 "A data em --inicio 30/02/2026 não existe no calendário.", id="deadline-data"),
    pytest.param(["lote", "corrigir", "nada", "--campo", "x", "--valor", "y"], 2,
                 "'nada' não é um número inteiro válido.", id="lote-numero"),
    pytest.param(["cadastro", "importar", "PASTA/atos.csv"], 2,
                 "Não foi possível ler o arquivo: arquivo ou pasta inexistente.",
                 id="cadastro-arquivo"),
    pytest.param(["pack", "check", "PASTA/nada"], 2,
                 "Pacote de conteúdo não encontrado em PASTA/nada", id="pack-check"),
]


@pytest.mark.parametrize(("args", "status", "said"), CASES)
def test_a_bad_input_is_answered_in_words_a_clerk_reads(
    args: list[str], status: int, said: str, pack_dir: Path, tmp_path: Path
) -> None:
    files = {}
    for change in ("sem empresa", "tipo", "data", "controle"):
        path = tmp_path / f"{change.replace(' ', '-')}.json"
        path.write_text(json.dumps(_data(pack_dir, change), ensure_ascii=False), "utf-8")
        files[f"{{{change}}}"] = str(path)
    argv = [files.get(a, a.replace("PASTA", str(tmp_path))) for a in args]
    result = CliRunner().invoke(main, argv, env={"LAVRA_DATA": str(tmp_path / "dados")})
    output = result.output.replace(str(tmp_path), "PASTA")
    assert result.exit_code == status, output
    assert said in output, output
    if "--json" in args:
        return  # for programs: pointers and citation ids kept
    found = {what: m.group(0) for what, rx in DEVELOPER_TEXT.items() if (m := rx.search(output))}
    assert not found, (found, output)


#: A command line given to type («lavra lote corrigir 3 --item 2 --campo /x …») is a
#: command, not a sentence: its arguments are said as typed.
_COMMAND = re.compile(r"lavra [a-z]+ [^\n]*?(?:NOME\.|DATA$)", re.M)


def _words(output: str) -> dict[str, str]:
    prose = _COMMAND.sub("", output)
    return {what: m.group(0) for what, rx in DEVELOPER_TEXT.items() if (m := rx.search(prose))}


OUTPUTS = [
    pytest.param(["deadline", "--listar"], 0, "art. 23 da Lei nº 4.419/2006: ",
                 id="deadline-lista"),
    pytest.param(["deadline", "--list"], 0, "art. 23 da Lei nº 4.419/2006: ",
                 id="deadline-lista-nome-antigo"),
    pytest.param(["deadline"], 2, "Para ver os dispositivos que fixam prazo e o comando de "
                 "cada um: lavra deadline --listar", id="deadline-sem-citacao"),
    pytest.param(["deadline", "fretamento#art23", "--inicio", "20/02/2026", "--protocolo",
                  "09/03/2026"], 0, "Último dia: 09/03/2026.", id="deadline-prazo"),
    pytest.param(["deadline", "fretamento#art23", "--from", "20/02/2026", "--filed",
                  "09/03/2026"], 0, "Último dia: 09/03/2026.", id="deadline-nomes-antigos"),
    pytest.param(["cancel", "0001/2026"], 2, "Opção ausente '--motivo'.", id="cancel-sem-motivo"),
    pytest.param(["cancel", "9999/2026", "--motivo", "Erro", "--responsavel", "ana"], 2,
                 "9999/2026", id="cancel-numero-inexistente"),
    pytest.param(["cancel", "9999/2026", "--reason", "Erro", "--by", "ana"], 2,
                 "9999/2026", id="cancel-nomes-antigos"),
    pytest.param(["cancel", "--help"], 0, "--responsavel TEXTO", id="cancel-ajuda"),
    pytest.param(["lote", "corrigir", "7", "--item", "1", "--campo", "/x", "--valor", "y",
                  "--responsavel", "ana"], 2, "O item 1 da execução em lote nº 7 não existe.",
                 id="lote-corrigir-inexistente"),
    pytest.param(["lote", "abandonar", "7", "--motivo", "x", "--responsavel", "ana"], 2,
                 "7", id="lote-abandonar-inexistente"),
]


@pytest.mark.parametrize(("args", "status", "said"), OUTPUTS)
def test_deadline_cancel_and_batch_outputs_are_in_words(
    args: list[str], status: int, said: str, tmp_path: Path
) -> None:
    result = CliRunner().invoke(main, args, env={"LAVRA_DATA": str(tmp_path / "dados")})
    output = result.output
    assert result.exit_code == status, output
    assert said in output, output
    assert not _words(output), (_words(output), output)
    if args[-1] == "--help":
        # the English names still work (scripts) but are not offered
        assert not re.search(r"--(reason|by|series)\b", output), output


def test_a_batch_failure_names_the_field_by_label_and_the_correction_as_a_command(
    pack_dir: Path,
) -> None:
    """The reason a worker records for a failed item (summary, CLI, item page): the
    field by its label, the pending items of the completeness report each by label, and
    the correction as the command to type; no pointer, no form id in its sentences."""
    from types import SimpleNamespace

    from lavra.batch.work import _incomplete, failure_text
    from lavra.checking.content import loaded_content
    from lavra.documents import Engine
    from lavra.issuing import IncompleteError
    from lavra.registry.runs import ItemRecord

    engine = Engine(loaded_content(pack_dir), pool=None)
    issuer = SimpleNamespace(engine=engine)
    form = "alvara-transporte-escolar"
    data = json.loads((pack_dir / "forms" / form / "exemplo.json").read_text("utf-8"))
    del data["processo"]["comprovante_taxa"]
    item = ItemRecord(id=5, run_id=3, position=1, seq=2, holder="10000000019",
                      name="Titular Exemplo", outcome="renovado", role="documento",
                      form=form, series="ALV-ESC", year=2027, number=4, data=data,
                      reason=None, file=None, status="pendente", document_id=None)
    report = engine.check(form, data, date(2026, 12, 1))
    assert not report.complete
    failure = _incomplete(issuer, item, IncompleteError(report, reserved=True))  # type: ignore[arg-type]
    assert failure.field == "/processo/comprovante_taxa"
    text = failure_text(issuer, failure)  # type: ignore[arg-type]
    assert text.startswith("Alvará para exploração de serviços de Transporte Escolar "
                           "ALV-ESC nº 0004/2027, de Titular Exemplo (100.000.000-19)"), text
    assert "Campo: Processo administrativo › Comprovante de recolhimento da taxa." in text
    assert ("Para corrigir: lavra lote corrigir 3 --item 2 --formulario "
            f"{form} --campo /processo/comprovante_taxa --valor NOVO_VALOR "
            "--responsavel NOME.") in text
    assert not _words(text), (_words(text), text)
    assert form not in _COMMAND.sub("", text)


def test_no_completeness_message_of_the_examples_names_a_form_id(pack_dir: Path) -> None:
    """Each form's example, checked as given and emptied: no message a person reads
    names a form by its id («requerimento-licenca-publicidade»); by its title."""
    from lavra.checking.content import loaded_content
    from lavra.documents import Engine

    engine = Engine(loaded_content(pack_dir), pool=None)
    ids = re.compile("|".join(re.escape(f) for f in sorted(engine.content.forms, key=len,
                                                            reverse=True)))
    on = date(2026, 12, 1)
    for form in engine.content.forms:
        example = pack_dir / "forms" / form / "exemplo.json"
        if not example.exists():
            continue
        data = json.loads(example.read_text("utf-8"))
        for given in (data, {}):
            for item in engine.check(form, given, on).items:
                found = ids.search(item.message)
                assert found is None, (form, item.requirement, item.message)
