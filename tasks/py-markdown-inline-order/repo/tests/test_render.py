from mdlite import parse_blocks, render


def test_heading_levels():
    assert render("# Title\n### Sub") == "<h1>Title</h1>\n<h3>Sub</h3>"


def test_closing_hashes_dropped():
    assert render("## Setup ##") == "<h2>Setup</h2>"


def test_paragraphs():
    assert render("one\ntwo\n\nthree") == "<p>one\ntwo</p>\n<p>three</p>"


def test_lists():
    assert render("- a\n- b\n\n1. x\n2) y") == "<ul><li>a</li><li>b</li></ul>\n<ol><li>x</li><li>y</li></ol>"


def test_fenced_code_is_escaped():
    assert render("```py\nif a < b:\n```") == '<pre><code class="language-py">if a &lt; b:\n</code></pre>'


def test_quote():
    assert render("> quoted\n> text") == "<blockquote><p>quoted\ntext</p></blockquote>"


def test_block_kinds():
    kinds = [b.kind for b in parse_blocks("# h\n\npara\n- item\n```\ncode\n```")]
    assert kinds == ["heading", "paragraph", "ul", "code"]
