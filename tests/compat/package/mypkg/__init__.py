"""Compat fixture: a kernel package whose kernels import a sibling module through the package."""
