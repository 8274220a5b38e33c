import unittest

from settings import MissingSettingError, apply_env_overrides, get_setting, load_settings


class LoadTest(unittest.TestCase):
    def test_json_merged_over_defaults(self):
        settings = load_settings('{"database": {"pool": {"size": 20}}}')
        self.assertEqual(settings["database"]["pool"], {"size": 20, "timeout": 30.0})
        self.assertEqual(settings["database"]["host"], "localhost")

    def test_required_setting(self):
        with self.assertRaises(MissingSettingError):
            load_settings({"database": {"host": ""}})


class GetSettingTest(unittest.TestCase):
    def test_dotted_lookup(self):
        self.assertEqual(get_setting(load_settings(), "database.pool.size"), 5)

    def test_default(self):
        self.assertEqual(get_setting(load_settings(), "database.user", "admin"), "admin")


class EnvTest(unittest.TestCase):
    def test_overrides_with_types(self):
        settings = load_settings()
        changed = apply_env_overrides(settings, {"APP_DATABASE__PORT": "6543", "APP_APP__DEBUG": "yes",
                                                 "HOME": "/root"})
        self.assertEqual(changed, ["app.debug", "database.port"])
        self.assertEqual(settings["database"]["port"], 6543)
        self.assertIs(settings["app"]["debug"], True)


if __name__ == "__main__":
    unittest.main()
