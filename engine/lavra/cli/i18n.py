"""Click's own messages in pt-BR ("Usage:", "Options", "Missing argument"...).

Click looks its messages up through ``gettext`` at call time, by the module-level
name ``_`` of each of its modules. The CLI is a thin shell for Brazilian public
servants, so :func:`install` points those names at this small catalogue; a message
not listed here passes through unchanged.
"""

from __future__ import annotations

import difflib
import importlib

import click

CATALOGUE = {
    "Usage:": "Uso:",
    "Options": "Opções",
    "Commands": "Comandos",
    "Show this message and exit.": "Mostra esta ajuda e sai.",
    "Show the version and exit.": "Mostra a versão e sai.",
    "%(prog)s, version %(version)s": "%(prog)s, versão %(version)s",
    "Error: {message}": "Erro: {message}",
    "Try '{command} {option}' for help.": "Use '{command} {option}' para ajuda.",
    "Missing argument": "Argumento ausente",
    "Missing option": "Opção ausente",
    "Missing parameter": "Parâmetro ausente",
    "Missing command.": "Comando ausente.",
    "Missing {param_type}": "{param_type} ausente",
    "Missing parameter: {param_name}": "Parâmetro ausente: {param_name}",
    "No such command {name!r}.": "Comando inexistente: {name!r}.",
    "No such option {name!r}.": "Opção inexistente: {name!r}.",
    "Option {name!r} does not take a value.": "A opção {name!r} não aceita valor.",
    "Option {name!r} requires an argument.": "A opção {name!r} exige um valor.",
    "Invalid value for {param_hint}: {message}": "Valor inválido para {param_hint}: {message}",
    "Invalid value: {message}": "Valor inválido: {message}",
    "Got unexpected extra argument ({args})": "Argumento a mais inesperado ({args})",
    "Got unexpected extra arguments ({args})": "Argumentos a mais inesperados ({args})",
    "{name} {filename!r} does not exist.": "{name} {filename!r} não existe.",
    "{name} {filename!r} is a directory.": "{name} {filename!r} é uma pasta.",
    "{name} {filename!r} is a file.": "{name} {filename!r} é um arquivo.",
    "{name} {filename!r} is not readable.": "{name} {filename!r} não pode ser lido.",
    "{name} {filename!r} is not writable.": "{name} {filename!r} não pode ser gravado.",
    "{value!r} is not a valid {number_type}.": "{value!r} não é um {number_type} válido.",
    "{value} is not in the range {range}.": "{value} está fora do intervalo {range}.",
    "{value!r} is not {choice}.": "{value!r} não é {choice}.",
    "{value!r} is not one of {choices}.": "{value!r} não é um dos valores aceitos: {choices}.",
    "Did you mean {possibility}?": "Quis dizer {possibility}?",
    "(Did you mean one of: {possibilities}?)": "(Quis dizer um destes: {possibilities}?)",
    "Aborted!": "Interrompido.",
    # The names of click's number types, said in its messages («'x' não é um número
    # inteiro válido») and, upper-cased, as the metavar of an option without one.
    "integer": "número inteiro",
    "integer range": "número inteiro",
    "float": "número",
    "float range": "número",
    "required": "obrigatório",
    "default: {default}": "padrão: {default}",
    "file": "arquivo",
    "directory": "pasta",
    "path": "caminho",
}
TYPE_METAVARS = {
    "text": "TEXTO", "número inteiro": "INTEIRO", "path": "CAMINHO", "número": "NÚMERO",
}
CLICK_MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.types",
    "click.termui",
    "click.utils",
)


def translate(message: str) -> str:
    return CATALOGUE.get(message, message)


def ntranslate(singular: str, plural: str, count: int) -> str:
    return translate(singular if count == 1 else plural)


def localize_metavars(command: click.Command) -> None:
    """``[OPTIONS]`` and ``COMMAND [ARGS]...`` in pt-BR, for a command and its subcommands."""
    command.options_metavar = "[OPÇÕES]"
    for param in command.params:
        if isinstance(param.type, (click.Path, click.types.IntParamType,
                                   click.types.FloatParamType)):
            # Named when the type is built, which may be before :func:`install` ran.
            param.type.name = translate(param.type.name)
        if isinstance(param, click.Option) and param.metavar is None and not param.is_flag:
            word = TYPE_METAVARS.get(param.type.name)
            if word is not None:
                param.metavar = word
    if isinstance(command, click.Group):
        command.subcommand_metavar = "COMANDO [ARGS]..."
        for sub in command.commands.values():
            localize_metavars(sub)


def install() -> None:
    """Point click's message lookups at the pt-BR catalogue."""
    for name in CLICK_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "_"):
            module._ = translate  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ntranslate  # type: ignore[attr-defined]


def suggest_shown_options(error: click.NoSuchOption) -> None:
    """Click suggests the closest of all the names an option answers to, the English
    aliases kept for old scripts (:class:`lavra.cli.support.AliasedOption`) among them:
    suggest only the names the help shows (``--motivo``, never ``--reason``)."""
    if error.ctx is None:
        return
    hidden = {name for param in error.ctx.command.params
              for name in getattr(param, "aliases", ())}
    shown = [name for param in error.ctx.command.params if isinstance(param, click.Option)
             for name in param.opts if name.startswith("--") and name not in hidden]
    error.possibilities = difflib.get_close_matches(error.option_name, shown) or None
