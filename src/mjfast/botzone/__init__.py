"""Botzone's Chinese-Standard-Mahjong (placeholder while being written)."""
