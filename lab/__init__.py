"""The camera's lab: training, fitting, labelling, rendering and the labelled data sets.

Not part of the installed runtime: nothing in ``vision``, ``companion`` or ``ui`` imports
it. Run its commands from a source checkout (``python -m lab.train_occupancy ...``); its
extra (``pip install -e '.[lab]'``) holds what training needs. See lab/README.md.
"""
