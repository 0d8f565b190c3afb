"""What a fretamento renewal needs: the one definition read by the public requerimento
(``requerimento-renovacao-alvara-fretamento``: its completeness report, ``renovacao.py``),
the renewal run's plan (``renovacao_lote.py``: the renewed alvará's data) and the act
(``alvara-fretamento``: its completeness check, ``alvara.py``).

The requerimento's schema asks for each document of art. 7º with its date of issue; a
document's number is optional there. The alvará, however, prints the vehicle's
inspection certificate by its number and date ("Inspeção veicular": art. 7º, XI, and
art. 10, § 4º, which forbids using a vehicle without it). :data:`CARRIED` lists what goes
from the request into the act; the requerimento is complete only when each is given, and
the alvará is complete only when each is in it, so that what the public page calls
"Completo" is what the act accepts. The law is silent on the certificate's number; the
reading chosen is that the certificate the alvará names must be identifiable, so its
number is asked of the company rather than printed blank.

No fact of the licensing state is read for this renewal (unlike the school renewal's
``VEHICLE_FACTS``/``HOLDER_FACTS``, read through ``comum/lote.as_held``), because no act
of this law changes what the renewed alvará takes from the one it renews:

- the holder: the alvará is issued to the company "para cada veículo" (art. 8º) and the
  law has no transfer of it (no provision like art. 15 of the school law); a company's
  change of name reaches the renewal through the names the state registers;
- the vehicle: the law has no change of vehicle within an alvará; another vehicle needs
  an alvará of its own, requested under art. 7º (``renovacao_lote.py``, art. 10, I);
- its characteristics: the prior authorisation of art. 10, § 3º
  (``autorizacao-previa-alteracao-veiculo``) authorises a change still to be made and
  states it in free text, so it establishes no vehicle fact; the renewal takes the
  vehicle as the request states it, with its current inspection (art. 7º, XI; art. 8º,
  "documentação atualizada"), over the previous alvará's.

The public requerimento's check therefore asks the registry nothing
(``ContentPack.public_questions`` does not list it), and its page and the run judge it
by the same rules without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.checking.report import Item
from lavra_americana.comum import requisitos
from lavra_americana.comum.requisitos import Carried

__all__ = ["CARRIED", "IMPLEMENTED", "act_items", "carry", "request_items"]

IMPLEMENTED: tuple[str, ...] = ()
"""A definition shared by the forms: the articles are cited by each item."""

_INSPECTION = "Comprovante de inspeção veicular"
_BASIS = ("fretamento#art7_inc11", "fretamento#art10_par4")

CARRIED: tuple[Carried, ...] = (
    Carried("/documentos/inspecao_veicular/numero", "/inspecao_veicular/numero",
            _INSPECTION, "o número do comprovante", _BASIS),
    Carried("/documentos/inspecao_veicular/data_emissao", "/inspecao_veicular/data_emissao",
            _INSPECTION, "a data de emissão do comprovante", _BASIS),
)


def request_items(data: Mapping[str, Any]) -> list[Item]:
    """The requerimento's items (:func:`lavra_americana.comum.requisitos.request_items`)."""
    return requisitos.request_items(CARRIED, data)


def act_items(data: Mapping[str, Any]) -> list[Item]:
    """The alvará's items (:func:`lavra_americana.comum.requisitos.act_items`)."""
    return requisitos.act_items(CARRIED, data)


def carry(request: Mapping[str, Any], act: dict[str, Any]) -> dict[str, Any]:
    """``act`` with each value of :data:`CARRIED` the request gives set in it."""
    return requisitos.carry(CARRIED, request, act)
