"""Messages a user reads after hostile input, through the real entry points: pt-BR that
reads like an official text, without Python's escapes, English or unbounded echoes.

Found by the review of issue 8; each test failed before its fix.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.inputs.reading import load_json, parse_data

REPO = Path(__file__).resolve().parent.parent
ALV = "alvara-fretamento"


def _lavra(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line as a user runs it, from a folder outside the repository."""
    env = {**os.environ, "LAVRA_PACK": str(REPO)}
    env.pop("LAVRA_CONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "lavra.cli.main", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def test_a_repeated_key_is_said_to_be_no_arquivo(tmp_path: Path) -> None:
    text = (REPO / "forms" / ALV / "exemplo.json").read_text("utf-8")
    (tmp_path / "dados.json").write_text(
        text.replace('"cliente": ', '"cliente": "Outro S.A.", "cliente": ', 1), "utf-8"
    )
    done = _lavra(tmp_path, "check", ALV, "dados.json", "--on", "2026-11-30")
    assert done.returncode == 2, done.stdout + done.stderr
    assert ("O campo «Cliente do fretamento contínuo (letreiro frontal)» aparece mais de uma "
            "vez no arquivo dados.json.") in done.stderr
    assert "em o " not in done.stderr and "Traceback" not in done.stderr
    with pytest.raises(InputError) as caught:
        load_json('{"form": "a", "form": "b"}', source="o corpo da requisição")
    assert "aparece mais de uma vez no corpo da requisição." in caught.value.message


@pytest.mark.parametrize(
    ("citation", "shown"),
    [
        ("fretamento#art7\u202e", "«fretamento#art7U+202E»"),
        ("fretamento#art7\n", "«fretamento#art7U+000A»"),
        ("fretamento#art999", "«fretamento#art999»"),
        ("a" * 3000, "«" + "a" * 60 + "…»"),
    ],
)
def test_a_citation_is_repeated_visibly_and_briefly(citation: str, shown: str) -> None:
    result = CliRunner().invoke(main, ["law", "show", citation])
    assert result.exit_code == 2, result.output
    assert shown in result.output
    assert "\\u" not in result.output and "\\n" not in result.output
    assert repr(citation)[:20] not in result.output
    assert len(result.output) < 600


def test_a_path_option_of_the_wrong_kind_is_named_in_portuguese(tmp_path: Path) -> None:
    data = tmp_path / "dados.json"
    data.write_text("{}", "utf-8")
    result = CliRunner().invoke(main, ["pack", "check", str(data)])
    assert result.exit_code == 2
    assert "Pasta " in result.output and "é um arquivo" in result.output
    assert "Directory" not in result.output


@pytest.mark.parametrize(
    ("toml", "problem"),
    [
        ('pasta_dados = "a"\npasta_dados = "b"\n', "a mesma chave aparece mais de uma vez"),
        ('[assinantes]\n[assinantes]\n', "a mesma seção aparece mais de uma vez"),
        ("pasta_dados = [\n", "valor inválido (no fim do arquivo)"),
    ],
)
def test_a_broken_configuration_is_explained_in_portuguese(
    tmp_path: Path, toml: str, problem: str
) -> None:
    (tmp_path / "lavra.toml").write_text(toml, "utf-8")
    (tmp_path / "dados.json").write_text("{}", "utf-8")
    result = _lavra(tmp_path, "check", ALV, "dados.json", "--on", "2026-11-30")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Arquivo de configuração" in result.stderr and problem in result.stderr
    for english in ("Cannot", "Invalid", "at line", "at end"):
        assert english not in result.stderr


def test_an_idempotency_key_with_hidden_characters_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "dados.json"
    data.write_text((REPO / "forms" / ALV / "exemplo.json").read_text("utf-8"), "utf-8")
    result = CliRunner().invoke(main, ["issue", ALV, str(data), "-o", str(tmp_path / "d.pdf"),
                                       "--on", "2026-11-30", "--chave", "lote\u202e7"],
                           env={"LAVRA_DATA": str(tmp_path / "dados")})
    assert result.exit_code == 2, result.output
    assert "A chave de idempotência (--chave) contém um caractere" in result.output
    assert "U+202E" in result.output
    assert not (tmp_path / "d.pdf").exists()


def test_account_commands_speak_portuguese(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"LAVRA_SENHA": "senha-de-teste-123", "LAVRA_DATA": str(tmp_path / "dados")}
    wrong_role = runner.invoke(main, ["users", "add", "ana", "--role", "chefe"], env=env)
    assert wrong_role.exit_code == 2
    assert "'chefe' não é um dos valores aceitos: 'redator'" in wrong_role.output
    assert "is not one of" not in wrong_role.output
    hidden = runner.invoke(main, ["users", "add", "a\u202eb", "--role", "redator"], env=env)
    assert hidden.exit_code == 2
    assert "O nome da conta (NOME) contém um caractere" in hidden.output
    assert "NAME" not in hidden.output
    helped = runner.invoke(main, ["users", "add", "--help"])
    assert "users add [OPÇÕES] NOME" in helped.output and "NAME" not in helped.output


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--data", "9999-12-31"], "Data de referência (--data) inválida"),
        (["--data", "2026-03-01", "--anterior", "2026-02-30"],
         "A data de infração anterior (--anterior) 30/02/2026 não existe"),
        # the English names of earlier versions still work (scripts), answered in pt-BR
        (["--on", "2026-03-01", "--previous", "2026-02-30"],
         "A data de infração anterior (--anterior) 30/02/2026 não existe"),
    ],
)
def test_amount_dates_name_their_option(args: list[str], named: str) -> None:
    result = CliRunner().invoke(main, ["amount", "transporte-escolar#art16_inc1", *args])
    assert result.exit_code == 2, result.output
    assert named in result.output


def test_verify_refuses_a_huge_file_before_reading_it(tmp_path: Path) -> None:
    huge = tmp_path / "enorme.pdf"
    with huge.open("wb") as handle:  # sparse: 300 MiB on disk costs nothing
        handle.write(b"%PDF-1.7\n")
        handle.truncate(300 * 1024 * 1024)
    done = _lavra(tmp_path, "verify", "enorme.pdf")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        "Erro: O arquivo enorme.pdf excede o tamanho máximo de 10 MiB: não é um documento "
        "emitido pelo lavra."
    )


def test_a_hidden_character_in_a_top_level_key_is_placed_in_words(tmp_path: Path) -> None:
    (tmp_path / "dados.json").write_text('{"cli\\u200bente": "x", "empresa": {"r\\u202ea": 1}}')
    result = CliRunner().invoke(main, ["check", ALV, str(tmp_path / "dados.json"),
                                       "--on", "2026-11-30"])
    assert result.exit_code == 2, result.output
    assert ("Nome de campo com caractere não permitido no nível principal dos dados: U+200B "
            "(ZERO WIDTH SPACE), caractere invisível de formatação, na posição 4 do nome."
            ) in result.output
    assert "em /:" not in result.output
    with pytest.raises(InputError) as nested:
        parse_data('{"empresa": {"r\\u202ea": 1}}')
    assert "não permitido em /empresa: U+202E" in nested.value.message


def test_reading_a_pdf_that_is_not_a_requerimento_points_to_verification(
    pack_dir: Path,
) -> None:
    """A draft or issued document is lavra's own: the message must not say otherwise."""
    engine = Engine(Content(pack_dir))
    example = pack_dir / "forms" / "alvara-fretamento" / "exemplo.json"
    draft = engine.draft("alvara-fretamento", load_json(example.read_bytes())).pdf
    with pytest.raises(InputError) as raised:
        engine.read(draft)
    assert "não é um requerimento preenchível" in raised.value.message
    assert "verificação" in raised.value.message
    assert "não foi gerado pelo lavra" not in raised.value.message
