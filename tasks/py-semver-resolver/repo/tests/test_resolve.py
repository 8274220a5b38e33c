import pytest

from resolver import ConflictError, Registry, UnknownPackage, resolve


def names(solution):
    return {name: str(version) for name, version in solution.items()}


def test_newest_matching_versions():
    registry = Registry({
        "web": {"1.0.0": {"log": "^1.0.0"}, "1.4.0": {"log": "^1.1.0"}, "2.0.0": {"log": "^2.0.0"}},
        "log": {"1.0.0": {}, "1.1.5": {}, "1.2.0": {}, "2.0.0": {}},
    })
    assert names(resolve({"web": "^1.0.0"}, registry)) == {"web": "1.4.0", "log": "1.2.0"}


def test_shared_dependency_satisfying_both():
    registry = Registry({
        "a": {"1.0.0": {"c": ">=1.1.0"}},
        "b": {"1.0.0": {"c": "<1.3.0"}},
        "c": {"1.0.0": {}, "1.2.0": {}, "1.3.0": {}},
    })
    assert names(resolve({"b": "*", "a": "*"}, registry))["c"] == "1.2.0"


def test_impossible():
    registry = Registry({"a": {"1.0.0": {"c": "^2.0.0"}}, "b": {"1.0.0": {"c": "^1.0.0"}},
                         "c": {"1.0.0": {}, "2.0.0": {}}})
    with pytest.raises(ConflictError, match="c"):
        resolve({"a": "*", "b": "*"}, registry)


def test_unknown_package():
    with pytest.raises(UnknownPackage):
        resolve({"ghost": "*"}, Registry({}))
