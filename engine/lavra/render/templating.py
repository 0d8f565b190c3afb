"""The Jinja environment in which a form's wording is rendered.

Every form has ONE template source producing a restricted HTML body; both the PDF and
the DOCX are made from that body (see :mod:`lavra.render.pdf`). The environment is
sandboxed and always autoescapes, so data is shown, never interpreted: a value such as
``<img src=...>`` or ``{{7*7}}`` comes out as literal text.

pt-BR filters (``data``, ``data_extenso``, ``data_hora``, ``moeda``, ``moeda_extenso``,
``numero_extenso``, ``cpf``, ``cnpj``, ``placa``, ``cep``, ``numero_ato`` — an earlier
act's number with its series, ``citacao``, ``citacao_texto``) are registered both as
filters and as globals.

Missing data: in a draft (``draft=True``) an undefined value renders as the visible
blank :data:`DRAFT_BLANK`; otherwise printing it raises :class:`RenderError` naming the
variable. ``{% if x %}`` and ``x is defined`` work in both modes.

Templates are written by staff, so the sandbox is strict and every violation is a
:class:`RenderError` naming the template and line: reading an unsafe attribute
(``''.__class__``, ``__globals__``, ``mro``) raises instead of rendering blank; printing
a function or method (``x|attr('format')``, ``{{ range }}``) is refused; ``*``, ``**``
and ``+`` may not build a text, list or number larger than the document may hold; the
output may not exceed :data:`MAX_OUTPUT_CHARS`. Time and memory are bounded by the
worker process the rendering runs in (:mod:`lavra.render.isolation`); when its time is up the
template is interrupted and the error says where.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, NoReturn
from zoneinfo import ZoneInfo

import jinja2
from babel.dates import format_date as babel_format_date
from babel.numbers import format_currency
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.sandbox import SandboxedEnvironment
from num2words import num2words

from lavra.errors import InputError, LavraError, RenderError
from lavra.inputs.formats import mask_cep, mask_cnpj, mask_cpf, mask_placa
from lavra.render.actfilter import cited_act_filter
from lavra.render.isolation import TaskTimeout
from lavra.render.templatefailure import failed, failed_undefined
from lavra.textutil import format_act_number, format_date, without_sign

__all__ = [
    "DRAFT_BLANK",
    "MAX_OUTPUT_CHARS",
    "TIMEZONE",
    "make_environment",
    "render_string",
    "render_template",
]

#: What a missing value looks like in a draft.
DRAFT_BLANK = "________"
#: Dates and times of documents are in this zone.
TIMEZONE = ZoneInfo("America/Sao_Paulo")
LOCALE = "pt_BR"

_CENT = Decimal("0.01")
#: The most characters a rendered body may have (a long edital is ~100 000), and the
#: most characters or items one ``*`` or ``+`` may build.
MAX_OUTPUT_CHARS = 4_000_000
#: The largest integer (in bits) one ``*`` or ``**`` may build (about 1 200 digits).
MAX_INT_BITS = 4096


# --------------------------------------------------------------------------- undefined


def _undefined_label(undefined: jinja2.Undefined) -> str:
    name = undefined._undefined_name
    return name if name is not None else "(sem nome)"


class _FinalUndefined(jinja2.Undefined):
    """Undefined of a final document: testing it is fine, printing it is an error."""

    __slots__ = ()

    def _fail_with_undefined_error(self, *args: Any, **kwargs: Any) -> NoReturn:
        name = _undefined_label(self)
        top_level = self._undefined_obj is jinja2.utils.missing
        group = ""
        if isinstance(self._undefined_obj, Mapping) and self._undefined_obj:
            # The template cannot say the group's path; its fields help staff find it.
            keys = ", ".join(f"«{k}»" for k in list(self._undefined_obj)[:5])
            group = f" do grupo de dados que traz {keys}"
        raise RenderError(
            f"O texto do documento imprime o campo «{name}»{group}, que não foi "
            "informado: sem ele o documento não pode ser emitido.",
            field=f"/{name}" if top_level and self._undefined_name else None,
        )

    __add__ = __radd__ = __sub__ = __rsub__ = _fail_with_undefined_error
    __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail_with_undefined_error
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _fail_with_undefined_error
    __pos__ = __neg__ = __pow__ = __rpow__ = _fail_with_undefined_error
    __call__ = __getitem__ = _fail_with_undefined_error
    __int__ = __float__ = __complex__ = _fail_with_undefined_error
    __lt__ = __le__ = __gt__ = __ge__ = _fail_with_undefined_error

    def __str__(self) -> str:
        self._fail_with_undefined_error()

    def __html__(self) -> str:
        self._fail_with_undefined_error()


class _DraftUndefined(jinja2.ChainableUndefined):
    """Undefined of a draft: renders as a visible blank and never raises."""

    __slots__ = ()

    def _fail_with_undefined_error(self, *args: Any, **kwargs: Any) -> Any:
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = _fail_with_undefined_error
    __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail_with_undefined_error
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _fail_with_undefined_error
    __pos__ = __neg__ = __pow__ = __rpow__ = _fail_with_undefined_error
    __call__ = _fail_with_undefined_error
    __lt__ = __le__ = __gt__ = __ge__ = _fail_with_undefined_error

    def __str__(self) -> str:
        return DRAFT_BLANK

    def __html__(self) -> str:
        return DRAFT_BLANK

    def __int__(self) -> int:  # type: ignore[override]
        return 0

    def __float__(self) -> float:  # type: ignore[override]
        return 0.0

    def __complex__(self) -> complex:  # type: ignore[override]
        return 0j


# --------------------------------------------------------------------------- parsing


def _parse_date(value: Any) -> date:
    if isinstance(value, datetime):
        moment = value.astimezone(TIMEZONE) if value.tzinfo is not None else value
        return moment.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            if len(text) == 10:
                return date.fromisoformat(text)
            return _parse_datetime(text).date()
        except ValueError:
            pass
    raise ValueError(value)


def _parse_datetime(value: Any) -> datetime:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        moment = datetime.fromisoformat(value.strip())
    else:
        raise ValueError(value)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=TIMEZONE)
    return moment.astimezone(TIMEZONE)


def _parse_decimal(value: Any) -> Decimal:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int | float):
        number = Decimal(str(value))
    elif isinstance(value, str):
        text = value.strip().replace("R$", "").replace(" ", "").replace("\u00a0", "")
        if "," in text:  # written the Brazilian way: 1.234,56
            text = text.replace(".", "").replace(",", ".")
        try:
            number = Decimal(text)
        except InvalidOperation as exc:
            raise ValueError(value) from exc
    else:
        raise ValueError(value)
    if not number.is_finite():
        raise ValueError(value)
    return number


def _money(value: Any) -> Decimal:
    return _parse_decimal(value).quantize(_CENT, rounding=ROUND_HALF_UP)


# --------------------------------------------------------------------------- formatting


def format_data(value: Any) -> str:
    """dd/mm/aaaa."""
    return format_date(_parse_date(value))


def format_data_extenso(value: Any) -> str:
    """'29 de novembro de 2026'; the first day of a month is written '1º'."""
    day = _parse_date(value)
    text = babel_format_date(day, format="long", locale=LOCALE)
    if day.day == 1:
        text = "1º" + text[1:]
    return text


def format_data_hora(value: Any) -> str:
    """'29/11/2026 14:30', in America/Sao_Paulo (naive values are taken as local)."""
    return _parse_datetime(value).strftime("%d/%m/%Y %H:%M")


def format_moeda(value: Any) -> str:
    """'R$ 1.234,56' (plain space after the symbol)."""
    text: str = format_currency(_money(value), "BRL", locale=LOCALE)
    return text.replace("\u00a0", " ")


def _money_words(amount: Decimal) -> str:
    negative = amount < 0
    amount = abs(amount)
    if amount == 0:
        words = "zero real"
    else:
        words = str(num2words(amount, lang=LOCALE, to="currency"))
        if amount < 1:  # num2words says "zero reais e dez centavos"
            words = words.removeprefix("zero reais e ")
    return f"menos {words}" if negative else words


def format_moeda_extenso(value: Any) -> str:
    """'R$ 1.234,56 (mil, duzentos e trinta e quatro reais e cinquenta e seis centavos)'."""
    amount = _money(value)
    return f"{format_moeda(amount)} ({_money_words(amount)})"


def format_numero_extenso(value: Any) -> str:
    """A number in words: 'mil, duzentos e trinta e quatro'."""
    number = _parse_decimal(value)
    if number == number.to_integral_value():
        return str(num2words(int(number), lang=LOCALE))
    return str(num2words(number, lang=LOCALE))


def format_cpf(value: Any) -> str:
    """123.456.789-09."""
    return mask_cpf(str(value))


def format_cnpj(value: Any) -> str:
    """12.345.678/0001-95, also the alphanumeric CNPJ (12.ABC.345/01DE-35)."""
    return mask_cnpj(str(value))


def format_placa(value: Any) -> str:
    """ABC-1234 (old plate) or ABC1D23 (Mercosul)."""
    return mask_placa(str(value))


def format_cep(value: Any) -> str:
    """13465-000."""
    return mask_cep(str(value))


_FORMATTERS: dict[str, tuple[Callable[[Any], str], str]] = {
    "data": (format_data, "uma data"),
    "data_extenso": (format_data_extenso, "uma data"),
    "data_hora": (format_data_hora, "uma data e hora"),
    "moeda": (format_moeda, "um valor em reais"),
    "moeda_extenso": (format_moeda_extenso, "um valor em reais"),
    "numero_extenso": (format_numero_extenso, "um número"),
    "cpf": (format_cpf, "um CPF de 11 dígitos"),
    "cnpj": (format_cnpj, "um CNPJ de 14 caracteres"),
    "placa": (format_placa, "uma placa (ABC-1234 ou ABC1D23)"),
    "cep": (format_cep, "um CEP de 8 dígitos"),
    "numero_ato": (format_act_number, "o número de um ato"),
}


def _wrap(name: str, func: Callable[[Any], str], expected: str, draft: bool) -> Callable[..., Any]:
    def apply(value: Any) -> Any:
        if isinstance(value, jinja2.Undefined):
            return value  # printed as the draft blank, or fails in a final document
        if value is None or value == "":
            if draft:
                return DRAFT_BLANK
            raise RenderError(f'O filtro "{name}" recebeu um valor vazio.')
        try:
            return func(value)
        except (InputError, ValueError, TypeError, ArithmeticError, OverflowError) as exc:
            if draft:
                return str(value)  # shown as typed; the completeness report flags it
            raise RenderError(
                f'Valor inválido para o filtro "{name}": esperava-se {expected}, '
                f'recebeu-se "{value}".'
            ) from exc

    apply.__name__ = name
    return apply


def numeral(value: Any) -> Any:
    """Filter ``numeral``: a typed number without the signs typed before it, for ``nº {{
    x | numeral }}`` (``"n.º CT-2026/015"`` → ``"CT-2026/015"``), so the sign prints
    once. A blank or undefined value passes as it came (the draft shows its blank)."""
    if isinstance(value, str) and value.strip():
        return without_sign(value) or value
    return value


def _citation(
    name: str, func: Callable[[str], str] | None, draft: bool
) -> Callable[[Any], Any]:
    def apply(ref: Any) -> Any:
        if isinstance(ref, jinja2.Undefined):
            return ref
        if func is None:
            raise RenderError(
                f'O modelo usa "{name}", mas nenhuma fonte de citações foi configurada.'
            )
        try:
            return func(str(ref))
        except LavraError:
            raise
        except Exception as exc:  # a user-supplied resolver: keep the boundary clean
            raise RenderError(f'Não foi possível resolver a citação "{ref}".') from exc

    apply.__name__ = name
    return apply


# --------------------------------------------------------------------------- sandbox


class _TemplateFault(Exception):
    """A refused operation inside a template; completed with template and line."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _thousands(count: int) -> str:
    return f"{count:,}".replace(",", ".")


def _size_fault(count: int) -> _TemplateFault:
    return _TemplateFault(
        f"excedeu o limite de tamanho: a operação produziria {_thousands(count)} caracteres "
        f"ou itens (máximo {_thousands(MAX_OUTPUT_CHARS)})"
    )


def _check_binop(operator: str, left: Any, right: Any) -> None:
    sized = (str, list, tuple, bytes)
    if operator == "*":
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, sized) and isinstance(count, int):
                if len(seq) * max(count, 0) > MAX_OUTPUT_CHARS:
                    raise _size_fault(len(seq) * count)
                return
        integers = isinstance(left, int) and isinstance(right, int)
        if integers and left.bit_length() + right.bit_length() > MAX_INT_BITS:
            raise _TemplateFault("excedeu o limite de tamanho de um número")
    elif operator == "**":
        integers = isinstance(left, int) and isinstance(right, int) and right > 0
        if integers and abs(left) > 1 and left.bit_length() * right > MAX_INT_BITS:
            raise _TemplateFault("excedeu o limite de tamanho de um número")
    elif operator == "+" and isinstance(left, sized) and isinstance(right, sized):
        total = len(left) + len(right)
        if total > MAX_OUTPUT_CHARS:
            raise _size_fault(total)


def _finalize(value: Any) -> Any:
    """What ``{{ ... }}`` prints: never a function, method or class."""
    if isinstance(value, jinja2.Undefined):
        return value
    if callable(value):
        name = getattr(value, "__name__", None) or type(value).__name__
        raise _TemplateFault(
            f"tenta imprimir a função ou método «{name}» em vez de um valor"
        )
    if isinstance(value, str) and len(value) > MAX_OUTPUT_CHARS:
        raise _size_fault(len(value))
    return value


Location = tuple[str, int]


def _template_label(name: str | None) -> str:
    return name if name else "(texto informado)"


def _frame_location(frame: FrameType, lineno: int) -> Location | None:
    template = frame.f_globals.get("__jinja_template__")
    if not isinstance(template, jinja2.Template):
        return None
    return _template_label(template.name), template.get_corresponding_lineno(lineno)


def _traceback_location(tb: TracebackType | None) -> Location | None:
    """The innermost template frame of a traceback: (template name, template line)."""
    found = None
    while tb is not None:
        found = _frame_location(tb.tb_frame, tb.tb_lineno) or found
        tb = tb.tb_next
    return found


def _generator_location(gen: Iterator[str]) -> Location | None:
    """Where a suspended rendering is: descends into ``{% include %}`` generators."""
    found = None
    current: Any = gen
    for _ in range(64):
        frame = getattr(current, "gi_frame", None)
        if frame is None:
            break
        found = _frame_location(frame, frame.f_lineno) or found
        inner = current.gi_yieldfrom or frame.f_locals.get("gen")
        if inner is None or inner is current:
            break
        current = inner
    return found


def _located(error: BaseException, where: Location) -> LavraError:
    """The pt-BR error of a failure inside a template, naming template and line."""
    name, line = where
    at = f"O modelo {name}, linha {line},"
    if isinstance(error, _TemplateFault):
        return RenderError(f"{at} {error.message}.")
    if isinstance(error, TaskTimeout):
        return RenderError(f"{at} excedeu o limite de tempo de {error.seconds:g} s.")
    if isinstance(error, MemoryError):
        return RenderError(f"{at} excedeu o limite de memória.")
    if isinstance(error, RecursionError):
        return RenderError(f"{at} excedeu o limite de profundidade (recursão).")
    if isinstance(error, _UnsafeAccess):
        return RenderError(f"{at} tentou ler o atributo não permitido «{error.attribute}».")
    if isinstance(error, jinja2.exceptions.SecurityError):
        return RenderError(f"{at} tentou uma operação não permitida.")
    if isinstance(error, jinja2.TemplateNotFound):
        return RenderError(f"{at} inclui um modelo inexistente: «{error.name}».")
    if isinstance(error, jinja2.UndefinedError):
        return failed_undefined(at, error)
    return failed(at, error)


class _UnsafeAccess(jinja2.exceptions.SecurityError):
    def __init__(self, attribute: str) -> None:
        super().__init__(attribute)
        self.attribute = attribute


class _RuntimeOutput(CodeGenerator):
    """Every printed expression goes through ``finalize`` when rendering: Jinja folds
    constant expressions (``{{ 'a'.format }}``) at compile time, escaped before
    ``finalize`` sees them."""

    def _output_child_to_const(
        self, node: nodes.Expr, frame: Frame, finalize: CodeGenerator._FinalizeInfo
    ) -> str:
        if not isinstance(node, nodes.TemplateData):
            raise nodes.Impossible()
        return super()._output_child_to_const(node, frame, finalize)


class StaffSandbox(SandboxedEnvironment):
    """Jinja's sandbox, strict: unsafe access raises, big operations are refused, and
    every failure while rendering names the template and line."""

    intercepted_binops = frozenset({"*", "**", "+"})
    code_generator_class = _RuntimeOutput

    def unsafe_undefined(self, obj: Any, attribute: str) -> jinja2.Undefined:
        raise _UnsafeAccess(str(attribute)[:80])

    def call_binop(
        self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any
    ) -> Any:
        _check_binop(operator, left, right)
        return super().call_binop(context, operator, left, right)

    def handle_exception(self, source: str | None = None) -> NoReturn:
        error = sys.exc_info()[1]
        if error is not None and not isinstance(error, jinja2.TemplateSyntaxError):
            if isinstance(error, LavraError):
                raise error.with_traceback(None)
            where = _traceback_location(error.__traceback__)
            if where is not None:
                raise _located(error, where) from error
        super().handle_exception(source)


# --------------------------------------------------------------------------- public API


def make_environment(
    search_paths: Sequence[Path],
    *,
    cite: Callable[[str], str] | None = None,
    cite_text: Callable[[str], str] | None = None,
    act_titles: Mapping[str, str] | None = None,
    draft: bool = False,
) -> StaffSandbox:
    """A sandboxed, always-autoescaping environment with the pt-BR filters."""
    env = StaffSandbox(
        finalize=_finalize,
        loader=jinja2.FileSystemLoader([str(path) for path in search_paths]),
        autoescape=True,
        undefined=_DraftUndefined if draft else _FinalUndefined,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    helpers: dict[str, Callable[..., Any]] = {
        name: _wrap(name, func, expected, draft)
        for name, (func, expected) in _FORMATTERS.items()
    }
    helpers["numeral"] = numeral
    helpers["citacao"] = _citation("citacao", cite, draft)
    helpers["citacao_texto"] = _citation("citacao_texto", cite_text, draft)
    helpers["ato"] = cited_act_filter(act_titles or {}, DRAFT_BLANK if draft else None)
    env.filters.update(helpers)
    env.globals.update(helpers)
    env.globals["minuta"] = draft
    return env


def _generate(template: jinja2.Template, context: Mapping[str, Any]) -> str:
    """The rendered text, stopped as soon as it exceeds :data:`MAX_OUTPUT_CHARS`."""
    parts: list[str] = []
    size = 0
    chunks = template.generate(dict(context))
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_OUTPUT_CHARS:
            name, line = _generator_location(chunks) or (_template_label(template.name), 1)
            chunks.close()  # type: ignore[attr-defined]
            raise RenderError(
                f"O modelo {name}, linha {line}, excedeu o limite de tamanho do documento "
                f"({_thousands(MAX_OUTPUT_CHARS)} caracteres)."
            )
        parts.append(chunk)
    return "".join(parts)


def _render(template: Callable[[], jinja2.Template], context: Mapping[str, Any], what: str) -> str:
    try:
        return _generate(template(), context)
    except LavraError:
        raise
    except jinja2.TemplateNotFound as exc:
        raise RenderError(f'Modelo não encontrado: "{exc.name}".') from exc
    except jinja2.TemplateSyntaxError as exc:
        raise RenderError(
            f"Erro de sintaxe no modelo {exc.name or what}, linha {exc.lineno}: {exc.message}"
        ) from exc
    except jinja2.exceptions.SecurityError as exc:
        raise RenderError(f"O modelo {what} tentou uma operação não permitida.") from exc
    except TaskTimeout as exc:
        raise RenderError(
            f"O modelo {what} excedeu o limite de tempo de {exc.seconds:g} s."
        ) from exc
    except MemoryError as exc:
        raise RenderError(f"O modelo {what} excedeu o limite de memória.") from exc
    except jinja2.UndefinedError as exc:
        raise failed_undefined(f"O modelo {what}", exc) from exc
    except Exception as exc:
        raise failed(f"O modelo {what}", exc) from exc


def render_template(
    env: jinja2.Environment, name: str, context: Mapping[str, Any]
) -> str:
    """Render the named template; every failure becomes a :class:`RenderError`."""
    return _render(lambda: env.get_template(name), context, f'"{name}"')


def render_string(env: jinja2.Environment, source: str, context: Mapping[str, Any]) -> str:
    """Render a template given as a string (autoescaped like the files)."""
    return _render(lambda: env.from_string(source), context, "em texto")
