"""The acts from before lavra that ``lavra cadastro importar`` reads: each row of the
file, by its column ``tipo``, as an act of the form it would be in lavra, in that
form's own shape, so that the effects each law declares (``fretamento.estado``,
``transporte_escolar.estado``) apply to it unchanged.

- The licences in force: Alvará de Licença de Circulação (Lei nº 4.419/2006, art. 8º),
  the private-service alvará (art. 12), the school alvará (Lei nº 4.515/2007, art. 3º).
- The licences resting on an alvará (each attached to it, refused when the registry or
  an earlier line lacks it or holds it ended, and ended with it): the selo (escolar
  art. 3º, § 2º), the auxiliary driver's alvará (art. 9º), the publicity authorisation
  (art. 18), the temporary licence (art. 5º), and the authorisation to use a third
  party's vehicle (fretamento art. 10, § 3º). The special licence (escolar art. 4º)
  rests on the other municipality's alvará, which the registry does not hold: it is
  imported alone.
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
from lavra.registry.importing import ImportedAct, ImportedPayment, ImportSpec, RestsOn

__all__ = ["IMPLEMENTED", "IMPORTS"]

IMPLEMENTED: tuple[str, ...] = ()
"""Reading only: the effects are each law's (``estado``), cited there."""

_NUMBER = re.compile(r"\s*(?:([A-Za-z][A-Za-z-]*)\s*)?(?:n[º°o.]*\s*)?(\d{1,6})\s*/\s*(\d{4})\s*",
                     re.IGNORECASE)
_BR_DATE = re.compile(r"(\d{2})/(\d{2})/(\d{4})")
_YES, _NO = {"sim", "s", "true", "1"}, {"não", "nao", "n", "false", "0"}
_NAME_LIMIT = 200
"""The longest name the forms' schemas accept (``nome``, ``razao_social``)."""

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


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _name(row: Row, column: str) -> str:
    text = " ".join(row.get(column, "").split())
    if len(text) < 3 or len(text) > _NAME_LIMIT:
        raise _fail(column, f"o nome deve ter de 3 a {_NAME_LIMIT} caracteres (tem "
                    f"{len(text)}).")
    return text


def _party(row: Row, doc: str, name: str, *, company: bool) -> dict[str, str]:
    if company:
        return {"cnpj": _checked(row, doc, explain_cnpj), "razao_social": _name(row, name)}
    return {"cpf": _checked(row, doc, explain_cpf), "nome": _name(row, name)}


def _vehicle(row: Row, prefix: str = "") -> dict[str, str]:
    found = {"placa": normalize_placa(_checked(row, f"{prefix}placa", explain_placa))}
    if row.get(f"{prefix}renavam"):
        found["renavam"] = _checked(row, f"{prefix}renavam", explain_renavam)
    return found


def _cnh(row: Row, column: str) -> dict[str, str]:
    return {"numero": _checked(row, column, explain_cnh)}


def _list(row: Row, column: str) -> list[str]:
    return [item.strip() for item in row.get(column, "").split(";") if item.strip()]


def _processo(row: Row) -> dict[str, Any]:
    numero = row.get("processo", "")
    if len(numero) > 40:
        raise _fail("processo", f"o número do processo tem {len(numero)} caracteres; o "
                    "máximo é 40.")
    return {"numero": numero} if numero else {}


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
    data: dict[str, Any] = {"modalidade": "expedicao", "titular": titular,
                            "veiculo": _vehicle(row), "processo": _processo(row),
                            "data_expedicao": on.isoformat()}
    _licence_facts(row, data)
    return _act("alvara-transporte-escolar", "ALV-ESC", row, data, on, _validity(row, on))


_VEHICLE_TYPES = {"microonibus": "microonibus", "micro-onibus": "microonibus",
                  "micro-ônibus": "microonibus", "microônibus": "microonibus",
                  "outro": "outro"}


def _short(row: Row, column: str, limit: int = 40) -> str:
    text = " ".join(row.get(column, "").split())
    if len(text) > limit:
        raise _fail(column, f"tem {len(text)} caracteres; o máximo é {limit}.")
    return text


def _licence_facts(row: Row, data: dict[str, Any]) -> None:
    """The optional columns of a school alvará: facts of the licence that the renewal
    request does not give and the renewed alvará prints, kept with the imported act so
    that the renewal run reads them (``renovacao_lote``). The prontuário and the
    inscription in the Cadastro de Atividades are the conductor's (art. 8º, § 2º: the
    alvará is furnished, after that inscription, "com o número de seu prontuário"); the
    vehicle's type (art. 1º, § 1º: microônibus) and the municipality where it is
    licensed (art. 17, II) are the licensed vehicle's, as its CRLV reads. Left blank,
    the renewed alvará lacks them and the run refuses it before numbering, naming them
    (reading chosen: the import keeps what the old file knew, and invents nothing)."""
    if row.get("prontuario"):
        data["prontuario"] = _short(row, "prontuario")
    if row.get("cadastro_atividades"):
        data["titular"]["cadastro_atividades"] = _short(row, "cadastro_atividades")
    _vehicle_facts(row, data["veiculo"])


def _vehicle_facts(row: Row, vehicle: dict[str, Any]) -> None:
    """The vehicle's type and licensing municipality, when the row gives them."""
    kind = row.get("tipo_veiculo", "").strip().casefold()
    if kind:
        if kind not in _VEHICLE_TYPES:
            raise _fail("tipo_veiculo", f"«{row['tipo_veiculo']}»: use microonibus ou outro.")
        vehicle["tipo"] = _VEHICLE_TYPES[kind]
    if row.get("municipio_licenciamento"):
        vehicle["municipio_licenciamento"] = _short(row, "municipio_licenciamento", 80)


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
    if row.get("placa"):  # the termo's vehicle; another one's facts replace the alvará's
        data["veiculo"] = _vehicle(row)
        _vehicle_facts(row, data["veiculo"])
    return _act("termo-transferencia-licenca", "TRF-ESC", row, data, on,
                cites=(("licenca", licence),))


# ------------------------------------------------------------------ resting on an alvará
def _base(row: Row, series: str, *, holder: bool = True, vehicle: bool = True,
          within: bool = False) -> tuple[str, RestsOn]:
    """The alvará (column ``alvara``) the act rests on, with the holder (``cpf_cnpj``) and
    the vehicle (``placa``) that must be its own in the registry."""
    printed = _printed("alvara", row.get("alvara", ""), series)
    return printed, RestsOn(
        "alvara", printed, holder=("cpf_cnpj", row["cpf_cnpj"]) if holder else None,
        vehicle=("placa", row["placa"]) if vehicle else None, within=within)


def _titular(row: Row) -> dict[str, str]:
    return _party(row, "cpf_cnpj", "nome", company=False)


def _selo(row: Row) -> ImportedAct:
    """Lei nº 4.515/2007, art. 3º, § 2º: the selo of the alvará, for its vehicle; it
    ends with the alvará (its validity may not pass the alvará's: ``selo`` gives it the
    alvará's vencimento)."""
    on = _date(row, "data")
    alvara, rests = _base(row, "ALV-ESC", within=True)
    data = {"alvara": {"numero": alvara}, "titular": _titular(row), "veiculo": _vehicle(row),
            "data_expedicao": on.isoformat()}
    return _act("selo-identificacao", "SELO-ESC", row, data, on, _validity(row, on),
                rests_on=rests)


def _auxiliar(row: Row) -> ImportedAct:
    """Lei nº 4.515/2007, art. 9º: the auxiliary driver's alvará, on the titular's
    alvará and vehicle (§ 3º). The reading of ``alvara_auxiliar``: it never runs past the
    titular's alvará, "ao qual se vincula"."""
    on = _date(row, "data")
    alvara, rests = _base(row, "ALV-ESC", within=True)
    person = _party(row, "auxiliar_cpf", "auxiliar_nome", company=False)
    if _digits(person["cpf"]) == _digits(row["cpf_cnpj"]):
        raise _fail("auxiliar_cpf", "o condutor auxiliar não pode ser o próprio titular.")
    data = {"processo": _processo(row), "titular": _titular(row),
            "alvara_titular": {"numero": alvara}, "veiculo": _vehicle(row),
            "auxiliar": {**person, "cnh": _cnh(row, "auxiliar_cnh")},
            "data_expedicao": on.isoformat()}
    return _act("alvara-condutor-auxiliar", "ALV-AUX", row, data, on, _validity(row, on),
                rests_on=rests)


def _publicidade(row: Row) -> ImportedAct:
    """Lei nº 4.515/2007, art. 18: the publicity authorisation, on the alvará's vehicle."""
    on = _date(row, "data")
    alvara, rests = _base(row, "ALV-ESC")
    data = {"processo": _processo(row), "titular": _titular(row), "alvara": {"numero": alvara},
            "veiculo": _vehicle(row), "data_expedicao": on.isoformat()}
    return _act("autorizacao-publicidade-escolar", "APE-ESC", row, data, on,
                _validity(row, on), rests_on=rests)


_MODALIDADES = {"veiculo_substituto": "veiculo_substituto_placa",
                "condutor_saude": "condutor_cpf"}


def _temporaria(row: Row) -> ImportedAct:
    """Lei nº 4.515/2007, art. 5º: the temporary licence on the alvará: for a substitute
    vehicle (with its driver), or for a substitute driver while the titular is ill. It
    ends no later than the alvará, as ``licenca_temporaria`` computes it."""
    on = _date(row, "data")
    modalidade = row.get("modalidade", "")
    if modalidade not in _MODALIDADES:
        raise _fail("modalidade", f"«{modalidade}»: use veiculo_substituto ou "
                    "condutor_saude.")
    if not row.get(_MODALIDADES[modalidade]):
        raise _fail(_MODALIDADES[modalidade], f"obrigatório na modalidade {modalidade}.")
    alvara, rests = _base(row, "ALV-ESC", within=True)
    data: dict[str, Any] = {
        "modalidade": modalidade, "processo": _processo(row), "titular": _titular(row),
        "alvara": {"numero": alvara}, "veiculo": _vehicle(row),
        "data_expedicao": on.isoformat()}
    if row.get("veiculo_substituto_placa"):
        data["veiculo_substituto"] = _vehicle(row, "veiculo_substituto_")
    if row.get("condutor_cpf"):
        condutor = {**_party(row, "condutor_cpf", "condutor_nome", company=False),
                    "cnh": _cnh(row, "condutor_cnh")}
        data["condutor_veiculo_substituto" if modalidade == "veiculo_substituto"
             else "condutor_substituto"] = condutor
    return _act("licenca-temporaria-escolar", "LTE-ESC", row, data, on, _validity(row, on),
                rests_on=rests)


def _especial(row: Row) -> ImportedAct:
    """Lei nº 4.515/2007, art. 4º: the special licence of a vehicle licensed in another
    municipality; it rests on that municipality's alvará, which this registry does not
    hold (its number is kept as typed)."""
    on = _date(row, "data")
    requerente = {**_titular(row), "cnh": _cnh(row, "cnh")}
    data: dict[str, Any] = {"processo": _processo(row), "requerente": requerente,
                            "veiculo": _vehicle(row), "data_expedicao": on.isoformat()}
    if row.get("municipio_origem"):
        data["municipio_origem"] = {"nome": _name(row, "municipio_origem")}
    return _act("licenca-especial-escolar", "LEE-ESC", row, data, on, _validity(row, on))


def _veiculo_terceiro(row: Row) -> ImportedAct:
    """Lei nº 4.419/2006, art. 10, § 3º: the company's use of a third party's vehicle,
    on the company's alvará (the vehicle is the cedente's, not the alvará's)."""
    on = _date(row, "data")
    alvara, rests = _base(row, "ALV-FRET", vehicle=False)
    empresa = {**_party(row, "cpf_cnpj", "nome", company=True), "alvara": {"numero": alvara}}
    cedente = _party(row, "cedente_cnpj", "cedente_nome", company=True)
    if _digits(cedente["cnpj"]) == _digits(row["cpf_cnpj"]):
        raise _fail("cedente_cnpj", "o cedente do veículo não pode ser a própria empresa.")
    data = {"processo": _processo(row), "empresa": empresa, "cedente": cedente,
            "veiculo": _vehicle(row), "data": on.isoformat()}
    return _act("autorizacao-veiculo-terceiro", "AVT-FRET", row, data, on, _validity(row, on),
                rests_on=rests)


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
    return (ImportedPayment(day, f"{float(amount):.2f}", "data_pagamento"),)


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
_ACCESSORY = {**_LICENCE, **_PERSON, "alvara": "alvará do titular (ALV-ESC nº ...), em vigor "
              "no cadastro", "placa": "placa do veículo do alvará"}
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
        {**_LICENCE, **_PERSON, "cnh": "CNH do titular",
         "prontuario": "número do prontuário do condutor (opcional; art. 8º, § 2º)",
         "cadastro_atividades": "inscrição do titular no Cadastro de Atividades do "
         "Município (opcional)",
         "tipo_veiculo": "tipo do veículo no CRLV: microonibus ou outro (opcional)",
         "municipio_licenciamento": "município de licenciamento do veículo (opcional)"},
        {"valido_ate", "placa", "cnh"}, _alvara_escolar),
    "autorizacao-veiculo-terceiro": _spec(
        "Autorização de uso de veículo de terceiro em vigor (fretamento, art. 10, § 3º), "
        "vinculada ao alvará da empresa",
        {**_LICENCE, **_COMPANY, "alvara": "Alvará de Licença de Circulação da empresa "
         "(ALV-FRET nº ...), em vigor no cadastro", "placa": "placa do veículo do cedente",
         "cedente_cnpj": "CNPJ do cedente do veículo", "cedente_nome": "razão social do cedente"},
        {"valido_ate", "placa", "alvara", "cedente_cnpj", "cedente_nome"}, _veiculo_terceiro),
    "alvara-auxiliar": _spec(
        "Alvará de condutor auxiliar em vigor (escolar, art. 9º), vinculado ao alvará do "
        "titular", {**_ACCESSORY, "auxiliar_cpf": "CPF do condutor auxiliar",
                    "auxiliar_nome": "nome do condutor auxiliar",
                    "auxiliar_cnh": "CNH do condutor auxiliar"},
        {"valido_ate", "placa", "alvara", "auxiliar_cpf", "auxiliar_nome", "auxiliar_cnh"},
        _auxiliar),
    "selo-escolar": _spec(
        "Selo de identificação em vigor (escolar, art. 3º, § 2º), vinculado ao alvará",
        _ACCESSORY, {"valido_ate", "placa", "alvara"}, _selo),
    "autorizacao-publicidade": _spec(
        "Autorização de publicidade em vigor (escolar, art. 18), vinculada ao alvará",
        _ACCESSORY, {"valido_ate", "placa", "alvara"}, _publicidade),
    "licenca-temporaria": _spec(
        "Licença temporária em vigor (escolar, art. 5º), vinculada ao alvará",
        {**_ACCESSORY, "modalidade": "veiculo_substituto ou condutor_saude",
         "veiculo_substituto_placa": "placa do veículo substituto",
         "veiculo_substituto_renavam": "RENAVAM do veículo substituto (opcional)",
         "condutor_cpf": "CPF do condutor do veículo substituto, ou do condutor substituto",
         "condutor_nome": "nome desse condutor", "condutor_cnh": "CNH desse condutor"},
        {"valido_ate", "placa", "alvara", "modalidade"}, _temporaria),
    "licenca-especial": _spec(
        "Licença especial em vigor (escolar, art. 4º) de veículo licenciado em outro "
        "município", {**_LICENCE, **_PERSON, "cnh": "CNH do requerente",
                      "municipio_origem": "município que licenciou o veículo (opcional)"},
        {"valido_ate", "placa", "cnh"}, _especial),
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
         "renavam": "RENAVAM do veículo (opcional)",
         "tipo_veiculo": "tipo do veículo, se outro: microonibus ou outro (opcional)",
         "municipio_licenciamento": "município de licenciamento do veículo, se outro "
         "(opcional)"},
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
