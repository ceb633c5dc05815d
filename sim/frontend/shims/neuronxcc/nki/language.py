"""Shim of the legacy NKI language module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "language", "legacy")
