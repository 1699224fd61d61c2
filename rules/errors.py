class Rejected(Exception):
    """A command that is illegal now. Recorded in the log; nothing else changes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code  # namespaced and stable: 'declare/not-your-combatant'
        self.message = message
