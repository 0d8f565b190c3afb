"""Os passos de fretamento das histórias que ``lavra demo`` conta (Lei nº 4.419/2006).

A história do fretamento (:data:`lavra_americana.comum.demonstracao.FRETAMENTO`) passa
pelos atos da fiscalização e das autorizações, cada um emitido do exemplo do seu
formulário e citando, dos atos anteriores, o número que o registro lhes deu: a
notificação dos discos do tacógrafo, o recibo do alvará recolhido e a sua devolução, a
vistoria extraordinária, a autorização prévia de alteração do veículo e a de uso do
veículo de outra empresa, com os seus requerimentos protocolados online. A da renovação
(:data:`lavra_americana.comum.demonstracao.RENOVACAO_FRETAMENTO`) ganha o requerimento de
renovação. Aqui só se encadeiam atos de outros módulos: nenhum dispositivo.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

from lavra.demochains import DemoStep, Filing, Fill, Imported
from lavra_americana.comum.periods import term_end

IMPLEMENTED: tuple[str, ...] = ()
"""Nenhum dispositivo: os passos só encadeiam atos de outros módulos."""

_ALVARA = "{alvara.numero}"

NOTIFICACAO = DemoStep("notificacao", "notificacao-fretamento", 20, (
    Fill("/veiculo/alvara", _ALVARA),
    Fill("/motivo", "Reclamação registrada no SAC relata excesso de velocidade do veículo na "
                    "Rodovia Anhanguera, no trajeto do fretamento contínuo, nos dias dos "
                    "discos requeridos abaixo."),
))
"""Os discos do tacógrafo (``fretamento#art10_par1``), de dias ainda na guarda de 90 dias;
o motivo não repete as datas do exemplo, que a demonstração leva ao dia do passo."""

AUTO_RECOLHIMENTO = (
    Fill("/impedimento", {"alvara_recolhido": True}),
    Fill("/observacoes", "O veículo foi retirado de circulação pelo termo de impedimento "
                         "lavrado no local, e o alvará, recolhido contra recibo."),
)
"""O terceiro auto é o da constatação em que o alvará é recolhido (``fretamento#art21_par2``):
a irregularidade não é sanada no local, e o veículo não é liberado."""

RECIBO = DemoStep("recibo", "recibo-recolhimento-alvara", 40, (
    Fill("/ato", {"tipo": "auto-infracao", "numero": "{auto3.impresso}"}),
    Fill("/alvara/numero", _ALVARA),
), hour="17:15")
"""O recibo do alvará recolhido (``fretamento#art21_par2``) é dado no local, antes do
termo de impedimento que o cita: pertence ao auto da mesma constatação (o terceiro),
já no registro."""

IMPEDIMENTO_RECIBO = Fill("/retirada/recibo_alvara", "{recibo.numero}")
"""O termo de impedimento cita o recibo que a demonstração emitiu."""

DEVOLUCAO = DemoStep("devolucao", "termo-devolucao-alvara", 41, (
    Fill("/recibo/numero", "{recibo.impresso}"),
    Fill("/alvara/numero", _ALVARA),
), hour="18:00")
"""A devolução no dia seguinte, com o veículo regularizado (``fretamento#art21_par4``)."""

VISTORIA = DemoStep("vistoria", "termo-vistoria-extraordinaria-fretamento", 43, (
    Fill("/alvara/numero", _ALVARA),
    Fill("/exigencias/seguranca", {
        "atendida": True,
        "constatacao": "Pneus dianteiros novos, com sulcos acima do limite; extintor de "
                       "incêndio com carga válida."}),
))
"""A vistoria extraordinária (``fretamento#art13``) depois da devolução: as exigências
atendidas, o veículo segue em serviço e o alvará não se suspende (uma retirada o
suspenderia, e os atos seguintes da história não o teriam em vigor)."""

_CEDENTE = {"razao_social": "Transportes Modelo Turismo Ltda.", "cnpj": "11.222.333/0001-81"}
_PLACA_CEDIDA = "DEF4G56"


def _alvara_cedido(day: date, numero: int) -> Mapping[str, str]:
    """O alvará do veículo cedido, de outra empresa, expedido antes do lavra dois anos
    antes do passo, com os 5 anos de validade do art. 8º: entra no registro pela
    importação, num exercício em que a demonstração não emite alvará, com o número que a
    série dá em seguida naquele exercício (o primeiro: nenhum outro ALV-FRET daquele
    exercício está no registro, nem fica número anterior ao lavra sem ato)."""
    issued = day - timedelta(days=2 * 365)
    return {"numero": f"ALV-FRET nº {numero:04d}/{issued.year}",
            "data": issued.isoformat(), "processo": f"PA 2.417/{issued.year}",
            "cpf_cnpj": _CEDENTE["cnpj"], "nome": _CEDENTE["razao_social"],
            "placa": _PLACA_CEDIDA, "valido_ate": term_end(issued, years=5).isoformat()}


_MOTIVO_TERCEIRO = ("Veículo próprio {alvara.impresso} recolhido à encarroçadora para a "
                    "alteração autorizada, por cerca de 90 dias, sem reserva na frota para o "
                    "fretamento contínuo contratado.")

_ALVARA_EMPRESA = {"numero": _ALVARA, "valido_ate": "{alvara.valido_ate}"}
"""O alvará da empresa, que a demonstração emitiu: está no registro, e nenhum servidor
precisa atestar que conferiu o original em papel (a ``conferencia`` dos exemplos é a do
alvará anterior ao lavra; o do veículo cedido a mantém)."""

ALTERACAO = (
    # A alteração do veículo só com autorização prévia (``fretamento#art10_par3``): o
    # requerimento protocolado online, e a autorização no processo que ele abriu.
    DemoStep("pedido_alteracao", "requerimento-autorizacao-alteracao-veiculo", 44, (
        Fill("/alvara", _ALVARA_EMPRESA),
    ), filing=Filing("/requerente/cnpj", "/requerente/razao_social")),
    # O alvará do veículo de outra empresa, anterior ao lavra (``fretamento#art8``).
    DemoStep("alvara_cedido", "alvara-fretamento", 44,
             imported=Imported("alvara-fretamento", _alvara_cedido)),
    # O uso do veículo de outra empresa (``fretamento#art15_inc6``), enquanto o próprio
    # está na encarroçadora.
    DemoStep("pedido_terceiro", "requerimento-autorizacao-veiculo-terceiro", 45, (
        Fill("/requerente/alvara", _ALVARA_EMPRESA),
        Fill("/alvara_veiculo", {"numero": "{alvara_cedido.numero}",
                                 "valido_ate": "{alvara_cedido.valido_ate}"}),
        Fill("/motivo", _MOTIVO_TERCEIRO),
    ), filing=Filing("/requerente/cnpj", "/requerente/razao_social")),
    DemoStep("alteracao", "autorizacao-previa-alteracao-veiculo", 46, (
        Fill("/alvara", _ALVARA_EMPRESA),
        Fill("/processo", {"numero": "{pedido_alteracao.impresso}",
                           "data_requerimento": "{pedido_alteracao.data}"}),
    )),
    DemoStep("terceiro", "autorizacao-veiculo-terceiro", 47, (
        Fill("/empresa/alvara", _ALVARA_EMPRESA),
        Fill("/alvara_veiculo/numero", "{alvara_cedido.numero}"),
        Fill("/alvara_veiculo/valido_ate", "{alvara_cedido.valido_ate}"),
        Fill("/processo", {"numero": "{pedido_terceiro.impresso}",
                           "data_requerimento": "{pedido_terceiro.data}"}),
        Fill("/motivo", _MOTIVO_TERCEIRO),
    )),
)


def pedido_renovacao(day: int, empresa: Mapping[str, str], placa: str) -> DemoStep:
    """O requerimento de renovação (``fretamento#art8``: com 30 dias de antecedência do
    vencimento), protocolado online pela empresa do alvará anterior, para o seu veículo."""
    return DemoStep("pedido", "requerimento-renovacao-alvara-fretamento", day, (
        Fill("/requerente/razao_social", empresa["razao_social"]),
        Fill("/requerente/cnpj", empresa["cnpj"]),
        Fill("/requerente/nome_fantasia", "Antigos Turismo"),
        Fill("/alvara_anterior", {"numero": "{alvara.numero}",
                                  "valido_ate": "{alvara.valido_ate}"}),
        Fill("/veiculo/placa", placa),
    ), filing=Filing("/requerente/cnpj", "/requerente/razao_social"))
