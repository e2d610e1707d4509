"""The scoring rules: worked examples from the rule sheets and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetgen.errors import RuleError
from sheetgen.game.definition import load_game
from sheetgen.game.scoring import Game, Series, game_points, max_points, score_series
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import deal, make_table

SKIP_BO = load_game("skip-bo")
default_stock = SKIP_BO.default_stock


def max_stock(players: int) -> int:
    return SKIP_BO.largest_stock(players, SKIP_BO.official_deck.cards)


FOUR = make_table(["Ann", "Bob", "Cy", "Di"])
PAIRS = make_table(["Ann", "Bob", "Cy", "Di"], teams={"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]})


def test_four_players_worked_example() -> None:
    assert game_points(FOUR, Game("Ann", {"Bob": 7, "Cy": 12, "Di": 3})) == 135


def test_two_games_read_135_165_0_0() -> None:
    series = Series(
        FOUR,
        (
            Game("Ann", {"Bob": 7, "Cy": 12, "Di": 3}),
            Game("Bob", {"Ann": 4, "Cy": 9, "Di": 15}),
        ),
    )
    result = score_series(series)
    assert [game.points for game in result.games] == [135, 165]
    assert result.totals == {"Ann": 135, "Bob": 165, "Cy": 0, "Di": 0}
    assert result.games[0].totals == {"Ann": 135, "Bob": 0, "Cy": 0, "Di": 0}
    assert result.winner is None
    assert result.leader == "Bob"


def test_three_players_example() -> None:
    table = make_table(["Mia", "Tom", "Lee"])
    assert game_points(table, Game("Mia", {"Tom": 6, "Lee": 11})) == 110


def test_most_one_four_player_game_can_pay() -> None:
    assert max_points(FOUR) == 475
    assert game_points(FOUR, Game("Ann", {"Bob": 30, "Cy": 30, "Di": 30})) == 475


def test_team_scores_cards_of_the_other_team_only() -> None:
    assert game_points(PAIRS, Game("Red", {"Bob": 4, "Di": 10})) == 25 + 5 * 14
    assert max_points(PAIRS) == 25 + 5 * 60


def test_series_is_won_in_the_game_that_reaches_the_target() -> None:
    games = tuple(Game("Ann", {"Bob": 30, "Cy": 30, "Di": 30}) for _ in range(2))
    result = score_series(Series(FOUR, games))
    assert result.winner == "Ann"
    assert result.won_in_game == 2
    assert result.totals["Ann"] == 950


def test_no_game_after_the_series_is_won() -> None:
    games = tuple(Game("Ann", {"Bob": 30, "Cy": 30, "Di": 30}) for _ in range(3))
    with pytest.raises(RuleError, match="game 3: the series was already won by Ann in game 2"):
        score_series(Series(FOUR, games))


def test_rules_are_parameters() -> None:
    rules = ScoringRules(bonus=10, per_card=1, target=100)
    result = score_series(Series(FOUR, (Game("Cy", {"Ann": 1, "Bob": 2, "Di": 3}),), rules))
    assert result.totals["Cy"] == 16


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (Game("Zed", {"Bob": 1, "Cy": 1, "Di": 1}), "game 1, winner: 'Zed' is not a player"),
        (
            Game("Ann", {"Bob": 31, "Cy": 1, "Di": 1}),
            "Bob has 31 cards left, but stock piles hold 30",
        ),
        (
            Game("Ann", {"Bob": -1, "Cy": 1, "Di": 1}),
            "^game 1: Bob cannot have -1 cards left; give 0 to 30$",
        ),
        (Game("Ann", {"Bob": 1, "Cy": 1}), "game 1, left: no count for Di"),
        (Game("Ann", {"Ann": 2, "Bob": 1, "Cy": 1, "Di": 1}), "Ann won but has 2 cards left"),
        (Game("Ann", {"Bob": 0, "Cy": 1, "Di": 1}), "Bob has 0 cards left too"),
        (
            Game("Ann", {"Bob": 1, "Cy": 1, "Di": 1, "Ed": 1}),
            "game 1, left: 'Ed' is not a player of this series",
        ),
    ],
)
def test_impossible_games_are_refused(game: Game, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        score_series(Series(FOUR, (game,)))


def test_team_loser_may_hold_one_empty_pile_but_not_two() -> None:
    assert game_points(PAIRS, Game("Red", {"Bob": 0, "Di": 3})) == 40
    with pytest.raises(RuleError, match="both stock piles of team Blue are empty"):
        game_points(PAIRS, Game("Red", {"Bob": 0, "Di": 0}))


@pytest.mark.parametrize(
    ("players", "teams", "message"),
    [
        (["Ann"], None, "^players: Skip-Bo is played by 2 to 6 players, not 1$"),
        (
            ["A", "B", "C", "D", "E", "F", "G"],
            None,
            "^players: Skip-Bo is played by 2 to 6 players, not 7$",
        ),
        (["Ann", "Ann"], None, "players: Ann is listed twice"),
        (["Ann", " "], None, "a name cannot be blank"),
        (["A", "B", "C"], {"X": ["A", "B"]}, "^teams: teams of two need 4 or 6 players, not 3$"),
        (
            ["A", "B", "C", "D", "E"],
            {"X": ["A", "B"]},
            "^teams: teams of two need 4 or 6 players, not 5$",
        ),
        (["A", "B", "C", "D"], {"X": ["A", "B", "C"], "Y": ["D"]}, "team X has 3 players"),
        (
            ["A", "B", "C", "D"],
            {"X": ["A", "B"], "Y": ["B", "C"]},
            "B is in both team X and team Y",
        ),
        (["A", "B", "C", "D"], {"X": ["A", "B"], "Y": ["C", "Q"]}, "Q in team Y is not one of"),
        (["A", "B", "C", "D"], {"X": ["A", "B"], "C": ["C", "D"]}, "same name as a player"),
    ],
)
def test_impossible_tables_are_refused(
    players: list[str], teams: dict[str, list[str]] | None, message: str
) -> None:
    with pytest.raises(RuleError, match=message):
        make_table(players, teams=teams)


@pytest.mark.parametrize(
    ("players", "stock", "draw"), [(2, 30, 102), (4, 30, 42), (6, 20, 42), (3, 10, 132)]
)
def test_deal_numbers(players: int, stock: int, draw: int) -> None:
    numbers = deal(players, stock)
    assert numbers.draw_pile == draw


@pytest.mark.parametrize(("players", "largest"), [(2, 76), (3, 49), (4, 35), (5, 27), (6, 22)])
def test_largest_stock_leaves_every_first_hand(players: int, largest: int) -> None:
    assert max_stock(players) == largest
    assert deal(players, largest).draw_pile >= 5 * players
    with pytest.raises(RuleError, match=f"choose 1 to {largest}"):
        deal(players, largest + 1)


def test_default_stock() -> None:
    assert [default_stock(n) for n in range(2, 7)] == [30, 30, 30, 20, 20]


@st.composite
def games_for(draw: st.DrawFn, players: int) -> tuple[list[str], Game]:
    names = [f"P{i}" for i in range(players)]
    stock = default_stock(players)
    winner = draw(st.sampled_from(names))
    left = {n: draw(st.integers(1, stock)) for n in names if n != winner}
    return names, Game(winner, left)


@given(st.integers(2, 6).flatmap(games_for))
def test_points_are_bonus_plus_five_per_card(case: tuple[list[str], Game]) -> None:
    names, game = case
    table = make_table(names)
    points = game_points(table, game)
    assert points == 25 + 5 * sum(game.left.values())
    assert 25 < points <= max_points(table)
    assert points % 5 == 0


@given(st.lists(st.integers(2, 6).flatmap(games_for), min_size=1, max_size=1), st.data())
def test_totals_only_grow_for_the_winner(
    first: list[tuple[list[str], Game]], data: st.DataObject
) -> None:
    names, _ = first[0]
    table = make_table(names)
    count = data.draw(st.integers(1, 12))
    games = []
    for _ in range(count):
        winner = data.draw(st.sampled_from(names))
        left = {n: data.draw(st.integers(1, table.stock)) for n in names if n != winner}
        games.append(Game(winner, left))
    try:
        result = score_series(Series(table, tuple(games)))
    except RuleError as exc:
        assert "already won" in str(exc)
        return
    previous = dict.fromkeys(names, 0)
    for game in result.games:
        for name in names:
            expected = previous[name] + (game.points if name == game.winner else 0)
            assert game.totals[name] == expected
        previous = dict(game.totals)
    assert result.totals == previous
    assert sum(result.totals.values()) == sum(g.points for g in result.games)
    reached = [g.number for g in result.games if g.totals[g.winner] >= 500]
    assert result.won_in_game == (reached[0] if reached else None)
