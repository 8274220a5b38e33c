import unittest
from decimal import Decimal

from shipping import InvalidShipmentError, Parcel, UnknownCarrierError, cheapest_quote, quote, quote_parcel


class QuoteTest(unittest.TestCase):
    def test_postal_bands(self):
        self.assertEqual(quote("postal", 1.5, 100), Decimal("4.50"))
        self.assertEqual(quote("postal", 10, 100, express=True), Decimal("15.90"))
        self.assertEqual(quote("postal", 12, 100), Decimal("19.90"))

    def test_courier(self):
        self.assertEqual(quote("courier", 3, 120), Decimal("15.40"))
        self.assertEqual(quote("courier", 3, 120, express=True), Decimal("23.10"))

    def test_freight(self):
        self.assertEqual(quote("freight", 500, 300), Decimal("300.00"))
        self.assertEqual(quote("freight", 50, 10), Decimal("60.00"))

    def test_limits(self):
        with self.assertRaises(InvalidShipmentError):
            quote("postal", 31, 10)
        with self.assertRaises(InvalidShipmentError):
            quote("freight", 49, 10)
        with self.assertRaises(InvalidShipmentError):
            quote("courier", 0, 10)

    def test_unknown_carrier(self):
        with self.assertRaises(UnknownCarrierError):
            quote("pigeon", 1, 1)


class ParcelTest(unittest.TestCase):
    def test_volumetric_weight_is_billed(self):
        parcel = Parcel(1, 50, 40, 30)
        self.assertEqual(parcel.billable_weight(), Decimal(12))
        self.assertEqual(quote_parcel("postal", parcel, 5), Decimal("19.90"))

    def test_cheapest(self):
        self.assertEqual(cheapest_quote(Parcel(1.5), 20), ("postal", Decimal("4.50")))
        self.assertEqual(cheapest_quote(Parcel(80), 100), ("freight", Decimal("60.00")))


if __name__ == "__main__":
    unittest.main()
