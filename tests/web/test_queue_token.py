"""The signing queue with a token (PKCS#11, issue 25): a signer whose certificate is on a
token (``[certificados.sergio]`` with ``pkcs11_modulo``) types its PIN where a PKCS#12's
password goes; a wrong PIN signs nothing and leaves the draft waiting, the right one signs,
and the act names the person of the token's certificate."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from softhsm import KEY, MODULE, softhsm_token
from webhelpers import csrf_of, errors_in, example, login, make_context

from lavra.batch.runner import find_kind
from lavra.config import PersonCertificate
from lavra.errors import InputError
from lavra.issuing import Issuer
from lavra.signing.persons import issue_person_certificate
from lavra.signing.pki import DEV_PASSPHRASE, load_signer
from lavra.web import WebContext, create_app
from lavra.web.batch_signer import run_signer

ALV = "alvara-fretamento"
ROLE = "secretario-transportes"
CARGO = "Secretário Municipal de Transportes e Sistema Viário"
PERSON = "Sérgio Signatário"
LABEL = "SERGIO"
PIN = "8642"


def test_the_queue_asks_the_tokens_pin(tmp_path: Path) -> None:
    base = make_context(tmp_path / "dados")
    person = load_signer(issue_person_certificate(
        base.config.pki_dir, "sergio", PERSON, ROLE, CARGO), DEV_PASSPHRASE)
    with softhsm_token(tmp_path / "softhsm", LABEL, PIN, person):
        config = replace(base.config, person_certificates={"sergio": PersonCertificate(
            passphrase_env="LAVRA_TESTE_PIN_SERGIO", pkcs11_module=MODULE,
            pkcs11_token=LABEL, pkcs11_key=KEY)})
        # the engine and registry already loaded, under the production configuration
        context = WebContext(config, base.settings,
                             issuer=Issuer(base.engine, base.registry, config))
        draft = context.registry.save_draft(ALV, example(ALV), title="Alvará por token",
                                            by="Clara Redatora (clara)")
        draft = context.registry.forward_draft(draft.id, version=draft.version,
                                               signer_role=ROLE, by="Clara Redatora (clara)",
                                               signer_account="sergio")
        with TestClient(create_app(context)) as client:
            login(client, "sergio")

            def sign(pin: str) -> str:
                response = client.post("/equipe/assinaturas/assinar", data={
                    "csrf": csrf_of(client, "/equipe/assinaturas"), "_senha_assinatura": pin,
                    "assinar": f"{draft.id}:{draft.version}"})
                assert pin not in response.text
                return response.text

            refused = errors_in(sign("0000"))
            assert refused and refused[0].startswith(
                "PIN incorreto para o token «SERGIO». Nada foi assinado."), refused
            waiting = context.registry.draft(draft.id)
            assert waiting is not None and waiting.document_id is None
            assert "1 de 1 minuta(s) assinada(s)" in sign(PIN)
            done = context.registry.draft(draft.id)
            assert done is not None and done.document_id is not None
            act = client.get(f"/equipe/documentos/{done.document_id}/documento.pdf").content
        # a batch run started with a wrong PIN says what the token answered, at the field
        sergio = context.users.by_name("sergio")
        assert sergio is not None
        with pytest.raises(InputError) as refused_run:
            run_signer(context, sergio, find_kind(context.require_issuer(),  # type: ignore[arg-type]
                                                  "renovacao-transporte-escolar"),
                       "0000", simulate=False)
        assert refused_run.value.message.startswith("PIN incorreto para o token «SERGIO».")
        assert refused_run.value.message.endswith("Nada foi planejado nem numerado.")
        text = " ".join(subprocess.run(["pdftotext", "-", "-"], input=act, capture_output=True,
                                       check=True).stdout.decode().split())
        assert f"assinado eletronicamente por {PERSON}, {CARGO}, em" in text
