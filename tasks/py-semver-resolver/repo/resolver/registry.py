"""An in-memory package registry."""
from .errors import UnknownPackage
from .version import Version


class Registry:
    """Packages, their versions and each version's dependencies (name -> range text)."""

    def __init__(self, packages=None):
        self._packages = {}
        for name, versions in (packages or {}).items():
            for version, deps in versions.items():
                self.publish(name, version, deps)

    def publish(self, name, version, dependencies=None):
        self._packages.setdefault(name, {})[Version.parse(version)] = dict(dependencies or {})

    def versions(self, name):
        """Published versions of ``name``, newest first."""
        if name not in self._packages:
            raise UnknownPackage(f"no package named {name!r}")
        return sorted(self._packages[name], reverse=True)

    def dependencies(self, name, version):
        return dict(self._packages[name][version])
