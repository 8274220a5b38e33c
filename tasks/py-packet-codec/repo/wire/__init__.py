"""wire: the binary protocol spoken by our field sensors (see PROTOCOL.md)."""
from .codec import decode, encode
from .errors import DecodeError
from .messages import Ack, Hello, LogLine, Telemetry

__all__ = ["Ack", "DecodeError", "Hello", "LogLine", "Telemetry", "decode", "encode"]
