from nowhere import Square  # noqa: F401 - a student's own broken import
