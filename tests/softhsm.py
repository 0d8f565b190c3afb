"""A SoftHSM2 token (PKCS#11) for the tests that sign with a token: a fresh token in a
folder of its own (``SOFTHSM2_CONF``), holding a signer's key and certificate (and its
chain, as an ICP-Brasil token often carries it). Missing SoftHSM2 or python-pkcs11 skips
the test, except under CI (``CI=true``), where it fails."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from outputcheck import ON_CI

from lavra.signing.pki import SignerIdentity

MODULE = Path("/usr/lib/softhsm/libsofthsm2.so")
KEY = "Assinatura"


def need_softhsm() -> None:
    missing = []
    try:
        import pkcs11  # noqa: F401
    except ImportError:
        missing.append("python-pkcs11 (pip install 'lavra[pkcs11]')")
    if not MODULE.is_file():
        missing.append(f"SoftHSM2 ({MODULE}; apt-get install softhsm2)")
    if missing:
        if ON_CI:  # CI must sign with a token, not skip it
            pytest.fail(f"Ausente sob CI=true: {', '.join(missing)}")
        pytest.skip(f"Ausente: {', '.join(missing)}")


@contextmanager
def softhsm_token(base: Path, label: str, pin: str, person: SignerIdentity) -> Iterator[None]:
    """A token ``label`` (PIN ``pin``) with ``person``'s key and certificate, labelled
    :data:`KEY` (ID 01), and the first certificate of its chain; SoftHSM2 reads its
    configuration from ``base`` while the block lasts."""
    need_softhsm()
    import pkcs11
    from pkcs11 import Attribute, ObjectClass
    from pkcs11.util.rsa import decode_rsa_private_key
    from pkcs11.util.x509 import decode_x509_certificate

    (base / "tokens").mkdir(parents=True)
    conf = base / "softhsm2.conf"
    conf.write_text(f"directories.tokendir = {base / 'tokens'}\nobjectstore.backend = file\n"
                    "log.level = ERROR\n", encoding="utf-8")
    previous = os.environ.get("SOFTHSM2_CONF")
    os.environ["SOFTHSM2_CONF"] = str(conf)
    try:
        subprocess.run(["softhsm2-util", "--init-token", "--free", "--label", label, "--pin",
                        pin, "--so-pin", "13579"], check=True, capture_output=True, timeout=60)
        library = pkcs11.lib(str(MODULE))
        library.reinitialize()  # SoftHSM reads SOFTHSM2_CONF when initialised
        key_der = person.private_key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption())
        with library.get_token(token_label=label).open(rw=True, user_pin=pin) as session:
            session.create_object({
                **decode_rsa_private_key(key_der), Attribute.CLASS: ObjectClass.PRIVATE_KEY,
                Attribute.TOKEN: True, Attribute.PRIVATE: True, Attribute.SENSITIVE: True,
                Attribute.EXTRACTABLE: False, Attribute.SIGN: True, Attribute.LABEL: KEY,
                Attribute.ID: b"\x01"})
            for ident, cert in ((b"\x01", person.certificate), (b"\x02", *person.chain[:1])):
                session.create_object({
                    **decode_x509_certificate(cert.public_bytes(serialization.Encoding.DER)),
                    Attribute.TOKEN: True, Attribute.ID: ident,
                    Attribute.LABEL: KEY if ident == b"\x01" else "AC raiz"})
        yield
    finally:
        if previous is None:
            os.environ.pop("SOFTHSM2_CONF", None)
        else:
            os.environ["SOFTHSM2_CONF"] = previous
