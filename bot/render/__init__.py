"""One content model (`model.py`) rendered twice: Block Kit (`blocks.py`) and terminal text (`text.py`)."""
