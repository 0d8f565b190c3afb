"""A second content pack proves that the engine knows nothing of Americana.

``tests/pacote_teste/vila_ficticia`` is a fictitious municipality (Vila Fictícia, UF
XX) with a short fictitious táxi law: a requerimento, a licence whose validity is the
earlier of two limits, an auto de infração doubled on a repeat offence, an appeal
deadline in business days. The whole pipeline runs on a copy of it in a fresh process
(``pacote_teste/pipeline.py``), with no Americana module imported and no file of the
repository's own pack folders opened; the CLI runs on it by ``--pacote``.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from lavra.checking.computations import ComputeInput, PriorRecord
from lavra.checking.report import Status

REPO = Path(__file__).resolve().parent.parent
PACK = REPO / "tests" / "pacote_teste" / "vila_ficticia"
PIPELINE = REPO / "tests" / "pacote_teste" / "pipeline.py"
ORGAN = "Secretaria Municipal de Mobilidade"
LAW = "Lei Municipal nº 1.234, de 2 de janeiro de 2025 (FICTÍCIA)"
REQ, LIC, AUTO = "requerimento-licenca-taxi", "licenca-taxi", "auto-infracao-taxi"
#: Variables of the test's own environment that would choose another pack or data.
FOREIGN = ("LAVRA_PACK", "LAVRA_CONFIG", "LAVRA_DATA", "LAVRA_DATABASE_URL")


def copy_pack(where: Path, *, code: bool = True) -> Path:
    """A copy of the test pack in ``where`` (without its Python code when ``code`` is
    false: a pack of data only)."""
    target = where / "vila_ficticia"
    shutil.copytree(PACK, target, ignore=shutil.ignore_patterns("__pycache__"))
    if not code:
        for module in target.glob("*.py"):
            module.unlink()
    return target


def run(
    args: Sequence[str], cwd: Path, *, pack: str | None = None, path: Sequence[Path] = ()
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in ``cwd``, with ``LAVRA_PACK=pack`` and ``path`` first on sys.path."""
    env = {k: v for k, v in os.environ.items() if k not in FOREIGN}
    if pack is not None:
        env["LAVRA_PACK"] = pack
    if path:
        env["PYTHONPATH"] = os.pathsep.join(
            [*map(str, path), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def lavra(args: Sequence[str], cwd: Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return run(["-c", "from lavra.cli.main import main; main()", *args], cwd, **kwargs)


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


# ------------------------------------------------------------------ the whole pipeline


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    pack = copy_pack(tmp_path_factory.mktemp("pacote"))
    cwd = tmp_path_factory.mktemp("trabalho")
    done = run([str(PIPELINE), str(REPO)], cwd, pack=str(pack))
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    assert result["root"] == str(pack.resolve())
    return result


@pytest.mark.dates
def test_no_americana_module_is_imported_and_no_repository_pack_file_is_read(
    pipeline: dict[str, Any],
) -> None:
    assert pipeline["pack"] == "vila-ficticia"
    assert pipeline["modules"] == ["vila_ficticia", "vila_ficticia.regras"]
    assert pipeline["opened_repo_pack_files"] == []


@pytest.mark.dates
def test_check_reports_in_portuguese_with_citations_of_the_fictitious_law(
    pipeline: dict[str, Any],
) -> None:
    for form in (REQ, LIC, AUTO):
        assert pipeline["check"][form]["complete"], pipeline["check"][form]
    items = {i["requirement"]: i for i in pipeline["check"][REQ]["items"]}
    assert items["documentos.cnh"]["message"] == (
        "Apresentado: Carteira Nacional de Habilitação válida."
    )
    assert items["documentos.cnh"]["basis"] == ["taxi#art2_inc1"]
    assert items["documentos.antecedentes"]["basis"] == ["taxi#art2_inc3"]
    empty = pipeline["check_empty"]
    assert not empty["complete"]
    missing = {i["requirement"]: i for i in empty["items"] if i["status"] == "missing"}
    assert missing["cnh"]["message"] == "Não informado: CNH do titular."
    assert missing["cnh"]["basis"] == ["taxi#art3"]


@pytest.mark.dates
def test_draft_is_a_minuta_of_the_fictitious_organ(pipeline: dict[str, Any]) -> None:
    text = pipeline["draft"]["text"]
    assert "MINUTA" in text
    assert f"A {ORGAN}, nos termos do art. 2º da {LAW}" in text
    assert "Prefeitura Municipal de Vila Fictícia" in text
    assert "Vila Fictícia, 2 de março de 2026." in text
    assert pipeline["draft"]["docx"] == "PK"
    assert "Americana" not in text and "SETRANSV" not in text


@pytest.mark.dates
def test_prefilled_requerimento_lists_the_attachments_and_reads_back(
    pipeline: dict[str, Any],
) -> None:
    text = pipeline["prefill_text"]
    assert "Requerimento de Licença de Táxi" in text
    assert "Documentos a anexar" in text and "Certidão de antecedentes criminais" in text
    assert "documentos/antecedentes/apresentado" in pipeline["prefill_fields"]
    read = pipeline["read"]
    assert read["form"] == REQ
    assert read["data"]["veiculo"] == {"placa": "ABC1D23", "marca_modelo": "Sedã Digitado 2.0"}
    assert read["data"]["documentos"]["cnh"]["validade"] == "2029-05-10"
    assert read["report"]["complete"]


@pytest.mark.dates
def test_licence_is_issued_numbered_signed_and_valid_until_the_earlier_limit(
    pipeline: dict[str, Any],
) -> None:
    licence = pipeline["issued"][0]
    assert (licence["series"], licence["form"]) == ("LIC-TAXI", LIC)
    assert licence["number"].startswith("0001/")
    # Two years from 02/03/2026 would be 02/03/2028: the holder's CNH ends earlier.
    assert licence["computed"]["valido_ate"] == "2027-05-10"
    assert "válida até 10/05/2027" in licence["text"]
    assert f"LIC-TAXI nº {licence['number']}" in licence["text"] and "MINUTA" not in licence["text"]
    assert "Documento assinado eletronicamente" in licence["text"]
    verified = pipeline["verify"]
    assert verified["valid"], verified["problems"]
    assert (verified["number"], verified["form"]) == (licence["number"], LIC)
    # the role's certificate names its cargo, never as a DN (issue 25)
    assert verified["signer"] == ORGAN.replace("Secretaria", "Secretário")


@pytest.mark.dates
def test_repeat_offence_doubles_the_fine_from_the_registry_history(
    pipeline: dict[str, Any],
) -> None:
    first, second = pipeline["issued"][1:]
    assert (first["series"], second["series"]) == ("AIT", "AIT")
    assert first["computed"]["valor"] == 500 and first["computed"]["reincidencia"] is None
    assert "R$ 500,00 (quinhentos reais)" in first["text"]
    assert second["computed"]["valor"] == 1000
    assert second["computed"]["reincidencia"] == (
        f"Reincidência: auto nº {first['number']}, de 02/03/2026, nos 12 meses anteriores; "
        "multa em dobro (art. 4º, parágrafo único)."
    )
    assert "R$ 1.000,00 (mil reais)" in second["text"]


@pytest.mark.dates
def test_appeal_deadline_counts_business_days_of_the_municipal_calendar(
    pipeline: dict[str, Any],
) -> None:
    # 10 business days from Monday 02/03/2026: 16/03 without the municipal holiday of
    # 10/03 (Aniversário de Vila Fictícia), 17/03 with it.
    first = pipeline["issued"][1]
    assert first["computed"]["recurso_ultimo_dia"] == "2026-03-17"
    assert (
        "Do presente auto cabe recurso ao Secretário Municipal de Mobilidade até 17/03/2026 "
        "(art. 5º da Lei nº 1.234/2025)." in first["text"]
    )


@pytest.mark.dates
def test_coverage_of_the_fictitious_law(pipeline: dict[str, Any]) -> None:
    assert pipeline["coverage"] == {
        "totais": {"implementado": 8, "marcado": 2, "coberto_pelos_filhos": 0, "pendente": 0,
                   "texto_ausente": 0},
        "ok": True,
        "laws": ["taxi"],
    }


@pytest.mark.dates
def test_web_pages_show_the_fictitious_organ(pipeline: dict[str, Any]) -> None:
    for name in ("home", "form", "verify"):
        page = pipeline["web"][name]
        assert page["status"] == 200, page["text"][:500]
        assert ORGAN in page["text"] and "Vila Fictícia – XX" in page["text"]
        assert "Americana" not in page["text"] and "SETRANSV" not in page["text"]
    assert "Requerimento de Licença de Táxi" in pipeline["web"]["form"]["text"]
    verify = pipeline["web"]["verify"]["text"]
    assert "Documento autêntico" in verify and "Licença de Táxi" in verify


# ------------------------------------------------------------------ the CLI on the pack


def test_cli_checks_drafts_and_reports_coverage_with_pacote(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    example = pack / "forms" / LIC / "exemplo.json"
    checked = lavra(["--pacote", "vila_ficticia", "check", LIC, str(example)], tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.splitlines()[0] == "Licença de Táxi em 02/03/2026: COMPLETO"
    assert (
        "Válida até 10/05/2027, vencimento da CNH do titular, antes dos 2 anos da expedição "
        "(art. 3º). (art. 3º da Lei nº 1.234/2025)" in checked.stdout
    )
    drafted = lavra(
        ["--pacote", str(pack), "draft", AUTO, str(pack / "forms" / AUTO / "exemplo.json"),
         "-o", "auto.pdf"],
        tmp_path,
    )
    assert drafted.returncode == 0, drafted.stderr
    text = pdf_text((tmp_path / "auto.pdf").read_bytes())
    assert "MINUTA" in text and ORGAN in text and "R$ 500,00" in text
    coverage = lavra(["--pacote", str(pack), "law", "coverage"], tmp_path)
    assert coverage.returncode == 0, coverage.stderr
    assert coverage.stdout.splitlines()[0] == (
        "Cobertura de taxi: 8 implementados, 2 marcados, 0 cobertos pelos subordinados, "
        "0 pendentes, 0 em vigor sem texto."
    )
    appeal = lavra(["--pacote", str(pack), "deadline", "taxi#art5", "--from", "2026-03-02",
                    "--filed", "2026-03-17"], tmp_path)
    assert appeal.returncode == 0, appeal.stderr
    assert appeal.stdout.splitlines()[1] == "Último dia: 17/03/2026."
    assert appeal.stdout.rstrip().endswith("recurso tempestivo.")
    checked_pack = lavra(["pack", "check", str(pack)], tmp_path)
    assert checked_pack.returncode == 0, checked_pack.stderr
    assert "sem erros" in checked_pack.stdout


# ------------------------------------------------------------------ discovery


def declared_entry_points() -> dict[str, str]:
    """The entry points the test pack's own pyproject.toml declares."""
    with (PACK.parent / "pyproject.toml").open("rb") as handle:
        entries: dict[str, str] = tomllib.load(handle)["project"]["entry-points"]["lavra.pacotes"]
    return entries


def install_fake(site: Path, dist: str, entries: Mapping[str, str]) -> None:
    """A distribution ``dist`` in ``site`` declaring ``entries`` in ``lavra.pacotes``."""
    info = site / f"{dist}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8"
    )
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[lavra.pacotes]\n{lines}", encoding="utf-8")


DISCOVER = """
import json, sys
from lavra.pack import select_pack
pack = select_pack("vila-ficticia")
first = sorted(name for name in sys.modules if name.startswith("lavra_americana"))
from lavra.pack import installed_packs
print(json.dumps({"root": str(pack.root), "name": pack.name, "before_listing": first,
                  "installed": sorted(installed_packs())}))
"""


def test_an_installed_pack_is_found_by_its_entry_point(tmp_path: Path) -> None:
    site = tmp_path / "site"
    copy_pack(site)
    install_fake(site, "vila_ficticia", declared_entry_points())
    found = run(["-c", DISCOVER], tmp_path, path=[site])
    assert found.returncode == 0, found.stderr
    result = json.loads(found.stdout)
    assert result["root"] == str((site / "vila_ficticia").resolve())
    assert result["name"] == "vila-ficticia"
    assert result["before_listing"] == []  # choosing one pack loads no other pack's code
    assert "vila-ficticia" in result["installed"]
    example = site / "vila_ficticia" / "forms" / AUTO / "exemplo.json"
    checked = lavra(["--pacote", "vila-ficticia", "check", AUTO, str(example)], tmp_path,
                    path=[site])
    assert checked.returncode == 0, checked.stderr
    assert "Multa de R$ 500,00 (art. 4º). (art. 4º da Lei nº 1.234/2025)" in checked.stdout


def test_with_two_installed_packs_the_cli_asks_to_choose(tmp_path: Path) -> None:
    site = tmp_path / "site"
    copy_pack(site)
    install_fake(site, "vila_ficticia", {"vila-ficticia": "vila_ficticia:pacote"})
    install_fake(site, "outra_vila", {"outra-vila": "vila_ficticia:pacote"})
    example = str(site / "vila_ficticia" / "forms" / REQ / "exemplo.json")
    unchosen = lavra(["check", REQ, example], tmp_path, path=[site])
    assert unchosen.returncode == 2, unchosen.stdout
    assert "pacotes de conteúdo instalados" in unchosen.stderr
    assert "outra-vila, " in unchosen.stderr and "vila-ficticia" in unchosen.stderr
    assert "escolha um pela opção --pacote, pela variável LAVRA_PACK" in unchosen.stderr
    assert "Traceback" not in unchosen.stderr
    chosen = lavra(["--pacote", "outra-vila", "check", REQ, example], tmp_path, path=[site])
    assert chosen.returncode == 0, chosen.stderr
    assert chosen.stdout.startswith("Requerimento de Licença de Táxi em 02/03/2026: COMPLETO")
    unknown = lavra(["--pacote", "vila-inexistente", "check", REQ, example], tmp_path,
                    path=[site])
    assert unknown.returncode == 2
    assert "Pacote de conteúdo «vila-inexistente» não instalado" in unknown.stderr


def test_a_data_only_folder_serves_forms_that_name_no_computation(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path, code=False)
    example = pack / "forms" / REQ / "exemplo.json"
    refused = lavra(["check", REQ, str(example)], tmp_path, pack=str(pack))
    assert refused.returncode == 2
    assert (
        "cálculo desconhecido «" in refused.stderr
        and "um pacote só de dados, sem código Python, não fornece cálculos" in refused.stderr
    )
    for form in (LIC, AUTO):  # the forms that name computations
        shutil.rmtree(pack / "forms" / form)
    checked = lavra(["check", REQ, str(example)], tmp_path, pack=str(pack))
    assert checked.returncode == 0, checked.stderr
    assert ("Apresentado: Certidão de antecedentes criminais. (art. 2º, III, da Lei nº "
            "1.234/2025)") in checked.stdout
    drafted = lavra(["draft", REQ, str(example), "-o", "req.pdf"], tmp_path, pack=str(pack))
    assert drafted.returncode == 0, drafted.stderr
    assert ORGAN in pdf_text((tmp_path / "req.pdf").read_bytes())


# ------------------------------------------------------------------ the pack's rules


class _History:
    def __init__(self, *records: PriorRecord) -> None:
        self.records = records
        self.asked: list[tuple[str, str, date, date]] = []

    def prior_autos(
        self, placa: str, form: str, since: date, before: date
    ) -> Sequence[PriorRecord]:
        self.asked.append((placa, form, since, before))
        return [r for r in self.records if since <= r.reference_date < before]


def _compute(name: str, form: str, data: Mapping[str, Any], on: date,
             history: _History | None = None) -> Any:
    from lavra.pack import pack_at

    pack = pack_at(PACK)
    return pack.computations[name](ComputeInput(
        form_id=form, data=data, on=on, pack_dir=pack.root, history=history, draft=True,
        issued_on=on,
    ))


@pytest.mark.parametrize(
    ("cnh", "until"),
    [("2030-01-01", date(2028, 3, 2)), ("2027-05-10", date(2027, 5, 10))],
)
def test_licence_validity_is_the_earlier_of_two_years_and_the_cnh(cnh: str, until: date) -> None:
    result = _compute("validade_licenca_taxi", LIC, {"cnh": {"validade": cnh}}, date(2026, 3, 2))
    assert result.values["valido_ate"] == until
    assert [(i.status, i.basis) for i in result.items] == [(Status.MET, ("taxi#art3",))]


def test_licence_validity_is_pending_without_the_cnh_and_refused_when_it_expired() -> None:
    on = date(2026, 3, 2)
    missing = _compute("validade_licenca_taxi", LIC, {}, on)
    assert missing.values["valido_ate"] is None
    assert missing.items[0].status is Status.MISSING and missing.items[0].field == "/cnh/validade"
    expired = _compute("validade_licenca_taxi", LIC, {"cnh": {"validade": "2026-03-01"}}, on)
    assert expired.items[0].status is Status.INVALID
    assert expired.items[0].message == (
        "A CNH do titular venceu em 01/03/2026: a licença não pode ser expedida."
    )


def test_repeat_window_is_the_twelve_months_before_the_infraction() -> None:
    data = {"veiculo": {"placa": "ABC1D23"}}
    old = PriorRecord("0001/2025", date(2025, 3, 1), {})
    recent = PriorRecord("0002/2025", date(2025, 3, 2), {})
    outside = _History(old)
    assert _compute("auto_infracao_taxi", AUTO, data, date(2026, 3, 2), outside).values[
        "valor"] == 500
    assert outside.asked == [("ABC1D23", AUTO, date(2025, 3, 2), date(2026, 3, 2))]
    inside = _compute("auto_infracao_taxi", AUTO, data, date(2026, 3, 2), _History(old, recent))
    assert inside.values["valor"] == 1000
    assert "auto nº 0002/2025, de 02/03/2025" in inside.values["reincidencia"]
    assert _compute("auto_infracao_taxi", AUTO, data, date(2026, 3, 2)).values["valor"] == 500


def test_configuration_key_pacote_chooses_the_pack_for_every_command(tmp_path: Path) -> None:
    site = tmp_path / "site"
    copy_pack(site)
    install_fake(site, "vila_ficticia", declared_entry_points())
    example = str(site / "vila_ficticia" / "forms" / LIC / "exemplo.json")
    for choice in ("vila-ficticia", str(site / "vila_ficticia")):  # a name, a folder
        (tmp_path / "lavra.toml").write_text(f'pacote = "{choice}"\n', encoding="utf-8")
        checked = lavra(["check", LIC, example], tmp_path, path=[site])
        assert checked.returncode == 0, checked.stderr
        coverage = lavra(["law", "coverage"], tmp_path, path=[site])
        assert coverage.stdout.startswith("Cobertura de taxi: 8 implementados"), coverage.stderr
        listed = lavra(["deadline", "--list"], tmp_path, path=[site])
        assert listed.stdout.startswith("art. 5º"), listed.stderr  # the short citation
        assert "lavra deadline taxi#art5 --inicio DATA" in listed.stdout, listed.stdout
        packed = lavra(["pack", "check"], tmp_path, path=[site])
        assert "sem erros" in packed.stdout, packed.stderr
