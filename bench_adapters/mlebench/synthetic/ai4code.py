"""AI4Code: Python notebooks whose markdown cells are to be put back among their code cells.

A notebook walks through some of the steps of a data-science script in their usual order
(imports, loading, exploring, cleaning, features, splitting, training, evaluating, plotting,
submitting), one to three code cells a step; most steps open with a markdown cell that names
them ("## Training the model"). As in Kaggle's files, each notebook's JSON lists its code
cells in their true order and then its markdown cells shuffled, so the task is to place each
markdown cell: before the first code cell of the step it names.

Public: ``train/<id>.json`` and ``test/<id>.json`` (``{"cell_type": {cell: "code" |
"markdown"}, "source": {cell: text}}``), ``train_orders.csv`` (``id,cell_order``, the cell
ids space-separated in reading order), ``train_ancestors.csv`` (``id,ancestor_id,parent_id``:
notebooks forked from one another share an ancestor), ``sample_submission.csv``
(``id,cell_order`` in the JSON's order). Private: ``test_orders.csv``. Notebook ids are 14 hex
digits, cell ids 8. As upstream: whole ancestor groups go to test, taken in a shuffled order
until the test count is filled; the order tables keep the raw (id-sorted) order.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, hex_ids

STEPS: list[tuple[str, list[str]]] = [
    ("Importing the libraries", ["import numpy as np\nimport pandas as pd",
                                  "import matplotlib.pyplot as plt\nimport seaborn as sns"]),
    ("Loading the data", ["df = pd.read_csv('../input/train.csv')",
                          "test = pd.read_csv('../input/test.csv')"]),
    ("Exploring the data", ["df.head()", "df.describe()", "df.info()", "df.shape"]),
    ("Cleaning missing values", ["df = df.dropna()", "df.isnull().sum()",
                                 "df['age'] = df['age'].fillna(df['age'].median())"]),
    ("Feature engineering", ["df['ratio'] = df['a'] / df['b']",
                             "df = pd.get_dummies(df, columns=['city'])"]),
    ("Splitting train and validation", ["from sklearn.model_selection import train_test_split",
                                        "X_train, X_val, y_train, y_val = train_test_split(X, y)"]),
    ("Training the model", ["from sklearn.ensemble import RandomForestClassifier",
                            "model = RandomForestClassifier(n_estimators=100)",
                            "model.fit(X_train, y_train)"]),
    ("Evaluating the model", ["from sklearn.metrics import accuracy_score",
                              "accuracy_score(y_val, model.predict(X_val))"]),
    ("Plotting the results", ["plt.figure(figsize=(10, 6))\nsns.histplot(df['target'])",
                              "plt.plot(history)\nplt.show()"]),
    ("Writing the submission", ["sub = pd.DataFrame({'id': test.id, 'target': pred})",
                                "sub.to_csv('submission.csv', index=False)"]),
]  # fmt: skip


def notebook(rng: np.random.Generator) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """``(true cell order, cell types, sources)``; types and sources in the JSON's order."""
    steps = sorted(rng.choice(len(STEPS), int(rng.integers(3, len(STEPS) + 1)), replace=False))
    cells: list[tuple[str, str]] = []  # (type, source) in reading order
    for k in steps:
        title, snippets = STEPS[k]
        if rng.random() < 0.8:
            cells.append(("markdown", f"{'#' * int(rng.integers(1, 4))} {title}"))
        count = int(rng.integers(1, min(3, len(snippets)) + 1))
        cells.extend(("code", str(s)) for s in rng.choice(snippets, count, replace=False))
    if not any(kind == "markdown" for kind, _ in cells):
        cells.insert(0, ("markdown", f"# {STEPS[steps[0]][0]}"))
    ids = hex_ids(rng, len(cells), 8).tolist()
    code = [i for i, (kind, _) in zip(ids, cells, strict=True) if kind == "code"]
    markdown = [i for i, (kind, _) in zip(ids, cells, strict=True) if kind == "markdown"]
    listed = code + [markdown[k] for k in rng.permutation(len(markdown))]
    source = dict(zip(ids, (text for _, text in cells), strict=True))
    kind = dict(zip(ids, (k for k, _ in cells), strict=True))
    return ids, {i: kind[i] for i in listed}, {i: source[i] for i in listed}


def ancestors(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    """``id,ancestor_id,parent_id``: most notebooks alone, some forked once or twice."""
    group = np.cumsum(rng.random(len(ids)) < 0.8) - 1
    names = hex_ids(rng, int(group.max()) + 1, 8)
    parents: list[str | None] = []
    for k in range(len(ids)):
        same = k > 0 and group[k] == group[k - 1]
        parents.append(str(ids[k - 1]) if same and rng.random() < 0.7 else None)
    return pd.DataFrame({"id": ids, "ancestor_id": names[group], "parent_id": parents})


def held_out_ids(table: pd.DataFrame, n_test: int) -> set[str]:
    """Upstream's split: whole ancestor groups, in the table's order, while they fit."""
    chosen: list[str] = []
    for _, rows in table.groupby("ancestor_id", sort=False):
        if len(chosen) + len(rows) <= n_test:
            chosen.extend(rows["id"])
    if len(chosen) != n_test:
        raise ValueError(f"the ancestor groups cannot make exactly {n_test} test notebooks")
    return set(chosen)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    ids = np.sort(hex_ids(rng, n, 14))
    table = ancestors(rng, ids).sample(frac=1, random_state=int(rng.integers(2**31)))
    held_out = held_out_ids(table, size.n_test)
    orders = []
    for notebook_id in ids:
        order, kinds, sources = notebook(rng)
        folder = public / ("test" if notebook_id in held_out else "train")
        folder.mkdir(exist_ok=True)
        with open(folder / f"{notebook_id}.json", "w", encoding="utf-8") as f:
            json.dump({"cell_type": kinds, "source": sources}, f)
        orders.append({"id": notebook_id, "cell_order": " ".join(order), "json": " ".join(kinds)})
    frame = pd.DataFrame(orders)
    is_test = frame["id"].isin(held_out)
    frame.loc[~is_test, ["id", "cell_order"]].to_csv(public / "train_orders.csv", index=False)
    frame.loc[is_test, ["id", "cell_order"]].to_csv(private / "test_orders.csv", index=False)
    table[~table["id"].isin(held_out)].to_csv(public / "train_ancestors.csv", index=False)
    sample = frame.loc[is_test, ["id", "json"]].rename(columns={"json": "cell_order"})
    sample.to_csv(public / "sample_submission.csv", index=False)
