"""The ui layer's browser glue in the engine worker (Pyodide): the only modules of the worker that
import `js` (the design's ui layer holds the browser glue of either thread: py/shell/ on the main
thread, this on the worker; py/parlour/ui/ is the layer's pure part, screens as trees).
"""
