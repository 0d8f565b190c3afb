"""Brazilian document formats: check digits, masks and JSON Schema format checkers.

Each format has an *explainer*: a function that takes the value typed by the user and
returns ``None`` when it is valid, or a pt-BR sentence saying what is wrong with it
("CPF inválido (dígitos verificadores não conferem)."). The JSON Schema format checker
(:func:`format_checker`) wraps the explainers so the validator carries that sentence
as the cause of the error; :mod:`lavra.inputs.schemas.validation` shows it to the user.

Inputs are accepted with or without their usual masks (dots, dash, slash, spaces in
the places where a mask puts them); the ``normalize_*`` helpers strip the mask (all
through :func:`unmask`), ``has_*_shape`` say whether what is left has the
identifier's shape, and the ``mask_*`` helpers put the mask back, for templates and
documents. The registry, the templates and the repeat-infraction rules all use these,
so an identifier is normalized and printed the same way everywhere.

Check digits come from validate-docbr (CPF, CNPJ, CNH, RENAVAM). validate-docbr 2.0
already validates the alphanumeric CNPJ of IN RFB nº 2.229/2024 (twelve characters
``0-9A-Z`` whose value is ``ord(c) - 48``, two numeric check digits, the weights of the
numeric CNPJ), so no algorithm is written by hand here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date, datetime
from types import MappingProxyType

from jsonschema import FormatChecker  # type: ignore[import-untyped]
from validate_docbr import CNH, CNPJ, CPF, RENAVAM

from lavra.errors import InputError
from lavra.inputs.reading import date_range_problem

__all__ = [
    "EXPLAINERS",
    "FORMAT_NAMES",
    "cpf_cnpj_label",
    "explain",
    "explain_cep",
    "explain_cnh",
    "explain_cnpj",
    "explain_cpf",
    "explain_date",
    "explain_date_time",
    "explain_email",
    "explain_placa",
    "explain_renavam",
    "format_checker",
    "has_cep_shape",
    "has_cnpj_shape",
    "has_cpf_shape",
    "has_placa_shape",
    "is_cep",
    "is_cnh",
    "is_cnpj",
    "is_cpf",
    "is_placa",
    "is_renavam",
    "is_valid",
    "mask_cep",
    "mask_cnpj",
    "mask_cpf",
    "mask_cpf_cnpj",
    "mask_holder_key",
    "mask_placa",
    "normalize_cep",
    "normalize_cnh",
    "normalize_cnpj",
    "normalize_cpf",
    "normalize_placa",
    "normalize_renavam",
    "only_digits",
    "only_digits_and_letters",
    "unmask",
]

Explainer = Callable[[str], "str | None"]

# Shapes accepted, masks optional. Anchored with \Z so a trailing newline is refused.
_CPF_RE = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}\Z", re.ASCII)
_CNPJ_RE = re.compile(
    r"[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}/?[0-9A-Z]{4}-?\d{2}\Z",
    re.ASCII | re.IGNORECASE,
)
_RENAVAM_RE = re.compile(r"\d{10}-?\d\Z", re.ASCII)
_CNH_RE = re.compile(r"\d{3} ?\d{3} ?\d{3} ?\d{2}\Z", re.ASCII)
_PLACA_OLD_RE = re.compile(r"[A-Z]{3}-?\d{4}\Z", re.ASCII | re.IGNORECASE)
_PLACA_MERCOSUL_RE = re.compile(r"[A-Z]{3}-?\d[A-Z]\d{2}\Z", re.ASCII | re.IGNORECASE)
_CEP_RE = re.compile(r"\d{2}\.?\d{3}-?\d{3}\Z", re.ASCII)
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}\Z", re.ASCII)
# RFC 3339 date-time: the offset (or Z) is mandatory, fractions of a second optional.
_DATE_TIME_RE = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z", re.ASCII
)
# Unmasked identifiers (see unmask).
_MASK_CHARS = re.compile(r"[\s./-]")
_CPF_RAW = re.compile(r"\d{11}", re.ASCII)
_CNPJ_RAW = re.compile(r"[0-9A-Z]{12}\d{2}", re.ASCII)
_PLACA_RAW = re.compile(r"[A-Z]{3}\d[A-Z0-9]\d{2}", re.ASCII)
_CEP_RAW = re.compile(r"\d{8}", re.ASCII)
# Deliberately simple: one @, no spaces, a dot in the domain. Delivery is the real test.
_EMAIL_RE = re.compile(r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+\Z")


def only_digits(value: str) -> str:
    """The digits of ``value``, in order (masks, spaces and letters dropped)."""
    return "".join(char for char in value if "0" <= char <= "9")


def only_digits_and_letters(value: str) -> str:
    """The ASCII digits and letters of ``value``, letters upper-cased."""
    return "".join(char for char in value.upper() if char.isascii() and char.isalnum())


# --- normalizers ---------------------------------------------------------------


def unmask(value: str) -> str:
    """``value`` without the characters of a mask (spaces, dots, dashes, slashes), upper case.

    The one normalization of identifiers (CPF, CNPJ, placa, RENAVAM, CNH, CEP) typed
    with or without their masks: two values name the same thing when they unmask alike.
    """
    return _MASK_CHARS.sub("", value).upper()


def normalize_cpf(value: str) -> str:
    """The 11 digits of a CPF typed with or without mask."""
    return unmask(value)


def normalize_cnpj(value: str) -> str:
    """The 14 characters (digits and upper-case letters) of a CNPJ, without mask."""
    return unmask(value)


def normalize_renavam(value: str) -> str:
    """The 11 digits of a RENAVAM."""
    return unmask(value)


def normalize_cnh(value: str) -> str:
    """The 11 digits of a CNH registration number."""
    return unmask(value)


def normalize_placa(value: str) -> str:
    """A licence plate in upper case, without dash: ``ABC1234`` or ``ABC1D23``."""
    return unmask(value)


def normalize_cep(value: str) -> str:
    """The 8 digits of a CEP."""
    return unmask(value)


# --- shapes (no check digits) ----------------------------------------------------


def has_cpf_shape(value: str) -> bool:
    """Whether ``value`` is 11 digits once unmasked (check digits not verified)."""
    return _CPF_RAW.fullmatch(normalize_cpf(value)) is not None


def has_cnpj_shape(value: str) -> bool:
    """Whether ``value`` is 12 digits or letters and 2 digits once unmasked."""
    return _CNPJ_RAW.fullmatch(normalize_cnpj(value)) is not None


def has_placa_shape(value: str) -> bool:
    """Whether ``value`` is an old (ABC1234) or Mercosul (ABC1D23) plate once unmasked."""
    return _PLACA_RAW.fullmatch(normalize_placa(value)) is not None


def has_cep_shape(value: str) -> bool:
    """Whether ``value`` is 8 digits once unmasked."""
    return _CEP_RAW.fullmatch(normalize_cep(value)) is not None


# --- masks -----------------------------------------------------------------------


def _shaped(value: str, fits: Callable[[str], bool], problem: str) -> None:
    if not fits(value):
        raise InputError(f"{problem} Recebido: «{value}».")


def mask_cpf(value: str) -> str:
    """``000.000.000-00``; :class:`InputError` when ``value`` is not 11 digits."""
    _shaped(value, has_cpf_shape, "CPF deve ter 11 dígitos.")
    d = normalize_cpf(value)
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}"


def mask_cnpj(value: str) -> str:
    """``00.000.000/0000-00`` (letters kept, upper case, for the alphanumeric CNPJ)."""
    _shaped(value, has_cnpj_shape,
            "CNPJ deve ter 14 caracteres (12 letras ou dígitos e 2 dígitos verificadores).")
    d = normalize_cnpj(value)
    return f"{d[:2]}.{d[2:5]}.{d[5:8]}/{d[8:12]}-{d[12:]}"


def mask_cpf_cnpj(value: str) -> str:
    """A CPF as ``000.000.000-00`` or a CNPJ as ``00.000.000/0000-00``: how every message,
    page and report prints a person's document (never the registry's bare digits).
    A value of neither shape (a holder key that is not a document, a typing error) comes
    back as it is, stripped: a message names what it was given rather than fail."""
    if has_cpf_shape(value):
        return mask_cpf(value)
    return mask_cnpj(value) if has_cnpj_shape(value) else value.strip()


def mask_holder_key(value: str) -> str:
    """A batch run's holder key as messages print it: its leading CPF/CNPJ masked, the
    rest kept (a pack may key a holder by «CNPJ placa», one licence per vehicle):
    ``65.563.539/0001-05 ABC1D23``."""
    first, _, rest = value.strip().partition(" ")
    return f"{mask_cpf_cnpj(first)} {rest}".strip()


def cpf_cnpj_label(value: str) -> str:
    """``CPF 000.000.000-00`` or ``CNPJ 00.000.000/0000-00``, the document named by its
    kind; ``CPF/CNPJ`` alone when ``value`` has neither shape (nothing to print)."""
    if has_cpf_shape(value):
        return f"CPF {mask_cpf(value)}"
    return f"CNPJ {mask_cnpj(value)}" if has_cnpj_shape(value) else "CPF/CNPJ"


def mask_placa(value: str) -> str:
    """``ABC-1234`` for the old plates, ``ABC1D23`` (no dash) for Mercosul plates."""
    _shaped(value, has_placa_shape,
            "Placa inválida: use o padrão antigo (ABC-1234) ou o padrão Mercosul (ABC1D23).")
    p = normalize_placa(value)
    return f"{p[:3]}-{p[3:]}" if p[3:].isdigit() else p


def mask_cep(value: str) -> str:
    """``00000-000``."""
    _shaped(value, has_cep_shape, "CEP deve ter 8 dígitos.")
    d = normalize_cep(value)
    return f"{d[:5]}-{d[5:]}"


# --- explainers ------------------------------------------------------------------


def explain_cpf(value: str) -> str | None:
    """Why ``value`` is not a valid CPF, or None when it is."""
    if not _CPF_RE.match(value):
        return "CPF deve ter 11 dígitos, com ou sem pontos e traço (000.000.000-00)."
    digits = normalize_cpf(value)
    if len(set(digits)) == 1:
        return "CPF inválido (sequência de dígitos repetidos)."
    if not CPF().validate(digits):
        return "CPF inválido (dígitos verificadores não conferem)."
    return None


def explain_cnpj(value: str) -> str | None:
    """Why ``value`` is not a valid CNPJ (numeric or alphanumeric), or None."""
    if not _CNPJ_RE.match(value):
        return (
            "CNPJ deve ter 14 caracteres (12 letras ou dígitos e 2 dígitos "
            "verificadores), com ou sem pontos, barra e traço (00.000.000/0000-00)."
        )
    chars = normalize_cnpj(value)
    if len(set(chars)) == 1:
        return "CNPJ inválido (sequência de caracteres repetidos)."
    if not CNPJ().validate(chars):
        return "CNPJ inválido (dígitos verificadores não conferem)."
    return None


def explain_renavam(value: str) -> str | None:
    """Why ``value`` is not a valid RENAVAM, or None."""
    if not _RENAVAM_RE.match(value):
        return (
            "RENAVAM deve ter 11 dígitos (os códigos antigos, de 9 dígitos, "
            "completam-se com zeros à esquerda)."
        )
    if not RENAVAM().validate(normalize_renavam(value)):
        return "RENAVAM inválido (dígito verificador não confere)."
    return None


def explain_cnh(value: str) -> str | None:
    """Why ``value`` is not a valid CNH registration number (11 digits), or None."""
    if not _CNH_RE.match(value):
        return "Número de registro da CNH deve ter 11 dígitos."
    digits = normalize_cnh(value)
    if len(set(digits)) == 1:
        return "Número de registro da CNH inválido (sequência de dígitos repetidos)."
    if not CNH().validate(digits):
        return "Número de registro da CNH inválido (dígitos verificadores não conferem)."
    return None


def explain_placa(value: str) -> str | None:
    """Why ``value`` is not a Brazilian plate (old ``ABC-1234`` or Mercosul ``ABC1D23``)."""
    if _PLACA_OLD_RE.match(value) or _PLACA_MERCOSUL_RE.match(value):
        return None
    return "Placa inválida: use o padrão antigo (ABC-1234) ou o padrão Mercosul (ABC1D23)."


def explain_cep(value: str) -> str | None:
    """Why ``value`` is not a CEP (8 digits, dash optional), or None."""
    if _CEP_RE.match(value):
        return None
    return "CEP deve ter 8 dígitos, com ou sem traço (00000-000)."


def explain_date(value: str) -> str | None:
    """Why ``value`` is not an existing calendar date ``AAAA-MM-DD``, or None."""
    if not _DATE_RE.match(value):
        return "Data inválida: use o formato AAAA-MM-DD."
    try:
        day = date.fromisoformat(value)
    except ValueError:
        year, month, day_ = value.split("-")  # said as the person reads dates
        return f"Data inexistente: {day_}/{month}/{year}."
    problem = date_range_problem(day)
    return f"{problem[:1].upper()}{problem[1:]}." if problem else None


def explain_date_time(value: str) -> str | None:
    """Why ``value`` is not an RFC 3339 date-time with offset, or None."""
    hint = "use o formato AAAA-MM-DDThh:mm:ss com o fuso horário (por exemplo, -03:00)."
    if not _DATE_TIME_RE.match(value):
        return f"Data e hora inválidas: {hint}"
    normalized = value.upper().replace("Z", "+00:00")
    try:
        moment = datetime.fromisoformat(normalized)
    except ValueError:
        return f"Data e hora inexistentes: {value}."
    problem = date_range_problem(moment.date())
    return f"{problem[:1].upper()}{problem[1:]}." if problem else None


def explain_email(value: str) -> str | None:
    """Why ``value`` is not a plausible e-mail address, or None."""
    if _EMAIL_RE.match(value) and len(value) <= 254:
        return None
    return "Endereço de e-mail inválido."


EXPLAINERS: Mapping[str, Explainer] = MappingProxyType(
    {
        "cpf": explain_cpf,
        "cnpj": explain_cnpj,
        "renavam": explain_renavam,
        "cnh": explain_cnh,
        "placa": explain_placa,
        "cep": explain_cep,
        "date": explain_date,
        "date-time": explain_date_time,
        "email": explain_email,
    }
)
"""Every format the engine asserts, by its JSON Schema ``format`` name."""

FORMAT_NAMES: frozenset[str] = frozenset(EXPLAINERS)


def explain(format_name: str, value: str) -> str | None:
    """Why ``value`` does not conform to ``format_name``, or None when it does."""
    try:
        explainer = EXPLAINERS[format_name]
    except KeyError:
        raise InputError(f"Formato desconhecido: «{format_name}».") from None
    return explainer(value)


def is_valid(format_name: str, value: str) -> bool:
    """Whether ``value`` conforms to ``format_name``."""
    return explain(format_name, value) is None


def is_cpf(value: str) -> bool:
    """Whether ``value`` is a valid CPF (mask optional)."""
    return explain_cpf(value) is None


def is_cnpj(value: str) -> bool:
    """Whether ``value`` is a valid CNPJ, numeric or alphanumeric (mask optional)."""
    return explain_cnpj(value) is None


def is_renavam(value: str) -> bool:
    """Whether ``value`` is a valid RENAVAM."""
    return explain_renavam(value) is None


def is_cnh(value: str) -> bool:
    """Whether ``value`` is a valid CNH registration number."""
    return explain_cnh(value) is None


def is_placa(value: str) -> bool:
    """Whether ``value`` is a Brazilian licence plate (old or Mercosul)."""
    return explain_placa(value) is None


def is_cep(value: str) -> bool:
    """Whether ``value`` is a CEP."""
    return explain_cep(value) is None


def _checker_function(explainer: Explainer) -> Callable[[object], bool]:
    def check(instance: object) -> bool:
        # Like every JSON Schema format, formats only constrain strings: other types
        # are the business of the ``type`` keyword.
        if not isinstance(instance, str):
            return True
        reason = explainer(instance)
        if reason is not None:
            raise InputError(reason)
        return True

    return check


def format_checker() -> FormatChecker:
    """A FormatChecker asserting every format of :data:`EXPLAINERS`.

    A failing value raises :class:`~lavra.errors.InputError` inside the checker; the
    jsonschema error carries it as ``cause``, whose ``message`` is the pt-BR reason.
    The standard ``date``, ``date-time`` and ``email`` are replaced by explainers of
    our own: jsonschema's ``date-time`` silently passes everything unless the optional
    ``rfc3339-validator`` is installed, and its ``email`` only looks for an ``@``.
    """
    checker = FormatChecker(formats=())
    for name, explainer in EXPLAINERS.items():
        checker.checks(name, raises=InputError)(_checker_function(explainer))
    return checker
