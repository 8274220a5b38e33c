import sys
from datetime import date

from meterly import cli, store


def test_report_command(tmp_path, engine, gateway, jan1, capsys, monkeypatch):
    engine.subscribe("acme", "basic", jan1)
    engine.subscribe("nyc", "team", jan1, quantity=2)
    engine.collect(jan1)
    path = tmp_path / "state.json"
    store.save(engine, path)
    (tmp_path / "shop_catalog.py").write_text("from tests.conftest import make_catalog\nCATALOG = make_catalog()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "shop_catalog", raising=False)
    assert cli.main([str(path), "report", "--on", "2024-01-20", "--catalog", "shop_catalog:CATALOG"]) == 0
    out = capsys.readouterr().out
    assert "Report for 2024-01-20" in out
    assert "USD 44.00" in out
    assert "USD: current 0.00, 1-30 26.13" in out
    assert "basic: USD 20.00" in out


def test_format_report_empty(engine):
    assert cli.format_report(engine, date(2024, 1, 1)).splitlines()[0] == "Report for 2024-01-01"
