"""Forward-mode AD (filled in below)."""
