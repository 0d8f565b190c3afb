"""The cassação's grounds of art. 22, II and III (Lei nº 4.419/2006) read from the
registry, on SQLite and PostgreSQL (issue 22): a fine kept by the Secretário on the
appeal of art. 23 does not ground the cassação while the appeal to the Prefeito (art. 24,
15 days from the ciência of that decision) may still be brought, or is pending, or no
ciência of the decision is on record; and an alvará the registry shows renewed is not
one "não renovado". Acts are recorded straight into the registry, in order, with every
date passed explicitly."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from registrycases import pdf_with_title
from test_auto_anulado import auto, file_appeal
from test_auto_anulado import registry as registry
from test_licensing_state import alvara_fretamento, example

from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.issuing import RegistryHistory
from lavra.registry.records import LOCAL_TZ, Built, IssuedRecord, search_keys
from lavra.registry.store import Registry
from lavra.signing.verification import new_code

CAS = "decisao-cassacao-fretamento"
INFRACTION = date(2026, 3, 2)
KEPT = {"resultado": "nao_provido", "conhecido": True,
        "resultado_rotulo": "Recurso conhecido e não provido"}
AUTO_FIELD = "/hipoteses/multas_nao_recolhidas/autos/0/numero"


def signed(registry: Registry, series: str, form: str, data: dict[str, Any], on: date,
           computed: dict[str, Any]) -> IssuedRecord:
    """The act recorded as signed on ``on`` at 17h (a fact of it — a ciência, a payment —
    is recorded on or after that day)."""
    def build(number: int, formatted: str) -> Built:
        holder, plate = search_keys(data)
        return Built(
            pdf=pdf_with_title(f"{series} {formatted}"), docx=None, data=data,
            computed={"numero": formatted, **computed}, reference_date=on,
            verification_code=new_code(), signer_subject="CN=Servidor de Teste",
            signer_serial="0A", pack_version="teste", cpf_cnpj=holder, placa=plate,
            issued_at=datetime(on.year, on.month, on.day, 17, tzinfo=LOCAL_TZ))
    return registry.issue(series, on.year, form, build)


def kept_by(registry: Registry, appealed: IssuedRecord, on: date, *,
            series: str = "DEC-SETRANSV", form: str = "decisao-recurso-secretario",
            hypothesis: str = "fretamento#art23") -> IssuedRecord:
    """A decision of the company's appeal that keeps ``appealed``, signed on ``on``."""
    data = example(form)
    data["recorrente"] = example("decisao-recurso-secretario")["recorrente"]  # the company
    data["recurso"]["hipotese"] = hypothesis
    data["ato_recorrido"]["numero"] = appealed.printed
    data["decisao"].update(data=on.isoformat(), resultado=KEPT["resultado"])
    return signed(registry, series, form, data, on, KEPT)


def unpaid_items(engine: Engine, registry: Registry, first: IssuedRecord,
                 on: date) -> list[Item]:
    """The items of a cassação decided ``on`` for the fine of ``first`` (art. 22, II)."""
    data = example(CAS)
    unpaid = data["hipoteses"]["multas_nao_recolhidas"]["autos"]
    unpaid[:] = [{**unpaid[0], "numero": first.printed, "data_infracao": INFRACTION.isoformat()}]
    data["decisao"]["data"] = on.isoformat()
    report = engine.prepare(CAS, data, issued_on=on, history=RegistryHistory(registry),
                            example_values=True).report
    return [i for i in report.pending if i.field == AUTO_FIELD]


def test_a_fine_kept_by_the_secretario_waits_for_the_appeal_to_the_prefeito(
    engine: Engine, registry: Registry,
) -> None:
    first = auto(registry, INFRACTION)
    protocol = file_appeal(registry, first, date(2026, 3, 10))
    # The appeal of art. 23 undecided: the fine is under appeal.
    [pending] = unpaid_items(engine, registry, first, date(2026, 4, 6))
    assert pending.basis == ("fretamento#art22_inc2", "fretamento#art23")
    assert pending.message.startswith(
        f"Consta do registro o recurso {protocol} contra o {first.printed}, ainda não")
    kept = kept_by(registry, first, date(2026, 4, 10))
    said = (f"O Auto de Infração {first.printed} foi mantido pela decisão {kept.printed}, "
            "de 10/04/2026, no recurso do art. 23")

    # No ciência of the decision on record: the 15 days have not begun (art. 24).
    [item] = unpaid_items(engine, registry, first, date(2026, 5, 4))
    assert item.status is Status.INVALID
    assert item.basis == ("fretamento#art22_inc2", "fretamento#art24")
    assert item.message == (
        f"{said}, e não consta do registro a ciência dessa decisão até a data da cassação "
        "(04/05/2026): o prazo de 15 dias do recurso ao Prefeito, contado da ciência (art. "
        "24), não começou a correr, e não se pode dizê-lo encerrado; ainda não se pode "
        "afirmar que a multa deixou de ser recolhida sem interposição de recurso, e ela não "
        "é hipótese de cassação (art. 22, II). Registre a ciência da decisão e aguarde o "
        "fim do prazo.")

    # Ciência on Monday 13/04/2026: the 15 days run through Tuesday 28/04/2026.
    registry.record_fact(kept.id, "ciencia", on="2026-04-13", by="Clara (clara)",
                         means="pessoal", now=datetime(2026, 4, 13, 15, tzinfo=LOCAL_TZ))
    # A cassação dated before the ciência cannot count from it.
    [before] = unpaid_items(engine, registry, first, date(2026, 4, 11))
    assert "não consta do registro a ciência dessa decisão até a data da cassação " \
        "(11/04/2026)" in before.message
    for open_day in (date(2026, 4, 20), date(2026, 4, 28)):
        [item] = unpaid_items(engine, registry, first, open_day)
        assert item.message == (
            f"{said}, com ciência registrada no registro do ato em 13/04/2026: o prazo do "
            "recurso ao Prefeito (art. 24) corre até 28/04/2026, inclusive; na data da "
            f"cassação ({open_day:%d/%m/%Y}) ainda não se pode afirmar que a multa deixou "
            "de ser recolhida sem interposição de recurso, e ela não é hipótese de "
            "cassação (art. 22, II).")
    assert unpaid_items(engine, registry, first, date(2026, 4, 29)) == []

    # A second appeal filed in time and undecided keeps the fine out, citing art. 24...
    second = file_appeal(registry, kept, date(2026, 4, 27))
    [pending] = unpaid_items(engine, registry, first, date(2026, 5, 4))
    assert pending.basis == ("fretamento#art22_inc2", "fretamento#art24")
    assert pending.message.startswith(
        f"Consta do registro o recurso {second} contra o {kept.printed}, ainda não decidido "
        "na data da decisão (04/05/2026)")
    # ...until the Prefeito keeps it too: then the fine is final.
    kept_by(registry, kept, date(2026, 5, 8), series="DEC-GP",
            form="decisao-recurso-prefeito", hypothesis="fretamento#art24")
    assert len(unpaid_items(engine, registry, first, date(2026, 5, 7))) == 1
    assert unpaid_items(engine, registry, first, date(2026, 5, 11)) == []


def test_a_fine_whose_payment_the_registry_records_is_no_ground(
    engine: Engine, registry: Registry,
) -> None:
    data = example("auto-infracao-fretamento")
    data["ocorrencia"]["data"] = data["ciencia"]["data"] = INFRACTION.isoformat()
    first = signed(registry, "AIF-FRET", "auto-infracao-fretamento", data, INFRACTION, {})
    assert unpaid_items(engine, registry, first, date(2026, 4, 6)) == []  # art. 23 run out
    registry.record_fact(first.id, "pagamento", on="2026-03-20", by="Caixa (caixa)",
                         amount="140.00", now=datetime(2026, 3, 20, 15, tzinfo=LOCAL_TZ))
    [item] = unpaid_items(engine, registry, first, date(2026, 4, 6))
    assert item.status is Status.INVALID and item.basis == ("fretamento#art22_inc2",)
    assert item.message == (
        f"Consta do registro o pagamento das multas do Auto de Infração {first.printed} em "
        "20/03/2026, no próprio auto: a multa foi recolhida e não é hipótese de cassação "
        "(art. 22, II).")


def test_an_alvara_the_registry_shows_renewed_is_not_one_not_renewed(
    engine: Engine, registry: Registry,
) -> None:
    old = alvara_fretamento(registry, on=date(2021, 4, 1), until=date(2026, 3, 31))
    data = example(CAS)
    data["alvaras"] = [{"numero": old.printed, "placa": "ABC1D23"}]
    data["hipoteses"] = {"nao_renovacao": {
        "vencimento": "2026-03-31",
        "exigencia": "Notificação NOT-FRET nº 0002/2026, de 02/02/2026."}}
    decided = date(2026, 4, 20)

    def refused() -> list[Item]:
        report = engine.prepare(CAS, data, issued_on=decided,
                                history=RegistryHistory(registry), example_values=True).report
        return [i for i in report.pending if i.field == "/alvaras/0/numero"]

    # Expired on 31/03/2026 with no renewal in the registry: the hypothesis may apply.
    assert refused() == []
    new = alvara_fretamento(registry, on=date(2026, 4, 8), until=date(2031, 4, 7),
                            renovacao=True, alvara_anterior=old.printed,
                            vencimento_alvara_anterior="2026-03-31")
    [item] = refused()
    assert item.status is Status.INVALID and item.basis == ("fretamento#art22_inc3",)
    assert item.message == (
        f"Consta do registro que o Alvará de Licença de Circulação {old.printed}, válido até "
        f"31/03/2026, foi renovado pelo {new.printed}, em 08/04/2026: não se pode cassá-lo "
        "por não ter sido renovado quando exigido (art. 22, III).")
    # The same alvará cassated on another ground (art. 22, I) is not refused for it.
    data["hipoteses"] = {"dolo": {"fatos": "Desvio de finalidade apurado no processo."}}
    assert refused() == []
