"""Write the tables made from each pass's declaration (python/passes/): the table ``--fixes`` reads
(python/iree/fixes_table.py), the README's pass table and docs/reference/fixes.md's table.

    python tools/write_pass_tables.py          # write them
    python tools/write_pass_tables.py --check  # exit 1, naming them, where one is stale
"""

import argparse
import sys

from opt_py.iree import pass_tables


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a table is stale")
    args = parser.parse_args()
    files = pass_tables.stale() if args.check else pass_tables.write()
    for path in files:
        print(f"{'stale' if args.check else 'wrote'}: {path}")
    return 1 if args.check and files else 0


if __name__ == "__main__":
    sys.exit(main())
