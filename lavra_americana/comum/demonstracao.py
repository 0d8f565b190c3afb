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

from lavra.demochains import DemoChain, DemoStep, Filing, Fill, Imported
from lavra_americana.comum.periods import term_end
from lavra_americana.fretamento import demonstracao as fretamento
from lavra_americana.transporte_escolar.demonstracao import ESCOLAR_CHAINS

IMPLEMENTED: tuple[str, ...] = ()
"""Nenhum dispositivo: as histórias da demonstração só encadeiam atos de outros módulos."""

_ALVARA_ESC = Fill("/alvara", {"numero": "{alvara.numero}", "valido_ate": "{alvara.valido_ate}"})

_SELO_DO_ALVARA = Fill("/selo_identificacao", "{proximo:SELO-ESC}")
"""O selo é expedido juntamente com o alvará (escolar art. 3º, § 2º;
``transporte-escolar#art3_par2``): o alvará imprime o número que o registro dará ao
próximo selo da série, no ano do passo, e o selo é emitido logo depois dele, no mesmo dia
e sem ato de outra história entre os dois (``together``), e recebe esse número."""

_SELO = (
    _ALVARA_ESC,
    Fill("/titular", {"nome": "{alvara.dados[titular][nome]}",
                      "cpf": "{alvara.dados[titular][cpf]}",
                      "prontuario": "{alvara.dados[prontuario]}"}),
    Fill("/veiculo", {"placa": "{alvara.dados[veiculo][placa]}",
                      "renavam": "{alvara.dados[veiculo][renavam]}",
                      "marca_modelo": "{alvara.dados[veiculo][marca_modelo]}"}),
)
"""O selo do alvará da história: o alvará, o titular e o veículo, como o alvará os
registrou."""

_PROCESSO = Fill("/processo/numero", "{pedido.impresso}")
"""O processo de cada ato que decide um pedido é o protocolo do requerimento, que o
registro guarda (o protocolo abre o processo), nunca um número digitado."""

_VEICULO_NOVO = {"placa": "NOV4D56", "renavam": "35333304201",
                 "marca_modelo": "Volare W9 Escolar"}
"""O veículo substituto do exemplo do termo de substituição (e do requerimento de troca)."""

_VEICULO_ANTIGO = Fill("/veiculo_substituido", {
    "placa": "EXE1A23", "renavam": "84868913830", "marca_modelo": "Volare V8L Escolar",
    "ano_fabricacao": 2021})
"""O veículo do alvará, como o alvará o registrou."""

_ENFERMIDADE = (
    Fill("/impedimento", {"motivo": "enfermidade", "data": "{recurso.data}",
                          "incapacidade_superior_seis_meses": True}),
    Fill("/documentos_cedente/laudo_medico",
         {"apresentado": True, "data_emissao": "{recurso.data}"}),
)
"""Transferência antes dos 2 anos de exercício só pela ressalva do art. 15, I
(``transporte-escolar#art15_inc1``): enfermidade do titular, com laudo, anteriores ao
pedido de transferência."""

_RAZOES_ESC = ("No horário da autuação o condutor retornava de atendimento médico e ainda "
               "não havia assumido o serviço; o embarque foi feito pelo condutor auxiliar, "
               "devidamente trajado, como mostram as declarações anexas.")
"""As razões do recurso contra o auto escolar, como protocolado e como a decisão as cita."""

_RAZOES_FRET = ("A recorrente alega que o selo “F” estava afixado no para-brisa traseiro, "
                "encoberto por película, e junta fotografias do veículo.")
"""As razões do recurso contra o terceiro auto de fretamento, como protocolado e citado."""

_DOCUMENTOS_INSCRICAO = (
    Fill("/titular/cnh/validade", "{pedido.dados[candidato][cnh][validade]}"),
    Fill("/veiculo/seguro/validade", "{pedido.dados[veiculo][seguro][validade]}"),
    Fill("/veiculo/laudo_vistoria_ciretran/data_emissao",
         "{pedido.dados[documentos][laudo_vistoria_ciretran][data_emissao]}"),
)
"""Os documentos que o alvará repete da inscrição (a CNH, a apólice, o laudo de vistoria
do mesmo número) têm as datas da inscrição protocolada, não as do exemplo do alvará
trazidas ao seu dia."""

_DEPOIS_DOS_IMPORTADOS = tuple(range(2, 13))
"""Os meses dos alvarás escolares que a demonstração emite: nenhum em janeiro, o mês dos
alvarás do exercício anteriores ao lavra que ela importa
(``transporte_escolar/demonstracao.py``, ``inicio_exercicio``), para que nenhum ato anterior
ao lavra tenha data posterior à de um alvará do lavra do mesmo exercício."""

ESCOLAR = DemoChain(
    name="escolar",
    title="transporte escolar: requerimento, taxa, alvará, selo, auto, troca de veículo, "
          "revalidação e transferência",
    steps=(
        # A inscrição no processo seletivo (``transporte-escolar#art7``: o "requerimento
        # padrão" é o pedido do alvará), protocolada online: o protocolo abre o processo
        # que o alvará e a guia citam, e a data do requerimento do alvará é a dela. O
        # resto vem depois dela, nas datas do exemplo do alvará contadas do dia 30: o
        # resultado da seleção (dia 12, ``transporte-escolar#art8``), os 5 dias do recurso
        # (``transporte-escolar#art11``), a inscrição no Cadastro de Atividades (dia 22,
        # ``transporte-escolar#art8_par2``), a guia (dia 20) e o seu pagamento (dia 25), e
        # então o alvará (``transporte-escolar#art12``). Nenhuma data da seleção precede a
        # inscrição.
        DemoStep("pedido", "requerimento-inscricao-escolar", 0,
                 filing=Filing("/candidato/cpf", "/candidato/nome")),
        # A taxa de expedição (``transporte-escolar#art3_par1``, ``transporte-escolar#art16``):
        # a guia é emitida no processo, e o alvará cita o seu pagamento.
        DemoStep("guia", "guia-recolhimento-taxa-escolar", 20, (
            _PROCESSO, Fill("/taxa", "expedicao"),
        ), hour="17:30"),
        DemoStep("alvara", "alvara-transporte-escolar", 30, (
            _PROCESSO, *_DOCUMENTOS_INSCRICAO,
            Fill("/processo/data_requerimento", "{pedido.data}"),
            Fill("/processo/comprovante_taxa", "{guia.impresso}"), _SELO_DO_ALVARA,
        ), verify=True, months=_DEPOIS_DOS_IMPORTADOS),
        # O selo de identificação acompanha o alvará (escolar art. 3º, § 2º;
        # ``transporte-escolar#art3_par2``), expedido com ele.
        DemoStep("selo", "selo-identificacao", 30, _SELO, hour="17:01", together=True),
        # A revalidação é semestral, em maio e novembro (escolar art. 13, § 6º,
        # ``transporte-escolar#art13_par6``): a cadeia termina
        # num desses meses (``months``).
        # O auxiliar tem CPF e CNH próprios: os exemplos avulsos dão os mesmos à
        # cessionária da transferência, outra pessoa (um CPF, um nome; uma CNH, uma pessoa)
        DemoStep("auxiliar", "alvara-condutor-auxiliar", 36, (
            Fill("/alvara_titular",
                 {"numero": "{alvara.numero}", "valido_ate": "{alvara.valido_ate}"}),
            Fill("/auxiliar/cpf", "714.602.380-01"),
            Fill("/auxiliar/cnh/numero", "57301628417"),
        )),
        # O selo que o auto anota é o que o registro tem em vigor para o veículo
        # (``transporte-escolar#art3_par2``), o que a demonstração expediu.
        DemoStep("auto", "auto-infracao-escolar", 55, (
            Fill("/condutor/alvara", "{alvara.numero}"), Fill("/veiculo/selo", "{selo.numero}"),
        )),
        # O auto é lavrado com o condutor presente: a ciência consta do próprio auto. O
        # recurso, em única instância ao Prefeito (``transporte-escolar#art25``), é
        # protocolado online, e a decisão cita o seu protocolo.
        DemoStep("recurso_pedido", "recurso-transporte-escolar", 64, (
            Fill("/recorrente/alvara", "{alvara.impresso}"),
            Fill("/auto/numero", "{auto.impresso}"), Fill("/auto/data_infracao", "{auto.data}"),
            Fill("/ciencia", {"no_auto": True, "data": "{auto.data}"}),
            Fill("/razoes", _RAZOES_ESC),
        ), filing=Filing("/recorrente/cpf", "/recorrente/nome")),
        DemoStep("recurso", "decisao-recurso-prefeito", 76, (
            Fill("/ato_recorrido/numero", "{auto.numero}"),
            Fill("/ato_recorrido/data", "{auto.data}"),
            Fill("/ato_recorrido/data_ciencia", "{auto.data}"),
            Fill("/recurso/numero_protocolo", "{recurso_pedido.impresso}"),
            Fill("/recurso/data_protocolo", "{recurso_pedido.data}"),
            Fill("/recurso/razoes", _RAZOES_ESC),
            Fill("/decisao/resultado", "nao_provido"),
            Fill("/decisao/fundamentacao",
                 "As declarações juntadas não afastam o que o agente constatou: o titular "
                 "estava em serviço, no embarque de estudantes, em trajes vedados pelo "
                 "art. 21, V. Primeira infração a esse dever, a sanção é a advertência por "
                 "escrito (art. 23, I), que o auto aplicou."),
            Fill("/decisao/determinacoes",
                 "Mantém-se o {auto.citado} e a advertência por escrito "
                 "nele aplicada."),
        )),
        # A troca de veículo (``transporte-escolar#art17_par1``): o requerimento protocolado,
        # o termo que modifica o alvará (``transporte-escolar#art3``) e o novo selo, que
        # identifica o veículo (``transporte-escolar#art13_par4``); o art. 16 não fixa
        # taxa para a troca, e a demonstração não emite guia para ela.
        DemoStep("troca", "requerimento-troca-veiculo-escolar", 80, (
            Fill("/alvara/numero", "{alvara.numero}"), _VEICULO_ANTIGO,
        ), filing=Filing("/requerente/cpf", "/requerente/nome")),
        # O pedido de transferência (``transporte-escolar#art15``), protocolado online, e
        # a guia da taxa de transferência (``transporte-escolar#art16_inc3``) no seu
        # processo; o termo de transferência cita os dois.
        DemoStep("pedido_transferencia", "requerimento-transferencia-licenca", 80, (
            Fill("/licenca", {"numero": "{alvara.numero}", "expedida_em": "{alvara.data}",
                              "valido_ate": "{alvara.valido_ate}"}),
            Fill("/documentos_cedente/copia_alvara/numero", "{alvara.numero}"),
            Fill("/documentos_cedente/copia_alvara/data_emissao", "{alvara.data}"),
            *_ENFERMIDADE,
        ), hour="17:30", filing=Filing("/cedente/cpf", "/cedente/nome")),
        DemoStep("guia_transferencia", "guia-recolhimento-taxa-escolar", 81, (
            Fill("/processo/numero", "{pedido_transferencia.impresso}"),
            Fill("/taxa", "transferencia"), Fill("/alvara/numero", "{alvara.numero}"),
        )),
        DemoStep("substituicao", "termo-substituicao-veiculo-escolar", 83, (
            Fill("/alvara/numero", "{alvara.numero}"), _VEICULO_ANTIGO,
            Fill("/protocolo_requerimento", "{troca.numero}"),
            Fill("/data_requerimento", "{troca.data}"),
        ), verify=True),
        DemoStep("selo_novo", "selo-identificacao", 83, (
            _ALVARA_ESC, Fill("/veiculo", _VEICULO_NOVO),
        ), hour="17:30"),
        DemoStep("revalidacao", "termo-revalidacao-semestral", 90, (
            _ALVARA_ESC, Fill("/veiculo/placa", _VEICULO_NOVO["placa"]),
            Fill("/veiculo/renavam", _VEICULO_NOVO["renavam"]),
            Fill("/veiculo/marca_modelo", _VEICULO_NOVO["marca_modelo"]),
        ), months=(5, 11)),
        DemoStep("renovacao", "notificacao-pendencias-renovacao", 90, (
            _ALVARA_ESC, Fill("/veiculo/placa", _VEICULO_NOVO["placa"]),
        ), hour="17:30"),
        # Transferência antes dos 2 anos de exercício só pela ressalva do art. 15, I
        # (``transporte-escolar#art15_inc1``): enfermidade do titular, com laudo.
        DemoStep("transferencia", "termo-transferencia-licenca", 91, (
            *_ENFERMIDADE,
            Fill("/processo", {"numero": "{pedido_transferencia.impresso}",
                               "data_requerimento": "{pedido_transferencia.data}"}),
            Fill("/taxa/comprovante", "{guia_transferencia.impresso}"),
            Fill("/licenca/numero", "{alvara.numero}"),
            Fill("/licenca/expedida_em", "{alvara.data}"),
            Fill("/licenca/valido_ate", "{alvara.valido_ate}"),
            Fill("/documentos_cedente/copia_alvara/numero", "{alvara.numero}"),
            Fill("/documentos_cedente/copia_alvara/data_emissao", "{alvara.data}"),
        )),
    ),
)

_CONDUTOR_REV = {"nome": "Rafael Exemplo Prado", "cpf": "318.475.092-23"}
"""O titular da história da revogação: outra pessoa, outro veículo (um alvará escolar
por pessoa, art. 14; um alvará por veículo)."""

_VEICULO_REV = {"placa": "REV3C45", "renavam": "71390245819"}

_ALVARA_REV = (
    Fill("/prontuario", "TE-0057"), _SELO_DO_ALVARA,
    Fill("/titular/nome", _CONDUTOR_REV["nome"]), Fill("/titular/cpf", _CONDUTOR_REV["cpf"]),
    Fill("/titular/cnh/numero", "48219370550"), Fill("/titular/cadastro_atividades", "CA-54401"),
    Fill("/auxiliar", {"nome": "Lúcia Exemplo Barros", "cpf": "274.019.386-69",
                       "cnh": {"numero": "19375604801", "categoria": "D",
                               "validade": "2030-05-12"},
                       "cadastro_atividades": "CA-54402"}),
    Fill("/veiculo/placa", _VEICULO_REV["placa"]),
    Fill("/veiculo/renavam", _VEICULO_REV["renavam"]),
)

_INFRACOES_REV = {
    "auto1": ("transporte-escolar#art24_inc2",
              "O condutor dirigiu-se aos responsáveis de estudantes com gritos e palavras "
              "ofensivas no ponto de embarque."),
    "auto2": ("transporte-escolar#art24_inc1",
              "O condutor transpôs o sinal vermelho e excedeu a velocidade da via com "
              "estudantes a bordo, em infrações reiteradas constatadas no mesmo trajeto."),
    "auto3": ("transporte-escolar#art24_inc2",
              "O condutor voltou a tratar com ofensas um colega de profissão diante dos "
              "estudantes, no ponto de desembarque."),
}
"""As três infrações sujeitas a multa (art. 24; art. 23, II) dos autos da história: a
terceira, reincidência da primeira em menos de 1 ano, é multa em dobro e terceira multa."""


def _auto_rev(name: str, day: int, earlier: tuple[str, ...]) -> DemoStep:
    """Um auto com multa sobre o alvará da história; as infrações anteriores, com o número
    que o registro deu a cada auto (art. 23, parágrafo único)."""
    citation, facts = _INFRACOES_REV[name]
    return DemoStep(name, "auto-infracao-escolar", day, (
        Fill("/infracoes", [{"dispositivo": citation, "descricao": facts}]),
        Fill("/infracoes_anteriores", [
            {"data": f"{{{prior}.data}}", "dispositivo": _INFRACOES_REV[prior][0],
             "auto": f"{{{prior}.numero}}"} for prior in earlier]),
        Fill("/condutor", {**_CONDUTOR_REV, "condicao": "titular",
                           "alvara": "{alvara.numero}"}),
        Fill("/veiculo/placa", _VEICULO_REV["placa"]), Fill("/veiculo/selo", "{selo.numero}"),
        Fill("/ciencia/nome", _CONDUTOR_REV["nome"]),
        Fill("/historico_conferido/verificacao",
             "Registro de documentos da SETRANSV, pelo CPF do condutor: "
             + ("nenhuma infração anterior subsistente." if not earlier else
                "subsistem os autos " + ", ".join(f"{{{p}.impresso}}" for p in earlier)
                + ".")),
    ))


_AUTOS_REV = [{"numero": f"{{{name}.numero}}"} for name in _INFRACOES_REV]

_RAZOES_REV = ("O recorrente alega que as multas ainda podem ser discutidas e que a "
               "revogação é desproporcional, pedindo que se aplique nova multa em seu lugar.")

REVOGACAO_ESCOLAR = DemoChain(
    name="revogacao-escolar",
    title="transporte escolar: alvará, três multas, defesa, revogação e recurso ao Prefeito",
    steps=(
        # O alvará escolar vale até o fim do exercício em que é expedido (renovação anual
        # até o último dia útil do ano, ``transporte-escolar#art13``): expedido de fevereiro
        # a maio (``_DEPOIS_DOS_IMPORTADOS``), a revogação (dia 100) e a decisão do recurso
        # (dia 120) caem no mesmo ano, com o alvará em vigor, qualquer que seja o dia em
        # que a demonstração roda.
        DemoStep("alvara", "alvara-transporte-escolar", 0, _ALVARA_REV, verify=True,
                 months=(2, 3, 4, 5)),
        DemoStep("selo", "selo-identificacao", 0, _SELO, hour="17:01", together=True,
                 months=(2, 3, 4, 5)),
        _auto_rev("auto1", 20, ()),
        _auto_rev("auto2", 45, ("auto1",)),
        _auto_rev("auto3", 70, ("auto1", "auto2")),
        # A notificação para defesa (``transporte-escolar#art23_inc3``; Lei nº 9.784/1999,
        # art. 26): os autos vêm do registro e a notificação diz as multas que conta; a
        # ciência é um fato registrado depois da assinatura.
        DemoStep("defesa", "notificacao-defesa-revogacao", 80, (
            Fill("/condutor/nome", _CONDUTOR_REV["nome"]),
            Fill("/condutor/cpf", _CONDUTOR_REV["cpf"]),
            Fill("/alvara/numero", "{alvara.impresso}"),
            Fill("/veiculo/placa", _VEICULO_REV["placa"]),
            Fill("/acusacao", {
                "hipoteses": ["terceira_multa"], "autos": _AUTOS_REV,
                "fatos": "Foram impostas ao condutor as multas dos Autos de Infração "
                         "{auto1.impresso}, {auto2.impresso} e {auto3.impresso}, por "
                         "infrações ao art. 24 da Lei nº 4.515/2007."}),
        ), ciencia=1),
        DemoStep("revogacao", "decisao-revogacao-alvara", 100, (
            Fill("/condutor/nome", _CONDUTOR_REV["nome"]),
            Fill("/condutor/cpf", _CONDUTOR_REV["cpf"]),
            Fill("/ciencia/nome", _CONDUTOR_REV["nome"]),
            Fill("/alvara/numero", "{alvara.impresso}"),
            Fill("/veiculo/placa", _VEICULO_REV["placa"]),
            Fill("/hipotese", {"tipo": "terceira_multa", "autos": _AUTOS_REV}),
            Fill("/defesa/notificacao", {"numero": "{defesa.impresso}"}),
            Fill("/decisao/fundamentacao",
                 "Os três autos de infração listados subsistem, foram lavrados contra o "
                 "condutor e impuseram multa. A alegação de que as multas estão em discussão "
                 "não se comprova: não consta recurso pendente. A lei não prevê a "
                 "substituição da revogação após a terceira multa. Configurada a hipótese "
                 "do art. 23, III, da Lei nº 4.515/2007."),
        ), ciencia=2),
        # O recurso da penalidade, em única instância ao Prefeito (arts. 25 e 26:
        # ``transporte-escolar#art25``), protocolado online; a decisão cita o protocolo.
        DemoStep("recurso_pedido", "recurso-transporte-escolar", 108, (
            Fill("/recorrente", {**_CONDUTOR_REV, "alvara": "{alvara.impresso}",
                                 "endereco": {"logradouro": "Rua das Acácias",
                                              "numero": "100", "bairro": "Centro",
                                              "municipio": "Americana", "uf": "SP",
                                              "cep": "13465-000"}}),
            Fill("/auto", {"especie": "decisao_revogacao", "numero": "{revogacao.impresso}",
                           "data_infracao": "{revogacao.data}", "placa": _VEICULO_REV["placa"],
                           "penalidade": "Revogação do alvará (art. 23, III)"}),
            Fill("/ciencia", {"no_auto": False, "data": "{revogacao.ciencia}"}),
            Fill("/razoes", _RAZOES_REV),
            Fill("/pedido", "A reforma da decisão, mantido o alvará."),
        ), filing=Filing("/recorrente/cpf", "/recorrente/nome")),
        DemoStep("recurso", "decisao-recurso-prefeito", 120, (
            Fill("/recorrente", _CONDUTOR_REV),
            Fill("/ato_recorrido", {"especie": "decisao", "numero": "{revogacao.numero}",
                                    "data": "{revogacao.data}",
                                    "data_ciencia": "{revogacao.ciencia}"}),
            Fill("/recurso/numero_protocolo", "{recurso_pedido.impresso}"),
            Fill("/recurso/data_protocolo", "{recurso_pedido.data}"),
            Fill("/recurso/razoes", _RAZOES_REV),
            Fill("/decisao/resultado", "nao_provido"),
            Fill("/decisao/fundamentacao",
                 "Os autos subsistem e nenhum deles foi objeto de recurso no prazo do art. "
                 "26. Imposta a terceira multa, a lei comina a revogação do alvará (art. 23, "
                 "III), sem margem para substituí-la por multa."),
            Fill("/decisao/determinacoes",
                 "Mantém-se a {revogacao.citado} e, com ela, a revogação do alvará "
                 "{alvara.impresso}."),
        ), verify=True),
    ),
)

_ALVARAS_FRET = Fill("/alvaras", [{"numero": "{alvara.numero}", "placa": "ABC1D23"}])
_AUTO_ALVARA = Fill("/veiculo/alvara", "{alvara.numero}")

FRETAMENTO = DemoChain(
    name="fretamento",
    title="fretamento: registro, requerimento, alvará, notificação, autos, recolhimento e "
          "devolução do alvará, vistoria, autorizações, defesa e cassação",
    steps=(
        # Só opera a empresa registrada na SETRANSV (``fretamento#art2_par1``): o alvará lê
        # o registro que a certidão criou, e não um registro atestado por servidor.
        DemoStep("registro", "certidao-registro-fretamento", 0, hour="16:30"),
        # O requerimento do alvará (``fretamento#art7``), protocolado online: o protocolo
        # abre o processo que o alvará cita; a conferência do servidor (art. 7º) consta
        # do alvará, dois dias depois.
        DemoStep("pedido", "requerimento-alvara-fretamento", 1,
                 filing=Filing("/requerente/cnpj", "/requerente/razao_social")),
        DemoStep("alvara", "alvara-fretamento", 3, (
            Fill("/empresa/registro_setransv", {"numero": "{registro.impresso}"}),
            _PROCESSO, Fill("/processo/data_requerimento", "{pedido.data}"),
        ), verify=True),
        DemoStep("auto1", "auto-infracao-fretamento", 10, (_AUTO_ALVARA,)),
        # A guia das multas do primeiro auto ao Fundo Municipal de Trânsito
        # (``fretamento#art26``), que não é paga: a cassação a lista (art. 22, II).
        DemoStep("guia1", "guia-recolhimento-multa-fretamento", 12, (
            Fill("/auto/numero", "{auto1.impresso}"),
        )),
        fretamento.NOTIFICACAO,
        DemoStep("auto2", "auto-infracao-fretamento", 31, (_AUTO_ALVARA,)),
        # Um terceiro auto, recorrido e mantido, com o impedimento do veículo no local.
        DemoStep("auto3", "auto-infracao-fretamento", 40,
                 (_AUTO_ALVARA, *fretamento.AUTO_RECOLHIMENTO)),
        fretamento.RECIBO,
        DemoStep("impedimento", "termo-impedimento-fretamento", 40, (
            Fill("/auto/numero", "{auto3.numero}"),
            Fill("/auto/data", "{auto3.data}"),
            # as infrações do auto, como o registro as guarda (o art. 21, c, alcança o
            # art. 15, I)
            Fill("/infracoes", ["fretamento#art15_inc1", "fretamento#art17_inc8"]),
            Fill("/veiculo/alvara", "{alvara.numero}"), fretamento.IMPEDIMENTO_RECIBO,
        ), hour="17:30"),
        fretamento.DEVOLUCAO, fretamento.VISTORIA, *fretamento.ALTERACAO,
        # O recurso ao Secretário (``fretamento#art23``), protocolado online.
        DemoStep("recurso_pedido", "recurso-fretamento", 48, (
            Fill("/ato_recorrido", {"numero": "{auto3.impresso}", "data": "{auto3.data}"}),
            Fill("/razoes", _RAZOES_FRET),
            Fill("/provas", ["Fotografias do veículo"]),
        ), filing=Filing("/recorrente/cnpj", "/recorrente/razao_social")),
        DemoStep("recurso", "decisao-recurso-secretario", 58, (
            Fill("/recurso/numero_protocolo", "{recurso_pedido.impresso}"),
            Fill("/recurso/data_protocolo", "{recurso_pedido.data}"),
            Fill("/recurso/razoes", _RAZOES_FRET),
            Fill("/ato_recorrido/numero", "{auto3.numero}"),
            Fill("/ato_recorrido/data", "{auto3.data}"),
            Fill("/ato_recorrido/data_ciencia", "{auto3.data}"),
            Fill("/decisao/determinacoes",
                 "Mantém-se o {auto3.citado} e a multa nele imposta."),
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
                # a data e o valor de cada auto, como o registro os guarda (art. 22, II)
                Fill("/hipoteses/multas_nao_recolhidas/autos", [
                    {"numero": "{auto1.numero}", "data_infracao": "{auto1.data}",
                     "valor": "{auto1.calculado[total]}"},
                    {"numero": "{auto2.numero}", "data_infracao": "{auto2.data}",
                     "valor": "{auto2.calculado[total]}"},
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
_AVISO = 5 * 365 - 37
"""O dia da notificação: 36 ou 37 dias antes do fim dos 5 anos do alvará (art. 8º: o
pedido de renovação vem com 30 dias de antecedência; o do exemplo, 5 dias antes da
notificação)."""


def _alvara_anterior(day: date, numero: int) -> Mapping[str, str]:
    """O alvará que a notificação cita, expedido antes do lavra, em ``day``, com a validade
    de 5 anos do art. 8º (``fretamento#art8``): entra no registro pela importação, com o
    número que a série dá em seguida naquele exercício, em que a demonstração não numera
    outro ALV-FRET (o primeiro: nenhum número anterior ao lavra fica sem ato)."""
    return {"numero": f"ALV-FRET nº {numero:04d}/{day.year}",
            "data": day.isoformat(), "processo": f"PA 1.188/{day.year}",
            "cpf_cnpj": _EMPRESA_ANTIGA["cnpj"], "nome": _EMPRESA_ANTIGA["razao_social"],
            "placa": _PLACA_ANTIGA, "valido_ate": term_end(day, years=5).isoformat()}


RENOVACAO_FRETAMENTO = DemoChain(
    name="renovacao-fretamento",
    title="fretamento: alvará anterior ao lavra, requerimento e notificação de pendências "
          "da renovação",
    steps=(
        # Um alvará de cinco anos atrás (``fretamento#art8``): o relógio da demonstração
        # não o assina; entra no registro como entram os atos anteriores ao lavra.
        DemoStep("alvara", "alvara-fretamento", 0,
                 imported=Imported("alvara-fretamento", _alvara_anterior)),
        fretamento.pedido_renovacao(_AVISO - 5, _EMPRESA_ANTIGA, _PLACA_ANTIGA),
        DemoStep("notificacao", "notificacao-pendencias-renovacao-fretamento", _AVISO, (
            Fill("/destinatario", _EMPRESA_ANTIGA),
            Fill("/data_requerimento", "{pedido.data}"),
            Fill("/alvara", {"numero": "{alvara.numero}", "valido_ate": "{alvara.valido_ate}"}),
            Fill("/veiculo", {"placa": _PLACA_ANTIGA}),
        )),
    ),
)

DEMO_CHAINS = (REVOGACAO_ESCOLAR, ESCOLAR, FRETAMENTO, RENOVACAO_FRETAMENTO, *ESCOLAR_CHAINS)
"""A história da revogação vem primeiro: começa antes da escolar, e assim o seu alvará e
os seus autos são os primeiros números das séries ALV-ESC e AIE-ESC, em ordem de data.
As histórias escolares de ``transporte_escolar/demonstracao.py`` vêm por último."""
