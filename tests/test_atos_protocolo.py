"""«Preparar ato» of the requerimentos besides the alvarás (issue 26): the act that grants
each, with the request's and the registry's data carried, its completeness report
listing only what the staff add on the draft (the servant's verification, the fee, the
signatures, the conferência of an alvará the registry lacks)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from historycases import FakeHistory, registered

from lavra.checking.computations import History
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.filedacts import ActSource, FiledRequest
from lavra.registry.licensing import LicenceView
from lavra_americana.comum import protocolos

ON = date(2026, 12, 3)
CPF, CNPJ = "52998224725", "65563842000105"
ESC = LicenceView("ALV-ESC nº 0007/2026", "alvara-transporte-escolar", "em_vigor", None,
                  None, date(2026, 1, 1), date(2026, 12, 31), CPF,
                  "José Exemplo dos Santos", "EXE1A23")
FRET = LicenceView("ALV-FRET nº 0012/2025", "alvara-fretamento", "em_vigor", None, None,
                   date(2025, 3, 10), date(2030, 3, 9), CNPJ,
                   "Viação Exemplo de Fretamento Ltda.", "ABC1D23")


def _request(pack_dir: Path, form: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (pack_dir / "forms" / form / "exemplo.json").read_text(encoding="utf-8"))
    return data


def _prepared(pack_dir: Path, form: str, licence: LicenceView | None, cpf_cnpj: str,
              on: date = ON) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The granting choice's act form, the request and the act's data, as «Preparar
    ato» builds them for a filing of ``form`` (its PA linked)."""
    request = _request(pack_dir, form)
    filed = FiledRequest(protocol="PROT nº 0009/2026", processo="PA 4.321/2026", form=form,
                         data=request, cpf_cnpj=cpf_cnpj, name="Requerente",
                         filed_on=date(2026, 11, 20),
                         licence=None if licence is None else licence.printed)
    (grant, refusal) = protocolos.ATOS[form]
    assert not grant.refusal and refusal.form == "decisao-indeferimento"
    return grant.form, request, grant.build(ActSource(filed, licence, None, on))


def _pending(engine: Engine, form: str, data: dict[str, Any], on: date = ON,
             history: History | None = None) -> set[str]:
    return {item.field for item in engine.check(form, data, on, history=history).pending}


def test_every_requerimento_filed_online_is_offered_the_act_that_grants_it() -> None:
    grants = {form: [c.form for c in choices if not c.refusal]
              for form, choices in protocolos.ATOS.items()}
    assert grants == {
        "requerimento-alvara-fretamento": ["alvara-fretamento"],
        "requerimento-renovacao-alvara-fretamento": ["alvara-fretamento"],
        "requerimento-renovacao-escolar": ["alvara-transporte-escolar"],
        "requerimento-licenca-publicidade": ["autorizacao-publicidade-escolar"],
        "requerimento-transferencia-licenca": ["termo-transferencia-licenca"],
        "requerimento-troca-veiculo-escolar": ["termo-substituicao-veiculo-escolar"],
        "requerimento-licenca-especial-intermunicipal": ["licenca-especial-escolar"],
        "requerimento-autorizacao-alteracao-veiculo": ["autorizacao-previa-alteracao-veiculo"],
        "requerimento-autorizacao-veiculo-terceiro": ["autorizacao-veiculo-terceiro"],
        # granted by the classification of every inscrição together (protocolos)
        "requerimento-inscricao-escolar": [],
    }


def test_publicity_authorisation(engine: Engine, pack_dir: Path) -> None:
    """transporte-escolar#art17_par2: the servant verifies the content and the CONTRAN
    resolution on the draft; everything else comes from the request and the registry."""
    form, req, act = _prepared(pack_dir, "requerimento-licenca-publicidade", ESC, CPF)
    assert form == "autorizacao-publicidade-escolar"
    assert act["processo"] == {"numero": "PA 4.321/2026"}
    assert act["alvara"] == {"numero": "ALV-ESC 0007/2026", "valido_ate": "2026-12-31"}
    assert act["titular"] == {k: req["requerente"][k] for k in ("nome", "cpf", "prontuario")}
    assert act["veiculo"] == req["veiculo"] and act["anunciante"] == req["anunciante"]
    assert act["requerimento"] == {"data": "2026-05-04", "protocolo": "PROT nº 0009/2026"}
    assert act["publicidade"]["dimensoes"] == {"largura_cm": 80, "altura_cm": 30}
    assert act["croqui"] == req["documentos"]["croqui"]
    assert act["data_expedicao"] == "2026-12-03"
    assert _pending(engine, form, act) == {"/publicidade/resolucao_contran_atendida",
                                           "/verificacao_conteudo"}


def test_transfer_of_the_licence(engine: Engine, pack_dir: Path) -> None:
    """transporte-escolar#art15: the fee and the signatures are the staff's."""
    form, req, act = _prepared(pack_dir, "requerimento-transferencia-licenca", ESC, CPF)
    assert form == "termo-transferencia-licenca"
    assert act["processo"] == {"numero": "PA 4.321/2026", "data_requerimento": "2026-11-16"}
    assert act["licenca"] == {**req["licenca"], "valido_ate": "2026-12-31"}
    for key in ("cedente", "cessionario", "veiculo", "documentos_cessionario", "edital"):
        assert act[key] == req[key]
    assert act["data_termo"] == "2026-12-03" and "data_requerimento" not in act
    assert _pending(engine, form, act) == {"/assinaturas", "/taxa"}


def test_change_of_vehicle(engine: Engine, pack_dir: Path) -> None:
    """transporte-escolar#art17_par1: the whole request, the alvará as the registry
    prints it; over a registry holding it the draft is complete."""
    form, req, act = _prepared(pack_dir, "requerimento-troca-veiculo-escolar", ESC, CPF)
    assert form == "termo-substituicao-veiculo-escolar"
    assert act["alvara"] == {"numero": "ALV-ESC nº 0007/2026"}
    for key in ("requerente", "veiculo_substituido", "veiculo_novo", "documentos"):
        assert act[key] == req[key]
    assert act["protocolo_requerimento"] == "PROT nº 0009/2026"
    assert (act["data_requerimento"], act["data_expedicao"]) == ("2026-05-11", "2026-12-03")
    history = FakeHistory(registered("alvara-transporte-escolar", "0007/2026",
                                     date(2026, 1, 1), date(2026, 12, 31), "EXE1A23"))
    assert _pending(engine, form, act, history=history) == set()


def test_licenca_especial(engine: Engine, pack_dir: Path) -> None:
    """transporte-escolar#art20: complete from the request alone."""
    form, req, act = _prepared(pack_dir, "requerimento-licenca-especial-intermunicipal",
                               None, "11144477735")
    assert form == "licenca-especial-escolar"
    assert act["processo"] == {"numero": "PA 4.321/2026", "data_requerimento": "2026-01-26"}
    assert act["municipio_origem"] == {k: req["municipio_origem"][k]
                                       for k in ("nome", "uf", "alvara_numero")}
    for key in ("veiculo", "documentos", "estudantes"):
        assert act[key] == req[key]
    assert "email" not in act["requerente"]
    assert _pending(engine, form, act) == set()


def test_alteration_of_the_vehicle(engine: Engine, pack_dir: Path) -> None:
    """fretamento#art10_par3: without the alvará in the registry, only its conferência
    in the original is the staff's."""
    form, req, act = _prepared(pack_dir, "requerimento-autorizacao-alteracao-veiculo",
                               FRET, CNPJ)
    assert form == "autorizacao-previa-alteracao-veiculo"
    assert act["empresa"] == {k: req["requerente"][k]
                              for k in ("razao_social", "cnpj", "endereco")}
    assert act["alvara"] == {"numero": "ALV-FRET nº 0012/2025", "valido_ate": "2030-03-09"}
    assert act["veiculo"] == req["veiculo"] and act["alteracao"] == req["alteracao"]
    assert act["processo"] == {"numero": "PA 4.321/2026", "data_requerimento": "2026-11-20"}
    assert _pending(engine, form, act) == {"/alvara/conferencia"}


def test_third_party_vehicle(engine: Engine, pack_dir: Path) -> None:
    """fretamento#art10_par4: the alvarás the registry lacks are conferred by the staff."""
    on = date(2026, 11, 27)
    form, req, act = _prepared(pack_dir, "requerimento-autorizacao-veiculo-terceiro",
                               FRET, CNPJ, on)
    assert form == "autorizacao-veiculo-terceiro"
    assert act["empresa"]["alvara"] == {"numero": "ALV-FRET nº 0012/2025",
                                        "valido_ate": "2030-03-09"}
    assert act["alvara_veiculo"] == req["alvara_veiculo"]  # no registry: as filed
    assert act["inspecao_veicular"] == req["documentos"]["inspecao_veicular"]
    for key in ("cedente", "veiculo", "periodo", "motivo", "servico"):
        assert act[key] == req[key]
    assert act["data"] == "2026-11-27"
    assert _pending(engine, form, act, on) == {"/empresa/alvara/conferencia",
                                               "/alvara_veiculo/conferencia"}


@pytest.mark.parametrize(("form", "licence", "field"), [
    ("requerimento-licenca-publicidade", ESC, "/alvara/numero"),
    ("requerimento-transferencia-licenca", ESC, "/licenca/numero"),
    ("requerimento-troca-veiculo-escolar", ESC, "/alvara/numero"),
    ("requerimento-autorizacao-alteracao-veiculo", FRET, "/alvara/numero"),
    ("requerimento-autorizacao-veiculo-terceiro", FRET, "/requerente/alvara/numero"),
])
def test_refused_on_an_alvara_of_another_holder(pack_dir: Path, form: str,
                                                licence: LicenceView, field: str) -> None:
    """The registry's alvará the request names is someone else's: nothing is drafted,
    the field named."""
    other = replace(licence, holder="11222333000181" if licence is FRET else "11144477735")
    with pytest.raises(InputError, match="indicado no requerimento, é de outr") as refused:
        _prepared(pack_dir, form, other, "00000000000")
    assert refused.value.field == field


def test_the_third_party_vehicle_s_alvara_as_the_registry_holds_it(pack_dir: Path) -> None:
    """fretamento#art10_par4: the vehicle's alvará typed by the applicant, its number
    and validity as the registry holds them."""
    held = replace(FRET, printed="ALV-FRET nº 0003/2024", valid_until=date(2027, 1, 31),
                   holder="11222333000181", placa="DEF4G56")

    class Registry:
        def licence_by_number(self, printed: str) -> LicenceView | None:
            return held if printed == "ALV-FRET nº 0003/2024" else None

    form = "requerimento-autorizacao-veiculo-terceiro"
    request = _request(pack_dir, form)
    request["alvara_veiculo"] = {"numero": "ALV-FRET nº 0003/2024", "valido_ate": "2027-12-31"}
    filed = FiledRequest("PROT nº 0009/2026", "PA 4.321/2026", form, request, CNPJ, "V",
                         date(2026, 11, 20), FRET.printed)
    act = protocolos.ATOS[form][0].build(ActSource(
        filed, FRET, None, date(2026, 11, 27), registry=Registry()))  # type: ignore[arg-type]
    assert act["alvara_veiculo"] == {"numero": "ALV-FRET nº 0003/2024",
                                     "valido_ate": "2027-01-31"}
