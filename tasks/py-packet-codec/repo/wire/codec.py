"""Framing: header, payload and CRC trailer."""
import struct
import zlib

from .errors import DecodeError
from .messages import BY_TYPE

MAGIC = 0xC0DE
VERSION = 2
HEADER = struct.Struct("!HBBHI")
TRAILER = struct.Struct("!I")


def encode(message, seq):
    """The frame carrying ``message`` with sequence number ``seq``."""
    payload = message.pack()
    header = HEADER.pack(MAGIC, VERSION, message.TYPE, len(payload), seq)
    body = header + payload
    return body + TRAILER.pack(zlib.crc32(body))


def decode(frame):
    """``(seq, message)`` from a complete frame; :class:`DecodeError` when it is malformed."""
    if len(frame) < HEADER.size + TRAILER.size:
        raise DecodeError("frame shorter than header and trailer")
    magic, version, kind, length, seq = HEADER.unpack_from(frame, 0)
    if magic != MAGIC:
        raise DecodeError(f"bad magic 0x{magic:04X}")
    if version != VERSION:
        raise DecodeError(f"unsupported version {version}")
    if len(frame) != HEADER.size + length + TRAILER.size:
        raise DecodeError(f"length field says {length} payload bytes, frame has {len(frame) - HEADER.size - TRAILER.size}")
    body = frame[:-TRAILER.size]
    (crc,) = TRAILER.unpack_from(frame, len(body))
    if crc != zlib.crc32(body):
        raise DecodeError("CRC mismatch")
    cls = BY_TYPE.get(kind)
    if cls is None:
        raise DecodeError(f"unknown message type {kind}")
    message, end = cls.unpack(body, HEADER.size)
    if end != len(body):
        raise DecodeError(f"{end - len(body) if end > len(body) else len(body) - end} unexpected bytes after the {cls.__name__} payload")
    return seq, message
