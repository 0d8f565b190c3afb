"""The run's signer on the web: a run signs with the key of the signer who starts (or
resumes) it, unlocked once, at the start.

When the account has a certificate of its own (``[certificados.<conta>]``, production),
the start and "Retomar" forms ask for its password (the field the form page uses to
sign, ``_senha_assinatura``); the key is opened for every role the run signs in
(:func:`lavra.batch.runner.check_signer`) before anything is planned or numbered, and
the run's workers sign every act with it, so that each PDF names the person. Without a
certificate of the account (the development PKI), the run signs as before, with the
role's certificate, and no password is asked.
"""

from __future__ import annotations

from typing import Any

from lavra.batch.model import BatchRun
from lavra.batch.runner import check_signer
from lavra.errors import ConfigError, InputError
from lavra.signers import SignerKey
from lavra.signing.pkcs11token import TokenSpec
from lavra.web.context import WebContext
from lavra.web.issuance import PASSWORD_FIELD
from lavra.web.users import User

__all__ = ["asks_password", "run_signer"]

FIELD = f"/{PASSWORD_FIELD}"


def asks_password(ctx: WebContext, user: User) -> bool:
    """Whether the account signs a run with a certificate of its own (its password is
    then asked at the start)."""
    return user.name in ctx.config.person_certificates


def _roles(ctx: WebContext, kind: BatchRun) -> list[str]:
    forms = ctx.engine.content.forms
    return sorted({r for f in kind.forms if f in forms
                   if (r := forms[f].signer_role) is not None})


def run_signer(ctx: WebContext, user: User, kind: BatchRun, password: str | None, *,
               simulate: bool, required: bool = True) -> SignerKey | None:
    """The key every act of the run is signed with, opened once; None to sign with the
    role's certificate (no certificate of the account, or a dry run, which signs
    nothing). ``required``: the page asks for the password; an API token may leave it
    out, the key then opened with the passphrase of the configured variable."""
    roles = _roles(ctx, kind)
    if simulate or not roles or not asks_password(ctx, user):
        return None
    if not password and required:
        raise InputError("Informe a sua senha de assinatura: todos os documentos da execução "
                         "são assinados com o seu certificado. Nada foi planejado nem "
                         "numerado.", field=FIELD)
    issuer: Any = ctx.require_issuer()
    key: SignerKey = issuer.signer_for(user.name, user.full_name, roles[0], password or None)
    try:
        check_signer(issuer, kind, key)
    except ConfigError as error:
        if isinstance(key.certificate, TokenSpec):  # what the token said: PIN, absent, ...
            raise InputError(f"{error.message} Nada foi planejado nem numerado.",
                             field=FIELD) from None
        raise InputError("Senha de assinatura incorreta, ou o seu certificado não pôde ser "
                         "aberto. Nada foi planejado nem numerado.", field=FIELD) from None
    return key
