"""Export the real-model corpus under test/models/ with iree-turbine.

Each model is a small PyTorch module with random weights from a fixed seed
(no downloads; python/corpus/models.py). For each one this writes
test/models/<name>/:

  model.mlir      torch-dialect MLIR, ``iree.turbine.aot.export(...).save_mlir``
  input<i>.npy    the inputs the test runs with (dynamic dims at sizes other
                  than the export example, so the dynamism is exercised)
  expected<i>.npy PyTorch's outputs on those inputs
  manifest.json   function, family, dynamic dims, tolerance, shapes; the
                  hand-kept "known" (stock IREE failures) and "slow" (targets
                  whose compile is slow) entries are preserved

Needs the `models` extra (torch, iree-turbine):

    python tools/export_models.py              # all models
    python tools/export_models.py topk_dynamic # some
"""

import sys

from opt_py.corpus import export_cli, models


def main(argv=None) -> int:
    return export_cli.main(
        argv,
        description=__doc__.splitlines()[0],
        specs=models.SPECS,
        export=models.export,
        out=models.OUT,
        widths=(32, 10),
    )


if __name__ == "__main__":
    sys.exit(main())
