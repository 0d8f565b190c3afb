"""The ciência by electronic access: Lei nº 9.784/1999, art. 26, § 3º.

Art. 26, § 3º admits the intimação "por ciência no processo, por via postal com aviso
de recebimento, por telegrama ou outro meio que assegure a certeza da ciência do
interessado". Neither Lei nº 4.419/2006 (fretamento) nor Lei nº 4.515/2007 (transporte
escolar) names the means of the intimação; the federal law applies subsidiarily, as it
does to the appeals the pack already applies (arts. 56 and 59).

**Reading chosen** (``lei-9784-1999#art26_par3``): the applicant's access to an act on
the tracking page of the requerimento filed online is a means "que assegure a certeza da
ciência" only when all of the following hold, and then it is recorded as the same fact
``lavra fato ciencia`` records (means ``eletronico``, with the time of the access):

1. **who**: the person is identified by the pair the receipt gave only to the filer —
   the protocol number and the CPF/CNPJ that filed it — and the act is addressed to
   that same CPF/CNPJ (:func:`destinatario`: the party the act names as its addressee,
   per form, :data:`DESTINATARIOS`). An act addressed to someone else (a refusal of
   another person's request in the same processo, a company's decision seen by its
   driver) is not that person's ciência;
2. **what**: the act is in the processo opened by that protocol, is not cancelled and
   its text (the signed PDF) is what the access opens;
3. **the explicit act**: not a silent download. Before the act is opened the page
   states that opening it counts as ciência and starts the periods that run from it
   (recurso, defesa), and the ciência is recorded only on the person's click on
   "Tomar ciência e abrir o documento". Art. 26, § 5º makes an intimação without the
   legal requirements null, "mas o comparecimento do administrado supre sua falta ou
   irregularidade": the access with that declaration is the electronic counterpart of
   the comparecimento;
4. **once**: the first access counts; later accesses change nothing, and a ciência
   already on record (signed on the spot, by AR, by edital) stands — the periods run
   from the first knowledge.

Acts whose form records the ciência in the act itself (autos and termos signed on the
spot, ``"ciencia": {"campo": ...}``) and acts that start no period from the ciência get
no electronic ciência: there is nothing for it to start.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.registry.records import normalize_cpf_cnpj

__all__ = ["DESTINATARIOS", "IMPLEMENTED", "destinatario"]

IMPLEMENTED = ("lei-9784-1999#art26_par3",)

DESTINATARIOS: dict[str, tuple[str, ...]] = {
    # The refusal of a requerimento: the applicant (Lei nº 9.784/1999, art. 50, I).
    "decisao-indeferimento": ("/requerente/cnpj", "/requerente/cpf"),
    # Fretamento: the company holding the alvará (Lei nº 4.419/2006, arts. 22 to 24).
    "decisao-cassacao-fretamento": ("/empresa/cnpj",),
    "notificacao-defesa-cassacao": ("/empresa/cnpj",),
    "notificacao-fretamento": ("/empresa/cnpj",),
    "decisao-recurso-secretario": ("/recorrente/cnpj", "/recorrente/cpf"),
    # Transporte escolar: the driver holding the alvará (Lei nº 4.515/2007, arts. 3º,
    # 23 to 26).
    "decisao-revogacao-alvara": ("/condutor/cpf",),
    "notificacao-defesa-revogacao": ("/condutor/cpf",),
    "declaracao-vacancia": ("/titular/cpf",),
}
"""Per form, where its data names the party the act is addressed to (first found)."""


def destinatario(form: str, data: Mapping[str, Any]) -> str | None:
    """The CPF/CNPJ (digits) of the party the act of ``form`` is addressed to; None for a
    form outside :data:`DESTINATARIOS` or data that names no valid one."""
    for pointer in DESTINATARIOS.get(form, ()):
        found = pointers.get(data, pointer)
        if isinstance(found, str) and found.strip():
            try:
                return normalize_cpf_cnpj(found)
            except InputError:
                return None
    return None
