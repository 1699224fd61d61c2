"""The import packages are fray_table.rules, fray_table.server, fray_table.client_web and fray_table.client,
built from the top-level folders of the same names (with every package below them)."""

from setuptools import find_packages, setup

TOP = ("rules", "server", "client_web", "client")

setup(
    packages=[f"fray_table.{p}" for top in TOP for p in (top, *(f"{top}.{sub}" for sub in find_packages(top)))],
    package_dir={f"fray_table.{top}": top for top in TOP},
)
