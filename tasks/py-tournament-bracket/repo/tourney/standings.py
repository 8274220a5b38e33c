"""League tables from match results."""
from dataclasses import dataclass

POINTS = {"win": 3, "draw": 1, "loss": 0}


@dataclass(frozen=True)
class Result:
    home: str
    away: str
    home_goals: int
    away_goals: int


def standings(results):
    """Rows ``(team, played, points, goal_difference, goals_for)``, best first.

    Ties on points are broken by goal difference, then goals scored, then name.
    """
    table = {}
    for r in results:
        for team, scored, conceded in ((r.home, r.home_goals, r.away_goals),
                                       (r.away, r.away_goals, r.home_goals)):
            row = table.setdefault(team, {"played": 0, "points": 0, "gd": 0, "gf": 0})
            row["played"] += 1
            row["gd"] += scored - conceded
            row["gf"] += scored
            outcome = "win" if scored > conceded else "draw" if scored == conceded else "loss"
            row["points"] += POINTS[outcome]
    ordered = sorted(table.items(), key=lambda kv: (-kv[1]["points"], kv[1]["gd"], -kv[1]["gf"], kv[0]))
    return [(team, row["played"], row["points"], row["gd"], row["gf"]) for team, row in ordered]
