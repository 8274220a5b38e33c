import unittest

from units import convert, format_quantity


class FahrenheitTest(unittest.TestCase):
    def test_freezing_point(self):
        self.assertAlmostEqual(convert(32, "F", "C"), 0.0)

    def test_boiling_point(self):
        self.assertAlmostEqual(convert(212, "fahrenheit", "celsius"), 100.0)

    def test_celsius_to_fahrenheit(self):
        self.assertAlmostEqual(convert(-40, "°C", "°F"), -40.0)

    def test_absolute_zero(self):
        self.assertAlmostEqual(convert(0, "K", "F"), -459.67)

    def test_format_body_temperature(self):
        self.assertEqual(format_quantity(98.6, "F", precision=1, to="C"), "37.0 °C")

    def test_fahrenheit_identity(self):
        self.assertEqual(convert(70, "F", "fahrenheit"), 70)


if __name__ == "__main__":
    unittest.main()
