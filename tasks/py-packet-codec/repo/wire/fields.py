"""Encoding and decoding of primitive fields.

Every ``read_*`` function takes ``(data, offset)`` and returns ``(value, next_offset)``.
"""
import struct

from .errors import DecodeError

U8 = struct.Struct("!B")
U16 = struct.Struct("!H")
U32 = struct.Struct("!I")
F32 = struct.Struct("!f")


def _read(fmt, data, offset):
    if offset + fmt.size > len(data):
        raise DecodeError(f"truncated payload: need {fmt.size} bytes at offset {offset}")
    return fmt.unpack_from(data, offset)[0], offset + fmt.size


def read_u8(data, offset):
    return _read(U8, data, offset)


def read_u16(data, offset):
    return _read(U16, data, offset)


def read_u32(data, offset):
    return _read(U32, data, offset)


def read_f32(data, offset):
    return _read(F32, data, offset)


def write_string(text):
    """A u16 byte-length prefix followed by the UTF-8 bytes of ``text``."""
    data = text.encode("utf-8")
    if len(data) > 0xFFFF:
        raise ValueError("string too long for a u16 length prefix")
    return U16.pack(len(text)) + data


def read_string(data, offset):
    length, offset = read_u16(data, offset)
    end = offset + length
    if end > len(data):
        raise DecodeError(f"truncated string: {length} bytes announced at offset {offset}")
    try:
        return data[offset:end].decode("utf-8"), end
    except UnicodeDecodeError as error:
        raise DecodeError(f"invalid UTF-8 in string at offset {offset}") from error
