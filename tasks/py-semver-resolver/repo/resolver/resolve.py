"""Choosing one version per package."""
from collections import deque

from .errors import ConflictError
from .ranges import parse_range


def _describe(name, constraints):
    wanted = ", ".join(f"{rng} (required by {by})" for rng, by in constraints)
    return f"no version of {name} satisfies {wanted}"


def resolve(requirements, registry):
    """A dict package name -> :class:`Version` satisfying ``requirements`` transitively.

    ``requirements`` maps package names to range texts. Packages are visited breadth-first
    from the requirements; each gets the newest version that satisfies every constraint
    seen so far. Raises :class:`ConflictError` when a constraint cannot be met and
    :class:`UnknownPackage` for packages the registry lacks.
    """
    chosen = {}
    constraints = {}
    queue = deque((name, parse_range(spec), "root") for name, spec in requirements.items())
    while queue:
        name, rng, by = queue.popleft()
        constraints.setdefault(name, []).append((rng, by))
        if name in chosen:
            if not rng.contains(chosen[name]):
                raise ConflictError(_describe(name, constraints[name]))
            continue
        candidates = [v for v in registry.versions(name)
                      if all(r.contains(v) for r, _ in constraints[name])]
        if not candidates:
            raise ConflictError(_describe(name, constraints[name]))
        version = candidates[0]
        chosen[name] = version
        for dep, spec in registry.dependencies(name, version).items():
            queue.append((dep, parse_range(spec), f"{name} {version}"))
    return chosen
