"""Shim of the legacy NKI isa module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "isa", "legacy")
