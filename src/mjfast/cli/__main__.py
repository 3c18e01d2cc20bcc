"""``python -m mjfast.cli``: the ``mjfast`` command."""
import sys

from . import main

sys.exit(main())
