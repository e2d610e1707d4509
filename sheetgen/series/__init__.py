"""A table's recorded games: series files in each format, recording, standings and exports.
Uses game.
"""
