"""The rules booklet: context, templates, Markdown, pictures, HTML and PDF, imposition. Uses
sheet, series and game.
"""
