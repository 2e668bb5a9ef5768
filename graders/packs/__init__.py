"""The folder of assignment packs, one sub-package per assignment id.

The pack model is :mod:`graders.pack`; this package only gives each pack's modules their
import names (``graders.packs.<id>.<module>``).
"""
