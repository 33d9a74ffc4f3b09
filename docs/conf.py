"""Sphinx configuration of treadle's documentation (built by scripts/build_docs.sh)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

project = "treadle"
author = "the treadle developers"
copyright = "2026, the treadle developers"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
myst_heading_anchors = 3
exclude_patterns = ["_build"]
html_theme = "alabaster"
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
suppress_warnings = ["myst.xref_missing"]
