"""Routes of the example shop."""
from web import App, Response, json_response

from . import catalog


def create_app():
    app = App()

    @app.route("/products", name="products")
    def list_products(request):
        category = request.query.get("category", [None])[0]
        items = catalog.by_category(category) if category else list(catalog.PRODUCTS.values())
        return {"products": [p["id"] for p in items]}

    @app.route("/products/{product_id}", name="product")
    def show_product(request, product_id):
        product = catalog.PRODUCTS.get(int(product_id)) if product_id.isdigit() else None
        if product is None:
            return json_response({"error": "no such product"}, 404)
        return dict(product, url=app.url_for("product", product_id=product["id"]))

    @app.route("/products/{product_id}/reviews", name="reviews")
    def product_reviews(request, product_id):
        return {"reviews": catalog.REVIEWS.get(int(product_id), [])}

    @app.route("/products/{product_id}", methods=("DELETE",), name="delete_product")
    def delete_product(request, product_id):
        return Response(204)

    return app
