"""Trial balance report."""
from .money import format_cents


def trial_balance(journal):
    """Rows ``(account, debit, credit)`` as formatted strings, plus a totals row.

    Each account appears on the side of its net balance; an account with a zero balance is
    listed with empty amounts.
    """
    rows = []
    total_debit = total_credit = 0
    for name in sorted(journal.accounts):
        account = journal.accounts[name]
        net = account.debit_total() - account.credit_total()
        if net > 0:
            rows.append((name, format_cents(net), ""))
            total_debit += net
        elif net < 0:
            rows.append((name, "", format_cents(-net)))
            total_credit += -net
        else:
            rows.append((name, "", ""))
    rows.append(("TOTAL", format_cents(total_debit), format_cents(total_credit)))
    return rows


def render_trial_balance(journal):
    """The trial balance as an aligned plain-text table."""
    rows = [("Account", "Debit", "Credit")] + trial_balance(journal)
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"{a:<{width}}  {d:>10}  {c:>10}" for a, d, c in rows)
