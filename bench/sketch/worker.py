import json, sys
def call(text):
    req = json.loads(text)
    return json.dumps({"pong": req["n"] * 2, "py": sys.version[:6]})
__export__ = ["call"]
