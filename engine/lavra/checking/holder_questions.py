"""The one question a requerimento's check may ask the licensing state about the
person who types it, on a public page as in the run: does the state keep a given fact
of the licence ``number`` *of which the typed CPF/CNPJ is the holder*?

A public page never reads the registry for anyone's data (:mod:`lavra.web.staffcheck`).
Yet a renewal request whose completeness depends on what the state holds (a fact of
the holder a later act may have left out, declared by the pack) would be
called «Completo» by a page without the registry and refused by the run that reads it.
So the pack lists the forms whose check may ask this question on a public page
(:attr:`lavra.pack.ContentPack.public_questions`), and those pages give the check
:class:`lavra.web.publiccheck.PublicQuestions`, which answers this question and no other.
The run's and staff's histories (:class:`lavra.issuing.RegistryHistory`) answer it the
same way, so the page and the run judge a request alike.

What the answer can disclose: nothing of a licence whose holder is not the CPF/CNPJ
typed (the answer is then None, as for a licence the state does not hold), and of the
holder's own licence only whether one fact is kept — what a pending item asks them to
give. Who can type both the number and the holder's CPF/CNPJ learns, at most, that the
state lacks that fact (the item appears only then); that is the reading chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from lavra.checking.conformance import conforms
from lavra.inputs.formats import unmask

if TYPE_CHECKING:
    from lavra.checking.computations import History
    from lavra.registry.licensing import LicenceView

__all__ = ["OwnLicence", "answer", "own_licence"]


@runtime_checkable
class OwnLicence(Protocol):
    """The holder's own question (module docstring)."""

    def holder_knows(self, number: str, kind: str, cpf_cnpj: str, pointer: str) -> bool | None:
        """Whether the state keeps the fact ``pointer`` of the licence ``number`` (of
        ``kind``) whose holder is ``cpf_cnpj`` (masked or digits); None when the state
        holds no such licence of that holder (none, another's, or no CPF/CNPJ given)."""
        ...


def own_licence(history: History | None) -> OwnLicence | None:
    """The holder's question behind ``history``, None when it cannot be asked."""
    return cast(OwnLicence, history) if conforms(history, OwnLicence) else None


def answer(view: LicenceView | None, cpf_cnpj: str, pointer: str) -> bool | None:
    """:meth:`OwnLicence.holder_knows` of the licence ``view`` the state holds."""
    if view is None or not view.holder or not isinstance(cpf_cnpj, str):
        return None
    if unmask(view.holder) != unmask(cpf_cnpj) or not unmask(cpf_cnpj):
        return None
    return any(found == pointer for found, _ in view.facts)
