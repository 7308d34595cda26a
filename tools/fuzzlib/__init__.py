"""The fuzzing harness behind tools/fuzz: case generation, the worker that runs cases, result
descriptions and their comparison, plugin-file scenarios, and the runner that watches workers."""
