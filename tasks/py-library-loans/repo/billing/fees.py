"""Late fees. Money is in cents."""


def days_late(loan, returned_on, calendar):
    """Chargeable days late: open days after the due date, up to the return day."""
    if returned_on <= loan.due:
        return 0
    return (returned_on - loan.due).days


def late_fee(loan, returned_on, calendar):
    """The fee for returning ``loan`` on ``returned_on``, capped at the category's maximum."""
    category = loan.item.category
    return min(days_late(loan, returned_on, calendar) * category.daily_fee, category.max_fee)
