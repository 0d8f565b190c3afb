"""What a school-transport renewal needs: the one definition read by the public
requerimento (``requerimento-renovacao-escolar``: its completeness report), the renewal
run's plan (``renovacao_lote.py``: the renewed alvará's data) and the act
(``alvara-transporte-escolar``: its completeness check).

The requerimento's schema asks for each document of art. 13, § 5º, with its date of
issue; a document's number is optional there, as most of them have none worth
printing. The renewed alvará, however, prints two numbers taken from the request: the
receipt of the renewal fee (art. 3º, § 1º, and art. 13, § 3º: "Recolhimento comprovado
por ...") and the last CIRETRAN inspection report (art. 17, III); and its insurance
(art. 17, IV) is the apólice of art. 13, § 5º, X, with its insurer and term. :data:`CARRIED` lists
what goes from the request into the act; the requerimento is complete only when each
is given, and the alvará is complete only when each is in it, so that what the public
page calls "Completo" is what the act accepts.

The holder's inscription in the Cadastro de Atividades (:func:`state_items`) is the
other value the renewed alvará prints that the request does not always carry: the
renewal takes it from the licensing state (``estado.HOLDER_FACTS``), and when the state
holds none (a transfer whose termo was signed before the cessionário's registration,
art. 15, § 1º; an alvará imported without it) the request must give it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.checking.computations import History, item_at
from lavra.checking.holder_questions import own_licence
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra_americana.comum import requisitos
from lavra_americana.comum.requisitos import Carried
from lavra_americana.transporte_escolar.estado import HOLDER_FACTS

__all__ = ["CARRIED", "IMPLEMENTED", "INSCRIPTION", "PUBLIC_QUESTIONS", "Carried", "act_items",
           "carry", "request_items", "state_items"]

IMPLEMENTED: tuple[str, ...] = ()
"""A definition shared by the forms: the articles are cited by each item."""


CARRIED: tuple[Carried, ...] = (
    Carried("/documentos/comprovante_taxa_renovacao/numero", "/processo/comprovante_taxa",
            "Comprovante de recolhimento da taxa de renovação", "o número do comprovante",
            ("transporte-escolar#art3_par1", "transporte-escolar#art13_par3")),
    Carried("/documentos/comprovante_taxa_renovacao/data_emissao",
            "/processo/data_pagamento_taxa",
            "Comprovante de recolhimento da taxa de renovação", "a data do recolhimento",
            ("transporte-escolar#art3_par1", "transporte-escolar#art13_par3")),
    Carried("/documentos/laudo_vistoria_ultimo/numero",
            "/veiculo/laudo_vistoria_ciretran/numero",
            "Último laudo de vistoria do veículo expedido pela CIRETRAN",
            "o número do laudo", ("transporte-escolar#art13_par5_inc3",
                                  "transporte-escolar#art17_inc3")),
    Carried("/documentos/laudo_vistoria_ultimo/data_emissao",
            "/veiculo/laudo_vistoria_ciretran/data_emissao",
            "Último laudo de vistoria do veículo expedido pela CIRETRAN",
            "a data de emissão do laudo", ("transporte-escolar#art13_par5_inc3",
                                           "transporte-escolar#art17_inc3")),
    # The insurance the renewed alvará prints (art. 17, IV) is the apólice the request
    # shows (art. 13, § 5º, X): an alvará imported from before lavra holds none to keep.
    Carried("/documentos/apolice_app/numero", "/veiculo/seguro/apolice",
            "Apólice de seguro em favor de terceiros e passageiros transportados (APP)",
            "o número da apólice", ("transporte-escolar#art13_par5_inc10",
                                    "transporte-escolar#art17_inc4")),
    Carried("/documentos/apolice_app/orgao_emissor", "/veiculo/seguro/seguradora",
            "Apólice de seguro em favor de terceiros e passageiros transportados (APP)",
            "a seguradora (órgão emissor da apólice)", ("transporte-escolar#art13_par5_inc10",
                                                        "transporte-escolar#art17_inc4")),
    Carried("/documentos/apolice_app/validade", "/veiculo/seguro/validade",
            "Apólice de seguro em favor de terceiros e passageiros transportados (APP)",
            "a vigência da apólice", ("transporte-escolar#art13_par5_inc10",
                                      "transporte-escolar#art17_inc4")),
)


ALVARA = "alvara-transporte-escolar"

PUBLIC_QUESTIONS = frozenset({"requerimento-renovacao-escolar"})
"""The requerimento whose public page asks the state the holder's own question
(:func:`state_items`; :attr:`lavra.pack.ContentPack.public_questions`)."""

INSCRIPTION = "/requerente/cadastro_atividades"
"""Where the request gives the holder's inscription the state lacks."""


def state_items(data: Mapping[str, Any], history: History | None) -> list[Item]:
    """The request's item for what the renewed alvará prints of its holder and the
    licensing state does not hold: the inscription in the Cadastro de Atividades
    (art. 2º; art. 8º, § 2º; after a transfer, art. 15, § 1º, the cessionário's).

    Asked when the state holds the alvará renewed *as the requerente's* (the CPF typed
    is its holder's) and keeps no inscription for it, and the request gives none. The
    question is the holder's own (:mod:`lavra.checking.holder_questions`): the public
    page asks it too (:data:`PUBLIC_QUESTIONS`), so that the page, the run and staff
    judge the request alike. Reading chosen where the state cannot answer (no registry,
    a paper alvará, or a CPF that is not the holder's, which the run refuses on its
    own): the item is not asked, and the act's own check names the inscription; asking
    it there would tell whoever types a number and a CPF whether they match."""
    asked, number = own_licence(history), pointers.get(data, "/alvara_anterior/numero")
    cpf = pointers.get(data, "/requerente/cpf")
    if (asked is None or not isinstance(number, str) or not isinstance(cpf, str)
            or requisitos.given(data, INSCRIPTION)):
        return []
    if asked.holder_knows(number, ALVARA, cpf, HOLDER_FACTS[0]) is not False:
        return []
    return [item_at(
        INSCRIPTION, Status.MISSING,
        "Informe a inscrição do titular no Cadastro de Atividades do Município, que o "
        "alvará renovado imprime e o registro não tem (licença transferida sem ela no "
        "termo, ou alvará anterior ao sistema): Inscrição no Cadastro de Atividades",
        "transporte-escolar#art2", "transporte-escolar#art8_par2",
        "transporte-escolar#art15_par1")]


def request_items(data: Mapping[str, Any]) -> list[Item]:
    """The requerimento's items (:func:`lavra_americana.comum.requisitos.request_items`)."""
    return requisitos.request_items(CARRIED, data)


def act_items(data: Mapping[str, Any]) -> list[Item]:
    """The alvará's items (:func:`lavra_americana.comum.requisitos.act_items`)."""
    return requisitos.act_items(CARRIED, data)


def carry(request: Mapping[str, Any], act: dict[str, Any]) -> dict[str, Any]:
    """``act`` with each value of :data:`CARRIED` the request gives set in it."""
    return requisitos.carry(CARRIED, request, act)
