"""What a person reads when a template fails in a way no rule foresaw: a pt-BR
sentence, naming the field when the failure is a missing key; the exception's class and
text go to the log only, at INFO (they are for whoever maintains the template; a
warning would reach the shell through logging's last-resort handler)."""

from __future__ import annotations

import logging

__all__ = ["failure_sentence"]

_log = logging.getLogger(__name__)


def failure_sentence(error: BaseException) -> str:
    """The end of «O modelo X, linha N, não pôde ser preenchido: …»: the field a missing
    key names (``"{nome}".format(...)``, ``"%(nome)s" % ...``), else a plain sentence."""
    _log.info("falha ao preencher um modelo: %s: %s", type(error).__name__, error)
    key = error.args[0] if isinstance(error, KeyError) and error.args else None
    if isinstance(key, (str, int)) and len(str(key)) <= 80:
        return f"o campo «{key}», que o texto do documento usa, não existe nos dados."
    return "uma operação do texto do documento falhou com os dados informados."
