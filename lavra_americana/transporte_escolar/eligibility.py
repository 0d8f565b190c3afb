"""Eligibility of the school-transport candidate, Lei nº 4.515/2007: art. 7º, I to IX,
with arts. 4º, 9º, § 1º, 14, 15, II and § 2º, and 17.

Every rule is a pure function of its inputs and a reference date. It returns a frozen
result with the value, the report items (:class:`lavra.checking.report.Item`, one per
requirement, each citing its inciso) and a short pt-BR explanation fit to be printed
in a decision. Numbers fixed by law are read from the pack's parameters as of the
reference date; a parameter with no value in force is a :class:`ParameterError`.

Counting decisions (the law is silent on each; a careful reading, written here once).
The vehicle's age is counted as :mod:`lavra_americana.comum.vehicle_age` says; periods
of a person's situation as :mod:`lavra_americana.comum.periods` says.

"Possuir mais de 21 anos de idade" (art. 7º, I). In Brazilian usage "ter mais de 21
    anos" means having completed 21 years, so the candidate qualifies on the 21st
    birthday itself (not a year later, when "more than 21" would mean 22).

CNH "categoria D" (art. 7º, II). Categories D, E, AD and AE qualify, as the shared
    schema definition ``cnh_categoria_d`` (schemas/comum.json) states, citing CTB
    art. 143 and the CONTRAN table by which E covers D.

Infractions (art. 7º, VIII, with CTB art. 138, IV). The input is the candidate's
    traffic record (dated infractions with their gravity). One grave or gravíssima
    infraction in the last 12 months bars the candidate; so do two or more médias
    ("reincidência de infrações médias": the text requires neither the same
    infraction nor the same article, and the provision protects children
    transported, so any two médias count). An infraction counts while the 12 months
    from it have not elapsed: one on the same day 12 months before the reference
    date no longer counts, consistently with the count above. Infractions dated
    after the reference date are not in the last 12 months and are ignored.

Roles. The auxiliary driver (art. 9º, § 1º) is exempt from art. 7º, IV and VII; the
    substitute driver (art. 4º, caput and parágrafo único, I) from IV, VII and IX.
    Their items are ``not_applicable`` with the reason.

One licence per transporter (art. 14) and the bar after a transfer (art. 15, § 2º)
    concern the *licence*; they apply to the titular (and to whoever receives a
    transfer, who must meet art. 7º, art. 15, II). The auxiliary and the substitute
    drive under the titular's licence and receive no licence of their own, and a
    restriction of rights is not extended beyond its terms: for them these items are
    ``not_applicable``.

After cassação or revogação. Lei nº 4.515/2007 sets no period during which a
    licensee whose licence was cassada (art. 13, non-renewal) or revogada (art. 9º,
    § 2º; art. 23, III) may not apply again. The 12-month bar of art. 22, parágrafo
    único, of Lei nº 4.419/2006 belongs to another law, on another service, and a
    sanction or restriction of rights needs an express legal text: it is not applied
    by analogy. A former licensee may therefore apply, subject to a new selection
    (art. 3º, § 4º; art. 13, § 2º) and to art. 7º, whose incisos V and VIII already
    weigh the record. The item is reported, ``not_applicable``, so the decision says
    why no bar was applied.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from lavra.checking.report import Item, Status
from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.law.model import Law
from lavra.law.params import Parameters
from lavra.textutil import format_date
from lavra_americana.comum.citing import cite_many, lower_first, short
from lavra_americana.comum.periods import (
    anniversary,
    bar_lifted,
    check_date,
    completed_years,
    free_from,
    has_elapsed,
)
from lavra_americana.comum.vehicle_age import vehicle_age
from lavra_americana.transporte_escolar.candidate import (
    CNH_CATEGORIES_D,
    GRAVITIES,
    ROLES,
    Candidate,
    Role,
    TrafficInfraction,
)

__all__ = [
    "IMPLEMENTED",
    "REGISTRY_ONLY",
    "Eligibility",
    "candidate_eligibility",
    "counted_infractions",
    "licence_items",
]

SCHOOL = "transporte-escolar"
INFRACTION_WINDOW_MONTHS = 12
"""Art. 7º, VIII: "durante os últimos 12 (doze) meses" (no parameter in the pack)."""


_ROLE_LABEL: dict[str, str] = {
    "titular": "condutor titular",
    "auxiliar": "condutor auxiliar",
    "substituto": "condutor substituto",
}


_GRAVITY_LABEL: dict[str, str] = {
    "leve": "leve",
    "media": "média",
    "grave": "grave",
    "gravissima": "gravíssima",
}


_EXEMPT: dict[str, frozenset[int]] = {
    "titular": frozenset(),
    "auxiliar": frozenset({4, 7}),
    "substituto": frozenset({4, 7, 9}),
}


_EXEMPTION_BASIS: dict[str, tuple[str, ...]] = {
    "auxiliar": (f"{SCHOOL}#art9_par1",),
    "substituto": (f"{SCHOOL}#art4", f"{SCHOOL}#art4_par1u_inc1"),
}


_EXEMPTION_LABEL: dict[str, str] = {
    "auxiliar": "art. 9º, § 1º",
    "substituto": "art. 4º, caput e parágrafo único, I",
}


REGISTRY_ONLY = frozenset({"/licencas_ativas", "/transferencia_licenca_em", "/cassacao_licenca_em"})
"""The items of :func:`candidate_eligibility` only the registry can feed (the licences a
person holds, the last transfer and revocation): a requerimento leaves them out."""

IMPLEMENTED: tuple[str, ...] = (
    "transporte-escolar#art4",
    "transporte-escolar#art4_par1u_inc1",
    "transporte-escolar#art5_inc2",
    *(f"transporte-escolar#art7_inc{n}" for n in range(1, 10)),
    "transporte-escolar#art9_par1",
    "transporte-escolar#art14",
    "transporte-escolar#art15_inc2",
    "transporte-escolar#art15_par2",
    *(f"transporte-escolar#art17_inc{n}" for n in range(1, 6)),
)
"""Citations whose rule this module implements (for coverage reporting)."""


@dataclass(frozen=True)
class Eligibility:
    """Whether a candidate may register in the role on the date, and why."""

    eligible: bool
    role: Role
    on: date
    items: tuple[Item, ...]
    explanation: str

    @property
    def pending(self) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.pending)


class _Context:
    """Shared state of one evaluation: dates, parameters and citations."""

    def __init__(self, on: date, role: Role, params: Parameters,
                 laws: Mapping[str, Law]) -> None:
        self.on = on
        self.role = role
        self.params = params
        self.laws = laws

    def cite(self, *fragments: str) -> str:
        return cite_many(self.laws, *(f"{SCHOOL}#{f}" for f in fragments))

    def number(self, name: str) -> int:
        return int(self.params.value(f"{SCHOOL}.{name}", self.on).value)

    def item(self, field: str, status: Status, message: str, *fragments: str) -> Item:
        basis = tuple(f"{SCHOOL}#{f}" for f in fragments)
        return Item(pointers.dotted(field), status, field, message, basis)

    def exempt(self, inciso: int, field: str, what: str) -> Item | None:
        """The not-applicable item when the role is exempt from art. 7º, ``inciso``."""
        if inciso not in _EXEMPT[self.role]:
            return None
        basis = _EXEMPTION_BASIS[self.role]
        refs = _EXEMPTION_LABEL[self.role]
        law = self.laws[SCHOOL].short_title
        message = (
            f"{what} (art. 7º, {_roman(inciso)}): dispensado para o "
            f"{_ROLE_LABEL[self.role]} ({refs}, da {law})."
        )
        return Item(pointers.dotted(field), Status.NOT_APPLICABLE, field, message,
                    (f"{SCHOOL}#art7_inc{inciso}", *basis))


def _roman(number: int) -> str:
    return ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")[number - 1]


def _years(n: int) -> str:
    return f"{n} {'ano' if n == 1 else 'anos'}"


def _age_item(c: Candidate, ctx: _Context) -> Item:
    field, ref = "/data_nascimento", ctx.cite("art7_inc1")
    minimum = ctx.number("idade_minima_condutor")
    requirement = f"requisito de mais de {minimum} anos de idade ({ref})"
    if c.birth_date is None:
        return ctx.item(field, Status.MISSING,
                        f"Data de nascimento não informada: não comprovado o {requirement}.",
                        "art7_inc1")
    born = check_date(c.birth_date, field)
    if born > ctx.on:
        return ctx.item(field, Status.INVALID,
                        f"Data de nascimento {format_date(born)} posterior à data de "
                        f"referência ({format_date(ctx.on)}): não comprovado o {requirement}.",
                        "art7_inc1")
    age = completed_years(born, ctx.on)
    head = f"Nascimento em {format_date(born)}: {_years(age)} completos em {format_date(ctx.on)}"
    if has_elapsed(born, ctx.on, years=minimum):
        return ctx.item(field, Status.MET, f"{head}; atende ao {requirement}.", "art7_inc1")
    when = anniversary(born, years=minimum)
    return ctx.item(field, Status.INVALID,
                    f"{head}; não atende ao {requirement}: completará {minimum} anos em "
                    f"{format_date(when)}.", "art7_inc1")


def _cnh_item(c: Candidate, ctx: _Context) -> Item:
    field, ref = "/cnh_categoria", ctx.cite("art7_inc2")
    if c.cnh_category is None:
        return ctx.item(field, Status.MISSING,
                        f"Categoria da habilitação não informada: não comprovada a "
                        f"habilitação na categoria “D” ({ref}).", "art7_inc2")
    category = c.cnh_category.strip().upper()
    if category == "D":
        return ctx.item(field, Status.MET, f"Habilitado na categoria “D” ({ref}).",
                        "art7_inc2")
    if category in CNH_CATEGORIES_D:
        return ctx.item(field, Status.MET,
                        f"Habilitado na categoria “{category}”, que abrange a categoria “D” "
                        f"exigida ({ref}).", "art7_inc2")
    return ctx.item(field, Status.INVALID,
                    f"Habilitado na categoria “{category}”: a lei exige a categoria “D” "
                    f"({ref}); atendem também as categorias E, AD e AE, que a abrangem.",
                    "art7_inc2")


def _residence_item(c: Candidate, ctx: _Context) -> Item:
    field, ref = "/residente_desde", ctx.cite("art7_inc3")
    minimum = ctx.number("residencia_minima")
    requirement = f"mínimo de {_years(minimum)} de residência no Município ({ref})"
    if c.resident_since is None:
        return ctx.item(field, Status.MISSING,
                        f"Início da residência no Município não informado: não comprovado o "
                        f"{requirement}.", "art7_inc3")
    since = check_date(c.resident_since, field)
    if since > ctx.on:
        return ctx.item(field, Status.INVALID,
                        f"Início da residência ({format_date(since)}) posterior à data de "
                        f"referência ({format_date(ctx.on)}): não comprovado o {requirement}.",
                        "art7_inc3")
    years = completed_years(since, ctx.on)
    head = (f"Residente no Município desde {format_date(since)}: {_years(years)} "
            f"completos em {format_date(ctx.on)}")
    if has_elapsed(since, ctx.on, years=minimum):
        return ctx.item(field, Status.MET, f"{head}; atende ao {requirement}.", "art7_inc3")
    return ctx.item(field, Status.INVALID,
                    f"{head}; não atende ao {requirement}: completará {_years(minimum)} de "
                    f"residência em {format_date(anniversary(since, years=minimum))}.",
                    "art7_inc3")


def _proof_item(value: bool | None, ctx: _Context, field: str, fragments: tuple[str, ...],
                met: str, invalid: str, missing: str) -> Item:
    ref = ctx.cite(*fragments)
    if value is None:
        return ctx.item(field, Status.MISSING, f"{missing} ({ref}).", *fragments)
    if value:
        return ctx.item(field, Status.MET, f"{met} ({ref}).", *fragments)
    return ctx.item(field, Status.INVALID, f"{invalid} ({ref}).", *fragments)


def _vehicle_items(c: Candidate, ctx: _Context) -> Iterator[Item]:
    exempt = ctx.exempt(4, "/veiculo", "Veículo que preencha os requisitos legais")
    if exempt is not None:
        yield exempt
        return
    if c.vehicle is None:
        yield ctx.item("/veiculo", Status.MISSING,
                       f"Veículo não informado: não comprovado dispor de veículo que preencha "
                       f"os requisitos legais ({ctx.cite('art7_inc4', 'art17')}).",
                       "art7_inc4", "art17")
        return
    car = c.vehicle
    if car.year_of_manufacture is None:
        yield ctx.item("/veiculo/ano_fabricacao", Status.MISSING,
                       "Ano de fabricação do veículo não informado "
                       f"({ctx.cite('art7_inc4', 'art17_inc1')}).",
                       "art7_inc4", "art17_inc1")
    else:
        found = vehicle_age(car.year_of_manufacture, ctx.on, law="transporte-escolar",
                            params=ctx.params, laws=ctx.laws, plate=car.plate)
        for item in found.items:
            yield Item(item.requirement, item.status, item.field, item.message,
                       (f"{SCHOOL}#art7_inc4", *item.basis))
    checks = (
        ("/veiculo/licenciado_no_municipio", car.licensed_in_municipality, "art17_inc2",
         "Veículo licenciado no Município", "Veículo não licenciado no Município",
         "Não comprovado o licenciamento do veículo no Município"),
        ("/veiculo/seguro_vigente", car.insured, "art17_inc4",
         "Veículo segurado, com apólice vigente que cobre danos a terceiros e aos "
         "passageiros transportados",
         "Veículo sem seguro vigente com cobertura de danos a terceiros e aos passageiros",
         "Não comprovado o seguro do veículo, com apólice vigente que cubra danos a "
         "terceiros e aos passageiros transportados"),
        ("/veiculo/pneus_regulares", car.tyres_compliant, "art17_inc5",
         "Pneus do veículo em conformidade (não remoldados, ressolados ou riscados)",
         "Veículo com pneus remoldados, ressolados ou riscados",
         "Não verificada a condição dos pneus do veículo"),
    )
    for field, value, fragment, met, invalid, missing in checks:
        yield _proof_item(value, ctx, field, ("art7_inc4", fragment), met, invalid, missing)


def _inspection_item(c: Candidate, ctx: _Context) -> Item:
    field = "/veiculo/laudo_vistoria_ciretran"
    exempt = ctx.exempt(7, field, "Laudo de vistoria do veículo fornecido pela CIRETRAN")
    if exempt is not None:
        return exempt
    value = None if c.vehicle is None else c.vehicle.inspection_report
    return _proof_item(
        value, ctx, field, ("art7_inc7", "art17_inc3"),
        "Apresentado laudo de vistoria do veículo fornecido pela CIRETRAN",
        "Laudo de vistoria da CIRETRAN desfavorável ou não fornecido",
        "Não apresentado o laudo de vistoria do veículo fornecido pela CIRETRAN",
    )


def counted_infractions(
    infractions: Sequence[TrafficInfraction], on: date, months: int = INFRACTION_WINDOW_MONTHS
) -> tuple[TrafficInfraction, ...]:
    """The infractions "of the last ``months`` months" on ``on`` (module docstring)."""
    return tuple(
        i for i in sorted(infractions, key=lambda i: i.on)
        if i.on <= on and not has_elapsed(i.on, on, months=months)
    )


def _infractions_item(c: Candidate, ctx: _Context) -> Item:
    field, ref = "/infracoes", ctx.cite("art7_inc8")
    cite = f"{ref}, c/c o art. 138 do Código de Trânsito Brasileiro"
    window = f"nos {INFRACTION_WINDOW_MONTHS} meses anteriores a {format_date(ctx.on)}"
    if c.infractions is None:
        return ctx.item(field, Status.MISSING,
                        "Prontuário de infrações de trânsito não apresentado: não comprovada a "
                        f"inexistência de infração grave ou gravíssima, ou de reincidência em "
                        f"infrações médias, {window} ({cite}).", "art7_inc8")
    for index, infraction in enumerate(c.infractions):
        check_date(infraction.on, f"{field}/{index}/data")
        if infraction.gravity not in GRAVITIES:
            raise InputError(
                f"Gravidade de infração inválida: {infraction.gravity!r} (use uma de: "
                f"{', '.join(GRAVITIES)}).",
                field=f"{field}/{index}/gravidade",
            )
    recent = counted_infractions(c.infractions, ctx.on)
    serious = [i for i in recent if i.gravity in ("grave", "gravissima")]
    medium = [i for i in recent if i.gravity == "media"]
    problems: list[str] = []
    if serious:
        listed = "; ".join(
            f"{_GRAVITY_LABEL[i.gravity]} em {format_date(i.on)}" for i in serious
        )
        word = "infração" if len(serious) == 1 else "infrações"
        problems.append(f"{word} {listed}")
    if len(medium) >= 2:
        listed = ", ".join(format_date(i.on) for i in medium)
        problems.append(f"reincidência em infrações médias ({listed})")
    if problems:
        return ctx.item(field, Status.INVALID,
                        f"Registra {' e '.join(problems)} {window} ({cite}).", "art7_inc8")
    return ctx.item(field, Status.MET,
                    f"Sem infração grave ou gravíssima nem reincidência em infrações médias "
                    f"{window} ({cite}).", "art7_inc8")


def _licence_item(c: Candidate, ctx: _Context) -> Item:
    field, ref = "/licencas_ativas", ctx.cite("art14")
    count = c.active_licences
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InputError("O número de licenças ativas deve ser um inteiro não negativo.",
                         field=field)
    if ctx.role != "titular":
        return ctx.item(field, Status.NOT_APPLICABLE,
                        f"Vedação de mais de uma licença ao mesmo transportador ({ref}): não "
                        f"se aplica ao {_ROLE_LABEL[ctx.role]}, que conduz sob a licença do "
                        "titular e não recebe licença própria.", "art14")
    if count == 0:
        return ctx.item(field, Status.MET,
                        f"Não é titular de outra licença de transporte escolar ({ref}).",
                        "art14")
    word = "licença ativa" if count == 1 else "licenças ativas"
    return ctx.item(field, Status.INVALID,
                    f"Já é titular de {count} {word} de transporte escolar: é vedada a "
                    f"concessão de mais de uma licença ao mesmo transportador ({ref}).",
                    "art14")


def _transfer_item(c: Candidate, ctx: _Context) -> Item:
    field, ref = "/transferencia_licenca_em", ctx.cite("art15_par2")
    if ctx.role != "titular":
        return ctx.item(field, Status.NOT_APPLICABLE,
                        f"Impedimento após transferência de licença ({ref}): não se aplica ao "
                        f"{_ROLE_LABEL[ctx.role]}, que não obtém licença própria.", "art15_par2")
    bar = ctx.number("carencia_nova_licenca_apos_transferencia")
    if c.transferred_licence_on is None:
        return ctx.item(field, Status.MET,
                        f"Sem transferência de licença que impeça nova licença ({ref}).",
                        "art15_par2")
    moved = check_date(c.transferred_licence_on, field)
    if moved > ctx.on:
        raise InputError(
            f"Data de transferência da licença ({format_date(moved)}) posterior à data de "
            f"referência ({format_date(ctx.on)}).",
            field=field,
        )
    # a bar: the anniversary itself is still barred (comum.periods, art. 66, § 3º)
    last, free_on = anniversary(moved, years=bar), free_from(moved, years=bar)
    if bar_lifted(moved, ctx.on, years=bar):
        return ctx.item(field, Status.MET,
                        f"Licença anterior transferida em {format_date(moved)}: decorridos os "
                        f"{_years(bar)} em {format_date(last)}, cessou o impedimento em "
                        f"{format_date(free_on)} ({ref}).", "art15_par2")
    return ctx.item(field, Status.INVALID,
                    f"Licença anterior transferida em {format_date(moved)}: não pode obter outra "
                    f"licença antes de decorridos {_years(bar)} da transferência; o impedimento "
                    f"dura até {format_date(last)}, inclusive, e cessa em "
                    f"{format_date(free_on)} ({ref}).", "art15_par2")


def _revocation_item(c: Candidate, ctx: _Context) -> Item | None:
    if c.revoked_licence_on is None:
        return None
    field = "/cassacao_licenca_em"
    revoked = check_date(c.revoked_licence_on, field)
    law = ctx.laws[SCHOOL].short_title
    other = ctx.laws.get("fretamento")
    other_ref = (
        short(ctx.laws, "fretamento#art22_par1u") if other is not None
        and "art22_par1u" in other.fragments else "a lei do fretamento"
    )
    return ctx.item(
        field, Status.NOT_APPLICABLE,
        f"Cassação ou revogação de licença anterior em {format_date(revoked)}: não impede a "
        f"inscrição, pois a {law} não fixa prazo de impedimento após a cassação ou a "
        f"revogação do alvará ({ctx.cite('art13', 'art23_inc3')}); o impedimento de 12 meses do "
        f"{other_ref} rege apenas o fretamento, e restrição de direito não se aplica por "
        f"analogia. A inscrição segue sujeita a novo processo seletivo ({ctx.cite('art3_par4')}) "
        f"e aos requisitos do art. 7º.",
        "art13", "art23_inc3", "art3_par4",
    )


def licence_items(
    on: date,
    *,
    active_licences: int,
    transferred_on: date | None,
    params: Parameters,
    laws: Mapping[str, Law],
) -> tuple[Item, Item]:
    """Arts. 14 and 15, § 2º, for whoever is to obtain a licence on ``on`` (a titular,
    or the receiver of a transfer, art. 15, II), from what the registry knows: the
    licences the person holds and the day of the last transfer of one of theirs. The
    same rules, and the same counting, as :func:`candidate_eligibility`; the items sit
    at ``/licencas_ativas`` and ``/transferencia_licenca_em``.
    """
    ctx = _Context(check_date(on, "/data_referencia"), "titular", params, laws)
    known = Candidate(
        name="", birth_date=None, cnh_category=None, resident_since=None,
        no_criminal_record=None, course_completed=None, infractions=None,
        active_licences=active_licences, transferred_licence_on=transferred_on,
    )
    return _licence_item(known, ctx), _transfer_item(known, ctx)


def candidate_eligibility(
    candidate: Candidate,
    on: date,
    role: Role,
    *,
    params: Parameters,
    laws: Mapping[str, Law],
) -> Eligibility:
    """Whether ``candidate`` meets, on ``on``, the requirements to register as a school
    transport driver in ``role`` (art. 7º; auxiliary art. 9º, § 1º; substitute art. 4º),
    with one licence per transporter (art. 14), the bar after a transfer (art. 15,
    § 2º) and, when there was one, the (absent) bar after cassação: see the module
    docstring for each decision.
    """
    check_date(on, "/data_referencia")
    if role not in ROLES:
        raise InputError(f"Papel inválido: {role!r}. Use um destes: {', '.join(ROLES)}.",
                         field="/papel")
    ctx = _Context(on, role, params, laws)
    c = candidate
    items: list[Item] = [_age_item(c, ctx), _cnh_item(c, ctx), _residence_item(c, ctx)]
    items.extend(_vehicle_items(c, ctx))
    items.append(_proof_item(
        c.no_criminal_record, ctx, "/sem_antecedentes_criminais", ("art7_inc5",),
        "Não registra antecedentes criminais", "Registra antecedentes criminais",
        "Não comprovada a inexistência de antecedentes criminais",
    ))
    items.append(_proof_item(
        c.course_completed, ctx, "/curso_condutor_escolar", ("art7_inc6",),
        "Concluído o curso de condutores de transporte escolar",
        "Não concluído o curso de condutores de transporte escolar",
        "Não comprovada a conclusão do curso de condutores de transporte escolar",
    ))
    items.append(_inspection_item(c, ctx))
    items.append(_infractions_item(c, ctx))
    edital = ctx.exempt(9, "/exigencias_edital", "Demais exigências do Edital")
    items.append(edital if edital is not None else _proof_item(
        c.edital_requirements_met, ctx, "/exigencias_edital", ("art7_inc9",),
        "Atendidas as demais exigências do Edital",
        "Não atendidas as demais exigências do Edital",
        "Não comprovado o atendimento das demais exigências do Edital",
    ))
    items.append(_licence_item(c, ctx))
    items.append(_transfer_item(c, ctx))
    revocation = _revocation_item(c, ctx)
    if revocation is not None:
        items.append(revocation)
    pending = [item for item in items if item.pending]
    return Eligibility(
        eligible=not pending,
        role=role,
        on=on,
        items=tuple(items),
        explanation=_explanation(c, ctx, pending),
    )


def _explanation(c: Candidate, ctx: _Context, pending: Sequence[Item]) -> str:
    law = ctx.laws[SCHOOL].short_title
    if ctx.role == "titular":
        basis = f"art. 7º da {law}"
    else:
        basis = f"art. 7º, c/c o {_EXEMPTION_LABEL[ctx.role]}, da {law}"
    role = _ROLE_LABEL[ctx.role]
    when = format_date(ctx.on)
    if not pending:
        exempt = sorted(_EXEMPT[ctx.role])
        waived = ""
        if exempt:
            listed = ", ".join(_roman(n) for n in exempt[:-1])
            listed = f"{listed} e {_roman(exempt[-1])}" if listed else _roman(exempt[-1])
            waived = f", dispensados os incisos {listed} do art. 7º"
        return (f"{c.name} atende, em {when}, aos requisitos para a inscrição como {role} do "
                f"transporte escolar ({basis}){waived}.")
    reasons = "; ".join(lower_first(item.message.rstrip(".")) for item in pending)
    return (f"{c.name} não atende, em {when}, aos requisitos para a inscrição como {role} do "
            f"transporte escolar ({basis}): {reasons}.")
