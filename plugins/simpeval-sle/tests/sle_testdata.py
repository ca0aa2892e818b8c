"""A tiny OneStopEnglish-shaped corpus (a module of its own: test files import it, and another
conftest may shadow this directory's)."""

from __future__ import annotations

# (advanced, intermediate, elementary) versions of a few made-up articles
ARTICLES = {
    "bridge": ("The municipality subsequently constructed an enormous suspension bridge across the estuary.",
               "The city then built a very large bridge across the river mouth.",
               "The city built a big bridge."),
    "doctor": ("The physician administered the experimental medication immediately. Recovery was remarkable.",
               "The doctor gave the new medicine at once. The patient got much better.",
               "The doctor gave the medicine. He got better."),
    "plan": ("Numerous residents expressed considerable dissatisfaction with the controversial proposal.",
             "Many people said they were unhappy with the plan.",
             "People did not like the plan."),
    "study": ("The investigation demonstrated conclusively that the allegations were unfounded.",
              "The study showed that the claims were not true.",
              "The study said the claims were false."),
    "group": ("The organisation acquired additional premises in the immediate vicinity.",
              "The group bought more buildings close by.",
              "The group bought more houses."),
    "vote": ("Parliamentary representatives overwhelmingly rejected the constitutional amendment yesterday.",
             "Members of parliament voted against the change to the law yesterday.",
             "They voted no to the new law."),
}


def write_corpus(root):
    """``root/onestopenglish/{Adv,Int,Ele}/NAME-{adv,int,ele}.txt``, with a BOM and the Intermediate label line."""
    for level, (folder, suffix) in enumerate((("Adv", "adv"), ("Int", "int"), ("Ele", "ele"))):
        directory = root / "onestopenglish" / folder
        directory.mkdir(parents=True)
        for name, versions in ARTICLES.items():
            label = "Intermediate\n" if folder == "Int" else ""
            (directory / f"{name}-{suffix}.txt").write_text("\ufeff" + label + versions[level] + " \n", encoding="utf-8")
    return root
