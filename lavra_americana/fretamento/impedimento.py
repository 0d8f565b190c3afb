"""The term of temporary impediment and withdrawal of a vehicle, Lei nº 4.419/2006
(fretamento): art. 14, b, arts. 19 and 21 (alíneas and §§ 1º to 4º).

``termo_impedimento_fretamento`` (form ``termo-impedimento-fretamento``) — the
temporary impediment (art. 14, b) and withdrawal of a vehicle:

- motive ``art21``: whether art. 21 applies is decided by
  :func:`lavra_americana.fretamento.penalties.temporary_impediment` from the auto's
  infractions (alínea c) and the stated facts (alíneas a and b); when no alínea applies
  the term is *invalid* (the impediment is not at the agent's discretion);
- no art. 13 motive (the reading below): a term stating another motive is *invalid*,
  pointing to the TVE-FRET;
- the outcome: sanado no local → released (art. 21, § 1º); otherwise withdrawal by a
  licensed driver with the alvará collected against receipt (§ 2º), continuity of
  the passengers' transport (§ 3º) and return after regularisation and costs (§ 4º);
  under art. 21 a withdrawal needs the risk to the passengers stated (§ 2º); the
  driver's CNH must be valid on the date;
- art. 19 (the fine does not release from correcting the fault) is printed;
- the appeal that lies and its last day (art. 23, 15 days from the constatação, see
  :func:`_appeal`), printed at once: the term is issued on the
  spot; a time of the constatação or of the release later than the moment of issue,
  and a ciência after the issue, are *invalid*;
- facts dated after the day of issue, or an auto dated other than the impediment
  (art. 21: cumulative with the fine of that auto), are *invalid*;
- the auto, one of lavra's series, as the registry holds it (:func:`_auto_items`): held,
  not cancelled, of the company, its date and infractions the registry's.

Art. 14, c (impedimento definitivo) is listed by the law without any hypothesis or
procedure: no form applies it, and the term says it imposes the temporary one only.

Reading — art. 13 is not an impedimento. The term once had a second motive, the
extraordinary vistoria of art. 13 with requirements not met. Art. 13 is not among the
penalties (art. 14 lists them; art. 21 says when the "penalidade de impedimento
temporário" applies: cumulatively with the fine, in its alíneas); it is a measure of
the inspection, "até a regularização da situação", with no fine and no auto. It is now
recorded by its own act, the termo de vistoria extraordinária (TVE-FRET,
:mod:`lavra_americana.fretamento.vistoria`), which states each requirement, suspends
the alvará in the licensing state and is released by the next vistoria's termo. Two
acts for one withdrawal would leave the state silent on one of them (this term has no
effect on the state), so the motive is removed in favour of the TVE-FRET: the schema
offers only art. 21, and a term stating art. 13 is *invalid*, naming the TVE-FRET.

Like every computation, these never raise for what the data lack: a value they cannot
compute is a *missing* item and the value is pending.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    bare_reference,
    in_legal_order,
    period_words,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.law.model import Law
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    after_issue,
    date_at,
    deadline_values,
    fact_after_issue,
    on_the_spot_items,
)
from lavra_americana.comum.orgao import secretario
from lavra_americana.comum.sources import rule_sources
from lavra_americana.fretamento.autos_registro import registered_auto
from lavra_americana.fretamento.penalties import temporary_impediment

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "termo_impedimento_fretamento",
]

LAW = "fretamento"
IMPEDIMENT = f"{LAW}#art14_ali2"
INSPECTION = f"{LAW}#art13"  # recorded by the TVE-FRET (module doc), not by this term
FAULT = f"{LAW}#art19"
ART21 = f"{LAW}#art21"
RELEASE = f"{LAW}#art21_par1"
WITHDRAWAL = f"{LAW}#art21_par2"
CONTINUITY = f"{LAW}#art21_par3"
RETURN = f"{LAW}#art21_par4"


# (schemas/termo-impedimento-fretamento.json)
TERM_DATE = "/ocorrencia/data"
FIRST_APPEAL = f"{LAW}#art23"
AUTO_DATE = "/auto/data"
CNH_VALIDITY = "/retirada/condutor/cnh/validade"


IMPLEMENTED: tuple[str, ...] = (
    IMPEDIMENT,
    FAULT,
    f"{LAW}#art21_ali1",
    f"{LAW}#art21_ali2",
    f"{LAW}#art21_ali3",
    RELEASE,
    WITHDRAWAL,
    CONTINUITY,
    RETURN,
)
"""Citations whose rule this module applies (coverage): the impediment and the
withdrawal of art. 21, and art. 19 (art. 13: the TVE-FRET, module doc)."""


def _term_pending(reason: str) -> dict[str, Any]:
    return {
        "aplica": False,
        "explicacao": reason,
        "hipoteses": [],
        "exigencias": [],
        "fundamento": [],
    }


def _impediment_art21(
    data: Mapping[str, Any], laws: Mapping[str, Law]
) -> tuple[dict[str, Any], list[Item]]:
    listed = data.get("infracoes")
    citations = [c for c in listed if isinstance(c, str)] if isinstance(listed, list) else []
    try:
        found = temporary_impediment(
            citations,
            laws,
            no_inspection_certificate=data.get("comprovante_inspecao_nao_apresentado") is True,
            unpaid_after_appeal=data.get("multa_nao_recolhida_apos_recurso") is True,
        )
    except LavraError as error:
        return {"aplica": False, "explicacao": error.message, "hipoteses": []}, [
            Item("infracoes", Status.INVALID, "/infracoes", error.message, (ART21,))
        ]
    values = {
        "aplica": found.applies,
        "explicacao": found.explanation,
        "hipoteses": [bare_reference(laws, g) for g in found.grounds],
        "dispositivos": list(found.grounds),
    }
    if found.applies:
        return values, [
            Item("impedimento.hipotese", Status.MET, "/infracoes", found.explanation, found.basis)
        ]
    return values, [
        Item(
            "impedimento.hipotese",
            Status.INVALID,
            "/infracoes",
            f"{found.explanation} O impedimento temporário só se aplica nos casos das alíneas "
            "do art. 21: indique as infrações do auto ou os fatos que o fundamentam. A "
            "retirada do veículo em vistoria extraordinária (art. 13) é lavrada no Termo de "
            "Vistoria Extraordinária (TVE-FRET).",
            (ART21,),
        )
    ]


def _auto_items(request: ComputeInput, data: Mapping[str, Any], on: date,
                laws: Mapping[str, Law]) -> list[Item]:
    """The auto the impediment joins (art. 21: cumulative with its fine), as the registry
    holds it (issue 22, § 3; :func:`lavra_americana.fretamento.autos_registro.
    registered_auto`): one of lavra's AIF-FRET series must be held, not cancelled, of the
    company, not after the term; its date is the registry's (a typed date that differs is
    *invalid*, naming both), and each infraction typed (``/infracoes``) must be one the
    auto records: the alíneas of art. 21 are judged on the auto's infractions, not on a
    typed copy of them."""
    found, items = registered_auto(
        request.history, pointers.get(data, "/auto/numero"),
        company=pointers.get(data, "/empresa/cnpj"), on=on, field="/auto/numero",
        basis=(ART21,), act="o termo de impedimento")
    if found is None or items:
        return items
    typed = date_at(data, AUTO_DATE)
    if typed is not None and typed != found.reference_date:
        items.append(Item(
            "auto.data_registro", Status.INVALID, AUTO_DATE,
            f"A data do auto informada ({format_date(typed)}) difere da registrada no Auto de "
            f"Infração {found.printed} ({format_date(found.reference_date)}): corrija a data "
            "informada.", (ART21,)))
    recorded = {i.get("dispositivo") for i in pointers.get(found.data, "/infracoes") or ()
                if isinstance(i, Mapping)}
    listed = data.get("infracoes")
    for index, citation in enumerate(listed if isinstance(listed, list) else ()):
        if isinstance(citation, str) and citation not in recorded:
            items.append(Item(
                f"infracoes.{index}.registro", Status.INVALID, f"/infracoes/{index}",
                f"A infração do {bare_reference(laws, citation)} não consta "
                f"do Auto de Infração {found.printed} no registro: o impedimento do art. 21 "
                "soma-se às infrações do auto lavrado.", (ART21,)))
    return items


def _not_an_impediment(motive: object, laws: Mapping[str, Law]) -> Computed:
    """A motive other than art. 21: art. 13 is recorded by the TVE-FRET (module doc)."""
    message = (
        "O termo de impedimento aplica a penalidade de impedimento temporário "
        f"({short(laws, IMPEDIMENT)}), cumulativa à multa do auto, nos casos do art. 21. A "
        "retirada do veículo do serviço em vistoria extraordinária com exigências não "
        f"atendidas ({short(laws, INSPECTION)}) não é essa penalidade: lavre o Termo de "
        "Vistoria Extraordinária (TVE-FRET), que registra cada exigência e suspende o "
        "alvará no cadastro até a regularização."
    )
    if motive is None:
        return Computed(_term_pending("Informe o motivo do impedimento (art. 21)."))
    return Computed(_term_pending(message), (Item("motivo", Status.INVALID, "/motivo",
                                                  message, (IMPEDIMENT, INSPECTION)),))


def _withdrawal_items(data: Mapping[str, Any], on: date) -> list[Item]:
    items: list[Item] = []
    if not isinstance(pointers.get(data, "/retirada/risco"), str):
        items.append(
            Item(
                "retirada.risco",
                Status.MISSING,
                "/retirada/risco",
                "A retirada do veículo de circulação com o recolhimento do alvará, no caso do "
                "art. 21, exige que a irregularidade não possa ser sanada no local e ofereça "
                "risco à segurança dos passageiros: descreva o risco (art. 21, § 2º).",
                (WITHDRAWAL,),
            )
        )
    validity = date_at(data, CNH_VALIDITY)
    if validity is not None and validity < on:
        items.append(
            Item(
                "retirada.condutor.cnh.validade",
                Status.INVALID,
                CNH_VALIDITY,
                f"A CNH do condutor venceu em {format_date(validity)}, antes da retirada "
                f"({format_date(on)}): a retirada é feita por condutor regularmente habilitado "
                "(art. 21, § 2º).",
                (WITHDRAWAL,),
            )
        )
    return items


def termo_impedimento_fretamento(request: ComputeInput) -> Computed:
    """Temporary impediment (art. 14, b; art. 21), release or withdrawal.

    ``values`` keys: ``motivo``, ``aplica``, ``explicacao``, ``hipoteses`` (short
    references of the alíneas), ``retirada`` (bool), ``devolucao`` (the
    return rule of § 4º), ``fundamento``.
    """
    data = request.data if isinstance(request.data, Mapping) else {}
    on = date_at(data, TERM_DATE)
    if on is None:
        return Computed(_term_pending("Informe a data da constatação."))
    context, _ = rule_sources(request, request.example_values)
    laws = context.laws
    motive = data.get("motivo")
    items: list[Item] = []
    if motive == "art21":
        found, found_items = _impediment_art21(data, laws)
        items.extend(_auto_items(request, data, on, laws))
        auto_day = date_at(data, AUTO_DATE)
        if auto_day is not None and auto_day != on:
            items.append(
                Item(
                    "auto.data",
                    Status.INVALID,
                    AUTO_DATE,
                    f"O auto informado é de {format_date(auto_day)} e o impedimento de "
                    f"{format_date(on)}: o impedimento do art. 21 é aplicado cumulativamente à "
                    "multa do auto lavrado na mesma constatação.",
                    (ART21,),
                )
            )
    else:
        return _not_an_impediment(motive, laws)
    items.extend(found_items)
    withdrawal = data.get("desfecho") == "retirada"
    if withdrawal:
        items.extend(_withdrawal_items(data, on))
    items.extend(after_issue(on, request.issued_on, TERM_DATE, "data da constatação", IMPEDIMENT))
    items.extend(on_the_spot_items(request, "data e hora da constatação", IMPEDIMENT))
    if data.get("desfecho") != "retirada":
        items.extend(
            fact_after_issue(
                request, on, TERM_DATE, "liberação do veículo", RELEASE,
                hour=pointers.get(data, "/liberacao/hora"), hour_pointer="/liberacao/hora",
            )
        )
    appeal, appeal_items = _appeal(on, context, secretario(request))
    items.extend(appeal_items)
    ciencia = date_at(data, "/ciencia/data")
    if ciencia is not None and ciencia < on:
        items.append(
            Item(
                "ciencia.data",
                Status.INVALID,
                "/ciencia/data",
                f"A data da ciência ({format_date(ciencia)}) é anterior à da constatação "
                f"({format_date(on)}).",
                (IMPEDIMENT,),
            )
        )
    grounds = found.get("dispositivos", [])
    outcome = [WITHDRAWAL, CONTINUITY, RETURN] if withdrawal else [RELEASE]
    fundamento = in_legal_order(
        [
            IMPEDIMENT,
            ART21,
            *grounds,
            *outcome,
            FAULT,
            FIRST_APPEAL,
            f"{LAW}#art28",
        ],
        laws,
    )
    values = {
        "motivo": motive,
        "aplica": found.get("aplica", False),
        "explicacao": found.get("explicacao"),
        "hipoteses": found.get("hipoteses", []),
        "retirada": withdrawal,
        "devolucao": (
            "O Alvará de Licença de Circulação será devolvido somente após a apresentação do "
            "veículo devidamente regularizado e o recolhimento de eventuais custas "
            f"({short(laws, RETURN)})."
        ),
        "recurso": appeal,
        "fundamento": fundamento,
    }
    return Computed(values, unique_items(items))


def _appeal(
    on: date, context: StatutoryContext, secretary: str
) -> tuple[dict[str, Any], list[Item]]:
    """The appeal printed in the term, with its last day (issued on the spot, at once).

    Art. 21: the impediment is cumulative with the fine of the auto, so the appeal of
    art. 23 (to the Secretário, 15 days from the infraction) covers both, counted from
    the constatação (which the term records and the company witnesses), so the last day
    is known and printed at once.
    """
    laws = context.laws
    found, items = deadline_values(FIRST_APPEAL, on, context, TERM_DATE)
    what = "do impedimento, cumulativo com a multa do auto,"
    length = (
        "{} {}".format(*period_words(found["prazo"], found["unidade"]))
        if found is not None and isinstance(found["prazo"], int)
        else "do art. 23,"
    )
    rule = (
        f"Cabe recurso {what} ao {secretary} "
        f"({short(laws, FIRST_APPEAL)}), no prazo {'de ' if found else ''}{length} da data "
        "da constatação"
    )
    if found is None:
        return {"regra": rule + "; o último dia está pendente de cálculo.",
                "ultimo_dia": None}, items
    return {
        "regra": f"{rule}: o prazo encerra-se em {format_date(found['ultimo_dia'])}.",
        "ultimo_dia": found["ultimo_dia"],
        "prorrogado": found["prorrogado"],
        "contagem": found["contagem"],
    }, items


COMPUTATIONS: dict[str, Computation] = {
    "termo_impedimento_fretamento": termo_impedimento_fretamento,
}
"""The computation of this module a form may name under ``"calculos"``."""
