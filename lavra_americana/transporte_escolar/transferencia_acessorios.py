"""What the termo of transfer (TRF-ESC, Lei nº 4.515/2007, art. 15) states of the selo and
the other acts resting on the alvará it transfers: the effects the termo produces in the
licensing state (:func:`lavra_americana.transporte_escolar.estado.transferencia`), read
from the registry on the termo's date, so that the signed act says what it ends.

Reading (the one written in ``estado.transferencia``; art. 15 is silent on the vehicle;
art. 3º, § 2º, art. 17, § 1º, and art. 18): a transfer with another vehicle is also a
change of vehicle. The selo "correspondente à licença" identifies the vehicle it was
issued for (art. 18: affixed to its windscreens), and the publicity authorisation is for
the "veículo licenciado": both end with the old vehicle on the termo's date, as with the
Termo de Substituição de Veículo (``troca_veiculo``), and the cessionário takes a new
selo for his vehicle on its presentation (art. 13, § 4º). With the same vehicle, they
follow the licence to the cessionário (art. 3º, § 2º: the selo corresponds to the
licence, not to the person).

The acts named are those the state holds in force on the termo's date for the vehicle
that leaves the licence (the alvará itself excepted): the ones the state ends in the
termo's transaction (:func:`lavra.registry.accessories.end_vehicle_bound`). An alvará
the registry does not hold (issued before it) has no acts to name: the termo states the
rule, without numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from lavra.checking.computations import (
    ComputeInput,
    LicensingHistory,
    clean_text,
    licensing,
)
from lavra.inputs import pointers
from lavra.inputs.formats import has_placa_shape, mask_placa, unmask
from lavra.law.model import Law
from lavra_americana.comum.citing import cite_many

if TYPE_CHECKING:
    from lavra.registry.licensing import LicenceView

__all__ = ["IMPLEMENTED", "accessories_explanation"]

SCHOOL = "transporte-escolar"
ALVARA = "alvara-transporte-escolar"
READING = (f"{SCHOOL}#art3_par2", f"{SCHOOL}#art15", f"{SCHOOL}#art17_par1",
           f"{SCHOOL}#art18")
NEW_SELO = f"{SCHOOL}#art13_par4"

IMPLEMENTED: tuple[str, ...] = ()
"""None of its own: it states what the state's effect of the transfer does (art. 15 is
``transferencia``'s; the reading's articles are cited in the paragraph)."""

_NAMES = {
    "selo-identificacao": "o selo de identificação",
    "autorizacao-publicidade-escolar": "a autorização de publicidade",
    "alvara-condutor-auxiliar": "o alvará de condutor auxiliar",
}


def _plate(value: Any) -> str | None:
    text = clean_text(value)
    return None if text is None else text.replace("-", "").upper()


def _shown(plate: str) -> str:
    """The plate as the termo's table prints it (``ABC-1234``; Mercosul ``ABC1D23``)."""
    return mask_placa(plate) if has_placa_shape(plate) else plate


def _named(views: Sequence[LicenceView]) -> str:
    parts = [f"{_NAMES.get(view.kind, 'o ato')} {view.printed}" for view in views]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} e {parts[-1]}"


def _accessories(state: LicensingHistory, plate: str, alvara: LicenceView,
                 on: date) -> list[LicenceView]:
    """The acts in force on ``on`` that name the vehicle ``plate``, the alvará excepted."""
    return [view for view in state.vehicle_licences(plate, on)
            if view.printed != alvara.printed and view.kind != ALVARA]


def _other_vehicle(found: Sequence[LicenceView], old: str, new: str, ref: str,
                   new_selo: str) -> str:
    leaves = (f"o veículo de placa {old}, que deixa de ser o veículo licenciado com esta "
              "transferência com outro veículo")
    if len(found) == 1:
        what = (f"Encerra-se nesta data o ato expedido para {leaves}: {_named(found)}, que "
                "deve ser retirado do veículo e devolvido à SETRANSV")
    elif found:
        what = (f"Encerram-se nesta data os atos expedidos para {leaves}: {_named(found)}, "
                "que devem ser retirados do veículo e devolvidos à SETRANSV")
    else:
        what = (f"Conforme o registro, não há selo de identificação nem outra autorização em "
                f"vigor expedida para {leaves}")
    return (f"{what} ({ref}). Novo selo, numerado, é expedido para o veículo de placa {new}, "
            "da parte cessionária, e retirado com a apresentação desse veículo aos fiscais "
            f"da SETRANSV ({new_selo}).")


def _same_vehicle(found: Sequence[LicenceView], plate: str, ref: str) -> str:
    kept = f"O veículo licenciado permanece o de placa {plate}"
    if len(found) == 1:
        return (f"{kept}: acompanha a licença e passa à parte cessionária {_named(found)}, "
                f"ato correspondente à licença ({ref}).")
    if found:
        return (f"{kept}: acompanham a licença e passam à parte cessionária {_named(found)}, "
                f"atos correspondentes à licença ({ref}).")
    return (f"{kept}: o selo de identificação e as demais autorizações em vigor "
            f"correspondentes à licença passam à parte cessionária com a licença ({ref}).")


def accessories_explanation(request: ComputeInput, data: Mapping[str, Any],
                            laws: Mapping[str, Law]) -> str:
    """The paragraph of the termo on the selo and the other acts resting on the alvará
    (module docstring), from the licensing state on the termo's date."""
    ref = cite_many(laws, *READING)
    new_selo = cite_many(laws, NEW_SELO)
    new = _plate(pointers.get(data, "/veiculo/placa"))
    state = licensing(request.history)
    number = clean_text(pointers.get(data, "/licenca/numero"))
    alvara = (state.licence_status(number, ALVARA)
              if state is not None and number is not None and state.tracks(ALVARA) else None)
    old = None if alvara is None else _plate(alvara.placa)
    if state is None or alvara is None or old is None or new is None:
        return ("Se o veículo da parte cessionária não for o veículo constante do alvará, o "
                "selo de identificação e a autorização de publicidade expedidos para este "
                "perdem a validade nesta data e devem ser devolvidos à SETRANSV, e novo selo é "
                f"expedido para o veículo da parte cessionária ({ref}); sendo o mesmo veículo, "
                "passam à parte cessionária com a licença transferida.")
    on = request.on
    if old != new:
        return _other_vehicle(_accessories(state, old, alvara, on), _shown(old), _shown(new),
                              ref, new_selo)
    cedente = unmask(clean_text(pointers.get(data, "/cedente/cpf")) or "")
    following = [view for view in _accessories(state, old, alvara, on)
                 if view.holder is None or unmask(view.holder) == cedente]
    return _same_vehicle(following, _shown(old), ref)
