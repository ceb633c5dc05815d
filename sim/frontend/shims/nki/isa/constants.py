"""Shim of the nki isa.constants module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "constants", "nki")
