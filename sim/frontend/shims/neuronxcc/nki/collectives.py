"""Shim of the legacy NKI collectives module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "collectives", "legacy")
