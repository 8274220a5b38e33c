from mdlite import render, render_inline


def test_strong_inside_sentence():
    assert render_inline("**Note:** read this") == "<strong>Note:</strong> read this"


def test_emphasis_inside_strong():
    assert render_inline("**very *much* so**") == "<strong>very <em>much</em> so</strong>"


def test_strong_in_link_text():
    assert render_inline("[**docs**](/d)") == '<a href="/d"><strong>docs</strong></a>'


def test_code_with_double_stars():
    assert render_inline("`**kwargs**`") == "<code>**kwargs**</code>"


def test_code_with_underscores():
    assert render_inline("run `_a_` now") == "run <code>_a_</code> now"


def test_escaped_underscores():
    assert render_inline(r"\_private\_") == "_private_"


def test_code_html_escaped_once():
    assert render_inline("`<b>`") == "<code>&lt;b&gt;</code>"


def test_h2():
    assert render("## Install") == "<h2>Install</h2>"


def test_h6():
    assert render("###### Tiny") == "<h6>Tiny</h6>"


def test_heading_with_emphasis():
    assert render("# The *best* **tool**") == "<h1>The <em>best</em> <strong>tool</strong></h1>"


def test_list_item_strong():
    assert render("- **a**\n- *b*") == "<ul><li><strong>a</strong></li><li><em>b</em></li></ul>"


def test_plain_emphasis_unchanged():
    assert render_inline("*one* and _two_") == "<em>one</em> and <em>two</em>"


def test_seven_hashes_is_a_paragraph():
    assert render("####### no") == "<p>####### no</p>"
