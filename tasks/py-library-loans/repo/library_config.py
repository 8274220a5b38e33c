"""Branch configuration, as exported from the admin panel (plain JSON-like data)."""

CONFIG = {
    "branch": "Eastside",
    "closed_weekdays": [6],  # Monday is 0, Sunday is 6
    "holidays": ["2025-01-01", "2025-04-18", "2025-12-25", "2025-12-26", "2026-01-01"],
    "block_threshold_cents": 1000,
}
