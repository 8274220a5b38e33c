"""Outgoing responses."""
import json
from dataclasses import dataclass, field

REASONS = {200: "OK", 201: "Created", 204: "No Content", 404: "Not Found", 405: "Method Not Allowed", 500: "Internal Server Error"}


@dataclass
class Response:
    status: int = 200
    body: str = ""
    headers: dict = field(default_factory=dict)

    @property
    def reason(self):
        return REASONS.get(self.status, "")


def json_response(data, status=200):
    return Response(status, json.dumps(data, sort_keys=True), {"Content-Type": "application/json"})
