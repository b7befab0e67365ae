"""Real signers for the signer interface (fair/signing.py) under CPython, from the `cryptography`
package (a test-only dependency, pinned in requirements-dev.txt): Ed25519, and ECDSA P-256 with
SHA-256 and r || s signatures, the two the page makes with WebCrypto."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)

from parlour.fair.signing import ED25519, P256, SIGNATURE_BYTES
from parlour.match.online.device import Crypto

RAW = serialization.Encoding.Raw, serialization.PublicFormat.Raw
POINT = serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint


class Ed25519Signer:
    algorithm = ED25519

    def __init__(self) -> None:
        self._key = ed25519.Ed25519PrivateKey.generate()
        self.public_key = self._key.public_key().public_bytes(*RAW)

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)


class P256Signer:
    algorithm = P256

    def __init__(self) -> None:
        self._key = ec.generate_private_key(ec.SECP256R1())
        self.public_key = self._key.public_key().public_bytes(*POINT)

    def sign(self, data: bytes) -> bytes:
        r, s = decode_dss_signature(self._key.sign(data, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def verify(algorithm: str, public: bytes, data: bytes, signature: bytes) -> bool:
    """The `Verify` of fair/signing.py: never raises, whatever the bytes."""
    if len(signature) != SIGNATURE_BYTES:
        return False
    try:
        if algorithm == ED25519:
            ed25519.Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
        elif algorithm == P256:
            key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public)
            r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
            key.verify(encode_dss_signature(r, s), data, ec.ECDSA(hashes.SHA256()))
        else:
            return False
    except (InvalidSignature, ValueError):
        return False
    return True


def crypto(make: type[Ed25519Signer] | type[P256Signer] = Ed25519Signer) -> Crypto:
    """A device's key pair and the check of the others' signatures: what a signed session needs."""
    return Crypto(make(), verify)
