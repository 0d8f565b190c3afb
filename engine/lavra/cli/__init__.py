"""The command line (``lavra``): a thin shell over the engine, with help and messages
in pt-BR; one module per group of commands, :mod:`~lavra.cli.main` the entry point.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``, ``lavra.pack``,
``lavra.config``, ``lavra.law``, ``lavra.checking``, ``lavra.render``,
``lavra.signing``, ``lavra.registry``, ``lavra.documents``, ``lavra.verifying``, ``lavra.issuing``,
``lavra.staff``, ``lavra.recording``, ``lavra.batch``, ``lavra.demochains``, ``lavra.signers``,
``lavra.staffcheck`` (the staff check, shared with the web),
``lavra.filing`` (``lavra demo`` files its requerimentos as the public page does),
``lavra.web`` (``lavra serve`` starts the web application).
"""
