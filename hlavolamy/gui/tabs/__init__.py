"""The editing tabs: Fields, Colouring, Moves and Blockings."""
