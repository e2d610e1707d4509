"""What a game is: its definition read from its folder, a table's house rules, who sits
where, how it scores, and its words in each language. Imports nothing of the other wings.
"""
