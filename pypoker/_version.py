"""The package version, in one place (pyproject reads it too)."""

VERSION = "0.1.0"
