def hello():
    return "shell module ok"
