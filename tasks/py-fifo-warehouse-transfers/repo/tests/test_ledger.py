from datetime import date

import pytest

from stock import InsufficientStock, StockLedger, parse_movements

D = date(2025, 1, 1)


def test_fifo_consumes_oldest_first():
    ledger = StockLedger()
    ledger.receive("A", 10, 2, D)
    ledger.receive("A", 10, 3, D)
    assert ledger.issue("A", 15) == 10 * 2 + 5 * 3
    assert [lot.quantity for lot in ledger.lots("A")] == [5]


def test_insufficient_stock_consumes_nothing():
    ledger = StockLedger()
    ledger.receive("A", 5, 1, D)
    with pytest.raises(InsufficientStock):
        ledger.issue("A", 6)
    assert ledger.on_hand("A") == 5


def test_invalid_quantities():
    ledger = StockLedger()
    with pytest.raises(ValueError):
        ledger.receive("A", 0, 1, D)
    with pytest.raises(ValueError):
        ledger.issue("A", -1)


def test_parse_movements():
    [m] = parse_movements("date,sku,kind,quantity,amount\n2025-01-03, BOLT ,Receipt,100,2\n")
    assert (m.day, m.sku, m.kind, m.quantity, m.amount) == (date(2025, 1, 3), "BOLT", "receipt", 100, 2)


def test_parse_error_names_row():
    with pytest.raises(ValueError, match="row 2"):
        parse_movements("date,sku,kind,quantity,amount\n2025-01-03,A,receipt,1,1\n2025-01-04,A,refund,1,1\n")
