"""Issue 23: the revocation of an escolar alvará "a qualquer tempo, por motivo
fundamentado" (Lei nº 4.515/2007, art. 3º), over a real SQLite registry.

The notice accuses the motive, its ciência is recorded, the defence period lapses, the
decision prints the motive and the appeal of Lei nº 9.784/1999 (arts. 56 and 59, not the
penalty appeal of arts. 25 and 26) and the licensing state says the alvará is revoked.
Every moment is fixed (the issuer's clock is set before each issue): nothing depends on
today's date or the machine's zone.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from formcases import at, example
from issuers import clocked_issuer, poppler
from registrycases import pdf_with_title

from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import IncompleteError, Issuer
from lavra.law.statutory import deadline_for, load_statutory_context
from lavra.recording import FactRecorder
from lavra.registry.records import Built, IssuedRecord, search_keys
from lavra.signing.verification import new_code

REV = "decisao-revogacao-alvara"
NOT_REV = "notificacao-defesa-revogacao"
ALV = "alvara-transporte-escolar"
NOTICE_DAY = date(2026, 11, 3)
CIENCIA = date(2026, 11, 4)
FATOS = (
    "A Secretaria de Educação comunicou, no ofício SE nº 412/2026 de 20/10/2026, que a "
    "escola atendida pelo condutor encerrou suas atividades em 30/09/2026 e que os "
    "estudantes do contrato foram transferidos para escolas servidas pelo transporte "
    "municipal gratuito."
)
FUNDAMENTOS = (
    "O alvará vale só para o transporte de estudantes que frequentem regularmente "
    "estabelecimentos de ensino (art. 3º, § 3º); sem estudantes a transportar, o "
    "interesse público da vaga recomenda revogá-lo para nova seleção."
)


def at_moment(day: date, hour: int = 10) -> datetime:
    return datetime(day.year, day.month, day.day, hour, 0, tzinfo=TIMEZONE)


@pytest.fixture(scope="module")
def issuer(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    made = clocked_issuer(engine, tmp_path_factory.mktemp("revogacao") / "dados",
                          at_moment(NOTICE_DAY))
    try:
        yield made
    finally:
        made.close()


def alvara(engine: Engine, issuer: Issuer) -> IssuedRecord:
    """An Alvará para Transporte Escolar in force (2026-03-10 to 2026-12-31), recorded
    with its effects as an issued act (its own issue needs the selection's chain)."""
    data = example(engine, ALV)

    def build(number: int, formatted: str) -> Built:
        holder, plate = search_keys(data)
        return Built(
            pdf=pdf_with_title(f"ALV-ESC {formatted}"), docx=None, data=data,
            computed={"numero": formatted, "inicio_vigencia": "2026-03-10",
                      "valido_ate": "2026-12-31"},
            reference_date=date(2026, 3, 10), verification_code=new_code(),
            signer_subject="CN=Servidor de Teste", signer_serial="0A",
            pack_version="teste", cpf_cnpj=holder, placa=plate,
        )
    return issuer.registry.issue("ALV-ESC", 2026, ALV, build)


def notice(engine: Engine, alvara_number: str, grounds: list[str]) -> dict[str, Any]:
    data = example(engine, NOT_REV)
    data["alvara"]["numero"] = alvara_number
    data["acusacao"] = {"hipoteses": grounds, "fatos": FATOS}
    data["data"] = NOTICE_DAY.isoformat()
    return data


def decision(engine: Engine, alvara_number: str, notice_number: str,
             decided: date) -> dict[str, Any]:
    data = example(engine, REV)
    data["alvara"]["numero"] = alvara_number
    data["hipotese"] = {"tipo": "motivo_fundamentado",
                        "motivo": {"fatos": FATOS, "fundamentos_juridicos": FUNDAMENTOS}}
    data["defesa"] = {"notificacao": {"numero": notice_number}, "apresentada": False}
    data["decisao"] = {
        "data": decided.isoformat(),
        "fundamentacao": "Notificado, o condutor não apresentou defesa no prazo; os fatos "
                         "do ofício da Secretaria de Educação não foram contestados.",
    }
    return data


def report(engine: Engine, issuer: Issuer, data: dict[str, Any], decided: date) -> Report:
    return engine.prepare(REV, data, issued_on=decided, history=issuer.history).report


def pending(found: Report) -> dict[str, Any]:
    return {i.requirement: i for i in found.items if i.pending}


def test_the_motive_revocation_from_the_notice_to_the_revoked_state(
    engine: Engine, issuer: Issuer
) -> None:
    alv = alvara(engine, issuer)
    number = alv.printed
    context = load_statutory_context(engine.content.root)
    last = deadline_for("transporte-escolar#art23_inc3", CIENCIA, context=context).last_day
    after = last + timedelta(days=1)

    # Refused without a notice: nothing is recorded.
    issuer.clock = lambda: at_moment(after, 15)
    with pytest.raises(IncompleteError):
        issuer.issue(REV, decision(engine, number, "NOT-DEF-ESC nº 0001/2026", after))
    assert issuer.registry.licence_of(alv.id) is not None

    # A notice of the penalty grounds does not open the defence against the motive.
    issuer.clock = lambda: at_moment(NOTICE_DAY)
    penalty = issuer.issue(NOT_REV, notice(engine, number, ["terceira_multa"]))
    not_accused = pending(report(
        engine, issuer, decision(engine, number, penalty.record.printed, after), after))
    assert any("motivo fundamentado" in i.message.lower() or "hipótese" in i.message.lower()
               for i in not_accused.values()), not_accused

    # The notice accuses the motive: the act that may follow cites art. 3º only.
    issued = issuer.issue(NOT_REV, notice(engine, number, ["motivo_fundamentado"]))
    printed = issued.record.printed
    text = poppler(issued.pdf)
    for words in ("Revogação por motivo fundamentado:", "podendo ser revogado ou modificado a "
                  "qualquer tempo, por motivo fundamentado",
                  "pode resultar na revogação do alvará (art. 3º da Lei nº 4.515/2007)",
                  "ofício SE nº 412/2026"):
        assert words in text, words
    assert "23, III" not in text.split("Ato que pode resultar")[1].split("Prazo")[0]
    # Not a penalty: nothing is imputed, no infraction or penalty named, art. 3º alone.
    for words in ("Transporte escolar (Lei nº 4.515/2007, art. 3º) Notificação dirigida",
                  "Fatos que motivam a revogação", "Fundamento legal do motivo",
                  "não implica concordância com os fatos nela expostos"):
        assert words in text, words
    for absent in ("imputa", "penalidade", "infração", "23, III", "art. 9º"):
        assert absent not in text.lower(), absent

    # No ciência recorded: the period has not started.
    data = decision(engine, number, printed, after)
    assert not report(engine, issuer, data, after).complete
    recorder = FactRecorder(issuer.registry, engine.content)
    recorder.record(recorder.document(printed), "ciencia", on=CIENCIA.isoformat(),
                    by="Maria (maria)", means="pessoal", now=at_moment(CIENCIA))
    # The period recorded with its ciência is the art. 3º row's: the same 10 days.
    defence = recorder.deadlines(recorder.document(printed))
    assert [d.citation for d in defence] == ["transporte-escolar#art3"]
    assert defence[0].last_day == last
    assert "por motivo fundamentado" in defence[0].explanation, defence[0].explanation
    assert "penalidade" not in defence[0].explanation

    # Without defence: not on the last day of the period, from the day after.
    on_last = pending(report(engine, issuer, decision(engine, number, printed, last), last))
    assert on_last["defesa.prazo"].status is Status.INVALID
    complete = report(engine, issuer, data, after)
    assert complete.complete, pending(complete)

    issuer.clock = lambda: at_moment(after, 15)
    revoked = issuer.issue(REV, data)
    text = poppler(revoked.pdf)
    for words in (
        "Revogação por motivo fundamentado (art. 3º da Lei nº 4.515/2007)",
        "Fatos. A Secretaria de Educação comunicou", "Fundamentos jurídicos. O alvará vale",
        "art. 50, I, e § 1º, da Lei nº 9.784, de 29 de janeiro de 1999",
        f"fica revogado, a partir desta data, o Alvará para Transporte Escolar {number}",
        "por motivo fundamentado",
        "por razões de legalidade e de mérito (art. 56 da Lei nº 9.784/1999)",
        "no prazo de 10 (dez) dias contados da data em que o condutor tomar ciência desta "
        "decisão (art. 59 da Lei nº 9.784/1999)",
        "se não a reconsiderar no prazo de 5 (cinco) dias, o encaminhará ao Prefeito",
        printed,
    ):
        assert words in text, words
    for absent in ("Auto de infração", "terceira multa", "em única instância", "art. 25",
                   "art. 26", "23, III"):
        assert absent not in text, absent
    # The "Fundamento legal" cites art. 50, I, not also a bare art. 50; a federal law is
    # "Lei nº …", never "Lei federal"/"Lei Federal" (issue 23).
    basis = text.split("Fundamento legal", 1)[1].split("Americana,", 1)[0]
    assert "• art. 50, inciso I, da Lei nº 9.784, de 29 de janeiro de 1999" in basis, basis
    assert "• art. 50 da Lei" not in basis, basis
    assert "Lei federal" not in text and "Lei Federal" not in text

    # The licensing state: revoked by the decision.
    view = issuer.registry.licence_of(alv.id)
    assert view is not None
    assert view.describe(after) == f"revogado em {after:%d/%m/%Y} pelo {revoked.record.printed}"
    # The decision's ciência opens the appeal of Lei nº 9.784/1999, art. 59, not art. 26.
    record = recorder.document(revoked.record.printed)
    recorder.record(record, "ciencia", on=after.isoformat(), by="Maria (maria)",
                    means="pessoal", now=at_moment(after, 16))
    appeal = recorder.deadlines(record)
    assert [d.citation for d in appeal] == ["lei-9784-1999#art59"]
    assert "O prazo de 10 dias para recurso contra a decisão, contado da ciência" in (
        appeal[0].explanation), appeal[0].explanation
    assert "indeferimento" not in appeal[0].explanation
    # Revoked once: the state refuses a second decision on the same alvará.
    again = pending(report(engine, issuer, data, after))
    assert again["alvara.numero"].status is Status.INVALID
    assert f"revogado em {after:%d/%m/%Y} pelo {revoked.record.printed}" in (
        again["alvara.numero"].message), again["alvara.numero"].message


def at_message(found: dict[str, Any], words: str) -> bool:
    return any(words in i.message for i in found.values())


def test_the_motive_is_required_and_written_out(engine: Engine) -> None:
    day = date(2026, 6, 22)
    data = decision(engine, "ALV-ESC nº 0007/2026", "NOT-DEF-ESC nº 0001/2026", day)

    def refused(changed: dict[str, Any]) -> dict[str, Any]:
        return pending(engine.prepare(REV, changed, issued_on=day).report)

    without = copy.deepcopy(data)
    del without["hipotese"]["motivo"]
    missing = refused(without)["hipotese.motivo"]
    assert missing.status is Status.MISSING and "Motivo da revogação" in missing.message
    assert "transporte-escolar#art3" in missing.basis
    with_autos = copy.deepcopy(data)
    with_autos["hipotese"]["autos"] = [{"numero": "AIE-ESC nº 0002/2026"}]
    assert at_message(refused(with_autos), "não se funda em autos de infração")
    penalty = example(engine, REV)
    penalty["hipotese"]["motivo"] = data["hipotese"]["motivo"]
    assert at_message(refused(penalty), "só se informa na revogação por motivo fundamentado")
    short = copy.deepcopy(data)
    short["hipotese"]["motivo"]["fundamentos_juridicos"] = "." * 20 + " conveniência " + "." * 20
    item = at(engine.prepare(REV, short, issued_on=day).report,
              "/hipotese/motivo/fundamentos_juridicos")
    assert item.status is Status.INVALID
    assert "explícita, clara e congruente" in item.message


@pytest.mark.parametrize(("grounds", "act"), [
    (["motivo_fundamentado"], "(art. 3º da Lei nº 4.515/2007)"),
    (["terceira_multa"], "(art. 3º e art. 23, III, da Lei nº 4.515/2007)"),
    (["veiculo_outro_condutor"], "(art. 3º, art. 9º, § 2º, II, e art. 23, III, da Lei nº"),
    (["motivo_fundamentado", "auxiliar_veiculo_irregular"],
     "(art. 3º, art. 9º, § 2º, I, e art. 23, III, da Lei nº"),
])
def test_the_notice_cites_the_sanction_only_for_the_penalty_grounds(
    engine: Engine, grounds: list[str], act: str
) -> None:
    data = notice(engine, "ALV-ESC nº 0007/2026", grounds)
    computed = engine.prepare(NOT_REV, data, issued_on=NOTICE_DAY).computed
    assert f"pode resultar na revogação do alvará {act}" in computed["ato"]
