"""Revisions of the registry schema, oldest first (0001, 0002, ...)."""
