"""The one error type: what went wrong and where, as FILE:LINE: message."""


class HeaderError(Exception):
    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message
