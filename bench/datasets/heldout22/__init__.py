"""Issue 22's held-out labelled sets (never used to choose defaults) and the harness's peers."""
