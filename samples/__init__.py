"""tidx's lessons: plain Python files that run under real PyTorch too.

Each file's docstring is its title; the comment above each statement is that
statement's narrative.  ``tidx lessons`` lists them and ``tidx lesson NAME`` runs
one; they are read as text, never imported (they ``import torch``).
"""
