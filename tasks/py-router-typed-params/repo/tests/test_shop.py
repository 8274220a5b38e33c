import json
import unittest

from shop import create_app
from web import Request


def get(app, target, method="GET"):
    response = app.handle(Request(method, target))
    return response.status, json.loads(response.body) if response.body else None


class ShopTest(unittest.TestCase):
    def setUp(self):
        self.app = create_app()

    def test_list_and_filter(self):
        self.assertEqual(get(self.app, "/products?category=office"), (200, {"products": [3]}))

    def test_show_product(self):
        status, body = get(self.app, "/products/2")
        self.assertEqual((status, body["name"], body["url"]), (200, "Toaster", "/products/2"))

    def test_unknown_product(self):
        self.assertEqual(get(self.app, "/products/99")[0], 404)

    def test_reviews(self):
        self.assertEqual(get(self.app, "/products/3/reviews"), (200, {"reviews": ["Bright!", "A bit wobbly."]}))

    def test_delete(self):
        self.assertEqual(get(self.app, "/products/1", "DELETE"), (204, None))

    def test_405_has_allow_header(self):
        response = self.app.handle(Request("POST", "/products"))
        self.assertEqual((response.status, response.headers["Allow"]), (405, "GET, HEAD"))


if __name__ == "__main__":
    unittest.main()
