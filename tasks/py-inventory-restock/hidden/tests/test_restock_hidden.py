import unittest

from inventory import Inventory


def make_inventory():
    inv = Inventory()
    inv.add_item("C-300", "Clamp", quantity=3, reorder_level=4)
    inv.add_item("A-100", "Anchor", quantity=10, reorder_level=10)
    inv.add_item("B-200", "Bolt", quantity=50, reorder_level=20)
    inv.add_item("D-400", "Dowel", quantity=0, reorder_level=0)
    return inv


class RestockTest(unittest.TestCase):
    def test_low_stock_sorted_and_inclusive(self):
        self.assertEqual([item.sku for item in make_inventory().low_stock()], ["A-100", "C-300"])

    def test_low_stock_excludes_items_without_reorder_level(self):
        self.assertNotIn("D-400", [item.sku for item in make_inventory().low_stock()])

    def test_restock_plan_default_multiplier(self):
        self.assertEqual(make_inventory().restock_plan(), {"A-100": 10, "C-300": 5})

    def test_restock_plan_custom_multiplier(self):
        self.assertEqual(make_inventory().restock_plan(multiplier=3), {"A-100": 20, "C-300": 9})

    def test_plan_follows_stock_changes(self):
        inv = make_inventory()
        inv.ship("B-200", 31)
        inv.receive("C-300", 2)
        self.assertEqual(inv.restock_plan(), {"A-100": 10, "B-200": 21})

    def test_invalid_multiplier(self):
        with self.assertRaises(ValueError):
            make_inventory().restock_plan(multiplier=0.5)

    def test_plan_does_not_change_stock(self):
        inv = make_inventory()
        inv.restock_plan()
        self.assertEqual(inv.total_units(), 63)
        self.assertEqual(inv.movements, [])


if __name__ == "__main__":
    unittest.main()
