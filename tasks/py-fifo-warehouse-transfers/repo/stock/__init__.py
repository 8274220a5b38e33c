"""Stock movements and FIFO lot tracking."""
from .ledger import InsufficientStock, StockLedger
from .lots import Lot
from .movements import Movement, parse_movements

__all__ = ["InsufficientStock", "Lot", "Movement", "StockLedger", "parse_movements"]
