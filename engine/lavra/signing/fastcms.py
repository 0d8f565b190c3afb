"""The CMS container of a PAdES B-B signature, built once per signer and patched per document.

pyHanko builds the CMS ``SignedData`` of every signature from asn1crypto objects and
serialises it (``pdf_cms.Signer.async_sign``): with the signer's certificates inside,
that is thousands of ASN.1 values encoded again for each document, the larger part of
the signing time. For a PAdES B-B signature by an RSA key with PKCS#1 v1.5 padding,
only two pieces of that container depend on the document:

- the value of the ``messageDigest`` signed attribute: the document's SHA-256 digest
  over the ``/ByteRange``, 32 bytes;
- the ``signature`` of the signer info: the RSA signature over the DER encoding of the
  signed attributes, exactly as long as the key's modulus (PKCS#1 v1.5 pads it so).

Every other byte is the same from one document to the next: the certificates, the
algorithm identifiers, the ``contentType`` and ``signingCertificateV2`` attributes
(PAdES puts no ``signingTime`` attribute in the CMS; the signature dictionary's ``/M``
carries the time). Since neither piece changes length, no ASN.1 length changes either,
and the container can be encoded once and patched at fixed offsets.

:class:`CmsTemplate` asks pyHanko (the very signer the slow path uses) for the container
of a signature over a random stand-in digest, and locates in its DER encoding the signed
attributes, the stand-in digest inside them and the signature, each of which must occur
exactly once. Per document it writes the real digest into the signed attributes, signs
them as pyHanko does (RFC 5652 §5.4: the DER of the attributes with the ``SET OF`` tag
0x31 in place of the implicit ``[0]`` tag 0xA0) with ``cryptography``, and writes both
into a copy of the encoding. The order of the attributes in the ``SET OF`` (DER sorts
them by encoding) is fixed by their type OIDs, which come before the digest.
PKCS#1 v1.5 is deterministic, so the result is byte for byte the container pyHanko would
build for the same document digest (the tests compare the two).

What the template cannot cover keeps pyHanko's path: a time-stamp (PAdES B-T: the token
is an unsigned attribute, different in content and length for every signature), ECDSA
(the DER signature varies in length), RSA-PSS, or any signed attribute other than the
static ones above (:func:`build_template` then returns None).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from datetime import datetime

from asn1crypto import cms
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
from pyhanko.sign.signers import Signer
from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes

__all__ = ["CmsTemplate", "build_template"]

#: Signed attributes whose value does not depend on the document (besides the digest).
STATIC_ATTRIBUTES = frozenset(
    {"content_type", "message_digest", "signing_certificate_v2", "cms_algorithm_protection"}
)
_DIGESTS = {"sha256": (hashes.SHA256, 32)}
_SET_OF_TAG = 0x31
_IMPLICIT_ZERO_TAG = 0xA0


@dataclass(frozen=True)
class CmsTemplate:
    """The DER encoding of one signer's CMS container and where the per-document bytes go."""

    der: bytes
    signed_attrs_start: int
    signed_attrs: bytes  # the attributes' DER, tagged as SET OF, stand-in digest inside
    digest_offset: int  # offset of the digest inside ``signed_attrs``
    signature_start: int
    signature_length: int
    key: rsa.RSAPrivateKey
    digest_algorithm: str

    def sign(self, document_digest: bytes) -> bytes:
        """The DER-encoded CMS ``ContentInfo`` signing ``document_digest``."""
        hash_class, length = _DIGESTS[self.digest_algorithm]
        if len(document_digest) != length:
            raise ValueError(f"a {self.digest_algorithm} digest has {length} bytes")
        attrs = bytearray(self.signed_attrs)
        attrs[self.digest_offset : self.digest_offset + length] = document_digest
        signature = self.key.sign(bytes(attrs), PKCS1v15(), hash_class())
        if len(signature) != self.signature_length:  # cannot happen with PKCS#1 v1.5
            raise ValueError("RSA signature of unexpected length")
        attrs[0] = _IMPLICIT_ZERO_TAG
        der = bytearray(self.der)
        start = self.signed_attrs_start
        der[start : start + len(attrs)] = attrs
        start = self.signature_start
        der[start : start + self.signature_length] = signature
        return bytes(der)


def build_template(
    signer: Signer, key: object, digest_algorithm: str, *, signing_time: datetime
) -> CmsTemplate | None:
    """The template for ``signer``'s PAdES B-B signatures, or None when there can be none.

    ``signer`` is the pyHanko signer of the slow path and ``key`` its private key;
    ``signing_time`` is any aware datetime (PAdES leaves it out of the CMS; if this
    pyHanko put it in, the attribute check below would refuse the template).
    """
    if not isinstance(key, rsa.RSAPrivateKey) or digest_algorithm not in _DIGESTS:
        return None
    if signer.get_signature_mechanism_for_digest(digest_algorithm).signature_algo != (
        "rsassa_pkcs1v15"
    ):
        return None
    if signer.unsigned_attr_prov_spec is not None:
        return None
    stand_in = secrets.token_bytes(_DIGESTS[digest_algorithm][1])
    content_info: cms.ContentInfo = asyncio.run(
        signer.async_sign(
            stand_in,
            digest_algorithm,
            use_pades=True,
            timestamper=None,
            signed_attr_settings=PdfCMSSignedAttributes(signing_time=signing_time),
        )
    )
    # Not dump(force=True): that encodes the certificates again, value by value (a fifth
    # of a second per worker); parsed from DER, they keep their bytes, and dump() gives
    # the same encoding, the one pyHanko's embedder writes.
    der = content_info.dump()
    signer_infos = content_info["content"]["signer_infos"]
    if len(signer_infos) != 1:
        return None
    signer_info = signer_infos[0]
    attributes = signer_info["signed_attrs"]
    if {attribute["type"].native for attribute in attributes} - STATIC_ATTRIBUTES:
        return None
    if signer_info["unsigned_attrs"].native is not None:
        return None
    tagged_attrs = attributes.dump()
    signature = signer_info["signature"].native
    if tagged_attrs[0] != _IMPLICIT_ZERO_TAG or len(signature) != (key.key_size + 7) // 8:
        return None
    signed_attrs = bytes([_SET_OF_TAG]) + tagged_attrs[1:]
    if signed_attrs != attributes.untag().dump(force=True):
        return None
    signed_attrs_start = _unique(der, tagged_attrs)
    digest_offset = _unique(signed_attrs, stand_in)
    signature_start = _unique(der, signature)
    if None in (signed_attrs_start, digest_offset, signature_start):
        return None
    assert signed_attrs_start is not None and digest_offset is not None
    assert signature_start is not None
    return CmsTemplate(
        der=der,
        signed_attrs_start=signed_attrs_start,
        signed_attrs=signed_attrs,
        digest_offset=digest_offset,
        signature_start=signature_start,
        signature_length=len(signature),
        key=key,
        digest_algorithm=digest_algorithm,
    )


def _unique(haystack: bytes, needle: bytes) -> int | None:
    """The offset of the only occurrence of ``needle`` in ``haystack``, else None."""
    start = haystack.find(needle)
    if start < 0 or haystack.find(needle, start + 1) >= 0:
        return None
    return start
