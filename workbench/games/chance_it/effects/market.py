"""``market``: buy or discard one face-up card (rules 8 and 9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from workbench.games.chance_it.effects.base import (
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    Drawing,
    Exact,
    Kernel,
    PlayerEffect,
    Valuer,
    Vector,
    Words,
    outcome,
)

if TYPE_CHECKING:
    import icepool
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round

MARKET = """
  <rect x="2.5" y="4" width="11" height="16" rx="1.6" fill="#fff" stroke="#333" stroke-width="1.2" transform="rotate(-10 8 12)"/>
  <rect x="10.5" y="4" width="11" height="16" rx="1.6" fill="#e9ecef" stroke="#333" stroke-width="1.2" transform="rotate(10 16 12)"/>
  <path d="M13 9.5H19.5M17 7L19.5 9.5L17 12" fill="none" stroke="#2e8b57" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M13.5 13.5L18.5 18.5M18.5 13.5L13.5 18.5" stroke="#c0392b" stroke-width="1.5" stroke-linecap="round"/>
"""


class MarketKind(PlayerEffect):
    tag = "market"
    model = Literal["market"]
    drawings = {"market": MARKET}
    meaning = "A market action: buy one face-up card for its cost in coins, or discard one (rules 8 and 9)."
    example = "market"
    example_where = "die"

    def compile(self, effect: str, compiler: Compiler) -> None:
        return None

    def batch(self, argument: None, batch: Batch) -> tuple[int, ...]:
        return ()

    def batch_form(self, kernel: Kernel) -> BatchForm:
        market_action, game, push, card_list = kernel.market_action, kernel.game, kernel.push, kernel.card_list
        GAME, FLASH_FRAME = kernel.GAME, kernel.FRAME_FLASH

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            flash = market_action(S, R, M, T, A, p, tape)
            if flash >= 0:  # a flash card bought: its effects now, then the rest of this list
                g = game(S)
                g[GAME.DEPTH] += 1
                push(S, card_list(R)[flash], p, FLASH_FRAME, g[GAME.KEPT], 0)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            v[3] = v[3] + 1.0

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, argument: None) -> None:
        rnd.market_action(player)

    def value(self, argument: None, valuer: Valuer) -> Vector:
        return (0.0, 0.0, 0.0, 1.0, 0.0, 0.0)

    def exact(self, argument: None, exact: Exact) -> icepool.Die:
        return outcome(market_actions=1)

    def text(self, effect: str, words: Words) -> str:
        if words.where == "die":
            return "buy or discard another card (not in the round you buy this)"
        if words.where == "card":
            return "buy or discard another card"
        return "buy or discard one market card"

    def icons(self, effect: str, words: Words) -> list[tuple[str, str]]:
        return [("market", "")]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        return st.just("market")
