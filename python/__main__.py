import sys

from .tool.client import main

sys.exit(main())
