import sys

from hlavolamy.cli import main

sys.exit(main())
