"""The commit-message rule: a subject of at most 72 characters, in the imperative, the detail in the body.

``.githooks/commit-msg`` runs this on every commit (``make venv-test`` sets ``core.hooksPath``), and
``tests/test_commits.py`` runs it over every commit since the hook was added. What it can tell from the
words alone: the length, no full stop at the end, a blank line before the body, and a first word that is
not in the past tense or a gerund ("Added ...", "Adding ..."). A noun phrase ("Faster verdicts") passes:
write "Make verdicts faster".

    python tools/commit_msg.py FILE      # the hook's call: FILE holds the message; exit 1 with the reasons
"""
import re
import sys

LIMIT = 72
# Imperative verbs that end like a past tense or a gerund.
NOT_TENSES = {"bring", "embed", "feed", "need", "proceed", "seed", "shed", "speed", "spring", "string",
              "succeed"}


def subject_and_body(message):
    """The subject line and the body of a commit message, its comment lines (``#``) left out."""
    lines = [line for line in message.splitlines() if not line.startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    return (lines[0] if lines else ""), lines[1:]


def first_verb(subject):
    """The subject's first word after an optional area prefix ("Build track: make ..." -> "make")."""
    words = re.sub(r"^[\w .'/-]{1,30}:\s+", "", subject).split()
    return words[0].lower().strip("\"'`") if words else ""


def problems(message):
    """What is wrong with ``message``, as sentences; ``[]`` when it follows the rule."""
    subject, body = subject_and_body(message)
    if subject.startswith(("Merge ", "Revert \"")):
        return []
    found = []
    if not subject.strip():
        return ["the subject is empty"]
    if len(subject) > LIMIT:
        found.append(f"the subject has {len(subject)} characters; at most {LIMIT} (the detail goes in "
                     "the body)")
    if subject.rstrip().endswith("."):
        found.append("the subject ends with a full stop")
    if body and body[0].strip():
        found.append("the body must be separated from the subject by a blank line")
    verb = first_verb(subject)
    if verb not in NOT_TENSES and (verb.endswith("ed") or verb.endswith("ing")):
        found.append(f"the subject starts with {verb!r}: write it in the imperative (\"Add\", not "
                     "\"Added\" or \"Adding\")")
    return found


def main(argv):
    with open(argv[1], encoding="utf-8") as file:
        found = problems(file.read())
    for problem in found:
        print(f"commit message: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
