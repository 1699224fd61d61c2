"""003's step and prompt kinds, each named once (the engine's own: rules.model; the
missiles' steps: rules.actions)."""

STRIKE = "strike"  # step: one attack roll queued by a declared attack, charge, counter or riposte (rules.holmes.combat)
BURN = "burn"  # step: burning oil's roll at the head of the magic phase (rules.holmes.oil)
RIPOSTE_PROMPT = "riposte"  # prompt: a parrier's counter-attack at +3, 'counter' or 'decline' (rules.holmes.combat)
RIPOSTE_ANSWERS = {"counter": "Counter-attack once", "decline": "Let it pass: no counter-attack"}
