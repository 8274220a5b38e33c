"""Command line: ``python -m meterly.cli STATE_FILE report [--on YYYY-MM-DD]``.

Prints MRR, open balances and revenue per plan of a saved state. The catalog comes from a Python
module named with ``--catalog module:attribute`` (default ``catalog:CATALOG`` in the current
folder), since plans are configuration, not state.
"""

import argparse
import importlib
import sys
from datetime import date

from . import reports, store


def _load_catalog(spec):
    module_name, _, attribute = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute or "CATALOG")


def format_report(engine, on):
    out = [f"Report for {on.isoformat()}", "", "MRR:"]
    for currency, amount in reports.mrr(engine, on).items():
        out.append(f"  {amount}")
    out += ["", "Open balances:"]
    for currency, buckets in reports.aging(engine, on).items():
        cells = ", ".join(f"{name} {amount.rounded().amount}" for name, amount in buckets.items())
        out.append(f"  {currency}: {cells}")
    out += ["", "Revenue by plan:"]
    for code, amount in reports.revenue_by_plan(engine).items():
        out.append(f"  {code}: {amount}")
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="meterly")
    parser.add_argument("state")
    parser.add_argument("command", choices=["report"])
    parser.add_argument("--on", type=date.fromisoformat, default=date.today())
    parser.add_argument("--catalog", default="catalog:CATALOG")
    args = parser.parse_args(argv)
    engine = store.load(args.state, _load_catalog(args.catalog))
    print(format_report(engine, args.on))
    return 0


if __name__ == "__main__":
    sys.exit(main())
