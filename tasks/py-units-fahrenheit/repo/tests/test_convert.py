import unittest

from units import IncompatibleUnitsError, UnknownUnitError, convert, format_quantity


class LengthMassTest(unittest.TestCase):
    def test_miles_to_kilometres(self):
        self.assertAlmostEqual(convert(26.2, "mile", "km"), 42.1648128)

    def test_feet_to_inches(self):
        self.assertAlmostEqual(convert(3, "feet", "in"), 36)

    def test_pounds_to_grams(self):
        self.assertAlmostEqual(convert(1, "lb", "g"), 453.59237)


class TemperatureTest(unittest.TestCase):
    def test_celsius_to_kelvin(self):
        self.assertAlmostEqual(convert(25, "C", "K"), 298.15)

    def test_kelvin_to_celsius(self):
        self.assertAlmostEqual(convert(0, "kelvin", "celsius"), -273.15)


class ErrorsTest(unittest.TestCase):
    def test_incompatible(self):
        with self.assertRaises(IncompatibleUnitsError):
            convert(1, "kg", "m")

    def test_unknown(self):
        with self.assertRaises(UnknownUnitError):
            convert(1, "parsec", "m")


class FormatTest(unittest.TestCase):
    def test_format_with_conversion(self):
        self.assertEqual(format_quantity(5, "km", to="m", precision=0), "5000 m")


if __name__ == "__main__":
    unittest.main()
