"""The contact record."""
from dataclasses import dataclass, field


@dataclass
class Contact:
    name: str
    email: str = ""
    phone: str = ""
    city: str = ""
    tags: list = field(default_factory=list)

    @property
    def key(self):
        """Identity used for de-duplication: the e-mail when present, else the name."""
        return (self.email or self.name).strip().lower()
