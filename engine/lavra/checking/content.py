"""The loaded content pack: laws, parameters, schemas, forms and the issuing body."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

import referencing

from lavra.checking.checks import RULES, CheckSpec, Rule
from lavra.errors import ContentPackError, UnknownFormError
from lavra.inputs.schemas.fields import FieldInfo, field_annotations
from lavra.inputs.schemas.registry import BASE_URI, build_registry
from lavra.law.model import Law, load_laws, resolve
from lavra.law.params import Parameters, load_parameters
from lavra.pack import PACK_FOLDERS, ContentPack, pack_at
from lavra.render.templatecheck import check_templates

FORM_KEYS = {
    "id",
    "titulo",
    "subtitulo",
    "tipo",
    "lei",
    "schema",
    "texto",
    "exemplo",
    "fundamento",
    "serie",
    "assinatura",
    "preenchivel",
    "validade",
    "verificacoes",
    "data_referencia",
    "calculos",
    "exemplo_em",
    "orgao",
    "ciencia",
}


@dataclass(frozen=True)
class Acknowledgement:
    """``"ciencia"`` of a form's metadata: where the act itself records the party's
    ciência (``campo``, a pointer of its data, when signed on the spot) and the deadlines
    that run from the ciência (``prazos``, citations of the deadline table). A ciência
    recorded later on the registry entry counts only when the act records none."""

    field: str | None
    deadlines: tuple[str, ...]

    @classmethod
    def from_json(cls, raw: Any, where: str) -> Acknowledgement | None:
        if raw is None:
            return None
        listed = raw.get("prazos", []) if isinstance(raw, dict) else None
        pointer = raw.get("campo") if isinstance(raw, dict) else None
        if (not isinstance(listed, list) or not all(isinstance(c, str) for c in listed)
                or not (pointer is None or (isinstance(pointer, str) and pointer.startswith("/")))
                or set(raw) - {"campo", "prazos"}):
            raise ContentPackError(
                f"{where}: «ciencia» deve ter «campo» (ponteiro da data da ciência no próprio "
                "ato, opcional) e «prazos» (lista de citações da tabela de prazos)."
            )
        return cls(pointer, tuple(listed))


@dataclass(frozen=True)
class FormSpec:
    """One document kind: its metadata, schema and wording."""

    id: str
    title: str
    subtitle: str | None
    kind: str
    law: str
    schema_id: str
    wording: str
    folder: Path
    basis: tuple[str, ...]
    series: str | None
    signer_role: str | None
    applicant_signer: str | None
    fillable: bool
    validity_parameter: str | None
    validity_basis: tuple[str, ...]
    checks: tuple[CheckSpec, ...]
    reference_date_field: str | None
    example: Path | None
    computations: tuple[str, ...] = ()
    example_as_of: date | None = None
    issuing_body: str | None = None
    acknowledgement: Acknowledgement | None = None

    @classmethod
    def from_json(
        cls, raw: Mapping[str, Any], folder: Path, check_rules: Collection[str] | None = None
    ) -> FormSpec:
        where = str(folder / "formulario.json")
        unknown = sorted(set(raw) - FORM_KEYS)
        missing = sorted({"id", "titulo", "tipo", "lei", "schema", "texto"} - set(raw))
        if unknown or missing:
            raise ContentPackError(
                f"{where}: chaves desconhecidas {unknown or '-'}; chaves ausentes {missing or '-'}."
            )
        if raw["id"] != folder.name:
            raise ContentPackError(f"{where}: o id «{raw['id']}» difere do nome da pasta.")
        signature = raw.get("assinatura") or {}
        validity = raw.get("validade") or {}
        example = folder / raw["exemplo"] if raw.get("exemplo") else None
        return cls(
            id=raw["id"],
            title=raw["titulo"],
            subtitle=raw.get("subtitulo"),
            kind=raw["tipo"],
            law=raw["lei"],
            schema_id=BASE_URI + raw["schema"],
            wording=raw["texto"],
            folder=folder,
            basis=tuple(raw.get("fundamento", ())),
            series=raw.get("serie"),
            signer_role=signature.get("papel"),
            applicant_signer=signature.get("requerente"),
            fillable=bool(raw.get("preenchivel", False)),
            validity_parameter=validity.get("parametro"),
            validity_basis=tuple(validity.get("fundamento", ())),
            checks=tuple(
                CheckSpec.from_json(check, f"{where} verificacoes[{i}]", check_rules)
                for i, check in enumerate(raw.get("verificacoes", ()))
            ),
            reference_date_field=raw.get("data_referencia"),
            example=example,
            computations=tuple(raw.get("calculos", ())),
            example_as_of=_as_of(raw.get("exemplo_em"), where),
            issuing_body=raw.get("orgao"),
            acknowledgement=Acknowledgement.from_json(raw.get("ciencia"), where),
        )


def _as_of(value: Any, where: str) -> date | None:
    """``exemplo_em``: the date on which the example is current (the demo moves its dates
    by as many days as have passed since, so that it stays valid)."""
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ContentPackError(f"{where}: «exemplo_em» deve ser uma data AAAA-MM-DD.") from None


@dataclass(frozen=True)
class Organization:
    """The issuing body, as content-pack data (the department may be renamed)."""

    municipio: str
    cidade: str
    uf: str
    orgao: str
    sigla: str
    roles: Mapping[str, str] = field(default_factory=dict)

    def context(self) -> dict[str, Any]:
        return {
            "municipio": self.municipio,
            "cidade": self.cidade,
            "uf": self.uf,
            "orgao": self.orgao,
            "sigla": self.sigla,
            "papeis": dict(self.roles),
        }


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ContentPackError(
            f"Arquivo do pacote de conteúdo ilegível: {path} ({error})."
        ) from None


class Content:
    """A content pack loaded once per process (laws, parameters, schemas, forms).

    ``source``: the pack (:class:`lavra.pack.ContentPack`), or the folder of its data
    (the pack is then found by :func:`lavra.pack.pack_at`).
    """

    def __init__(self, source: Path | ContentPack) -> None:
        self.pack: ContentPack = source if isinstance(source, ContentPack) else pack_at(source)
        root = self.pack.root
        self.root = root
        self.check_rules: Mapping[str, Rule] = MappingProxyType({**RULES, **self.pack.checks})
        self.laws: Mapping[str, Law] = MappingProxyType(load_laws(root))
        self.parameters: Parameters = load_parameters(root)
        self.registry: referencing.Registry[Any] = build_registry(root / "schemas")
        self.forms: Mapping[str, FormSpec] = MappingProxyType(self._load_forms())
        self.organization = self._load_organization()
        self._check_templates()
        self._sealed = True

    def __setattr__(self, name: str, value: Any) -> None:
        # One loaded pack is shared by every engine of the process (:func:`loaded_content`):
        # nobody may change it under the others (the mappings above are read-only views).
        if getattr(self, "_sealed", False):
            raise AttributeError(f"O pacote carregado é somente leitura ({name}).")
        super().__setattr__(name, value)

    def _check_templates(self) -> None:
        """Refuse a pack whose templates have errors (``lavra pack check`` lists them)."""
        issues = check_templates(self.root)
        if issues:
            listed = "; ".join(issue.describe() for issue in issues[:10])
            more = f" (e mais {len(issues) - 10})" if len(issues) > 10 else ""
            raise ContentPackError(
                f"O pacote de conteúdo tem {len(issues)} erro(s) nos modelos: {listed}{more}. "
                "Use «lavra pack check» para a lista completa."
            )

    def _load_forms(self) -> dict[str, FormSpec]:
        forms: dict[str, FormSpec] = {}
        for meta in sorted((self.root / "forms").glob("*/formulario.json")):
            spec = FormSpec.from_json(_read_json(meta), meta.parent, self.check_rules)
            if spec.law not in self.laws:
                raise ContentPackError(f"{meta}: lei desconhecida «{spec.law}».")
            for name in spec.computations:
                if name not in self.pack.computations:
                    raise ContentPackError(self._unknown_computation(meta, name))
            forms[spec.id] = spec
        return forms

    def _unknown_computation(self, meta: Path, name: str) -> str:
        without_code = (
            " (um pacote só de dados, sem código Python, não fornece cálculos: dê ao pacote "
            "um __init__.py com a função «pacote», veja lavra.pack)"
            if not self.pack.computations
            else ""
        )
        return (
            f"{meta.relative_to(self.root).as_posix()}: cálculo desconhecido «{name}» em "
            f"«calculos»: o pacote "
            f"«{self.pack.name}» não o fornece{without_code}."
        )

    def _load_organization(self) -> Organization:
        raw = _read_json(self.root / "forms" / "orgao.json")
        roles = {name: role["cargo"] for name, role in raw.get("papeis", {}).items()}
        try:
            return Organization(
                municipio=raw["municipio"],
                cidade=raw["cidade"],
                uf=raw["uf"],
                orgao=raw["orgao"],
                sigla=raw["sigla"],
                roles=roles,
            )
        except KeyError as error:
            raise ContentPackError(f"forms/orgao.json: falta a chave {error}.") from None

    @cached_property
    def version(self) -> str:
        """A digest of every file of the pack: the version a document was rendered from."""
        return pack_digest(self.root)

    def form(self, form_id: str) -> FormSpec:
        try:
            return self.forms[form_id]
        except KeyError:
            known = ", ".join(sorted(self.forms))
            raise UnknownFormError(
                f"Formulário desconhecido: «{form_id}». Formulários disponíveis: {known}."
            ) from None

    def fields(self, form: FormSpec) -> tuple[FieldInfo, ...]:
        return self._fields[form.id]

    @cached_property
    def _fields(self) -> dict[str, tuple[FieldInfo, ...]]:
        return {
            fid: field_annotations(self.registry, spec.schema_id)
            for fid, spec in self.forms.items()
        }

    def cite(self, citation: str) -> str:
        """Full reference of a citation id (``art. 7º, inciso IV, da Lei ...``)."""
        return resolve(self.laws, citation).reference

    def cite_short(self, citation: str) -> str:
        return resolve(self.laws, citation).short

    def cite_text(self, citation: str) -> str:
        text = resolve(self.laws, citation).text
        return text or ""


def pack_digest(root: Path) -> str:
    """A digest of every data file of the pack at ``root`` (names and bytes)."""
    digest = hashlib.sha256()
    for folder in PACK_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


#: The packs this process loaded (:func:`loaded_content`), the most recent last.
_LOADED: OrderedDict[tuple[Path, str], Content] = OrderedDict()
_LOADED_MAX = 4
_LOADED_LOCK = threading.Lock()


def loaded_content(pack_dir: Path) -> Content:
    """The pack whose data is ``pack_dir``, loaded once per process (every command, issuer
    and page of a process shares it) and loaded again when a file of its data changed.

    Loading depends on the pack's code (:func:`lavra.pack.pack_at`, itself loaded once per
    process) and on the bytes of the files under ``legal_text/``, ``schemas/`` and
    ``forms/``: the key is that pack and the digest of those files (what
    :attr:`Content.version` says), so an edited pack is never served from before its
    edit. The shared :class:`Content` is read-only. The staff values of the registry are
    not part of it: they are read for every document (:meth:`lavra.documents.Engine.
    use_staff_values`)."""
    pack = pack_at(pack_dir)
    version = pack_digest(pack.root)
    key = (pack.root, version)
    with _LOADED_LOCK:
        found = _LOADED.get(key)
        if found is not None and found.pack is pack:
            _LOADED.move_to_end(key)
            return found
    content = Content(pack)
    if pack_digest(pack.root) != version:  # edited while it loaded: use it, keep nothing
        return content
    content.__dict__["version"] = version  # the cached_property, read from the same files
    with _LOADED_LOCK:
        _LOADED[key] = content
        _LOADED.move_to_end(key)
        while len(_LOADED) > _LOADED_MAX:
            _LOADED.popitem(last=False)
    return content
