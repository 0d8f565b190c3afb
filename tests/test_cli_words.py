"""Issue 25, «no developer text reaches a user», on the command line: each command given
a bad input (missing field, value outside the list, impossible date, hidden character,
unknown form, missing file, wrong number) answers in words a clerk reads. Its field by
the form's label, never a JSON pointer; the law as «art. 7º, II, da Lei nº …», never a
citation id; dates as dd/mm/aaaa; no English, no exception, no traceback. In-process
(CliRunner), no document rendered: a few seconds."""

from __future__ import annotations

import json
import re
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
