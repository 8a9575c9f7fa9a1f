"""docs/python.md's ```python blocks run, in order, in one namespace."""
import os
import re

import npu_standins  # noqa: F401  (the npu ops the examples' modules call)

SOURCE = os.environ.get("EQFUSE_SOURCE_DIR",
                        os.path.join(os.path.dirname(__file__), "..", ".."))


def test_python_md_examples_run():
    with open(os.path.join(SOURCE, "docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    ns = {}
    for i, code in enumerate(blocks):
        exec(compile(code, f"docs/python.md[python block {i}]", "exec"), ns)
