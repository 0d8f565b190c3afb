"""The signing queue in the registry (lavra.registry.drafts), on SQLite and PostgreSQL:
what waits for a signer account (its roles; sent to no one or to it), the first
forwarded first, the count, and a draft returned to the clerk with the reason."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from lavra.errors import InputError
from lavra.registry.drafts import DraftStatus
from lavra.registry.store import open_registry

AT = datetime(2026, 12, 6, 13, 0, tzinfo=UTC)


def test_queue_and_return(registry_url: str) -> None:
    with open_registry(registry_url) as registry:
        def forwarded(name: str, role: str, account: str | None, minutes: int) -> int:
            draft = registry.save_draft("alvara-x", {"nome": name}, title=name, by="Clara",
                                        now=AT)
            return registry.forward_draft(draft.id, version=1, signer_role=role, by="Clara",
                                          signer_account=account,
                                          now=AT + timedelta(minutes=minutes)).id

        later = forwarded("B", "secretario", None, 20)
        mine = forwarded("A", "secretario", "sergio", 10)
        forwarded("C", "secretario", "marta", 5)  # to another signer
        forwarded("D", "diretor", None, 1)  # another role
        registry.save_draft("alvara-x", {"nome": "E"}, title="E", by="Clara")  # not sent
        queue = registry.signing_queue(["secretario"], account="sergio")
        assert [d.id for d in queue] == [mine, later]  # the first forwarded first
        assert queue[0].forwarded == "por Clara em 06/12/2026 10:10"  # local time
        assert registry.signing_queue_count(["secretario"], account="sergio") == 2
        assert registry.signing_queue_count(["secretario", "diretor"], account="sergio") == 3
        assert registry.signing_queue([], account="sergio") == ()

        with pytest.raises(InputError, match="motivo da devolução"):
            registry.return_draft(mine, version=2, reason=" ", by="Sérgio")
        back = registry.return_draft(mine, version=2, reason="Falta  o CRLV.", by="Sérgio",
                                     now=AT + timedelta(hours=1))
        assert (back.status, back.version, back.returned_reason) == (
            DraftStatus.DRAFT, 3, "Falta o CRLV.")
        assert back.returned == "por Sérgio em 06/12/2026 11:00"
        assert registry.signing_queue_count(["secretario"], account="sergio") == 1
        with pytest.raises(InputError, match="não está encaminhada"):
            registry.return_draft(mine, version=3, reason="De novo.", by="Sérgio")
        again = registry.forward_draft(mine, version=3, signer_role="secretario", by="Clara")
        assert again.signer_account is None and again.returned_reason == "Falta o CRLV."
        assert registry.signing_queue_count(["secretario"], account="marta") == 3
