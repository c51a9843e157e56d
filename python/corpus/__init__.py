"""The model corpora under test/models/ and test/library_models/: how each model is built and exported, and
the checks run over them, shared by the scripts that write or sweep them (tools/export_models.py,
tools/export_library_models.py, tools/check_const_eval.py, the benches) and the tests that check them.

The exporters need the `models` extra (torch, iree-turbine; transformers and diffusers for the library
models); ``export_cli`` and ``const_eval_check`` need neither.
"""
