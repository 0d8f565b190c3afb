"""As histórias que ``lavra demo`` conta: cadeias de atos emitidos em ordem.

Cada passo é um ato emitido do exemplo do seu formulário, com as datas levadas ao dia
do passo; o que o ato cita de um ato anterior (número, validade, data da ciência) vem do
ato que a própria demonstração emitiu, com o número que o registro lhe deu, nunca do
número digitado no exemplo (:mod:`lavra.demochains`). Os intervalos entre os passos são
os dos exemplos, que a lei admite.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from lavra.demochains import DemoChain, DemoStep, Fill, Imported
from lavra_americana.comum.periods import term_end

IMPLEMENTED: tuple[str, ...] = ()
"""Nenhum dispositivo: as histórias da demonstração só encadeiam atos de outros módulos."""

_ALVARA_ESC = Fill("/alvara", {"numero": "{alvara.numero}", "valido_ate": "{alvara.valido_ate}"})

ESCOLAR = DemoChain(
    name="escolar",
    title="transporte escolar: alvará, selo, auto, revalidação e transferência",
    steps=(
        DemoStep("alvara", "alvara-transporte-escolar", 0, verify=True),
        # O selo de identificação acompanha o alvará (escolar art. 3º, § 2º;
        # ``transporte-escolar#art3_par2``), expedido com ele.
        DemoStep("selo", "selo-identificacao", 0, (_ALVARA_ESC,), hour="17:30"),
        # A revalidação é semestral, em maio e novembro (escolar art. 13, § 6º,
        # ``transporte-escolar#art13_par6``): a cadeia termina
        # num desses meses (``months``).
        DemoStep("auxiliar", "alvara-condutor-auxiliar", 6, (
            Fill("/alvara_titular",
                 {"numero": "{alvara.numero}", "valido_ate": "{alvara.valido_ate}"}),
        )),
        DemoStep("auto", "auto-infracao-escolar", 25, (
            Fill("/condutor/alvara", "{alvara.numero}"),
        )),
        # O auto é lavrado com o condutor presente: a ciência consta do próprio auto.
        DemoStep("recurso", "decisao-recurso-prefeito", 46, (
            Fill("/ato_recorrido/numero", "{auto.numero}"),
            Fill("/ato_recorrido/data", "{auto.data}"),
            Fill("/ato_recorrido/data_ciencia", "{auto.data}"),
            Fill("/decisao/determinacoes",
                 "Converte-se a multa do Auto de Infração {auto.impresso} em advertência por "
                 "escrito, cancelando-se a cobrança."),
        )),
        DemoStep("revalidacao", "termo-revalidacao-semestral", 60, (_ALVARA_ESC,),
                 months=(5, 11)),
        DemoStep("renovacao", "notificacao-pendencias-renovacao", 60, (_ALVARA_ESC,),
                 hour="17:30"),
        # Transferência antes dos 2 anos de exercício só pela ressalva do art. 15, I
        # (``transporte-escolar#art15_inc1``): enfermidade do titular, com laudo.
        DemoStep("transferencia", "termo-transferencia-licenca", 61, (
            Fill("/impedimento", {"motivo": "enfermidade", "data": "{revalidacao.data}",
                                  "incapacidade_superior_seis_meses": True}),
            Fill("/documentos_cedente/laudo_medico",
                 {"apresentado": True, "data_emissao": "{revalidacao.data}"}),
            Fill("/licenca/numero", "{alvara.numero}"),
            Fill("/licenca/expedida_em", "{alvara.data}"),
            Fill("/licenca/valido_ate", "{alvara.valido_ate}"),
            Fill("/documentos_cedente/copia_alvara/numero", "{alvara.numero}"),
            Fill("/documentos_cedente/copia_alvara/data_emissao", "{alvara.data}"),
        )),
    ),
)

_ALVARAS_FRET = Fill("/alvaras", [{"numero": "{alvara.numero}", "placa": "ABC1D23"}])
_AUTO_ALVARA = Fill("/veiculo/alvara", "{alvara.numero}")

FRETAMENTO = DemoChain(
    name="fretamento",
    title="fretamento: registro, alvará, autos, defesa e cassação",
    steps=(
        # Só opera a empresa registrada na SETRANSV (``fretamento#art2_par1``): o alvará lê
        # o registro que a certidão criou, e não um registro atestado por servidor.
        DemoStep("registro", "certidao-registro-fretamento", 0, hour="16:30"),
        DemoStep("alvara", "alvara-fretamento", 0, (
            Fill("/empresa/registro_setransv", {"numero": "{registro.impresso}"}),
        ), verify=True),
        DemoStep("auto1", "auto-infracao-fretamento", 10, (_AUTO_ALVARA,)),
        # A guia das multas do primeiro auto ao Fundo Municipal de Trânsito
        # (``fretamento#art26``), que não é paga: a cassação a lista (art. 22, II).
        DemoStep("guia1", "guia-recolhimento-multa-fretamento", 12, (
            Fill("/auto/numero", "{auto1.impresso}"),
        )),
        DemoStep("auto2", "auto-infracao-fretamento", 31, (_AUTO_ALVARA,)),
        # Um terceiro auto, recorrido e mantido, com o impedimento do veículo no local.
        DemoStep("auto3", "auto-infracao-fretamento", 40, (_AUTO_ALVARA,)),
        DemoStep("impedimento", "termo-impedimento-fretamento", 40, (
            Fill("/auto/numero", "{auto3.numero}"),
            Fill("/auto/data", "{auto3.data}"),
            Fill("/veiculo/alvara", "{alvara.numero}"),
        ), hour="17:30"),
        DemoStep("recurso", "decisao-recurso-secretario", 58, (
            Fill("/ato_recorrido/numero", "{auto3.numero}"),
            Fill("/ato_recorrido/data", "{auto3.data}"),
            Fill("/ato_recorrido/data_ciencia", "{auto3.data}"),
            Fill("/decisao/determinacoes",
                 "Mantém-se o Auto de Infração {auto3.impresso} e a multa nele imposta."),
        )),
        # Antes da cassação, a defesa (``fretamento#art22``; Lei nº 9.784/1999, art. 3º, III); a
        # ciência da notificação é um fato registrado depois da assinatura.
        DemoStep(
            "defesa", "notificacao-defesa-cassacao", 66,
            (
                _ALVARAS_FRET,
                Fill("/acusacao/fatos",
                     "As multas impostas pelos Autos de Infração {auto1.impresso} e "
                     "{auto2.impresso} não foram recolhidas, e contra elas não foi interposto "
                     "recurso no prazo do art. 23."),
            ),
            ciencia=1,
        ),
        DemoStep(
            "cassacao", "decisao-cassacao-fretamento", 94,
            (
                _ALVARAS_FRET,
                Fill("/hipoteses/multas_nao_recolhidas/autos", [
                    {"numero": "{auto1.numero}", "data_infracao": "{auto1.data}",
                     "valor": "140.00"},
                    {"numero": "{auto2.numero}", "data_infracao": "{auto2.data}",
                     "valor": "280.00"},
                ]),
                Fill("/defesa/notificacao/numero", "{defesa.impresso}"),
                Fill("/defesa/notificacao/data_ciencia", "{defesa.ciencia}"),
            ),
        ),
    ),
)

_EMPRESA_ANTIGA = {"razao_social": "Transportes Antigos Exemplo Ltda.",
                   "cnpj": "49.234.427/0416-80"}
_PLACA_ANTIGA = "FRE2B22"
_ALVARA_RENOVADO = 7
_AVISO = 5 * 365 - 37
"""O dia da notificação: 36 ou 37 dias antes do fim dos 5 anos do alvará (art. 8º: o
pedido de renovação vem com 30 dias de antecedência; o do exemplo, 5 dias antes da
notificação)."""


def _alvara_anterior(day: date) -> Mapping[str, str]:
    """O alvará que a notificação cita, expedido antes do lavra, em ``day``, com a validade
    de 5 anos do art. 8º (``fretamento#art8``): entra no registro pela importação."""
    return {"numero": f"ALV-FRET nº {_ALVARA_RENOVADO:04d}/{day.year}",
            "data": day.isoformat(), "processo": f"PA 1.188/{day.year}",
            "cpf_cnpj": _EMPRESA_ANTIGA["cnpj"], "nome": _EMPRESA_ANTIGA["razao_social"],
            "placa": _PLACA_ANTIGA, "valido_ate": term_end(day, years=5).isoformat()}


RENOVACAO_FRETAMENTO = DemoChain(
    name="renovacao-fretamento",
    title="fretamento: alvará anterior ao lavra e notificação de pendências da renovação",
    steps=(
        # Um alvará de cinco anos atrás (``fretamento#art8``): o relógio da demonstração
        # não o assina; entra no registro como entram os atos anteriores ao lavra.
        DemoStep("alvara", "alvara-fretamento", 0,
                 imported=Imported("alvara-fretamento", _alvara_anterior)),
        DemoStep("notificacao", "notificacao-pendencias-renovacao-fretamento", _AVISO, (
            Fill("/destinatario", _EMPRESA_ANTIGA),
            Fill("/alvara", {"numero": "{alvara.numero}", "valido_ate": "{alvara.valido_ate}"}),
            Fill("/veiculo", {"placa": _PLACA_ANTIGA}),
        )),
    ),
)

DEMO_CHAINS = (ESCOLAR, FRETAMENTO, RENOVACAO_FRETAMENTO)
