"""Fat objects whose bitcode a derivative needs join the LTO unit.

A fat object (clang's ``-ffat-lto-objects`` writes ``.llvm.lto``, ``-fembed-bitcode`` and rustc
write ``.llvmbc``), alone or as an archive member, links as native code like any object. When a
function a derivative may call has no body in the LTO unit but a fat object of the link defines
it, that object's bitcode replaces its native code (member granularity: never both copies), and
the new bodies are searched again. Bitcode nobody's derivative needs is never parsed, so a
library whose bitcode is from another LLVM version links as before unless AD needs it.
"""

from __future__ import annotations

import llvmlite.binding as llvm

from gradlink.ad.errors import ADError
from gradlink.ad.reach import bodies_needed
from lto import merge
from lto.diag import LinkError, Log
from lto.inputs import Unit
from lto.resolve import Resolution


def pull_fat_bitcode(module: llvm.ModuleRef, res: Resolution, log: Log,
                     definitions: list[tuple[str, set[str]]] | None) -> list[Unit]:
    """Link into ``module`` the bitcode of every fat native unit of ``res`` defining a function
    the derivatives need, moving those units from ``res.native`` to ``res.bitcode``. Returns
    the units pulled, in the order they joined."""
    pulled: list[Unit] = []
    while True:
        fat = {sym.name: u for u in res.native if u.fat for sym in u.symbols
               if sym.defined and not sym.common}
        if not fat:
            return pulled
        wanted: dict[int, tuple[Unit, str, str]] = {}
        try:
            needed = bodies_needed(str(module))
        except ADError as e:
            raise LinkError(str(e)) from None
        for name, referrer in needed.items():
            unit = fat.get(name)
            if unit is not None and id(unit) not in wanted:
                wanted[id(unit)] = (unit, name, referrer)
        if not wanted:
            return pulled
        units = []
        for unit, name, referrer in wanted.values():
            log.note(f"bitcode of {unit.display} joins the LTO unit for '{name}' (AD needs its "
                     f"body: named by {referrer})")
            unit.use_bitcode()
            try:
                _ = unit.module              # parse it now: a bad bitcode is named here
            except LinkError as e:
                raise LinkError(f"{e} (AD needs the body of '{name}', which it defines, "
                                f"named by {referrer})") from None
            res.native.remove(unit)
            res.bitcode.append(unit)
            units.append(unit)
        merge.link_more(module, units, definitions)
        pulled.extend(units)
