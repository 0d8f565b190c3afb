"""The files of a run's done items as the registry keeps them, read a few items per
statement (:func:`stored_files`) for :func:`lavra.batch.output.write_outputs`.

One statement reads the signed PDFs (and, on request, the DOCX) of up to
:data:`ITEMS_PER_STATEMENT` items by their documents' ids, one more the companion files
of those that are attachments: the files step asked two statements per document before
(:meth:`lavra.registry.queries.RegistryQueries.pdf` checks the document's row, then
reads its column), which was most of its time. The bytes are the registry's, read in
the caller's read scope; only a few items' files are held in memory at once. An item the
bulk read finds nothing usable for (a document absent, one without an electronic
original, a file not yet generated) is read again one by one through the registry's own
readers, which refuse it with their own pt-BR messages.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import select

from lavra.registry.runs import ItemRecord, item_content
from lavra.registry.store import Registry
from lavra.registry.tables import BatchItemRow, DocumentRow

__all__ = ["ITEMS_PER_STATEMENT", "StoredFile", "stored_files"]

ITEMS_PER_STATEMENT = 25
"""The items whose files one statement reads: a few megabytes of PDFs at most, and
1/25 of a statement per document instead of two."""


@dataclass(frozen=True)
class StoredFile:
    """A done item's file as recorded, and the DOCX issued with it when asked for."""

    item: ItemRecord
    content: bytes
    docx: bytes | None


def stored_files(registry: Registry, items: Sequence[ItemRecord], *,
                 docx: bool) -> Iterator[StoredFile]:
    """The files of the done ``items``, in their order; call it inside a read scope so
    that every statement sees the same snapshot."""
    for start in range(0, len(items), ITEMS_PER_STATEMENT):
        part = items[start:start + ITEMS_PER_STATEMENT]
        documents = _documents(registry, [item.document_id for item in part
                                          if item.document_id is not None], docx)
        companions = _companions(registry, [item.id for item in part
                                            if item.document_id is None])
        for item in part:
            if item.document_id is None:
                content = companions.get(item.id)
                yield StoredFile(item, content or item_content(registry, item), None)
                continue
            pdf, editable = documents.get(item.document_id, (b"", None))
            if not pdf:  # absent, or no electronic original: the registry says why
                pdf = registry.pdf(item.document_id)
            yield StoredFile(item, pdf, editable)


def _documents(registry: Registry, ids: list[int],
               docx: bool) -> dict[int, tuple[bytes, bytes | None]]:
    if not ids:
        return {}
    columns = (DocumentRow.id, DocumentRow.pdf, DocumentRow.docx) if docx \
        else (DocumentRow.id, DocumentRow.pdf)
    with registry.database_errors(), registry.read_session() as session:
        rows = session.execute(select(*columns).where(DocumentRow.id.in_(ids))).all()
    return {row[0]: (row[1], row[2] if docx else None) for row in rows}


def _companions(registry: Registry, ids: list[int]) -> dict[int, bytes | None]:
    if not ids:
        return {}
    with registry.database_errors(), registry.read_session() as session:
        rows = session.execute(select(BatchItemRow.id, BatchItemRow.content)
                               .where(BatchItemRow.id.in_(ids))).all()
    return {row[0]: row[1] for row in rows}
