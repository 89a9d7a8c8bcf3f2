"""The words the build track and the exercise checks print, in the learner's language: English or Chinese.

The course's texts are written in English, in the code. Their Chinese (中文) translations are gettext
catalogues in ``locale/zh_CN/LC_MESSAGES/``, one per domain, each a ``.po`` file (edited by hand or in any
gettext editor) and its compiled ``.mo`` (what the standard library's ``gettext`` reads):

- ``buildtrack``: the build track's verdicts (``notebooks/buildtrack/*.py``): ``_("...")`` marks a message,
  ``N_("...")`` a message kept in a constant and translated where it is used, and a step's title and pieces
  (``@step(id, title, pieces)``) are messages too. A message with values is a template with named fields,
  ``_("x.grad is {got}, expected {want}").format(got=..., want=...)``: the translation moves the fields
  where Chinese wants them.
- ``coursetools``: the exercise checks and the set-up check (``notebooks/coursetools.py``), marked the same
  way.
- ``chapters``: what a chapter's code hands to those checks (``right=``, ``hint=``, a message made with an
  f-string), in its code cells or in its exercises' checks (``notebooks/exercises/chNN.py``, which the
  exercise check cells call: ``check_exercise("1.1")``), and the chapter's own words that its code prints or
  draws, each written in ``tr("...")`` (``coursetools.tr``: a printed label, a plot's title, axis label or
  legend; an exercise's names for the entries of its answer, ``parts=``). The code cells
  are the same in both editions, so those texts arrive in English, made: each is found in its catalogue as
  it was written in the chapter source (``f"... {hint}"`` is the template ``... {hint}``;
  ``tr(f"loss after {steps} steps")`` the template ``loss after {steps} steps``), and its values, themselves
  texts of the chapter (a hint), are translated too. A ``tr`` text may be a single word (``tr("step")``).

Which language a message is in (the first rule that applies):

1. ``BUILDTRACK_LANG``: ``zh`` (any value starting with ``zh``) for Chinese, any other value for English;
2. the working directory: the Chinese edition's folder (a folder named ``zh`` holding the chapters, or lying
   in the English edition's folder: ``notebooks/zh``, or a copy of it), where a Chinese chapter's kernel
   starts (JupyterLab, nbclient, nbval), gives Chinese;
3. for ``python -m buildtrack`` (``make progress``) only: a Chinese locale (``LANGUAGE``, ``LC_ALL``,
   ``LC_MESSAGES`` or ``LANG``, the first one set, starting with ``zh``; ``make progress LANG=zh``);
4. English.

Rules 1 and 2 are the pictures' rule, ``mini_autograd/viz/i18n.py``'s ``language()``, imported from there (the
engine must not import the course's helpers; a test checks that both agree). So an English chapter's kernel
speaks English on a machine set up in Chinese, and the Chinese edition's speaks Chinese anywhere. A message
with no translation yet is shown in English (the tests refuse that).

Keeping the catalogues in step (needs polib, in the test extra):

    cd notebooks && python -m buildtrack --translations update   # new messages into the .po; .mo compiled
    cd notebooks && python -m buildtrack --translations check    # every message translated, none unused
"""
import functools
import gettext
import pathlib
import re
import struct

# The language rule is the pictures' (mini_autograd/viz/i18n.py): one rule for the whole course, kept in the
# engine, which must not import the course's helpers. buildtrack's names for it stay as they were.
from mini_autograd.viz.i18n import CHINESE_LOCALE_VARIABLES as CHINESE_LOCALE_VARIABLES
from mini_autograd.viz.i18n import chinese_folder, language, width
from mini_autograd.viz.i18n import locale_is_chinese as locale_is_chinese

HERE = pathlib.Path(__file__).resolve().parent
NOTEBOOKS = HERE.parent
LOCALE = HERE / "locale"
CATALOGUE_LANGUAGE = "zh_CN"
DOMAINS = ("buildtrack", "coursetools", "chapters")


# ---------------------------------------------------------------- which language
# language(), chinese_folder() and locale_is_chinese() are mini_autograd.viz.i18n's (imported above).
_chinese_folder = chinese_folder


# ---------------------------------------------------------------- translating
@functools.cache
def translations(domain, lang):
    """The standard library's gettext catalogue of ``domain`` in ``lang`` (English: the texts as written)."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE, languages=[CATALOGUE_LANGUAGE], fallback=True)


def _(message):
    """A message of the build track, in the learner's language."""
    return translations("buildtrack", language()).gettext(message)


def N_(message):
    """Marks a message kept in a constant: found by the catalogue's extraction, translated where used."""
    return message


def in_domain(domain):
    """``_`` for another domain: ``coursetools`` uses ``in_domain("coursetools")``."""
    def translate(message):
        return translations(domain, language()).gettext(message)
    return translate


# ---------------------------------------------------------------- the chapters' texts: templates
FIELD = re.compile(r"\{\{|\}\}|\{(?:[^{}]|\{[^{}]*\})*\}")


def template_pieces(template):
    """``[("text", ...), ("field", "{...}"), ...]``: a chapter text's template (``{{``/``}}`` are braces)."""
    pieces, position = [], 0
    for found in FIELD.finditer(template):
        text = template[position:found.start()]
        token = found.group(0)
        if token in ("{{", "}}"):
            text += token[0]
        if text:
            if pieces and pieces[-1][0] == "text":
                pieces[-1] = ("text", pieces[-1][1] + text)
            else:
                pieces.append(("text", text))
        if token not in ("{{", "}}"):
            pieces.append(("field", token))
        position = found.end()
    if template[position:]:
        if pieces and pieces[-1][0] == "text":
            pieces[-1] = ("text", pieces[-1][1] + template[position:])
        else:
            pieces.append(("text", template[position:]))
    return pieces


def template_fields(template):
    return sorted(value for kind, value in template_pieces(template) if kind == "field")


def _read_mo(path):
    """``{msgid: msgstr}`` of a compiled catalogue (GNU .mo), every entry, in the file's order."""
    data = path.read_bytes()
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    _revision, count, originals, translated = struct.unpack(order + "4I", data[4:20])
    entries = {}
    for i in range(count):
        length, offset = struct.unpack(order + "2I", data[originals + 8 * i:originals + 8 * i + 8])
        t_length, t_offset = struct.unpack(order + "2I", data[translated + 8 * i:translated + 8 * i + 8])
        msgid = data[offset:offset + length].decode()
        if msgid:                                     # (the header)
            entries[msgid] = data[t_offset:t_offset + t_length].decode()
    return entries


class _Templates:
    """The chapters' catalogue, ready to find a made text's template: plain texts by their words, templates
    with values tried most specific first (the most words outside their fields)."""

    def __init__(self, catalogue):
        self.plain, self.templates, self.memo = {}, [], {}
        for msgid, msgstr in catalogue.items():
            pieces = template_pieces(msgid)
            if all(kind == "text" for kind, _ in pieces):
                self.plain["".join(value for _, value in pieces)] = template_pieces(msgstr)
                continue
            words = "".join(value for kind, value in pieces if kind == "text")
            self.templates.append((pieces, template_pieces(msgstr), bool(re.search(r"[A-Za-z]", words))))
        self.templates.sort(key=lambda t: -sum(len(v) for kind, v in t[0] if kind == "text"))

    def translate(self, text, depth=0, composed=True):
        """``text`` in Chinese if it is a chapter text (its values translated too), else None; ``composed``:
        also as texts put together by a template with no words of its own (``f"{problem} {hint}"``)."""
        key = (text, depth, composed)
        if key not in self.memo:
            if len(self.memo) > 4096:
                self.memo.clear()
            self.memo[key] = self._translate(text, depth, composed)
        return self.memo[key]

    def _translate(self, text, depth, composed):
        if text in self.plain:
            return _fill(self.plain[text], {})
        if depth > 6 or not text.strip():
            return None

        def known(part):                              # a text of the chapter's own, not one put together
            return bool(part.strip()) and self.translate(part, depth + 1, composed=False) is not None

        for pieces, translated, has_words in self.templates:
            # A template with no words of its own (f"{problem} {hint}", f"{hint} ({name}: {error})") takes a
            # text only when one of its fields is a text it knows.
            if not has_words and not composed:
                continue
            accept = None if has_words else (lambda found: all(part.strip() for part in found.values()) and
                                             any(known(part) for part in found.values()))
            found = _match(pieces, text, accept)
            if found is not None:
                values = {token: _refit(self.translate(value, depth + 1) or value, _field_width(token))
                          for token, value in found.items()}
                return _fill(translated, values)
        stripped = text.strip()
        if stripped != text:                          # (f" {likely}": a text with a space before it)
            inner = self.translate(stripped, depth + 1, composed)
            if inner is None:
                return None
            start = text.index(stripped[0])
            return text[:start] + inner + text[start + len(stripped):]
        return None


def _fill(pieces, values):
    return "".join(values.get(value, value) if kind == "field" else value for kind, value in pieces)


def _field_width(token):
    """The width a field's format spec asks for (``{name:15}``, ``{x:>8.2f}``: 15, 8), else 0."""
    depth, quote = 0, None
    for position, character in enumerate(token[1:-1], start=1):
        if quote:
            quote = None if character == quote else quote
        elif character in "'\"":
            quote = character
        elif character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        elif character == ":" and depth == 0:
            found = re.match(r"(?:.?[<>=^])?[-+ ]?z?#?0?(\d+)", token[position + 1:-1])
            return int(found.group(1)) if found else 0
    return 0


def _refit(value, columns):
    """A field's text padded to ``columns`` characters, padded to as many columns instead: a Chinese
    character takes two (``f"{name:15}"`` of a translated name keeps the table's columns)."""
    while columns and width(value) > columns and " " in (value[:1], value[-1:]):
        value = value[:-1] if value.endswith(" ") else value[1:]
    return value


def _match(pieces, text, accept=None):
    """``{field token: the text it stands for}`` if ``text`` is ``pieces`` filled in, else None. Fields take
    the shortest text that lets the rest match (``accept``, when given, must accept the fields' texts)."""
    def go(index, position, found):
        if index == len(pieces):
            return found if position == len(text) and (accept is None or accept(found)) else None
        kind, value = pieces[index]
        if kind == "text":
            return go(index + 1, position + len(value), found) if text.startswith(value, position) else None
        columns = _field_width(value)                    # (a field with a width: at least that wide)
        if index + 1 == len(pieces):
            ends = [len(text)]
        elif pieces[index + 1][0] == "field":           # (two fields side by side: f"{a:5}{b:8}")
            ends = range(position, len(text) + 1)
        else:
            following = pieces[index + 1][1]
            ends, start = [], position
            while (start := text.find(following, start)) >= 0:
                ends.append(start)
                start += 1
        if columns:                                      # (those at least as wide as the field's width first)
            ends = sorted(ends, key=lambda end: width(text[position:end]) < columns)
        for end in ends:
            part = text[position:end]
            if value in found and found[value] != part:
                continue
            result = go(index + 1, end, {**found, value: part})
            if result is not None:
                return result
        return None
    return go(0, 0, {})


@functools.cache
def _chapter_templates(lang):
    path = LOCALE / CATALOGUE_LANGUAGE / "LC_MESSAGES" / "chapters.mo"
    if lang == "en" or not path.exists():
        return None
    return _Templates({msgid: msgstr for msgid, msgstr in _read_mo(path).items() if msgstr})


@functools.lru_cache(maxsize=1024)
def _chapter_text(text, lang):
    templates = _chapter_templates(lang)
    if templates is None:
        return text
    translated = templates.translate(text)
    return text if translated is None else translated


def chapter_text(text):
    """A text a chapter's code cell handed to a check (a hint, a message it made), in the learner's
    language."""
    if not isinstance(text, str) or not text:
        return text
    return _chapter_text(text, language())


# ---------------------------------------------------------------- the catalogues: extraction
def mo_path(domain):
    return LOCALE / CATALOGUE_LANGUAGE / "LC_MESSAGES" / f"{domain}.mo"


def po_path(domain):
    return mo_path(domain).with_suffix(".po")


def sources(domain):
    if domain == "buildtrack":
        return sorted(HERE.glob("*.py"))
    if domain == "coursetools":
        return [NOTEBOOKS / "coursetools.py"]
    return (sorted((NOTEBOOKS / "src").glob("[0-9][0-9]_*.py"))
            + sorted((NOTEBOOKS / "exercises").glob("ch*.py")))         # (the exercises' checks)


# (function name, positions of its message arguments): _("..."), N_("..."), @step(id, title, pieces)
MARKERS = {"_": (0,), "N_": (0,), "step": (1, 2)}


def marked_messages(source):
    """``[(msgid, line)]`` of the messages marked in Python ``source``: the strings written out in
    ``_("...")``, ``N_("...")`` and ``@step(id, title, pieces)``."""
    import ast
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
            for position in MARKERS[node.func.id]:
                argument = node.args[position] if position < len(node.args) else None
                if isinstance(argument, ast.JoinedStr):
                    raise ValueError(f"line {node.lineno}: {node.func.id}() takes a template, "
                                     "not an f-string")
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found.append((argument.value, node.lineno))
                # (anything else translates a message marked where it was written: _(MISTAKES[key]))
    return sorted(found, key=lambda pair: pair[1])


# Where a chapter's code cell hands a text to coursetools: {function: (positions, keywords)}; ``tr`` is the
# chapter's own words, printed or drawn (a text of one word counts there: ``tr("step")``).
CHECKS = {"tr": ((0,), ()),
          "check": ((1, 2), ("right", "hint")),
          "check_answer": ((), ("right", "hint", "none_hint")),
          "can_check": ((1,), ("hint", "what", "none_hint")),
          "run_check": ((1,), ("hint",)),
          "not_answered": ((0,), ("hint", "what"))}

# A table a chapter shows through coursetools: {function: (position of the list of rows, columns of words,
# columns of words where a cell has some outside its `code`)}. module_table(MODULE_MAP): "what it holds" and
# "chapters" are words ("all"), the modules are not; "PyTorch counterpart" is files, now and then a sentence.
TABLES = {"module_table": (0, (1, 2), (3,))}


def chapter_messages(source):
    """``[(template, line)]``: the texts a chapter's code hands to the checks, as templates.

    A text is a string, an f-string (its fields kept as written: ``{hint}``, ``{got!r}``), or strings added
    together; a variable or a call of the chapter's own function stands for what is assigned to it or
    returned (followed: ``hint = "..."``, ``problem = whats_wrong(w)``, ``for ..., what in [(..., "...")]``).
    Only texts with words in them (two or more) count; in ``tr(...)`` and a table's words, one word is
    enough; a template with no words of its own counts when it puts two of the chapter's texts together
    (``f"{problem} {hint}"``).
    """
    import ast
    tree = ast.parse(source)
    functions = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assigned, loops = {}, []             # name -> [expressions it is given]; the for loops

    def bind(target, value):
        if isinstance(target, ast.Name):
            assigned.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for index, element in enumerate(target.elts):
                if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                    bind(element, value.elts[index])
                else:
                    item = ast.Subscript(value=value, slice=ast.Constant(index))
                    bind(element, ast.copy_location(item, value))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                bind(target, node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            bind(node.target, node.value)
        elif isinstance(node, ast.For):
            loops.append(node)
    for loop in loops:                   # for ..., words in [(..., "..."), ...] (or a name for such a list)
        rows = [loop.iter] if isinstance(loop.iter, (ast.List, ast.Tuple)) else \
            [value for value in assigned.get(getattr(loop.iter, "id", None), [])
             if isinstance(value, (ast.List, ast.Tuple))]
        for row in rows:
            for element in row.elts:
                bind(loop.target, element)

    found, seen_names, seen_functions = [], set(), set()
    one_word = [False]                  # in a tr(...) call: a text of a single word counts

    def escape(text):
        return text.replace("{", "{{").replace("}", "}}")

    def field(expression):
        return "{" + ast.get_source_segment(source, expression, padded=False) + "}"

    def template_of(node):
        """The template of a string-valued expression, or None; follows what its fields name."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return escape(node.value)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    parts.append(escape(value.value))
                else:
                    parts.append("{" + ast.get_source_segment(source, value.value)
                                 + (f"!{chr(value.conversion)}" if value.conversion != -1 else "")
                                 + (":" + "".join(v.value for v in value.format_spec.values
                                                  if isinstance(v, ast.Constant))
                                    if value.format_spec else "") + "}")
                    follow(value.value)
            return "".join(parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = template_of(node.left), template_of(node.right)
            if left is None and right is None:
                return None
            if left is None:
                follow(node.left)
            if right is None:
                follow(node.right)
            return (left if left is not None else field(node.left)) + \
                   (right if right is not None else field(node.right))
        return None

    def texts(node, line):
        """Note the texts ``node`` can be."""
        if isinstance(node, ast.IfExp):
            texts(node.body, line)
            texts(node.orelse, line)
            return
        if isinstance(node, (ast.Tuple, ast.List)):
            for element in node.elts:
                texts(element, line)
            return
        template = template_of(node)
        if template is not None and re.fullmatch(r"\w+[_.][\w.]*(?:\(\))?", template):
            return                                  # (a name in the code, no_grad or x.grad, is no text)
        if template is not None:
            words = re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^{}]*\}", " ", template.replace("{{", "")))
            if len(words) >= 2 or (words and (one_word[0] or not re.fullmatch(r"[\w.]+", template))) or \
                    (not words and len(fields_of(node)) >= 2 and any(map(stands_for_text, fields_of(node)))):
                found.append((template, line))      # (texts put together: f"{problem} {hint}")
            return
        follow(node)

    def fields_of(node):
        """The expressions a template's fields are written with."""
        if isinstance(node, ast.JoinedStr):
            return [value.value for value in node.values if isinstance(value, ast.FormattedValue)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return [field for side in (node.left, node.right)
                    for field in (fields_of(side) if template_of(side) is not None else [side])]
        return []

    def stands_for_text(node, depth=0):
        """Does ``node`` (a field) hold one of the chapter's texts: a variable given a string, or a call of
        the chapter's own function that returns one?"""
        def is_text(value):
            return (isinstance(value, ast.Constant) and isinstance(value.value, str)) or \
                isinstance(value, (ast.JoinedStr, ast.IfExp)) or \
                (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)) or \
                (depth < 3 and stands_for_text(value, depth + 1))
        if isinstance(node, ast.Name):
            return any(is_text(value) for value in assigned.get(node.id, []))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
            return any(isinstance(n, ast.Return) and n.value is not None and is_text(n.value)
                       for n in ast.walk(functions[node.func.id]))
        return False

    def follow(node):
        """Texts a variable holds, or a call of the chapter's own function returns, or nested in a field."""
        if isinstance(node, ast.Name):
            if node.id not in seen_names:
                seen_names.add(node.id)
                for value in assigned.get(node.id, []):
                    texts(value, value.lineno)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
            follow_call(node.value, node.slice)
        elif isinstance(node, ast.Call):
            follow_call(node, None)
            for argument in node.args:
                if isinstance(argument, (ast.Constant, ast.JoinedStr, ast.IfExp)):
                    texts(argument, argument.lineno)
        elif isinstance(node, ast.IfExp):
            texts(node, node.lineno)

    def follow_call(call, index):
        if not (isinstance(call.func, ast.Name) and call.func.id in functions):
            return
        key = (call.func.id, None if index is None else ast.dump(index))
        if key in seen_functions:
            return
        seen_functions.add(key)
        for node in ast.walk(functions[call.func.id]):
            if isinstance(node, ast.Return) and node.value is not None:
                value = node.value
                if (index is not None and isinstance(index, ast.Constant)
                        and isinstance(value, ast.Tuple) and index.value < len(value.elts)):
                    value = value.elts[index.value]
                texts(value, node.lineno)

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if name in TABLES and node.args:                # module_table(MODULE_MAP): its rows' words
            position, columns, prose_columns = TABLES[name]
            table = node.args[position]
            rows = [value for value in assigned.get(getattr(table, "id", None), [])
                    if isinstance(value, ast.List)]
            one_word[0] = True
            for row in (row for value in rows for row in value.elts if isinstance(row, ast.Tuple)):
                for column in (*columns, *prose_columns):
                    cell = row.elts[column] if column < len(row.elts) else None
                    if cell is None or column in prose_columns and not (
                            isinstance(cell, ast.Constant) and isinstance(cell.value, str)
                            and re.search(r"[A-Za-z]{2,}", re.sub(r"`[^`]*`", " ", cell.value))):
                        continue
                    texts(cell, cell.lineno)
            continue
        if name not in CHECKS:
            continue
        positions, keywords = CHECKS[name]
        arguments = [node.args[p] for p in positions if p < len(node.args)]
        arguments += [k.value for k in node.keywords if k.arg in keywords]
        one_word[0] = name == "tr"
        for argument in arguments:
            texts(argument, argument.lineno)
    return sorted(found, key=lambda pair: pair[1])


def extracted(domain):
    """``{msgid: ["file:line", ...]}`` of every message of ``domain`` in the code."""
    messages = {}
    for path in sources(domain):
        source = path.read_text()
        pairs = chapter_messages(source) if domain == "chapters" else marked_messages(source)
        where = path.relative_to(NOTEBOOKS.parent)
        for msgid, line in pairs:
            messages.setdefault(msgid, []).append(f"{where}:{line}")
    return messages


# ---------------------------------------------------------------- the catalogues: update, check
HEADER = """Chinese (zh_CN) translations of the course's {what}.
Made and kept in step by `python -m buildtrack --translations update` (notebooks/buildtrack/i18n.py).
Keep every {{field}} of a msgid in its msgstr; PyTorch's names and quoted messages stay as they are."""
WHAT = {"buildtrack": "build-track messages (notebooks/buildtrack/)",
        "coursetools": "exercise checks and set-up check (notebooks/coursetools.py)",
        "chapters": "texts that the chapters' code cells hand to the checks (notebooks/src/*.py, "
                    "notebooks/exercises/*.py)"}


def _read_po(domain):
    import polib
    return polib.pofile(str(po_path(domain)), wrapwidth=0) if po_path(domain).exists() else None


def update(domain):
    """Merge the code's messages into the domain's ``.po`` (new ones untranslated, gone ones dropped, each
    with the places it comes from), then compile the ``.mo``."""
    import polib
    old = _read_po(domain)
    previous = {entry.msgid: entry for entry in old} if old is not None else {}
    catalogue = polib.POFile(wrapwidth=0)
    catalogue.header = HEADER.format(what=WHAT[domain])
    catalogue.metadata = {"Project-Id-Version": "mini_autograd course", "Language": CATALOGUE_LANGUAGE,
                          "MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8",
                          "Content-Transfer-Encoding": "8bit"}
    for msgid, places in extracted(domain).items():
        entry = polib.POEntry(msgid=msgid, msgstr="", occurrences=[tuple(p.rsplit(":", 1)) for p in places])
        if msgid in previous:
            entry.msgstr, entry.flags = previous[msgid].msgstr, list(previous[msgid].flags)
        if domain != "chapters" and "{" in msgid:         # (a chapter's fields are expressions)
            entry.flags = sorted(set(entry.flags) | {"python-brace-format"})
        else:
            entry.flags = [flag for flag in entry.flags if flag != "python-brace-format"]
        catalogue.append(entry)
    po_path(domain).parent.mkdir(parents=True, exist_ok=True)
    catalogue.save(str(po_path(domain)))
    compile_mo(domain)


def compile_mo(domain, target=None):
    """The ``.mo`` of the domain's ``.po`` (translated, not fuzzy entries), written to ``target``."""
    _read_po(domain).save_as_mofile(str(target or mo_path(domain)))


def problems(domain):
    """What is wrong with the domain's catalogue: messages missing, untranslated, fuzzy, unused, fields
    lost or added, and a ``.mo`` that is not the compiled ``.po``."""
    catalogue = _read_po(domain)
    if catalogue is None:
        return [f"{po_path(domain)} is missing: run python -m buildtrack --translations update"]
    entries = {entry.msgid: entry for entry in catalogue if not entry.obsolete}
    wanted = extracted(domain)
    found = [f"{domain}: not in the catalogue: {msgid!r} ({', '.join(places)})"
             for msgid, places in wanted.items() if msgid not in entries]
    found += [f"{domain}: unused: {msgid!r}" for msgid in entries if msgid not in wanted]
    for msgid, entry in entries.items():
        if not entry.msgstr:
            found.append(f"{domain}: not translated: {msgid!r}")
        elif entry.fuzzy:
            found.append(f"{domain}: fuzzy: {msgid!r}")
        elif _fields(domain, msgid) != _fields(domain, entry.msgstr):
            found.append(f"{domain}: the fields of {msgid!r} are {_fields(domain, msgid)}, "
                         f"its translation has {_fields(domain, entry.msgstr)}")
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        fresh = pathlib.Path(folder) / "fresh.mo"
        compile_mo(domain, fresh)
        if not mo_path(domain).exists() or mo_path(domain).read_bytes() != fresh.read_bytes():
            found.append(f"{mo_path(domain)} is not the compiled {po_path(domain).name}: "
                         "run python -m buildtrack --translations update")
    return found


ENGLISH_ONLY = re.compile(r"\{'s' if [^{}]* else ''\}")


def _fields(domain, text):
    """The fields a template fills: its ``{name!r:spec}`` tokens (a translation may use one twice). In a
    chapter's text, a field only English grammar needs (a plural's ``{'s' if count != 1 else ''}``) may be
    left out of the translation."""
    if domain == "chapters":
        return sorted(set(template_fields(text)) - set(ENGLISH_ONLY.findall(text)))
    import string
    try:
        parsed = string.Formatter().parse(text)
        return sorted({f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
                       for _text, name, spec, conversion in parsed if name is not None})
    except ValueError as error:
        return [f"(not a template: {error})"]


def main(arguments=None):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m buildtrack --translations",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["update", "check"])
    parser.add_argument("domains", nargs="*", default=list(DOMAINS))
    options = parser.parse_args(arguments)
    if options.command == "update":
        for domain in options.domains:
            update(domain)
    found = [problem for domain in options.domains for problem in problems(domain)]
    print("\n".join(found) or "Every message has its translation.")
    return 1 if found else 0


