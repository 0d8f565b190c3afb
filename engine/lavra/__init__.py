"""lavra: a document-generation and legal-forms engine.

The engine knows nothing of any municipality: everything municipal (laws, schemas,
forms) lives in a content pack that the engine is pointed at.
"""

__version__ = "0.1.0"
