"""A small kernel package of KernelLens's own: relative imports, an enum and an NKIObject config."""
