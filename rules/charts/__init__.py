"""The charts of the rule documents as data: one table per module, each with a
one-line comment naming the document and the chart it comes from."""
