from accounting import cogs_by_month, cogs_by_sku, gross_margin, inventory_value, revenue_by_sku, value_by_sku
from stock import parse_movements

CSV = """date,sku,kind,quantity,amount
2025-01-02,A,receipt,10,4
2025-01-03,B,receipt,5,20
2025-01-10,A,receipt,10,5
2025-01-20,A,sale,15,9
2025-02-02,B,sale,2,30
2025-02-03,A,sale,1,9
"""


def test_cogs_by_sku():
    assert cogs_by_sku(parse_movements(CSV)) == {"A": 10 * 4 + 6 * 5, "B": 40}


def test_cogs_by_month():
    assert cogs_by_month(parse_movements(CSV)) == {"2025-01": 65, "2025-02": 45}


def test_valuation():
    movements = parse_movements(CSV)
    assert value_by_sku(movements) == {"A": 4 * 5, "B": 3 * 20}
    assert inventory_value(movements) == 80


def test_revenue_and_margin():
    movements = parse_movements(CSV)
    assert revenue_by_sku(movements) == {"A": 144, "B": 60}
    assert gross_margin(movements) == {"A": 144 - 70, "B": 20}
