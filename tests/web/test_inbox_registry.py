"""The inbox over the registry alone, on SQLite and PostgreSQL: the listing's pages and
its days in the secretariat's calendar, the reviews and their constraint, and the
filing settled in the transaction that marks its act's draft issued."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from lavra.errors import InputError
from lavra.registry.filing_status import FilingStatus
from lavra.registry.filings import Attachment, Filed, FilingInput, Filings
from lavra.registry.inbox import Inbox
from lavra.registry.records import Built
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import FilingReviewRow

PDF = b"%PDF-1.4\n%%EOF\n"


def _built(number: int, printed: str, moment: datetime) -> Built:
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=moment.date(),
                 verification_code=f"INB-{secrets.token_hex(6)}", signer_subject="Selo",
                 signer_serial="1", pack_version="t", issued_at=moment)


def _file(registry: Registry, form: str, moment: datetime) -> Filed:
    entry = FilingInput(series="PROT", form=form, data={"a": 1}, cpf_cnpj="01753935911",
                        name="Fulana de Tal",
                        attachments=(Attachment("/documentos/crlv", "crlv.pdf", PDF),))
    return Filings(registry).file(entry, _built, receipt_form="comprovante", now=moment)


def test_listing_reviews_and_settling(registry_url: str) -> None:
    registry = open_registry(registry_url)
    inbox = Inbox(registry)
    # 02:30 UTC of 02/12 is 23:30 of 01/12 in Americana: filed on 01/12
    late = _file(registry, "requerimento-x", datetime(2026, 12, 2, 2, 30, tzinfo=UTC))
    first = _file(registry, "requerimento-x", datetime(2026, 11, 30, 15, 0, tzinfo=UTC))
    other = _file(registry, "requerimento-y", datetime(2026, 12, 2, 15, 0, tzinfo=UTC))

    page = inbox.listing(per_page=2)
    assert (page.total, page.pages, page.page) == (3, 2, 1)
    assert [r.protocol for r in page.rows] == [other.protocol, late.protocol]
    assert [r.protocol for r in inbox.listing(per_page=2, page=9).rows] == [first.protocol]
    day = inbox.listing(since=date(2026, 12, 1), until=date(2026, 12, 1))
    assert [r.protocol for r in day.rows] == [late.protocol]
    assert inbox.listing(form="requerimento-y").total == 1
    with pytest.raises(InputError, match="Situação de protocolo desconhecida"):
        inbox.listing(status="arquivado")

    attachment = late.attachments[0].id
    with pytest.raises(InputError, match="motivo da recusa"):
        inbox.review(late.id, attachment, accepted=False, reason="  ",
                     deadline=date(2026, 12, 14), by="Clara")
    with pytest.raises(InputError, match="não pertence a este protocolo"):
        inbox.review(first.id, attachment, accepted=True, reason=None, deadline=None,
                     by="Clara")
    case = inbox.review(late.id, attachment, accepted=False, reason="CRLV vencido.",
                        deadline=date(2026, 12, 14), by="Clara")
    assert case.status is FilingStatus.PENDING and case.deadline == date(2026, 12, 14)
    assert case.missing == ("/documentos/crlv: CRLV vencido.",)
    assert [r.protocol for r in inbox.listing(status="pendente").rows] == [late.protocol]
    with pytest.raises(IntegrityError), registry.write_session() as session:  # the database's own
        session.add(FilingReviewRow(filing_id=late.id, attachment_id=attachment,
                                    decision="recusado", reason=None, reviewed_by="x",
                                    reviewed_at=datetime.now(UTC)))
        session.flush()
    case = inbox.review(late.id, attachment, accepted=True, reason=None, deadline=None,
                        by="Clara")
    assert case.status is FilingStatus.REVIEWING and case.deadline is None
    assert [r.accepted for r in case.reviews] == [False, True]  # every review kept

    draft = registry.save_draft("ato-x", {"b": 2}, title="Ato", by="Clara")
    inbox.prepared(late.id, draft_id=draft.id, by="Clara")
    assert inbox.case_of_draft(draft.id).filed.id == late.id  # type: ignore[union-attr]
    registry.mark_draft_issued(draft.id, document_id=late.receipt.id, by="Sérgio")
    case = inbox.case(late.id)  # type: ignore[assignment]
    assert case is not None and case.status is FilingStatus.DECIDED
    assert case.act_id == late.receipt.id
    assert Filings(registry).by_protocol(late.protocol).status == "decidido"  # type: ignore[union-attr]
    with pytest.raises(InputError, match="já foi decidido"):
        inbox.review(late.id, attachment, accepted=False, reason="Outro motivo.",
                     deadline=date(2026, 12, 20), by="Clara")
    untouched = registry.save_draft("ato-x", {"b": 3}, title="Outro", by="Clara")
    registry.mark_draft_issued(untouched.id, document_id=first.receipt.id, by="Sérgio")
    assert inbox.case(first.id).status is FilingStatus.RECEIVED  # type: ignore[union-attr]
