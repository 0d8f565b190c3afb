"""What every command of the CLI shares: exit codes and the error shield."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from lavra.errors import LavraError

F = TypeVar("F", bound=Callable[..., Any])
EXIT_INCOMPLETE = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3

if TYPE_CHECKING:
    from lavra.documents import Engine
    from lavra.registry.store import Registry

REGISTRY_OPTION = click.option(
    "--registro", "registry_url", metavar="URL",
    help="Banco do registro (padrão: LAVRA_DATABASE_URL, ou o da pasta de dados).",
)


CERTIFICATE_PASSWORD_ENV = "LAVRA_SENHA_CERTIFICADO"
CERTIFICATE_OPTION = click.option(
    "--certificado", "certificate", type=click.Path(path_type=Path, dir_okay=False),
    metavar="ARQUIVO.p12",
    help=f"Certificado (PKCS#12) de quem assina; a senha vem de {CERTIFICATE_PASSWORD_ENV} "
    "ou é pedida no terminal.",
)


def certificate_password(prompt: str = "Senha do certificado",
                         field: str = "--certificado") -> str:
    """The passphrase (or PIN) of --certificado: from the environment, else asked."""
    password = os.environ.get(CERTIFICATE_PASSWORD_ENV)
    if password is None:
        password = click.prompt(prompt, hide_input=True, err=True)
    if not isinstance(password, str) or not password:
        from lavra.errors import InputError

        what = "O PIN do token" if field == "--token" else "A senha do certificado"
        raise InputError(f"{what} não foi informad{'o' if field == '--token' else 'a'}.",
                         field=field)
    return password


def token_options(func: F) -> F:
    """--token, --token-modulo and --token-chave: the signer's key on a token (PKCS#11)."""
    for option in reversed((
        click.option("--token", "token", metavar="RÓTULO",
                     help="Assina com a chave de um token ou cartão (PKCS#11, certificado A3) "
                     f"com este rótulo; o PIN vem de {CERTIFICATE_PASSWORD_ENV} ou é pedido "
                     "no terminal."),
        click.option("--token-modulo", "token_module", metavar="MÓDULO.so",
                     type=click.Path(path_type=Path, dir_okay=False),
                     help="O módulo PKCS#11 do token (ex.: /usr/lib/x86_64-linux-gnu/"
                     "opensc-pkcs11.so)."),
        click.option("--token-chave", "token_key", metavar="RÓTULO",
                     help="O rótulo da chave no token (quando há mais de uma)."),
    )):
        func = option(func)
    return func


def signer_key(certificate: Path | None, token: str | None, token_module: Path | None,
               token_key: str | None) -> Any:
    """The SignerKey of --certificado or of --token (its passphrase or PIN asked), else None."""
    from lavra.errors import InputError
    from lavra.signers import SignerKey
    from lavra.signing.pkcs11token import TokenSpec

    if token is None:
        if token_module is not None or token_key is not None:
            raise InputError("--token-modulo e --token-chave acompanham --token (o rótulo do "
                             "token).", field="--token")
        return None if certificate is None else SignerKey(certificate, certificate_password())
    if certificate is not None:
        raise InputError("Informe --certificado (arquivo PKCS#12) ou --token, não os dois.",
                         field="--token")
    if token_module is None:
        raise InputError("Informe o módulo PKCS#11 do token em --token-modulo.",
                         field="--token-modulo")
    spec = TokenSpec(token_module, token.strip(), (token_key or "").strip() or None)
    return SignerKey(spec, certificate_password("PIN do token", "--token"))


def registry_of(registry_url: str | None) -> Registry:
    """The registry of ``--registro``, else the configured one (imported only when run)."""
    from lavra.config import load_config
    from lavra.registry.store import open_default_registry, open_registry

    if registry_url:
        return open_registry(registry_url)
    return open_default_registry(load_config().data_dir)


def registry_and_engine(registry_url: str | None) -> tuple[Registry, Engine]:
    """The registry of ``--registro`` (else the configured one) and the configured engine,
    for the commands that read or record in the registry (imported only when run)."""
    from lavra.config import load_config
    from lavra.documents import Engine

    config = load_config()
    return registry_of(registry_url), Engine.from_config(config)


def _error_text(error: LavraError, form_id: object) -> str:
    """The error as a person reads it: the field by its form's label when the command
    names a form (``FORMULÁRIO``) and the pack loads, never a JSON pointer."""
    from lavra.cli.reports import error_text

    content = None
    if isinstance(form_id, str):
        from lavra.checking.content import loaded_content
        from lavra.config import load_config

        try:
            content = loaded_content(load_config().pack_dir)
        except LavraError:
            content = None
    return error_text(error, content, form_id if isinstance(form_id, str) else None)


def shielded(func: F) -> F:
    """Turn every error into a pt-BR message and an exit code; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except LavraError as error:
            click.echo(f"Erro: {_error_text(error, kwargs.get('form'))}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except BrokenPipeError:
            # The reader of our output went away (e.g. `| head`): stop quietly.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(EXIT_INTERNAL)
        except Exception:
            if os.environ.get("LAVRA_DEBUG"):
                raise
            click.echo(
                "Erro interno inesperado. Repita com LAVRA_DEBUG=1 para os detalhes "
                "técnicos e informe o suporte.",
                err=True,
            )
            sys.exit(EXIT_INTERNAL)

    return wrapper  # type: ignore[return-value]


class AliasedOption(click.Option):
    """An option whose pt-BR name is the one shown (help, errors) and whose older
    English names (``aliases``) still work, unlisted, so that scripts do not break:
    ``click.option("--motivo", "--reason", "reason", cls=AliasedOption,
    aliases=("--reason",))``."""

    def __init__(self, *args: Any, aliases: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.aliases = aliases

    def _shown(self) -> list[str]:
        return [name for name in self.opts if name not in self.aliases]

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        opts, self.opts = self.opts, self._shown()
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = opts

    def get_error_hint(self, ctx: click.Context | None) -> str:
        return " / ".join(f"'{name}'" for name in self._shown())


def aliased(*names: str, dest: str, aliases: tuple[str, ...], **kwargs: Any
            ) -> Callable[[F], F]:
    """``click.option`` of :class:`AliasedOption`: ``names`` shown, ``aliases`` hidden."""
    return click.option(*names, *aliases, dest, cls=AliasedOption, aliases=aliases,
                        **kwargs)


def series_option(*names: str, aliases: tuple[str, ...] = (),
                  help: str = "Série, quando o número se repete entre séries.", **kwargs: Any
                  ) -> Callable[[F], F]:
    """The ``--serie`` option of a command: typed in any case (``alv-esc`` is ALV-ESC),
    read through the registry's series normaliser."""
    def upper(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
        from lavra.registry.identifiers import normalize_series

        return normalize_series(value)

    if aliases:
        return aliased(*names, dest="series", aliases=aliases, callback=upper, help=help,
                       **kwargs)
    return click.option(*names, "series", callback=upper, help=help, **kwargs)
