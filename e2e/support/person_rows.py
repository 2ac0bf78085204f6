"""A person's rows in a data folder, read from the files as Pocket's `PersonRows` deletes them."""
import sqlite3
from pathlib import Path


def rows_of(person_id: int, data_dir: Path) -> dict[str, int]:
    """{database file: rows of that person}, over every table with a personID column of every
    database under the data folder (whichever app made it), each opened read-only."""
    counts = {}
    for path in sorted(Path(data_dir).rglob("*.sqlite")):
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                      if any(column[1] == "personID" for column in db.execute(f'PRAGMA table_info("{name}")'))]
            if tables:
                counts[str(path.relative_to(data_dir))] = sum(
                    db.execute(f'SELECT COUNT(*) FROM "{name}" WHERE personID = ?', (person_id,)).fetchone()[0] for name in tables)
    return counts
