"""The engine worker's browser glue (Pyodide): the only modules of the worker that import `js`,
kept apart from the package (py/parlour/, pure) as the main thread's glue is kept in py/shell/.
"""
