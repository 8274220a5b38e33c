from reports import render_summary
from stock import parse_movements

CSV = """date,sku,kind,quantity,amount
2025-03-01,WIDGET,receipt,1000,12.5
2025-03-02,GADGET,receipt,10,3
2025-03-15,WIDGET,sale,200,20
"""


def test_summary_table():
    assert render_summary(parse_movements(CSV)).splitlines() == [
        "SKU      Revenue      COGS    Margin      Stock",
        "GADGET      0.00      0.00      0.00      30.00",
        "WIDGET  4,000.00  2,500.00  1,500.00  10,000.00",
        "TOTAL   4,000.00  2,500.00  1,500.00  10,030.00",
    ]
