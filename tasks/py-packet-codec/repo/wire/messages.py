"""Message types and their payload layouts."""
from dataclasses import dataclass

from .fields import (F32, U8, U16, U32, read_f32, read_string, read_u8, read_u16, read_u32,
                     write_string)


@dataclass(frozen=True)
class Hello:
    TYPE = 1
    name: str
    firmware: int

    def pack(self):
        return write_string(self.name) + U16.pack(self.firmware)

    @classmethod
    def unpack(cls, data, offset):
        name, offset = read_string(data, offset)
        firmware, offset = read_u16(data, offset)
        return cls(name, firmware), offset


@dataclass(frozen=True)
class Telemetry:
    TYPE = 2
    sensor: int
    readings: tuple

    def pack(self):
        out = U16.pack(self.sensor) + U8.pack(len(self.readings))
        return out + b"".join(F32.pack(r) for r in self.readings)

    @classmethod
    def unpack(cls, data, offset):
        sensor, offset = read_u16(data, offset)
        count, offset = read_u8(data, offset)
        readings = []
        for _ in range(count):
            value, offset = read_f32(data, offset)
            readings.append(value)
        return cls(sensor, tuple(readings)), offset


@dataclass(frozen=True)
class Ack:
    TYPE = 3
    acked: int

    def pack(self):
        return U32.pack(self.acked)

    @classmethod
    def unpack(cls, data, offset):
        acked, offset = read_u32(data, offset)
        return cls(acked), offset


@dataclass(frozen=True)
class LogLine:
    TYPE = 4
    level: int
    source: str
    text: str

    def pack(self):
        return U8.pack(self.level) + write_string(self.source) + write_string(self.text)

    @classmethod
    def unpack(cls, data, offset):
        level, offset = read_u8(data, offset)
        source, offset = read_string(data, offset)
        text, offset = read_string(data, offset)
        return cls(level, source, text), offset


BY_TYPE = {cls.TYPE: cls for cls in (Hello, Telemetry, Ack, LogLine)}
