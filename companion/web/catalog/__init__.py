"""`/catalog`, check the catalog against your copy: routes.py the routes; screen.py the cards, forms and
progress; form.py a correction form read back into values; words.py a record's fields and values in words
(and the loader's problems, for every page that lists them); reward_words.py those words read back into the
reward grammar. Which catalog a request works with is shared (web/catalog_desk.py). Templates:
templates/catalog/."""
