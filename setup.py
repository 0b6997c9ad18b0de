"""The compiled search (remikit/_solvercore.c), built where a C compiler is found.

``optional``: without a compiler or Python's headers the build goes on, and remikit
runs its pure-Python search (remikit.solver).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "remikit._solvercore",
            ["remikit/_solvercore.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Werror=implicit"],
            optional=True,
        )
    ]
)
