"""The content pack of Americana (SP): the transport laws of SETRANSV, made usable.

- ``legal_text/``, ``schemas/`` and ``forms/``: the laws (Lei nº 4.419/2006,
  fretamento; Lei nº 4.515/2007, transporte escolar) with their parameters, deadlines
  and calendar; the JSON Schemas of every form; every document's metadata and wording.
  In the repository they are the folders at its top; this package reaches them
  through links, so that a wheel ships them inside it.
- The rules a schema cannot say, in Python, beside the law they implement: one
  sub-package per law, one module per topic or group of forms, each module naming in
  its docstring the articles it implements and declaring them in ``IMPLEMENTED``
  (which ``lavra law coverage`` counts); a module with ``COMPUTATIONS`` gives the
  values its forms compute (their ``"calculos"``):

  ==========================================  ========================================
  :mod:`lavra_americana.fretamento`           Lei nº 4.419/2006: ``fines`` (arts. 14 to
                                              17), ``penalties`` (arts. 18, 20, 21),
                                              ``auto_infracao``, ``cassacao`` (art.
                                              22), ``impedimento`` (arts. 13, 19, 21),
                                              ``servico_particular`` (arts. 3º, III, 6º,
                                              12), ``recurso`` (arts. 23, 24),
                                              ``notificacao`` (arts. 10, § 1º, 13, 15,
                                              II), ``contrato`` (arts. 1º, 4º, 5º),
                                              ``autorizacoes`` (arts. 10, § 3º, 15,
                                              VI), ``recolhimento`` (art. 21, §§ 2º
                                              to 4º), ``registro`` (art. 2º, §§ 1º
                                              and 2º), ``guia_multa`` (art. 26),
                                              ``vistoria`` (art. 13)
  :mod:`lavra_americana.transporte_escolar`   Lei nº 4.515/2007: ``fees`` (art. 16),
                                              ``penalties`` (arts. 9º, 21, 23, 24),
                                              ``candidate`` and ``eligibility`` (art.
                                              7º and kin), ``population`` (art. 6º),
                                              ``ranking`` (art. 8º), ``requerimentos``,
                                              ``alvara`` (arts. 3º, 13, 16),
                                              ``alvara_auxiliar`` (art. 9º),
                                              ``licenca_temporaria`` (art. 4º, caput,
                                              and art. 5º), ``comunicacao_substituicao``
                                              (art. 4º, parágrafo único),
                                              ``licencas`` (arts. 17, 20),
                                              ``auto_infracao``, ``edital`` (arts. 6º
                                              to 11), ``revogacao`` (arts. 3º, 9º,
                                              § 2º, 23, III, 25 to 27),
                                              ``recurso_penalidade`` (arts. 25 to
                                              27), ``renovacao_lote`` (the annual
                                              renewal run, art. 13),
                                              ``resultado`` (arts. 8º, 11),
                                              ``recurso_classificacao`` (art. 11),
                                              ``revalidacao`` (art. 13, § 6º),
                                              ``vacancia`` (art. 13),
                                              ``selo`` (arts. 3º, § 2º, 13,
                                              § 3º, 18), ``transferencia``
                                              (art. 15), ``termo_substituto``
                                              (art. 5º, III), ``vistoria_substituto``
                                              (art. 5º, II)
  :mod:`lavra_americana.comum`                what both laws share: ``amounts`` (the
                                              money type), ``periods``,
                                              ``infractions`` (earlier infractions),
                                              ``vehicle_age`` (fretamento art. 10, I;
                                              escolar art. 17, I), ``decisao_recurso``
                                              (the appeals of both laws),
                                              ``recurso_9784`` (the appeal of an
                                              escolar revogação by motivo
                                              fundamentado, Lei nº 9.784/1999, arts.
                                              56, 59, 64),
                                              ``due_process`` (notice and defence),
                                              ``indeferimento`` (the refusal of any
                                              requerimento, Lei nº 9.784/1999, art.
                                              50, I; fretamento art. 24),
                                              ``notificacao_defesa`` (the notice
                                              that opens the defence),
                                              ``importacao`` (the acts from
                                              before lavra, ``lavra cadastro
                                              importar``), ``checks``
                                              (``idade_veiculo``), ``amount`` (``lavra
                                              amount``); ``citing``, ``computing`` and
                                              ``sources`` (what every computation reads);
                                              ``orgao`` (the posts' titles);
                                              ``auto_placa`` (the autos started from
                                              the vehicle's plate);
                                              ``ciencia_eletronica`` (the ciência by
                                              electronic access, Lei nº 9.784/1999,
                                              art. 26, § 3º); ``recurso_online`` (the
                                              recurso filed from the tracking page);
                                              ``recurso_lei_9784`` (the recorrente's
                                              form of the Lei nº 9.784/1999 appeal,
                                              arts. 56 and 59)
  ==========================================  ========================================

The engine finds the pack by the entry point ``americana`` of the group
``lavra.pacotes``, which names :func:`pacote`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lavra.pack import ContentPack

__all__ = ["ROOT", "pacote"]

ROOT = (Path(__file__).resolve().parent / "legal_text").resolve().parent
"""The folder holding legal_text/, schemas/ and forms/: this package's own folder in an
installed wheel; the repository's top, where the links lead, in a checkout."""


@lru_cache(maxsize=1)
def pacote() -> ContentPack:
    """The Americana pack, as the engine sees it."""
    from lavra_americana.comum import (
        amount,
        amounts,
        auto_anulado,
        auto_placa,
        checks,
        ciencia_eletronica,
        ciencia_recorrido,
        citing,
        computing,
        decisao_recurso,
        demonstracao,
        due_process,
        encaminhamento,
        estado,
        fact_dates,
        guards,
        importacao,
        indeferimento,
        infractions,
        lote,
        lote_protocolos,
        notificacao_defesa,
        orgao,
        periods,
        processo,
        protocolo_registrado,
        protocolos,
        recurso_9784,
        recurso_estado,
        recurso_lei_9784,
        recurso_online,
        requisitos,
        sources,
        validity,
        vehicle_age,
    )
    from lavra_americana.fretamento import alvara as alvara_fretamento
    from lavra_americana.fretamento import (
        alvara_protocolo,
        autorizacoes,
        autos_registro,
        cassacao,
        contrato,
        fines,
        guia_multa,
        impedimento,
        notificacao,
        recolhimento,
        recurso,
        registro,
        renovacao,
        renovacao_janela,
        servico_particular,
        veiculo_terceiro,
        vistoria,
    )
    from lavra_americana.fretamento import atos_protocolo as atos_fretamento
    from lavra_americana.fretamento import auto_infracao as auto_fretamento
    from lavra_americana.fretamento import demonstracao as demonstracao_fretamento
    from lavra_americana.fretamento import estado as estado_fretamento
    from lavra_americana.fretamento import penalties as fretamento_penalties
    from lavra_americana.fretamento import renovacao_lote as renovacao_lote_fretamento
    from lavra_americana.fretamento import renovacao_requisitos as requisitos_fretamento
    from lavra_americana.transporte_escolar import (
        alvara,
        alvara_auxiliar,
        candidate,
        comunicacao_substituicao,
        edital,
        eligibility,
        fees,
        guia_taxa,
        leituras,
        licenca_temporaria,
        licencas,
        population,
        ranking,
        recurso_classificacao,
        recurso_penalidade,
        renovacao_lote,
        renovacao_requisitos,
        requerimentos,
        resultado,
        revalidacao,
        revogacao,
        revogacao_autos,
        selo,
        termo_substituto,
        transferencia,
        transferencia_acessorios,
        troca_veiculo,
        vacancia,
        vistoria_substituto,
    )
    from lavra_americana.transporte_escolar import atos_protocolo as atos_escolar
    from lavra_americana.transporte_escolar import auto_infracao as auto_escolar
    from lavra_americana.transporte_escolar import demonstracao as demonstracao_escolar
    from lavra_americana.transporte_escolar import estado as estado_escolar
    from lavra_americana.transporte_escolar import penalties as escolar_penalties

    forms = (
        auto_fretamento, requerimentos, alvara, auto_escolar, decisao_recurso, edital,
        cassacao, impedimento, licenca_temporaria, licencas, comunicacao_substituicao,
        alvara_auxiliar, servico_particular, alvara_fretamento, renovacao, fact_dates,
        recurso_penalidade, renovacao_lote, revogacao,
        selo, resultado, recurso_classificacao, revalidacao, vacancia, recurso, notificacao,
        contrato, autorizacoes, recolhimento, renovacao_lote_fretamento, transferencia,
        termo_substituto, indeferimento, notificacao_defesa, registro, guia_multa, guia_taxa,
        vistoria, troca_veiculo, vistoria_substituto, recurso_lei_9784, protocolo_registrado,
        processo, encaminhamento,
    )
    rules = (
        vehicle_age, eligibility, candidate, population, ranking, infractions,
        fretamento_penalties, escolar_penalties, amounts, fines, fees, periods, citing,
        computing, sources, checks, amount, validity, ciencia_recorrido, due_process, lote,
        estado, estado_fretamento, estado_escolar, importacao, renovacao_requisitos, guards,
        recurso_estado, recurso_9784, renovacao_janela, veiculo_terceiro, demonstracao,
        requisitos, transferencia_acessorios,
        requisitos_fretamento, revogacao_autos, lote_protocolos, protocolos, auto_placa,
        ciencia_eletronica, recurso_online, demonstracao_fretamento,
        demonstracao_escolar, orgao, alvara_protocolo, auto_anulado, autos_registro,
        atos_fretamento, atos_escolar, leituras,
    )
    computations = {name: f for module in forms for name, f in module.COMPUTATIONS.items()}
    return ContentPack(
        name="americana",
        root=ROOT,
        computations=computations,
        checks={**checks.CHECKS, **indeferimento.CHECKS},
        rule_modules=(*rules, *forms),
        amount=amount.answer,
        public_questions=renovacao_requisitos.PUBLIC_QUESTIONS,
        stamp_font="forms/_base/fontes/DejaVuSans.ttf",
        caches=(sources.clear_caches, indeferimento.clear_caches, orgao.clear_cache),
        batch_runs={renovacao_lote.RUN.name: renovacao_lote.RUN,
                    renovacao_lote_fretamento.RUN.name: renovacao_lote_fretamento.RUN},
        effects={**estado_fretamento.EFFECTS, **estado_escolar.EFFECTS,
                 **recurso_estado.EFFECTS,
                 # The refusal (Lei nº 9.784/1999, art. 50, I) belongs to the processo its
                 # data names, the protocol's included: the tracking page shows it there.
                 indeferimento.FORM: estado.processo},
        companions=selo.COMPANIONS,
        imports=importacao.IMPORTS,
        demo_chains=demonstracao.DEMO_CHAINS,
        filed_acts={**protocolos.ATOS, **recurso_online.ATOS},
        filing_period=protocolos.prazo_complementacao,
        filing_period_terms=protocolos.PRAZO_TEXTO,
        prefills=auto_placa.PREFILLS,
        addressee=ciencia_eletronica.destinatario,
        appeals=recurso_online.RECURSOS,
    )
