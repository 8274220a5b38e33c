from datetime import date
from decimal import Decimal

import pytest

from accounting import cogs_by_month, cogs_by_sku, gross_margin, inventory_value, to_cents, value_by_sku
from reports import render_summary
from stock import StockLedger, parse_movements

D = date(2025, 1, 1)
HEADER = "date,sku,kind,quantity,amount\n"


def test_issue_cost_is_exact():
    ledger = StockLedger()
    ledger.receive("A", 3, Decimal("0.10"), D)
    assert ledger.issue("A", 3) == Decimal("0.30")


def test_issue_cost_is_decimal():
    ledger = StockLedger()
    ledger.receive("A", 3, "0.10", D)
    assert isinstance(ledger.issue("A", 1), Decimal)


def test_float_cost_uses_its_short_repr():
    ledger = StockLedger()
    ledger.receive("A", 1, 0.1, D)
    assert ledger.lots("A")[0].unit_cost == Decimal("0.1")


def test_parsed_amount_is_decimal():
    [m] = parse_movements(HEADER + "2025-01-03,A,receipt,1,0.1\n")
    assert m.amount == Decimal("0.1")


def test_parse_rejects_bad_amount_with_row():
    with pytest.raises(ValueError, match="row 1"):
        parse_movements(HEADER + "2025-01-03,A,receipt,1,twelve\n")


def test_to_cents_rounds_half_up():
    assert to_cents(Decimal("0.125")) == Decimal("0.13")


def test_to_cents_returns_two_places():
    assert str(to_cents(7)) == "7.00"


def test_cogs_half_cent_rounds_up():
    movements = parse_movements(HEADER + "2025-01-02,A,receipt,1,0.125\n2025-01-05,A,sale,1,1\n")
    assert cogs_by_sku(movements) == {"A": Decimal("0.13")}


def test_cogs_by_month_exact():
    rows = "2025-01-02,A,receipt,10,0.1\n" + "".join(f"2025-01-{d:02d},A,sale,1,1\n" for d in range(3, 6))
    assert cogs_by_month(parse_movements(HEADER + rows)) == {"2025-01": Decimal("0.30")}


def test_valuation_rounds_half_up():
    movements = parse_movements(HEADER + "2025-01-02,A,receipt,1,1.005\n")
    assert value_by_sku(movements) == {"A": Decimal("1.01")}


def test_inventory_value_sums_before_rounding():
    rows = "2025-01-02,A,receipt,1,0.004\n2025-01-02,B,receipt,1,0.004\n"
    assert inventory_value(parse_movements(HEADER + rows)) == Decimal("0.01")


def test_margin_half_up():
    rows = "2025-01-02,A,receipt,1,1\n2025-01-03,A,sale,1,2.675\n"
    assert gross_margin(parse_movements(HEADER + rows)) == {"A": Decimal("1.68")}


def test_report_shows_half_up_cents():
    rows = "2025-01-02,A,receipt,2,1.005\n"
    assert render_summary(parse_movements(HEADER + rows)).splitlines()[-1] == "TOTAL     0.00  0.00    0.00   2.01"


def test_integer_costs_still_compare_equal():
    rows = "2025-01-02,A,receipt,10,4\n2025-01-20,A,sale,5,9\n"
    assert cogs_by_sku(parse_movements(HEADER + rows)) == {"A": 20}
