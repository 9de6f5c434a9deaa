"""Turns every ```swift block of README.md and docs/*.md into a Swift file that the compiler can check.

Each block becomes the body of its own `async throws` function, so blocks never clash. A block may
use names it does not declare (`connection`, `ui`, ...) when an HTML comment right above it declares
them: `<!-- snippet context: let connection: SSHConnection = placeholder() -->` (one or more lines).
Every file imports the four libraries and Foundation, and a block's own imports move to the top; `#sourceLocation` makes compiler errors point
at the Markdown line.
"""

import pathlib
import re
import sys

IMPORTS = """\
import Foundation
import RemoteWorkspace
import SSHClient
import SSHConfig
import SessionHistory
"""

PRELUDE = IMPORTS + """
/// Stands for a value the surrounding prose has already made: never called, only type-checked.
func placeholder<T>() -> T { fatalError("documentation snippets are type-checked, never run") }
"""

CONTEXT = re.compile(r"<!--\s*snippet context:(.*?)-->", re.S)


def blocks(path: pathlib.Path):
    """Yields (first line number of the code, context, code lines) for each ```swift block."""
    lines = path.read_text(encoding="utf-8").split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            context = ""
            before = "\n".join(lines[max(0, index - 12):index]).rstrip()
            match = None
            for match in CONTEXT.finditer(before):
                pass
            if match and before.endswith("-->"):
                context = match.group(1).strip()
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                sys.exit(f"{path}:{index + 1}: a ```swift block is never closed")
            yield start + 1, context, lines[start:end]
            index = end
        index += 1


def write_snippets(root: pathlib.Path, out: pathlib.Path) -> list:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.swift"):
        old.unlink()
    (out / "Prelude.swift").write_text(PRELUDE, encoding="utf-8")
    written = [out / "Prelude.swift"]
    documents = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    for document in documents:
        relative = document.relative_to(root)
        for number, (line, context, code) in enumerate(blocks(document), start=1):
            imports = [text for text in code if text.startswith("import ")]
            body = ["" if text.startswith("import ") else text for text in code]
            name = re.sub(r"[^A-Za-z0-9]", "_", str(relative.with_suffix(""))) + f"_{number}"
            text = IMPORTS + "\n".join(imports) + "\n"
            text += f"func snippet_{name}() async throws {{\n"
            if context:
                text += context + "\n"
            text += f'#sourceLocation(file: "{relative}", line: {line})\n'
            text += "\n".join(body) + "\n"
            text += "#sourceLocation()\n}\n"
            target = out / f"{name}.swift"
            target.write_text(text, encoding="utf-8")
            written.append(target)
    return written


if __name__ == "__main__":
    files = write_snippets(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
    print("\n".join(str(path) for path in files))
