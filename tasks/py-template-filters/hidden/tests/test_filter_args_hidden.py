import unittest

from minitpl import TemplateError, render


class FilterArgumentsTest(unittest.TestCase):
    def test_integer_argument(self):
        self.assertEqual(render("{{ price|round:2 }}", {"price": 3.14159}), "3.14")

    def test_string_argument(self):
        self.assertEqual(render('{{ tags|join:" / " }}', {"tags": ["a", "b"]}), "a / b")

    def test_single_quoted_argument(self):
        self.assertEqual(render("{{ tags|join:'-' }}", {"tags": ["a", "b"]}), "a-b")

    def test_pipe_inside_quotes(self):
        self.assertEqual(render('{{ tags|join:" | "|upper }}', {"tags": ["a", "b"]}), "A | B")

    def test_default_then_upper(self):
        self.assertEqual(render('{{ nickname|default:"n/a"|upper }}', {}), "N/A")

    def test_two_arguments(self):
        self.assertEqual(render('{{ bio|truncate:6,"~" }}', {"bio": "long story"}), "long ~")

    def test_comma_and_colon_inside_quotes(self):
        self.assertEqual(render('{{ xs|join:", :" }}', {"xs": [1, 2]}), "1, :2")

    def test_variable_argument(self):
        self.assertEqual(render("{{ ratio|percent:digits }}", {"ratio": 0.5, "digits": 1}), "50.0%")

    def test_float_argument(self):
        self.assertEqual(render("{{ n|default:0.5 }}", {}), "0.5")

    def test_spaces_around_arguments(self):
        self.assertEqual(render('{{ bio|truncate: 6 , "~" }}', {"bio": "long story"}), "long ~")

    def test_argument_in_for_and_if(self):
        out = render('{% for x in xs|join:"," %}[{{ x }}]{% endfor %}', {"xs": ["a", "b"]})
        self.assertEqual(out, "[a][,][b]")

    def test_missing_argument_is_an_error(self):
        with self.assertRaises(TemplateError):
            render("{{ x|round: }}", {"x": 1})

    def test_unterminated_string_is_an_error(self):
        with self.assertRaises(TemplateError):
            render('{{ x|join:"oops }}', {"x": [1]})

    def test_unknown_filter_still_an_error(self):
        with self.assertRaises(TemplateError):
            render("{{ x|shout:1 }}", {"x": 1})

    def test_plain_filters_unchanged(self):
        self.assertEqual(render("{{ name|trim|upper }}", {"name": " ann "}), "ANN")


if __name__ == "__main__":
    unittest.main()
