import json
import unittest

from routing import MethodNotAllowed, NotFound, PathPattern, RouteError, Router
from shop import create_app
from web import Request


class ConverterPatternTest(unittest.TestCase):
    def test_int_value_converted(self):
        self.assertEqual(PathPattern("/users/{uid:int}").match("/users/42"), {"uid": 42})

    def test_int_rejects_letters(self):
        self.assertIsNone(PathPattern("/users/{uid:int}").match("/users/4a"))

    def test_int_rejects_negative(self):
        self.assertIsNone(PathPattern("/users/{uid:int}").match("/users/-1"))

    def test_explicit_str(self):
        self.assertEqual(PathPattern("/tags/{tag:str}").match("/tags/x%20y"), {"tag": "x y"})

    def test_str_still_one_segment(self):
        self.assertIsNone(PathPattern("/tags/{tag:str}").match("/tags/a/b"))

    def test_path_spans_segments(self):
        self.assertEqual(PathPattern("/files/{rest:path}").match("/files/a/b%20c.txt"), {"rest": "a/b c.txt"})

    def test_path_needs_a_character(self):
        self.assertIsNone(PathPattern("/files/{rest:path}").match("/files/"))

    def test_path_then_literal(self):
        self.assertEqual(PathPattern("/repo/{p:path}/raw").match("/repo/src/x.py/raw"), {"p": "src/x.py"})

    def test_unknown_converter(self):
        with self.assertRaisesRegex(RouteError, "uuid"):
            PathPattern("/things/{tid:uuid}")

    def test_build_int(self):
        self.assertEqual(PathPattern("/users/{uid:int}").build({"uid": 7}), "/users/7")

    def test_build_int_rejects_text(self):
        with self.assertRaises(RouteError):
            PathPattern("/users/{uid:int}").build({"uid": "seven"})

    def test_build_path_keeps_slashes(self):
        self.assertEqual(PathPattern("/files/{rest:path}").build({"rest": "a b/c.txt"}), "/files/a%20b/c.txt")

    def test_build_str_still_quotes_slash(self):
        self.assertEqual(PathPattern("/tags/{tag}").build({"tag": "a/b"}), "/tags/a%2Fb")


class ConverterRouterTest(unittest.TestCase):
    def setUp(self):
        self.router = Router()
        self.router.add("/users/{uid:int}", "by_id", name="user")
        self.router.add("/users/{login}", "by_login")
        self.router.add("/orders/{oid:int}", "order", methods=("DELETE",))

    def test_typed_route_wins_for_numbers(self):
        self.assertEqual(self.router.match("GET", "/users/12").params, {"uid": 12})

    def test_falls_through_to_next_route(self):
        self.assertEqual(self.router.match("GET", "/users/ada").handler, "by_login")

    def test_non_matching_converter_is_not_found(self):
        with self.assertRaises(NotFound):
            self.router.match("DELETE", "/orders/abc")

    def test_method_not_allowed_only_for_matching_converter(self):
        with self.assertRaises(MethodNotAllowed):
            self.router.match("GET", "/orders/5")

    def test_url_for_int(self):
        self.assertEqual(self.router.url_for("user", uid=12), "/users/12")


def get(app, target, method="GET"):
    response = app.handle(Request(method, target))
    return response.status, json.loads(response.body) if response.body else None


class ShopConverterTest(unittest.TestCase):
    def setUp(self):
        self.app = create_app()

    def test_non_numeric_product_is_router_404(self):
        self.assertEqual(get(self.app, "/products/abc"), (404, {"error": "not found", "path": "/products/abc"}))

    def test_handler_gets_int(self):
        self.assertEqual(self.app.router.match("GET", "/products/3").params, {"product_id": 3})

    def test_reviews_route_typed(self):
        self.assertEqual(get(self.app, "/products/x/reviews")[0], 404)

    def test_doc_page_with_slash(self):
        self.assertEqual(get(self.app, "/docs/shipping/europe"), (200, {"page": "shipping/europe", "text": "Ships in 3-5 days."}))

    def test_unknown_doc(self):
        self.assertEqual(get(self.app, "/docs/nope"), (404, {"error": "no such page"}))

    def test_doc_url(self):
        self.assertEqual(self.app.url_for("doc", page="shipping/europe"), "/docs/shipping/europe")

    def test_existing_product_unchanged(self):
        status, body = get(self.app, "/products/1")
        self.assertEqual((status, body["url"]), (200, "/products/1"))


if __name__ == "__main__":
    unittest.main()
