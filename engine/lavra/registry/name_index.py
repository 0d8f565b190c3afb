"""Finding a party by name through an index, accent- and case-insensitive, by part of a
word: «JOSE» finds «José», «Silv» finds «Silva», «silva jose» finds «José da Silva».

Each name a CPF/CNPJ was registered under (``party_names.name``) is kept folded beside
it (``party_names.search_name``: no accents, case folded, punctuation as spaces),
computed by the writer (the column's default, :func:`folded_default`) and, for the
rows written before, by the migration ``0019``. The folded name is indexed:

* on SQLite, by the FTS5 table ``party_names_fts`` (trigram tokenizer, external content
  ``party_names``), kept current by the triggers the migration creates on
  ``party_names``. A later migration that rebuilds ``party_names`` in batch mode drops
  them: it must create them again;
* on PostgreSQL, by the GIN trigram index ``ix_party_names_search_name_trgm``
  (extension ``pg_trgm``), kept current by PostgreSQL itself. Where the extension
  cannot be created, the migration says so in the log and the search still works,
  reading the whole table.

:class:`NameMatch` is the condition, written for each database as its index needs.
These objects live outside the models (:func:`include_object` keeps them out of
Alembic's comparison).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, literal_column, select, table
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import SQLCoreOperations
from sqlalchemy.types import Boolean

__all__ = ["FTS_TABLE", "TRIGRAM_INDEX", "NameMatch", "fold_name", "folded_default",
           "include_object", "name_terms"]

FTS_TABLE = "party_names_fts"
TRIGRAM_INDEX = "ix_party_names_search_name_trgm"
_MIN_TERM = 3  # a trigram index finds nothing shorter
_PUNCTUATION = re.compile(r"[\W_]+")


def fold_name(text: str) -> str:
    """``text`` as it is searched: no accents, case folded, punctuation as a space
    («Ltda.», «D'Ávila», «Silva,»), one space between words."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(_PUNCTUATION.sub(" ", plain.casefold()).split())


def folded_default(context: Any) -> str:
    """The column default of ``party_names.search_name``: the row's name folded."""
    return fold_name(str(context.get_current_parameters()["name"]))


def name_terms(query: str) -> tuple[str, ...]:
    """What a name must hold to be found by ``query``.

    Reading chosen: every word of three letters or more of the query, anywhere in the
    name and in any order (the particles «da», «de», «e» are not required); a query with
    no such word is looked for whole."""
    folded = fold_name(query)
    words = tuple(dict.fromkeys(w for w in folded.split() if len(w) >= _MIN_TERM))
    return words or (folded,)


def _escape_like(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class NameMatch(ColumnElement[bool]):
    """``party_names`` rows whose folded name holds every term (see :func:`name_terms`)."""

    type = Boolean()
    inherit_cache = False  # the terms are not part of a cache key
    _is_implicitly_boolean = True  # a condition as it stands (no «= 1» on SQLite)

    def __init__(self, row_id: SQLCoreOperations[Any], search_name: SQLCoreOperations[Any],
                 terms: tuple[str, ...]) -> None:
        self.row_id = row_id
        self.search_name = search_name
        self.terms = terms


@compiles(NameMatch)
def _generic(element: NameMatch, compiler: SQLCompiler, **kw: Any) -> str:
    # PostgreSQL: LIKE '%…%' on the folded name is what the GIN trigram index serves.
    return compiler.process(and_(*(
        element.search_name.like(f"%{_escape_like(term)}%", escape="\\")
        for term in element.terms)), **kw)


@compiles(NameMatch, "sqlite")
def _sqlite(element: NameMatch, compiler: SQLCompiler, **kw: Any) -> str:
    # FTS5 trigram: a quoted string matches where it appears inside the text; several
    # are all required.
    match = " ".join('"' + term.replace('"', '""') + '"' for term in element.terms)
    fts = table(FTS_TABLE)
    found: Select[Any] = (select(literal_column("rowid")).select_from(fts)
             .where(literal_column(FTS_TABLE).op("MATCH")(match)))
    return compiler.process(element.row_id.in_(found.scalar_subquery()), **kw)


def include_object(obj: Any, name: str | None, type_: str, reflected: bool,
                   compare_to: Any) -> bool:
    """For Alembic's comparison: the name index's FTS5 tables and trigram index are not
    in the models (the migration ``0019`` owns them)."""
    if type_ == "table" and name is not None and name.startswith(FTS_TABLE):
        return False
    return not (type_ == "index" and name == TRIGRAM_INDEX)
