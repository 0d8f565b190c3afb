"""Check digits, masks and the JSON Schema format checker (lavra.inputs.formats)."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lavra.errors import InputError
from lavra.inputs import formats

# --- reference algorithms, written from the published rules, as an independent oracle --


def cpf_check_digits(base9: str) -> str:
    """Receita Federal: mod 11 with weights 10..2, then 11..2; remainder < 2 gives 0."""
    digits = [int(c) for c in base9]
    for weights in (range(10, 1, -1), range(11, 1, -1)):
        total = sum(d * w for d, w in zip(digits, weights, strict=True))
        rest = total % 11
        digits.append(0 if rest < 2 else 11 - rest)
    return "".join(str(d) for d in digits[9:])


def cnpj_check_digits(base12: str) -> str:
    """IN RFB nº 2.229/2024: each character is worth ord(c) - 48; numeric-CNPJ weights."""
    values = [ord(c) - 48 for c in base12]
    for weights in ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]):
        total = sum(v * w for v, w in zip(values, weights, strict=True))
        rest = total % 11
        values.append(0 if rest < 2 else 11 - rest)
    return "".join(str(v) for v in values[12:])


def other_digit(digit: str) -> str:
    return str((int(digit) + 1) % 10)


# --- tables --------------------------------------------------------------------------

VALID = [
    ("cpf", "529.982.247-25"),
    ("cpf", "52998224725"),
    ("cpf", "111.444.777-35"),
    ("cnpj", "11.222.333/0001-81"),
    ("cnpj", "11222333000181"),
    ("cnpj", "12.ABC.345/01DE-35"),  # official example of the alphanumeric CNPJ
    ("cnpj", "12ABC34501DE35"),
    ("cnpj", "12.abc.345/01de-35"),
    ("renavam", "00639884962"),
    ("renavam", "0063988496-2"),
    ("cnh", "03578610030"),
    ("cnh", "035 786 100 30"),
    ("placa", "ABC1234"),
    ("placa", "ABC-1234"),
    ("placa", "ABC1D23"),
    ("placa", "abc1d23"),
    ("cep", "13465-000"),
    ("cep", "13465000"),
    ("date", "2024-02-29"),
    ("date-time", "2026-03-02T14:30:00-03:00"),
    ("date-time", "2026-03-02T17:30:00.5Z"),
    ("email", "setransv@exemplo.gov.br"),
]

INVALID = [
    ("cpf", "529.982.247-26", "CPF inválido (dígitos verificadores não conferem)."),
    ("cpf", "52998224715", "CPF inválido (dígitos verificadores não conferem)."),
    ("cpf", "111.111.111-11", "CPF inválido (sequência de dígitos repetidos)."),
    ("cpf", "529.982.247-2", "CPF deve ter 11 dígitos"),
    ("cpf", "5299822472", "CPF deve ter 11 dígitos"),
    ("cpf", "529 982 247 25", "CPF deve ter 11 dígitos"),
    ("cnpj", "11.222.333/0001-82", "CNPJ inválido (dígitos verificadores não conferem)."),
    ("cnpj", "12.ABC.345/01DE-36", "CNPJ inválido (dígitos verificadores não conferem)."),
    ("cnpj", "12.ABC.345/01DE-3A", "CNPJ deve ter 14 caracteres"),
    ("cnpj", "00.000.000/0000-00", "CNPJ inválido (sequência de caracteres repetidos)."),
    ("cnpj", "1122233300018", "CNPJ deve ter 14 caracteres"),
    ("renavam", "00639884963", "RENAVAM inválido (dígito verificador não confere)."),
    ("renavam", "639884962", "RENAVAM deve ter 11 dígitos"),
    ("cnh", "03578610031", "Número de registro da CNH inválido (dígitos verificadores"),
    ("cnh", "0357861003", "Número de registro da CNH deve ter 11 dígitos."),
    ("cnh", "11111111111", "Número de registro da CNH inválido (sequência de dígitos repetidos)."),
    ("placa", "AB-12345", "Placa inválida"),
    ("placa", "ABCD123", "Placa inválida"),
    ("placa", "ABC1D2E", "Placa inválida"),
    ("placa", "ABC1234\n", "Placa inválida"),
    ("cep", "1346-5000", "CEP deve ter 8 dígitos"),
    ("cep", "1346500", "CEP deve ter 8 dígitos"),
    ("date", "2026-02-30", "Data inexistente: 30/02/2026."),
    ("date", "2025-02-29", "Data inexistente: 29/02/2025."),
    ("date", "2026-2-3", "Data inválida: use o formato AAAA-MM-DD."),
    ("date", "02/03/2026", "Data inválida: use o formato AAAA-MM-DD."),
    ("date-time", "2026-03-02T14:30:00", "Data e hora inválidas"),
    ("date-time", "2026-03-02T25:30:00Z", "Data e hora inexistentes"),
    ("email", "setransv.exemplo.gov.br", "Endereço de e-mail inválido."),
    ("email", "a b@exemplo.br", "Endereço de e-mail inválido."),
]


@pytest.mark.parametrize(("name", "value"), VALID)
def test_valid_values(name: str, value: str) -> None:
    assert formats.explain(name, value) is None
    assert formats.is_valid(name, value)
    assert formats.format_checker().conforms(value, name)


@pytest.mark.parametrize(("name", "value", "reason"), INVALID)
def test_invalid_values_explained_in_portuguese(name: str, value: str, reason: str) -> None:
    explained = formats.explain(name, value)
    assert explained is not None and explained.startswith(reason)
    assert not formats.is_valid(name, value)
    assert not formats.format_checker().conforms(value, name)


def test_checker_carries_the_reason_as_cause() -> None:
    from jsonschema.exceptions import FormatError  # type: ignore[import-untyped]

    with pytest.raises(FormatError) as caught:
        formats.format_checker().check("529.982.247-26", "cpf")
    assert isinstance(caught.value.cause, InputError)
    assert caught.value.cause.message == "CPF inválido (dígitos verificadores não conferem)."


def test_formats_ignore_non_strings() -> None:
    checker = formats.format_checker()
    for name in formats.FORMAT_NAMES:
        assert checker.conforms(12345678909, name)


def test_unknown_format_is_an_input_error() -> None:
    with pytest.raises(InputError, match="Formato desconhecido"):
        formats.explain("pis", "123")


def test_shortcut_predicates() -> None:
    assert formats.is_cpf("529.982.247-25") and not formats.is_cpf("529.982.247-24")
    assert formats.is_cnpj("12.ABC.345/01DE-35") and not formats.is_cnpj("12.ABC.345/01DE-34")
    assert formats.is_renavam("00639884962") and not formats.is_renavam("00639884961")
    assert formats.is_cnh("03578610030") and not formats.is_cnh("03578610020")
    assert formats.is_placa("ABC1D23") and not formats.is_placa("A1C1D23")
    assert formats.is_cep("13465-000") and not formats.is_cep("13465-00")


def test_normalizers_and_masks() -> None:
    assert formats.only_digits("529.982.247-25") == "52998224725"
    assert formats.only_digits_and_letters("12.abc.345/01de-35") == "12ABC34501DE35"
    assert formats.normalize_cpf("529.982.247-25") == "52998224725"
    assert formats.normalize_cnpj("12.abc.345/01de-35") == "12ABC34501DE35"
    assert formats.normalize_renavam("0063988496-2") == "00639884962"
    assert formats.normalize_cnh("035 786 100 30") == "03578610030"
    assert formats.normalize_placa("abc-1234") == "ABC1234"
    assert formats.normalize_cep("13465-000") == "13465000"
    assert formats.mask_cpf("52998224725") == "529.982.247-25"
    assert formats.mask_cnpj("12abc34501de35") == "12.ABC.345/01DE-35"
    assert formats.mask_placa("abc1234") == "ABC-1234"
    assert formats.mask_placa("abc-1d23") == "ABC1D23"
    assert formats.mask_cep("13465000") == "13465-000"


def test_a_cpf_or_cnpj_is_printed_formatted_by_its_shape() -> None:
    """How messages print a person (formats.mask_cpf_cnpj and its two companions)."""
    assert formats.mask_cpf_cnpj("52998224725") == "529.982.247-25"
    assert formats.mask_cpf_cnpj("65.563.539/0001-05") == "65.563.539/0001-05"
    assert formats.mask_cpf_cnpj("12abc34501de35") == "12.ABC.345/01DE-35"
    assert formats.mask_cpf_cnpj(" 1234 ") == "1234"  # neither shape: as given, no error
    assert formats.mask_holder_key("65563539000105 ABC1D23") == "65.563.539/0001-05 ABC1D23"
    assert formats.mask_holder_key("52998224725") == "529.982.247-25"
    assert formats.cpf_cnpj_label("529.982.247-25") == "CPF 529.982.247-25"
    assert formats.cpf_cnpj_label("65563539000105") == "CNPJ 65.563.539/0001-05"
    assert formats.cpf_cnpj_label("") == "CPF/CNPJ"


@given(st.text(alphabet=string.digits, min_size=9, max_size=9))
def test_cpf_agrees_with_reference_algorithm(base: str) -> None:
    number = base + cpf_check_digits(base)
    if len(set(number)) == 1:
        assert not formats.is_cpf(number)
        return
    assert formats.is_cpf(number)
    assert formats.is_cpf(formats.mask_cpf(number))
    assert not formats.is_cpf(number[:-1] + other_digit(number[-1]))
    assert not formats.is_cpf(number[:-2] + other_digit(number[-2]) + number[-1])


@given(st.text(alphabet=string.digits + string.ascii_uppercase, min_size=12, max_size=12))
def test_alphanumeric_cnpj_agrees_with_in_rfb_2229(base: str) -> None:
    number = base + cnpj_check_digits(base)
    if len(set(number)) == 1:
        return
    assert formats.is_cnpj(number)
    assert formats.is_cnpj(formats.mask_cnpj(number))
    assert formats.is_cnpj(number.lower())
    assert not formats.is_cnpj(number[:-1] + other_digit(number[-1]))


def test_official_alphanumeric_example_by_reference_algorithm() -> None:
    assert cnpj_check_digits("12ABC34501DE") == "35"
    assert cnpj_check_digits("112223330001") == "81"
