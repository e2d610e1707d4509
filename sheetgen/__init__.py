"""sheetgen: the paper that goes on a Skip-Bo table."""

__version__ = "0.1.0"
