"""Shim of the legacy NKI compiler module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "compiler", "legacy")
