"""A small RFC 6455 WebSocket client over asyncio streams: text messages, ping/pong, close.

Enough for patchgym's `/ws`: no extensions, no subprotocols; ws:// and wss:// (`serve --cert`).
The server's token goes in `Authorization: Bearer` (see `find_token`).
"""
import asyncio
import base64
import hashlib
import os
import ssl as _ssl
import struct
from urllib.parse import unquote, urlsplit

from .errors import ConnectionClosed, PatchgymError

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CLOSE, _PING, _PONG, _CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0


def accept_key(key):
    """The Sec-WebSocket-Accept a server must answer for `key` (RFC 6455 section 4.2.2)."""
    return base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest()).decode()


def encode_frame(opcode, payload, mask=None):
    """One final frame, masked as a client must (section 5.3)."""
    mask = os.urandom(4) if mask is None else mask
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + _xor(payload, mask)


def _xor(payload, mask):
    # Whole-buffer XOR through int arithmetic: fast enough for large frames in pure Python.
    repeated = (mask * (len(payload) // 4 + 1))[: len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")


def find_token(url=None, token=None):
    """The token for `serve --http`: `token`, else the password (or user) written in `url`, else
    PATCHGYM_TOKEN, else the first token of the file PATCHGYM_TOKEN_FILE names, else of
    ~/.patchgym/token (where `serve --http` writes the token it makes). None if there is none."""
    if token:
        return token
    if url:
        parts = urlsplit(url)
        if parts.password or parts.username:
            return unquote(parts.password or parts.username)
    if os.environ.get("PATCHGYM_TOKEN", "").strip():
        return os.environ["PATCHGYM_TOKEN"].split()[0]
    path = os.environ.get("PATCHGYM_TOKEN_FILE") or os.path.join(os.path.expanduser("~"), ".patchgym", "token")
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    return line.split()[0]
    except FileNotFoundError:
        if os.environ.get("PATCHGYM_TOKEN_FILE"):
            raise
    return None


class WebSocket:
    """One client connection. Use `await WebSocket.connect(url)`."""

    def __init__(self, reader, writer, max_message_bytes):
        self._reader = reader
        self._writer = writer
        self._max = max_message_bytes
        self._send_lock = asyncio.Lock()
        self.closed = False

    @classmethod
    async def connect(
        cls, url, max_message_bytes=256 * 1024 * 1024, timeout=30.0, token=None, ssl=None, authorization=None
    ):
        """Open `url`. `authorization`: the header's value as is, instead of the token's Bearer."""
        parts = urlsplit(url)
        if parts.scheme not in ("ws", "http", "wss", "https"):
            raise ValueError(f'Cannot open "{_redact(url)}": expected a ws://, wss://, http:// or https:// address')
        secure = parts.scheme in ("wss", "https")
        host, port = parts.hostname, parts.port or (443 if secure else 80)
        if secure and ssl is None:
            ssl = _ssl.create_default_context(cafile=os.environ.get("PATCHGYM_CA_FILE") or None)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                host, port, limit=1 << 20, ssl=ssl if secure else None, server_hostname=host if secure else None
            ),
            timeout,
        )
        if authorization is None:
            token = find_token(url, token)
            authorization = f"Bearer {token}" if token else None
        auth = f"Authorization: {authorization}\r\n" if authorization else ""
        name = f"[{host}]" if ":" in host else host
        key = base64.b64encode(os.urandom(16)).decode()
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {name}:{port}\r\nUpgrade: websocket\r\n{auth}"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        lines = head.decode("latin-1").split("\r\n")
        status = lines[0].split(" ")
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        if len(status) < 2 or status[1] != "101":
            writer.close()
            if len(status) >= 2 and status[1] == "401":
                raise ConnectionClosed(
                    f'WebSocket handshake with "{_redact(url)}" failed: {lines[0]}; give the server\'s token '
                    "(token=, PATCHGYM_TOKEN, PATCHGYM_TOKEN_FILE or ~/.patchgym/token)"
                )
            raise ConnectionClosed(f'WebSocket handshake with "{_redact(url)}" failed: {lines[0]}')
        if headers.get("sec-websocket-accept") != accept_key(key):
            writer.close()
            raise ConnectionClosed(f'WebSocket handshake with "{_redact(url)}" failed: wrong accept key')
        return cls(reader, writer, max_message_bytes)

    async def send(self, text):
        """Send one text message."""
        await self._send(_TEXT, text.encode())

    async def _send(self, opcode, payload):
        if self.closed:
            raise ConnectionClosed("WebSocket is closed")
        async with self._send_lock:
            self._writer.write(encode_frame(opcode, payload))
            await self._writer.drain()

    async def recv(self):
        """The next text message; raises ConnectionClosed when the server closes."""
        message = bytearray()
        kind = None
        while True:
            try:
                opcode, fin, payload = await self._frame()
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                self.closed = True
                raise ConnectionClosed(f"WebSocket connection lost: {error}") from None
            if opcode == _PING:
                await self._send(_PONG, payload)
                continue
            if opcode == _PONG:
                continue
            if opcode == _CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                reason = payload[2:].decode("utf-8", "replace")
                if not self.closed:
                    try:
                        await self._send(_CLOSE, payload[:2])
                    except (ConnectionClosed, ConnectionError):
                        pass
                self.closed = True
                raise ConnectionClosed(f"WebSocket closed by the server ({code} {reason})".strip())
            if opcode in (_TEXT, _BINARY):
                kind = opcode
                message = bytearray(payload)
            elif opcode == _CONTINUATION and kind is not None:
                message += payload
            else:
                raise PatchgymError(f"Unexpected WebSocket opcode {opcode}", "protocol_error")
            if len(message) > self._max:
                raise PatchgymError("WebSocket message over the size limit", "protocol_error")
            if fin:
                return message.decode("utf-8")

    async def _frame(self):
        first, second = await self._reader.readexactly(2)
        fin, opcode = bool(first & 0x80), first & 0x0F
        masked, n = bool(second & 0x80), second & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", await self._reader.readexactly(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", await self._reader.readexactly(8))
        if n > self._max:
            raise PatchgymError(f"WebSocket frame of {n} bytes is over the size limit", "protocol_error")
        mask = await self._reader.readexactly(4) if masked else None
        payload = await self._reader.readexactly(n)
        if mask:
            payload = _xor(payload, mask)
        return opcode, fin, payload

    async def close(self):
        """Send a close frame and shut the connection."""
        if not self.closed:
            try:
                await self._send(_CLOSE, struct.pack("!H", 1000))
            except (ConnectionClosed, ConnectionError):
                pass
            self.closed = True
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass


def _redact(url):
    """`url` without the credentials written in it."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1]).geturl()
