"""Every template of a content pack checked before anything is rendered with it.

Staff write the wording of each form as a Jinja template (``forms/<id>/texto.html`` and
the shared ``forms/_modelos/documento.html``). :func:`check_templates` lists, for every
``.html`` file under ``forms/``, what can be found without rendering: syntax errors,
unknown filters and tests, ``{% include %}``/``{% import %}``/``{% from %}`` of a
template that does not exist or of a macro it does not define, and names that are
neither data given to every document, nor a helper, nor set anywhere in the pack.
:class:`lavra.checking.content.Content` refuses to load a pack with any of them, and
``lavra pack check`` lists them all, each with its template and line.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.compiler import generate

from lavra.render.templating import make_environment

__all__ = ["CONTEXT_NAMES", "TemplateIssue", "check_templates"]

#: The data every document's template is given (see ``Engine._context``).
CONTEXT_NAMES = frozenset(
    {
        "formulario",
        "dados",
        "orgao",
        "data_referencia",
        "calculado",
        "minuta",
        "numero",
        "autenticacao",
        "assinante",
        "documentos_exigidos",
        "pendencias",
        "sem_texto",
    }
)
#: Names Jinja itself provides inside loops, macros and call blocks.
_JINJA_NAMES = frozenset({"loop", "caller", "varargs", "kwargs", "self", "super"})


@dataclass(frozen=True)
class TemplateIssue:
    """One error of one template: ``template`` is its name under ``forms/``."""

    template: str
    line: int | None
    message: str

    def describe(self) -> str:
        where = f"{self.template}, linha {self.line}" if self.line else self.template
        return f"{where}: {self.message}"


_SYNTAX = [
    (
        re.compile(r"end of template.*block that needs to be closed is '([^']+)'", re.I | re.S),
        "o modelo termina sem fechar o bloco «{0}»",
    ),
    (re.compile(r"unexpected end of template", re.I), "o modelo termina antes do fim de um bloco"),
    (re.compile(r"Expected an expression, got '([^']+)'"), "esperava-se uma expressão, veio «{0}»"),
    (re.compile(r"Encountered unknown tag '([^']+)'"), "etiqueta desconhecida «{0}»"),
    (re.compile(r"expected token '([^']+)', got '([^']+)'"), "esperava-se «{0}», veio «{1}»"),
    (re.compile(r"unexpected char '?(.+?)'? at"), "caractere inesperado «{0}»"),
    (re.compile(r"unexpected '([^']+)'"), "símbolo inesperado «{0}»"),
    (re.compile(r"No filter named '([^']+)'"), "filtro desconhecido «{0}»"),
    (re.compile(r"No test named '([^']+)'"), "teste desconhecido «{0}»"),
]


_TOKENS = {
    "end of statement block": "%}",
    "end of print statement": "}}",
    "end of template": "fim do modelo",
    "begin of statement block": "{%",
    "begin of print statement": "{{",
}


def _syntax_message(message: str | None) -> str:
    text = message or ""
    for pattern, wording in _SYNTAX:
        found = pattern.search(text)
        if found:
            parts = [_TOKENS.get(part, part) for part in found.groups()]
            return "erro de sintaxe: " + wording.format(*parts)
    return f"erro de sintaxe ({text[:200]})"


def _declared(tree: nodes.Template) -> set[str]:
    """Names a template sets: variables, loop targets, macros, imports."""
    names: set[str] = set()
    for node in tree.find_all(nodes.Name):
        if node.ctx in ("store", "param"):
            names.add(node.name)
    for macro in tree.find_all(nodes.Macro):
        names.add(macro.name)
    for imported in tree.find_all(nodes.Import):
        names.add(imported.target)
    for from_import in tree.find_all(nodes.FromImport):
        for item in from_import.names:
            names.add(item[1] if isinstance(item, tuple) else item)
    return names


def _macros(tree: nodes.Template) -> set[str]:
    return {macro.name for macro in tree.find_all(nodes.Macro)}


def _wordings(forms_dir: Path) -> dict[str, str]:
    """form id → the template file its formulario.json names (unreadable ones skipped:
    the pack loader reports those)."""
    found: dict[str, str] = {}
    for meta in sorted(forms_dir.glob("*/formulario.json")):
        try:
            raw = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(raw, dict) and isinstance(raw.get("texto"), str):
            found[meta.parent.name] = raw["texto"]
    return found


def _template_files(forms_dir: Path) -> Iterable[Path]:
    for path in sorted(forms_dir.rglob("*.html")):
        if path.is_file() and "_base" not in path.relative_to(forms_dir).parts:
            yield path


#: Results by the state of the files checked (a process loads the same pack often).
_CHECKED: dict[tuple[object, ...], list[TemplateIssue]] = {}


def check_templates(root: Path) -> list[TemplateIssue]:
    """Every error found in the templates of the pack at ``root``, in file order."""
    forms_dir = root / "forms"
    files = [*_template_files(forms_dir), *sorted(forms_dir.glob("*/formulario.json"))]
    try:
        key = tuple((str(path), hashlib.sha256(path.read_bytes()).digest()) for path in files)
    except OSError:
        key = ()
    if key and key in _CHECKED:
        return list(_CHECKED[key])
    issues = _check(forms_dir)
    if key:
        if len(_CHECKED) > 16:
            _CHECKED.clear()
        _CHECKED[key] = issues
    return list(issues)


def _check(forms_dir: Path) -> list[TemplateIssue]:
    env = make_environment([forms_dir, forms_dir / "_modelos"], draft=True)
    issues: list[TemplateIssue] = []
    trees: dict[str, nodes.Template] = {}
    for path in _template_files(forms_dir):
        name = path.relative_to(forms_dir).as_posix()
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            issues.append(TemplateIssue(name, None, "arquivo ilegível ou fora do padrão UTF-8"))
            continue
        try:
            trees[name] = env.parse(source, name, str(path))
        except jinja2.TemplateSyntaxError as error:
            issues.append(TemplateIssue(name, error.lineno, _syntax_message(error.message)))
    declared = set().union(*(_declared(tree) for tree in trees.values()))
    known = CONTEXT_NAMES | _JINJA_NAMES | set(env.globals) | declared
    for name, tree in trees.items():
        found = _tree_issues(env, name, tree, known, trees)
        if not found:
            try:
                generate(tree, env, name, None)
            except jinja2.TemplateSyntaxError as error:
                found.append(TemplateIssue(name, error.lineno, _syntax_message(error.message)))
        issues.extend(found)
    for form_id, wording in _wordings(forms_dir).items():
        name = f"{form_id}/{wording}"
        if not (forms_dir / form_id / wording).is_file():
            issues.append(TemplateIssue(name, None, "o modelo do formulário não existe"))
    return sorted(issues, key=lambda issue: (issue.template, issue.line or 0))


def _exists(env: jinja2.Environment, name: str) -> bool:
    if env.loader is None:
        return False
    try:
        env.loader.get_source(env, name)
    except jinja2.TemplateNotFound:
        return False
    return True


def _tree_issues(
    env: jinja2.Environment,
    name: str,
    tree: nodes.Template,
    known: frozenset[str] | set[str],
    trees: dict[str, nodes.Template],
) -> list[TemplateIssue]:
    found: list[TemplateIssue] = []

    def issue(node: nodes.Node, message: str) -> None:
        found.append(TemplateIssue(name, node.lineno, message))

    for used in tree.find_all(nodes.Filter):
        if used.name not in env.filters:
            issue(used, f"filtro desconhecido «{used.name}»")
    for tested in tree.find_all(nodes.Test):
        if tested.name not in env.tests:
            issue(tested, f"teste desconhecido «{tested.name}»")
    for loaded in tree.find_all((nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)):
        target = getattr(loaded, "template", None)
        if not (isinstance(target, nodes.Const) and isinstance(target.value, str)):
            continue  # a name computed when rendering, e.g. the form's own wording
        other = target.value
        if not _exists(env, other):
            if not (isinstance(loaded, nodes.Include) and loaded.ignore_missing):
                issue(loaded, f"inclui o modelo inexistente «{other}»")
            continue
        if isinstance(loaded, nodes.FromImport) and other in trees:
            defined = _macros(trees[other])
            for item in loaded.names:
                macro = item[0] if isinstance(item, tuple) else item
                if macro not in defined:
                    issue(loaded, f"importa «{macro}», que o modelo «{other}» não define")
    reported: set[str] = set()
    for used_name in tree.find_all(nodes.Name):
        unknown = used_name.ctx == "load" and used_name.name not in known
        if unknown and used_name.name not in reported:
            reported.add(used_name.name)
            issue(used_name, f"usa o nome desconhecido «{used_name.name}»")
    return found
