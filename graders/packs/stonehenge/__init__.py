"""The Stonehenge pack (UofT CSC148, Winter 2018, A2): game, two minimax strategies, style."""
