"""Sealing small secrets (a game's deck order) with a key kept apart, standard library only.

A sealed value is ``base64(nonce | ciphertext | tag)``:

- the key is 32 random bytes (:func:`new_key`); two keys are derived from it,
  one to encrypt and one to authenticate;
- the ciphertext is the data XORed with a keystream of HMAC-SHA256 blocks of
  ``nonce | block counter`` (a stream cipher: HMAC-SHA256 as a PRF in counter
  mode); the nonce is 16 fresh random bytes a value;
- the tag is HMAC-SHA256 over ``label | nonce | ciphertext`` (encrypt then
  MAC), so a changed byte, or a sealed value moved to another place (another
  ``label``), is refused instead of read wrongly.

This keeps the order unreadable to whoever opens the file without the key; it is
not meant to stand against someone who also holds the key file (see docs/play.md).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import secrets

LOGGER = logging.getLogger(__name__)

KEY_BYTES = 32
_NONCE_BYTES = 16
_TAG_BYTES = 32
_BLOCK = hashlib.sha256().digest_size


class SealError(ValueError):
    """A sealed value that cannot be opened: damaged, moved, or another key."""


def new_key() -> bytes:
    """A fresh random key (the system's secure source)."""
    return secrets.token_bytes(KEY_BYTES)


def _subkeys(key: bytes) -> tuple[bytes, bytes]:
    if not isinstance(key, bytes) or len(key) != KEY_BYTES:
        raise SealError(f"a key is {KEY_BYTES} bytes")
    encrypt = hmac.new(key, b"raindrop seal: encrypt", hashlib.sha256).digest()
    authenticate = hmac.new(key, b"raindrop seal: authenticate", hashlib.sha256).digest()
    return encrypt, authenticate


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = []
    for counter in range((length + _BLOCK - 1) // _BLOCK):
        blocks.append(hmac.new(key, nonce + counter.to_bytes(8, "big"),
                               hashlib.sha256).digest())
    return b"".join(blocks)[:length]


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(
        len(data), "big")


def seal(key: bytes, data: bytes, label: str) -> str:
    """``data`` encrypted and authenticated under ``key``, bound to ``label``."""
    encrypt, authenticate = _subkeys(key)
    nonce = secrets.token_bytes(_NONCE_BYTES)
    body = _xor(data, _keystream(encrypt, nonce, len(data)))
    tag = hmac.new(authenticate, label.encode("utf-8") + b"\0" + nonce + body,
                   hashlib.sha256).digest()
    return base64.b64encode(nonce + body + tag).decode("ascii")


def unseal(key: bytes, text: str, label: str) -> bytes:
    """The data :func:`seal` sealed; :class:`SealError` if it was changed, moved or
    sealed under another key."""
    encrypt, authenticate = _subkeys(key)
    if not isinstance(text, str):
        raise SealError(f"a sealed value is a base64 string, not {type(text).__name__}")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise SealError("a sealed value is not base64") from None
    if len(raw) < _NONCE_BYTES + _TAG_BYTES:
        raise SealError("a sealed value is too short")
    nonce, body, tag = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:-_TAG_BYTES], raw[-_TAG_BYTES:]
    expected = hmac.new(authenticate, label.encode("utf-8") + b"\0" + nonce + body,
                        hashlib.sha256).digest()
    if not hmac.compare_digest(tag, expected):
        raise SealError("the sealed value does not match its key and place (damaged, "
                        "moved, or sealed with another key)")
    return _xor(body, _keystream(encrypt, nonce, len(body)))
