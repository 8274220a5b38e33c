"""The build backend of the patchgym client: setuptools, run on a copy of the project in a
temporary folder, so that `pip install ./clients/python` leaves no `build/` or `*.egg-info` in the
checkout. Editable installs build in place, as they must."""
import os
import shutil
import tempfile
from contextlib import contextmanager

from setuptools import build_meta as _setuptools

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IGNORED = shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".pytest_cache", "tests")


@contextmanager
def _in_copy():
    """Run the block in a temporary copy of the project, removed afterwards."""
    temp = tempfile.mkdtemp(prefix="patchgym-client-build-")
    copy = os.path.join(temp, "project")
    shutil.copytree(PROJECT, copy, ignore=IGNORED)
    # An installed client finds the checkout it was built from (Client.stdio() with no command).
    checkout = os.path.dirname(os.path.dirname(PROJECT))
    if os.path.isfile(os.path.join(checkout, "deno.json")):
        with open(os.path.join(copy, "patchgym", "_checkout.py"), "w", encoding="utf-8") as f:
            f.write(f'"""Written by the build: the checkout this package was built from."""\nCHECKOUT = {checkout!r}\n')
    before = os.getcwd()
    os.chdir(copy)
    try:
        yield
    finally:
        os.chdir(before)
        shutil.rmtree(temp, ignore_errors=True)


def _absolute(path):
    return os.path.abspath(path) if path is not None else None


def get_requires_for_build_wheel(config_settings=None):
    with _in_copy():
        return _setuptools.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    with _in_copy():
        return _setuptools.get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    metadata_directory = _absolute(metadata_directory)
    with _in_copy():
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    wheel_directory, metadata_directory = _absolute(wheel_directory), _absolute(metadata_directory)
    with _in_copy():
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    sdist_directory = _absolute(sdist_directory)
    with _in_copy():
        return _setuptools.build_sdist(sdist_directory, config_settings)


# Editable installs point at the checkout itself, so they build where they are.
get_requires_for_build_editable = getattr(_setuptools, "get_requires_for_build_editable", None)
prepare_metadata_for_build_editable = getattr(_setuptools, "prepare_metadata_for_build_editable", None)
build_editable = getattr(_setuptools, "build_editable", None)
