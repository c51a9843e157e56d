import sys

from .tool.cli import main

sys.exit(main())
