"""The password policy and its violations."""
from dataclasses import dataclass

from .checks import character_classes, find_sequence, longest_repeat
from .wordlist import contains_common_word


@dataclass(frozen=True)
class Policy:
    min_length: int = 12
    min_classes: int = 3
    max_repeat: int = 3
    sequence_length: int = 4
    forbid_common: bool = True


DEFAULT_POLICY = Policy()


def violations(password, policy=DEFAULT_POLICY, username=None):
    """Human-readable reasons ``password`` breaks ``policy``; empty when it is acceptable."""
    problems = []
    if len(password) < policy.min_length:
        problems.append(f"shorter than {policy.min_length} characters")
    classes = character_classes(password)
    if len(classes) < policy.min_classes:
        problems.append(f"uses {len(classes)} of the {policy.min_classes} required character classes")
    if longest_repeat(password) > policy.max_repeat:
        problems.append(f"repeats a character more than {policy.max_repeat} times in a row")
    sequence = find_sequence(password, policy.sequence_length)
    if sequence:
        problems.append(f"contains the sequence {sequence!r}")
    if policy.forbid_common and (word := contains_common_word(password)):
        problems.append(f"contains the common password {word!r}")
    if username and username.lower() in password.lower():
        problems.append("contains the user name")
    return problems
