"""What the renewal runs take from the licensing state and how they word a refusal
(issue 22): the holder and vehicle the state holds replace the act's, what belonged to
the former holder is not carried; a complete request completes an imported alvará; a
refused row names the field, then the problem. Pure functions: no registry, no clock."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.registry.licensing import LicenceView
from lavra_americana.comum import lote
from lavra_americana.comum.lote import HolderFields, as_held, unissuable
from lavra_americana.transporte_escolar.renovacao_lote import HOLDER, renewed_alvara

CEDENTE = {"nome": "Pedro Exemplo Cedente", "cpf": "043.048.184-57",
           "cnh": {"numero": "97297271182"}, "endereco": {"logradouro": "Rua A"}}


def _view(printed: str, holder: str, name: str, placa: str) -> LicenceView:
    return LicenceView(printed=printed, kind="alvara-transporte-escolar", status="active",
                       status_act=None, status_since=None, valid_from=date(2023, 3, 10),
                       valid_until=date(2027, 12, 31), holder=holder, holder_name=name,
                       placa=placa)


def _granted(view: LicenceView, document_id: int) -> Any:
    """``active_licences_of`` of a registry where act ``document_id`` granted ``view``
    (and no other act granted anything)."""
    def licences_of(registry: Any, kind: str, ids: Any) -> tuple[LicenceView, ...]:
        return (view,) if document_id in set(ids) and view.kind == kind else ()
    return patch.object(lote, "active_licences_of", licences_of)


def _held(data: dict[str, Any], view: LicenceView) -> tuple[str, dict[str, Any]]:
    record = SimpleNamespace(id=19, printed="ALV-ESC nº 0019/2023", cpf_cnpj="04304818457",
                             valid_until=date(2027, 12, 31), data=data)
    context = SimpleNamespace(registry=SimpleNamespace())
    with _granted(view, 19):  # the licence the act granted
        [(_, document, held)] = as_held(context, "alvara-transporte-escolar",  # type: ignore[arg-type]
                                        [record], HOLDER)  # type: ignore[list-item]
    return document, held


def test_a_transferred_licence_is_the_cessionarios_with_nothing_of_the_cedente() -> None:
    data = {"prontuario": "TE-0019", "titular": CEDENTE,
            "veiculo": {"placa": "ESC5E55", "renavam": "12345678900"}}
    document, held = _held(data, _view("ALV-ESC nº 0019/2023", "62614722464",
                                       "Marta Exemplo Cessionária", "ESC5E55"))
    assert document == "62614722464"
    assert held["titular"] == {"cpf": "626.147.224-64", "nome": "Marta Exemplo Cessionária"}
    assert "prontuario" not in held  # the cedente's own (art. 8º, § 2º)
    assert held["veiculo"] == data["veiculo"]  # the same vehicle: its data kept
    assert data["titular"] is CEDENTE and data["prontuario"] == "TE-0019"  # not mutated


def test_a_substituted_vehicle_is_the_one_the_state_holds() -> None:
    data = {"prontuario": "TE-0019", "titular": CEDENTE,
            "veiculo": {"placa": "ESC5E55", "renavam": "12345678900"}}
    document, held = _held(data, _view("ALV-ESC nº 0019/2023", "04304818457",
                                       "Pedro Exemplo Cedente", "ESC9Z99"))
    assert document == "04304818457" and held["prontuario"] == "TE-0019"
    assert held["titular"]["cnh"] == CEDENTE["cnh"]  # the same holder keeps his data
    assert held["veiculo"] == {"placa": "ESC9Z99"}  # nothing of the replaced vehicle
    # the plate in its old form (the state's) is still the act's Mercosul one
    _, same = _held(data, _view("ALV-ESC nº 0019/2023", "04304818457", "Pedro", "ESC5455"))
    assert same["veiculo"] == data["veiculo"]


def test_the_company_of_a_fretamento_alvara_is_read_the_same_way() -> None:
    data = {"empresa": {"cnpj": "65.563.842/0001-05", "razao_social": "Viação Antiga"},
            "veiculo": {"placa": "FRE1A11"}}
    record = SimpleNamespace(id=31, printed="ALV-FRET nº 0031/2024", cpf_cnpj="65563842000105",
                             valid_until=date(2029, 2, 9), data=data)
    view = replace(_view("ALV-FRET nº 0031/2024", "65563842000105", "Viação Exemplo Ltda.",
                         "FRE1A11"), kind="alvara-fretamento")
    context = SimpleNamespace(registry=SimpleNamespace())
    with _granted(view, 31):
        [(_, document, held)] = as_held(context, "alvara-fretamento", [record],  # type: ignore[arg-type,list-item]
                                        HolderFields("/empresa", "cnpj", "razao_social"))
    assert document == "65563842000105"
    assert held["empresa"] == {"cnpj": "65.563.842/0001-05",
                               "razao_social": "Viação Exemplo Ltda."}  # last name


def test_a_complete_request_completes_an_imported_alvara() -> None:
    imported = {"modalidade": "expedicao", "titular": {"nome": "José", "cpf": "529.982.247-25",
                                                       "cnh": {"numero": "85263635330"}},
                "veiculo": {"placa": "ESC4D44"}, "processo": {"numero": "PA 2.468/2023"}}
    req = {"data_requerimento": "2027-11-20",
           "requerente": {"nome": "José", "cpf": "529.982.247-25", "prontuario": "TE-0018",
                          "endereco": {"logradouro": "Rua B"}},
           "veiculo": {"placa": "ESC-4D44", "renavam": "98765432100", "ano_fabricacao": 2020}}
    data = renewed_alvara(imported, "ALV-ESC nº 0018/2023", date(2027, 12, 31),
                          {"requerimento": req}, date(2027, 12, 15))
    assert data["prontuario"] == "TE-0018"
    assert data["titular"]["endereco"] == {"logradouro": "Rua B"}
    assert data["veiculo"] == {"placa": "ESC4D44", "renavam": "98765432100",
                               "ano_fabricacao": 2020}
    # what the registry holds is never overwritten; another vehicle's data never taken
    held = {**imported, "prontuario": "TE-1", "veiculo": {"placa": "ESC4D44", "renavam": "1"}}
    other = {**req, "veiculo": {"placa": "XYZ1A23", "marca_modelo": "Outro"}}
    data = renewed_alvara(held, "ALV-ESC nº 0018/2023", date(2027, 12, 31),
                          {"requerimento": other}, date(2027, 12, 15))
    assert data["prontuario"] == "TE-1" and data["veiculo"] == {"placa": "ESC4D44",
                                                                 "renavam": "1"}


def test_a_refusal_names_the_field_then_the_problem() -> None:
    items = [
        Item("destinatario.prontuario", Status.INVALID, "/destinatario/prontuario",
             "Titular do alvará › Número do prontuário: Deve ser um texto."),
        Item("titular.cpf", Status.MISSING, "/titular/cpf", "Não informado: Titular › CPF."),
        Item("data", Status.INVALID, "/data_notificacao",
             "A notificação é posterior ao último dia: nada a regularizar."),
    ]
    reason = unissuable("Notificação", "José", "ALV-ESC nº 0018/2023", items) or ""
    assert ("não pode ser emitido: campo «Titular do alvará › Número do prontuário»: deve "
            "ser um texto; campo «Titular › CPF»: não informado; A notificação é posterior "
            "ao último dia: nada a regularizar. Nenhum número") in reason
    assert "/data_notificacao" not in reason and "/destinatario" not in reason


def test_a_notice_without_a_prontuario_is_complete_and_reads_well(engine: Engine) -> None:
    """An imported alvará has no prontuário: the notice of art. 13 goes without it (the
    CPF and the alvará identify the holder), printing none rather than a blank."""
    from formcases import example, pdf_text

    form = "notificacao-pendencias-renovacao"
    data = example(engine, form)
    del data["destinatario"]["prontuario"]
    on = date.fromisoformat(data["data_notificacao"])
    assert engine.prepare(form, data, on).report.complete
    text = pdf_text(engine.draft(form, data, on).pdf)
    assert "CPF nº 529.982.247-25, titular" in text and "prontuário" not in text
