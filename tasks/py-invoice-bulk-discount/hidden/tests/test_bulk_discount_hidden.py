import unittest
from decimal import Decimal

from invoice import Invoice, LineItem


class BulkDiscountTest(unittest.TestCase):
    def test_exactly_ten_units_discounted(self):
        line = LineItem("Widget", 10, "4.00")
        self.assertEqual(line.discount(), Decimal("2.00"))
        self.assertEqual(line.net(), Decimal("38.00"))

    def test_invoice_total_with_ten_unit_line(self):
        inv = Invoice("INV-7", "ACME")
        inv.add_line("Widget", 10, "4.00")
        inv.add_line("Manual", 1, "10.00", "zero")
        self.assertEqual(inv.summary()["discount"], "2.00")
        self.assertEqual(inv.subtotal(), Decimal("48.00"))
        self.assertEqual(inv.total(), Decimal("55.60"))

    def test_nine_units_not_discounted(self):
        line = LineItem("Widget", 9, "4.00")
        self.assertEqual(line.net(), Decimal("36.00"))

    def test_eleven_units_discounted(self):
        line = LineItem("Widget", 11, "4.00")
        self.assertEqual(line.net(), Decimal("41.80"))


if __name__ == "__main__":
    unittest.main()
