"""As histórias escolares da demonstração ao lado das de ``comum/demonstracao.py``: o
alvará em vigor que o cadastro importou e o que acontece na vigência dele (publicidade,
substituições, auto sem ciência e a notificação da penalidade, a revogação por motivo
fundamentado e o recurso da Lei nº 9.784/1999), o alvará não renovado e a vacância, o
pedido de renovação protocolado no prazo, e o recurso contra o indeferimento da inscrição.

Cada história tem o seu titular e o seu veículo (um alvará escolar por pessoa, art. 14;
um por veículo), diferentes dos das outras histórias, e o seu alvará entra no registro
pela importação (:class:`lavra.demochains.Imported`), como entra o alvará em vigor no dia
em que o lavra é adotado: nenhuma taxa do exercício se cobra na demonstração, e as
histórias correm em qualquer dia em que ela roda.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, timedelta

from lavra.demochains import DemoChain, DemoStep, Filing, Fill, Imported

IMPLEMENTED: tuple[str, ...] = ()
"""Nenhum dispositivo: as histórias da demonstração só encadeiam atos de outros módulos."""


def inicio_exercicio(year: int) -> date:
    """O primeiro dia de semana do exercício depois do feriado de 1º de janeiro: o dia
    dos alvarás escolares importados da demonstração."""
    day = date(year, 1, 2)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _alvara_importado(titular: Mapping[str, str], placa: str, renavam: str,
                      cnh: str) -> Callable[[date, int], Mapping[str, str]]:
    """O alvará escolar expedido antes do lavra no início do exercício do passo
    (:func:`inicio_exercicio`), com a validade do art. 13 (renovação anual: vale até o
    fim do exercício, ``transporte-escolar#art13``); no dia do passo está em vigor e
    consta do cadastro. A demonstração importa-o antes de emitir qualquer ato seu
    (:class:`lavra.demochains.Imported`): os importados são os primeiros números do
    exercício (``ALV-ESC nº 0001/2026``…), e os alvarás que o lavra emite, nunca em
    janeiro (as histórias os põem de fevereiro em diante), seguem deles: nenhum ato
    anterior ao lavra tem data posterior à de um ato do lavra na série."""
    def row(day: date, number: int) -> Mapping[str, str]:
        processo = f"PA {2000 + number:,}/{day.year}".replace(",", ".")
        issued = inicio_exercicio(day.year)
        return {"numero": f"ALV-ESC nº {number:04d}/{day.year}", "data": issued.isoformat(),
                "processo": processo, "cpf_cnpj": titular["cpf"],
                "nome": titular["nome"], "cnh": cnh, "placa": placa, "renavam": renavam,
                "valido_ate": date(day.year, 12, 31).isoformat()}
    return row


# ------------------------------------------------------------------ na vigência do alvará
_TITULAR = {"nome": "Marcos Exemplo Teixeira", "cpf": "736.210.458-80", "prontuario": "TE-0063"}
_VEICULO = {"placa": "OCR4E56", "renavam": "74028136598", "marca_modelo": "Volare V8L Escolar"}
_ALVARA = Fill("/alvara", {"numero": "{alvara.numero}", "valido_ate": "{alvara.valido_ate}"})
_FATOS_REVOGACAO = (
    "A Escola Estadual Exemplo, única atendida pelo itinerário do alvará, encerrou as "
    "atividades, como informou a Diretoria de Ensino; o veículo deixou de prestar o serviço "
    "que o alvará autoriza.")

OCORRENCIAS_ESCOLAR = DemoChain(
    name="ocorrencias-escolar",
    title="transporte escolar: alvará em vigor, publicidade, substituições, auto sem ciência "
          "e notificação da penalidade",
    steps=(
        # O alvará em vigor, expedido no início do exercício e importado do cadastro; a
        # história cabe no seu exercício (de fevereiro, depois da expedição, a setembro:
        # a revogação e o recurso caem antes do fim do ano, com o alvará em vigor até a
        # revogação).
        DemoStep("alvara", "alvara-transporte-escolar", 0, months=tuple(range(2, 10)),
                 imported=Imported("alvara-escolar", _alvara_importado(
                     _TITULAR, _VEICULO["placa"], _VEICULO["renavam"], "40273195823"))),
        # A publicidade no vidro traseiro depende de licença (``transporte-escolar#art17_par2``):
        # o requerimento, protocolado online, e a autorização no processo que ele abre,
        # com o croqui do requerimento e a validade do alvará.
        DemoStep("pedido_publicidade", "requerimento-licenca-publicidade", 5, (
            Fill("/requerente/nome", _TITULAR["nome"]), Fill("/requerente/cpf", _TITULAR["cpf"]),
            Fill("/requerente/prontuario", _TITULAR["prontuario"]),
            Fill("/alvara/numero", "{alvara.numero}"), Fill("/veiculo", _VEICULO),
        ), filing=Filing("/requerente/cpf", "/requerente/nome")),
        DemoStep("publicidade", "autorizacao-publicidade-escolar", 12, (
            Fill("/processo/numero", "{pedido_publicidade.impresso}"),
            Fill("/titular", _TITULAR), _ALVARA, Fill("/veiculo", _VEICULO),
            Fill("/requerimento", {"data": "{pedido_publicidade.data}",
                                   "protocolo": "{pedido_publicidade.numero}"}),
            Fill("/anunciante", {
                "nome": "{pedido_publicidade.dados[anunciante][nome]}",
                "documento": "{pedido_publicidade.dados[anunciante][documento]}"}),
            Fill("/publicidade/conteudo", "{pedido_publicidade.dados[publicidade][conteudo]}"),
            Fill("/publicidade/formato", "{pedido_publicidade.dados[publicidade][formato]}"),
            Fill("/publicidade/dimensoes", {"largura_cm": 80, "altura_cm": 30}),
            Fill("/croqui/numero", "{pedido_publicidade.dados[documentos][croqui][numero]}"),
            Fill("/croqui/data_emissao",
                 "{pedido_publicidade.dados[documentos][croqui][data_emissao]}"),
        )),
        # O condutor impedido por motivo adverso comunica a substituição por até 48 horas
        # (``transporte-escolar#art4_par1u``), antes de ela começar: protocolada online às
        # 6h, meia hora antes do início que a comunicação informa.
        DemoStep("comunicacao", "comunicacao-substituicao-condutor", 20, (
            Fill("/requerente/nome", _TITULAR["nome"]), Fill("/requerente/cpf", _TITULAR["cpf"]),
            Fill("/requerente/prontuario", _TITULAR["prontuario"]), _ALVARA,
            Fill("/veiculo", _VEICULO),
        ), hour="06:00", filing=Filing("/requerente/cpf", "/requerente/nome")),
        # O veículo quebrado é substituído por outro, aprovado na vistoria da SETRANSV
        # (``transporte-escolar#art5_inc2``), sob a Licença Temporária que cita o termo da
        # vistoria (``transporte-escolar#art5``), e quem dirige o substituto assina o termo
        # de responsabilidade que cita a licença (``transporte-escolar#art5_inc3``).
        DemoStep("vistoria", "termo-vistoria-veiculo-substituto", 30, (
            Fill("/titular", _TITULAR), Fill("/alvara/numero", "{alvara.numero}"),
            Fill("/veiculo", {"placa": _VEICULO["placa"],
                              "marca_modelo": _VEICULO["marca_modelo"]}),
        ), hour="10:00"),
        DemoStep("lte", "licenca-temporaria-escolar", 30, (
            Fill("/titular", _TITULAR), _ALVARA, Fill("/veiculo", _VEICULO),
            Fill("/veiculo_substituto/vistoria/numero", "{vistoria.impresso}"),
        )),
        DemoStep("termo", "termo-condutor-substituto", 31, (
            Fill("/processo/numero", "{lte.dados[processo][numero]}"),
            Fill("/licenca_temporaria", {"numero": "{lte.impresso}",
                                         "valido_ate": "{lte.valido_ate}"}),
            Fill("/titular", _TITULAR),
            Fill("/veiculo", {"placa": _VEICULO["placa"],
                              "marca_modelo": _VEICULO["marca_modelo"]}),
        )),
        # O auto lavrado sem o condutor presente não tem ciência (``transporte-escolar#art26``):
        # a penalidade é notificada por carta com aviso de recebimento, e o prazo do
        # recurso corre da ciência da notificação.
        DemoStep("auto", "auto-infracao-escolar", 40, (
            Fill("/condutor", {"nome": _TITULAR["nome"], "cpf": _TITULAR["cpf"],
                               "condicao": "titular", "alvara": "{alvara.numero}"}),
            Fill("/veiculo/placa", _VEICULO["placa"]),
            Fill("/veiculo/selo", "SELO-0063"),
            Fill("/ciencia", None),
        )),
        DemoStep("notificacao", "notificacao-penalidade", 42, (
            Fill("/notificado/nome", _TITULAR["nome"]), Fill("/notificado/cpf", _TITULAR["cpf"]),
            Fill("/notificado/alvara", "{alvara.impresso}"),
            Fill("/auto/numero", "{auto.impresso}"), Fill("/auto/data_infracao", "{auto.data}"),
            Fill("/auto/placa", _VEICULO["placa"]),
        )),
        # A revogação por motivo fundamentado (``transporte-escolar#art3``), que não é
        # penalidade: a notificação para a defesa (Lei nº 9.784/1999, art. 26), a decisão
        # motivada e o recurso da Lei nº 9.784/1999 (arts. 56 e 59: ``lei-9784-1999#art56``),
        # protocolado online no prazo de 10 dias da ciência.
        DemoStep("defesa", "notificacao-defesa-revogacao", 50, (
            Fill("/condutor/nome", _TITULAR["nome"]), Fill("/condutor/cpf", _TITULAR["cpf"]),
            Fill("/alvara/numero", "{alvara.impresso}"),
            Fill("/veiculo/placa", _VEICULO["placa"]),
            Fill("/acusacao", {"hipoteses": ["motivo_fundamentado"], "fatos": _FATOS_REVOGACAO}),
        ), ciencia=1),
        DemoStep("revogacao", "decisao-revogacao-alvara", 70, (
            Fill("/condutor/nome", _TITULAR["nome"]), Fill("/condutor/cpf", _TITULAR["cpf"]),
            Fill("/ciencia/nome", _TITULAR["nome"]),
            Fill("/alvara/numero", "{alvara.impresso}"),
            Fill("/veiculo/placa", _VEICULO["placa"]),
            Fill("/hipotese", {"tipo": "motivo_fundamentado", "motivo": {
                "fatos": _FATOS_REVOGACAO,
                "fundamentos_juridicos":
                    "O alvará é ato precário, revogável por motivo fundamentado (art. 3º da Lei "
                    "nº 4.515/2007); a motivação atende ao art. 50, I, e § 1º, da Lei "
                    "nº 9.784/1999."}}),
            Fill("/defesa/notificacao/numero", "{defesa.impresso}"),
            Fill("/defesa/notificacao/data_ciencia", "{defesa.ciencia}"),
            Fill("/defesa/sintese", "O condutor alegou que atende alunos de outras escolas, "
                                    "sem juntar contratos."),
            Fill("/decisao/fundamentacao",
                 "A escola cujo itinerário o alvará atende encerrou as atividades, e o condutor "
                 "não comprovou o atendimento de outras escolas. Configurado o motivo "
                 "fundamentado do art. 3º da Lei nº 4.515/2007."),
        ), ciencia=1),
        DemoStep("recurso_9784", "recurso-lei-9784", 77, (
            Fill("/recorrente/nome", _TITULAR["nome"]), Fill("/recorrente/cpf", _TITULAR["cpf"]),
            Fill("/recorrente/alvara", "{alvara.impresso}"),
            Fill("/ato_recorrido", {"numero": "{revogacao.impresso}", "data": "{revogacao.data}",
                                    "data_ciencia": "{revogacao.ciencia}"}),
        ), filing=Filing("/recorrente/cpf", "/recorrente/nome")),
    ),
)

# ------------------------------------------------------------------ a vacância
_TITULAR_VAGO = {"nome": "Helena Exemplo Duarte", "cpf": "604.187.293-87",
                 "prontuario": "TE-0071"}
_VEICULO_VAGO = {"placa": "VAC5F67", "renavam": "61290473855",
                 "marca_modelo": "Volare V8L Escolar"}

VACANCIA_ESCOLAR = DemoChain(
    name="vacancia-escolar",
    title="transporte escolar: alvará não renovado e declaração de vacância",
    steps=(
        # O alvará do exercício (expedido no início do ano), em vigor de outubro a
        # dezembro, que o titular não renova até o último dia útil do ano: a licença
        # cassa-se e a vaga é declarada (``transporte-escolar#art13``) no exercício
        # seguinte, 100 dias depois.
        DemoStep("alvara", "alvara-transporte-escolar", 0, months=(10, 11, 12),
                 imported=Imported("alvara-escolar", _alvara_importado(
                     _TITULAR_VAGO, _VEICULO_VAGO["placa"], _VEICULO_VAGO["renavam"],
                     "51820463735"))),
        DemoStep("vacancia", "declaracao-vacancia", 100, (
            _ALVARA, Fill("/titular", _TITULAR_VAGO), Fill("/veiculo", _VEICULO_VAGO),
        )),
    ),
)

# ------------------------------------------------------------------ a renovação
_TITULAR_RENOVA = {"nome": "Sérgio Exemplo Nunes", "cpf": "815.302.764-62",
                   "prontuario": "TE-0078"}
_PLACA_RENOVA, _RENAVAM_RENOVA = "REN6G78", "50937182644"
_VEICULO_RENOVA = {"placa": _PLACA_RENOVA, "renavam": _RENAVAM_RENOVA,
                   "marca_modelo": "Volare V8L Escolar", "ano_fabricacao": 2021,
                   "pneus_regulares": True}
_CNH_RENOVA = "63091827469"
"""A CNH do titular, a do alvará importado (a do exemplo do requerimento é a de outro
titular de outra história)."""

RENOVACAO_ESCOLAR = DemoChain(
    name="renovacao-escolar",
    title="transporte escolar: alvará em vigor e requerimento de renovação anual",
    steps=(
        # O pedido de renovação vem nos 30 dias antes do vencimento do alvará, o fim do
        # exercício (``transporte-escolar#art13_par5``): o alvará do exercício (expedido no
        # início do ano), em vigor em novembro, o pedido protocolado em dezembro, antes do
        # dia 26 (sem cair no último dia útil).
        DemoStep("alvara", "alvara-transporte-escolar", 0, months=(11,),
                 imported=Imported("alvara-escolar", _alvara_importado(
                     _TITULAR_RENOVA, _PLACA_RENOVA, _RENAVAM_RENOVA,
                     _CNH_RENOVA))),
        DemoStep("pedido", "requerimento-renovacao-escolar", 16, (
            Fill("/requerente/nome", _TITULAR_RENOVA["nome"]),
            Fill("/requerente/cpf", _TITULAR_RENOVA["cpf"]),
            Fill("/requerente/prontuario", _TITULAR_RENOVA["prontuario"]),
            Fill("/requerente/cnh/numero", _CNH_RENOVA),
            Fill("/alvara_anterior", {"numero": "{alvara.numero}",
                                      "valido_ate": "{alvara.valido_ate}"}),
            Fill("/documentos/alvara_anterior/numero", "{alvara.numero}"),
            Fill("/documentos/alvara_anterior/data_emissao", "{alvara.dados[data_expedicao]}"),
            Fill("/veiculo", _VEICULO_RENOVA),
        ), months=(12,), filing=Filing("/requerente/cpf", "/requerente/nome")),
    ),
)

# ------------------------------------------------------------------ a inscrição indeferida
_CANDIDATO = {"nome": "Paulo Exemplo Reis", "cpf": "111.444.777-35"}
"""O candidato do exemplo do recurso contra a classificação."""

CLASSIFICACAO_ESCOLAR = DemoChain(
    name="classificacao-escolar",
    title="transporte escolar: inscrição indeferida e recurso ao Prefeito",
    steps=(
        # O indeferimento da inscrição é ato de escolha que deixa o candidato de fora: dele
        # cabe o recurso ao Prefeito em 5 dias da ciência (``transporte-escolar#art11``;
        # a leitura de ``recurso_classificacao.py``), protocolado online 3 dias depois.
        # (O resultado da classificação não se emite: o Anexo de pontuação do art. 8º não
        # consta do pacote.)
        DemoStep("indeferimento", "decisao-indeferimento", 0, (
            Fill("/requerente/nome", _CANDIDATO["nome"]),
            Fill("/requerente/cpf", _CANDIDATO["cpf"]),
            Fill("/requerimento/dados/candidato/nome", _CANDIDATO["nome"]),
            Fill("/requerimento/dados/candidato/cpf", _CANDIDATO["cpf"]),
            Fill("/ciencia/nome", _CANDIDATO["nome"]),
        ), ciencia=1),
        DemoStep("recurso", "recurso-classificacao", 4, (
            Fill("/recorrente/nome", _CANDIDATO["nome"]),
            Fill("/recorrente/cpf", _CANDIDATO["cpf"]),
            Fill("/recorrente/protocolo_inscricao",
                 "{indeferimento.dados[requerimento][protocolo]}"),
            Fill("/edital_resultado", None),
            Fill("/indeferimento", {"numero": "{indeferimento.impresso}",
                                    "data": "{indeferimento.data}",
                                    "data_ciencia": "{indeferimento.ciencia}"}),
            Fill("/situacao_recorrida", "nao_classificacao"),
            Fill("/razoes", "A inscrição foi indeferida por falta da certidão de antecedentes "
                            "criminais, que o recorrente obteve e junta a este recurso."),
            Fill("/pedido", "O deferimento da inscrição e a inclusão na classificação."),
        ), filing=Filing("/recorrente/cpf", "/recorrente/nome")),
    ),
)

ESCOLAR_CHAINS = (OCORRENCIAS_ESCOLAR, VACANCIA_ESCOLAR, RENOVACAO_ESCOLAR,
                  CLASSIFICACAO_ESCOLAR)
"""As histórias deste módulo, depois das de ``comum/demonstracao.py``."""
