"""The loaded pack is shared by a process's engines, and loaded again when it changed.

Every command of the CLI, every issuer and the web pages build their engine with
``Engine.from_config()``; the pack (laws, schemas, forms, templates checked) is loaded
once per process (``loaded_content``), keyed on the pack's code and on the bytes of its
data files. These tests run on a data-only copy of the test pack (its forms that name no
computation), in this process.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from test_second_pack import AUTO, LIC, ORGAN, REQ, copy_pack

from lavra.checking import content as content_module
from lavra.checking.content import Content, loaded_content, pack_digest
from lavra.documents import Engine
from lavra.law.overlay import EMPTY_OVERLAY


def data_pack(where: Path) -> Path:
    pack = copy_pack(where, code=False)
    for form in (LIC, AUTO):  # the forms that name computations
        shutil.rmtree(pack / "forms" / form)
    return pack


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("LAVRA_CONFIG", "LAVRA_DATA", "LAVRA_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    folder = data_pack(tmp_path)
    monkeypatch.setenv("LAVRA_PACK", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


def test_a_second_engine_is_served_the_loaded_pack(pack: Path) -> None:
    first = Engine.from_config()
    second = Engine.from_config()
    assert second.content is first.content
    assert first.content.version == pack_digest(pack)
    assert first.content.organization.orgao == ORGAN
    assert set(first.content.forms) == {REQ}
    # Each engine keeps its own staff values (read from its registry for every document).
    first.use_staff_values(lambda: EMPTY_OVERLAY)
    assert second.staff_values is not first.staff_values


def test_an_edited_file_is_loaded_again(pack: Path) -> None:
    before = loaded_content(pack)
    path = pack / "forms" / "orgao.json"
    text = path.read_text(encoding="utf-8")
    # Same size, written at once: the key is the files' bytes, not their times or sizes.
    path.write_text(text.replace(f'"{ORGAN}"', f'"{ORGAN[:-1]}x"'), encoding="utf-8")
    after = loaded_content(pack)
    assert after is not before and after.organization.orgao.endswith("Mobilidadx")
    assert after.version != before.version
    assert loaded_content(pack) is after
    shutil.rmtree(pack / "forms" / REQ)  # a form taken away
    assert REQ not in loaded_content(pack).forms


def test_another_folder_or_the_pack_code_loaded_again_is_another_pack(
    pack: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = loaded_content(pack)
    other = data_pack(tmp_path / "outra")
    assert loaded_content(other) is not first and loaded_content(other).root == other
    # The pack's code loaded again (a new ContentPack for the same folder): not the old one.
    found = content_module.pack_at(pack)
    monkeypatch.setattr(content_module, "pack_at", lambda root: replace(found))
    again = loaded_content(pack)
    assert again is not first and again.organization == first.organization


def test_the_shared_pack_is_read_only(pack: Path) -> None:
    content: Content = loaded_content(pack)
    with pytest.raises(AttributeError, match="somente leitura"):
        content.root = pack.parent
    with pytest.raises(TypeError):
        content.forms["outro"] = content.forms[REQ]  # type: ignore[index]
    with pytest.raises(TypeError):
        del content.laws[next(iter(content.laws))]  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        content.check_rules["outra"] = next(iter(content.check_rules.values()))  # type: ignore[index]
    assert loaded_content(pack) is content and REQ in content.forms
