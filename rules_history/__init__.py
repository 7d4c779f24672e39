"""rules-history: the command line that wires crawler, archive and renderer together."""
