"""On a sensing board the players make the companion's turns: it holds the board while
it thinks, leads it (its words, its squares lit) until the board shows its turn, and
guides a wrong setup with the mismatch words; then the game goes on from the board."""

from __future__ import annotations

import chess
from table_helpers import Loop, ScriptedChessEngine, chess_engine

from companion import games
from companion.cards import Decks
from companion.game import Game
from companion.games.session import GameSession
from companion.sensors.simulated import SimPiece, SimulatedBoard
from companion.sync import PhysicalBoardSession, SyncKind, SyncResult
from companion.sync.stone_session import BoardLeads, Report, StoneBoardSession
from companion.sync.stone_sim import SimulatedStoneBoard
from companion.sync.stones import TurnSeen
from companion.table.chess_table import ChessTable
from companion.table.events import CompanionChose
from companion.table.games_table import GamesTable
from companion.table.lead import BoardLead
from companion.table.runner import CompanionRunner
from companion.table.seats import parse_companions

SQ = chess.parse_square


def _piece(symbol: str) -> SimPiece:
    return SimPiece.of(chess.Piece.from_symbol(symbol))


def test_raindropchess_companion_turns_made_on_the_board() -> None:
    script = ["flip", "K@e8", "flip", "N@g8", "g8f6"]
    with chess_engine(ScriptedChessEngine(script)):
        game = Game(decks=Decks.stacked("KN", "kn"),
                    table=parse_companions(["black"], ("white", "black")).to_dict())
        sim = SimulatedBoard()
        results: list[SyncResult] = []
        board = PhysicalBoardSession(game, sim, results.append)
        board.start()
        loop = Loop()
        runner = CompanionRunner(ChessTable(game), post=loop.post, listener=loop.listen)
        runner.subscribe(BoardLead(board))

        def companion_placed(count: int) -> bool:
            return len(loop.of(CompanionChose)) >= count and not runner.thinking

        # White (a person) flips and sets the king on e1; the board commits it.
        game.flip()
        sim.place(SQ("e1"), _piece("K"))
        assert game.san_history() == ["K@e1"]
        loop.run_until(lambda: companion_placed(2))
        led = results[-1]
        assert led.kind == SyncKind.MISMATCH
        assert led.message.startswith("Black flips: a king. Black: place the king on e8.")
        assert "put the black king on e8" in led.message
        assert led.led.turn == chess.SquareSet([SQ("e8")])
        # The player sets it on the wrong square first: guided, nothing is played.
        sim.place(SQ("d8"), _piece("k"))
        assert results[-1].kind == SyncKind.MISMATCH and "d8" in results[-1].message
        assert game.turn == chess.WHITE and len(game.actions()) == 4
        sim.lift(SQ("d8"))
        sim.place(SQ("e8"))
        assert results[-1].kind == SyncKind.IN_SYNC
        assert results[-1].message.startswith("The board shows it. White")
        # The game goes on from the board: White's knight, Black's knight, White's move.
        game.flip()
        sim.place(SQ("b1"), _piece("N"))
        loop.run_until(lambda: companion_placed(4))
        sim.place(SQ("g8"), _piece("n"))
        assert results[-1].kind == SyncKind.IN_SYNC
        sim.move(SQ("b1"), SQ("c3"))
        assert game.san_history()[-1] == "Nc3"
        loop.run_until(lambda: companion_placed(5))
        chose = loop.of(CompanionChose)[-1]
        assert isinstance(chose, CompanionChose) and chose.words == "Black: knight g8 to f6."
        assert results[-1].led.turn == chess.SquareSet([SQ("g8"), SQ("f6")])
        # A wrong move first (the knight to h6): guided back towards f6.
        sim.move(SQ("g8"), SQ("h6"))
        wrong = results[-1]
        assert wrong.kind == SyncKind.MISMATCH
        assert "put the black knight on f6" in wrong.message and "h6" in wrong.message
        assert game.san_history()[-1] == "Nf6"       # the game keeps the companion's move
        sim.move(SQ("h6"), SQ("f6"))
        assert results[-1].kind == SyncKind.IN_SYNC
        runner.close()
        board.stop()


def test_stone_game_companion_turns_made_on_the_board() -> None:
    rules = games.get("dropper")
    session = GameSession(rules, rules.start(size="4"),
                          table=parse_companions(["black:1"], ("white", "black"),
                                                 playouts=30).to_dict())
    sim = SimulatedStoneBoard(session.position.cells())
    reports: list[Report] = []
    board = StoneBoardSession(session, sim, reports.append)
    board.start()
    loop = Loop()
    runner = CompanionRunner(GamesTable(session), post=loop.post, listener=loop.listen)
    runner.subscribe(BoardLead(board))
    sim.put("c1", "w")                        # White's first turn, made on the board
    assert session.turns == ["c1"] and isinstance(reports[-1], TurnSeen)
    loop.run_until(lambda: len(session.turns) == 2 and not runner.thinking)
    chose = loop.of(CompanionChose)[-1]
    assert isinstance(chose, CompanionChose) and chose.words.startswith("Black: ")
    led = reports[-1]
    assert isinstance(led, BoardLeads) and not led.done
    assert led.message.startswith(chose.words) and "On the board:" in led.message
    # A wrong setup first: guided, and nothing is played from the board.
    wrong = next(c for c, v in sim.cells.items() if v == "." and c not in chose.squares)
    sim.put(wrong, "b")
    guided = reports[-1]
    assert isinstance(guided, BoardLeads) and f"the black stone on {wrong} should be on" in \
        guided.message
    assert len(session.turns) == 2
    sim.take(wrong)
    sim.set_cells(session.position.cells())   # the player makes the turn as said
    assert isinstance(reports[-1], BoardLeads) and reports[-1].done
    # White's next turn is followed from the board again.
    turn = next(iter(rules.turns(session.position)))
    sim.set_cells(rules.play(session.position, turn).cells())
    assert len(session.turns) == 3
    runner.close()
    board.stop()
