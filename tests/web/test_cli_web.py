"""``lavra users`` creates the first accounts; ``lavra serve`` documents its options."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from webhelpers import REPO

from lavra.cli.main import main
from lavra.cli.web import serve, users
from lavra.config import load_config
from lavra.web import WebContext


def test_users_add_list_and_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAVRA_DATA", str(tmp_path / "dados"))
    monkeypatch.setenv("LAVRA_PACK", str(REPO))
    monkeypatch.setenv("LAVRA_SENHA", "senha-da-chefia-1")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    added = runner.invoke(users, ["add", "chefia", "--role", "administrador",
                                  "--nome", "Chefia de Gabinete", "--matricula", "12.345"])
    assert added.exit_code == 0, added.output
    assert "Conta «chefia» criada" in added.output
    signer = runner.invoke(users, ["add", "ana", "--role", "assinante",
                                   "--assina-como", "secretario-transportes"])
    assert signer.exit_code == 0, signer.output
    # no development PKI yet: the account is made, and the missing certificate is said
    assert "Atenção: Não há certificado para assinar: execute «lavra keys init»" in (
        signer.output)
    assert runner.invoke(main, ["keys", "init"]).exit_code == 0
    bia = runner.invoke(users, ["add", "bia", "--role", "assinante", "--nome", "Beatriz Prado",
                                "--assina-como", "secretario-transportes"])
    p12 = tmp_path / "dados" / "pki" / "assinantes" / "bia.secretario-transportes.p12"
    assert ("Certificado de assinatura de Beatriz Prado, Secretário Municipal de Transportes "
            f"e Sistema Viário: {p12}") in bia.output and p12.is_file()
    wrong = runner.invoke(users, ["add", "rui", "--role", "assinante", "--assina-como", "papa"])
    assert wrong.exit_code == 2 and "Papel de assinatura desconhecido" in wrong.output
    duplicate = runner.invoke(users, ["add", "ana", "--role", "redator"])
    assert duplicate.exit_code == 2 and "Já existe uma conta" in duplicate.output
    listed = runner.invoke(users, ["list"])
    assert "chefia" in listed.output and "secretario-transportes" in listed.output
    token = runner.invoke(users, ["token", "ana", "--descricao", "integração"])
    assert token.exit_code == 0 and token.output.startswith("lavra_")
    store = WebContext(load_config()).users
    chefia = store.authenticate("chefia", "senha-da-chefia-1")
    assert chefia is not None and chefia.registration == "12.345"
    assert store.user_for_token(token.output.strip()) is not None


def test_serve_help_is_in_portuguese() -> None:
    result = CliRunner().invoke(serve, ["--help"])
    assert result.exit_code == 0
    assert "Inicia a aplicação web" in result.output and "--port" in result.output
