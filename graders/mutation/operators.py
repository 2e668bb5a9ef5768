"""The mutation operators: which small faults are planted in the reference solution.

Most come from cosmic-ray (``cosmic_ray.operators``), driven as a library: each operator lists
the positions it can mutate in a parso tree and ``cosmic_ray.mutating.mutate_code`` applies one
occurrence, with no cosmic-ray session, database or test runner. Only a chosen subset of its
replacements is used (``<`` becomes ``<=`` or ``>=``, not every other comparison), so that the
score is not dominated by a dozen near-identical mutants per operator.

cosmic-ray has no operator that removes a statement, swaps the branches of an ``if``/``else``,
turns ``+=`` into ``-=`` or ``in`` into ``not in``: those four are written here, on the same
parso trees and the same :class:`cosmic_ray.operators.operator.Operator` interface, so every
mutant is made the same way. (mutmut 3.8.1 was ruled out: its mutators are internal functions
that feed its trampoline files, applied only inside functions and only through its own runner.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import parso
from cosmic_ray.operators.operator import Example, Operator
from cosmic_ray.plugins import get_operator
from parso.python import tree

# cosmic-ray operator name -> (category, what it does, as a survivor's line shows it)
COSMIC: dict[str, tuple[str, str]] = {
    "ReplaceComparisonOperator_Eq_NotEq": ("comparison", "== -> !="),
    "ReplaceComparisonOperator_NotEq_Eq": ("comparison", "!= -> =="),
    "ReplaceComparisonOperator_Lt_LtE": ("comparison", "< -> <="),
    "ReplaceComparisonOperator_Lt_GtE": ("comparison", "< -> >="),
    "ReplaceComparisonOperator_LtE_Lt": ("comparison", "<= -> <"),
    "ReplaceComparisonOperator_LtE_Gt": ("comparison", "<= -> >"),
    "ReplaceComparisonOperator_Gt_GtE": ("comparison", "> -> >="),
    "ReplaceComparisonOperator_Gt_LtE": ("comparison", "> -> <="),
    "ReplaceComparisonOperator_GtE_Gt": ("comparison", ">= -> >"),
    "ReplaceComparisonOperator_GtE_Lt": ("comparison", ">= -> <"),
    "ReplaceComparisonOperator_Is_IsNot": ("comparison", "is -> is not"),
    "ReplaceComparisonOperator_IsNot_Is": ("comparison", "is not -> is"),
    "ReplaceBinaryOperator_Add_Sub": ("arithmetic", "+ -> -"),
    "ReplaceBinaryOperator_Sub_Add": ("arithmetic", "- -> +"),
    "ReplaceBinaryOperator_Mul_Div": ("arithmetic", "* -> /"),
    "ReplaceBinaryOperator_Div_Mul": ("arithmetic", "/ -> *"),
    "ReplaceBinaryOperator_FloorDiv_Div": ("arithmetic", "// -> /"),
    "ReplaceBinaryOperator_Mod_FloorDiv": ("arithmetic", "% -> //"),
    "ReplaceBinaryOperator_Pow_Mul": ("arithmetic", "** -> *"),
    "ReplaceUnaryOperator_USub_UAdd": ("arithmetic", "-x -> +x"),
    "ReplaceAndWithOr": ("boolean", "and -> or"),
    "ReplaceOrWithAnd": ("boolean", "or -> and"),
    "AddNot": ("boolean", "condition -> not condition"),
    "ReplaceUnaryOperator_Delete_Not": ("boolean", "not x -> x"),
    "ReplaceTrueWithFalse": ("constant", "True -> False"),
    "ReplaceFalseWithTrue": ("constant", "False -> True"),
    "NumberReplacer": ("constant", "number +1 / -1"),
    "ReplaceBreakWithContinue": ("statement", "break -> continue"),
    "ReplaceContinueWithBreak": ("statement", "continue -> break"),
    "ZeroIterationForLoop": ("statement", "for loop over []"),
    "RemoveDecorator": ("statement", "decorator removed"),
}


class RemoveStatement(Operator):
    """Replace one simple statement (not a docstring, ``pass`` or import) with ``pass``."""

    KEPT = frozenset({"import_name", "import_from", "global_stmt", "nonlocal_stmt"})

    def mutation_positions(self, node: Any) -> Iterator[Any]:
        if node.type == "simple_stmt":
            for child in _statements(node):
                yield (child.start_pos, child.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        target = list(_statements(node))[index]
        slot = node.children.index(target)
        node.children[slot] = tree.Keyword("pass", target.start_pos, target.get_first_leaf().prefix)
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("x = 1\n", "pass\n"),)


def _statements(simple_stmt: Any) -> Iterator[Any]:
    """The statements of one line worth removing: not ``;``, ``...``, ``pass``, an import,
    nor a bare string (a docstring: removing it changes nothing)."""
    for child in simple_stmt.children:
        if child.type in ("newline", "operator", "string", "strings") \
                or child.type in RemoveStatement.KEPT:
            continue
        if child.type == "keyword" and child.value == "pass":
            continue
        yield child


class SwapIfElse(Operator):
    """Swap the body of an ``if`` with its ``else`` body; ``a if c else b`` becomes
    ``b if c else a``."""

    def mutation_positions(self, node: Any) -> Iterator[Any]:
        if node.type == "if_stmt" and _has_else(node):
            yield (node.start_pos, node.children[3].start_pos)
        elif node.type == "test" and len(node.children) == 5:
            yield (node.start_pos, node.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        first, last = (3, -1) if node.type == "if_stmt" else (0, 4)
        a, b = node.children[first], node.children[last]
        a_leaf, b_leaf = a.get_first_leaf(), b.get_first_leaf()
        a_leaf.prefix, b_leaf.prefix = b_leaf.prefix, a_leaf.prefix
        node.children[first], node.children[last] = b, a
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("x = a if c else b", "x = b if c else a"),)


def _has_else(node: Any) -> bool:
    return any(child.type == "keyword" and child.value == "else" for child in node.children)


class SwapAugmentedAssignment(Operator):
    """``+=`` <-> ``-=``, ``*=`` <-> ``//=``, ``/=`` -> ``*=``."""

    SWAPS = {"+=": "-=", "-=": "+=", "*=": "//=", "//=": "*=", "/=": "*="}

    def mutation_positions(self, node: Any) -> Iterator[Any]:
        if node.type == "operator" and node.value in self.SWAPS:
            yield (node.start_pos, node.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        node.value = self.SWAPS[node.value]
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("x += 1", "x -= 1"),)


class SwapIn(Operator):
    """``in`` <-> ``not in`` in a comparison."""

    def mutation_positions(self, node: Any) -> Iterator[Any]:
        if node.type == "comparison":
            for op in node.children[1::2]:
                if op.get_code().split() in (["in"], ["not", "in"]):
                    yield (op.start_pos, op.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        ops = [i for i, op in enumerate(node.children)
               if i % 2 and op.get_code().split() in (["in"], ["not", "in"])]
        slot = ops[index]
        new = "in" if node.children[slot].get_code().split() == ["not", "in"] else "not in"
        node.children[slot] = parso.parse(" " + new)
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("x in y", "x not in y"),)


OWN: dict[str, tuple[str, type[Operator], str]] = {
    "RemoveStatement": ("statement", RemoveStatement, "statement -> pass"),
    "SwapIfElse": ("branch", SwapIfElse, "if/else branches swapped"),
    "SwapAugmentedAssignment": ("arithmetic", SwapAugmentedAssignment, "augmented op swapped"),
    "SwapIn": ("comparison", SwapIn, "in <-> not in"),
}


def operators() -> dict[str, tuple[str, str, Operator]]:
    """Every operator used, by name: ``(category, description, operator instance)``."""
    found: dict[str, tuple[str, str, Operator]] = {}
    for name, (category, description) in COSMIC.items():
        found[name] = (category, description, get_operator(f"core/{name}")())
    for name, (category, kind, description) in OWN.items():
        found[name] = (category, description, kind())
    return found
