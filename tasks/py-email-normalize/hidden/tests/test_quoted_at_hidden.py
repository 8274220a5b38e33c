from mailcheck import canonical, is_valid, normalize, parse_address, split_address


def test_split_quoted_local_with_at():
    assert split_address('"john@home"@example.com') == ('"john@home"', "example.com")


def test_quoted_local_with_at_is_valid():
    assert is_valid('"john@home"@example.com') is True


def test_parse_quoted_local_with_at():
    assert parse_address(' "a@b@c"@Example.org ').domain == "Example.org"


def test_normalize_quoted_local_with_at():
    assert normalize('"Ops@Night"@Example.COM') == '"Ops@Night"@example.com'


def test_canonical_quoted_gmail_untouched():
    assert canonical('"j.doe@x"@gmail.com') == '"j.doe@x"@gmail.com'


def test_two_unquoted_ats_still_invalid():
    assert is_valid("ann@bob@example.com") is False


def test_plain_split_unchanged():
    assert split_address("first.last@mail.example.org") == ("first.last", "mail.example.org")
