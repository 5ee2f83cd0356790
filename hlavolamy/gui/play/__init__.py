"""The Play tab: the drawing in the middle and the side panel's pages."""
