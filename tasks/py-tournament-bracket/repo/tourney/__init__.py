"""tourney: fixtures for leagues (round robin) and cups (single-elimination brackets)."""
from .bracket import Bracket, seed_order
from .roundrobin import round_robin
from .standings import Result, standings

__all__ = ["Bracket", "Result", "round_robin", "seed_order", "standings"]
