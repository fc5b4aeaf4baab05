# lit configuration of gradlink's IR tests: each .ll file is one behaviour of the AD compiler,
# checked with FileCheck on what `gradlink ad` prints (the module as the AD stage leaves it).
# Run: /usr/lib/llvm-22/bin/lit -Dgradlink=.venv/bin/gradlink tests/ir   (tests/test_ir_lit.py)
import os

import lit.formats

config.name = "gradlink-ir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs"]

gradlink = lit_config.params.get("gradlink")
if not gradlink:
    lit_config.fatal("pass -Dgradlink=PATH/TO/gradlink (the venv's gradlink command)")
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join([llvm_bin, os.environ.get("PATH", "")])
config.substitutions.append(("%gradlink", os.path.abspath(gradlink)))
