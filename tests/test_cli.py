"""The command line: exit codes, pt-BR messages, JSON output, files written whole."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner
from outputcheck import docx_problems_each, pdf_problems
from pypdf import PdfReader

from lavra.cli.main import main

ALV = "alvara-fretamento"
REQ = "requerimento-alvara-fretamento"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def example_path(pack_dir: Path, form: str) -> Path:
    return pack_dir / "forms" / form / "exemplo.json"


def test_check_complete_exits_zero_with_json(runner: CliRunner, pack_dir: Path) -> None:
    result = runner.invoke(
        main, ["check", ALV, str(example_path(pack_dir, ALV)), "--on", "2026-11-29", "--json"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["form"] == ALV and payload["complete"] is True
    assert set(payload["items"][0]) == {"requirement", "status", "field", "message", "basis"}


def test_check_incomplete_exits_one(runner: CliRunner, pack_dir: Path, tmp_path: Path) -> None:
    data = json.loads(example_path(pack_dir, ALV).read_text(encoding="utf-8"))
    data["veiculo"]["tacografo"] = False
    path = tmp_path / "dados.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(main, ["check", ALV, str(path), "--on", "2026-11-29"])
    assert result.exit_code == 1
    assert "INCOMPLETO" in result.output and "tacógrafo" in result.output


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("{não é json", [], "não contém JSON válido"),
        ("[1, 2]", [], "objeto JSON"),
        ("{}", ["--on", "29-11-2026"], "AAAA-MM-DD"),
        ("{}", ["--on", "2026-02-30"], "não existe"),
        ('{"a": "x\\u0000y"}', [], "caractere de controle"),
    ],
)
def test_check_unusable_input_exits_two_without_traceback(
    runner: CliRunner, tmp_path: Path, content: str, args: list[str], message: str
) -> None:
    path = tmp_path / "dados.json"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(main, ["check", ALV, str(path), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_unknown_form_and_missing_file_exit_two(
    runner: CliRunner, pack_dir: Path, tmp_path: Path
) -> None:
    result = runner.invoke(main, ["check", "nao-existe", str(example_path(pack_dir, ALV))])
    assert result.exit_code == 2 and "Formulário desconhecido" in result.output
    result = runner.invoke(main, ["check", ALV, str(tmp_path / "ausente.json")])
    assert result.exit_code == 2 and "Não foi possível ler" in result.output


def test_draft_writes_pdf_and_docx(runner: CliRunner, pack_dir: Path, tmp_path: Path) -> None:
    out, docx = tmp_path / "minuta.pdf", tmp_path / "minuta.docx"
    result = runner.invoke(
        main,
        [
            "draft",
            ALV,
            str(example_path(pack_dir, ALV)),
            "-o",
            str(out),
            "--docx",
            str(docx),
            "--on",
            "2026-11-29",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "MINUTA" in PdfReader(out).pages[0].extract_text()
    assert docx.read_bytes()[:2] == b"PK"
    assert not list(tmp_path.glob("*.parcial"))


def test_draft_failure_leaves_no_file(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "dados.json"
    path.write_text("[]", encoding="utf-8")
    out = tmp_path / "minuta.pdf"
    result = runner.invoke(main, ["draft", ALV, str(path), "-o", str(out)])
    assert result.exit_code == 2
    assert not out.exists()


def test_prefill_then_read_round_trip(runner: CliRunner, pack_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "req.pdf"
    result = runner.invoke(main, ["prefill", REQ, str(example_path(pack_dir, REQ)), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert PdfReader(io.BytesIO(out.read_bytes())).get_fields()
    result = runner.invoke(main, ["read", str(out), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    expected = json.loads(example_path(pack_dir, REQ).read_text(encoding="utf-8"))
    assert payload["form"] == REQ
    assert payload["data"] == expected
    assert payload["report"]["complete"] is True


def test_read_rejects_garbage(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "lixo.pdf"
    path.write_bytes(b"isto nao e um pdf")
    result = runner.invoke(main, ["read", str(path)])
    assert result.exit_code == 2
    assert "PDF" in result.output and "Traceback" not in result.output


#: Set by .ci/run for its main test run only: the folder where its wheel step has just run
#: ``lavra demo`` from the installed wheel, on the same (real) clock, its output (stdout and
#: stderr, as the terminal shows them) in ``demo.txt`` beside it. The test then checks that
#: demo instead of running another (≈ 30 s); under a moved clock it is unset and the test
#: runs the demo itself.
DEMO_ENV = "LAVRA_TEST_DEMO_DIR"


def test_demo_issues_and_verifies_every_form(runner: CliRunner, tmp_path: Path) -> None:
    given = os.environ.get(DEMO_ENV)
    if given:
        demo = Path(given)
        output = (demo.parent / "demo.txt").read_text(encoding="utf-8")
        # What tests/outputcheck.py's autouse fixture checks of each document issued in
        # this process: every signed PDF of that demo passes pdfsig and qpdf, every DOCX
        # opens in python-docx (and LibreOffice, where installed).
        signed = [pdf for pdf in sorted(demo.glob("*.pdf")) if b"/ByteRange" in pdf.read_bytes()]
        assert signed
        problems = {pdf.name: pdf_problems(pdf.read_bytes()) for pdf in signed}
        docxs = sorted(demo.glob("*.docx"))
        problems |= dict(zip((d.name for d in docxs),
                             docx_problems_each([d.read_bytes() for d in docxs]), strict=True))
        assert not any(problems.values()), problems
    else:
        demo = tmp_path / "demo"
        result = runner.invoke(main, ["demo", "-o", str(demo)])
        assert result.exit_code == 0, result.output
        output = result.output
    for form in (ALV, REQ, "auto-infracao-fretamento"):
        assert form in output
    assert output.count("emitido e verificado") >= 2
    assert "verificação falhou" not in output
    issued = sorted(demo.glob(f"{ALV}-0001-*.pdf"))
    assert issued
    fields = PdfReader(issued[0]).get_fields() or {}
    assert [f.get("/FT") for f in fields.values()] == ["/Sig"]
    # The alvará cites the processo the requerimento filed online opened, by its number
    # ("processo nº 0006/2026": the protocol's series would name a protocol).
    text = subprocess.run(["pdftotext", str(issued[0]), "-"], capture_output=True,
                          check=True, text=True).stdout
    assert re.search(r"processo\s+nº\s+\d{4}/\d{4}", text), text
    assert not re.search(r"processo\s+PROT", text), text
    # A requerimento a chain files shows as its receipt; the others are prefilled.
    assert (demo / "requerimento-licenca-especial-intermunicipal-preenchivel.pdf").exists()
    for filed in (REQ, "requerimento-renovacao-alvara-fretamento"):
        assert not (demo / f"{filed}-preenchivel.pdf").exists()
    assert (demo / "dados" / "registro.sqlite3").exists()
    assert (demo / "dados" / "pki" / "raiz.pem").exists()
    assert_demo_tells_real_histories(demo, output)


def _utc(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def assert_demo_tells_real_histories(demo: Path, output: str) -> None:
    """Every number a demo act cites is of an act in the demo's registry, issued before
    it (or imported: an act from before lavra, dated before it); each chain was issued
    in order, weeks apart; the cassação shows in verify."""
    from lavra.checking.content import Content
    from lavra.config import load_config
    from lavra.demochains import DemoStep
    from lavra.filing import PROTOCOL_SERIES
    from lavra_americana.comum.demonstracao import DEMO_CHAINS

    content = Content(load_config().pack_dir)
    series = sorted({f.series for f in content.forms.values() if f.series}
                    | {PROTOCOL_SERIES}, key=len, reverse=True)
    cited = re.compile(r"(?<![A-Z-])(" + "|".join(map(re.escape, series))
                       + r")\s+(?:nº\s*)?(\d{4})/(\d{4})")
    with sqlite3.connect(demo / "dados" / "registro.sqlite3") as db:
        rows = db.execute(
            "select id, series, number, year, data, issued_at, idempotency_key from documents"
        ).fetchall()
        imported = {(s, n, y): datetime.fromisoformat(f"{on}T00:00+00:00")
                    for s, n, y, on in db.execute(
                        "select series, number, year, reference_date from documents "
                        "where origin like 'demonstração %'")}
        facts = db.execute(
            "select document_id, kind, occurred_at, at from events where kind = 'ciencia'"
        ).fetchall()
        # Each act that decides a filed requerimento is in the processo its protocol opened.
        in_processo = set(db.execute(
            "select f.protocol, d.idempotency_key from filings f "
            "join processo_acts a on a.processo_id = f.processo_id "
            "join documents d on d.id = a.document_id"))
    issued = {(s, n, y): _utc(at) for _, s, n, y, _, at, _ in rows}
    assert_numbers_follow_dates(issued, imported)
    # The demo's own alvarás read as a city's acts of the year: in each exercise, the
    # series holds 0001 to n, the acts imported from before lavra first (imported before
    # lavra signs anything) and lavra's own continuing from them (never
    # "ALV-ESC nº 1466/2026" after an import numbered from its date).
    for name in ("ALV-ESC", "ALV-FRET"):
        for year in {y for _, s, _, y, *_ in rows if s == name}:
            numbers = sorted(n for _, s, n, y, *_ in rows if (s, y) == (name, year))
            assert numbers == list(range(1, len(numbers) + 1)), (name, year, numbers)
    # No act from before lavra comes after one of lavra's in its series and year: neither
    # its number nor its date.
    for (name, number, year), on in imported.items():
        for _, s, n, y, _, at, _ in rows:
            if (s, y) == (name, year) and (s, n, y) not in imported:
                assert number < n and on.date() < _utc(at).date(), (name, number, year, n)
    # the alvará of five years ago the renewal cites, the other company's of two years ago
    # whose vehicle the fretamento company is authorised to use, and the escolar alvarás
    # in force (or not renewed) the histories of transporte_escolar/demonstracao.py import
    assert len(imported) == sum(1 for chain in DEMO_CHAINS for step in chain.steps
                                if step.imported is not None)
    issued.update(imported)
    now = datetime.now(UTC)
    companions: set[tuple[tuple[str, int, int], tuple[str, int, int]]] = set()
    for _, s, n, y, data, at, _ in rows:
        assert _utc(at) <= now
        # The selo a new alvará prints is issued together with it, right after it (escolar
        # art. 3º, § 2º): the registry's next SELO-ESC, which the demo then issues.
        companion = json.loads(data).get("selo_identificacao")
        for found in cited.finditer(data):
            key = (found[1], int(found[2]), int(found[3]))
            assert key in issued, f"{s} {n}/{y} cita {found[0]}, que a demonstração não emitiu"
            if companion is not None and found[0] == companion:
                assert timedelta(0) < issued[key] - _utc(at) <= timedelta(minutes=5), companion
                companions.add(((s, n, y), key))
                continue
            assert issued[key] <= _utc(at), f"{s} {n}/{y} cita {found[0]}"
    # On every clock, a chain stopped by the law included (no UFESP fixed for the year its
    # fee or fine falls in): a form drafted alone prints only the numbers its example types,
    # listed in NOT_YET_IN_A_CHAIN, never one the registry holds by the chance of the year.
    assert_printed_citations_are_issued(demo, content, issued, series, companions)
    if "demo:revogacao-escolar:revogacao" in {key for *_, key in rows}:
        assert_federal_appeal_refused_against_a_penalty(demo, content, output)
    by_key = {key: _utc(at) for *_, at, key in rows if key}

    def key_of(chain: str, step: DemoStep) -> str:
        if step.filing is not None:  # the receipt of a filed requerimento
            return f"protocolo:demonstracao-{chain}-{step.name}"
        return f"demo:{chain}:{step.name}"

    for chain in DEMO_CHAINS:
        signed = [step for step in chain.steps if step.imported is None]
        issued_steps = [step for step in signed if key_of(chain.name, step) in by_key]
        if len(issued_steps) < len(signed):
            # A chain may run into a year whose UFESP the pack does not hold yet (the
            # 2028-02-29 clock of CI starts the school chain in 2027; escolar art. 16: no
            # fee, no guia, no alvará): the demo says so and stops the chain there. That
            # is the only reason a chain may stop.
            assert issued_steps == signed[:len(issued_steps)], chain.name
            assert "Não há valor da UFESP para o exercício" in output, chain.name
            continue
        moments = [by_key[key_of(chain.name, step)] for step in signed]
        printed = {key: f"{s} nº {n:04d}/{y}" for _, s, n, y, _, _, key in rows if key}
        for step in signed:
            for item in step.fills:
                for filed in (f for f in signed if f.filing is not None):
                    if (item.pointer in ("/processo", "/processo/numero",
                                         "/protocolo_requerimento")
                            and f"{{{filed.name}." in str(item.template)):
                        protocol = printed[key_of(chain.name, filed)]
                        assert (protocol, key_of(chain.name, step)) in in_processo, step.name
        assert moments == sorted(moments) and len(set(moments)) == len(moments)
        assert moments[-1] - moments[0] >= timedelta(days=signed[-1].day - signed[0].day)
    ids = {key: ident for ident, *_, key in rows if key}
    (ciencia,) = [f for f in facts if f[0] == ids["demo:fretamento:defesa"]]
    assert by_key["demo:fretamento:defesa"] < _utc(ciencia[2])
    assert _utc(ciencia[2]) < by_key["demo:fretamento:cassacao"]
    assert re.search(r"situação da licença: cassado em \d\d/\d\d/\d{4} pelo CAS-FRET nº "
                     r"0001/\d{4}", output)
    if "demo:escolar:alvara" in by_key:
        # The inscrição (escolar art. 7º) is the alvará's request, and comes before every
        # date of the selection the alvará rests on (result, art. 8º; cadastro, § 2º).
        (alvara,) = [json.loads(data) for *_, data, _, key in rows
                     if key == "demo:escolar:alvara"]
        filed = by_key["protocolo:demonstracao-escolar-pedido"].astimezone(
            ZoneInfo("America/Sao_Paulo")).date().isoformat()
        assert alvara["processo"]["data_requerimento"] == filed
        for name in ("data_publicacao_resultado", "data_ciencia_classificacao",
                     "data_inscricao_cadastro"):
            assert alvara["selecao"][name] > filed, (name, alvara["selecao"], filed)
    receipts = sorted(demo.glob("comprovante-protocolo-*.pdf"))
    assert len(receipts) == sum(1 for *_, key in rows if key and key.startswith("protocolo:"))
    if "demo:escolar:substituicao" in by_key:
        # The change of vehicle (escolar art. 17, § 1º) shows in the alvará's situation.
        assert "veículo substituído pelo de placa NOV4D56" in output


def assert_numbers_follow_dates(issued: dict[tuple[str, int, int], datetime],
                                imported: dict[tuple[str, int, int], datetime]) -> None:
    """In every series of the demo's registry (signed acts, filed protocols, and acts
    imported from before lavra, by the date they bear), a later number never bears an
    earlier date (the same date allowed): a procurador reading a gapless series reads
    it in date order, whichever history each act belongs to."""
    local = ZoneInfo("America/Sao_Paulo")
    dated = {key: moment.astimezone(local).date() for key, moment in issued.items()}
    dated |= {key: moment.date() for key, moment in imported.items()}
    series: dict[tuple[str, int], list[tuple[int, date]]] = {}
    for (name, number, year), on in dated.items():
        series.setdefault((name, year), []).append((number, on))
    assert len(series) > 10
    for (name, year), acts in sorted(series.items()):
        acts.sort()
        for (number, on), (later, later_on) in itertools.pairwise(acts):
            assert on <= later_on, (
                f"{name} nº {later:04d}/{year}, de {later_on}, "
                f"vem depois do nº {number:04d}/{year}, de {on}")


def assert_federal_appeal_refused_against_a_penalty(demo: Path, content: Any,
                                                    output: str) -> None:
    """The demo's revogação after the third fine (escolar art. 23, III) is a penalty: the
    appeal of Lei nº 9.784/1999 against it (arts. 56 and 56, § 1º: the reading of
    ``comum/recurso_9784.py``) is refused, naming the penalty appeal (art. 25) and the
    reconsideração (art. 27); the appeal the demo filed and decided (art. 25) kept the
    revogação, and ``verify`` says so."""
    from lavra.documents import Engine
    from lavra.issuing import RegistryHistory
    from lavra.registry.database import database_url
    from lavra.registry.store import open_registry

    assert re.search(r"situação da licença: revogado em \d\d/\d\d/\d{4} pelo REV-ESC nº "
                     r"\d{4}/\d{4}", output), output
    registry = open_registry(database_url(demo / "dados"))
    try:
        revogacao = registry.by_key("demo:revogacao-escolar:revogacao")
        assert revogacao is not None
        (ciencia,) = [f for f in registry.facts(revogacao.id)
                      if f.kind == "ciencia" and not f.revoked]
        known: date = ciencia.on
        # The notice reads the autos in the registry and says which fines it counts, by
        # number and date, with the reading of art. 23, III (revogacao_autos.third_fine).
        notice = registry.by_key("demo:revogacao-escolar:defesa")
        assert notice is not None
        text = " ".join(subprocess.run(
            ["pdftotext", str(demo / f"notificacao-defesa-revogacao-{notice.number:04d}-"
                                     f"{notice.year}.pdf"), "-"],
            capture_output=True, check=True, text=True).stdout.split())
        assert "São 3 as multas contadas" in text and "por analogia" in text, text
        for name in ("auto1", "auto2", "auto3"):
            auto = registry.by_key(f"demo:revogacao-escolar:{name}")
            assert auto is not None
            assert f"Auto de Infração {auto.printed} (infração de " in text, text
        engine = Engine(content)
        for form, hypothesis in (("decisao-recurso-prefeito", "lei-9784-1999#art56"),
                                 ("decisao-recurso-secretario", "lei-9784-1999#art56_par1")):
            data = json.loads((content.root / "forms" / form / "exemplo.json").read_text(
                encoding="utf-8"))
            data["recurso"].update(hipotese=hypothesis, data_protocolo=(
                known + timedelta(days=3)).isoformat())
            data["recorrente"] = {"nome": revogacao.data["condutor"]["nome"],
                                  "cpf": revogacao.data["condutor"]["cpf"]}
            data["ato_recorrido"] = {"especie": "decisao", "numero": revogacao.printed,
                                     "data": str(revogacao.reference_date),
                                     "data_ciencia": known.isoformat()}
            data["decisao"]["data"] = (known + timedelta(days=5)).isoformat()
            if form == "decisao-recurso-prefeito":  # forwarded by a decision on paper
                data["encaminhamento"] = {"numero": "12/2026", "data": data["decisao"]["data"]}
            report = engine.prepare(form, data, issued_on=known + timedelta(days=5),
                                    history=RegistryHistory(registry)).report
            refused = [i for i in report.items
                       if i.pending and i.field == "/ato_recorrido/numero"
                       and "não o recurso da Lei nº 9.784/1999" in i.message]
            assert refused, (form, [i.message for i in report.items if i.pending])
            assert "art. 25" in refused[0].message and "art. 27" in refused[0].message
    finally:
        registry.close()


NOT_YET_IN_A_CHAIN: dict[str, frozenset[str]] = {}
"""Forms the demo still issues or drafts alone, from their examples, not in a chain: the
numbers of lavra's series their examples type, which the demo's registry does not hold
(each is a chain still to write). No other form may print such a number, and these forms
no other one."""


def assert_printed_citations_are_issued(
    demo: Path, content: Any, issued: dict[tuple[str, int, int], datetime], series: list[str],
    companions: set[tuple[tuple[str, int, int], tuple[str, int, int]]],
) -> None:
    """Every number of one of lavra's series printed in any demo PDF (its text, by
    pdftotext) is of a document in the demo's registry, issued (or imported) no later than
    the act that prints it (or, its ``companions``, issued together right after it: the
    alvará's selo); a draft prints only numbers the registry holds."""
    from lavra.filing import PROTOCOL_SERIES

    # pdftotext joins a series broken at its hyphen at the end of a line ("AIF-" "FRET"
    # becomes "AIFFRET"): each hyphen is optional.
    spelled = {s.replace("-", ""): s for s in series} | {s: s for s in series}
    printed = re.compile(
        r"(?<![A-Z-])(" + "|".join("-?".join(map(re.escape, s.split("-"))) for s in series)
        + r")\s+(?:n\.?º\s*)?(\d{4})/(\d{4})")
    own = {f.id: f.series for f in content.forms.values() if f.series}
    for pdf in sorted(demo.glob("*.pdf")):
        named = re.fullmatch(r"(.+)-(\d{4})-(\d{4})", pdf.stem)
        citing = None
        if named and named[1] == "comprovante-protocolo":
            citing = (PROTOCOL_SERIES, int(named[2]), int(named[3]))
        elif named and named[1] in own:
            citing = (own[named[1]], int(named[2]), int(named[3]))
        form = named[1] if citing and named else re.sub(r"-(minuta|preenchivel)$", "", pdf.stem)
        if citing is not None:
            assert citing in issued, f"{pdf.name}: o registro não tem {citing}"
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True,
                              text=True).stdout
        allowed = NOT_YET_IN_A_CHAIN.get(form, frozenset())
        flowing = " ".join(text.split())
        assert_first_mention_in_full(pdf.name, flowing)
        for found in printed.finditer(flowing):
            name = spelled[found[1].replace("-", "")]
            key = (name, int(found[2]), int(found[3]))
            if f"{name} {found[2]}/{found[3]}" in allowed:
                continue
            assert key in issued, f"{pdf.name} cita {found[0]}, que a demonstração não emitiu"
            if citing is not None and (citing, key) not in companions:
                assert issued[key] <= issued[citing], f"{pdf.name} cita {found[0]}, posterior"


FIRST_9784 = re.compile(r"Lei (?:federal )?nº 9\.784(/1999|, de 29 de janeiro de 1999)")


def assert_first_mention_in_full(name: str, text: str) -> None:
    """Lei nº 9.784/1999 is first cited by its full title, whether the sentence comes
    from a template, the pack's Python or legal_text/ (lavra.render.mentions), never as
    "Lei federal"; the body (before the "Fundamento legal" list) spells it in full once."""
    first = FIRST_9784.search(text)
    if first is None:
        return
    assert first[1].startswith(","), f"{name}: primeira menção abreviada: {first[0]}"
    assert "federal nº 9.784" not in text, name
    body = text.split("Fundamento legal")[0]
    assert body.count("Lei nº 9.784, de 29 de janeiro de 1999") <= 1, f"{name}: {body}"


def test_help_and_usage_errors_are_in_portuguese(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--help"], prog_name="lavra")
    assert result.exit_code == 0
    assert "[OPÇÕES] COMANDO" in result.output and "Comandos:" in result.output
    assert "Usage" not in result.output and "Show this message" not in result.output
    result = runner.invoke(main, ["check"])
    assert result.exit_code == 2 and "Argumento ausente" in result.output


def test_check_names_fields_by_their_labels_never_by_pointer(
    runner: CliRunner, pack_dir: Path, tmp_path: Path
) -> None:
    """Each line of ``lavra check`` names the field as the form does, where its message
    does not already (issues 25/26: no JSON pointer reaches a person); the item of a
    list by its parents («Relação de veículos (item 2)»)."""
    data = json.loads(example_path(pack_dir, REQ).read_text(encoding="utf-8"))
    del data["requerente"]["razao_social"]
    data["documentos"] = {}
    assert len(data["veiculos"]) == 2
    path = tmp_path / "dados.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(main, ["check", REQ, str(path), "--on", "2026-11-25"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("INCOMPLETO")
    assert not [line for line in lines if re.search(r"(?<![\w.])/\w", line)], result.output
    assert ("Campo obrigatório não informado: Empresa ou entidade requerente › Razão social."
            in result.output)
    assert ("Tipo de veículo. (art. 9º da Lei nº 4.419/2006) — Relação de veículos (item 2)"
            in result.output)
    assert "#" not in result.output, result.output  # no citation id: the short citation
    assert "Documento não apresentado: Cópia do comprovante de inscrição no CNPJ." in (
        result.output)
    # The JSON keeps the pointers: it is for programs.
    as_json = json.loads(runner.invoke(
        main, ["check", REQ, str(path), "--on", "2026-11-25", "--json"]).output)
    assert "/requerente/razao_social" in {i["field"] for i in as_json["items"]}
    assert "fretamento#art9" in {c for i in as_json["items"] for c in i["basis"]}


@pytest.mark.parametrize(
    ("content", "message"),
    [("{\"a\": " + "9" * 5000 + "}", "JSON válido"), ('{"a": 1e999}', "número inválido")],
)
def test_numbers_json_cannot_hold_are_refused(
    runner: CliRunner, tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "dados.json"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(main, ["check", ALV, str(path)])
    assert result.exit_code == 2 and message in result.output


def test_read_of_an_incomplete_requerimento_exits_one(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "vazio.pdf"
    assert runner.invoke(main, ["prefill", REQ, "-o", str(out)]).exit_code == 0
    result = runner.invoke(main, ["read", str(out)])
    assert result.exit_code == 1
    assert "INCOMPLETO" in result.output
    report = result.output[result.output.index("INCOMPLETO"):]
    assert "Não informado: Categoria do serviço." in report
    assert "Razão social" in report and "/documentos/" not in report and "/requerente" not in report


def test_a_template_failure_names_the_field_never_the_exception(tmp_path: Path) -> None:
    """A failure no rule of the sandbox foresaw (a missing key of ``str.format``) reaches
    the person as a pt-BR sentence naming the field by its form's label, never by its key
    nor the exception (issue 25; the
    log of the render worker: tests/test_templating.py). In a process of its own: the
    copy of the test pack is imported as «vila_ficticia», a name this process may already
    give the original (tests/test_second_pack.py)."""
    pack = tmp_path / "vila_ficticia"
    shutil.copytree(Path(__file__).parent / "pacote_teste" / "vila_ficticia", pack,
                    ignore=shutil.ignore_patterns("__pycache__"))
    text = pack / "forms" / "licenca-taxi" / "texto.html"
    text.write_text('{{ "{data_expedicao}".format(x=1) }}' + text.read_text("utf-8"), "utf-8")
    out = tmp_path / "licenca.pdf"
    env = {k: v for k, v in os.environ.items()
           if k not in ("LAVRA_CONFIG", "LAVRA_DATA", "LAVRA_DATABASE_URL")}
    result = subprocess.run(
        [sys.executable, "-c", "from lavra.cli.main import main; main()", "draft",
         "licenca-taxi", str(pack / "forms" / "licenca-taxi" / "exemplo.json"),
         "-o", str(out)],
        cwd=tmp_path, env={**env, "LAVRA_PACK": str(pack)}, capture_output=True, text=True,
        timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert ("não pôde ser preenchido: o campo «Data da expedição», que o texto do documento "
            "usa, não existe nos dados.") in output
    assert "data_expedicao" not in output and "(campo" not in output
    assert "KeyError" not in output and "Traceback" not in output and not out.exists()


def test_an_error_names_its_field_by_the_form_label_or_its_option(pack_dir: Path) -> None:
    """The shell's error line (``Erro: …``): a field of the form's data by its label,
    said after the message when the message does not name it; an option by its name;
    without the form, no pointer either (issue 25)."""
    from lavra.checking.content import loaded_content
    from lavra.cli.reports import error_text
    from lavra.errors import InputError

    content = loaded_content(pack_dir)
    cnpj = InputError("Dígitos verificadores não conferem.", field="/empresa/cnpj")
    assert error_text(cnpj, content, ALV) == (
        "Dígitos verificadores não conferem. (campo «Empresa ou entidade autorizada › CNPJ»)")
    assert error_text(cnpj, None, None) == "Dígitos verificadores não conferem."
    listed = InputError("O campo /veiculos/1/placa está vazio.", field="/veiculos/1/placa")
    assert error_text(listed, None, None) == "O campo «veiculos › item 2 › placa» está vazio."
    registry_key = InputError("Número de documento inválido: «0».", field="/numero")
    assert error_text(registry_key, content, ALV) == "Número de documento inválido: «0»."
    on = InputError("Data de referência inválida.", field="--on")
    assert error_text(on, content, ALV) == "Data de referência inválida. (opção --on)"
