"""Output files are whole or absent, and no temporary file outlives the next write."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lavra.checking.content import Content
from lavra.cli.demo import current_example
from lavra.cli.files import sweep_stale, temporary_name, write_atomically
from lavra.cli.main import main
from lavra.config import Config
from lavra.errors import LavraError
from lavra.inputs.reading import today
from lavra.issuing import ensure_dev_pki

REPO = Path(__file__).resolve().parent.parent
ALV = "alvara-fretamento"
# Kills the CLI (SIGKILL) at the instant the finished file would get its name: the one
# moment at which a temporary file cannot be cleaned up by the process itself.
KILL_ON_PLACING = """
import os, signal, sys
target = sys.argv[1]

def hook(event, args):
    if event in ("os.rename", "os.replace") and os.fspath(args[1]) == target:
        os.kill(os.getpid(), signal.SIGKILL)

sys.addaudithook(hook)
from lavra.cli.main import main
main(sys.argv[2:])
"""


def _dead_pid() -> int:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(child.stdout)


def test_write_replaces_whole_and_leaves_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "doc.pdf"
    target.write_bytes(b"antigo")
    write_atomically(target, b"%PDF-novo")
    assert target.read_bytes() == b"%PDF-novo"
    assert [p.name for p in tmp_path.iterdir()] == ["doc.pdf"]


def test_stale_temporaries_of_dead_processes_are_swept(tmp_path: Path) -> None:
    dead = tmp_path / f".outro.pdf.{_dead_pid()}.parcial"
    dead.write_bytes(b"%PDF-meio")
    mine = temporary_name(tmp_path / "x.pdf")
    mine.write_bytes(b"em curso")  # this process is alive: not touched
    unrelated = tmp_path / "notas.parcial"
    unrelated.write_bytes(b"de outra pessoa")
    assert sweep_stale(tmp_path) == [dead]
    assert mine.exists() and unrelated.exists() and not dead.exists()


def test_unwritable_folder_is_a_pt_br_error(tmp_path: Path) -> None:
    with pytest.raises(LavraError, match="não existe"):
        write_atomically(tmp_path / "falta" / "doc.pdf", b"x")


def test_killed_while_placing_the_file_leaves_nothing_after_the_next_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir, out = tmp_path / "dados", tmp_path / "saida"
    out.mkdir()
    content = Content(REPO)
    ensure_dev_pki(Config(pack_dir=REPO, data_dir=data_dir), content)
    spec = content.form(ALV)
    assert spec.example is not None
    data = current_example(spec, json.loads(spec.example.read_text(encoding="utf-8")))[0]
    source = tmp_path / "dados.json"
    source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    env = {**os.environ, "LAVRA_PACK": str(REPO), "LAVRA_DATA": str(data_dir)}
    env.pop("LAVRA_DATABASE_URL", None)
    env.pop("LAVRA_CONFIG", None)
    target = out / "alvara.pdf"
    run = subprocess.run(
        [sys.executable, "-c", KILL_ON_PLACING, str(target), "issue", ALV, str(source),
         "-o", str(target), "--json"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == -signal.SIGKILL, run.stderr
    left = [p.name for p in out.iterdir()]
    assert "alvara.pdf" not in left  # never a half-written document under its name
    assert all(name.startswith(".alvara.pdf.") and name.endswith(".parcial") for name in left)

    for name, value in {"LAVRA_PACK": str(REPO), "LAVRA_DATA": str(data_dir)}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("LAVRA_DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    # The document was recorded before the file was placed: export gives it whole, and
    # the write sweeps what the killed process left.
    runner = CliRunner()
    number = f"0001/{today().year}"
    exported = runner.invoke(main, ["export", number, "-o", str(target)])
    assert exported.exit_code == 0, exported.output
    assert [p.name for p in out.iterdir()] == ["alvara.pdf"]
    assert target.read_bytes()[:5] == b"%PDF-"
