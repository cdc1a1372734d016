"""The offline decomposer: spaCy parses turned into facts with qualifiers."""
