"""Split a document into blocks."""
import re
from dataclasses import dataclass, field

_HEADING = re.compile(r"^(#{1,6}\s)\s*(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\d{1,9}[.)]\s+(.*)$")
_QUOTE = re.compile(r"^>\s?(.*)$")
_FENCE = re.compile(r"^```\s*(\w*)\s*$")


@dataclass
class Block:
    kind: str  # "heading", "paragraph", "ul", "ol", "quote", "code"
    lines: list = field(default_factory=list)  # list items for ul/ol, text lines otherwise
    level: int = 0  # heading level
    info: str = ""  # fenced code language


def parse_blocks(text):
    """Blocks of `text` in document order."""
    blocks = []
    current = None
    lines = text.replace("\r\n", "\n").split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        fence = _FENCE.match(line)
        if fence:
            code = Block("code", info=fence.group(1))
            while index < len(lines) and not _FENCE.match(lines[index]):
                code.lines.append(lines[index])
                index += 1
            index += 1  # the closing fence (or end of input)
            blocks.append(code)
            current = None
            continue
        if not line.strip():
            current = None
            continue
        heading = _HEADING.match(line)
        if heading:
            blocks.append(Block("heading", [heading.group(2)], level=len(heading.group(1))))
            current = None
            continue
        for kind, pattern in (("ul", _BULLET), ("ol", _NUMBERED), ("quote", _QUOTE)):
            match = pattern.match(line)
            if match:
                if current is None or current.kind != kind:
                    current = Block(kind)
                    blocks.append(current)
                current.lines.append(match.group(1))
                break
        else:
            if current is not None and current.kind in ("paragraph", "quote"):
                current.lines.append(line.strip())
            elif current is not None and current.kind in ("ul", "ol"):
                current.lines[-1] += " " + line.strip()  # lazy continuation of a list item
            else:
                current = Block("paragraph", [line.strip()])
                blocks.append(current)
    return blocks
