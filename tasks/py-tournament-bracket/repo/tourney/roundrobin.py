"""Round-robin fixtures with the circle method."""

BYE = None


def round_robin(teams):
    """Rounds of ``(home, away)`` pairs in which every team meets every other exactly once.

    The circle method: the first team stays put and the others rotate one place per round.
    With an odd number of teams a ``BYE`` placeholder joins; pairs against it are left out,
    so the team drawn against it rests that round. ``n`` teams (rounded up to even) play
    ``n - 1`` rounds. Home and away alternate for the fixed team so it is not always at home.
    """
    teams = list(teams)
    if len(teams) < 2:
        return []
    if len(teams) % 2:
        teams.append(BYE)
    n = len(teams)
    rounds = []
    for number in range(n):
        pairs = []
        for i in range(n // 2):
            home, away = teams[i], teams[n - 1 - i]
            if i == 0 and number % 2:
                home, away = away, home
            if home is not BYE and away is not BYE:
                pairs.append((home, away))
        rounds.append(pairs)
        teams = [teams[0], teams[-1]] + teams[1:-1]
    return rounds
