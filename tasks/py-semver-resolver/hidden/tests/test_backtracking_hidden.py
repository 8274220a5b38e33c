import pytest

from resolver import ConflictError, Registry, UnknownPackage, resolve


def names(solution):
    return {name: str(version) for name, version in solution.items()}


APP = Registry({
    "web": {"2.0.0": {"log": "^1.0.0"}, "2.1.0": {"log": "^2.0.0"}},
    "db": {"1.0.0": {"log": "^1.2.0"}, "1.1.0": {"log": "^1.3.0"}},
    "log": {"1.2.0": {}, "1.3.4": {}, "2.0.0": {}, "2.1.0": {}},
})


def test_backtracks_to_older_direct_dependency():
    assert names(resolve({"web": "^2.0.0", "db": "^1.0.0"}, APP)) == {"web": "2.0.0", "db": "1.1.0", "log": "1.3.4"}


def test_no_backtracking_needed_keeps_newest():
    assert names(resolve({"web": "^2.0.0"}, APP)) == {"web": "2.1.0", "log": "2.1.0"}


def test_backtracks_over_transitive_choice():
    registry = Registry({
        "app": {"1.0.0": {"mid": "*", "x": "^1.0.0"}},
        "mid": {"1.0.0": {"x": "^1.0.0"}, "2.0.0": {"x": "^2.0.0"}},
        "x": {"1.0.0": {}, "1.5.0": {}, "2.0.0": {}},
    })
    assert names(resolve({"app": "*"}, registry)) == {"app": "1.0.0", "mid": "1.0.0", "x": "1.5.0"}


def test_dependencies_of_discarded_versions_are_dropped():
    registry = Registry({
        "a": {"1.0.0": {}, "2.0.0": {"old": "^1.0.0", "c": "^2.0.0"}},
        "b": {"1.0.0": {"c": "^1.0.0"}},
        "c": {"1.0.0": {}, "2.0.0": {}},
        "old": {"1.0.0": {}},
    })
    assert names(resolve({"a": "*", "b": "*"}, registry)) == {"a": "1.0.0", "b": "1.0.0", "c": "1.0.0"}


def test_deep_backtracking():
    registry = Registry({
        "a": {"1.0.0": {"b": "^1.0.0"}, "2.0.0": {"b": "^2.0.0"}},
        "b": {"1.0.0": {"c": "^1.0.0"}, "2.0.0": {"c": "^2.0.0"}},
        "c": {"1.0.0": {}, "2.0.0": {"d": "^9.0.0"}},
        "d": {"1.0.0": {}},
    })
    assert names(resolve({"a": "*"}, registry)) == {"a": "1.0.0", "b": "1.0.0", "c": "1.0.0"}


def test_still_impossible():
    registry = Registry({"a": {"1.0.0": {"c": "^2.0.0"}, "1.1.0": {"c": "^2.1.0"}},
                         "b": {"1.0.0": {"c": "^1.0.0"}},
                         "c": {"1.0.0": {}, "2.0.0": {}, "2.1.0": {}}})
    with pytest.raises(ConflictError):
        resolve({"a": "*", "b": "*"}, registry)


def test_root_constraint_is_respected():
    with pytest.raises(ConflictError):
        resolve({"web": "^3.0.0"}, APP)


def test_unknown_package_still_reported():
    registry = Registry({"a": {"1.0.0": {"ghost": "*"}}})
    with pytest.raises(UnknownPackage):
        resolve({"a": "*"}, registry)
