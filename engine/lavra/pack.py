"""Content packs: what a municipality provides, and how the engine finds it.

A content pack is one municipality's law made usable: a folder holding ``legal_text/``
(the laws, parameters, deadlines, calendar), ``schemas/`` and ``forms/``, and the
Python code of the rules a schema cannot say (ages on a date, repeat offences,
validity, rankings), kept beside the articles it implements. The pack tells the engine
what it provides with one value, a :class:`ContentPack`; the engine never imports a
pack module by name::

    # vila_ficticia/__init__.py, the test pack (tests/pacote_teste/)
    from pathlib import Path
    from lavra.pack import ContentPack
    from vila_ficticia import regras

    def pacote() -> ContentPack:
        return ContentPack(
            name="vila-ficticia",
            root=Path(__file__).resolve().parent,
            computations=regras.COMPUTATIONS,
            rule_modules=(regras,),
        )

How the engine finds the pack (:func:`select_pack`), first match wins:

1. ``LAVRA_PACK`` (the CLI's ``--pacote`` sets it), else the configuration key
   ``pacote``: the name of an installed pack, or the path of a pack folder;
2. else the one installed pack, when exactly one is installed; with several, the
   choice is asked for; with none, the error says how to give one.

Installed packs are the distributions that declare an entry point in the group
``lavra.pacotes`` (:data:`ENTRY_POINT_GROUP`), whose object is a :class:`ContentPack`
or a function returning one::

    [project.entry-points."lavra.pacotes"]
    vila-ficticia = "vila_ficticia:pacote"

A pack folder (a path) is read as follows: when it is a Python package (an
``__init__.py`` defining ``pacote``), the package is imported from there under the
folder's name; when it is the root of an installed pack (a checkout, whose data sit
beside the package), that pack; otherwise a pack of data only (laws, schemas, forms;
no computations and no rules beyond the engine's own). Choosing a pack by name or by
the folder of its package imports that pack's code alone, never another installed
pack's.

This module imports nothing of the pipeline at run time: the types it names are for
the reader and for mypy.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from lavra.errors import ContentPackError

if TYPE_CHECKING:
    from lavra.batch.model import BatchRun
    from lavra.checking.checks import Rule
    from lavra.checking.computations import AmountQuery, Computation
    from lavra.demochains import DemoChain
    from lavra.filedacts import ActChoice
    from lavra.filing import AppealQuery
    from lavra.registry.companions import Companion
    from lavra.registry.effects import EffectsOf
    from lavra.registry.importing import ImportSpec
    from lavra.registry.prefill import Prefill

__all__ = [
    "ENTRY_POINT_GROUP",
    "PACK_ENV",
    "PACK_FOLDERS",
    "ContentPack",
    "checked_pack_dir",
    "default_pack",
    "default_pack_dir",
    "installed_packs",
    "pack_at",
    "select_pack",
]

PACK_ENV = "LAVRA_PACK"
PACK_FOLDERS = ("legal_text", "schemas", "forms")
ENTRY_POINT_GROUP = "lavra.pacotes"


@dataclass(frozen=True)
class ContentPack:
    """What a content pack provides to the engine.

    ``name``: a short id (``"vila-ficticia"``), as given to ``--pacote``. ``root``: the
    folder holding ``legal_text/``, ``schemas/`` and ``forms/``. ``computations``: the
    functions a form's ``"calculos"`` name (:mod:`lavra.checking.computations`).
    ``checks``: rules a form's ``"verificacoes"`` may name, beside the engine's own
    (:mod:`lavra.checking.checks`). ``rule_modules``: the modules of rule code, each
    with a tuple ``IMPLEMENTED`` of the citations it implements, which ``lavra law
    coverage`` counts. ``amount``: the answer of ``lavra amount`` (the fine or fee a
    provision sets on a date), when the pack's laws fix amounts. ``caches``: functions
    that forget what the pack's code cached (called after the pack was edited in a
    long-running process). ``stamp_font``: the TrueType font of the signature stamp, a
    file of the pack relative to ``root`` (the stamp then matches the documents'
    lettering whatever fonts the machine has); None: DejaVu Sans from the system.
    """

    name: str
    root: Path
    computations: Mapping[str, Computation] = field(default_factory=dict, repr=False)
    checks: Mapping[str, Rule] = field(default_factory=dict, repr=False)
    rule_modules: tuple[ModuleType, ...] = field(default=(), repr=False)
    amount: Callable[[AmountQuery], Mapping[str, Any]] | None = field(default=None, repr=False)
    caches: tuple[Callable[[], None], ...] = field(default=(), repr=False)
    stamp_font: str | None = None
    batch_runs: Mapping[str, BatchRun] = field(default_factory=dict, repr=False)
    """The batch runs the pack offers (``lavra batch NOME``), by name
    (:mod:`lavra.batch.model`)."""
    effects: Mapping[str, EffectsOf] = field(default_factory=dict, repr=False)
    """What each form's acts do to the licensing state, by form id
    (:mod:`lavra.registry.effects`): declared beside the article they implement."""
    companions: Mapping[str, Companion] = field(default_factory=dict, repr=False)
    """The number of another series each act of a form reserves when issued one at a
    time, by form id (:mod:`lavra.registry.companions`): a licence's numbered seal."""
    imports: Mapping[str, ImportSpec] = field(default_factory=dict, repr=False)
    """The acts from before lavra that ``lavra cadastro importar`` reads, by the value of
    a row's column ``tipo`` (:mod:`lavra.registry.importing`)."""
    demo_chains: tuple[DemoChain, ...] = field(default=(), repr=False)
    """The case histories ``lavra demo`` issues in order (:mod:`lavra.demochains`)."""
    filed_acts: Mapping[str, tuple[ActChoice, ...]] = field(default_factory=dict, repr=False)
    """The acts that may decide a requerimento filed online, by the requerimento's form
    id («Preparar ato» of the staff inbox, :mod:`lavra.filedacts`)."""
    filing_period: Callable[[date], date] | None = field(default=None, repr=False)
    """The last day to supply a refused document, from the day of the applicant's
    ciência of the refusal (the staff inbox, :meth:`lavra.registry.inbox.Inbox.
    acknowledge`); None: the pack fixes no period and staff type the last day."""
    filing_period_terms: str | None = None
    """That period as the applicant reads it before the ciência (pt-BR, e.g. "10 (dez)
    dias, contados da ciência da recusa")."""
    public_questions: frozenset[str] = frozenset()
    """The fillable forms whose check on a public page may ask the licensing state the
    holder's own question (:mod:`lavra.checking.holder_questions`), and no other."""
    prefills: Mapping[str, Prefill] = field(default_factory=dict, repr=False)
    """The forms that start from a vehicle's plate, by form id: the licences they look
    at and how the licensing state fills them (:mod:`lavra.registry.prefill`)."""
    addressee: Callable[[str, Mapping[str, Any]], str | None] | None = field(
        default=None, repr=False)
    """``addressee(form_id, data)``: the CPF or CNPJ (digits) of the party an act is
    addressed to, when the pack admits that party's ciência by electronic access on the
    tracking page of a filed requerimento; None (the hook, or its answer): that act's
    ciência is recorded by staff only."""
    appeals: Mapping[str, Callable[[AppealQuery], tuple[str, dict[str, Any]]]] = field(
        default_factory=dict, repr=False)
    """The recursos an applicant may file from the tracking page, by the citation of the
    deadline (counted from the ciência) they are filed under: each builds the recurso's
    form id and data from the appealed act (:class:`lavra.filing.AppealQuery`). A key
    ``"FORM/citation"`` files that deadline online against the acts of form ``FORM``
    only (a deadline several forms share, filed online for one of them); a plain
    citation, against every act that runs it (:meth:`appeal_for`). A deadline not
    listed: the recurso is filed on paper."""

    def appeal_for(self, form_id: str, citation: str
                   ) -> Callable[[AppealQuery], tuple[str, dict[str, Any]]] | None:
        """The builder of the recurso filed online against an act of ``form_id`` under
        the deadline ``citation`` (:attr:`appeals`), or None: filed on paper."""
        return self.appeals.get(f"{form_id}/{citation}") or self.appeals.get(citation)

    @property
    def stamp_font_path(self) -> Path | None:
        """``stamp_font`` as a path (ContentPackError when the pack lacks the file)."""
        if self.stamp_font is None:
            return None
        path = self.root / self.stamp_font
        if not path.is_file():
            raise ContentPackError(
                f"O pacote de conteúdo «{self.name}» indica para o carimbo da assinatura a "
                f"fonte {self.stamp_font}, que não está no pacote."
            )
        return path

    def at(self, root: Path) -> ContentPack:
        """This pack's code over the data of another folder (an edited copy)."""
        return replace(self, root=checked_pack_dir(Path(root)))

    def clear_caches(self) -> None:
        for clear in self.caches:
            clear()


def checked_pack_dir(root: Path) -> Path:
    """``root`` when it holds the three folders of a content pack, else ContentPackError."""
    missing = [name for name in PACK_FOLDERS if not (root / name).is_dir()]
    if missing:
        raise ContentPackError(
            f"Pacote de conteúdo não encontrado em {root}: faltam as pastas "
            f"{', '.join(missing)}. Indique o pacote pela opção --pacote, pela variável "
            f"{PACK_ENV} ou pela chave «pacote» da configuração (o nome de um pacote "
            "instalado ou a pasta de um pacote)."
        )
    return root


# ---------------------------------------------------------------- installed packs


def _as_pack(obj: Any, where: str) -> ContentPack:
    try:
        found = obj() if callable(obj) and not isinstance(obj, ContentPack) else obj
    except Exception as error:  # the pack's own code failed: say which pack
        raise ContentPackError(
            f"O pacote de conteúdo {where} falhou ao carregar: {error}."
        ) from error
    if not isinstance(found, ContentPack):
        raise ContentPackError(
            f"O pacote de conteúdo {where} não se declara como ContentPack "
            "(veja lavra.pack)."
        )
    return found


@lru_cache(maxsize=1)
def _entry_points() -> Mapping[str, metadata.EntryPoint]:
    """The entry points of the group ``lavra.pacotes`` by name (first one wins), unloaded."""
    found: dict[str, metadata.EntryPoint] = {}
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry)
    return found


@cache
def _installed(name: str) -> ContentPack:
    """The installed pack ``name``: only its own code is imported, not the other packs'."""
    entry = _entry_points()[name]
    try:
        obj = entry.load()
    except Exception as error:  # an installed pack that cannot be imported
        raise ContentPackError(
            f"O pacote de conteúdo instalado «{entry.name}» não pôde ser carregado: "
            f"{error}."
        ) from error
    pack = _as_pack(obj, f"«{entry.name}»")
    return replace(pack, root=checked_pack_dir(pack.root))


def installed_packs() -> Mapping[str, ContentPack]:
    """The installed packs by name (entry points of the group ``lavra.pacotes``).

    This loads the code of every installed pack; choosing one pack by name or by folder
    (:func:`select_pack`) loads that pack alone.
    """
    return {name: _installed(name) for name in _entry_points()}


# ---------------------------------------------------------------- packs in folders


def _import_folder(root: Path) -> ModuleType:
    name = root.name
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(getattr(loaded, "__file__", "") or "").resolve().parent == root:
            return loaded
        raise ContentPackError(
            f"O pacote de conteúdo em {root} tem o nome «{name}», que já é o de outro "
            "módulo Python carregado; renomeie a pasta do pacote."
        )
    spec = importlib.util.spec_from_file_location(
        name, root / "__init__.py", submodule_search_locations=[str(root)]
    )
    if spec is None or spec.loader is None:  # pragma: no cover - a file that exists
        raise ContentPackError(f"O pacote de conteúdo em {root} não pôde ser importado.")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise ContentPackError(
            f"O código do pacote de conteúdo em {root} falhou ao carregar: {error}."
        ) from error
    return module


@lru_cache(maxsize=32)
def _pack_at(root: Path) -> ContentPack:
    # A Python package is imported from the folder itself (an installed pack's package
    # is the module already imported there): no other pack's code is loaded. A folder of
    # data whose code lives elsewhere (a checkout) is matched against the installed packs.
    if not (root / "__init__.py").is_file():
        for pack in installed_packs().values():
            if pack.root.resolve() == root:
                return pack
    else:
        module = _import_folder(root)
        declared = getattr(module, "pacote", None)
        if declared is None:
            raise ContentPackError(
                f"O pacote de conteúdo em {root} é um pacote Python sem a função "
                "«pacote» que o declara (veja lavra.pack)."
            )
        pack = _as_pack(declared, f"em {root}")
        return replace(pack, root=checked_pack_dir(Path(pack.root)))
    return ContentPack(name=root.name, root=checked_pack_dir(root))


def pack_at(root: Path) -> ContentPack:
    """The pack whose data is the folder ``root`` (see the module's docstring)."""
    return _pack_at(Path(root).resolve())


def select_pack(choice: str | None) -> ContentPack:
    """The pack named or located by ``choice``, else the one installed pack."""
    names = sorted(_entry_points())
    if choice:
        if choice in names:
            return _installed(choice)
        if "/" not in choice and os.sep not in choice and not Path(choice).exists():
            listed = ", ".join(names) or "nenhum"
            raise ContentPackError(
                f"Pacote de conteúdo «{choice}» não instalado (instalados: {listed}). "
                "Informe o nome de um pacote instalado ou a pasta de um pacote."
            )
        return pack_at(Path(choice))
    if len(names) == 1:
        return _installed(names[0])
    if not names:
        raise ContentPackError(
            "Nenhum pacote de conteúdo instalado. Instale o de um município (por exemplo "
            f"pip install lavra), ou indique a pasta de um pacote pela variável {PACK_ENV}, "
            "pela opção --pacote ou pela chave «pacote» da configuração."
        )
    raise ContentPackError(
        f"Há {len(names)} pacotes de conteúdo instalados ({', '.join(names)}): "
        f"escolha um pela opção --pacote, pela variável {PACK_ENV} ou pela chave «pacote» "
        "da configuração."
    )


def default_pack() -> ContentPack:
    """The pack ``LAVRA_PACK`` names, else the one installed pack."""
    return select_pack(os.environ.get(PACK_ENV) or None)


def default_pack_dir() -> Path:
    """The data folder of :func:`default_pack`."""
    return default_pack().root
