"""Signing and verifying issued PDFs: the development PKI and production keys
(:mod:`~lavra.signing.pki`), PAdES signatures with a visible stamp, verification codes
and their QR codes, signature checks, and the inspection of active content in PDFs
received from outside.

``signing`` works on PDF bytes; it knows nothing of forms or of the registry.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``.
"""
