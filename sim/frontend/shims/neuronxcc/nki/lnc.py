"""Shim of the legacy NKI lnc module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "lnc", "legacy")
