"""The console front end: the same referee and store at a terminal (``python -m bot console``)."""
