"""Pure parsers: one module per command family, each with `parse(text) -> frozen facts`.

Parsers never raise on garbage: they return whatever they could read, and a value that could not be
read is None (unknown), never 0.
"""
