"""lavra: a document-generation and legal-forms engine.

The engine knows nothing of any municipality: everything municipal (laws, schemas,
forms, the code of the rules) lives in a content pack that the engine is pointed at
(:mod:`lavra.pack`). The engine's folders follow its pipeline, lowest layer first::

    errors, textutil          the exception hierarchy; pt-BR dates in messages
    inputs/                   reading what comes in: JSON, text, formats, JSON Schemas
    pack, config              finding the content pack; the configuration
    law/                      laws, citations, parameters, calendar, deadlines, coverage
    checking/                 the loaded pack, checks, computations, completeness report
    render/                   templates → HTML → PDF/A, DOCX, the fillable requerimento
    signing/                  PKI, PAdES signatures, verification codes, PDF inspection
    registry/                 issued documents: numbering, records, history
    staff                     the values staff keep, as the engine reads them
    draftstate                what the registry says of a draft (names, identities, dates)
    documents, issuing        the Engine (check, draft) and the Issuer (issue, verify)
    recording                 facts recorded after the issue and the deadlines they start
    filing, filedacts         requerimentos filed online: the protocol's receipt; the act
                              prepared from one («Preparar ato»)
    batch/                    batch runs: plan, parallel workers, record, summary
    cli/, web/                the command line and the web application

A module may import the layers below its own, as each package's docstring says under
"May import" (``tests/test_layout.py`` checks it, for module-level and function-level
imports alike; imports under ``if TYPE_CHECKING:`` are exempt, being for mypy only).
No module of the engine imports a pack. The top-level modules may import::

    lavra.errors      nothing
    lavra.textutil    nothing
    lavra.demochains  nothing
    lavra.pack        lavra.errors
    lavra.config      lavra.errors lavra.inputs lavra.pack
    lavra.documents   lavra.errors lavra.textutil lavra.inputs lavra.pack lavra.config
                      lavra.law lavra.checking lavra.render
    lavra.staff       lavra.errors lavra.law lavra.registry
    lavra.staffcheck  nothing
    lavra.verifying   lavra.errors lavra.inputs lavra.pack lavra.config lavra.signing
                      lavra.registry lavra.law
    lavra.signers     lavra.errors lavra.config lavra.signing
    lavra.draftstate  lavra.checking lavra.registry
    lavra.issuing     lavra.errors lavra.textutil lavra.inputs lavra.pack lavra.config
                      lavra.law lavra.checking lavra.render lavra.signing
                      lavra.registry lavra.documents lavra.staff lavra.verifying
                      lavra.signers lavra.draftstate
    lavra.recording   lavra.errors lavra.textutil lavra.inputs lavra.checking lavra.law
                      lavra.registry lavra.staff
    lavra.filing      lavra.errors lavra.inputs lavra.render lavra.registry lavra.signing
    lavra.filedacts   lavra.errors lavra.inputs lavra.registry
"""

__version__ = "0.1.0"
