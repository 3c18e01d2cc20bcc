"""American cards: user-supplied lines of hands (``mjfast-card/1``), compiled to variations.

mjfast ships no published card (the official card is copyrighted): users load a card file they
own with :func:`load_card`; :func:`toy_card` is an invented card for tests and examples. The
format, the pattern language and every query are described in ``docs/american-cards.md``.

>>> from mjfast.card import toy_card
>>> card = toy_card()
>>> card.best("1111m 4444p 7777s 44z", k=1)[0].id
'toy-1'
"""
from ._card import DEAD, Call, Card, CardLine, LineDistance, Match, load_card, toy_card
from ._pattern import CardError

__all__ = ["DEAD", "Call", "Card", "CardError", "CardLine", "LineDistance", "Match", "load_card", "toy_card"]
