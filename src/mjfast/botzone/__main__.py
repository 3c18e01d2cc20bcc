"""``python -m mjfast.botzone --policy NAME_OR_MODULE:CLASS``: see :mod:`mjfast.botzone._main`."""
from ._main import main

raise SystemExit(main())
