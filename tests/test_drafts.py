"""The drafts kept in the registry (lavra.registry.drafts), on SQLite and PostgreSQL:
saved, updated with the version check, forwarded, listed, issued, discarded; two saves
of the same version at once, one refused."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from registrycases import builder

from lavra.errors import InputError
from lavra.registry.drafts import Draft, DraftStatus, StaleDraft
from lavra.registry.store import open_registry

AT = datetime(2026, 12, 6, 13, 40, tzinfo=UTC)
LATER = datetime(2026, 12, 6, 14, 5, tzinfo=UTC)


def test_draft_lifecycle(registry_url: str) -> None:
    with open_registry(registry_url) as registry:
        first = registry.save_draft("alvara-x", {"nome": "Fulana"}, title="Alvará — Fulana",
                                    by="Clara Redatora (clara)", now=AT)
        assert (first.status, first.version, first.created_at) == (DraftStatus.DRAFT, 1, AT)
        second = registry.update_draft(first.id, {"nome": "Fulana de Tal"}, version=1,
                                       title="Alvará — Fulana de Tal", by="Sérgio", now=LATER)
        assert second.version == 2 and second.data == {"nome": "Fulana de Tal"}
        assert second.created_by == "Clara Redatora (clara)" and second.updated_by == "Sérgio"

        with pytest.raises(StaleDraft) as stale:
            registry.update_draft(first.id, {"nome": "Outra"}, version=1, title="T", by="Clara")
        assert str(stale.value.message).startswith(
            f"A minuta nº {first.id} foi alterada por Sérgio em 06/12/2026 11:05")
        assert registry.draft(first.id) == second  # nothing written

        sent = registry.forward_draft(first.id, version=2, signer_role="secretario", by="Clara",
                                      now=datetime(2026, 12, 6, 15, 0, tzinfo=UTC))
        other = registry.save_draft("auto-y", {}, title="Auto", by="Clara", now=AT)
        assert registry.drafts(status="encaminhado", signer_role="secretario") == (sent,)
        assert registry.drafts(form="auto-y") == (other,)
        assert [d.id for d in registry.drafts()] == [sent.id, other.id]  # last changed first
        with pytest.raises(InputError, match="Situação de minuta desconhecida"):
            registry.drafts(status="pronto")

        record = registry.issue("ALV", 2026, "alvara-x", builder({"nome": "Fulana de Tal"}))
        issued = registry.mark_draft_issued(first.id, document_id=record.id, by="Sérgio")
        assert issued.status is DraftStatus.ISSUED and issued.document_id == record.id
        with pytest.raises(InputError, match="já foi emitido"):
            registry.update_draft(first.id, {}, version=issued.version, title="T", by="Clara")

        gone = registry.discard_draft(other.id, version=1, by="Clara")
        assert gone.status.label == "descartado"
        with pytest.raises(InputError, match="já foi descartado"):
            registry.forward_draft(other.id, version=2, signer_role="s", by="Clara")


def test_draft_data_goes_through_the_strict_reader(registry_url: str) -> None:
    with open_registry(registry_url) as registry:
        with pytest.raises(InputError):
            registry.save_draft("f", {"nome": "a\u202eb"}, title="T", by="Clara")
        with pytest.raises(InputError, match="título da minuta"):
            registry.save_draft("f", {}, title="  ", by="Clara")
        with pytest.raises(InputError, match="não existe"):
            registry.update_draft(999, {}, version=1, title="T", by="Clara")
        assert registry.drafts() == ()


def test_two_saves_of_one_version_at_once(registry_url: str) -> None:
    with open_registry(registry_url) as registry:
        draft = registry.save_draft("f", {"n": 0}, title="T", by="Clara")
        start = threading.Barrier(2, timeout=60)
        outcomes: list[Draft | Exception] = []

        def save(value: int) -> None:
            start.wait()
            try:
                outcomes.append(registry.update_draft(draft.id, {"n": value}, version=1,
                                                      title="T", by=f"pessoa {value}"))
            except InputError as error:
                outcomes.append(error)

        threads = [threading.Thread(target=save, args=(n,)) for n in (1, 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        saved = [o for o in outcomes if isinstance(o, Draft)]
        refused = [o for o in outcomes if isinstance(o, StaleDraft)]
        assert len(saved) == 1 and len(refused) == 1, outcomes
        assert registry.draft(draft.id) == saved[0] and saved[0].version == 2
