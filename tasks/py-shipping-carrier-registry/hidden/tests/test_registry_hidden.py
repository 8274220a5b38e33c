import importlib
import unittest
from decimal import Decimal

import shipping
from shipping import InvalidShipmentError, Parcel, UnknownCarrierError, cheapest_quote, quote


class RegistryTest(unittest.TestCase):
    def setUp(self):
        self.carriers = importlib.import_module("shipping.carriers")

    def test_builtin_carriers_registered(self):
        self.assertEqual(self.carriers.available_carriers(), ["courier", "freight", "postal"])
        for name, cls in [("postal", "PostalCarrier"), ("courier", "CourierCarrier"), ("freight", "FreightCarrier")]:
            carrier = self.carriers.get_carrier(name)
            self.assertIsInstance(carrier, getattr(self.carriers, cls))
            self.assertIsInstance(carrier, self.carriers.Carrier)
            self.assertEqual(carrier.name, name)

    def test_get_unknown(self):
        with self.assertRaises(UnknownCarrierError):
            self.carriers.get_carrier("pigeon")
        with self.assertRaises(UnknownCarrierError):
            self.carriers.unregister_carrier("pigeon")

    def test_rate_returns_decimal(self):
        rate = self.carriers.get_carrier("courier").rate(Decimal("3"), Decimal("120"), False)
        self.assertEqual(rate, Decimal("15.40"))

    def test_custom_carrier_used_by_quote(self):
        carriers = self.carriers

        class DroneCarrier(carriers.Carrier):
            name = "drone"

            def rate(self, weight, distance, express):
                if weight > 5:
                    raise InvalidShipmentError("drones carry at most 5 kg")
                return Decimal("2.00") + distance * Decimal("0.333")

        drone = DroneCarrier()
        self.assertIs(carriers.register_carrier(drone), drone)
        self.addCleanup(carriers.unregister_carrier, "drone")
        self.assertEqual(quote("drone", 1, 3), Decimal("3.00"))
        self.assertEqual(cheapest_quote(Parcel(1), 3), ("drone", Decimal("3.00")))
        self.assertEqual(cheapest_quote(Parcel(6), 3), ("postal", Decimal("9.90")))
        self.assertIn("drone", carriers.available_carriers())

    def test_duplicate_registration_rejected(self):
        with self.assertRaises(ValueError):
            self.carriers.register_carrier(self.carriers.PostalCarrier())

    def test_unregister_removes(self):
        carriers = self.carriers

        class Cargo(carriers.Carrier):
            name = "cargo-bike"

            def rate(self, weight, distance, express):
                return Decimal("1")

        carriers.register_carrier(Cargo())
        carriers.unregister_carrier("cargo-bike")
        with self.assertRaises(UnknownCarrierError):
            quote("cargo-bike", 1, 1)

    def test_package_exports(self):
        for name in ["Carrier", "register_carrier", "unregister_carrier", "get_carrier", "available_carriers"]:
            self.assertTrue(hasattr(shipping, name), name)


class BehaviourUnchangedTest(unittest.TestCase):
    def test_prices(self):
        self.assertEqual(quote("postal", 2, 0), Decimal("4.50"))
        self.assertEqual(quote("postal", 2.01, 0, express=True), Decimal("15.90"))
        self.assertEqual(quote("courier", 0.5, 33, express=True), Decimal("13.58"))
        self.assertEqual(quote("freight", 1000, 45.5), Decimal("91.00"))

    def test_generic_validation(self):
        with self.assertRaises(InvalidShipmentError):
            quote("postal", 1, -1)
        with self.assertRaises(InvalidShipmentError):
            quote("freight", 100, 10, express=True)

    def test_cheapest_tie_goes_alphabetically(self):
        self.assertEqual(cheapest_quote(Parcel(50), 260, carriers=["freight", "courier"]), ("courier", Decimal("60.00")))
        self.assertEqual(cheapest_quote(Parcel(50), 600), ("freight", Decimal("60.00")))

    def test_nobody_accepts(self):
        with self.assertRaises(InvalidShipmentError):
            cheapest_quote(Parcel(40), 10, express=True, carriers=["postal", "freight"])


if __name__ == "__main__":
    unittest.main()
