"""The one exception hierarchy of lavra.

Every error that leaves the public API is a :class:`LavraError`. Its ``message`` is
pt-BR text fit to show a user; ``field`` (a JSON pointer) names the input at fault
when there is one. Built-in exceptions are caught at the boundary and re-raised as
one of these.

    LavraError
    ├── InputError            bad input from the user (data, dates, options)
    │   ├── UnknownFormError  the form id does not exist in the content pack
    │   └── ImportRefusedError  rows of an import file refused (nothing written)
    ├── CitationError         a citation that does not resolve
    ├── ParameterError        no value of a parameter in force on the date asked
    ├── ContentPackError      the content pack itself is broken
    ├── ConfigError           configuration file or environment is wrong
    └── RenderError           a document could not be rendered
"""

from __future__ import annotations


class LavraError(Exception):
    """Base of every error lavra raises."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message


class InputError(LavraError):
    """Input that cannot be used: unreadable JSON, impossible date, bad option."""


class UnknownFormError(InputError):
    """The form id is not in the content pack."""


class ImportRefusedError(InputError):
    """Rows of an import file (``lavra cadastro importar``) refused: ``problems`` names
    each line and field at fault, and nothing was written."""

    def __init__(self, message: str, problems: tuple[str, ...]) -> None:
        super().__init__(message, field="/arquivo")
        self.problems = problems


class CitationError(LavraError):
    """A citation (``law#fragment``) that does not resolve."""


class ParameterError(LavraError):
    """A legal parameter has no value in force on the date asked."""


class ContentPackError(LavraError):
    """The content pack (legal_text/, schemas/, forms/) is inconsistent."""


class ConfigError(LavraError):
    """Configuration file or environment variable is wrong."""


class RenderError(LavraError):
    """A document could not be rendered."""

