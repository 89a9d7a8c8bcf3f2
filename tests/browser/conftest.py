"""Fixtures of the browser tests: Chromium through playwright, and a temporary home for Jupyter.

The tests skip with the reason when Debian's chromium or the playwright package
is missing. CI sets REQUIRE_BROWSER_TESTS=1 (see .ci/run): there a missing
browser fails the run instead of skipping it.
"""
import os

import pytest

import labtools

INSTALL_HINT = ("install Debian's chromium (`sudo apt-get install chromium`) and the playwright "
                "package (`pip install -e '.[test]'`); never `playwright install`, the test uses the "
                "system browser")


def _missing():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed"
    if labtools.find_chromium() is None:
        return "no chromium browser found (looked for /usr/bin/chromium and chromium on PATH)"
    return None


@pytest.fixture(scope="session")
def chromium_path():
    missing = _missing()
    if missing:
        message = f"browser test: {missing}; {INSTALL_HINT}"
        if os.environ.get("REQUIRE_BROWSER_TESTS") == "1":
            pytest.fail(message + " (REQUIRE_BROWSER_TESTS=1: CI must run it)")
        pytest.skip(message)
    return labtools.find_chromium()


@pytest.fixture(scope="module")
def playwright_instance(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(playwright_instance, chromium_path, tmp_path_factory):
    context = labtools.launch_chromium(playwright_instance, tmp_path_factory.mktemp("chromium-profile"),
                                       chromium_path)
    yield context
    context.close()


@pytest.fixture(scope="session")
def artifacts():
    labtools.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return labtools.ARTIFACTS
