import unittest

from minitpl import Template, TemplateError, render


class RenderTest(unittest.TestCase):
    def test_variables_and_attributes(self):
        self.assertEqual(render("Hi {{ user.name }}!", {"user": {"name": "Ann"}}), "Hi Ann!")

    def test_missing_variable_is_empty(self):
        self.assertEqual(render("[{{ nope }}]"), "[]")

    def test_for_loop(self):
        out = render("{% for x in xs %}{{ loop.index }}:{{ x }} {% endfor %}", {"xs": ["a", "b"]})
        self.assertEqual(out, "1:a 2:b ")

    def test_if_else(self):
        source = "{% if admin %}root{% else %}user{% endif %}"
        self.assertEqual(render(source, {"admin": True}), "root")
        self.assertEqual(render(source, {"admin": False}), "user")

    def test_compile_once_render_twice(self):
        t = Template("{{ n }}")
        self.assertEqual([t.render({"n": 1}), t.render({"n": 2})], ["1", "2"])

    def test_errors(self):
        with self.assertRaises(TemplateError):
            render("{% for x in xs %}never closed")
        with self.assertRaises(TemplateError):
            render("{{ 1abc }}")
        with self.assertRaises(TemplateError):
            render("{{ x|nosuchfilter }}", {"x": 1})


if __name__ == "__main__":
    unittest.main()
