import unittest

from routing import MethodNotAllowed, NotFound, PathPattern, RouteError, Router


class PathPatternTest(unittest.TestCase):
    def test_match_params(self):
        self.assertEqual(PathPattern("/users/{uid}/posts/{pid}").match("/users/7/posts/abc"), {"uid": "7", "pid": "abc"})

    def test_param_is_one_segment(self):
        self.assertIsNone(PathPattern("/files/{name}").match("/files/a/b"))

    def test_percent_decoding(self):
        self.assertEqual(PathPattern("/tags/{tag}").match("/tags/c%2B%2B"), {"tag": "c++"})

    def test_build_quotes(self):
        self.assertEqual(PathPattern("/tags/{tag}").build({"tag": "a/b c"}), "/tags/a%2Fb%20c")

    def test_bad_templates(self):
        for template in ("users", "/a/{1x}", "/a/{x}/{x}"):
            with self.subTest(template=template):
                with self.assertRaises(RouteError):
                    PathPattern(template)


class RouterTest(unittest.TestCase):
    def setUp(self):
        self.router = Router()
        self.router.add("/users", "list_users", name="users")
        self.router.add("/users/me", "me")
        self.router.add("/users/{uid}", "show_user", name="user")
        self.router.add("/users/{uid}", "update_user", methods=("PUT", "PATCH"))

    def test_static_route(self):
        self.assertEqual(self.router.match("GET", "/users").handler, "list_users")

    def test_first_match_wins(self):
        self.assertEqual(self.router.match("GET", "/users/me").handler, "me")

    def test_params(self):
        self.assertEqual(self.router.match("get", "/users/42").params, {"uid": "42"})

    def test_method_dispatch(self):
        self.assertEqual(self.router.match("PATCH", "/users/42").handler, "update_user")

    def test_head_implied(self):
        self.assertEqual(self.router.match("HEAD", "/users").handler, "list_users")

    def test_not_found(self):
        with self.assertRaises(NotFound):
            self.router.match("GET", "/groups")

    def test_method_not_allowed(self):
        with self.assertRaises(MethodNotAllowed) as ctx:
            self.router.match("DELETE", "/users/42")
        self.assertEqual(ctx.exception.allowed, ("GET", "HEAD", "PUT", "PATCH"))

    def test_url_for(self):
        self.assertEqual(self.router.url_for("user", uid=42), "/users/42")

    def test_url_for_errors(self):
        with self.assertRaises(RouteError):
            self.router.url_for("user")
        with self.assertRaises(RouteError):
            self.router.url_for("nope")

    def test_duplicate_name(self):
        with self.assertRaises(RouteError):
            self.router.add("/x", "x", name="users")


if __name__ == "__main__":
    unittest.main()
