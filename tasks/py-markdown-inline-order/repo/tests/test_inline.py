from mdlite import render_inline


def test_plain_text_is_escaped():
    assert render_inline('a < b & "c"') == "a &lt; b &amp; &quot;c&quot;"


def test_emphasis():
    assert render_inline("an *important* note") == "an <em>important</em> note"


def test_underscore_emphasis():
    assert render_inline("_really_") == "<em>really</em>"


def test_strong():
    assert render_inline("a **bold** claim") == "a <strong>bold</strong> claim"


def test_strong_and_emphasis_together():
    assert render_inline("**bold** and *em*") == "<strong>bold</strong> and <em>em</em>"


def test_code_span_is_literal():
    assert render_inline("dereference `*ptr*` here") == "dereference <code>*ptr*</code> here"


def test_link():
    assert render_inline("see [docs](https://x.org/a)") == 'see <a href="https://x.org/a">docs</a>'


def test_backslash_escape():
    assert render_inline(r"\*not em\*") == "*not em*"


def test_intraword_underscore_untouched():
    assert render_inline("snake_case_name") == "snake_case_name"
