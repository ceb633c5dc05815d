"""Shim of the neuronxcc package: only neuronxcc.nki exists while tracing."""
