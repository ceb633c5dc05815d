"""Shim of the legacy NKI isa.constants module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "constants", "legacy")
