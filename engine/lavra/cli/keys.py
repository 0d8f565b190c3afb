"""``lavra keys``: the development PKI, and a certificate per person who signs."""

from __future__ import annotations

import click

from lavra.cli.support import shielded
from lavra.config import load_config
from lavra.errors import InputError
from lavra.inputs.textnorm import clean_text


@click.group("keys")
def keys_group() -> None:
    """Certificados de assinatura."""


@keys_group.command("init")
@click.option("--force", is_flag=True, help="Recria a PKI (ou o certificado) mesmo que exista.")
@click.option("--signatario", "person", metavar="NOME",
              help="Cria também o certificado desta pessoa (nome completo, como assina).")
@click.option("--papel", "role", metavar="PAPEL",
              help="Papel de assinatura do certificado da pessoa (de forms/orgao.json).")
@click.option("--conta", "account", metavar="CONTA",
              help="Conta da equipe a que o certificado pertence (padrão: o nome, sem acentos).")
@shielded
def keys_init_command(
    force: bool, person: str | None, role: str | None, account: str | None
) -> None:
    """Cria a PKI de desenvolvimento (SEM VALIDADE JURÍDICA) na pasta de dados.

    Uma autoridade raiz e um certificado por papel de assinatura (secretário de
    transportes, agente de fiscalização, prefeito). Com --signatario e --papel, cria o
    certificado de uma pessoa (o nome dela no certificado, o cargo do papel), com que
    ela assina pela linha de comando (lavra issue --certificado). Em produção use o
    certificado ICP-Brasil de cada pessoa (configuração [certificados]).
    """
    from lavra.documents import Engine
    from lavra.signing.persons import issue_person_certificate, person_key
    from lavra.signing.pki import DEV_PASSPHRASE, init_dev_pki

    if (person is None) != (role is None) or (account is not None and person is None):
        raise InputError("Informe --signatario e --papel juntos (e --conta só com eles).",
                         field="--papel" if role is None else "--signatario")
    config = load_config()
    engine = Engine.from_config(config)
    roles = engine.content.organization.roles
    if role is not None and role not in roles:
        raise InputError(f"Papel de assinatura desconhecido: «{role}». Papéis do órgão: "
                         f"{', '.join(sorted(roles))}.", field="--papel")
    pki = init_dev_pki(config.pki_dir, roles, force=force and person is None)
    click.echo(f"PKI de desenvolvimento (sem validade jurídica) em {pki.folder}:")
    for name, path in sorted(pki.signers.items()):
        click.echo(f"  {name:<24} {path}")
    if person is not None and role is not None:
        person = clean_text(person, what="O nome do signatário (--signatario)",
                            field="--signatario")
        key = person_key(person) if account is None else clean_text(
            account, what="A conta (--conta)", field="--conta")
        path = issue_person_certificate(config.pki_dir, key, person, role, roles[role],
                                        force=force)
        click.echo(f"Certificado de {person}, {roles[role]}: {path}")
        click.echo(f"Senha do arquivo (desenvolvimento, sem validade): {DEV_PASSPHRASE}")
