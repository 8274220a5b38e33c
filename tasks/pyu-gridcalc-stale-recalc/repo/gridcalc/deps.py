"""Which cells read which, so a change recomputes exactly the cells it affects."""


class DependencyGraph:
    """Edges from each formula cell to the cells it reads (its precedents) and back."""

    def __init__(self):
        self._precedents = {}
        self._dependents = {}

    def set_precedents(self, cell, precedents):
        """Record that ``cell`` now reads exactly ``precedents`` (replacing what it read before)."""
        for old in self._precedents.pop(cell, ()):
            readers = self._dependents.get(old)
            if readers is not None:
                readers.discard(cell)
                if not readers:
                    del self._dependents[old]
        precedents = set(precedents)
        if precedents:
            self._precedents[cell] = precedents
            for key in precedents:
                self._dependents.setdefault(key, set()).add(cell)

    def precedents(self, cell):
        """The cells ``cell`` reads directly."""
        return frozenset(self._precedents.get(cell, ()))

    def dependents(self, cell):
        """The cells that read ``cell`` directly."""
        return frozenset(self._dependents.get(cell, ()))

    def recalc_order(self, changed):
        """``changed`` and every cell that depends on them, directly or not.

        Each cell comes after every cell it reads from the same list, so evaluating in this
        order sees fresh values. Cells on a cycle come in no particular order among themselves.
        """
        order = []
        seen = set()

        def visit(cell):
            for reader in sorted(self._dependents.get(cell, ())):
                if reader not in seen:
                    seen.add(reader)
                    order.append(reader)
                    visit(reader)

        for cell in sorted(changed):
            if cell not in seen:
                seen.add(cell)
                order.append(cell)
                visit(cell)
        return order

    def cyclic_cells(self):
        """Every cell that is part of a reference cycle (a cell reading itself included)."""
        index_of, low, on_stack, stack = {}, {}, set(), []
        cyclic = set()
        counter = [0]

        def strongconnect(cell):
            index_of[cell] = low[cell] = counter[0]
            counter[0] += 1
            stack.append(cell)
            on_stack.add(cell)
            for nxt in self._precedents.get(cell, ()):
                if nxt not in index_of:
                    strongconnect(nxt)
                    low[cell] = min(low[cell], low[nxt])
                elif nxt in on_stack:
                    low[cell] = min(low[cell], index_of[nxt])
            if low[cell] == index_of[cell]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == cell:
                        break
                if len(component) > 1 or cell in self._precedents.get(cell, ()):
                    cyclic.update(component)

        for cell in sorted(self._precedents):
            if cell not in index_of:
                strongconnect(cell)
        return cyclic
