"""``python -m companion`` runs the ``raindrop`` command."""

import sys

from companion.cli import main

sys.exit(main())
