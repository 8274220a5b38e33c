"""pwpolicy: password policy checks and a rough strength estimate."""
from .policy import DEFAULT_POLICY, Policy, violations
from .strength import estimate_bits, strength_label

__all__ = ["DEFAULT_POLICY", "Policy", "estimate_bits", "strength_label", "violations"]
