"""h-and-m-personalized-fashion-recommendations: two years of purchases (2018-09-20 to
2020-09-22) by customers of a clothing store; predict what each customer buys in the last 8
days (from 2020-09-15, upstream's cut at the last date minus 7 days).

Every article belongs to one of ten store sections (``index_code``) and comes out on a launch
day, after which its sales fade; a customer buys mostly in their own section (which their age
hints at), and sometimes buys an article again. So recent best sellers of a customer's section,
and what they bought lately, are the signal.

Public: ``transactions_train.csv`` (``t_dat, customer_id, article_id, price,
sales_channel_id``, by date; ``article_id`` written as a number, as upstream's pandas round
trip leaves it), ``customers.csv`` and ``articles.csv`` (Kaggle's columns; Kaggle's ten-digit
zero-padded ``article_id``), ``images/<first 3 digits>/<article_id>.jpg`` (a few articles have
none, as on Kaggle), ``sample_submission.csv`` (every customer, Kaggle's constant ranking of 12
zero-padded ids). Private: ``answers.csv`` (``customer_id, prediction``: the customers who
bought in the last 8 days, sorted, each with the articles bought, unpadded, in order). The
zero-padding mismatch is upstream's (see the grader). The sample's last customer is one of
the buyers, so a sample cut by a row is refused.

Sizes: ``n_train`` counts the transactions before the cut, ``n_test`` the buying customers;
customers (1,371,980 at full size) and articles (105,542) keep Kaggle's ratios to them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, spans, write_csv
from .imaging import Canvas, jitter, save

FULL_BUYERS = 80_000
CUSTOMERS_PER_BUYER = 1_371_980 / FULL_BUYERS
ARTICLES_PER_CUSTOMER = 105_542 / 1_371_980
DAYS, CUT = 734, 726  # 2018-09-20 + 733 days = 2020-09-22; the last 8 days are the test
START = pd.Timestamp("2018-09-20")
SAMPLE_PREDICTION = (
    "0706016001 0706016002 0372860001 0610776002 0759871002 0464297007 "
    "0372860002 0610776001 0399223001 0706016003 0720125001 0156231001"
)
SECTIONS = [  # index_code, index_name, index_group_no, index_group_name, typical age
    ("A", "Ladieswear", 1, "Ladieswear", 38),
    ("B", "Lingeries/Tights", 1, "Ladieswear", 34),
    ("C", "Ladies Accessories", 1, "Ladieswear", 45),
    ("D", "Divided", 2, "Divided", 22),
    ("F", "Menswear", 3, "Menswear", 36),
    ("G", "Baby Sizes 50-98", 4, "Baby/Children", 31),
    ("H", "Children Sizes 92-140", 4, "Baby/Children", 40),
    ("I", "Children Sizes 134-170", 4, "Baby/Children", 44),
    ("J", "Children Accessories, Swimwear", 4, "Baby/Children", 39),
    ("S", "Sport", 26, "Sport", 28),
]
TYPES = [  # product_type_no, product_type_name, product_group_name, garment group, shape
    (253, "Vest top", "Garment Upper body", (1002, "Jersey Basic"), "top"),
    (255, "T-shirt", "Garment Upper body", (1005, "Jersey Fancy"), "top"),
    (252, "Sweater", "Garment Upper body", (1003, "Knitwear"), "top"),
    (272, "Trousers", "Garment Lower body", (1009, "Trousers"), "legs"),
    (274, "Shorts", "Garment Lower body", (1025, "Shorts"), "legs"),
    (265, "Dress", "Garment Full body", (1013, "Dresses Ladies"), "dress"),
    (302, "Socks", "Socks & Tights", (1021, "Socks and Tights"), "small"),
    (306, "Bra", "Underwear", (1017, "Under-, Nightwear"), "small"),
]
COLOURS = [  # colour_group_code, name, RGB, perceived value (id, name), master (id, name)
    (9, "Black", (20, 20, 20), (4, "Dark"), (5, "Black")),
    (10, "White", (240, 240, 240), (3, "Light"), (9, "White")),
    (73, "Dark Blue", (30, 40, 90), (4, "Dark"), (2, "Blue")),
    (7, "Grey", (128, 128, 128), (2, "Medium Dusty"), (12, "Grey")),
    (13, "Beige", (220, 200, 160), (1, "Dusty Light"), (11, "Beige")),
    (52, "Pink", (240, 150, 180), (3, "Light"), (4, "Pink")),
    (93, "Dark Green", (30, 80, 40), (4, "Dark"), (19, "Green")),
    (42, "Red", (200, 30, 40), (5, "Bright"), (18, "Red")),
]
PATTERNS = [(1010016, "Solid"), (1010001, "All over pattern"), (1010017, "Stripe")]


ARTICLE_COLUMNS = [
    "article_id",
    "product_code",
    "prod_name",
    "product_type_no",
    "product_type_name",
    "product_group_name",
    "graphical_appearance_no",
    "graphical_appearance_name",
    "colour_group_code",
    "colour_group_name",
    "perceived_colour_value_id",
    "perceived_colour_value_name",
    "perceived_colour_master_id",
    "perceived_colour_master_name",
    "department_no",
    "department_name",
    "index_code",
    "index_name",
    "index_group_no",
    "index_group_name",
    "section_no",
    "section_name",
    "garment_group_no",
    "garment_group_name",
    "detail_desc",
]


def catalogue(rng: np.random.Generator, n: int) -> pd.DataFrame:
    """``articles.csv``: ``n`` articles, several colours of each product."""
    products = np.sort(rng.choice(np.arange(108_775, 959_461), max(1, n // 3), replace=False))
    product = np.sort(rng.integers(0, len(products), n))
    variant = np.zeros(n, np.int64)
    for k in range(1, n):
        variant[k] = variant[k - 1] + 1 if product[k] == product[k - 1] else 1
    section = rng.integers(0, len(SECTIONS), len(products))[product]
    kind = rng.integers(0, len(TYPES), len(products))[product]
    colour, pattern = rng.integers(0, len(COLOURS), n), rng.integers(0, len(PATTERNS), n)
    rows = []
    for k in range(n):
        code = f"{products[product[k]]:07d}"
        s, t, c, p = SECTIONS[section[k]], TYPES[kind[k]], COLOURS[colour[k]], PATTERNS[pattern[k]]
        department = 1_000 + 100 * section[k] + kind[k]
        rows.append(
            (
                f"{code}{variant[k]:03d}", code, f"{c[1]} {t[1].lower()}", t[0], t[1], t[2],
                p[0], p[1], c[0], c[1], c[3][0], c[3][1], c[4][0], c[4][1],
                department, f"{s[1]} {t[1]}", s[0], s[1], s[2], s[3],
                10 + section[k], f"{s[3]} {t[2]}", t[3][0], t[3][1],
                f"{p[1]} {t[1].lower()} in {c[1].lower()} for {s[1].lower()}.",
            )
        )  # fmt: skip
    return pd.DataFrame(rows, columns=ARTICLE_COLUMNS)


def draw(rng: np.random.Generator, side: int, kind: int, colour: int) -> Image.Image:
    """A garment on a white background (2:3 portraits, as Kaggle's photographs)."""
    canvas = Canvas(round(side * 2 / 3), side, jitter(rng, (245, 245, 245), 5))
    fill, shape = jitter(rng, COLOURS[colour][2], 10), TYPES[kind][4]
    if shape == "top":
        canvas.rectangle(0.25, 0.3, 0.75, 0.75, fill)
        canvas.rectangle(0.1, 0.3, 0.9, 0.45, fill)
    elif shape == "legs":
        canvas.rectangle(0.25, 0.2, 0.48, 0.9, fill)
        canvas.rectangle(0.52, 0.2, 0.75, 0.9, fill)
    elif shape == "dress":
        canvas.polygon([(0.4, 0.15), (0.6, 0.15), (0.8, 0.9), (0.2, 0.9)], fill)
    else:
        canvas.ellipse(0.5, 0.5, 0.2, 0.15, fill)
    return canvas.finish(rng, noise=3)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_customers = max(size.n_test + 1, round(size.n_test * CUSTOMERS_PER_BUYER))
    articles = catalogue(rng, max(30, round(n_customers * ARTICLES_PER_CUSTOMER)))
    n_articles = len(articles)
    numbers = articles["article_id"].astype(np.int64).to_numpy()  # the zeros go, as upstream's
    section_of = articles["index_code"].map({s[0]: k for k, s in enumerate(SECTIONS)}).to_numpy()
    launch = rng.integers(-120, DAYS, n_articles)
    appeal = 1 / (1 + rng.permutation(n_articles)) ** 0.8
    taste = rng.integers(0, len(SECTIONS), n_customers)
    customer_ids = hex_ids(rng, n_customers, 64)
    buyers = np.sort(rng.choice(n_customers - 1, size.n_test - 1, replace=False))
    buyers = np.append(buyers, n_customers - 1)  # the sample's last row is a buyer

    # Before the cut: an article, a day after its launch, a customer of its section mostly.
    article = rng.choice(n_articles, size.n_train, p=appeal / appeal.sum())
    day = np.clip(launch[article] + rng.exponential(60, size.n_train).astype(np.int64), 0, CUT - 1)
    by_section = [np.flatnonzero(taste == s) for s in range(len(SECTIONS))]
    customer = rng.integers(0, n_customers, size.n_train)
    for s, members in enumerate(by_section):
        pick = np.flatnonzero((section_of[article] == s) & (rng.random(size.n_train) < 0.85))
        if len(members) and len(pick):
            customer[pick] = members[rng.integers(0, len(members), len(pick))]
    order = np.argsort(day, kind="stable")
    price = rng.integers(3, 300, n_articles) / 590

    def transactions() -> Iterator[pd.DataFrame]:
        dates = (START + pd.to_timedelta(np.arange(DAYS), unit="D")).strftime("%Y-%m-%d")
        for part in spans(size.n_train):
            rows = order[part]
            yield pd.DataFrame(
                {
                    "t_dat": dates.to_numpy()[day[rows]],
                    "customer_id": customer_ids[customer[rows]],
                    "article_id": numbers[article[rows]],
                    "price": price[article[rows]],
                    "sales_channel_id": np.where(rng.random(len(rows)) < 0.7, 2, 1),
                }
            )

    write_csv(public / "transactions_train.csv", transactions())

    # After the cut: each buyer's articles, from their section's recent releases mostly.
    recent = appeal * np.exp(-np.clip(CUT - launch, 0, None) / 60) * (launch < DAYS)
    pools = [np.flatnonzero(section_of == s) for s in range(len(SECTIONS))]
    pools = [pool if len(pool) else np.arange(n_articles) for pool in pools]
    cdfs = [np.cumsum(recent[pool]) / recent[pool].sum() for pool in pools]
    last = np.full(n_customers, -1)  # each customer's latest article before the cut
    latest = order[::-1]
    seen, first = np.unique(customer[latest], return_index=True)
    last[seen] = article[latest][first]
    predictions = []
    for buyer, count in zip(buyers, rng.integers(1, 7, len(buyers)), strict=True):
        pool, cdf = pools[taste[buyer]], cdfs[taste[buyer]]
        bought = pool[np.minimum(np.searchsorted(cdf, rng.random(count)), len(pool) - 1)]
        if last[buyer] >= 0 and rng.random() < 0.3:
            bought[0] = last[buyer]
        predictions.append(" ".join(str(numbers[a]) for a in bought))
    answers = pd.DataFrame({"customer_id": customer_ids[buyers], "prediction": predictions})
    answers.sort_values("customer_id").to_csv(private / "answers.csv", index=False)

    _write_customers(public, rng, customer_ids, taste)
    articles.to_csv(public / "articles.csv", index=False)
    pd.DataFrame({"customer_id": customer_ids, "prediction": SAMPLE_PREDICTION}).to_csv(
        public / "sample_submission.csv", index=False
    )
    kinds = articles["product_type_no"].map({t[0]: k for k, t in enumerate(TYPES)}).to_numpy()
    colours = articles["colour_group_code"].map({c[0]: k for k, c in enumerate(COLOURS)})
    for k, article_id in enumerate(articles["article_id"]):
        if k and rng.random() < 0.004:  # Kaggle has no image for 0.4% of articles
            continue
        image = draw(rng, size.side, int(kinds[k]), int(colours.iat[k]))
        save(image, public / "images" / article_id[:3] / f"{article_id}.jpg")


def _write_customers(
    public: Path, rng: np.random.Generator, ids: np.ndarray, taste: np.ndarray
) -> None:
    n = len(ids)
    news = rng.random(n) < 0.35
    age = np.array([SECTIONS[t][4] for t in taste]) + rng.normal(0, 8, n).round()
    frame = pd.DataFrame(
        {
            "customer_id": ids,
            "FN": np.where(news, 1.0, np.nan),
            "Active": np.where(news & (rng.random(n) < 0.95), 1.0, np.nan),
            "club_member_status": rng.choice(
                ["ACTIVE", "PRE-CREATE", "LEFT CLUB"], n, p=[0.93, 0.065, 0.005]
            ),
            "fashion_news_frequency": np.where(news, "Regularly", "NONE"),
            "age": pd.array(np.where(rng.random(n) < 0.01, np.nan, np.clip(age, 16, 99)), "Int64"),
            "postal_code": hex_ids(rng, n, 64),
        }
    )
    frame.to_csv(public / "customers.csv", index=False)
