"""Export the library-model corpus under test/library_models/ with iree-turbine.

The models (Hugging Face ``transformers`` and ``diffusers`` architectures from
tiny configs, random weights from a fixed seed) and how each is exported are
python/corpus/library_models.py's; the files are those of
tools/export_models.py, with ``source`` (library, class, config) and the
library versions in the manifest.

Needs the `models` extra (torch, iree-turbine, transformers, diffusers):

    python tools/export_library_models.py              # all models
    python tools/export_library_models.py mixtral_sdpa_dyn  # some
"""

import sys

from opt_py.corpus import export_cli, library_models


def main(argv=None) -> int:
    return export_cli.main(
        argv,
        description=__doc__.splitlines()[0],
        specs=library_models.SPECS,
        export=library_models.export,
        out=library_models.OUT,
        widths=(28, 14),
    )


if __name__ == "__main__":
    sys.exit(main())
