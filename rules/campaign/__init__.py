"""The campaign (DESIGN, 'The campaign'): a table's characters, their gear and their
scars, which outlive fights. A stream of its own, folded by a pure reducer like a
fight's (rules.campaign.reducer), never read by a fight: a fight takes copies of the
characters at its start, and what it did to them comes back only as findings the GM
reviews (rules.campaign.findings, rules.campaign.review).

Pure like the engine: no I/O, no clock, no random; integers; a bad command is
refused with a namespaced code (`campaign/...`) and a reason, and changes nothing.
"""
