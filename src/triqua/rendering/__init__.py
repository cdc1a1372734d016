"""A report for people: terminal tables, HTML, Markdown, marked text and charts."""
