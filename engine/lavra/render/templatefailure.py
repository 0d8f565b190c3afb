"""What a person reads when a template fails in a way no rule foresaw: a pt-BR
sentence, naming the field when the failure is a missing key; the exception's class and
text go to the log only, at INFO (they are for whoever maintains the template; a
warning would reach the shell through logging's last-resort handler).

A failure about a field of the data carries the field (``RenderError.field``, a pointer
of its top-level key) and names it by its key in the sentence: the template knows no
more. :func:`labelled` then names it by the label its form gives it («Placa do
veículo»), where the form is known (:meth:`lavra.documents.Engine` renders a form)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from lavra.errors import RenderError

__all__ = ["failed", "failed_undefined", "failure_field", "failure_sentence", "labelled"]

_log = logging.getLogger(__name__)


def _missing_key(error: BaseException) -> str | None:
    key = error.args[0] if isinstance(error, KeyError) and error.args else None
    return str(key) if isinstance(key, (str, int)) and len(str(key)) <= 80 else None


def failure_sentence(error: BaseException) -> str:
    """The end of «O modelo X, linha N, não pôde ser preenchido: …»: the field a missing
    key names (``"{nome}".format(...)``, ``"%(nome)s" % ...``), else a plain sentence."""
    _log.info("falha ao preencher um modelo: %s: %s", type(error).__name__, error)
    key = _missing_key(error)
    if key is not None:
        return f"o campo «{key}», que o texto do documento usa, não existe nos dados."
    return "uma operação do texto do documento falhou com os dados informados."


def failure_field(error: BaseException) -> str | None:
    """The pointer of the field :func:`failure_sentence` names, if it names one."""
    key = _missing_key(error)
    return f"/{key}" if key and "/" not in key and "~" not in key else None


def failed(at: str, error: BaseException) -> RenderError:
    """«``at`` não pôde ser preenchido: …» (``at`` names the template and line), with the
    field the failure names, if any."""
    return RenderError(f"{at} não pôde ser preenchido: {failure_sentence(error)}",
                       field=failure_field(error))


def failed_undefined(at: str, error: BaseException) -> RenderError:
    """Jinja's own «'x' is undefined» or «… has no attribute 'x'» said as :func:`failed`
    says a missing key: the field «x» by its key (then by its label, :func:`labelled`);
    jinja's English text goes to the log only."""
    quoted = re.findall(r"'([^']{1,80})'", str(error))
    return failed(at, KeyError(quoted[-1]) if quoted else error)


def labelled(error: RenderError, label: Callable[[str], str],
             title: str | None = None) -> RenderError:
    """``error`` with the field it names by its key («placa») named by ``label`` of its
    pointer instead («Placa do veículo»). A key the form's data does not have has no
    label: with the form's ``title``, the sentence says in words that the document's
    model needs a value the data do not give, naming the form, and the key goes to the
    log (for whoever maintains the template); without it, the error is as it was."""
    field = error.field or ""
    key = field[1:]
    if not key or "/" in key or f"«{key}»" not in error.message:
        return error
    name = label(field)
    if not name or "«" in name:
        if not title:
            return error
        _log.info("o modelo do formulário «%s» usa a chave «%s», ausente dos dados",
                  title, key)
        return RenderError(f"O modelo do documento «{title}» não pôde ser preenchido: ele "
                           "precisa de um dado que os dados informados não trazem. "
                           "Comunique o fato à equipe que mantém os modelos.", field=None)
    return RenderError(error.message.replace(f"«{key}»", f"«{name}»"), field=field)
