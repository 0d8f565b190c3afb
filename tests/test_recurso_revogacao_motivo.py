"""Issue 23: the appeal against an escolar revogação "por motivo fundamentado" (Lei nº
4.515/2007, art. 3º) under Lei nº 9.784/1999 (arts. 56, § 1º, 59 and 64), over a real
SQLite registry: the Secretário reconsiders or forwards it, the Prefeito decides it as
the superior authority, and each decision's effect on the licence is the state's;
«Preparar ato» of the recurso filed online drafts the Prefeito's decision from the
Secretário's that forwarded it.

Not the penalty appeal: an appeal of art. 25 (or a reconsideração of art. 27) against
such a revogação is refused naming the federal appeal. Every moment is fixed (the
issuer's clock is set before each issue): nothing depends on today or the zone.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from formcases import example
from issuers import clocked_issuer, poppler
from test_revogacao_motivo import CIENCIA, NOTICE_DAY, alvara, at_moment, decision, notice

from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra.filedacts import ActSource, FiledRequest, choices_for
from lavra.issuing import Issuer
from lavra.law.statutory import deadline_for, load_statutory_context
from lavra.recording import FactRecorder
from lavra.registry.records import IssuedRecord
from lavra_americana import pacote

REV = "decisao-revogacao-alvara"
NOT_REV = "notificacao-defesa-revogacao"
SEC = "decisao-recurso-secretario"
GP = "decisao-recurso-prefeito"
RECONSIDERED = "lei-9784-1999#art56_par1"
SUPERIOR = "lei-9784-1999#art56"


@pytest.fixture
def issuer(engine: Engine, tmp_path: Path) -> Iterator[Issuer]:
    made = clocked_issuer(engine, tmp_path / "dados", at_moment(NOTICE_DAY))
    try:
        yield made
    finally:
        made.close()


def revoked(engine: Engine, issuer: Issuer) -> tuple[IssuedRecord, str, date]:
    """An alvará revoked by motivo fundamentado, the revogação's ciência recorded on the
    day after: (the alvará, the revogação as printed, the day of its ciência)."""
    alv = alvara(engine, issuer)
    recorder = FactRecorder(issuer.registry, engine.content)
    issuer.clock = lambda: at_moment(NOTICE_DAY)
    sent = issuer.issue(NOT_REV, notice(engine, alv.printed, ["motivo_fundamentado"]))
    recorder.record(recorder.document(sent.record.printed), "ciencia",
                    on=CIENCIA.isoformat(), by="Maria (maria)", means="pessoal",
                    now=at_moment(CIENCIA))
    context = load_statutory_context(engine.content.root)
    after = deadline_for("transporte-escolar#art23_inc3", CIENCIA,
                         context=context).last_day + timedelta(days=1)
    issuer.clock = lambda: at_moment(after, 15)
    rev = issuer.issue(REV, decision(engine, alv.printed, sent.record.printed, after))
    known = after + timedelta(days=1)
    recorder.record(recorder.document(rev.record.printed), "ciencia", on=known.isoformat(),
                    by="Maria (maria)", means="pessoal", now=at_moment(known))
    return alv, rev.record.printed, known


def appeal(engine: Engine, form: str, hypothesis: str, act: str, ciencia: date,
           filed: date, decided: date, result: str | None) -> dict[str, Any]:
    data = example(engine, GP)
    data["recurso"] = {
        "hipotese": hypothesis, "numero_protocolo": "1.101/2026",
        "data_protocolo": filed.isoformat(),
        "razoes": "O condutor alega que atende estudantes de outra escola, também "
                  "matriculados regularmente, e junta as declarações de matrícula.",
    }
    data["ato_recorrido"] = {"especie": "decisao", "numero": act,
                             "data": (ciencia - timedelta(days=1)).isoformat(),
                             "data_ciencia": ciencia.isoformat()}
    if form == SEC:
        data["ato_recorrido"]["formulario"] = "decisao-recurso-secretario"
    data["decisao"] = {
        "data": decided.isoformat(),
        "fundamentacao": "As declarações juntadas com o recurso comprovam que o condutor "
                         "transporta estudantes regularmente matriculados em outra escola.",
    }
    if result is not None:
        data["decisao"]["resultado"] = result
    return data


def prepared(engine: Engine, issuer: Issuer, form: str, data: dict[str, Any],
             on: date) -> Report:
    return engine.prepare(form, data, issued_on=on, history=issuer.history).report


def pending(found: Report) -> dict[str, Any]:
    return {i.requirement: i for i in found.items if i.pending}


def status(issuer: Issuer, alv: IssuedRecord, on: date) -> str:
    view = issuer.registry.licence_of(alv.id)
    assert view is not None
    return view.describe(on)


def test_not_reconsidered_then_the_prefeito_restores_the_alvara(
    engine: Engine, issuer: Issuer, tmp_path: Path
) -> None:
    alv, rev, known = revoked(engine, issuer)
    filed, kept, decided = (known + timedelta(days=n) for n in (3, 6, 20))

    # The penalty appeal (art. 25) and the reconsideração (art. 27) do not reach it.
    penalty = appeal(engine, GP, "transporte-escolar#art25", rev, known, filed, kept,
                     "provido")
    refused = pending(prepared(engine, issuer, GP, penalty, kept))["ato_recorrido.registro"]
    assert refused.status is Status.INVALID
    for words in ("não é penalidade", "Lei nº 9.784/1999",
                  "art. 56 da Lei nº 9.784/1999", "art. 59 da Lei nº 9.784/1999"):
        assert words in refused.message, refused.message

    # The Secretário keeps the revogação and forwards the appeal.
    issuer.clock = lambda: at_moment(kept, 11)
    secretary = issuer.issue(SEC, appeal(engine, SEC, RECONSIDERED, rev, known, filed, kept,
                                         "nao_provido"))
    text = poppler(secretary.pdf)
    for words in (
        "Recurso contra a revogação do alvará escolar por motivo fundamentado: "
        "reconsideração pelo Secretário (art. 56, § 1º, da Lei nº 9.784, de 29 de janeiro "
        "de 1999)",  # the act's first mention of the law: in full (lavra.render.mentions)
        "Recurso conhecido; revogação mantida e recurso encaminhado ao Prefeito",
        "mantém-se a decisão que revogou o alvará e encaminha-se o recurso ao Prefeito",
        "a parte recorrente não precisa interpor novo recurso",
        "contado da ciência",
    ):
        assert words in text, words
    for absent in ("única instância", "art. 25", "art. 26", "art. 27"):
        assert absent not in text, absent
    assert status(issuer, alv, kept).startswith("revogado")

    # Out of time: the period of art. 59 runs from the ciência the registry holds.
    late = appeal(engine, GP, SUPERIOR, rev, known, known + timedelta(days=15), decided,
                  None)
    forwarding = {"numero": secretary.record.printed, "data": kept.isoformat()}
    assert "encaminhamento" in pending(prepared(engine, issuer, GP, late, decided))
    late["encaminhamento"] = forwarding
    late_report = prepared(engine, issuer, GP, late, decided)
    assert late_report.complete, pending(late_report)
    item = next(i for i in late_report.items if i.requirement == "recurso.tempestividade")
    assert "intempestivo" in item.message and "lei-9784-1999#art59" in item.basis

    # «Preparar ato» on the recurso filed online: the forwarding decision, and only it,
    # offers the Prefeito's (recurso_online.decisao_prefeito_revogacao_motivo), every
    # field carried from that decision as the registry holds it.
    acts = pacote().filed_acts
    assert [c.form for c in choices_for(acts, "recurso-lei-9784")] == [SEC]
    (choice,) = choices_for(acts, "recurso-lei-9784", secretary.record)
    assert choice.form == GP
    held = issuer.registry.get_by_id(secretary.record.id)
    assert held is not None
    granted_sec = dict(held.data, decisao={**held.data["decisao"], "resultado": "provido"})
    assert not choice.after(SEC, granted_sec)  # reconsidered: nothing is forwarded
    request = FiledRequest(protocol="PROT nº 0009/2026", processo="PROT 0001/2026",
                           form="recurso-lei-9784", data={"razoes": "x" * 20},
                           cpf_cnpj="52998224725", name="Outro Nome",
                           filed_on=filed, licence=None)
    built = choice.build(ActSource(request, None, None, decided, held))
    expected = appeal(engine, GP, SUPERIOR, rev, known, filed, decided, None)
    assert built["recurso"] == expected["recurso"]
    assert built["ato_recorrido"] == expected["ato_recorrido"]
    assert built["recorrente"] == held.data["recorrente"]
    assert built["decisao"] == {"data": decided.isoformat()}
    assert built["encaminhamento"] == forwarding

    # The forwarding decision typed is the registry's: of this recurso, on its date
    # (encaminhamento.forwarding_items, art. 56, § 1º).
    def refused_by(encaminhamento: dict[str, str], **recurso: str) -> str:
        data = {**built, "encaminhamento": encaminhamento,
                "recurso": {**built["recurso"], **recurso},
                "decisao": {**expected["decisao"], "resultado": "provido"}}
        found = pending(prepared(engine, issuer, GP, data, decided))
        item = found.get("encaminhamento.registro") or found["encaminhamento.data"]
        assert item.status is Status.INVALID and "lei-9784-1999#art56_par1" in item.basis
        return item.message

    assert "não consta do registro" in refused_by(
        {**forwarding, "numero": "DEC-SETRANSV nº 0099/2026"})
    assert "não é decisão do Secretário" in refused_by(
        {**forwarding, "numero": "DEC-GP nº 0001/2026"})
    assert "encaminhou outro recurso" in refused_by(forwarding, numero_protocolo="9.999/2026")
    assert "conforme o registro" in refused_by(
        {**forwarding, "data": (kept + timedelta(days=1)).isoformat()})

    # The Prefeito, the superior authority, grants it: the revogação is undone.
    issuer.clock = lambda: at_moment(decided, 11)
    mayor = issuer.issue(GP, {**built, "decisao": {
        **expected["decisao"], "resultado": "provido"}})
    text = poppler(mayor.pdf)
    for words in ("não reconsiderada, à autoridade superior (art. 56 da Lei nº 9.784, de 29 "
                  "de janeiro de 1999)",  # the first mention, in full
                  "dá-se provimento ao recurso e reforma-se a decisão que revogou o alvará, "
                  "que fica restabelecido", "encerra-se a instância administrativa",
                  "desta decisão não cabe novo recurso administrativo",
                  f"Recurso encaminhado pela {secretary.record.printed}, de "
                  f"{kept:%d/%m/%Y}"):
        assert words in text, words
    assert status(issuer, alv, decided) == "em vigor"
    # A signer's look at the first page.
    pdf = tmp_path / "gp.pdf"
    pdf.write_bytes(mayor.pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "gp")], check=True, timeout=60)
    assert (tmp_path / "gp-1.png").stat().st_size > 0

    # Nothing left to undo: a second decision on the same revogação is refused.
    again = appeal(engine, SEC, RECONSIDERED, rev, known, filed, decided, "provido")
    stands = pending(prepared(engine, issuer, SEC, again, decided))["ato_recorrido.registro"]
    assert "já não está em vigor" in stands.message and "em vigor" in stands.message


def test_the_secretary_reconsiders_and_the_30_days_are_stated(
    engine: Engine, issuer: Issuer
) -> None:
    alv, rev, known = revoked(engine, issuer)
    filed = known + timedelta(days=2)
    data = appeal(engine, SEC, RECONSIDERED, rev, known, filed, filed + timedelta(days=40),
                  "provido")
    late = prepared(engine, issuer, SEC, data, filed + timedelta(days=40))
    decided_in = next(i for i in late.items if i.requirement == "recurso.prazo_decisao")
    assert decided_in.status is Status.MET
    assert "40 dia(s) após o protocolo, além dos 30 (trinta) dias" in decided_in.message

    # A ciência typed against the registry's is refused.
    typo = appeal(engine, SEC, RECONSIDERED, rev, known + timedelta(days=1), filed, filed,
                  "provido")
    wrong = pending(prepared(engine, issuer, SEC, typo, filed))
    assert wrong["ato_recorrido.data_ciencia"].status is Status.INVALID

    decided = filed + timedelta(days=3)
    within = next(i for i in prepared(engine, issuer, SEC, appeal(
        engine, SEC, RECONSIDERED, rev, known, filed, decided, "provido"), decided).items
        if i.requirement == "recurso.prazo_reconsideracao")
    assert within.status is Status.MET and "dentro do prazo" in within.message
    issuer.clock = lambda: at_moment(decided, 11)
    done = issuer.issue(SEC, appeal(engine, SEC, RECONSIDERED, rev, known, filed, decided,
                                    "provido"))
    text = poppler(done.pdf)
    for words in ("Recurso conhecido; revogação reconsiderada",
                  "reconsidera-se a decisão que revogou o alvará, que fica restabelecido",
                  "a revogação deixa de produzir efeitos",
                  "• art. 3º da Lei Municipal nº 4.515, de 3 de agosto de 2007 • art. 56, § 1º, da "
                  "Lei nº 9.784, de 29 de janeiro de 1999", "• art. 64 da Lei nº 9.784"):
        assert words in text, words
    assert status(issuer, alv, decided) == "em vigor"
    # The Prefeito has nothing to decide: the revogação was reconsidered.
    mayor = appeal(engine, GP, SUPERIOR, rev, known, filed, decided, "provido")
    mayor["encaminhamento"] = {"numero": done.record.printed, "data": decided.isoformat()}
    found = pending(prepared(engine, issuer, GP, mayor, decided))
    assert "já não está em vigor" in found["ato_recorrido.registro"].message
    # ... and the reconsidering decision forwarded nothing to cite.
    assert "não encaminhou o recurso ao Prefeito" in found["encaminhamento.registro"].message


def test_a_late_reconsideration_is_signed_stating_the_five_days(
    engine: Engine, issuer: Issuer
) -> None:
    """Art. 56, § 1º: the Secretário's 5 days bind the administration; a decision after
    them is issued (not refused) and says so. The appealed act prints its own label
    (the REV-ESC's form title) + "nº" + series/number, and the table's labels do not
    wrap."""
    alv, rev, known = revoked(engine, issuer)
    filed = known + timedelta(days=2)
    decided = filed + timedelta(days=12)
    issuer.clock = lambda: at_moment(decided, 11)
    done = issuer.issue(SEC, appeal(engine, SEC, RECONSIDERED, rev, known, filed, decided,
                                    "nao_provido"))
    text = poppler(done.pdf)
    number = rev.split(" nº ")[1]
    for words in (
        f"Ato recorrido Decisão de Revogação do Alvará para Transporte Escolar REV-ESC nº "
        f"{number}",
        f"depois do prazo: o prazo de 5 (cinco) dias para reconsiderar, contado do "
        f"protocolo do recurso em {filed:%d/%m/%Y}",
        "(art. 56, § 1º, da Lei nº 9.784/1999, contado na forma do art. 66 da mesma lei)",
        "não invalida a reconsideração nem o encaminhamento do recurso ao Prefeito",
    ):
        assert words in text, words
    assert "Decisão do Secretário REV-ESC" not in text
    assert status(issuer, alv, decided).startswith("revogado")
    lines = subprocess.run(["pdftotext", "-layout", "-", "-"], input=done.pdf,
                           capture_output=True, check=True, timeout=60).stdout.decode()
    assert any("Ciência do ato" in line for line in lines.splitlines()), lines


def test_the_recorrentes_own_form_checks_the_revogacao_and_its_ciencia(
    engine: Engine, issuer: Issuer, tmp_path: Path
) -> None:
    """``recurso-lei-9784``, the piece the condutor files (on paper or from the tracking
    page): the decision and its ciência read in the registry, the 10 days of art. 59
    from that ciência printed, timeliness stated; a typed ciência or number that the
    registry contradicts, and an appeal out of time, are *invalid*."""
    REC = "recurso-lei-9784"
    _, rev, known = revoked(engine, issuer)
    record = issuer.history.document(REV, rev)
    assert record is not None
    data = example(engine, REC)
    filed = known + timedelta(days=3)
    data["ato_recorrido"] = {"numero": rev, "data": record.data["decisao"]["data"],
                             "data_ciencia": known.isoformat()}
    data["data_recurso"] = filed.isoformat()
    ready = engine.prepare(REC, data, issued_on=filed, history=issuer.history)
    assert ready.report.complete, pending(ready.report)
    assert ready.computed["tempestivo"] is True
    assert ready.computed["ciencia_registrada"].startswith("ciência registrada")
    last = deadline_for("lei-9784-1999#art59", known,
                        context=load_statutory_context(engine.content.root)).last_day
    assert ready.computed["ultimo_dia"] == last
    drafted = engine.draft(REC, data, on=filed, history=issuer.history).pdf
    pdf = tmp_path / "recurso.pdf"
    pdf.write_bytes(drafted)
    # the MINUTA watermark's letters fall between the words: left out
    text = " ".join(w for w in poppler(drafted).split()
                    if not (w.isupper() and set(w) <= set("MINUTA") and len(w) <= 2))
    for words in ("Ilustríssimo Senhor Secretário Municipal de Transportes e Sistema Viário",
                  f"contra a decisão {rev}", "por motivo fundamentado (art. 3º",
                  "encaminhe o recurso ao Prefeito Municipal (art. 56, § 1º",
                  "10 dias contados da ciência", last.strftime("%d/%m/%Y"),
                  "conforme consta do registro da decisão"):
        assert words in text, words
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "rec")], check=True, timeout=60)
    assert (tmp_path / "rec-1.png").stat().st_size > 0

    late = {**data, "data_recurso": (last + timedelta(days=1)).isoformat()}
    out = pending(prepared(engine, issuer, REC, late, last + timedelta(days=1)))
    assert out["data_recurso"].status is Status.INVALID
    assert "intempestivo" in out["data_recurso"].message
    typo = {**data, "ato_recorrido": {**data["ato_recorrido"],
                                      "data_ciencia": (known + timedelta(days=1)).isoformat()}}
    wrong = pending(prepared(engine, issuer, REC, typo, filed))
    assert wrong["ato_recorrido.data_ciencia"].status is Status.INVALID
    unknown = {**data, "ato_recorrido": {**data["ato_recorrido"],
                                         "numero": "REV-ESC nº 0099/2026"}}
    absent = pending(prepared(engine, issuer, REC, unknown, filed))
    assert "não consta do registro" in absent["ato_recorrido.numero"].message
