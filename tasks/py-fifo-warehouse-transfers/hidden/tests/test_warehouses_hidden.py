from datetime import date

import pytest

import accounting
from accounting import cogs_by_sku, inventory_value, value_by_sku
from reports import render_summary
from stock import InsufficientStock, StockLedger, parse_movements

HEADER = "date,sku,kind,quantity,amount,warehouse,to_warehouse\n"
CSV = HEADER + """\
2025-01-02,A,receipt,10,4,north,
2025-01-05,A,receipt,10,6,south,
2025-01-06,A,transfer,6,,north,south
2025-01-08,A,sale,8,9,south,
2025-01-09,A,receipt,5,7,north,
"""


def test_parse_warehouse_columns():
    movements = parse_movements(CSV)
    assert [(m.kind, m.warehouse, m.to_warehouse, m.amount) for m in movements[1:3]] == [
        ("receipt", "south", None, 6), ("transfer", "north", "south", None)
    ]


def test_old_files_default_to_main():
    [m] = parse_movements("date,sku,kind,quantity,amount\n2025-01-02,A,receipt,1,2\n")
    assert (m.warehouse, m.to_warehouse) == ("main", None)


def test_empty_warehouse_cell_is_main():
    [m] = parse_movements(HEADER + "2025-01-02,A,receipt,1,2,,\n")
    assert m.warehouse == "main"


def test_transfer_needs_destination():
    with pytest.raises(ValueError, match="row 1"):
        parse_movements(HEADER + "2025-01-02,A,transfer,1,,north,\n")


def test_transfer_to_same_warehouse_rejected():
    with pytest.raises(ValueError, match="row 1"):
        parse_movements(HEADER + "2025-01-02,A,transfer,1,,north,north\n")


def test_transferred_units_keep_cost_and_go_first():
    # south sells the 6 transferred units (received Jan 2 at 4) before its own Jan 5 lot at 6.
    assert cogs_by_sku(parse_movements(CSV)) == {"A": 6 * 4 + 2 * 6}


def test_value_by_warehouse():
    assert accounting.value_by_warehouse(parse_movements(CSV)) == {"north": 4 * 4 + 5 * 7, "south": 8 * 6}


def test_value_by_sku_sums_warehouses():
    assert value_by_sku(parse_movements(CSV)) == {"A": 4 * 4 + 5 * 7 + 8 * 6}
    assert inventory_value(parse_movements(CSV)) == 99


def test_sale_only_uses_its_warehouse():
    text = HEADER + "2025-01-02,A,receipt,5,1,north,\n2025-01-03,A,sale,1,2,south,\n"
    with pytest.raises(InsufficientStock):
        cogs_by_sku(parse_movements(text))


def test_ledger_transfer_and_on_hand():
    ledger = StockLedger()
    ledger.receive("A", 10, 4, date(2025, 1, 2), "north")
    ledger.transfer("A", 3, "north", "south")
    assert (ledger.on_hand("A", "north"), ledger.on_hand("A", "south"), ledger.on_hand("A")) == (7, 3, 10)


def test_ledger_transfer_insufficient_moves_nothing():
    ledger = StockLedger()
    ledger.receive("A", 2, 4, date(2025, 1, 2), "north")
    with pytest.raises(InsufficientStock):
        ledger.transfer("A", 3, "north", "south")
    assert ledger.on_hand("A", "north") == 2


def test_ledger_default_warehouse_is_main():
    ledger = StockLedger()
    ledger.receive("A", 2, 4, date(2025, 1, 2))
    assert ledger.on_hand("A", "main") == 2
    assert ledger.issue("A", 1, "main") == 4


def test_transferred_lot_keeps_received_date():
    ledger = StockLedger()
    ledger.receive("A", 5, 3, date(2025, 1, 2), "north")
    ledger.receive("A", 5, 8, date(2025, 1, 9), "south")
    ledger.transfer("A", 2, "north", "south")
    assert [(lot.received, lot.quantity, lot.unit_cost) for lot in ledger.lots("A", "south")] == [
        (date(2025, 1, 2), 2, 3), (date(2025, 1, 9), 5, 8)
    ]


def test_report_includes_all_warehouses():
    assert render_summary(parse_movements(CSV)).splitlines()[-1] == "TOTAL    72.00  36.00   36.00  99.00"
