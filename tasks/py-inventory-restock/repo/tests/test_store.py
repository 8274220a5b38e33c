import unittest

from inventory import InsufficientStockError, Inventory, UnknownItemError


class InventoryTest(unittest.TestCase):
    def setUp(self):
        self.inv = Inventory()
        self.inv.add_item("B-200", "Bolt", quantity=50, reorder_level=20)
        self.inv.add_item("A-100", "Anchor", quantity=5, reorder_level=10)

    def test_receive_and_ship(self):
        self.inv.receive("A-100", 10)
        self.inv.ship("B-200", 45)
        self.assertEqual(self.inv.get("A-100").quantity, 15)
        self.assertEqual(self.inv.total_units(), 20)
        self.assertEqual(self.inv.movements, [("A-100", 10), ("B-200", -45)])

    def test_ship_too_many(self):
        with self.assertRaises(InsufficientStockError):
            self.inv.ship("A-100", 6)

    def test_unknown_item(self):
        with self.assertRaises(UnknownItemError):
            self.inv.receive("Z-1", 1)

    def test_iteration_in_sku_order(self):
        self.assertEqual([item.sku for item in self.inv], ["A-100", "B-200"])

    def test_duplicate_sku(self):
        with self.assertRaises(ValueError):
            self.inv.add_item("A-100", "Other")


if __name__ == "__main__":
    unittest.main()
