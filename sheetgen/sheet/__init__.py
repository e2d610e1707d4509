"""The score sheet: one layout, painted blank or filled, and the race chart. Uses series and
game.
"""
