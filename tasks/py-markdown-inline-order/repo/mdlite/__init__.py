"""mdlite: render a small, predictable subset of Markdown to HTML.

Blocks: ATX headings, paragraphs, bullet and numbered lists, block quotes, fenced code.
Inline: code spans, links, **strong**, *emphasis* / _emphasis_, backslash escapes.
"""
from .blocks import Block, parse_blocks
from .inline import render_inline
from .render import render

__all__ = ["Block", "parse_blocks", "render", "render_inline"]
