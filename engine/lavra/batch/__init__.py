"""Batch runs: one kind of document issued for many holders at once (an annual
renewal), planned, worked in parallel and recorded, resumable after any interruption.

A content pack says which runs it offers (``ContentPack.batch_runs``: a
:class:`~lavra.batch.model.BatchRun` per kind) and, for one run, which holders come
due and which documents each gets (:meth:`~lavra.batch.model.BatchRun.plan`); the
engine does the rest, the same for every kind:

- :mod:`~lavra.batch.planning`: the plan, one registry transaction that numbers every
  document in input order (:func:`lavra.registry.runs.plan_run`); bad records and the
  same holder twice are refused with a pt-BR reason, without stopping the others;
- :mod:`~lavra.batch.work`: warm worker processes (each keeps its Engine, templates and
  signing keys) that claim pending items and record each under its reserved number;
- :mod:`~lavra.batch.output`: the files (atomic writes), the summary CSV and PDF, the
  merged PDF in input order;
- :mod:`~lavra.batch.stored`: the stored files of a chunk of items, read a few items
  per statement for the files step;
- :mod:`~lavra.batch.plan_reads`: what a plan's checks ask the registry, read ahead for
  all its holders (:mod:`~lavra.batch.plan_history` answers from it);
- :mod:`~lavra.batch.runner`: the whole run, and the dry run (``simular``).
- :mod:`~lavra.batch.inputs`: the holders and requests files, CSV or JSON Lines, read
  line by line for the pack's plan.
- :mod:`~lavra.batch.intake`: the requerimentos filed online (``lavra.registry.filings``)
  of a form over a period, read strictly, for a pack whose run takes them instead of a
  requests file.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``, ``lavra.pack``,
``lavra.config``, ``lavra.law``, ``lavra.checking``, ``lavra.render``,
``lavra.signing``, ``lavra.registry``, ``lavra.documents``, ``lavra.signers``,
``lavra.issuing``.
"""
