"""``lavra serve`` (the web application) and ``lavra users`` (staff accounts)."""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from lavra.cli.support import aliased, shielded
from lavra.config import DEFAULT_VERIFICATION_URL, load_config
from lavra.errors import ConfigError, LavraError
from lavra.inputs.textnorm import clean_text

if TYPE_CHECKING:
    from lavra.web.context import WebContext
    from lavra.web.users import User

PASSWORD_ENV = "LAVRA_SENHA"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Endereço de escuta.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="Porta de escuta.")
@click.option("--proxy", is_flag=True,
              help="Atrás de um proxy reverso: confia em X-Forwarded-For/-Proto vindos "
                   "dos endereços do proxy (--proxy-ip, LAVRA_WEB_PROXIES ou, sem eles, "
                   "127.0.0.1 e ::1).")
@click.option("--proxy-ip", "proxy_ips", multiple=True, metavar="ENDEREÇO",
              help="Endereço ou rede (ex.: 10.0.0.0/24) do proxy reverso; repetível. "
                   "Implica --proxy.")
@shielded
def serve(host: str, port: int, proxy: bool, proxy_ips: tuple[str, ...]) -> None:
    """Inicia a aplicação web (requerimentos, área da equipe, verificação e API).

    Usa os padrões embutidos: registro em SQLite na pasta de dados e a PKI de
    desenvolvimento (criada se faltar, sem validade jurídica) quando nenhum certificado
    estiver configurado. Crie a primeira conta com «lavra users add».

    Atrás de um proxy reverso, o endereço do cliente (usado no limite de tentativas de
    entrada) vem do X-Forwarded-For só quando a conexão chega de um dos endereços do
    proxy; vale o último endereço da lista que não é de um proxy confiável.
    """
    import uvicorn

    from lavra.web import create_app
    from lavra.web.context import LOOPBACK_PROXIES, WebContext, WebSettings, parse_proxies

    config = load_config()
    if config.verification_url == DEFAULT_VERIFICATION_URL:
        # The QR code of issued documents must lead to this very server.
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        config = replace(config, verification_url=f"http://{shown}:{port}/verificar")
    settings = WebSettings.from_env(config.data_dir)
    if proxy_ips:
        settings = replace(settings, trusted_proxies=parse_proxies(proxy_ips))
    elif proxy and not settings.trusted_proxies:
        settings = replace(settings, trusted_proxies=LOOPBACK_PROXIES)
    context = WebContext(config, settings)
    _ensure_signing_keys(context)
    app = create_app(context)
    # The render and verification workers start while uvicorn does: the first preview
    # or upload does not pay for them.
    threading.Thread(target=context.engine.warm_up, name="lavra-warm-up", daemon=True).start()
    click.echo(f"lavra: aplicação web em http://{host}:{port}/ (Ctrl+C encerra).")
    if settings.trusted_proxies:
        click.echo("lavra: proxy reverso confiável: " + ", ".join(settings.trusted_proxies) + ".")
    # The application reads the forwarded headers itself (create_app), from the
    # trusted proxies only; uvicorn's own reading stays off.
    uvicorn.run(app, host=host, port=port, proxy_headers=False, log_level="info")


def _ensure_signing_keys(context: object) -> None:
    """Create the development PKI when no certificate is configured and none exists."""
    from lavra.web.context import WebContext

    assert isinstance(context, WebContext)
    config = context.config
    pki_dir = getattr(config, "pki_dir", None)
    signers = getattr(config, "signers", None)
    if pki_dir is None or signers or (pki_dir / "raiz.pem").exists():
        return
    try:
        from lavra.issuing import ensure_dev_pki
    except ImportError:
        return
    ensure_dev_pki(config, context.engine.content)
    click.echo(f"PKI de desenvolvimento criada em {pki_dir} (sem validade jurídica).")


@click.group("users")
def users() -> None:
    """Contas da equipe na aplicação web."""


@users.command("add")
@click.argument("name", metavar="NOME")
@aliased("--papel", dest="role", aliases=("--role",), required=True,
              type=click.Choice(["redator", "assinante", "administrador"]),
              help="Papel: redator (minutas), assinante (emite) ou administrador (contas).")
@click.option("--nome", "full_name", help="Nome completo (padrão: o nome de usuário).")
@click.option("--assina-como", "signer_roles", multiple=True, metavar="PAPEL",
              help="Papel de assinatura (de forms/orgao.json), repetível; para assinantes.")
@click.option("--matricula", "registration",
              help="Matrícula do servidor (o agente de fiscalização a imprime no auto).")
@shielded
def users_add(name: str, role: str, full_name: str | None, signer_roles: tuple[str, ...],
              registration: str | None) -> None:
    """Cria a conta NOME. A senha vem de LAVRA_SENHA ou é pedida no terminal."""
    from lavra.web.context import WebContext
    from lavra.web.users import parse_role

    context = WebContext()
    known = context.signer_roles()
    unknown = [r for r in signer_roles if r not in known]
    if unknown:
        raise LavraError(
            f"Papel de assinatura desconhecido: {', '.join(unknown)}. "
            f"Papéis do órgão: {', '.join(sorted(known))}."
        )
    password = os.environ.get(PASSWORD_ENV)
    if password is None:
        password = click.prompt("Senha", hide_input=True, confirmation_prompt="Repita a senha")
    if not isinstance(password, str):
        raise ConfigError("Senha não informada.")
    name = clean_text(name, what="O nome da conta (NOME)", field="NOME")
    if full_name is not None:
        full_name = clean_text(full_name, what="O nome completo (--nome)", field="--nome")
    user = context.users.add(
        name, password, parse_role(role), full_name=full_name, signer_roles=signer_roles,
        registration=registration,
    )
    click.echo(f"Conta «{user.name}» criada: {user.role_label}.")
    _signer_certificates(context, user)


def _signer_certificates(context: WebContext, user: User) -> None:
    """A new signer's own certificates, one per role (the development PKI issues them;
    in production, the one configured in [certificados] is checked)."""
    from lavra.web.users import Role

    if user.role is not Role.SIGNER:
        return
    cargos = context.signer_roles()
    for role in user.signer_roles:
        try:
            key = context.require_issuer().signer_for(user.name, user.full_name, role)
        except LavraError as error:
            click.echo(f"Atenção: {error.message}", err=True)
            continue
        click.echo(f"Certificado de assinatura de {user.full_name}, {cargos[role]}: "
                   f"{key.certificate}")


@users.command("list")
@shielded
def users_list() -> None:
    """Lista as contas da equipe."""
    from lavra.web.context import WebContext

    for user in WebContext().users.all():
        state = "ativa" if user.active else "desativada"
        roles = ", ".join(user.signer_roles) or "-"
        click.echo(f"{user.name:<20} {user.role_label:<38} {state:<11} assina como: {roles}")


@users.command("token")
@click.argument("name", metavar="NOME")
@click.option("--descricao", required=True, help="Para que serve o token.")
@shielded
def users_token(name: str, descricao: str) -> None:
    """Cria um token de API para a conta NOME (mostrado uma única vez)."""
    from lavra.web.context import WebContext

    store = WebContext().users
    user = store.by_name(name)
    if user is None:
        raise LavraError(f"Conta inexistente: «{name}».")
    descricao = clean_text(
        descricao, what="A descrição do token (--descricao)", field="--descricao"
    )
    _, secret = store.create_token(user.id, descricao)
    click.echo(secret)


__all__ = ["serve", "users"]
