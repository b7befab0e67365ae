"""The package's functions without their annotations, for the engine's compiled modules.

Why: every annotated function of the package carried its signature's annotations into its
compiled code (as strings, under `from __future__ import annotations`; in Python 3.14 without
it, as an `__annotate__` function of their own), 0.31 MB of the package's 1.96 MB of .pyc and
51 KB of its 0.57 MB gzipped: bytes a first visit downloads and memory every visit holds, for
type hints that mypy reads from the sources and that nothing reads at run time. Annotations in
a class body stay: dataclasses, NamedTuples and TypedDicts make their fields from them. Line
numbers stay, so tracebacks still point at the right line.

The build's Node script (scripts/pyc.mjs) runs this very file in the engine's Python; the tests
run it here.
"""

from __future__ import annotations

import ast


class _Signatures(ast.NodeTransformer):
    """Leaves out the annotations of every function's parameters and result."""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        self.generic_visit(node)
        _leave_out(node)
        return node

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AsyncFunctionDef:
        self.generic_visit(node)
        _leave_out(node)
        return node


def _leave_out(node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    arguments = node.args
    for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        argument.annotation = None
    for rest in (arguments.vararg, arguments.kwarg):
        if rest is not None:
            rest.annotation = None
    node.returns = None


def unannotated(source: str, filename: str) -> ast.Module:
    """The module's syntax tree with no function annotations, ready for `compile`."""
    return _Signatures().visit(ast.parse(source, filename))
