"""The annual renewal run of the school-transport alvarás (art. 13 of Lei nº
4.515/2007), as a :class:`lavra.batch.model.BatchRun`, and the computation of the
``notificacao-pendencias-renovacao``.

**Who comes due for year Y.** Every ``alvara-transporte-escolar`` of the registry in
force on 31/12 of Y − 1, not cancelled, that expires in Y − 1 (the alvará is annual,
art. 13, § 3º: its vencimento is 31/12 of its exercise, ``alvara.py``) and is not
already renewed (no alvará in force in Y names it as ``alvara_anterior``), in the
order of their numbers. With ``--entrada`` the holders are those of the file, in its
order: a CSV (header ``alvara,cpf,nome``) or JSON Lines (``{"alvara": ..., "cpf": ...,
"nome": ...}``), ``alvara`` the printed number (``ALV-ESC 0007/2026``); each must name
an alvará of the registry, in force and held by that CPF (a paper alvará cannot be
renewed by the run: its data are not in the registry). Sample:
``tests/data/renovacao-escolar-entrada.csv``.

**The requests.** ``--pedidos``: JSON Lines, one ``requerimento-renovacao-escolar`` per
line (its data, as the web form or ``lavra read`` give them), keyed by
``/alvara_anterior/numero``; a line may also be ``{"requerimento": {...}, "processo":
"PA 1.234/2026", "selo_identificacao": "SELO-ESC 0042/2027"}``, with the administrative
process and the seal the renewed alvará will carry.

**What each holder gets.**

- a complete request (its completeness report complete, and the renewed alvará it
  gives complete too) → the renewed ``alvara-transporte-escolar`` (``modalidade``
  ``renovacao``; its validity, fee and renewal window are those of ``alvara.py``: from
  the day after the previous vencimento to 31/12 of Y, fee of art. 16, II), then its
  ``selo-identificacao`` (art. 3º, § 2º: "Juntamente com o Alvará será expedido 'selo
  de identificação' correspondente à licença, devidamente numerado"; art. 13, § 3º:
  the annual alvará goes with its selo), built from the alvará's data
  (:func:`~lavra_americana.transporte_escolar.selo.selo_data_from_alvara`) and
  numbered in its own series ``SELO-ESC``. The plan lists the alvará first and the
  selo second: the run records a holder's documents in that order (the selo item is
  claimed only once the alvará is recorded, ``lavra.registry.runs``), so the selo's
  check of its alvará in the registry finds it in force. Both numbers are reserved
  together, in input order and gapless in each series, and :meth:`RenewalRun.link`
  writes each into the other (the alvará prints its selo, the selo its alvará). A
  ``selo_identificacao`` on the request line is not used while :data:`ISSUE_SEALS`
  holds: the run numbers the selo itself (with it false, the number comes from the
  request line and a request without it is refused with that reason);
- a vehicle past its age limit (art. 17, I), found by the request's report or by the
  renewed alvará's (checked on its first day) → the same notice, which states it in a
  section of its own and never among the missing documents: no document cures it. The
  remedy the law gives is the change of vehicle, by the requerimento of art. 17, § 1º
  (the bill of sale of the vehicle replaced, signed, dated and with the signature
  recognised, and the substitute's document), which goes with the notice, prefilled
  (issue 23, class 3: the notice used to list the age as a document to "complete");
- an incomplete or missing request → the ``notificacao-pendencias-renovacao``,
  numbered and signed, with each missing document, its basis, and the last day to
  regularise: the last business day of the year of the vencimento (art. 13, caput: the
  alvará "deverá ser renovado ... até o último dia útil do ano"; the request window of
  § 5º closes on the same day, ``alvara.py``). Right after it, as a separate file
  (PDF/A-2 forbids embedding), the renewal requerimento prefilled with what the
  registry knows, fillable, so the holder can answer at once.

A notification dated after that last day would be useless: the licence is then
cassada by force of art. 13; such a notification is *invalid* (not issued).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from validate_docbr import CPF

from lavra.batch.intake import FiledScope
from lavra.batch.model import (
    PlanContext,
    PlannedHolder,
    PlannedOutput,
    RunParameter,
    RunRequest,
)
from lavra.checking.cleaning import json_copy
from lavra.checking.computations import Computation, Computed, ComputeInput, item_at
from lavra.checking.report import Item, Report, Status
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import has_cpf_shape, unmask
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import deadline_for
from lavra.textutil import format_date
from lavra_americana.comum.lote import (
    REFUSED,
    HolderFields,
    Wanted,
    as_held,
    ended_reason,
    number_key,
    pending_lines,
    plan_holders,
    reading_due,
    refused_for,
    same_vehicle,
    unissuable,
)
from lavra_americana.comum.lote import read_entrada as read_holders
from lavra_americana.comum.lote import stem as file_stem
from lavra_americana.comum.lote_protocolos import notice_processo, requests_for
from lavra_americana.comum.sources import rule_sources
from lavra_americana.comum.validity import act_at
from lavra_americana.transporte_escolar.renovacao_requisitos import carry
from lavra_americana.transporte_escolar.selo import selo_data_from_alvara

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "RUN", "RenewalRun", "cited"]

SCHOOL = "transporte-escolar"
ANNUAL = f"{SCHOOL}#art13"
REQUEST = f"{SCHOOL}#art13_par5"
ALVARA, REQUERIMENTO = "alvara-transporte-escolar", "requerimento-renovacao-escolar"
NOTICE = "notificacao-pendencias-renovacao"
CHANGE_FORM = "requerimento-troca-veiculo-escolar"
AGE, CHANGE = f"{SCHOOL}#art17_inc1", f"{SCHOOL}#art17_par1"
SEAL_FORM = "selo-identificacao"
ISSUE_SEALS = True
"""Whether the run issues the selo itself, after its alvará (module docstring)."""
HOLDER = HolderFields("/titular", "cpf", "nome", personal=("prontuario",), driver="cnh")
"""The conductor named by the alvará; the prontuário is his own (art. 8º, § 2º)."""

IMPLEMENTED = (ANNUAL, REQUEST, CHANGE)
"""Who comes due (art. 13), the notification of the missing documents of § 5º, and
of the change of vehicle an over-age vehicle calls for (art. 17, § 1º)."""


# ------------------------------------------------------------------ the computation
def notificacao_pendencias_renovacao(request: ComputeInput) -> Computed:
    """``prazo_final`` (last business day of the vencimento's year) and its explanation."""
    data = request.data if isinstance(request.data, Mapping) else {}
    context, _ = rule_sources(request, False)
    # Art. 13 counts from the vencimento the registry holds (issued or imported): a typed
    # validity that differs from it is *invalid*, and the last day is the registry's
    # (issue 22: a notice gave a last day one year late). A paper alvará the registry
    # lacks: the vencimento typed.
    found, checked = act_at(request.history, ALVARA, data, "/alvara", request.on,
                            "alvará a renovar", (ANNUAL,), in_force=False, laws=context.laws)
    held: list[Item] = [] if found is None else checked
    expiry = (found.valid_until if found is not None and found.valid_until
              else maybe_date(pointers.get(data, "/alvara/valido_ate")))
    if expiry is None:
        return Computed({"prazo_final": None, "prazo_explicacao": None}, tuple(held))
    try:
        annual = deadline_for(ANNUAL, expiry, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o último dia para regularizar: {error.message}"
        return Computed({"prazo_final": None, "prazo_explicacao": message},
                        (*held, item_at("/alvara/valido_ate", Status.MISSING, message, ANNUAL)))
    last = annual.last_day
    items = held
    if request.on > last:
        items.append(item_at(
            "/data_notificacao", Status.INVALID,
            f"A notificação de {format_date(request.on)} é posterior ao último dia útil do "
            f"ano ({format_date(last)}): a licença não renovada até lá é cassada "
            "automaticamente (art. 13), e não há mais o que regularizar.", ANNUAL,
        ))
    remedies = []
    if pointers.get(data, "/pendencias"):
        remedies.append("o requerimento pode ser completado com os documentos acima")
    if isinstance(pointers.get(data, "/troca_veiculo"), Mapping):
        remedies.append("deve ser requerida a troca do veículo, na forma do art. 17, § 1º")
    if not remedies:
        items.append(item_at("/pendencias", Status.MISSING, "Informe ao menos uma pendência "
                             "ou a troca de veículo: a notificação não teria objeto.", REQUEST))
    explanation = (
        f"O alvará deve ser renovado até o último dia útil do ano ({format_date(last)}), "
        "sob pena de cassação automática da licença (art. 13, caput); até esse dia "
        + (", e ".join(remedies) or "o requerimento pode ser completado") + "."
    )
    return Computed({"prazo_final": last, "prazo_explicacao": explanation}, tuple(items))


COMPUTATIONS: dict[str, Computation] = {
    "notificacao_pendencias_renovacao": notificacao_pendencias_renovacao,
}


# ------------------------------------------------------------------ reading inputs
def read_entrada(path: Path) -> list[Wanted | tuple[int, str]]:
    """The holders of the file (columns ``alvara,cpf,nome``), in order; (line, reason)
    for an unreadable line."""
    return read_holders(path, "cpf", "nome")


# ------------------------------------------------------------------ deciding
def _pending_lines(report: Report) -> list[dict[str, Any]]:
    return pending_lines(report, SCHOOL, REQUEST, leave_out=(AGE,))


def vehicle_change(report: Report) -> dict[str, Any] | None:
    """The ``troca_veiculo`` of the notice: the report's finding that the vehicle is past
    its age limit (art. 17, I), whose remedy is the change of vehicle (§ 1º)."""
    for item in report.pending:
        if item.status is Status.INVALID and AGE in item.basis:
            return {"motivo": item.message[:1000], "dispositivos": [AGE, CHANGE]}
    return None


def _change_prefill(alvara: Mapping[str, Any], printed: str) -> dict[str, Any]:
    """The requerimento of art. 17, § 1º, with what the registry knows."""
    titular, veiculo = alvara.get("titular", {}), alvara.get("veiculo", {})
    requerente = {k: titular[k] for k in ("nome", "cpf", "endereco") if k in titular}
    if alvara.get("prontuario"):
        requerente["prontuario"] = alvara["prontuario"]
    return {
        "requerente": requerente,
        "alvara": {"numero": printed},
        "veiculo_substituido": {k: veiculo[k] for k in (
            "placa", "renavam", "marca_modelo", "ano_fabricacao") if k in veiculo},
    }


def _prefill(alvara: Mapping[str, Any], printed: str, expiry: date) -> dict[str, Any]:
    titular, veiculo = alvara.get("titular", {}), alvara.get("veiculo", {})
    requerente = {k: titular[k] for k in ("nome", "cpf", "endereco", "cnh",
                                          "cadastro_atividades") if k in titular}
    if alvara.get("prontuario"):  # an imported or transferred alvará has none to give
        requerente["prontuario"] = alvara["prontuario"]
    return {
        "requerente": requerente,
        "alvara_anterior": {"numero": printed, "valido_ate": expiry.isoformat()},
        "veiculo": {k: veiculo[k] for k in ("placa", "renavam", "marca_modelo",
                                            "ano_fabricacao") if k in veiculo},
    }


def renewed_alvara(previous: Mapping[str, Any], printed: str, expiry: date,
                   envelope: Mapping[str, Any], on: date) -> dict[str, Any]:
    """The renewed alvará's data: the previous one's, updated by the request."""
    req = envelope["requerimento"]
    docs = req.get("documentos", {})
    data: dict[str, Any] = json_copy(dict(previous))
    data.pop("selecao", None)
    data["modalidade"] = "renovacao"
    data["alvara_anterior"] = {"numero": printed, "valido_ate": expiry.isoformat()}
    data["data_expedicao"] = on.isoformat()
    filed = format_date(date.fromisoformat(req["data_requerimento"]))
    data["processo"] = {
        # without the process number, the request itself: the templates print "conforme
        # o processo {numero}", so the words must continue that sentence
        "numero": str(envelope.get("processo") or f"de renovação requerida em {filed}"),
        "data_requerimento": req["data_requerimento"],
    }
    cnh = pointers.get(req, "/requerente/cnh")
    if isinstance(cnh, Mapping):
        data["titular"]["cnh"] = dict(cnh)
    _complete_from(req, data)
    laudo = docs.get("laudo_vistoria_ultimo")
    if isinstance(laudo, Mapping):
        data["veiculo"]["laudo_vistoria_ciretran"] = dict(laudo)
    if isinstance(docs.get("apolice_app"), Mapping):
        # The document of art. 13, § 5º, X is, by its terms, the "apólice de seguro em
        # favor de terceiros e passageiros transportados (APP)": presented, it shows both
        # coverages art. 17, IV asks (reading chosen); its number, insurer and term are
        # carried below (renovacao_requisitos.CARRIED).
        data["veiculo"]["seguro"] = {**data["veiculo"].get("seguro", {}),
                                     "cobertura_terceiros": True,
                                     "cobertura_passageiros": True}
    if envelope.get("selo_identificacao"):
        data["selo_identificacao"] = str(envelope["selo_identificacao"])
    return carry(req, data)  # what the act prints from the request (renovacao_requisitos)


def _complete_from(req: Mapping[str, Any], data: dict[str, Any]) -> None:
    """What the registry does not hold of the holder or the vehicle, from the request:
    an alvará imported from before lavra knows only the holder, the plate and the CNH;
    after a transfer or a change of vehicle, the state names the new holder or vehicle
    and nothing else (``as_held``). The renewed alvará prints the conductor's prontuário
    (art. 8º, § 2º: the alvará is furnished "com o número de seu prontuário"): the
    requerente gives it when the registry has none. Nothing the registry holds is
    overwritten, and the vehicle's data only for the vehicle the state holds."""
    requerente = req.get("requerente")
    if isinstance(requerente, Mapping):
        if not data.get("prontuario") and requerente.get("prontuario"):
            data["prontuario"] = requerente["prontuario"]
        if isinstance(requerente.get("endereco"), Mapping):
            data["titular"].setdefault("endereco", dict(requerente["endereco"]))
        if requerente.get("cadastro_atividades"):  # a cessionário's the termo did not carry
            data["titular"].setdefault("cadastro_atividades", requerente["cadastro_atividades"])
    veiculo = req.get("veiculo")
    if isinstance(veiculo, Mapping) and veiculo.get("placa") and same_vehicle(
            veiculo["placa"], pointers.get(data, "/veiculo/placa")):
        for key, value in veiculo.items():
            data["veiculo"].setdefault(key, deepcopy(value))


def cited(printed: str | None) -> str:
    """A printed number as another act cites it: ``SELO-ESC 0001/2026`` (no "nº")."""
    return (printed or "").replace(" nº ", " ")


@dataclass(frozen=True)
class Licence:
    printed: str
    cpf: str
    expiry: date
    data: Mapping[str, Any]


class RenewalRun:
    """``lavra batch renovacao-transporte-escolar --ano Y`` (module docstring)."""

    name = "renovacao-transporte-escolar"
    title = "Renovação anual dos Alvarás para Transporte Escolar"
    parameters = (RunParameter("ano", "Ano do exercício a renovar", "ano", "--ano",
                               "Renova os alvarás que vencem no fim do ano anterior."),)
    forms = (ALVARA, SEAL_FORM, NOTICE)

    def key(self, request: RunRequest) -> str:
        year = request.option("ano", "--ano")
        if not isinstance(year, int) or not 2000 <= year <= 2100:
            raise InputError(f"Ano de renovação inválido: «{year}».", field="/ano")
        return f"{self.name}:{year}"

    def _due(self, context: PlanContext, year: int) -> dict[str, Licence]:
        # From the licensing state: the alvarás in force (not renewed, cassated, revoked,
        # transferred away or vacated) whose last day falls in the year before.
        # Its holder and vehicle are those the state holds (after a transfer, the
        # cessionário; after a change of vehicle, the substitute), not the act's.
        due: dict[str, Licence] = {}
        records = context.registry.licences(
            ALVARA, on=date(year - 1, 12, 31),
            expiring=(date(year - 1, 1, 1), date(year - 1, 12, 31)))
        for record, cpf, data in as_held(context, ALVARA, records, HOLDER):
            if record.valid_until is not None:  # always: asked by its last day
                due[number_key(record.printed)] = Licence(
                    record.printed, cpf, record.valid_until, data)
        return due

    def filed(self, request: RunRequest) -> FiledScope:
        """The requests filed online in the year of the vencimento, up to the run's
        date (the window of art. 13, § 5º, lies in that year; alvara.py)."""
        year = int(request.option("ano", "--ano"))
        return FiledScope(REQUERIMENTO, date(year - 1, 1, 1), request.on)

    def plan(self, context: PlanContext) -> Sequence[PlannedHolder]:
        year = int(context.request.option("ano", "--ano"))
        # One read scope: the alvarás due and every holder's decision read one snapshot,
        # and what the holders' checks look up is read for all of them at once.
        with context.registry.read_scope():
            due = self._due(context, year)
            # The requests filed online (filed), unless --pedidos gives a file.
            filed = requests_for(context, self.filed(context.request), due,
                                 lambda lic: lic.cpf)
            with reading_due(context, ALVARA, due, lambda lic: lic.cpf):
                return plan_holders(
                    context.request, due,
                    context.per_holder(lambda lic, envelope: notice_processo(
                        self._decide(context, lic, envelope), NOTICE, envelope)),
                    lambda wanted, lic: self._refusal(context, wanted, lic),
                    ("cpf", "nome"), filed)

    @staticmethod
    def _refusal(context: PlanContext, wanted: Wanted, licence: Licence | None) -> str | None:
        if not has_cpf_shape(wanted.document) or not CPF().validate(unmask(wanted.document)):
            return f"CPF inválido: «{wanted.document}» (linha {wanted.line} da entrada)."
        if licence is None:
            return ended_reason(context, wanted, ALVARA) or (
                f"O alvará «{wanted.alvara}» não consta do registro como alvará em vigor "
                "a vencer no fim do exercício, nem já renovado (linha "
                f"{wanted.line} da entrada).")
        if unmask(wanted.document) != licence.cpf:
            return (f"O CPF da linha {wanted.line} não é o do titular do alvará "
                    f"{licence.printed}.")
        return None

    def _decide(self, context: PlanContext, lic: Licence,
                envelope: Mapping[str, Any] | None) -> PlannedHolder:
        name = str(pointers.get(lic.data, "/titular/nome") or "")
        stem = file_stem(lic.printed)
        prefill = _prefill(lic.data, lic.printed, lic.expiry)
        if envelope is None:
            report = context.check_request(REQUERIMENTO, prefill)
            return self._notice(context, lic, name, stem, prefill, _pending_lines(report),
                                None, vehicle_change(report))
        req = envelope["requerimento"]
        report = context.check_request(REQUERIMENTO, req)
        if not report.complete:
            return self._notice(context, lic, name, stem, {**prefill, **req},
                                _pending_lines(report), req.get("data_requerimento"),
                                vehicle_change(report))
        data = renewed_alvara(lic.data, lic.printed, lic.expiry, envelope, context.request.on)
        seals = ISSUE_SEALS and context.has_form(SEAL_FORM)
        if not seals and not envelope.get("selo_identificacao"):
            return PlannedHolder(lic.cpf, name, REFUSED, reason=(
                f"O pedido do alvará {lic.printed} está completo, mas não traz o número do "
                "selo de identificação que acompanha o alvará renovado (art. 3º, § 2º, e "
                "art. 13, § 3º): informe-o na linha do pedido."))
        if seals:
            data.pop("selo_identificacao", None)  # numbered by the run (link)
        # checked with a stand-in for the selo's number, reserved only when planned
        checked = {"selo_identificacao": "SELO (a numerar)", **data}
        prepared = context.prepare(ALVARA, checked)
        change = vehicle_change(prepared.report)
        if change is not None:  # on the renewed alvará's first day: the holder is told
            return self._notice(context, lic, name, stem, {**prefill, **req}, [],
                                req.get("data_requerimento"), change)
        # The request is complete, so what the act still lacks is not the citizen's to
        # supply (renovacao_requisitos keeps the two in step): refused before numbering.
        # The stand-in is not a SELO-ESC number (selo_do_alvara refuses it): the run
        # numbers the selo itself, so that item is set aside here, and only here.
        pending = [item for item in prepared.report.pending
                   if not (seals and item.field == "/selo_identificacao")]
        reason = unissuable(context.title(ALVARA), name, lic.printed, pending)
        if reason is not None:
            return PlannedHolder(lic.cpf, name, REFUSED, reason=reason)
        outputs = [PlannedOutput(ALVARA, data, f"alvara-{stem}.pdf", context.series(ALVARA))]
        if seals:
            until = prepared.computed.get("valido_ate")
            until = until if isinstance(until, date) else maybe_date(until)
            if until is None:
                raise LavraError(f"Validade do alvará renovado de {lic.printed} não calculada.")
            selo = selo_data_from_alvara(data, "", until, context.request.on)
            # The selo's alvará is numbered by link and recorded before the selo is
            # claimed: its lookup in the registry is the worker's; the rest is checked now.
            stand_in = {**selo, "alvara": {**selo["alvara"], "numero": "ALV-ESC (a numerar)"}}
            unchecked = [item for item in context.check(SEAL_FORM, stand_in).pending
                         if item.field != "/alvara/numero"]
            reason = unissuable(context.title(SEAL_FORM), name, lic.printed, unchecked)
            if reason is not None:
                return PlannedHolder(lic.cpf, name, REFUSED, reason=reason)
            outputs.append(PlannedOutput(SEAL_FORM, selo, f"selo-{stem}.pdf",
                                         context.series(SEAL_FORM)))
        return PlannedHolder(lic.cpf, name, "renovado", tuple(outputs))

    @staticmethod
    def _notice(context: PlanContext, lic: Licence, name: str, stem: str,
                prefill: Mapping[str, Any], pending: list[dict[str, Any]],
                filed: str | None, change: dict[str, Any] | None) -> PlannedHolder:
        data: dict[str, Any] = {
            # The prontuário identifies the conductor when the registry has it (an
            # imported or transferred alvará has none): the notice of art. 13 needs no
            # more than the CPF and the alvará to reach its holder (reading chosen).
            "destinatario": {"nome": name, "cpf": pointers.get(lic.data, "/titular/cpf"),
                             **({"prontuario": lic.data["prontuario"]}
                                if lic.data.get("prontuario") else {})},
            "alvara": {"numero": lic.printed, "valido_ate": lic.expiry.isoformat()},
            "veiculo": {"placa": pointers.get(lic.data, "/veiculo/placa")},
            "situacao": "ausente" if filed is None else "incompleto",
            "pendencias": pending if pending or change else [{
                "documento": "Requerimento de renovação", "motivo": "Requerimento incompleto.",
                "dispositivos": [REQUEST]}],
            "data_notificacao": context.request.on.isoformat(),
        }
        if filed is not None:
            data["data_requerimento"] = filed
        if change is not None:
            data["troca_veiculo"] = change
        outputs = [PlannedOutput(NOTICE, data, f"notificacao-{stem}.pdf", context.series(NOTICE)),
                   PlannedOutput(REQUERIMENTO, dict(prefill), f"requerimento-{stem}.pdf")]
        if change is not None and context.has_form(CHANGE_FORM):
            outputs.append(PlannedOutput(CHANGE_FORM, _change_prefill(lic.data, lic.printed),
                                         f"requerimento-troca-{stem}.pdf"))
        refused = refused_for(context, lic.cpf, name, lic.printed, outputs[:1])
        return refused or PlannedHolder(lic.cpf, name, "notificado", tuple(outputs))

    def link(self, holder: PlannedHolder, printed: tuple[str | None, ...]) -> PlannedHolder:
        """The selo's reserved number into the alvará, the alvará's into the selo."""
        forms = [out.form for out in holder.outputs]
        if ALVARA not in forms or SEAL_FORM not in forms:
            return holder
        at_alvara, at_seal = forms.index(ALVARA), forms.index(SEAL_FORM)
        outputs = list(holder.outputs)
        alvara, seal = outputs[at_alvara], outputs[at_seal]
        outputs[at_alvara] = replace(alvara, data={
            **alvara.data, "selo_identificacao": cited(printed[at_seal])})
        outputs[at_seal] = replace(seal, data={
            **seal.data, "alvara": {**seal.data["alvara"], "numero": cited(printed[at_alvara])}})
        return replace(holder, outputs=tuple(outputs))


RUN = RenewalRun()
