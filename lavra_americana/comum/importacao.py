"""The acts from before lavra that ``lavra cadastro importar`` reads: each row of the
file, by its column ``tipo``, as an act of the form it would be in lavra, in that
form's own shape, so that the effects each law declares (``fretamento.estado``,
``transporte_escolar.estado``) apply to it unchanged.

- The licences in force: Alvará de Licença de Circulação (Lei nº 4.419/2006, art. 8º),
  the private-service alvará (art. 12), the school alvará (Lei nº 4.515/2007, art. 3º).
- The history whose bars still run: the cassação of fretamento alvarás (art. 22, its
  parágrafo único's bar, to the last day the decision set); the transfer of a school
  licence (art. 15, § 2º: 3 years from it); the autos of both laws that count for
  repeat offences and for revogação, with their payment.

A row's fields are flat columns (the README's table); the dates are ``AAAA-MM-DD`` or
``DD/MM/AAAA``; a list (the alvarás of a cassação, the infractions of an auto) is
separated by ``;``. Every refusal names the column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from lavra.errors import InputError
from lavra.inputs.formats import (
    explain_cnh,
    explain_cnpj,
    explain_cpf,
    explain_placa,
    explain_renavam,
    normalize_placa,
)
from lavra.registry.importing import ImportedAct, ImportedPayment, ImportSpec

__all__ = ["IMPLEMENTED", "IMPORTS"]

IMPLEMENTED: tuple[str, ...] = ()
"""Reading only: the effects are each law's (``estado``), cited there."""

_NUMBER = re.compile(r"\s*(?:([A-Za-z][A-Za-z-]*)\s*)?(?:n[º°o.]*\s*)?(\d{1,6})\s*/\s*(\d{4})\s*",
                     re.IGNORECASE)
_BR_DATE = re.compile(r"(\d{2})/(\d{2})/(\d{4})")
_YES, _NO = {"sim", "s", "true", "1"}, {"não", "nao", "n", "false", "0"}

Row = Mapping[str, str]


# ------------------------------------------------------------------ reading one column
def _fail(column: str, message: str) -> InputError:
    return InputError(message, field=f"/{column}")


def _date(row: Row, column: str) -> date:
    text = row.get(column, "")
    match = _BR_DATE.fullmatch(text)
    iso = f"{match.group(3)}-{match.group(2)}-{match.group(1)}" if match else text
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", iso):
        raise _fail(column, f"data ilegível «{text}»: use AAAA-MM-DD ou DD/MM/AAAA.")
    try:
        return date.fromisoformat(iso)
    except ValueError:
        raise _fail(column, f"a data «{text}» não existe no calendário.") from None


def _optional_date(row: Row, column: str) -> date | None:
    return _date(row, column) if row.get(column) else None


def _number(row: Row, series: str) -> tuple[int, int]:
    text = row.get("numero", "")
    match = _NUMBER.fullmatch(text)
    if match is None or int(match.group(2)) == 0:
        raise _fail("numero", f"número ilegível «{text}»: use 0012/2020 ou {series} nº "
                    "0012/2020.")
    if match.group(1) and match.group(1).upper() != series:
        raise _fail("numero", f"o número «{text}» é de outra série; este tipo de ato é da "
                    f"série {series}.")
    return int(match.group(2)), int(match.group(3))


def _printed(column: str, text: str, series: str) -> str:
    match = _NUMBER.fullmatch(text)
    if match is None or int(match.group(2)) == 0:
        raise _fail(column, f"número ilegível «{text}»: use {series} nº 0012/2020.")
    if match.group(1) and match.group(1).upper() != series:
        raise _fail(column, f"«{text}» não é da série {series}.")
    return f"{series} nº {int(match.group(2)):04d}/{match.group(3)}"


def _checked(row: Row, column: str, explain: Callable[[str], str | None]) -> str:
    value = row.get(column, "")
    problem = explain(value)
    if problem is not None:
        raise _fail(column, f"«{value}»: {problem}")
    return value


def _party(row: Row, doc: str, name: str, *, company: bool) -> dict[str, str]:
    if company:
        return {"cnpj": _checked(row, doc, explain_cnpj), "razao_social": row[name]}
    return {"cpf": _checked(row, doc, explain_cpf), "nome": row[name]}


def _vehicle(row: Row) -> dict[str, str]:
    found = {"placa": normalize_placa(_checked(row, "placa", explain_placa))}
    if row.get("renavam"):
        found["renavam"] = _checked(row, "renavam", explain_renavam)
    return found


def _cnh(row: Row, column: str) -> dict[str, str]:
    return {"numero": _checked(row, column, explain_cnh)}


def _list(row: Row, column: str) -> list[str]:
    return [item.strip() for item in row.get(column, "").split(";") if item.strip()]


def _processo(row: Row) -> dict[str, Any]:
    return {"numero": row["processo"]} if row.get("processo") else {}


def _validity(row: Row, issued: date) -> dict[str, str]:
    start = _optional_date(row, "inicio_vigencia") or issued
    until = _date(row, "valido_ate")
    if until < start:
        raise _fail("valido_ate", f"a validade ({until:%d/%m/%Y}) termina antes do início "
                    f"da vigência ({start:%d/%m/%Y}).")
    return {"inicio_vigencia": start.isoformat(), "valido_ate": until.isoformat()}


def _act(form: str, series: str, row: Row, data: Mapping[str, Any], on: date,
         computed: Mapping[str, Any] | None = None, **extra: Any) -> ImportedAct:
    number, year = _number(row, series)
    return ImportedAct(form=form, series=series, number=number, year=year, data=data,
                       computed={"numero": f"{number:04d}/{year}", **(computed or {})},
                       reference_date=on, **extra)


# ------------------------------------------------------------------ the kinds of row
def _alvara_fretamento(row: Row) -> ImportedAct:
    """Lei nº 4.419/2006, art. 8º: the alvará, to the company, for the vehicle."""
    on = _date(row, "data")
    data = {"empresa": _party(row, "cpf_cnpj", "nome", company=True), "veiculo": _vehicle(row),
            "processo": {**_processo(row), "renovacao": False}, "data_expedicao": on.isoformat()}
    return _act("alvara-fretamento", "ALV-FRET", row, data, on, _validity(row, on))


def _registro_fretamento(row: Row) -> ImportedAct:
    """Lei nº 4.419/2006, art. 2º, § 1º: the company registered at SETRANSV (no term)."""
    on = _date(row, "data")
    data = {"empresa": _party(row, "cpf_cnpj", "nome", company=True),
            "processo": _processo(row), "registro": {"data": on.isoformat()}}
    return _act("certidao-registro-fretamento", "CRE-FRET", row, data, on)


def _alvara_particular(row: Row) -> ImportedAct:
    """Lei nº 4.419/2006, art. 12: the private-service alvará, with its driver."""
    on = _date(row, "data")
    drivers = []
    if row.get("motorista_cnh"):
        for column in ("motorista_cpf", "motorista_nome"):
            if not row.get(column):
                raise _fail(column, "informe-o com a CNH do motorista.")
        drivers.append({**_party(row, "motorista_cpf", "motorista_nome", company=False),
                        "cnh": _cnh(row, "motorista_cnh")})
    data = {"empresa": _party(row, "cpf_cnpj", "nome", company=True), "veiculo": _vehicle(row),
            "motoristas": drivers, "processo": {**_processo(row), "renovacao": False},
            "data_expedicao": on.isoformat()}
    return _act("alvara-servico-particular-fretamento", "ALV-PART", row, data, on,
                _validity(row, on))


def _alvara_escolar(row: Row) -> ImportedAct:
    """Lei nº 4.515/2007, art. 3º: the alvará, to the driver (titular), for the vehicle."""
    on = _date(row, "data")
    titular = {**_party(row, "cpf_cnpj", "nome", company=False), "cnh": _cnh(row, "cnh")}
    data = {"modalidade": "expedicao", "titular": titular, "veiculo": _vehicle(row),
            "processo": _processo(row), "data_expedicao": on.isoformat()}
    return _act("alvara-transporte-escolar", "ALV-ESC", row, data, on, _validity(row, on))


def _cassacao(row: Row) -> ImportedAct:
    """Lei nº 4.419/2006, art. 22: the alvarás cassated; its parágrafo único: the bar's
    last day, as the decision set it."""
    on = _date(row, "data")
    alvaras = [_printed("alvaras", text, "ALV-FRET") for text in _list(row, "alvaras")]
    if not alvaras:
        raise _fail("alvaras", "informe os alvarás cassados, separados por «;».")
    last_day = _date(row, "impedimento_ate")
    if last_day <= on:
        raise _fail("impedimento_ate", "o último dia do impedimento deve ser posterior à "
                    "data da decisão.")
    data = {"processo": _processo(row), "empresa": _party(row, "cpf_cnpj", "nome", company=True),
            "alvaras": [{"numero": n} for n in alvaras], "decisao": {"data": on.isoformat()}}
    return _act("decisao-cassacao-fretamento", "CAS-FRET", row, data, on,
                {"impedimento": {"ultimo_dia": last_day.isoformat()}},
                cites=tuple(("alvaras", n) for n in alvaras))


def _transferencia(row: Row) -> ImportedAct:
    """Lei nº 4.515/2007, art. 15: the licence to the cessionário; § 2º bars the cedente."""
    on = _date(row, "data")
    licence = _printed("licenca", row["licenca"], "ALV-ESC")
    cessionario = {**_party(row, "cessionario_cpf", "cessionario_nome", company=False),
                   "cnh": _cnh(row, "cessionario_cnh")}
    data: dict[str, Any] = {
        "processo": _processo(row), "cedente": _party(row, "cpf_cnpj", "nome", company=False),
        "licenca": {"numero": licence}, "cessionario": cessionario}
    if row.get("placa"):
        data["veiculo"] = _vehicle(row)
    return _act("termo-transferencia-licenca", "TRF-ESC", row, data, on,
                cites=(("licenca", licence),))


def _auto(form: str, series: str, law: str, party: str, *, company: bool
          ) -> Callable[[Row], ImportedAct]:
    def build(row: Row) -> ImportedAct:
        on = _date(row, "data")
        citations = _list(row, "infracao")
        for citation in citations:
            if not re.fullmatch(rf"{re.escape(law)}#art\d+\w*", citation):
                raise _fail("infracao", f"«{citation}» não é um dispositivo da lei "
                            f"({law}#art15_inc1, por exemplo).")
        who = _party(row, "cpf_cnpj", "nome", company=company)
        vehicle = _vehicle(row)
        alvara = row.get("alvara")
        cites: tuple[tuple[str, str], ...] = ()
        if alvara:
            printed = _printed("alvara", alvara, "ALV-FRET" if company else "ALV-ESC")
            (vehicle if company else who)["alvara"] = printed
            cites = (("alvara", printed),)
        data = {"ocorrencia": {"data": on.isoformat()}, party: who, "veiculo": vehicle,
                "infracoes": [{"dispositivo": c} for c in citations]}
        return _act(form, series, row, data, on, {"data_infracao": on.isoformat()},
                    cites=cites, payments=_payment(row, on))
    build.__doc__ = f"{law}: the auto, with its infractions and its payment."
    return build


def _payment(row: Row, on: date) -> tuple[ImportedPayment, ...]:
    paid = row.get("pago", "").lower()
    if paid in _NO:
        for column in ("data_pagamento", "valor_pago"):
            if row.get(column):
                raise _fail(column, "só se informa para uma multa paga (pago: sim).")
        return ()
    if paid not in _YES:
        raise _fail("pago", f"«{row.get('pago')}»: responda sim ou não.")
    day = _date(row, "data_pagamento")
    if day < on:
        raise _fail("data_pagamento", "o pagamento é anterior à infração.")
    amount = row.get("valor_pago", "").replace(".", "").replace(",", ".") \
        if "," in row.get("valor_pago", "") else row.get("valor_pago", "")
    if not re.fullmatch(r"\d{1,9}(\.\d{1,2})?", amount) or float(amount) <= 0:
        raise _fail("valor_pago", f"valor ilegível «{row.get('valor_pago')}» (ex.: 140,00).")
    return (ImportedPayment(day, f"{float(amount):.2f}"),)


# ------------------------------------------------------------------ the columns
_COMMON = {"numero": "número do ato (0012/2020, ou com a série: ALV-FRET nº 0012/2020)",
           "data": "data do ato (expedição, decisão, transferência ou infração)",
           "processo": "número do processo administrativo (opcional)"}
_LICENCE = {**_COMMON, "inicio_vigencia": "primeiro dia de validade (padrão: a data)",
            "valido_ate": "último dia de validade", "placa": "placa do veículo",
            "renavam": "RENAVAM do veículo (opcional)"}
_COMPANY = {"cpf_cnpj": "CNPJ da empresa", "nome": "razão social da empresa"}
_PERSON = {"cpf_cnpj": "CPF do titular", "nome": "nome do titular"}
_AUTO = {**_COMMON, "placa": "placa do veículo",
         "infracao": "dispositivos infringidos, separados por «;»",
         "alvara": "alvará do veículo (opcional; deve constar do cadastro)",
         "pago": "multa paga: sim ou não", "data_pagamento": "data do pagamento (se paga)",
         "valor_pago": "valor pago, em reais (se paga)"}
_BASE = frozenset({"numero", "data", "cpf_cnpj", "nome"})


def _spec(description: str, columns: Mapping[str, str], required: set[str],
          build: Callable[[Row], ImportedAct]) -> ImportSpec:
    return ImportSpec(description, dict(columns), _BASE | required, build)


IMPORTS: Mapping[str, ImportSpec] = {
    "alvara-fretamento": _spec(
        "Alvará de Licença de Circulação em vigor (fretamento, art. 8º)",
        {**_LICENCE, **_COMPANY}, {"valido_ate", "placa"}, _alvara_fretamento),
    "registro-fretamento": _spec(
        "Registro da empresa na SETRANSV (fretamento, art. 2º, § 1º), sem prazo de validade",
        {**_COMMON, **_COMPANY}, set(), _registro_fretamento),
    "alvara-particular": _spec(
        "Alvará de serviço particular de fretamento em vigor (art. 12)",
        {**_LICENCE, **_COMPANY, "motorista_cpf": "CPF do motorista (opcional)",
         "motorista_nome": "nome do motorista", "motorista_cnh": "CNH do motorista"},
        {"valido_ate", "placa"}, _alvara_particular),
    "alvara-escolar": _spec(
        "Alvará de transporte escolar em vigor (escolar, art. 3º)",
        {**_LICENCE, **_PERSON, "cnh": "CNH do titular"}, {"valido_ate", "placa", "cnh"},
        _alvara_escolar),
    "cassacao-fretamento": _spec(
        "Cassação de alvarás de fretamento dos últimos 12 meses (art. 22)",
        {**_COMMON, **_COMPANY, "alvaras": "alvarás cassados, separados por «;»",
         "impedimento_ate": "último dia do impedimento (art. 22, parágrafo único)"},
        {"alvaras", "impedimento_ate"}, _cassacao),
    "transferencia-escolar": _spec(
        "Transferência de licença escolar dos últimos 3 anos (art. 15, § 2º)",
        {**_COMMON, "cpf_cnpj": "CPF do cedente", "nome": "nome do cedente",
         "licenca": "alvará transferido (ALV-ESC nº ...)",
         "cessionario_cpf": "CPF do cessionário", "cessionario_nome": "nome do cessionário",
         "cessionario_cnh": "CNH do cessionário", "placa": "placa do veículo (opcional)",
         "renavam": "RENAVAM do veículo (opcional)"},
        {"licenca", "cessionario_cpf", "cessionario_nome", "cessionario_cnh"}, _transferencia),
    "auto-fretamento": _spec(
        "Auto de infração de fretamento (arts. 14 a 18)", {**_AUTO, **_COMPANY},
        {"placa", "infracao", "pago"},
        _auto("auto-infracao-fretamento", "AIF-FRET", "fretamento", "empresa", company=True)),
    "auto-escolar": _spec(
        "Auto de infração de transporte escolar (art. 21)",
        {**_AUTO, "cpf_cnpj": "CPF do condutor", "nome": "nome do condutor"},
        {"placa", "infracao", "pago"},
        _auto("auto-infracao-escolar", "AIE-ESC", "transporte-escolar", "condutor",
              company=False)),
}
"""The kinds of row, by the value of the column ``tipo``."""
