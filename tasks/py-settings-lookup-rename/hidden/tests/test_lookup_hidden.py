import unittest
import warnings

import settings
from settings import apply_env_overrides, load_settings


class LookupTest(unittest.TestCase):
    def test_lookup_exported(self):
        self.assertIn("lookup", settings.__all__)
        self.assertEqual(settings.lookup(load_settings(), "cache.ttl"), 300)

    def test_lookup_default(self):
        self.assertIsNone(settings.lookup(load_settings(), "cache.missing"))
        self.assertEqual(settings.lookup(load_settings(), "cache.ttl.x", default=1), 1)

    def test_lookup_lives_in_loader(self):
        from settings.loader import lookup
        self.assertIs(lookup, settings.lookup)


class DeprecatedAliasTest(unittest.TestCase):
    def test_get_setting_warns(self):
        with self.assertWarns(DeprecationWarning) as ctx:
            value = settings.get_setting(load_settings(), "database.port")
        self.assertEqual(value, 5432)
        self.assertIn("lookup", str(ctx.warning))

    def test_get_setting_default_still_works(self):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.assertEqual(settings.get_setting(load_settings(), "nope", "fallback"), "fallback")

    def test_internal_callers_do_not_warn(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            loaded = load_settings('{"cache": {"ttl": 60}}')
            apply_env_overrides(loaded, {"APP_CACHE__TTL": "90"})
        self.assertEqual(loaded["cache"]["ttl"], 90)

    def test_env_behaviour_unchanged(self):
        loaded = load_settings()
        self.assertEqual(apply_env_overrides(loaded, {"APP_DATABASE__POOL__TIMEOUT": "2.5"}), ["database.pool.timeout"])
        self.assertEqual(loaded["database"]["pool"]["timeout"], 2.5)


if __name__ == "__main__":
    unittest.main()
