"""Keep the pictures' catalogue (``locale/zh_CN/LC_MESSAGES/viz.po`` and ``viz.mo``) in step with the code.

    python -m mini_autograd.viz.catalogue update   # the code's messages into viz.po (new ones untranslated,
                                                   # gone ones dropped), then viz.mo compiled from it
    python -m mini_autograd.viz.catalogue check    # exit 1, saying what, unless every message is translated,
                                                   # none unused, fields kept, and viz.mo is viz.po compiled

A message is a string written out in ``_("...")`` or ``N_("...")`` in ``mini_autograd/viz/*.py`` (see
``i18n.py``). Needs polib (in the test extra); the pictures themselves need only the standard library's
gettext. Edit the ``msgstr`` lines of viz.po in any gettext editor or a text editor, then ``update``
again to compile.
"""
import ast
import pathlib
import string
import sys
import tempfile

from .i18n import CATALOGUE_LANGUAGE, DOMAIN, LOCALE

HERE = pathlib.Path(__file__).resolve().parent
PO = LOCALE / CATALOGUE_LANGUAGE / "LC_MESSAGES" / f"{DOMAIN}.po"
MO = PO.with_suffix(".mo")
# Fields only English grammar needs: a translation may leave them out (1st, 2nd: "第 1 个").
ENGLISH_ONLY_FIELDS = {"{ordinal_suffix}"}
HEADER = """Chinese (zh_CN) translations of the words of the graph pictures and the engine trace
(mini_autograd/viz). Made and kept in step by `python -m mini_autograd.viz.catalogue update`.
Keep every {field} of a msgid in its msgstr ({ordinal_suffix} may go); PyTorch's names stay as they are;
terms as in chapter 00's glossary (notebooks/src/zh/00_welcome.po)."""


def sources():
    return sorted(path for path in HERE.glob("*.py") if path.name != "catalogue.py")


def marked_messages(source):
    """``[(msgid, line)]``: the strings written out in ``_("...")`` and ``N_("...")`` in Python ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_"):
            argument = node.args[0] if node.args else None
            if isinstance(argument, ast.JoinedStr):
                raise ValueError(f"line {node.lineno}: {node.func.id}() takes a template, not an f-string")
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.append((argument.value, node.lineno))
    return sorted(found, key=lambda pair: pair[1])


def extracted():
    """``{msgid: ["mini_autograd/viz/file.py:line", ...]}`` of every message in the code."""
    messages = {}
    for path in sources():
        where = path.relative_to(HERE.parent.parent).as_posix()
        for msgid, line in marked_messages(path.read_text(encoding="utf-8")):
            messages.setdefault(msgid, []).append(f"{where}:{line}")
    return messages


def fields(text):
    """The ``{name!r:spec}`` fields of a template."""
    try:
        return {f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
                for _text, name, spec, conversion in string.Formatter().parse(text) if name is not None}
    except ValueError as error:
        return {f"(not a template: {error})"}


def read():
    import polib
    return polib.pofile(str(PO), wrapwidth=0) if PO.exists() else None


def compile_mo(target=MO):
    read().save_as_mofile(str(target))


def update():
    """Merge the code's messages into viz.po (translations kept, each with where it is used), then compile
    viz.mo."""
    import polib
    old = read()
    previous = {entry.msgid: entry for entry in old} if old is not None else {}
    catalogue = polib.POFile(wrapwidth=0)
    catalogue.header = HEADER
    catalogue.metadata = {"Project-Id-Version": "mini_autograd viz", "Language": CATALOGUE_LANGUAGE,
                          "MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8",
                          "Content-Transfer-Encoding": "8bit"}
    for msgid, places in extracted().items():
        entry = polib.POEntry(msgid=msgid, msgstr="", occurrences=[tuple(p.rsplit(":", 1)) for p in places])
        if msgid in previous:
            entry.msgstr, entry.flags = previous[msgid].msgstr, list(previous[msgid].flags)
        flags = set(entry.flags) - {"python-brace-format"}
        entry.flags = sorted(flags | ({"python-brace-format"} if fields(msgid) else set()))
        catalogue.append(entry)
    PO.parent.mkdir(parents=True, exist_ok=True)
    catalogue.save(str(PO))
    compile_mo()


def problems():
    """What is wrong with the catalogue: messages missing, untranslated, fuzzy or unused, fields lost or
    added, a ``.mo`` that is not the ``.po`` compiled."""
    catalogue = read()
    if catalogue is None:
        return [f"{PO} is missing: run python -m mini_autograd.viz.catalogue update"]
    entries = {entry.msgid: entry for entry in catalogue if not entry.obsolete}
    wanted = extracted()
    found = [f"not in the catalogue: {msgid!r} ({', '.join(places)})"
             for msgid, places in wanted.items() if msgid not in entries]
    found += [f"unused: {msgid!r}" for msgid in entries if msgid not in wanted]
    for msgid, entry in entries.items():
        if not entry.msgstr:
            found.append(f"not translated: {msgid!r}")
        elif entry.fuzzy:
            found.append(f"fuzzy: {msgid!r}")
        else:
            kept, given = fields(msgid), fields(entry.msgstr)
            if not given <= kept or kept - given - ENGLISH_ONLY_FIELDS:
                found.append(f"the fields of {msgid!r} are {sorted(kept)}, "
                             f"its translation has {sorted(given)}")
    with tempfile.TemporaryDirectory() as folder:
        fresh = pathlib.Path(folder) / "fresh.mo"
        compile_mo(fresh)
        if not MO.exists() or MO.read_bytes() != fresh.read_bytes():
            found.append(f"{MO} is not the compiled {PO.name}: "
                         "run python -m mini_autograd.viz.catalogue update")
    return found


def main(arguments=None):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m mini_autograd.viz.catalogue",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["update", "check"])
    options = parser.parse_args(arguments)
    if options.command == "update":
        update()
    found = problems()
    print("\n".join(found) or "Every message of the pictures has its translation.")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
